"""A hand of Bananagrams, refereed on a simulated clock: the engine's one owner of a hand.

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
see a player's grid when its work is done (`Hand.table_grid`: a bot's new grid lands with
its work, dropped call or not; a remote player's grid is what it shows now; a room shows
the work under way laid out over its time, `building_grid`, for show only), and a deciding
bot's `TableView` says how many tiles each grid holds (`placed`) at what time (`clock`).
When the hand ends, the result's grids are those the table sees then: work still under way
is not laid (solver.coach.record defines the end of a hand for every reader).

The hand drives itself: a driver (`bananas play`, a room's table, the engine protocol's
hosted game, the pace benchmark) asks when the next event is due (`next_due`), runs the
hand to a time (`advance`), feeds it the calls and grids of its remote seats
(`external_call`, `show`, `leave`), and reads what every player may see (`public_view`,
`solver.play.public`), the end included, however the hand ended: the hand decides every end
itself, the stalemate where nobody can act included. It never reads the queue, the seats'
state or the result. Every input from outside is recorded with the number of events
processed before it (`journal`), so `replay` rebuilds the hand exactly from its seed, its
players' specs and that journal.

The cost of each decision on the clock is `solver.play.cost`; the rules' options and the bot
interface are `solver.play.rules`.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from solver.core.grid import Grid, Report, validate
from solver.core.limits import MAX_HAND_EVENTS, MAX_HAND_STEPS, MAX_LOG_SNAPSHOTS_PER_HAND, MAX_REFUSED
from solver.core.tiles import TileCounts, draw
from solver.lexicon.loader import get_lexicon
from solver.play import events
from solver.play.cost import JITTER, Charge, measure_work, work_seconds
from solver.play.layout import LaidOut, grid_while_building, laid_out_for
from solver.play.public import HandEnding, HandView, LastCall, PublicSeat, SeatStatus, sole_winner
from solver.play.refusals import CallRefusal, Refusal
from solver.play.remote import is_remote
from solver.play.rules import (
    CALLS,
    END_REASONS,
    WHY,
    Bot,
    Decision,
    EndReason,
    RuleError,
    Rules,
    TableView,
    grid_tiles,
)


@dataclass
class HandResult:
    """How a hand ended. outcome: win | shared | unawarded | replay (Smoothie tie)."""

    outcome: events.Outcome
    winners: list[int]
    reason: str
    events: list[events.HandEvent]
    grids: list[list[str] | None]  # each seat's grid as the table last saw it (`Hand.table_grid`); None once out
    clock: float
    dumps: int = 0
    rotten: int = 0
    scores: dict = field(default_factory=dict)
    ledger: list[Charge] = field(default_factory=list)  # every decision's charge, in order
    reason_code: EndReason | None = None  # the key of `reason` in END_REASONS
    reason_params: dict = field(default_factory=dict)  # the values `reason` names

    @property
    def sole_winner(self) -> int | None:
        """The winning seat when one player won alone (`public.sole_winner`)."""
        return sole_winner(self.outcome, self.winners)


@dataclass
class SeatState:
    """What the hand keeps of one seat: its player, the tiles it was given, whether it is in
    the hand or waiting, and the work in hand the referee measures."""

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
    work_span: tuple[float, float] = (0.0, 0.0)  # while working: when its charge began, when it lands
    laid_out: LaidOut | None = None  # while working: its frames, laid out once per work (layout.laid_out_for)


class Hand:
    """One hand of Bananagrams between `bots` under `rules`, from `seed` (a non-negative int):
    RuleError for a seat count the variant does not allow or a bad seed. `play()` runs it to
    the end on the simulated clock (seconds); `realtime` also waits for the wall clock."""

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
        self.seats = [SeatState(bot, TileCounts()) for bot in bots]
        self.rng = np.random.default_rng(seed)
        self.jitter = np.random.default_rng([seed, 1])
        self.seed = seed
        self.realtime = realtime
        self.observer = observer  # called with each event as it happens (live progress)
        self.bunch = rules.distribution
        self.unused = TileCounts()
        self.events: list[events.HandEvent] = []  # each as `solver.play.events` defines its kind
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
        # Every input from outside, in order, with `step` (events processed before it):
        # what `replay` rebuilds the hand from (module docstring).
        self.journal: list[dict] = []
        self.on_input: Callable[[dict], object] | None = None  # told of each journal entry (a durable room stores it)
        self._result: HandResult | None = None  # the outcome once the hand ends (drivers read `public_view`)

    # -- bookkeeping ---------------------------------------------------------------------
    def log(self, event: str, **data) -> None:
        """Record a public event at the current clock (`t`, simulated seconds), tell the observer, and check
        that every tile is accounted for (AssertionError otherwise).
        """
        entry = cast(events.HandEvent, events.make(event, self.clock, **data))  # (`event`: a kind of KINDS)
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

    def building_grid(self, seat_index: int, now: float) -> Grid | None:
        """The grid a room shows at this seat at clock time `now`: `table_grid`, except that a
        bot's work under way is shown laid out word by word over the time charged for it
        (solver.play.layout), so people watch it build. For show only: the players' view of
        each other (`placed`), the result and the log hold the landed work."""
        seat = self.seats[seat_index]
        if not seat.working:
            return self.table_grid(seat_index)
        begun, lands = seat.work_span
        fraction = (now - begun) / (lands - begun) if lands > begun else 0.0
        after = seat.bot.current_grid()
        if after is None:
            return seat.before
        seat.laid_out = laid_out_for(seat.laid_out, seat.before, after)
        return grid_while_building(seat.before, after, fraction, seat.laid_out[2])

    def placed(self, seat_index: int) -> int | None:
        """Tiles on the grid the table sees at this seat (`table_grid`); None once out."""
        if not self.seats[seat_index].active:
            return None
        grid = self.table_grid(seat_index)
        return grid.tile_count if grid is not None else 0

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self._result is not None

    def public_view(self) -> HandView:
        """The hand as every player may see it now (`solver.play.public`): each seat's status,
        tile counts, PEELs, DUMPs and last call, and how the hand ended once it has."""
        peels, dumps = [0] * len(self.seats), [0] * len(self.seats)
        gone: dict[int, SeatStatus] = {}
        last: list[LastCall | None] = [None] * len(self.seats)
        for event in self.events:
            if event["event"] == events.PEEL:  # every seat drawn for has new tiles: its last call is past
                last = [None if str(index) in event["drawn"] else call for index, call in enumerate(last)]
                peels[event["player"]] += 1
            elif event["event"] == events.DUMP:
                dumps[event["player"]] += 1
            if event["event"] in (events.PEEL, events.DUMP, events.BANANAS):
                last[event["player"]] = event["event"]
            elif event["event"] == events.STUCK:
                last[event["player"]] = None
            elif event["event"] in (events.ROTTEN, events.LEFT):
                gone[event["player"]] = event["event"]
        result = self._result
        winners = result.winners if result is not None and result.outcome in ("win", "shared") else []
        seats = tuple(
            PublicSeat(
                status=("stuck" if seat.waiting else "playing") if seat.active else gone.get(index, "left"),
                held=len(seat.held),
                placed=self.placed(index) or 0,
                peels=peels[index],
                dumps=dumps[index],
                building=seat.working and seat.active,
                winner=index in winners,
                last_call=last[index],
            )
            for index, seat in enumerate(self.seats)
        )
        return HandView(seats, len(self.bunch), self.clock, self._ending())

    def _ending(self) -> HandEnding | None:
        return HandEnding.of(self._result) if self._result is not None else None

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

    def record(self, kind: str, seat: int, **data) -> None:
        """One input from outside, into the journal (module docstring)."""
        entry = {"step": self.steps, "input": kind, "seat": seat, **data}
        self.journal.append(entry)
        if self.on_input is not None:
            self.on_input(entry)

    def adopt_shown(self) -> None:
        """Take in the grids remote seats show now (`RemoteSeat.adopt`), each change
        journaled: the hand sees an outside grid only at these moments."""
        for index, seat in enumerate(self.seats):
            if is_remote(seat.bot):
                changed, grid = seat.bot.adopt()
                if changed:
                    self.record("grid", index, grid=grid.to_json() if grid is not None else None)

    def show(self, seat_index: int, grid: Grid | None) -> None:
        """A remote seat shows `grid` now, taken in at once (a driver on one thread; a page on
        the event loop shows its grid to the seat itself and the hand takes it in at its next
        moment). TilesNotHeld if the grid holds tiles the seat does not have."""
        bot = self.seats[seat_index].bot
        if not is_remote(bot):
            raise ValueError(f"seat {seat_index} is not a remote seat")
        bot.show_grid(grid)
        self.adopt_shown()

    def next_due(self) -> float | None:
        """The clock time of the next event, or None when only an outside call can move the
        hand (or it is over). A driver sleeps until then, then calls `advance`."""
        if self._result is not None or not self.queue:
            return None
        return self.queue[0][0]

    def remote_can_act(self) -> bool:
        """Whether a remote seat is still in the hand and not waiting (its call may come)."""
        return any(is_remote(seat.bot) and seat.active and not seat.waiting for seat in self.seats)

    def settle_end(self) -> None:
        """End the hand in a stalemate when nobody can act any more: no event is queued and
        no remote seat can call (RULES.md: every remaining player is stuck)."""
        if self._result is None and not self.queue and not self.remote_can_act():
            self._result = self.stalemate()

    # -- the hand ------------------------------------------------------------------------
    def play(self) -> HandResult:
        """Run the hand to its end (simulated clock, or the wall clock when realtime)."""
        self.start()
        while self._result is None:
            if not self.queue:
                self._result = self.stalemate()
                break
            self.wait_for_wall_clock(self.queue[0][0])
            self.advance(self.queue[0][0])
        return self._result

    # The pieces `play` is made of, for drivers that interleave outside calls (the engine
    # protocol's hosted games): start, then advance the clock, and feed remote calls in.
    def start(self) -> None:
        """Deal the hand (SPLIT) and queue every player's first decision; the hand is not `over` until
        it ends. For a driver that runs the clock itself (`advance`, `external_call`); `play` does it all.
        """
        self._result = None
        self.split()
        self.settle_end()

    def advance(
        self, until: float, stop: Callable[[], bool] | None = None, budget: float | None = None
    ) -> HandEnding | None:
        """Process the queued events due by clock time `until`, in order; before each, stop
        if `stop()` says so, and after each once `budget` wall seconds have passed (a driver's
        slice of work, one event at least: the rest is due at once). How the hand ended,
        once it has (`public.HandEnding`)."""
        started = time.perf_counter()
        while self._result is None and self.queue and self.queue[0][0] <= until:
            if stop is not None and stop():
                break
            self.next_event()
            if budget is not None and time.perf_counter() - started > budget:
                break
        return self._ending()

    def next_event(self) -> None:
        """Process the first queued event."""
        self.adopt_shown()
        self.steps += 1
        if len(self.events) - sum(self.snapshot_counts) >= MAX_HAND_EVENTS or self.steps >= MAX_HAND_STEPS:
            self._result = self.end("unawarded", [], "event_limit")
            return
        when, seat, _, kind, payload = heapq.heappop(self.queue)
        self.clock = when
        outcome = self.decide(seat) if kind == "decide" else self.call(seat, payload, when)
        if outcome is not None:
            self._result = outcome
        self.settle_end()

    def external_call(self, seat_index: int, decision: Decision, now: float, settle: bool = True) -> Refusal | None:
        """A call from a remote player, acted on at clock time `now` (serialized with the rest).
        The hand first plays on to `now`; then the call is judged (`call_error`): a refused call
        changes nothing and its refusal is returned; an allowed one is made (None). With
        `settle` the hand also plays what the call set off at that moment (the others' new
        decisions); without, it stops once the call is made, so a front-end can show it first
        and advance the rest in its own time. A grid the decision carries is the seat's own
        grid from then on (`RemoteSeat.show_grid`), if the call is allowed. The call and its
        verdict go into the journal."""
        self.advance(now)
        self.adopt_shown()
        refusal = self.call_error(seat_index, decision)
        grid = decision.grid.to_json() if decision.grid is not None else None
        code = refusal.code if refusal is not None else None
        self.record(
            "call",
            seat_index,
            now=now,
            call=decision.action,
            tile=decision.tile,
            grid=grid,
            settle=settle,
            refusal=code,
        )
        if refusal is not None:
            return refusal
        self.clock = max(self.clock, now)
        seat = self.seats[seat_index]
        if decision.grid is not None and is_remote(seat.bot) and seat.held.contains(decision.grid.tiles()):
            seat.bot.show_grid(decision.grid)  # (a BANANAS grid of other tiles is inspected, not shown)
            seat.bot.adopt()  # journaled with the call
        if decision.action == "wait":
            self._result = self.mark_stuck(seat_index)
            return None
        seat.waiting = False
        if decision.grid is not None:
            seat.shown = decision.grid
        self.schedule(self.clock, seat_index, "call", (decision, seat.version, self.view()))
        order = self.order
        while self._result is None and any(entry[2] == order for entry in self.queue):
            self.next_event()  # up to this call: what was due before it at this moment comes first
        if settle:
            self.advance(self.clock)
        self.settle_end()
        return None

    def call_error(self, seat_index: int, decision: Decision) -> Refusal | None:
        """Why the rules refuse `decision` from this seat now, or None if it may be made.
        RULES.md PEEL, DUMP and BANANAS name each premise; a "wait" (stuck) is always allowed
        to a player still in. The hand the premises speak of is what the player holds and
        has not placed on its current grid."""
        if decision.action not in CALLS:
            raise ValueError(f"unknown call {decision.action!r}")
        seat = self.seats[seat_index]
        if self._result is not None:
            return Refusal("hand_over", "the hand is over")
        if not seat.active:
            return Refusal("out_of_hand", "that player is out of this hand")
        if decision.action == "wait":
            return None
        refusal = self.table_refusal(decision.action)
        if refusal is not None or decision.action == "bananas":
            return refusal
        shown = decision.grid.tiles() if decision.grid is not None else grid_tiles(seat.bot)
        if not seat.held.contains(shown):
            return Refusal("not_your_tile", "the grid holds tiles that player does not have", {"tile": ""})
        hand = seat.held - shown
        if decision.action == "peel":
            if len(hand):
                return Refusal("rack_not_empty", "PEEL needs every tile of the hand placed", {"left": len(hand)})
            return None
        tile = TileCounts.from_letters(decision.tile or "")
        if len(tile) != 1 or not hand.contains(tile):
            return Refusal("not_your_tile", f"there is no {decision.tile} in the hand", {"tile": decision.tile})
        return None

    def table_refusal(self, action: str) -> Refusal | None:
        """Why the table refuses a "peel", "dump" or "bananas" from every player still in now,
        whatever their grid (the end, the variant, the bunch: `call_error` adds each player's
        own premises), or None. What a front-end shows of a call before it is made."""
        view = self.view()
        if self._result is not None:
            return Refusal("hand_over", "the hand is over")
        if action == "bananas":
            params = {"bunch": view.bunch, "active": view.active}
            text = "BANANAS only when the bunch has fewer tiles than players"
            return None if view.can_bananas else Refusal("bananas_too_early", text, params)
        if not self.rules.peel_and_dump:
            code: CallRefusal = "no_peel" if action == "peel" else "no_dump"
            text = f"there is no {action.upper()} in {self.rules.kind.title}"
            return Refusal(code, text, {"variant": self.rules.variant})
        if action == "peel" and not view.can_peel:
            params = {"bunch": view.bunch, "active": view.active}
            return Refusal("bunch_too_small", "PEEL needs a tile in the bunch for every player", params)
        if action == "dump" and not view.can_dump:
            return Refusal("bunch_too_small", "DUMP needs three tiles in the bunch", {"bunch": view.bunch})
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
        self.log(events.SPLIT, hands=hands, bunch=len(self.bunch), unused=self.unused.letters())
        for index in range(players):
            self.schedule(0.0, index, "decide")

    def decide(self, seat_index: int) -> HandResult | None:
        """Ask `seat_index`'s bot for its decision now and queue its call for when its work (charged on the
        simulated clock) is done; the HandResult if that ends the hand, else None.
        """
        seat = self.seats[seat_index]
        if not seat.active:
            return None
        view = self.view(seat_index)
        decision = seat.bot.decide(view)
        if decision.action == "remote":  # a remote player decides on its own time
            return None
        seat.working, seat.before, seat.laid_out = True, seat.shown, None
        charge = self.charge(seat_index, decision)
        seat.work_span = (self.clock, self.clock + charge.seconds)
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

    def call(self, seat_index: int, payload, when: float) -> HandResult | None:
        """A queued call lands: honoured if it was made on the current state and the rules allow it
        (`call_error`), else the player decides again; the HandResult if it ends the hand, else None.
        """
        decision, version, view_then = payload
        seat = self.seats[seat_index]
        landed, seat.working = seat.working, False  # the work is done: the table sees its grid
        if not seat.active:
            return None
        if landed:
            self.log_snapshot(seat_index, begun=seat.work_span[0])
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

    def log_snapshot(self, seat_index: int, begun: float | None = None) -> None:
        """With `snapshots`: the seat's grid as the table now sees it, when it changed; `begun`:
        when the work that made it began (a room showed it built from then: `building_grid`,
        and a replay shows it the same way)."""
        grid = self.table_grid(seat_index)
        if not self.snapshots or grid is None or grid == self.snapshot_grids[seat_index]:
            return
        if self.snapshot_counts[seat_index] >= MAX_LOG_SNAPSHOTS_PER_HAND:
            return
        self.snapshot_grids[seat_index] = grid
        self.snapshot_counts[seat_index] += 1
        work = {"begun": round(begun, 3)} if begun is not None and begun < self.clock else {}
        self.log(events.SNAPSHOT, player=seat_index, grid=grid.to_json(), **work)

    def refuse(self, seat_index: int) -> HandResult | None:
        """A call whose premise does not hold is dropped and the player thinks again; a
        player whose calls keep being refused counts as stuck."""
        seat = self.seats[seat_index]
        seat.refused += 1
        if seat.refused < MAX_REFUSED:
            self.schedule(self.clock, seat_index, "decide")
            return None
        return self.mark_stuck(seat_index)

    def mark_stuck(self, seat_index: int) -> HandResult | None:
        """The player waits for the table to change; when everyone waits, the hand ends."""
        seat = self.seats[seat_index]
        seat.waiting = True
        self.log(events.STUCK, player=seat_index, hand=(seat.held - grid_tiles(seat.bot)).letters())
        if all(self.seats[i].waiting for i in self.active):
            return self.stalemate()
        return None

    def peel(self, seat_index: int, decision: Decision) -> HandResult | None:
        """RULES.md PEEL (its premises judged by `call_error`): every active player draws one tile, the caller too."""
        drawn = {}
        order = self.active[self.active.index(seat_index) :] + self.active[: self.active.index(seat_index)]
        for index in order:
            tile = draw(self.bunch, 1, self.rng)
            self.give(index, tile)
            drawn[index] = tile.letters()
        self.log(events.PEEL, player=seat_index, drawn={str(k): v for k, v in drawn.items()}, bunch=len(self.bunch))
        for index in order:
            self.wake(index)
        self.schedule(self.clock, seat_index, "decide")
        return None

    def dump(self, seat_index: int, decision: Decision) -> HandResult | None:
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
        self.log(events.DUMP, player=seat_index, returned=decision.tile, drawn=drawn.letters(), bunch=len(self.bunch))
        self.schedule(self.clock, seat_index, "decide")
        return None

    def bananas(self, seat_index: int, decision: Decision) -> HandResult | None:
        """RULES.md BANANAS (the bunch below the active count, judged by `call_error`):
        inspection decides win or ROTTEN BANANA; a tile left in the hand is a grid that
        fails inspection. Valid calls at the very same moment share the win."""
        callers = [(seat_index, decision)] + self.simultaneous_bananas()
        winners = []
        for index, call in callers:
            grid = call.grid
            report = validate(grid, self.lexicon, self.seats[index].held, self.rules.min_length) if grid else None
            self.log(events.BANANAS, player=index, grid=grid.to_json() if grid else None)
            if report is not None and report.ok:
                winners.append(index)
                self.log(events.INSPECTION, player=index, valid=True)
            else:
                self.go_rotten(index, report)
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
                self.seats[seat].working = False  # its call lands now: the table sees its work
            else:
                others.append(entry)
        for entry in others:
            heapq.heappush(self.queue, entry)
        return found

    def go_rotten(self, seat_index: int, report: Report | None) -> None:
        """RULES.md ROTTEN BANANA: out of the hand, all tiles back into the bunch (`report`:
        the inspection's, None when no grid was shown)."""
        seat = self.seats[seat_index]
        self.bunch = self.bunch + seat.held
        seat.held = TileCounts()
        seat.active = False
        self.rotten += 1
        seat.bot.start(TileCounts(), self.rules, 0)  # the bot's tiles are gone too
        problems, faults = (report.problems(), report.faults()) if report else (["no grid"], [{"code": "no_grid"}])
        self.log(events.ROTTEN, player=seat_index, problems=problems, faults=faults, bunch=len(self.bunch))

    def leave(self, seat_index: int, now: float) -> HandEnding | None:
        """A player who leaves the table (a front-end's decision: gone too long, or quit).
        Not a rule of the game: treated like a ROTTEN BANANA without the inspection: out of
        the hand, their tiles back into the bunch, and the others play on. How the hand
        ended, once it has."""
        self.advance(now)
        seat = self.seats[seat_index]
        if self._result is not None or not seat.active:
            return self._ending()
        self.adopt_shown()
        self.record("leave", seat_index, now=now)
        self.clock = max(self.clock, now)
        self.bunch = self.bunch + seat.held
        seat.held = TileCounts()
        seat.active = False
        seat.bot.start(TileCounts(), self.rules, 0)
        self.log(events.LEFT, player=seat_index, bunch=len(self.bunch))
        if not self.active:
            self._result = self.end("unawarded", [], "all_left")
        else:
            for index in self.active:
                self.wake(index)  # the bunch grew: a PEEL or a DUMP may be possible again
        self.settle_end()
        return self._ending()

    def finish_race(self, winners: list[int]) -> HandResult:
        """The result when `winners` (seats) called a valid BANANAS together: the variant decides (a shared
        win, or a tiebreak).
        """
        return self.rules.kind.finish_race(self, winners)

    def stalemate(self) -> HandResult:
        """Every remaining player is stuck (or the guard tripped)."""
        return self.rules.kind.stalemate(self)

    def end(self, outcome: events.Outcome, winners: list[int], code: EndReason, **params) -> HandResult:
        """The hand ends: `code` says why (END_REASONS, filled in with `params`)."""
        reason = END_REASONS[code].format(**{**params, "why": WHY.get(params.get("why", ""), "")})
        scores = self.rules.kind.scores(self, winners)
        self.log(events.END, outcome=outcome, winners=winners, reason=reason, **scores)
        # Every grid as the table last saw it: a bot's work still under way is not laid.
        grids = [self.end_grid(index) for index in range(len(self.seats))]
        return HandResult(
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

    def end_grid(self, seat_index: int) -> list[str] | None:
        """A seat's grid in the result: the grid the table sees (`table_grid`), None once out."""
        grid = self.table_grid(seat_index) if self.seats[seat_index].active else None
        return grid.to_json() if grid is not None else None

    def wait_for_wall_clock(self, when: float) -> None:
        """With `realtime`, sleep until simulated time `when` (seconds) is due on the wall clock; at once otherwise."""
        if self.realtime:
            delay = when - (time.perf_counter() - self.started_wall)
            if delay > 0:
                time.sleep(delay)


def play_hand(rules: Rules, bots: Sequence[Bot], seed: int, **options) -> HandResult:
    """Play one hand of `bots` (one seat each, in order) under `rules` from `seed` (a non-negative int) to its
    end and return the HandResult; `options` go to `Hand` (realtime, observer). RuleError for a bad seat
    count or seed. The same arguments give the same hand.
    """
    return Hand(rules, bots, seed, **options).play()


def replay(hand: Hand, journal: list[dict], steps: int | None = None) -> Hand:
    """Rebuild a hand from its inputs. `hand`: a new, unstarted `Hand` of the same rules, seed
    and player specs (remote seats as new `RemoteSeat`s), with whatever observer the caller
    wants; `journal`: the original's `Hand.journal`. Each outside input is made again in its
    order, at its place among the events (its `step`), so the rebuilt hand's events, tiles and
    journal equal the original's (ValueError if they cannot: a journal that is not this
    hand's). `steps`: a hand saved mid-way: play on until that many events are processed and
    every input is made; None plays on to the end. Returns `hand`."""
    script = deque(journal)
    hand.start()
    while True:  # (an input may follow the end: a call the hand refused as over)
        if script and script[0]["step"] == hand.steps:
            apply_input(hand, script.popleft())
        elif script and script[0]["step"] < hand.steps:
            raise ValueError(f"the journal's input at step {script[0]['step']} was passed by the replay")
        elif hand._result is None and hand.queue and (script or steps is None or hand.steps < steps):
            hand.next_event()
        else:
            break
    if script:
        raise ValueError(f"{len(script)} input(s) of the journal were never reached")
    if hand.journal != list(journal):
        raise ValueError("the replayed hand journaled other inputs than the journal it was given")
    return hand


def apply_input(hand: Hand, entry: dict) -> None:
    """One input of a journal, made again (`replay`): a grid taken in, a call or a leave."""
    seat = entry["seat"]
    if entry["input"] == "grid":
        bot = hand.seats[seat].bot
        if not is_remote(bot):
            raise ValueError(f"the journal shows a grid for seat {seat}, which is not a remote seat")
        bot.show_grid(Grid.from_rows(entry["grid"]) if entry["grid"] is not None else None)
        hand.adopt_shown()
        return
    if entry["input"] == "leave":
        hand.leave(seat, entry["now"])
        return
    grid = Grid.from_rows(entry["grid"]) if entry["grid"] is not None else None
    decision = Decision(entry["call"], tile=entry["tile"], grid=grid)
    refusal = hand.external_call(seat, decision, entry["now"], settle=entry["settle"])
    if (refusal.code if refusal is not None else None) != entry["refusal"]:
        raise ValueError(f"the journal's call at step {entry['step']} was judged otherwise: {refusal!r}")
