"""The game engine: classic Bananagrams for 1-8 players, its variants, and matches.

`../shared/RULES.md` is the contract; the rule each piece implements is named beside it.

Bananagrams has no turns. The engine simulates it as discrete events on a clock: when a
player is free, its bot decides (rebuilding its grid, choosing a call); the call lands
after the time that work takes under the cost model below, scaled by the bot's speed.
Calls are serialized in clock order (seat order breaks exact ties). So a game is a pure
function of its seed and the bots' settings, and the event log replays it exactly. With
`realtime=True` the engine waits on the wall clock until each event's time, to play
alongside people.

Work is sequential. A player's decision is work in hand until its call lands; tiles that
arrive meanwhile (another player's PEEL) wait until that work is done. The planned call
is then not made (its premise, the hand it was planned for, no longer holds) and the
player decides again, with the new tiles, at once: the time already worked stays spent.
The same happens to a planned "stuck" when the table changed meanwhile (a dump became
possible). A call whose rule no longer holds when it lands is refused and the player
decides again. So a player who is ahead tends to stay ahead, as at a real table. The others
see a player's grid when its work is done (`Round.table_grid`: a bot's new grid lands with
its work, dropped call or not; a remote player's grid is what it shows now), and a deciding
bot's `TableView` says how many tiles each grid holds (`placed`) at what time (`clock`).

The referee measures the work (Round.charge), so no bot can lay tiles for free::

    tile work   from the grid each player shows, before and after the decision, aligned
                under the translation that keeps the most tiles in place (`best_translation`,
                as `solver.search.board` counts moved tiles): tiles laid from the hand, grid tiles
                moved to another cell, grid tiles lifted back into the hand, and the new
                words (words through a tile laid or moved); plus tiles drawn from or
                returned to the bunch since the last decision (PEEL and DUMP draws, the
                dumped tile)
    looks       the one thing only the bot knows: how many positions (a grid and a hand)
                it examined for words to play; one look = one node of a depth-first
                search, where the player lists the words that could go down and tries
                them. The solver's search node and the greedy baseline's scan of the grid
                are both one look. A bot that reports fewer looks than it made only saves
                LOOK_SECONDS per look: every tile and word it lays is charged anyway.

Cost model. One simulated second stands for one second of a practised player at the
kitchen table, with the tiles in front of them::

    REACT_SECONDS             1.0  looking at the tiles before acting (the keystroke-level
                                   model's mental preparation operator is 1.35 s)
    + TILE_SECONDS * tiles    1.0  each tile picked up and set down: laid, moved, lifted,
                                   drawn or returned (the keystroke-level model's hand
                                   movement to a target is 1.1 s, 0.8-1.5 s by Fitts' law)
    + WORD_SECONDS * words    3.0  spotting each new word on the grid (timed anagram tasks
                                   give 10 s for a five-letter anagram and most solutions
                                   come in a few seconds; a Bananagrams word may be any
                                   word the tiles allow, and hooks onto letters in place)
    + LOOK_SECONDS * looks    1.0  examining one position for what could go down (a glance
                                   that may find nothing: shorter than a word's spotting)
    + CALL_SECONDS            0.5  saying PEEL / DUMP / BANANAS (not for a player who waits)
    then / speed, and x (1 + JITTER * u), u uniform in [0, 1) from the hand's seed, so that
    equal bots do not finish to the microsecond (exact ties are shared wins under the rules)

These land where games at a table do (`benchmarks/results/*-strength.md` measures it): the
first 21-tile grid of the `medium` preset takes tens of seconds (21 tiles, a handful of
words and looks), a PEEL answered by a one-tile hook about eight seconds, and a 2-player
classic game several minutes (about fifty PEELs); sellers of the game quote about 15
minutes a game for casual players, who are slower than this model's practised player.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from solver.core.grid import MIN_WORD_LENGTHS, Grid, best_translation, find_words, validate
from solver.core.limits import (
    MAX_HAND_EVENTS,
    MAX_HAND_STEPS,
    MAX_LOG_SNAPSHOTS_PER_HAND,
    MAX_MATCH_HANDS,
    MAX_REFUSED,
)
from solver.core.tiles import DISTRIBUTIONS, TileCounts, draw
from solver.lexicon.loader import get_lexicon
from solver.play.refusals import Refusal
from solver.play.variants import ENGINE_VARIANTS, VARIANTS, Variant

REACT_SECONDS = 1.0  # the cost model (module docstring), in simulated seconds
TILE_SECONDS = 1.0
WORD_SECONDS = 3.0
LOOK_SECONDS = 1.0
CALL_SECONDS = 0.5
JITTER = 0.05  # each action's time is scaled by 1 + JITTER * U(0, 1), from the hand's seed


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
    def for_variant(cls, variant: Variant, language: str, **options) -> Rules:
        """The rules of a catalogue variant (`solver.play.variants`) in `language` (options:
        distribution, solo_objective, min_length: the variant's own by default)."""
        if variant.engine is None:
            raise RuleError(f"{variant.title} is not a Bananagrams hand")
        options.setdefault("min_length", variant.min_length)
        return cls.for_language(language, variant=variant.engine, **options)

    @property
    def kind(self) -> Variant:
        """The variant's rules that differ from the classic game (`solver.play.variants`)."""
        return VARIANTS[self.variant]

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
    placed: tuple[int | None, ...] = field(default=(), compare=False)  # `Round.placed`, by seat

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
REFUSAL_CODES = (
    "hand_over",
    "out_of_hand",
    "no_peel",
    "no_dump",
    "bunch_too_small",
    "rack_not_empty",
    "not_your_tile",
    "bananas_too_early",
)


CALLS = ("peel", "dump", "bananas", "wait")  # a Decision's calls ("wait": stuck)

# Why a hand ended: a stable code (for front-ends to translate, with its params) -> the
# English reason of the `end` event. `why` is `tie` (a tied finish) or `stalemate`.
END_REASONS = {
    "bananas": "BANANAS with a valid grid",
    "shared": "valid BANANAS calls at the same moment",
    "stalemate": "every remaining player is stuck",
    "all_rotten": "every player went rotten",
    "all_left": "every player left",
    "event_limit": "event limit reached",
    "longest_word": "{why}: longest word ({best} letters)",
    "equal_longest": "{why}: equal longest words ({best} letters): another hand",
}
WHY = {"tie": "tied finish", "stalemate": "stalemate"}


@dataclass
class Decision:
    """A bot's call and the search effort it took. action: peel | dump | bananas | wait
    (stuck), or remote (a remote player: its calls come through `Round.external_call`).
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


@dataclass(frozen=True)
class TileWork:
    """The tile work the referee sees between two decisions of a player."""

    laid: int = 0  # tiles from the hand now on the grid
    moved: int = 0  # grid tiles now in another cell (under the best translation)
    lifted: int = 0  # grid tiles taken back into the hand
    drawn: int = 0  # tiles taken from the bunch (PEEL and DUMP draws) since the last decision
    returned: int = 0  # tiles put back into the bunch (a DUMP) since the last decision
    words: int = 0  # words of the new grid through a tile laid or moved

    @property
    def tiles(self) -> int:
        """Tiles handled: picked up and set down once each."""
        return self.laid + self.moved + self.lifted + self.drawn + self.returned


@dataclass(frozen=True)
class Charge:
    """One decision as the referee charged it (`Round.ledger`, `RoundResult.ledger`)."""

    player: int
    at: float  # simulated time the decision began
    action: str
    looks: int  # as the bot reported them (negative reports count as 0)
    work: TileWork
    seconds: float  # the time charged: `work_seconds`, then jitter


def measure_work(before: Grid | None, after: Grid | None, drawn: int = 0, returned: int = 0) -> TileWork:
    """The tile work that turns grid `before` into grid `after` (module docstring).

    Tiles are told apart only by letter, so the referee charges the cheapest explanation:
    an old tile gone from its cell and a new tile of the same letter elsewhere is one tile
    moved, not one lifted and one laid. The new words are the words of `after` through a
    tile laid or moved (a word the player had to make); a word left standing is not new."""
    (shift_rows, shift_cols), _ = best_translation(before, after)
    new_cells = after.cells() if after is not None else {}
    old_cells = {
        (row + shift_rows, col + shift_cols): letter
        for (row, col), letter in (before.cells() if before is not None else {}).items()
    }
    kept = {cell for cell, letter in old_cells.items() if new_cells.get(cell) == letter}
    gone = Counter(letter for cell, letter in old_cells.items() if cell not in kept)
    placed = Counter(letter for cell, letter in new_cells.items() if cell not in kept)
    moved = sum((gone & placed).values())
    words = 0 if after is None else sum(any(cell not in kept for cell in word.cells) for word in find_words(after))
    return TileWork(
        laid=sum(placed.values()) - moved,
        moved=moved,
        lifted=sum(gone.values()) - moved,
        drawn=drawn,
        returned=returned,
        words=words,
    )


def work_seconds(decision: Decision, speed: float, work: TileWork = TileWork()) -> float:
    """The cost model (module docstring), before jitter: the bot's looks and the tile work
    the referee measured, divided by the bot's speed."""
    seconds = (
        REACT_SECONDS
        + LOOK_SECONDS * max(0, int(decision.looks))
        + TILE_SECONDS * work.tiles
        + WORD_SECONDS * work.words
    )
    if decision.action != "wait":
        seconds += CALL_SECONDS
    return seconds / speed


@dataclass
class RoundResult:
    """How a hand ended. outcome: win | shared | unawarded | replay (Smoothie tie)."""

    outcome: str
    winners: list[int]
    reason: str
    events: list[dict]
    grids: list[list[str] | None]
    clock: float
    dumps: int = 0
    rotten: int = 0
    scores: dict = field(default_factory=dict)
    ledger: list[Charge] = field(default_factory=list)  # every decision's charge, in order
    reason_code: str = ""  # the key of `reason` in END_REASONS
    reason_params: dict = field(default_factory=dict)  # the values `reason` names

    @property
    def sole_winner(self) -> int | None:
        """The winning seat (an int) when one player won alone; None for a shared, unawarded or replayed hand."""
        return self.winners[0] if self.outcome == "win" and len(self.winners) == 1 else None


@dataclass
class _Seat:
    bot: Bot
    held: TileCounts  # every tile the engine has given this player and not taken back
    active: bool = True
    waiting: bool = False
    refused: int = 0  # calls refused in a row
    version: int = 0  # bumped when tiles arrive: a call planned before is stale
    shown: Grid | None = None  # the grid as the referee last saw it (after the last decision)
    drawn: int = 0  # tiles drawn from the bunch since the last decision
    returned: int = 0  # tiles returned to the bunch since the last decision
    working: bool = False  # a decision's work is under way (its call not landed yet)
    before: Grid | None = None  # while working: the grid shown before that work


class Round:
    """One hand of Bananagrams between `bots` under `rules`, from `seed` (a non-negative int):
    RuleError for a seat count the variant does not allow or a bad seed. `play()` runs it to
    the end on the simulated clock (seconds); `realtime` also waits for the wall clock."""

    result: RoundResult | None  # set by start(); the hand's outcome once it ends

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[Bot],
        seed: int,
        realtime: bool = False,
        observer=None,
        snapshots: bool = False,
    ):
        """`snapshots`: also log a `snapshot` event (the seat's grid as the table sees it) each
        time a bot's work lands with a changed grid, at most MAX_LOG_SNAPSHOTS_PER_HAND per
        seat; a log with them shows every grid as it was built (solver.coach replays it).
        They change nothing else: the hand plays the same with or without them."""
        rules.check_players(len(bots))
        if not isinstance(seed, (int, np.integer)) or seed < 0:
            raise RuleError(f"a game seed is a non-negative integer, got {seed!r}")
        self.rules = rules
        self.lexicon = get_lexicon(rules.lexicon)
        self.seats = [_Seat(bot, TileCounts()) for bot in bots]
        self.rng = np.random.default_rng(seed)
        self.jitter = np.random.default_rng([seed, 1])
        self.seed = seed
        self.realtime = realtime
        self.observer = observer  # called with each event as it happens (live progress)
        self.bunch = rules.distribution
        self.unused = TileCounts()
        self.events: list[dict] = []
        self.ledger: list[Charge] = []
        self.clock = 0.0
        # (when, seat, order, kind, payload): a "call" carries (Decision, version, TableView)
        self.queue: list[tuple[float, int, int, str, Any]] = []
        self.order = 0
        self.dumps = 0
        self.rotten = 0
        self.steps = 0
        self.started_wall = time.perf_counter()
        self.snapshots = snapshots
        self.snapshot_counts = [0] * len(bots)
        self.snapshot_grids: list[Grid | None] = [None] * len(bots)

    # -- bookkeeping ---------------------------------------------------------------------
    def log(self, event: str, **data) -> None:
        """Record a public event at the current clock (`t`, simulated seconds), tell the observer, and check
        that every tile is accounted for (AssertionError otherwise).
        """
        entry = {"t": round(self.clock, 3), "event": event, **data}
        self.events.append(entry)
        if self.observer is not None:
            self.observer(entry)
        self.check_invariant()

    def check_invariant(self) -> None:
        """RULES.md tiles: bunch + hands + grids (+ unused) = the set, after every event."""
        total = self.bunch + self.unused
        for seat in self.seats:
            total = total + seat.held
            if seat.active and seat.bot.holding() != seat.held:
                raise AssertionError(f"{seat.bot.name} holds {seat.bot.holding()} but was given {seat.held}")
        if total != self.rules.distribution:
            raise AssertionError(f"tiles lost or duplicated: {total} != the set")

    @property
    def active(self) -> list[int]:
        """The seats still in the hand (not rotten, not gone), in seat order."""
        return [index for index, seat in enumerate(self.seats) if seat.active]

    def view(self, seat_index: int | None = None) -> TableView:
        """What a player at `seat_index` (None: a spectator) sees of the table now: a TableView."""
        placed = tuple(self.placed(index) for index in range(len(self.seats)))
        return TableView(len(self.bunch), len(self.active), self.rules, self.clock, seat_index, placed)

    def table_grid(self, seat_index: int) -> Grid | None:
        """The grid the table sees at this seat now: a bot's work shows when it is done (the
        grid of its last finished decision while it works); a remote player's as it stands."""
        seat = self.seats[seat_index]
        return seat.before if seat.working else seat.bot.current_grid()

    def placed(self, seat_index: int) -> int | None:
        """Tiles on the grid the table sees at this seat (`table_grid`); None once out."""
        if not self.seats[seat_index].active:
            return None
        grid = self.table_grid(seat_index)
        return grid.tile_count if grid is not None else 0

    def schedule(self, when: float, seat: int, kind: str, payload: object = None) -> None:
        """Queue `seat`'s `kind` of event ('decide' or 'call') at simulated time `when` (seconds); ties keep
        their order.
        """
        self.order += 1
        heapq.heappush(self.queue, (when, seat, self.order, kind, payload))

    def wake(self, seat: int) -> None:
        """A waiting player whose situation changed decides again now."""
        if self.seats[seat].waiting and self.seats[seat].active:
            self.seats[seat].waiting = False
            self.schedule(self.clock, seat, "decide")

    def give(self, seat: int, tiles: TileCounts) -> None:
        """Deal `tiles` from the bunch to `seat` and tell its bot (`Bot.receive`)."""
        self.bunch = self.bunch - tiles
        self.seats[seat].held = self.seats[seat].held + tiles
        self.seats[seat].version += 1
        self.seats[seat].drawn += len(tiles)
        self.seats[seat].bot.receive(tiles)

    # -- the hand ------------------------------------------------------------------------
    def play(self) -> RoundResult:
        """Run the hand to its end (simulated clock, or the wall clock when realtime)."""
        self.start()
        while self.result is None:
            if not self.queue:
                self.result = self.stalemate()
                break
            self.wait_for_wall_clock(self.queue[0][0])
            self.advance(self.queue[0][0])
        return self.result

    # The pieces `play` is made of, for drivers that interleave outside calls (the engine
    # protocol's hosted games): start, then advance the clock, and feed remote calls in.
    def start(self) -> None:
        """Deal the hand (SPLIT) and queue every player's first decision; `result` is None until the hand
        ends. For a driver that runs the clock itself (`advance`, `external_call`); `play` does it all.
        """
        self.result = None
        self.split()

    def advance(self, until: float) -> RoundResult | None:
        """Process every queued event up to clock time `until`."""
        while self.result is None and self.queue and self.queue[0][0] <= until:
            self.next_event()
        return self.result

    def next_event(self) -> None:
        """Process the first queued event."""
        self.steps += 1
        if len(self.events) - sum(self.snapshot_counts) >= MAX_HAND_EVENTS or self.steps >= MAX_HAND_STEPS:
            self.result = self.end("unawarded", [], "event_limit")
            return
        when, seat, _, kind, payload = heapq.heappop(self.queue)
        self.clock = when
        outcome = self.decide(seat) if kind == "decide" else self.call(seat, payload, when)
        if outcome is not None:
            self.result = outcome

    def external_call(self, seat_index: int, decision: Decision, now: float, settle: bool = True) -> Refusal | None:
        """A call from a remote player, acted on at clock time `now` (serialized with the rest).
        The hand first plays on to `now`; then the call is judged (`call_error`): a refused call
        changes nothing and its refusal is returned; an allowed one is made (None). With
        `settle` the hand also plays what the call set off at that moment (the others' new
        decisions); without, it stops once the call is made, so a front-end can show it first
        and advance the rest in its own time."""
        self.advance(now)
        refusal = self.call_error(seat_index, decision)
        if refusal is not None:
            return refusal
        self.clock = max(self.clock, now)
        seat = self.seats[seat_index]
        if decision.action == "wait":
            self.result = self.mark_stuck(seat_index)
            return None
        seat.waiting = False
        if decision.grid is not None:
            seat.shown = decision.grid
        self.schedule(self.clock, seat_index, "call", (decision, seat.version, self.view()))
        order = self.order
        while self.result is None and any(entry[2] == order for entry in self.queue):
            self.next_event()  # up to this call: what was due before it at this moment comes first
        if settle:
            self.advance(self.clock)
        return None

    def call_error(self, seat_index: int, decision: Decision) -> Refusal | None:
        """Why the rules refuse `decision` from this seat now, or None if it may be made.
        RULES.md PEEL, DUMP and BANANAS name each premise; a "wait" (stuck) is always allowed
        to a player still in. The hand the premises speak of is what the player holds and
        has not placed on its current grid."""
        if decision.action not in CALLS:
            raise ValueError(f"unknown call {decision.action!r}")
        seat = self.seats[seat_index]
        if self.result is not None:
            return Refusal("hand_over", "the hand is over")
        if not seat.active:
            return Refusal("out_of_hand", "that player is out of this hand")
        if decision.action == "wait":
            return None
        view = self.view()
        call = decision.action.upper()
        if decision.action == "bananas":
            if view.can_bananas:
                return None
            params = {"bunch": view.bunch, "active": view.active}
            return Refusal("bananas_too_early", "BANANAS only when the bunch has fewer tiles than players", params)
        if not self.rules.peel_and_dump:
            title = self.rules.kind.title
            code = "no_peel" if decision.action == "peel" else "no_dump"
            return Refusal(code, f"there is no {call} in {title}", {"variant": self.rules.variant})
        hand = seat.held - grid_tiles(seat.bot)
        if decision.action == "peel":
            if not view.can_peel:
                params = {"bunch": view.bunch, "active": view.active}
                return Refusal("bunch_too_small", "PEEL needs a tile in the bunch for every player", params)
            if len(hand):
                return Refusal("rack_not_empty", "PEEL needs every tile of the hand placed", {"left": len(hand)})
            return None
        if not view.can_dump:
            return Refusal("bunch_too_small", "DUMP needs three tiles in the bunch", {"bunch": view.bunch})
        tile = TileCounts.from_letters(decision.tile or "")
        if len(tile) != 1 or not hand.contains(tile):
            return Refusal("not_your_tile", f"there is no {decision.tile} in the hand", {"tile": decision.tile})
        return None

    def split(self) -> None:
        """RULES.md SPLIT: everyone starts at once with their hand; the rest is the BUNCH."""
        players = len(self.seats)
        size = self.rules.hand_size(players)
        set_aside = self.rules.kind.set_aside(len(self.bunch), players)
        if set_aside:
            self.unused = draw(self.bunch, set_aside, self.rng)
            self.bunch = self.bunch - self.unused
        hands = []
        for seat in self.seats:
            tiles = draw(self.bunch, size, self.rng)
            self.bunch = self.bunch - tiles
            seat.held, seat.shown = tiles, None  # SPLIT: the dealt tiles are turned over at once, free
            seat.bot.start(tiles, self.rules, int(self.rng.integers(1 << 31)))
            hands.append(tiles.letters())
        self.log("split", hands=hands, bunch=len(self.bunch), unused=self.unused.letters())
        for index in range(players):
            self.schedule(0.0, index, "decide")

    def decide(self, seat_index: int) -> RoundResult | None:
        """Ask `seat_index`'s bot for its decision now and queue its call for when its work (charged on the
        simulated clock) is done; the RoundResult if that ends the hand, else None.
        """
        seat = self.seats[seat_index]
        if not seat.active:
            return None
        view = self.view(seat_index)
        decision = seat.bot.decide(view)
        if decision.action == "remote":  # a remote player decides on its own time
            return None
        seat.working, seat.before = True, seat.shown
        charge = self.charge(seat_index, decision)
        # The call (or the stuck mark) lands when the work is done; see the module docstring.
        self.schedule(self.clock + charge.seconds, seat_index, "call", (decision, seat.version, view))
        return None

    def charge(self, seat_index: int, decision: Decision) -> Charge:
        """The referee's measure of a decision's work (module docstring): the grid shown now
        against the grid shown after the last decision, the draws since, the bot's looks."""
        seat = self.seats[seat_index]
        shown = decision.grid if decision.grid is not None else seat.bot.current_grid()
        work = measure_work(seat.shown, shown, drawn=seat.drawn, returned=seat.returned)
        seat.shown, seat.drawn, seat.returned = shown, 0, 0
        # A few percent of seeded jitter: equal bots would otherwise tie to the microsecond.
        seconds = work_seconds(decision, seat.bot.speed, work) * (1 + JITTER * self.jitter.random())
        charge = Charge(seat_index, self.clock, decision.action, max(0, int(decision.looks)), work, seconds)
        self.ledger.append(charge)
        return charge

    def call(self, seat_index: int, payload, when: float) -> RoundResult | None:
        """A queued call lands: honoured if it was made on the current state and the rules allow it
        (`call_error`), else the player decides again; the RoundResult if it ends the hand, else None.
        """
        decision, version, view_then = payload
        seat = self.seats[seat_index]
        landed, seat.working = seat.working, False  # the work is done: the table sees its grid
        if not seat.active:
            return None
        if landed:
            self.log_snapshot(seat_index)
        if version != seat.version:  # tiles arrived while it worked: think again, now
            self.schedule(self.clock, seat_index, "decide")
            return None
        view = self.view()
        if decision.action == "wait":
            if view != view_then:  # the table changed while it worked (a dump may be possible)
                self.schedule(self.clock, seat_index, "decide")
                return None
            return self.mark_stuck(seat_index)
        if self.call_error(seat_index, decision) is not None:
            return self.refuse(seat_index)  # the premise no longer holds
        seat.refused = 0
        handler = {"peel": self.peel, "dump": self.dump, "bananas": self.bananas}[decision.action]
        return handler(seat_index, decision)

    def log_snapshot(self, seat_index: int) -> None:
        """With `snapshots`: the seat's grid as the table now sees it, when it changed."""
        grid = self.table_grid(seat_index)
        if not self.snapshots or grid is None or grid == self.snapshot_grids[seat_index]:
            return
        if self.snapshot_counts[seat_index] >= MAX_LOG_SNAPSHOTS_PER_HAND:
            return
        self.snapshot_grids[seat_index] = grid
        self.snapshot_counts[seat_index] += 1
        self.log("snapshot", player=seat_index, grid=grid.to_json())

    def refuse(self, seat_index: int) -> RoundResult | None:
        """A call whose premise does not hold is dropped and the player thinks again; a
        player whose calls keep being refused counts as stuck."""
        seat = self.seats[seat_index]
        seat.refused += 1
        if seat.refused < MAX_REFUSED:
            self.schedule(self.clock, seat_index, "decide")
            return None
        return self.mark_stuck(seat_index)

    def mark_stuck(self, seat_index: int) -> RoundResult | None:
        """The player waits for the table to change; when everyone waits, the hand ends."""
        seat = self.seats[seat_index]
        seat.waiting = True
        self.log("stuck", player=seat_index, hand=(seat.held - grid_tiles(seat.bot)).letters())
        if all(self.seats[i].waiting for i in self.active):
            return self.stalemate()
        return None

    def peel(self, seat_index: int, decision: Decision) -> RoundResult | None:
        """RULES.md PEEL (its premises judged by `call_error`): every active player draws
        one tile, the caller too."""
        drawn = {}
        order = self.active[self.active.index(seat_index) :] + self.active[: self.active.index(seat_index)]
        for index in order:
            tile = draw(self.bunch, 1, self.rng)
            self.give(index, tile)
            drawn[index] = tile.letters()
        self.log("peel", player=seat_index, drawn={str(k): v for k, v in drawn.items()}, bunch=len(self.bunch))
        for index in order:
            self.wake(index)
        self.schedule(self.clock, seat_index, "decide")
        return None

    def dump(self, seat_index: int, decision: Decision) -> RoundResult | None:
        """RULES.md DUMP (its premises judged by `call_error`): one tile back, mixed in
        first, three drawn."""
        seat = self.seats[seat_index]
        assert decision.tile is not None  # call_error checked the one tile named
        tile = TileCounts.from_letters(decision.tile)
        seat.bot.give_back(decision.tile)
        seat.held = seat.held - tile
        seat.returned += 1
        self.bunch = self.bunch + tile
        drawn = draw(self.bunch, 3, self.rng)
        self.give(seat_index, drawn)
        self.dumps += 1
        self.log("dump", player=seat_index, returned=decision.tile, drawn=drawn.letters(), bunch=len(self.bunch))
        self.schedule(self.clock, seat_index, "decide")
        return None

    def bananas(self, seat_index: int, decision: Decision) -> RoundResult | None:
        """RULES.md BANANAS (the bunch below the active count, judged by `call_error`):
        inspection decides win or ROTTEN BANANA; a tile left in the hand is a grid that
        fails inspection. Valid calls at the very same moment share the win."""
        callers = [(seat_index, decision)] + self.simultaneous_bananas()
        winners = []
        for index, call in callers:
            grid = call.grid
            report = validate(grid, self.lexicon, self.seats[index].held, self.rules.min_length) if grid else None
            self.log("bananas", player=index, grid=grid.to_json() if grid else None)
            if report is not None and report.ok:
                winners.append(index)
                self.log("inspection", player=index, valid=True)
            else:
                self.go_rotten(index, report.problems() if report else ["no grid"])
        if winners:
            return self.finish_race(winners)
        if not self.active:
            return self.end("unawarded", [], "all_rotten")
        for index in self.active:
            self.wake(index)
        return None

    def simultaneous_bananas(self) -> list[tuple[int, Decision]]:
        """Other BANANAS calls landing at exactly this moment: they cannot be ordered."""
        found, others = [], []
        while self.queue and self.queue[0][0] == self.clock:
            entry = heapq.heappop(self.queue)
            _, seat, _, kind, payload = entry
            if (
                kind == "call"
                and payload[0].action == "bananas"
                and payload[1] == self.seats[seat].version
                and self.seats[seat].active
            ):
                found.append((seat, payload[0]))
            else:
                others.append(entry)
        for entry in others:
            heapq.heappush(self.queue, entry)
        return found

    def go_rotten(self, seat_index: int, problems: list[str]) -> None:
        """RULES.md ROTTEN BANANA: out of the hand, all tiles back into the bunch."""
        seat = self.seats[seat_index]
        self.bunch = self.bunch + seat.held
        seat.held = TileCounts()
        seat.active = False
        self.rotten += 1
        seat.bot.start(TileCounts(), self.rules, 0)  # the bot's tiles are gone too
        self.log("rotten", player=seat_index, problems=problems, bunch=len(self.bunch))

    def leave(self, seat_index: int, now: float) -> RoundResult | None:
        """A player who leaves the table (a front-end's decision: gone too long, or quit).
        Not a rule of the game: treated like a ROTTEN BANANA without the inspection: out of
        the hand, their tiles back into the bunch, and the others play on."""
        self.advance(now)
        seat = self.seats[seat_index]
        if self.result is not None or not seat.active:
            return self.result
        self.clock = max(self.clock, now)
        self.bunch = self.bunch + seat.held
        seat.held = TileCounts()
        seat.active = False
        seat.bot.start(TileCounts(), self.rules, 0)
        self.log("left", player=seat_index, bunch=len(self.bunch))
        if not self.active:
            self.result = self.end("unawarded", [], "all_left")
        else:
            for index in self.active:
                self.wake(index)  # the bunch grew: a PEEL or a DUMP may be possible again
        return self.result

    def finish_race(self, winners: list[int]) -> RoundResult:
        """The result when `winners` (seats) called a valid BANANAS together: the variant decides (a shared
        win, or a tiebreak).
        """
        return self.rules.kind.finish_race(self, winners)

    def stalemate(self) -> RoundResult:
        """Every remaining player is stuck (or the guard tripped)."""
        return self.rules.kind.stalemate(self)

    def longest_word_decides(self, candidates: list[int], why: str) -> RoundResult:
        """RULES.md Banana Smoothie: the longest valid word in a grid wins; equal longest
        means another hand. `why`: tie or stalemate (WHY)."""

        def longest(index: int) -> int:
            grid = self.seats[index].bot.current_grid()
            if grid is None:
                return 0
            return max((len(w.text) for w in find_words(grid) if w.text in self.lexicon), default=0)

        lengths = {index: longest(index) for index in candidates}
        best = max(lengths.values())
        leaders = [index for index, length in lengths.items() if length == best]
        if len(leaders) == 1:
            return self.end("win", leaders, "longest_word", why=why, best=best)
        return self.end("replay", leaders, "equal_longest", why=why, best=best)

    def end(self, outcome: str, winners: list[int], code: str, **params) -> RoundResult:
        """The hand ends: `code` says why (END_REASONS, filled in with `params`)."""
        reason = END_REASONS[code].format(**{**params, "why": WHY.get(params.get("why", ""), "")})
        scores = self.rules.kind.scores(self, winners)
        self.log("end", outcome=outcome, winners=winners, reason=reason, **scores)
        grids = [shown.to_json() if seat.active and (shown := seat.bot.current_grid()) else None for seat in self.seats]
        return RoundResult(
            outcome,
            winners,
            reason,
            self.events,
            grids,
            self.clock,
            self.dumps,
            self.rotten,
            scores,
            self.ledger,
            reason_code=code,
            reason_params=params,
        )

    def wait_for_wall_clock(self, when: float) -> None:
        """With `realtime`, sleep until simulated time `when` (seconds) is due on the wall clock; at once otherwise."""
        if self.realtime:
            delay = when - (time.perf_counter() - self.started_wall)
            if delay > 0:
                time.sleep(delay)


