"""The catalogue of ways to play at a table: every variant, defined once.

Each variant is a class that overrides what differs from the classic game (python-chess's
`chess/variant.py` is the model), and `VARIANTS` lists one instance of each by name. The
command line (`--variant`), the browser's rooms and the engine protocol (`hello`) offer what
this catalogue holds; the engine (`solver.play.hand.Hand`) asks the variant of its `Rules`
for each rule that differs (the deal, PEEL and DUMP, how a tie or a stalemate is decided,
the score). Nothing else compares a variant's name.

Adding a variant: a class here (its name, title, player counts, and the hooks it changes),
one entry in `VARIANTS`, the rules it plays by in docs/RULES.md and its tests; a
variant of another game (like Spellevate) also names the table that plays it
(`game`, see `solver.web.rooms.TABLES`).

Two kinds of name: `name` is what a person chooses (`three-letter`); `engine` is the rule
set the engine runs (`Rules.variant`: classic, smoothie or solo), the same for most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from solver.core.grid import find_words
from solver.core.limits import MAX_SPELLEVATE_PLAYERS

if TYPE_CHECKING:
    from solver.play.hand import Hand, HandResult
    from solver.play.rules import Rules

BANANAGRAMS = "bananagrams"
SPELLEVATE = "spellevate"


class WayToPlay:
    """An entry of the catalogue: a game a table can play, as people choose it (its name,
    title, player counts, shortest word, which kind of table plays it). A Bananagrams
    variant (`Variant`) adds the rules its hand differs by; Spellevate is a game of its own."""

    name: ClassVar[str]
    title: ClassVar[str]
    called: ClassVar[str]  # its name inside a sentence
    engine: ClassVar[str | None] = None  # Rules.variant for a Bananagrams hand, else None
    game: ClassVar[str]  # the kind of table that plays it
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    min_length: ClassVar[int] = 2  # the shortest word
    in_rooms: ClassVar[bool] = True  # a browser room may be created for it

    def check_players(self, players: int) -> str | None:
        """Why `players` cannot play this variant, or None."""
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players == 1:
                return f"{self.called} is played by exactly one player"
            return f"{self.called} takes {self.min_players} to {self.max_players} players"
        return None

    def at_table(self, players: int) -> WayToPlay:
        """What a room plays with `players` seated (one person alone plays solo)."""
        return self


class Variant(WayToPlay):
    """The classic game (RULES.md "Classic game"): 1-8 players, PEEL, DUMP, BANANAS; each
    other Bananagrams variant overrides what differs."""

    name = "classic"
    title = "Classic"
    called = "the classic game"
    engine = "classic"
    game = BANANAGRAMS
    peel_and_dump: ClassVar[bool] = True

    def at_table(self, players: int) -> WayToPlay:
        return VARIANTS["solo"] if players == 1 else self

    # -- the engine's hooks: RULES.md's rules that differ between variants ---------------------
    def hand_size(self, players: int, set_size: int) -> int:
        """RULES.md: 21 tiles each for 1-4 players, 15 for 5-6, 11 for 7-8."""
        if players <= 4:
            return 21
        return 15 if players <= 6 else 11

    def set_aside(self, set_size: int, players: int) -> int:
        """Tiles put aside, unused, at the deal."""
        return 0

    def finish_race(self, hand: Hand, winners: list[int]) -> HandResult:
        """Valid BANANAS calls at one moment: the one caller wins, several share the win."""
        if len(winners) == 1:
            return hand.end("win", winners, "bananas")
        return hand.end("shared", winners, "shared")

    def stalemate(self, hand: Hand) -> HandResult:
        """Every remaining player is stuck: the hand ends unawarded."""
        return hand.end("unawarded", [], "stalemate")

    def scores(self, hand: Hand, winners: list[int]) -> dict:
        """The scores the `end` event carries (none in a race)."""
        return {}

    def search_objective(self, rules: Rules) -> str:
        """What a bot's grid search optimises (`solver.search.objectives`)."""
        return "any"


class ThreeLetter(Variant):
    """RULES.md variants: the classic game with words of three letters or more."""

    name = "three-letter"
    title = "Three-letter minimum"
    called = "the three-letter game"
    min_length = 3


