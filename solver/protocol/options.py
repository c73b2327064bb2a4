"""The options a protocol session plays with (`options` messages set them): word list,
distribution, minimum word length, the seat bot, seed, variant and clock."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.tiles import DISTRIBUTIONS, TileCounts
from solver.play.rules import Rules

CLOCKS = ("realtime", "instant")


@dataclass
class Options:
    """A session's settings (PROTOCOL.md, "options"): the lexicon, the tile distribution (None: the lexicon's
    own set), the shortest word, the seat-mode bot, the seed, the variant, the clock (realtime or instant)
    and `time_scale` (simulated seconds per wall-clock second).
    """

    lexicon: str = "en"
    distribution: str | None = None  # None: the lexicon's language default
    min_length: int = 2
    bot: str = "hard"
    seed: int = 0
    variant: str = "classic"
    clock: str = "realtime"
    time_scale: float = 1.0  # simulated seconds per wall second (realtime clock)
    tiles: TileCounts | None = field(default=None, repr=False)  # the distribution, read once

    def rules(self) -> Rules:
        """The game Rules these options give (RuleError for an impossible combination)."""
        language = self.lexicon if self.lexicon in DISTRIBUTIONS else "en"
        distribution = self.tiles if self.tiles is not None else DISTRIBUTIONS[language]
        return Rules(lexicon=self.lexicon, distribution=distribution, min_length=self.min_length, variant=self.variant)

    def to_json(self) -> dict:
        """Every option's current value, as the `options` reply carries them."""
        return {name: value for name, value in self.__dict__.items() if name != "tiles"}
