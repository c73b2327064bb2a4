"""Replay is play: a hand (or a Spellevate round) its server crashes out of, any number of times, goes on exactly as
it would have gone without the crashes (docs/ROOMS.md, *Reconnecting*).

A property test in the manner of simulation testing: a seeded person plays a whole hand at a
room's table (`BananagramsTable`, on a clock of the test's own) beside bots at several
paces, sending grids and calls and waiting for each answer as a page does. Between any two
of the person's moves the test may crash the server, several times a hand:

- `kill` (SIGKILL, a worker's death): the process is gone at once; what the store had not
  committed yet is lost (the writer thread's queue is dropped);
- `term` (SIGTERM, Ctrl-C): the rooms are suspended, their progress saved, the store closed;
- `kill_restoring`: killed again while the next server rebuilds the hand (its replay).

After each crash a new table is built from the database alone, as a new server does. At the
end, the crashed run's hand - every engine event, the journal of inputs, each seat's tiles,
the person's grid, the result, the log lines the end's figures rest on - must equal an
uninterrupted run of the same moves.

The person's moves are in the hand's clock: a restart loses at most the last second of the
clock (it resumes at the saved progress), and the test moves on to its next move's time.
"""

from __future__ import annotations

import asyncio
import queue
import random
import time
from dataclasses import dataclass

import pytest

from solver.core.grid import Grid, validate
from solver.core.tiles import DISTRIBUTIONS, TileCounts
from solver.lexicon.loader import get_lexicon
from solver.play.variants import VARIANTS
from solver.search import solve
from solver.web.bananagrams_table import PROGRESS_SECONDS, BananagramsTable
from solver.web.persistence import RoomStore, keep_table, setup_record
from solver.web.spellevate_table import SpellevateTable
from solver.web.table import RoomError, Seat, TableHandle, TableSetup

ROOM = "w1-crashes"
TILES = DISTRIBUTIONS["en"]
PACES = ("easy:node_budget=40,speed=0.3", "medium:speed=1", "hard:speed=3")
CRASHES = ("kill", "term", "kill_restoring")
COMMIT_SECONDS = 0.02


class Clock:
    """The wall clock of the test's server: it moves when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Page:
    """The person's page: what the table sends it."""

    def __init__(self) -> None:
        self.seen: list[dict] = []

    def send(self, message: dict) -> None:
        self.seen.append(message)


class SlowStore(RoomStore):
    """A store on a slow disk: each commit takes a while, so a kill finds writes queued."""

    def _commit(self, batch) -> None:
        time.sleep(COMMIT_SECONDS)
        super()._commit(batch)


class Handle(TableHandle):
    """A table's handle whose driver the test runs itself (`BananagramsTable.tick`)."""

    def spawn(self, work) -> None:
        work.close()


@dataclass
class Server:
    """One life of the server: its store and the table it rebuilt (or dealt)."""

    store: RoomStore
    table: BananagramsTable
    page: Page


def setup_of(seed: int, bots: tuple[str, ...]) -> TableSetup:
    seats = (Seat("person", "ana", token="t"), *(Seat("bot", f"bot {i}", spec=spec) for i, spec in enumerate(bots)))
    return TableSetup(seats, VARIANTS["classic"], "en", TILES, True, seed, None, 0.0, hand=1)


async def open_server(db, setup: TableSetup, clock: Clock, resume: bool, rejoin: bool = True) -> Server:
    """A server's start on `db`: the hand dealt afresh, or rebuilt from what the store holds
    (and, `rejoin`, the person's page back at once, as the moves are timed from then)."""
    store = SlowStore(db)
    page = Page()
    handle = Handle(ROOM, lambda: [(page, setup.seats[0])], lambda winner: None, lambda: False)
    keep_table(store, ROOM, handle)
    saved = None
    if resume:
        (room,) = store.load()
        saved = room.hand
        assert saved is not None
    table = BananagramsTable(setup, handle, saved, now=clock)
    if saved is None:
        store.start_hand(ROOM, setup_record(setup), table.progress())
        store.save_room(ROOM, {"id": ROOM})
    await table.start()
    if saved is not None and rejoin:
        table.restore(page, setup.seats[0])
    return Server(store, table, page)


def kill(store: RoomStore) -> None:
    """The process dies: what the writer had not committed is lost (and what this turn of
    the event loop gathered for it)."""
    store.gathering = None
    while True:
        try:
            store.queue.get_nowait()
        except queue.Empty:
            break
    store.close()


async def crash(server: Server, how: str, db, setup: TableSetup, clock: Clock) -> Server:
    if how == "term":
        server.store.save_progress(ROOM, server.table.progress())  # Room.suspend
        server.store.close()
    else:
        kill(server.store)
    if how == "kill_restoring":
        restoring = await open_server(db, setup, clock, resume=True)
        kill(restoring.store)
    return await open_server(db, setup, clock, resume=True)


