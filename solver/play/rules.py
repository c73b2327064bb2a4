"""The rules of a Bananagrams hand as the engine reads them, and the bot interface.

docs/RULES.md is the contract; the rule each piece implements is named beside it. `Rules` is
a hand's rule options (word list, tiles, shortest word, variant); `TableView` what a player
sees when it decides; `Decision` what it decides; `Bot` the interface every player at a
hand has (a solver bot, the greedy baseline, or `solver.play.remote.RemoteSeat` for a
person or a program whose calls come from outside). The hand itself is `solver.play.hand`,
its clock's cost model `solver.play.cost`, matches `solver.play.match`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, get_args

from solver.core.grid import MIN_WORD_LENGTHS, Grid
from solver.core.tiles import DISTRIBUTIONS, TileCounts
from solver.play.refusals import CallRefusal
from solver.play.variants import ENGINE_VARIANTS, VARIANTS, Variant, WayToPlay


class RuleError(ValueError):
    """Settings the rules do not allow (player counts, variants)."""


@dataclass(frozen=True)
class Rules:
    """The rule options of a hand. RULES.md: classic game, variants, languages."""

    lexicon: str = "en"
    distribution: TileCounts = DISTRIBUTIONS["en"]
    min_length: int = 2  # 3 = the three-letter-minimum variant
    variant: str = "classic"
    solo_objective: str = "time"  # solo: "time" or "fewest-words"

    def __post_init__(self) -> None:
        if self.variant not in ENGINE_VARIANTS:
            raise RuleError(f"unknown variant {self.variant!r} (choose from {', '.join(ENGINE_VARIANTS)})")
        if self.min_length not in MIN_WORD_LENGTHS:
            raise RuleError("minimum word length must be 2 or 3")
        if self.solo_objective not in ("time", "fewest-words"):
            raise RuleError("solo objective must be 'time' or 'fewest-words'")

    @classmethod
    def for_language(cls, language: str, **options) -> Rules:
        """English or French: lexicon and distribution chosen together."""
        if language not in DISTRIBUTIONS:
            raise RuleError(f"unknown language {language!r} (en or fr)")
        options.setdefault("distribution", DISTRIBUTIONS[language])
        return cls(lexicon=language, **options)

    @classmethod
    def for_variant(cls, variant: WayToPlay, language: str, **options) -> Rules:
        """The rules of a catalogue variant (`solver.play.variants`) in `language` (options:
        distribution, solo_objective, min_length: the variant's own by default)."""
        if not isinstance(variant, Variant) or variant.engine is None:
            raise RuleError(f"{variant.title} is not a Bananagrams hand")
        options.setdefault("min_length", variant.min_length)
        return cls.for_language(language, variant=variant.engine, **options)

    @property
    def kind(self) -> Variant:
        """The variant's rules that differ from the classic game (`solver.play.variants`)."""
        kind = VARIANTS[self.variant]
        assert isinstance(kind, Variant)  # __post_init__ took only the engine's variants
        return kind

    def check_players(self, players: int) -> None:
        """RuleError unless the variant seats `players` (an int) and the distribution holds their deal."""
        problem = self.kind.check_players(players)
        if problem is not None:
            raise RuleError(problem)
        if self.hand_size(players) * players > len(self.distribution):
            raise RuleError("not enough tiles for the deal")

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each player (RULES.md, by variant and player count)."""
        return self.kind.hand_size(players, len(self.distribution))

    @property
    def peel_and_dump(self) -> bool:
        """Whether the variant has PEEL and DUMP (Banana Smoothie has neither)."""
        return self.kind.peel_and_dump  # RULES.md: Banana Smoothie has no PEEL, no DUMP


@dataclass(frozen=True)
class TableView:
    """What a bot sees of the table when it decides. `clock`, `seat` and `placed` say how the
    others are getting on (a pacing bot reads them); they are not part of the table's state
    that a call's premise rests on, so two views compare equal without them."""

    bunch: int
    active: int
    rules: Rules
    clock: float = field(default=0.0, compare=False)  # seconds since the split
    seat: int | None = field(default=None, compare=False)  # the deciding player's seat
    placed: tuple[int | None, ...] = field(default=(), compare=False)  # `Hand.placed`, by seat

    @property
    def can_peel(self) -> bool:
        """Whether a PEEL is allowed now: the variant has one and the bunch holds a tile per active player."""
        return self.rules.peel_and_dump and self.bunch >= self.active

    def others_tile_rate(self) -> float | None:
        """Tiles a second the other players still in have placed on their grids, on average,
        since the split; None at the split (or with nobody else in)."""
        others = [tiles for index, tiles in enumerate(self.placed) if index != self.seat and tiles is not None]
        if not others or self.clock <= 0:
            return None
        return sum(others) / len(others) / self.clock

    @property
    def can_dump(self) -> bool:
        """Whether a DUMP is allowed now: the variant has one and the bunch, with the returned tile, holds three."""
        return self.rules.peel_and_dump and self.bunch + 1 >= 3

    @property
    def can_bananas(self) -> bool:
        # Smoothie has no bunch to empty (a rotten player's tiles land there, unused).
        """Whether BANANAS may be called now: the bunch holds fewer tiles than active players (always, in
        Banana Smoothie).
        """
        return not self.rules.peel_and_dump or self.bunch < self.active


# The codes of `call_error`'s refusals (solver.play.refusals): front-ends translate them.
REFUSAL_CODES: tuple[CallRefusal, ...] = get_args(CallRefusal)


CALLS = ("peel", "dump", "bananas", "wait")  # a Decision's calls ("wait": stuck)

# Why a hand ended: a stable code (for front-ends to translate, with its params) -> the
# English reason of the `end` event. `why` is `tie` (a tied finish) or `stalemate`.
EndReason = Literal[
    "bananas", "shared", "stalemate", "all_rotten", "all_left", "event_limit", "longest_word", "equal_longest"
]
END_REASONS: dict[EndReason, str] = {
    "bananas": "BANANAS with a valid grid",
    "shared": "valid BANANAS calls at the same moment",
    "stalemate": "every remaining player is stuck",
    "all_rotten": "every player went rotten",
    "all_left": "every player left",
    "event_limit": "the hand ran too long",
    "longest_word": "{why}: longest word ({best} letters)",
    "equal_longest": "{why}: equal longest words ({best} letters): another hand",
}
WHY: dict[Literal["tie", "stalemate"], str] = {"tie": "tied finish", "stalemate": "stalemate"}


@dataclass
class Decision:
    """A bot's call and the search effort it took. action: peel | dump | bananas | wait
    (stuck), or remote (a remote player: its calls come through `Hand.external_call`).
    `looks`: positions examined for words to play (module docstring); the referee measures
    the tile work itself, from the grid the bot shows."""

    action: str
    looks: int = 0
    tile: str | None = None  # dump: the tile returned (from the hand)
    grid: Grid | None = None  # bananas: the grid shown for inspection


class Bot(Protocol):
    """The interface a tournament, the engine protocol or a front-end drives."""

    name: str
    speed: float

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        """A new hand: the SPLIT's `tiles`, the hand's rules and the bot's own seed (an int)."""

    def receive(self, tiles: TileCounts) -> None:
        """Tiles drawn: its share of a PEEL, or the three of its DUMP."""

    def give_back(self, tile: str) -> None:
        """The DUMP of `tile` (a letter) was honoured: it goes back to the bunch, out of the bot's hand."""

    def decide(self, view: TableView) -> Decision:
        """What to do now, seeing `view`: a Decision (PEEL, DUMP, BANANAS or wait) and the looks it spent."""

    def holding(self) -> TileCounts:
        """Every tile the bot holds: on its grid and in its hand."""

    def current_grid(self) -> Grid | None:
        """The bot's grid as it stands (None before its first word)."""


def grid_tiles(bot: Bot) -> TileCounts:
    """The tiles on a bot's current grid (what is not in its hand)."""
    grid = bot.current_grid()
    return grid.tiles() if grid is not None else TileCounts()
