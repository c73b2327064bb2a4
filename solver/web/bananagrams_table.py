"""A Bananagrams hand at a room's table: the engine referees it on the wall clock.

The table runs the same engine as `bananas play` (`solver.play.hand.Hand`), seats each
person as a `solver.play.remote.RemoteSeat` (whose grid and calls come from the page) and
the bots by preset. The hand drives itself: the table sleeps until its next event is due,
advances it, and reads its public view (`Hand.public_view`); it never touches the hand's
queue or result, nor decides an end or a seat's status.
The engine is the one judge of a call (`Hand.call_error`): a refused call
reaches the page as the engine's refusal code, and nothing changes. A person only ever
receives their own tiles (others' appear as counts).

A bot's work shows as it is charged: between the moment the referee starts charging a step
and the moment it lands, the table shows the grid it will land being laid a tile at a time,
word by word (`Hand.building_grid`), and the driver wakes every second to send it. Only the
table shows it: the end of a hand, its log and its review hold the landed work. A person's
rack changing size shows at the same tick: one `table` a second for all the grids the people
send in it, not one per grid.

Threads: the engine's work (bots thinking, calls) runs in worker threads under the table's
asyncio lock, so the event loop keeps serving pages. A person's grid updates only take that
person's own small lock (the seat's live grid, which the hand takes in at its own moments),
so spellcheck answers while a bot thinks.
"""

from __future__ import annotations

import asyncio
import functools
import math
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from solver.coach.logs import room_header
from solver.coach.record import HandRecord
from solver.core.grid import Grid, validate
from solver.core.limits import MAX_GRID_SEQ, MAX_PAGE_COORD
from solver.core.tiles import DISTRIBUTIONS, TileCounts
from solver.lexicon.loader import with_offensive
from solver.play import events
from solver.play.bots import GreedyBot, SolverBot, make_bot
from solver.play.hand import Hand, replay
from solver.play.public import PublicSeat
from solver.play.refusals import Refusal
from solver.play.remote import RemoteSeat, TilesNotHeld, is_remote
from solver.play.rules import Decision, RuleError, Rules
from solver.web.coaching import HandReviewer, common_words, hint_for
from solver.web.hand_log import HandLogWriter
from solver.web.persistence import SavedHand
from solver.web.table import RoomError, Seat, TableHandle, TableSetup, log

PAGE_CALLS = {"peel": "peel", "dump": "dump", "bananas": "bananas", "stuck": "wait"}  # page call -> Decision
Cell = tuple[int, int]
Result = TypeVar("Result")
HINTS_OFF = Refusal("hints_off", "this room does not allow hints (the host sets them; a solo game has them)")
HINT_BUSY = Refusal("hint_busy", "a hint is on its way")
HINT_COOLDOWN_SECONDS = 20.0  # on the hand's clock, between two hints of one player
# While a bot's work is laid out on the table (`shown_grids`), the driver looks this often
# whether a thumbnail grew: at most one table a second, however many bots build.
BUILD_TICK_SECONDS = 1.0
# A durable hand's progress (its clock) is saved at least this often while it runs: what a
# restart can lose of the clock, and so of the bots' work charged on it.
PROGRESS_SECONDS = 1.0


def hint_limit(count: int) -> Refusal:
    """No more hints: each person has the room's `hint_count` a hand (solver.web.table.HINT_COUNTS)."""
    return Refusal("hint_limit", f"at most {count} hints a hand", {"count": count})


def parse_cells(value, limit: int) -> dict[Cell, str]:
    """A page's grid: a list of [row, col, letter]; every field checked."""
    if not isinstance(value, list) or len(value) > limit:
        raise RoomError("bad_grid", f"a grid is a list of at most {limit} [row, col, letter] cells")
    cells: dict[Cell, str] = {}
    for item in value:
        if not (isinstance(item, list) and len(item) == 3):
            raise RoomError("bad_grid", "each cell is [row, col, letter]")
        row, col, letter = item
        if not all(isinstance(n, int) and not isinstance(n, bool) and abs(n) <= MAX_PAGE_COORD for n in (row, col)):
            raise RoomError("bad_grid", f"cell coordinates are integers within +-{MAX_PAGE_COORD}")
        if not (isinstance(letter, str) and len(letter) == 1 and "A" <= letter <= "Z"):
            raise RoomError("bad_letters", "a tile is one letter A-Z")
        if (row, col) in cells:
            raise RoomError("bad_grid", "two tiles on one cell")
        cells[(row, col)] = letter
    return cells