def move_of(rng: random.Random, held: str, rack: str) -> dict:
    """The person's next move, drawn from `rng`: a grid (a row of some tiles, a whole
    solved grid, or none) or a call."""
    roll = rng.random()
    if roll < 0.35 and held:
        letters = "".join(rng.sample(held, rng.randrange(1, min(len(held), 8) + 1)))
        return {"type": "grid", "cells": [[0, col, letter] for col, letter in enumerate(letters)]}
    if roll < 0.55 and held:
        found = solve(TileCounts.from_letters(held), time_limit=30.0, seed=0, max_nodes=20_000)  # the same either run
        if found.solved:
            assert validate(found.grid, get_lexicon("en"), TileCounts.from_letters(held)).ok
            cells = [[row, col, letter] for (row, col), letter in sorted(found.grid.cells().items())]
            return {"type": "grid", "cells": cells}
    if roll < 0.6:
        return {"type": "grid", "cells": []}
    call = rng.choice(["peel", "peel", "peel", "dump", "dump", "bananas", "stuck"])
    if call == "dump":
        return {"type": "call", "call": "dump", "tile": rng.choice(rack or held or "E")}
    return {"type": "call", "call": call}


async def play(db, seed: int, bots: tuple[str, ...], crashes: dict[int, str], moves: int = 40) -> BananagramsTable:
    """A hand of `moves` person's moves (fewer if it ends), crashing before move i as
    `crashes[i]` says; the last table."""
    clock = Clock()
    setup = setup_of(seed, bots)
    server = await open_server(db, setup, clock, resume=False)
    when = 0.0
    for index in range(moves):
        rng = random.Random(f"{seed}/{index}")
        when += rng.uniform(0.2, 3.0)  # the move's time on the hand's clock
        if index in crashes:
            server = await crash(server, crashes[index], db, setup, clock)
        table = server.table
        clock.now = table.started + when  # the hand's clock at the move's time
        await table.tick()
        if table.round.over:
            break
        person = table.players[0]
        tiles, _ = person.snapshot()
        move = move_of(rng, tiles.letters(), person.rack().letters())
        try:
            await table.on_message(server.page, setup.seats[0], {**move, "seq": index})
        except RoomError:
            pass  # refused (the engine's verdict): the page shows why, nothing changes
        await table.tick(poked=True)  # what the move set off (the bots' new decisions)
    server.store.close()
    return server.table


def state_of(table: BananagramsTable) -> dict:
    """Everything the hand is: its events, inputs, tiles, grids, result and the end's lines."""
    hand = table.round
    person = table.players[0]
    result = hand.public_view().ending
    return {
        "events": hand.events,
        "journal": hand.journal,
        "bunch": hand.bunch.letters(),
        "held": [seat.held.letters() for seat in hand.seats],
        "grids": [grid.to_json() if (grid := hand.table_grid(i)) else None for i in range(len(hand.seats))],
        "live": sorted(person.board()[0].items()),
        "result": (result.outcome, result.winners, result.grids) if result else None,
        "keepsakes": table.record.keepsakes,
    }


def check_grids(state: dict) -> None:
    """Every grid the hand holds uses tiles its player held (the independent validator)."""
    for grid, held in zip(state["grids"], state["held"], strict=True):
        if grid is not None:
            report = validate(Grid.from_rows(grid), get_lexicon("en"), TileCounts.from_letters(held))
            assert not len(report.extra), report


def same_hand(tmp_path, seed: int, bots: tuple[str, ...], crashes: dict[int, str], moves: int) -> dict:
    """The hand with `crashes` equals the hand without: returns the uninterrupted state."""
    plain = asyncio.run(play(tmp_path / f"plain-{seed}.sqlite3", seed, bots, {}, moves))
    crashed = asyncio.run(play(tmp_path / f"crashed-{seed}.sqlite3", seed, bots, crashes, moves))
    expected, got = state_of(plain), state_of(crashed)
    assert len(expected["journal"]) > 3 and len(expected["events"]) > 2  # the hand went somewhere
    for key in expected:
        assert got[key] == expected[key], key
    return expected


def test_two_restarts_in_a_row_keep_the_hand(tmp_path):
    """The first regression case: a person and a slow bot, grids laid, a kill, the hand taken
    up, more grids, then a SIGTERM and a second restart: nothing is lost, nothing replays
    otherwise (the person's grid laid before the kill included)."""
    state = same_hand(tmp_path, 12, (PACES[0],), {4: "kill", 8: "term"}, moves=14)
    check_grids(state)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_any_crashes_at_any_moments_keep_the_hand(tmp_path, seed):
    rng = random.Random(seed)
    bots = tuple(rng.sample(PACES, rng.randrange(1, 3)))
    moves = 40
    crashes = {index: rng.choice(CRASHES) for index in sorted(rng.sample(range(1, 25), rng.randrange(2, 6)))}
    state = same_hand(tmp_path, 100 + seed, bots, crashes, moves)
    check_grids(state)


# -- a Spellevate round (solver.web.spellevate_table) ----------------------------------------------

SP_BOTS = ("simple", "planner")