class Solo(Variant):
    """RULES.md solo: one player, 21 tiles; the objective chosen up front is the score."""

    name = "solo"
    title = "Solo"
    called = "solo"
    engine = "solo"
    min_players = max_players = 1
    in_rooms = False  # a room with one person seated plays solo (`at_table`)

    def at_table(self, players: int) -> WayToPlay:
        return self

    def scores(self, hand: Hand, winners: list[int]) -> dict:
        if not winners:
            return {}
        grid = hand.seats[0].bot.current_grid()
        scores: dict = {"time": round(hand.clock, 3), "words": len(find_words(grid)) if grid else 0}
        # The objective chosen up front is the hand's score (lower is better).
        scores["objective"] = hand.rules.solo_objective
        scores["score"] = scores["time"] if hand.rules.solo_objective == "time" else scores["words"]
        return scores

    def search_objective(self, rules: Rules) -> str:
        return "fewest-words" if rules.solo_objective == "fewest-words" else "any"


class Smoothie(Variant):
    """RULES.md Banana Smoothie: the whole set dealt equally, no PEEL, no DUMP; the longest
    valid word decides a tie and a stalemate."""

    name = "smoothie"
    title = "Banana Smoothie"
    called = "Banana Smoothie"
    engine = "smoothie"
    min_players = 2
    peel_and_dump = False

    def at_table(self, players: int) -> WayToPlay:
        return self

    def hand_size(self, players: int, set_size: int) -> int:
        return set_size // players

    def set_aside(self, set_size: int, players: int) -> int:
        return set_size - self.hand_size(players, set_size) * players  # the remainder stays unused

    def finish_race(self, hand: Hand, winners: list[int]) -> HandResult:
        if len(winners) == 1:
            return super().finish_race(hand, winners)
        return longest_word_decides(hand, winners, "tie")

    def stalemate(self, hand: Hand) -> HandResult:
        if hand.active:
            return longest_word_decides(hand, hand.active, "stalemate")
        return super().stalemate(hand)


def longest_word_decides(hand: Hand, candidates: list[int], why: str) -> HandResult:
    """RULES.md Banana Smoothie: the longest valid word in a grid the table sees wins; equal
    longest means another hand. `why`: tie or stalemate (`rules.WHY`)."""

    def longest(index: int) -> int:
        grid = hand.table_grid(index)
        if grid is None:
            return 0
        return max((len(w.text) for w in find_words(grid) if w.text in hand.lexicon), default=0)

    lengths = {index: longest(index) for index in candidates}
    best = max(lengths.values())
    leaders = [index for index, length in lengths.items() if length == best]
    if len(leaders) == 1:
        return hand.end("win", leaders, "longest_word", why=why, best=best)
    return hand.end("replay", leaders, "equal_longest", why=why, best=best)


class Spellevate(WayToPlay):
    """RULES.md Spellevate: a turn-based game for 3 or more, with its own rules
    (`solver.play.spellevate`) and table; not a Bananagrams hand."""

    name = "spellevate"
    title = "Spellevate"
    called = "Spellevate"
    game = SPELLEVATE
    min_players = 3
    max_players = MAX_SPELLEVATE_PLAYERS


VARIANTS: dict[str, WayToPlay] = {
    variant.name: variant for variant in (Variant(), ThreeLetter(), Smoothie(), Solo(), Spellevate())
}
ENGINE_VARIANTS = tuple(v.name for v in VARIANTS.values() if v.engine == v.name)  # Rules.variant's values


def variant_named(name: object, choices: tuple[str, ...] = tuple(VARIANTS)) -> WayToPlay:
    """The variant called `name`; ValueError naming the choices otherwise."""
    if not isinstance(name, str) or name not in choices:
        raise ValueError(f"unknown variant {name!r} (choose from {', '.join(choices)})")
    return VARIANTS[name]


def offered(game: str | None = None) -> tuple[str, ...]:
    """The variants' names, of one game or all."""
    return tuple(name for name, variant in VARIANTS.items() if game is None or variant.game == game)