def grid_tiles(bot: Bot) -> TileCounts:
    """The tiles on a bot's current grid (what is not in its hand)."""
    grid = bot.current_grid()
    return grid.tiles() if grid is not None else TileCounts()


def play_round(rules: Rules, bots: Sequence[Bot], seed: int, **options) -> RoundResult:
    """Play one hand of `bots` (one seat each, in order) under `rules` from `seed` (a non-negative int) to its
    end and return the RoundResult; `options` go to `Round` (realtime, observer). RuleError for a bad seat
    count or seed. The same arguments give the same hand.
    """
    return Round(rules, bots, seed, **options).play()


# -- matches ---------------------------------------------------------------------------

MATCH_FORMATS = ("single", "best-of-3", "best-of-5", "first-to-two")


@dataclass
class MatchResult:
    """A match's hands, the hand wins of each seat and the match winner (a seat, or None for a drawn match)."""

    format: str
    hands: list[RoundResult]
    wins: list[int]
    winner: int | None  # None: drawn match


def play_match(rules: Rules, bots: list[Bot], seed: int, format: str = "best-of-3", **options) -> MatchResult:
    """RULES.md matches: best of three or five (count hand wins), or first to two sole
    round wins (shared or unawarded rounds give no win and are replayed). Round k uses seed
    (seed, k), so a match is as reproducible as a hand."""
    if format not in MATCH_FORMATS:
        raise RuleError(f"unknown match format {format!r} (choose from {', '.join(MATCH_FORMATS)})")
    wins = [0] * len(bots)
    hands: list[RoundResult] = []
    target = {"single": 1, "best-of-3": 2, "best-of-5": 3, "first-to-two": 2}[format]
    limit = {"single": 1, "best-of-3": 3, "best-of-5": 5}.get(format, MAX_MATCH_HANDS)
    while len(hands) < limit and max(wins) < target:
        hand_seed = int(np.random.SeedSequence([seed, len(hands)]).generate_state(1)[0])
        result = play_round(rules, bots, hand_seed, **options)
        hands.append(result)
        if result.sole_winner is not None:
            wins[result.sole_winner] += 1
        elif format != "first-to-two" and result.outcome == "replay" and limit < MAX_MATCH_HANDS:
            limit += 1  # Smoothie: equal longest words means another hand
    leaders = [index for index, count in enumerate(wins) if count == max(wins)]
    winner = leaders[0] if len(leaders) == 1 and max(wins) > 0 else None
    return MatchResult(format, hands, wins, winner)