def spellevate_setup(seed: int) -> TableSetup:
    seats = (Seat("person", "ana", token="t"), *(Seat("bot", f"bot {i}", spec=spec) for i, spec in enumerate(SP_BOTS)))
    return TableSetup(seats, VARIANTS["spellevate"], "en", DISTRIBUTIONS["en"], True, seed, None, 0.0, hand=1)


async def open_round(db, setup: TableSetup, resume: bool) -> tuple[RoomStore, SpellevateTable, Page]:
    store = SlowStore(db)
    page = Page()
    handle = Handle(ROOM, lambda: [(page, setup.seats[0])], lambda winner: None, lambda: False)
    keep_table(store, ROOM, handle)
    saved = store.load()[0].hand if resume else None
    table = SpellevateTable(setup, handle, saved)
    if saved is None:
        store.start_hand(ROOM, setup_record(setup), table.progress())
        store.save_room(ROOM, {"id": ROOM})
    await table.start()
    return store, table, page


async def play_round(db, seed: int, crashes: dict[int, str], moves: int = 30) -> SpellevateTable:
    """A round of the person's `moves` turns (fewer if it ends) between bots, crashing before
    turn i as `crashes[i]` says; the last table."""
    setup = spellevate_setup(seed)
    store, table, page = await open_round(db, setup, resume=False)
    for index in range(moves):
        if index in crashes:
            if crashes[index] == "term":
                store.save_progress(ROOM, table.progress())
                store.close()
            else:
                kill(store)
            store, table, page = await open_round(db, setup, resume=True)
        while table.match.bot_to_move:
            await table.move_bot(table.match.state.turn)
        if table.over:
            break
        plays = table.private(0)["plays"]
        rng = random.Random(f"{seed}/{index}")
        move = {"type": "play", "letters": rng.choice(plays)} if plays and rng.random() < 0.8 else {"type": "pass"}
        try:
            await table.on_message(page, setup.seats[0], move)
        except RoomError:
            await table.on_message(page, setup.seats[0], {"type": "pass"})  # leading, a pass is refused too
    store.close()
    return table


@pytest.mark.parametrize(
    "crashes", [{2: "kill", 4: "term"}, pytest.param({1: "term", 3: "kill", 5: "kill"}, marks=pytest.mark.slow)]
)
def test_a_spellevate_round_comes_back_as_it_would_have_gone_on(tmp_path, crashes):
    plain = asyncio.run(play_round(tmp_path / "plain.sqlite3", 5, {}))
    crashed = asyncio.run(play_round(tmp_path / "crashed.sqlite3", 5, crashes))
    assert len(plain.match.journal) > 3
    assert crashed.match.log == plain.match.log  # every move, every hand
    assert crashed.match.journal == plain.match.journal
    assert [entry["kind"] for entry in crashed.log] == [entry["kind"] for entry in plain.log]  # the room's log
    assert crashed.match.state.sizes == plain.match.state.sizes


def test_a_resumed_hand_stands_still_until_a_person_is_back(tmp_path):
    """After a restart the hand's clock, and so the bots' work, waits for a person of the hand
    to rejoin: a slow start or a page's reconnecting delay counts against nobody."""

    async def resumed() -> tuple[float, float, float]:
        clock, db = Clock(), tmp_path / "rooms.sqlite3"
        setup = setup_of(3, (PACES[2],))
        server = await open_server(db, setup, clock, resume=False)
        clock.now += 4.0
        await server.table.tick(poked=True)
        server.store.save_progress(ROOM, server.table.progress())  # a SIGTERM
        server.store.close()
        server = await open_server(db, setup, clock, resume=True, rejoin=False)
        table, saved = server.table, server.table.clock()
        clock.now += 30.0  # nobody back yet
        await table.tick(poked=True)
        waited = table.clock()
        table.restore(server.page, setup.seats[0])  # the person's page rejoins
        clock.now += 2.0
        back = table.clock()
        server.store.close()
        return saved, waited, back

    saved, waited, back = asyncio.run(resumed())
    assert saved == pytest.approx(4.0)
    assert waited == pytest.approx(saved)
    assert back == pytest.approx(saved + 2.0)


def test_the_clock_is_saved_at_every_tick_of_the_driver(tmp_path):
    """While nothing happens at the table the driver still wakes once a PROGRESS_SECONDS and
    saves the clock: a restart then loses at most that much of it (a tick a moment early must
    not skip its save)."""

    async def ticks() -> list[tuple[float, float]]:
        clock = Clock()
        server = await open_server(tmp_path / "rooms.sqlite3", setup_of(3, ()), clock, resume=False)
        saved = []
        for _ in range(4):
            clock.now += PROGRESS_SECONDS * 0.98  # asyncio's timeouts may wake a little early
            await server.table.tick()
            server.store.flush()
            (room,) = server.store.load()
            saved.append((room.hand.progress["clock"], server.table.clock()))
        server.store.close()
        return saved

    for stored, shown in asyncio.run(ticks()):
        assert stored == pytest.approx(shown)