def cells_tiles(cells: dict[Cell, str]) -> TileCounts:
    return TileCounts.from_letters("".join(cells.values()))


def thumbnail(grid: Grid | None, letters: bool) -> list[str] | None:
    """A grid for the others to watch: its rows, letters shown or each tile as `#`."""
    if grid is None:
        return None
    return grid.to_json() if letters else list(shape_of(grid.rows))


@functools.lru_cache(maxsize=4096)  # every table message shows every grid: most have not changed
def shape_of(rows: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(SHAPE.sub("#", row) for row in rows)


SHAPE = re.compile("[A-Z]")


# A seat's status as the page names it (`page_status`): a seat in the hand shows its last call.
LAST_CALL_STATUS = {"peel": "peeled", "dump": "dumped", "bananas": "called", None: "building"}


def page_status(seat: PublicSeat) -> str:
    """The page's word for a seat (the hand's view of it): building, peeled, dumped, called
    or stuck while in the hand; rotten or left once out."""
    if seat.status == "playing":
        return LAST_CALL_STATUS[seat.last_call]
    return seat.status


def refused(refusal: Refusal) -> RoomError:
    """The engine's refusal as the page's error: its code, for the page to translate."""
    return RoomError(refusal.code, refusal.message, refusal.params)


def table_rules(setup: TableSetup) -> Rules:
    """The engine's rules for the room's variant and the players seated (one alone plays solo,
    with the room's shortest word)."""
    players, variant = len(setup.seats), setup.variant
    try:
        rules = Rules.for_variant(
            variant.at_table(players), setup.language, distribution=setup.distribution, min_length=variant.min_length
        )
        rules.check_players(players)
    except RuleError as error:
        raise RoomError("bad_start", str(error)) from None
    return replace(rules, lexicon=with_offensive(rules.lexicon, setup.offensive_words))


class BananagramsTable:
    """One hand at a room's table: the engine's `Hand` on the wall clock, and what pages see.
    `resume`: a hand saved by a durable room (solver.web.persistence), rebuilt from its
    inputs instead of dealt afresh, each person's live grid given back. `now`: the wall clock
    the table runs on (seconds; a test's clock of its own)."""

    messages = frozenset({"grid", "call", "hint"})
    durable = True  # its hand is saved as it goes and resumes after a restart

    def __init__(
        self,
        setup: TableSetup,
        handle: TableHandle,
        resume: SavedHand | None = None,
        now: Callable[[], float] = time.monotonic,
    ):
        self.handle = handle
        self.now = now
        self.spellcheck = setup.spellcheck
        self.seats = list(setup.seats)
        self.rules = table_rules(setup)
        self.players: list[RemoteSeat | SolverBot | GreedyBot] = [
            RemoteSeat(seat.name) if seat.kind == "person" else make_bot(seat.spec or "") for seat in self.seats
        ]
        for player, seat in zip(self.players, self.seats, strict=True):
            player.name = seat.name
        self.events: list[events.HandEvent] = []  # engine events not yet turned into messages
        self.show_letters = setup.show_letters
        count = len(self.seats)
        self.log: list[dict] = []
        self.tiles_left = [0] * count
        self.hints_allowed = setup.hints or count == 1  # a solo game always has them
        self.hint_count = setup.hint_count  # each person's hints a hand
        self.hinting: set[int] = set()  # players whose hint is being worked out
        self.last_hint = [-HINT_COOLDOWN_SECONDS] * count  # the hand's clock at each player's last hint
        self.common_words = common_words(setup.language, setup.offensive_words)
        # The hand's log, and the record of its end every figure is read from (solver.coach.record).
        keepsakes = resume.progress.get("keepsakes", []) if resume is not None else []
        self.record = HandLogWriter(setup.hand, self.log_header(setup), self.rules.distribution, keepsakes)
        self.end_record: HandRecord | None = None
        self.ended: HandReviewer | None = None  # the hand's review, once it is over (worked out when asked)
        self.round = Hand(
            self.rules, self.players, setup.seed, observer=self.events.append, snapshots=True
        )  # loads word lists
        self.resumed_at = 0.0  # the hand's clock when this table took it up
        # A resumed hand's clock (and so its bots) stands still until a person of the hand is
        # back: the server's start and the pages' reconnecting count against nobody.
        self.awaiting_people = resume is not None
        if resume is None:
            self.round.start()  # the deal (and the bots' word lists, on first use) before anyone sees the table
        else:
            self.take_up(resume)
        journal = self.round.journal  # each new input saved as the hand takes it (after a replay's)
        self.round.on_input = lambda entry: handle.record_input(len(journal) - 1, entry)
        self.lexicon = self.round.lexicon
        if any(not is_remote(player) for player in self.players):
            # The bots' search kernels compiled now, in the room's worker thread, before the
            # hand's clock starts: a bot's first step would compile them (tens of seconds on
            # a cold numba cache) under the table's lock, and a person's call, which first
            # advances the bots to its time, would wait for it. Instant once the server's
            # warm-up is done (warm_kernels waits for it rather than compiling twice).
            from solver.search.solving import warm_kernels  # numba-backed: loaded when first needed

            warm_kernels(self.lexicon)
        self.started = self.now() - self.resumed_at
        self.saved_at = -math.inf  # the hand's clock at the last progress saved
        self.saved_keepsakes = -1  # and the log's keepsakes it held
        self.lock = asyncio.Lock()
        self.poke = asyncio.Event()
        self.final: dict | None = None
        self.sent_held: dict[int, tuple] = {}  # connection id -> (held, active, waiting) last sent
        self.sent_builds: tuple = ()  # the bots' grids as the last table showed them
        self.rack_changed = False  # a person's rack changed size since the last table: the next tick shows it

    def take_up(self, saved: SavedHand) -> None:
        """A saved hand, as it was: its inputs made again at their places among the events,
        the events processed by then played (the bots' work as it stood), the clock going on
        from where it was saved, and each person's live grid shown again (not yet taken in:
        the hand takes it at its next moment, as it would have)."""
        replay(self.round, saved.journal, steps=saved.progress["steps"])
        self.resumed_at = max(saved.progress["clock"], self.round.clock)
        for index, cells in saved.live.items():
            player = self.players[int(index)]
            if isinstance(player, RemoteSeat) and int(index) in self.round.active:
                try:
                    player.show(parse_cells(cells, len(self.rules.distribution)))
                except (RoomError, TilesNotHeld):
                    log.warning("room %s: a saved grid of seat %s no longer fits its tiles", self.handle.room_id, index)

    def clock(self) -> float:
        return self.resumed_at if self.awaiting_people else self.now() - self.started

    def log_header(self, setup: TableSetup) -> dict:
        """The room log's header: enough to read the hand back (solver.coach.read_log)."""
        tiles = self.rules.distribution
        return room_header(
            setup.seed,
            [seat.name for seat in self.seats],
            [seat.spec if seat.kind == "bot" else None for seat in self.seats],
            setup.variant.name,
            setup.language,
            hints=self.hints_allowed,
            tiles=tiles.distribution() if tiles != DISTRIBUTIONS[setup.language] else None,
        )

    def index_of(self, seat: Seat) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is seat), None)

    def seated(self, seat: Seat) -> bool:
        return self.index_of(seat) is not None

    def person_at(self, seat: Seat) -> tuple[int, RemoteSeat]:
        """The index and engine seat of the person at `seat`, who must be playing this hand."""
        index = self.index_of(seat)
        player = self.players[index] if index is not None else None
        if index is None or not isinstance(player, RemoteSeat):
            raise RoomError("out_of_order", "you are not playing in this game")
        refusal = self.round.call_error(index, Decision("wait"))  # may this player act at all?
        if refusal is not None:
            raise refused(refusal)
        return index, player

    # -- the table interface -------------------------------------------------------------------
    async def start(self) -> None:
        async with self.lock:
            self.started = self.now() - self.resumed_at  # a resumed hand's clock goes on from there
            self.publish(self.drain_events())
        if not self.awaiting_people:
            self.handle.spawn(self.drive())

    def people_back(self) -> None:
        """A person of a resumed hand is back: its clock goes on from where it was saved."""
        if self.awaiting_people:
            self.awaiting_people = False
            self.started = self.now() - self.resumed_at
            self.handle.spawn(self.drive())

    def restore(self, connection, seat: Seat) -> None:
        connection.send({"type": "log", "entries": self.log, "reset": True})
        self.broadcast_table()  # everyone sees the seat connected again
        index = self.index_of(seat)
        if index is not None and isinstance(player := self.players[index], RemoteSeat):
            self.people_back()
            private = self.private(index, restore=True)
            self.sent_held[id(connection)] = (private["held"], private["active"], private["waiting"])
            connection.send(private)
            if self.spellcheck and self.final is None:
                connection.send({"type": "check", "seq": None, **self.check(*player.board())})
        if self.final is not None:
            connection.send(self.final)
            if self.ended is not None and self.ended.worked_out is not None:
                connection.send(self.ended.worked_out)

    async def on_message(self, connection, seat: Seat, message: dict) -> None:
        if message["type"] == "grid":
            await self.update_grid(connection, seat, message)
        elif message["type"] == "hint":
            await self.hint(connection, seat)
        else:
            await self.call(seat, message)

    def hand_log(self) -> str | None:
        return self.ended.log_text if self.ended is not None else None  # the text the review reads, not a copy

    def reviewer(self) -> HandReviewer | None:
        return self.ended

    async def leave(self, seat: Seat) -> None:
        index = self.index_of(seat)
        assert index is not None  # the room asks only for a seat dealt in
        async with self.lock:
            if not self.round.over:
                await self.step(lambda: self.round.leave(index, self.clock()))
                await self.handle.committed()
            self.publish(self.drain_events())

    def disconnected(self, connection) -> None:
        self.sent_held.pop(id(connection), None)
        self.broadcast_table()

    # -- the page's messages -------------------------------------------------------------------
    async def update_grid(self, connection, seat: Seat, message: dict) -> None:
        """A person's grid as their page has it now: the live grid, saved (a durable room)
        before the page's check is answered, so a grid answered is never lost."""
        index, person = self.person_at(seat)
        cells = parse_cells(message.get("cells"), len(self.rules.distribution))
        seq = message.get("seq")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_GRID_SEQ):
            raise RoomError("bad_value", f"seq is an integer from 0 to {MAX_GRID_SEQ}")
        before = self.tiles_left[index]
        try:
            person.show(cells)
        except TilesNotHeld:
            raise RoomError("not_your_tile", "the grid holds tiles you do not have") from None
        grid = person.board()[1]
        complete = grid is not None and not len(person.rack())  # a first grid is written at its moment
        self.record.snapshot(index, self.clock(), grid.to_json() if grid is not None else None, complete)
        # The progress goes with it only when the grid gave the log a line the end rests on (a
        # first grid): the clock alone is saved at the driver's ticks, a second apart at most.
        progress = self.progress_saved() if len(self.record.keepsakes) != self.saved_keepsakes else None
        self.handle.record_live(index, [[r, c, letter] for (r, c), letter in cells.items()], progress)
        await self.handle.committed()
        if self.spellcheck:
            connection.send({"type": "check", "seq": seq, **self.check(cells, grid)})
        self.person_tiles_left()
        if self.tiles_left[index] != before:  # the others' view changes with the count (not every move)
            self.rack_changed = True  # shown at the driver's next tick: one table a tick, however many grids

    async def call(self, seat: Seat, message: dict) -> None:
        """PEEL, DUMP, BANANAS or "stuck" from a person: the engine judges it."""
        index, person = self.person_at(seat)
        call = message.get("call")
        if not isinstance(call, str) or call not in PAGE_CALLS:
            raise RoomError("bad_value", "call is peel, dump, bananas or stuck")
        tile = message.get("tile") if call == "dump" else None
        if call == "dump" and not (isinstance(tile, str) and len(tile) == 1 and "A" <= tile <= "Z"):
            raise RoomError("bad_letters", "dump one tile, a letter A-Z")
        async with self.lock:
            self.record.flush(self.clock(), index, force=True)  # the grid this call is judged on
            decision = Decision(PAGE_CALLS[call], tile=tile, grid=person.board()[1])
            # The call is shown at once; what it sets off (the bots' new moves) the driver plays next.
            refusal = await self.step(lambda: self.round.external_call(index, decision, self.clock(), settle=False))
            await self.handle.committed()  # the call and its verdict saved before the page hears of it
            self.publish(self.drain_events())
        self.poke.set()
        if refusal is not None:
            raise refused(refusal)

    async def hint(self, connection, seat: Seat) -> None:
        """One move for the person's grid and rack (solver.coach.hint, off the event loop),
        in the page's own coordinates; counted and logged when there is one."""
        index, person = self.person_at(seat)
        if not self.hints_allowed:
            raise refused(HINTS_OFF)
        if index in self.hinting:
            raise refused(HINT_BUSY)
        if self.record.hints(index) >= self.hint_count:
            raise refused(hint_limit(self.hint_count))
        wait = self.last_hint[index] + HINT_COOLDOWN_SECONDS - self.clock()
        if wait > 0:
            raise RoomError("hint_cooldown", f"the next hint in {math.ceil(wait)} s", {"seconds": math.ceil(wait)})
        tiles, cells = person.snapshot()
        self.hinting.add(index)
        try:
            rack = tiles - cells_tiles(cells)
            found = await asyncio.to_thread(hint_for, cells, rack, self.lexicon, self.rules, self.common_words)
        finally:
            self.hinting.discard(index)
        if found is not None and self.final is None:
            self.last_hint[index] = self.clock()
            self.record.hint(index, self.clock())  # counted from the log, as every figure
            self.save_progress()  # (a hint is saved with the hand at once)
            await self.handle.committed()
        connection.send({"type": "hint", "hint": found, "hints_left": self.hints_left(index)})

    # -- engine steps (call with the lock held; they run in a worker thread) -------------------
    async def step(self, action: Callable[[], Result]) -> Result:
        return await asyncio.to_thread(action)

    async def drive(self) -> None:
        """Advance the engine as the wall clock reaches its events (bots' calls). While a bot
        works, also wake every BUILD_TICK_SECONDS to show its work laid out so far."""
        hand = self.round
        while not hand.over and not self.handle.closed:
            due = hand.next_due()
            delay = PROGRESS_SECONDS if due is None else max(0.0, self.started + due - self.now())
            if self.bot_building():
                delay = min(delay, BUILD_TICK_SECONDS)
            poked = False
            try:
                poked = await asyncio.wait_for(self.poke.wait(), timeout=min(delay, PROGRESS_SECONDS))
            except TimeoutError:
                pass
            self.poke.clear()
            await self.tick(poked)

    async def tick(self, poked: bool = False) -> None:
        """One wake of the driver: the hand played to the clock and published when an event is
        due (or a call poked it); else only the bots' work laid out so far shown, and the
        progress saved once a PROGRESS_SECONDS."""
        hand = self.round
        async with self.lock:
            if not hand.over and not poked and not self.due_now():
                self.show_building()  # nothing to referee: only thumbnails to move
                # Ticks come a PROGRESS_SECONDS apart: each saves (half of it, as a tick may come early).
                if self.clock() - self.saved_at >= PROGRESS_SECONDS / 2:
                    self.save_progress()
                return
            if not hand.over:
                await self.step(lambda: hand.advance(self.clock()))
            self.publish(self.drain_events())

    def bot_building(self) -> bool:
        """Whether a bot's work is being charged (and so laid out on the table) now."""
        return any(seat.building for seat in self.round.public_view().seats)

    def due_now(self) -> bool:
        due = self.round.next_due()
        return due is not None and due <= self.clock()

    def show_building(self) -> None:
        """The table to every page when a person's rack changed size or a bot's grid as shown
        has grown since the last table: at most one table a tick, however many grids the
        people send and however many bots build, and none while nothing moves."""
        if self.rack_changed or self.bots_shown(self.shown_grids()) != self.sent_builds:
            self.broadcast_table()

    def bots_shown(self, grids: list[Grid | None]) -> tuple:
        return tuple(grid for grid, player in zip(grids, self.players, strict=True) if not is_remote(player))

    def rack_size(self, index: int, shown: Grid | None, seat: PublicSeat) -> int:
        """A player's tiles not on their grid as the table shows it: a person's rack, a bot's
        tiles held that are not on the grid shown (so it shrinks as the grid is laid out)."""
        if is_remote(self.players[index]):
            return self.tiles_left[index]
        return max(0, seat.held - shown.tile_count) if seat.active and shown is not None else seat.held

    def person_tiles_left(self) -> None:
        for index, player in enumerate(self.players):
            if isinstance(player, RemoteSeat):
                self.tiles_left[index] = len(player.rack()) if index in self.round.active else 0

    def grid_of(self, index: int) -> Grid | None:
        """A player's grid as the table sees it: a person's live grid, a bot's as its last work
        to land left it (`Hand.table_grid`). The end screen, the log's `grids` line and so the
        review read this too: a bot's work still being charged when the hand ended was never
        laid (showing it credited a bot with 48 tiles when the table had seen 36)."""
        player = self.players[index]
        if index not in self.round.active:
            return None
        if isinstance(player, RemoteSeat):
            return player.board()[1]
        return self.round.table_grid(index)

    def shown_grids(self) -> list[Grid | None]:
        """Every player's grid as the table shows it now: `grid_of`, except that while the
        hand runs a bot's work under way is shown laid out over the time charged for it
        (`Hand.building_grid`: people watch it build). Shown only: the end of the hand, the
        log and the review read `grid_of`, the landed work."""
        hand, now = self.round, self.clock()
        active = hand.active
        return [
            hand.building_grid(index, now)
            if not hand.over and index in active and not is_remote(player)
            else self.grid_of(index)
            for index, player in enumerate(self.players)
        ]

    # -- what pages see ------------------------------------------------------------------------
    def publish(self, entries: list[dict]) -> None:
        """The log's new entries, the public table, each person their own tiles if they
        changed, and the end once the hand is over."""
        if entries:
            self.handle.broadcast({"type": "log", "entries": entries})
        self.record.flush(self.clock())  # the persons' grids that waited for their time
        ending = self.round.public_view().ending
        ending_now = ending is not None and self.final is None
        if ending_now:
            # The end of the hand, once: the grids the table last saw, read into the log's record;
            # the table, the end screen and the review show that record.
            grids = [self.grid_of(index) for index in range(len(self.seats))]
            self.end_record = self.record.finish(grids, self.round.clock)
            self.final = self.final_boards(self.end_record)
            self.ended = HandReviewer(self.record.hand, self.record.text(), self.lexicon, self.common_words)
        self.save_progress()
        self.broadcast_table()
        for connection, seat in self.handle.pages():
            index = self.index_of(seat)
            if index is not None and isinstance(self.players[index], RemoteSeat):
                private = self.private(index)
                if self.sent_held.get(id(connection)) != (private["held"], private["active"], private["waiting"]):
                    self.sent_held[id(connection)] = (private["held"], private["active"], private["waiting"])
                    connection.send(private)
        if ending_now:
            assert ending is not None and self.final is not None
            self.poke.set()  # the driver stops, however the hand ended (a leave pokes nothing else)
            self.handle.broadcast(self.final)
            winner = ending.sole_winner
            self.handle.ended(self.seats[winner] if winner is not None else None)

    def progress(self) -> dict:
        """What a durable room saves of the hand besides its inputs and the persons' live
        grids (solver.web.persistence): the clock, the events processed, and the log's lines
        the end rests on."""
        return {"clock": self.clock(), "steps": self.round.steps, "keepsakes": self.record.keepsakes}

    def save_progress(self) -> None:
        self.handle.record_progress(self.progress_saved())

    def progress_saved(self) -> dict:
        """The progress (`progress`), marked as saved."""
        self.saved_at, self.saved_keepsakes = self.clock(), len(self.record.keepsakes)
        return self.progress()

    def drain_events(self) -> list[dict]:
        """Engine events since the last call, as public log entries."""
        entries = []
        while self.events:
            event = self.events.pop(0)
            self.record.engine_event(event)
            entry = self.log_entry(event)
            if entry is not None:
                entries.append(entry)
        self.log.extend(entries)
        return entries

    def log_entry(self, event: events.HandEvent) -> dict | None:
        """The page's log line for an engine event (None: one the page does not list)."""
        if event["event"] in (events.INSPECTION, events.SNAPSHOT):
            return None  # the end entry says who won; grids are the table's to show
        player = events.player_of(event)
        who = self.seats[player].name if player is not None else None
        entry: dict = {"t": event["t"], "kind": event["event"], "who": who}
        if event["event"] == events.SPLIT:
            entry["hand_size"] = len(event["hands"][0]) if event["hands"] else 0
        elif event["event"] == events.ROTTEN:
            entry["problems"] = event["problems"][:5]
            entry["faults"] = event.get("faults", [])[:5]  # the same by code: the page words them
        elif event["event"] == events.END:
            winners = [self.seats[i].name for i in event.get("winners", [])]
            entry.update(outcome=event.get("outcome"), winners=winners, reason=event.get("reason"))
            if "time" in event:  # a solo hand's scores
                entry.update(time=event["time"], words=event.get("words"))
        if event["event"] in (events.SPLIT, events.PEEL, events.DUMP, events.ROTTEN, events.LEFT):
            entry["bunch"] = event["bunch"]
        return entry

    def broadcast_table(self) -> None:
        """The public table to every page: the others' grids as shapes, or with their letters
        for a page whose person is out of the hand (and in a room that shows letters)."""
        tables: dict[bool, dict] = {}
        grids = self.shown_grids()  # one moment for every page: each grid shown with its own rack
        self.sent_builds = self.bots_shown(grids)
        self.rack_changed = False
        for connection, seat in self.handle.pages():
            index = self.index_of(seat)
            letters = self.show_letters or index is None or index not in self.round.active
            if letters not in tables:
                tables[letters] = self.table(grids, letters)
            connection.send(tables[letters])

    def table(self, grids: list[Grid | None], letters: bool = False) -> dict:
        """The `table` message for `grids` (`shown_grids`)."""
        hand = self.round
        self.person_tiles_left()
        players = []
        view = hand.public_view()
        public = view.seats
        for index, seat in enumerate(self.seats):
            grid = grids[index]
            tiles_left, on_grid = self.rack_size(index, grid, public[index]), grid.tile_count if grid is not None else 0
            if self.end_record is not None:  # the hand is over: its record, as the end screen shows it
                tiles_left = self.end_record.players[index].tiles_left
            elif not public[index].active:  # out of the hand: their tiles went back to the bunch
                tiles_left = on_grid = 0
            players.append(
                {
                    "seat": index,
                    "name": seat.name,
                    "kind": seat.kind,
                    "tiles_left": tiles_left,
                    "on_grid": on_grid,
                    "grid": thumbnail(grid, letters),
                    "active": public[index].active,
                    "status": page_status(public[index]),
                    "connected": seat.connected,
                    "peels": public[index].peels,
                    "dumps": public[index].dumps,
                    "first_grid": self.record.first_grid(index),
                }
            )
        return {
            "type": "table",
            "bunch": view.bunch,
            "active": len(view.active),
            "players": players,
            "variant": self.rules.variant,
            "min_length": self.rules.min_length,
            "peel_and_dump": self.rules.peel_and_dump,
            "clock": round(self.clock(), 1),
            "over": view.over,
            "calls": self.calls_now(),
            "letters": letters,
            "hints": self.hints_allowed,
        }

    def calls_now(self) -> dict[str, dict | None]:
        """What the engine says of each call now, for every player still in (`Hand.table_refusal`):
        None when the table allows it, else its refusal's code and params. The page shows this
        and judges only its own rack (a PEEL or BANANAS needs every tile placed)."""
        refusals = {call: self.round.table_refusal(call) for call in ("peel", "dump", "bananas")}
        return {
            call: {"code": refusal.code, "params": refusal.params} if refusal is not None else None
            for call, refusal in refusals.items()
        }

    def private(self, index: int, restore: bool = False) -> dict:
        player = self.players[index]
        assert isinstance(player, RemoteSeat)  # private messages go to persons only
        tiles, cells = player.snapshot()
        public = self.round.public_view().seats[index]
        message = {"type": "tiles", "held": tiles.letters(), "active": public.active, "waiting": public.waiting}
        if self.hints_allowed:
            message["hints_left"] = self.hints_left(index)
        if restore:
            message["cells"] = [[row, col, letter] for (row, col), letter in sorted(cells.items())]
        return message

    def hints_left(self, index: int) -> int:
        """The hints player `index` may still be shown this hand (the room's `hint_count`)."""
        return max(self.hint_count - self.record.hints(index), 0)

    def check(self, cells: dict[Cell, str], grid: Grid | None) -> dict:
        """The spellcheck of a page's grid (`grid`: Grid.from_cells(cells)), in the page's own
        coordinates."""
        if grid is None:
            return {"valid": True, "invalid_cells": [], "loose_cells": [], "invalid_words": []}
        top = min(row for row, _ in cells)
        left = min(col for _, col in cells)
        report = validate(grid, self.lexicon, None, self.rules.min_length)
        invalid = sorted({(r + top, c + left) for word in report.invalid_words for r, c in word.cells})
        loose = []
        if len(report.components) > 1:
            biggest = max(report.components, key=len)
            loose = sorted((r + top, c + left) for part in report.components if part is not biggest for r, c in part)
        return {
            "valid": report.ok,
            "invalid_cells": [list(cell) for cell in invalid],
            "loose_cells": [list(cell) for cell in loose],
            "invalid_words": sorted({word.text for word in report.invalid_words}),
        }

    def final_boards(self, record: HandRecord) -> dict:
        """The `end` message: how the hand ended, and each player's end as its record has it
        (solver.coach.record: the review reads the same from the hand's log)."""
        view = self.round.public_view()
        ending = view.ending
        assert ending is not None  # called once the hand has ended
        boards = []
        for index, (seat, player) in enumerate(zip(self.seats, record.players, strict=True)):
            board = {
                "seat": index,
                "name": seat.name,
                "kind": seat.kind,
                "status": page_status(view.seats[index]),
                "grid": None,
                "tiles_left": player.tiles_left,
                "first_grid": player.first_grid,
                "tiles_per_minute": player.tiles_per_minute,
                "peels": player.peels,
                "dumps": player.dumps,
                "hints": player.hints,
            }
            if player.grid is not None:
                report = validate(player.grid, self.lexicon, None, self.rules.min_length)
                board.update(
                    grid=player.grid.to_json(),
                    valid=report.ok,
                    invalid_cells=sorted({cell for word in report.invalid_words for cell in word.cells}),
                    words=len(report.words),
                )
            if view.seats[index].winner:
                board["status"] = "winner"
            elif index in ending.winners:  # a Banana Smoothie tie: another hand
                board["status"] = "tied"
            boards.append(board)
        return {
            "type": "end",
            "outcome": ending.outcome,
            "winners": [self.seats[i].name for i in ending.winners],
            "reason": ending.reason,
            "reason_code": ending.reason_code,
            "reason_params": dict(ending.reason_params),
            "scores": dict(ending.scores),
            "boards": boards,
            "clock": round(ending.clock, 1),
        }
