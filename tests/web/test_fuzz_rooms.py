"""A fuzz of the browser game's room messages with hostile values (issue 15, the room server).

Every message type a page may send (`join`, `add_bot`, `remove_bot`, `start`, `again`,
`leave`, `grid`, `call`, and Spellevate's `play` and `pass`), each of its fields, gets some
sixty hostile values (huge, tiny, NaN and infinities as raw JSON literals, wrong kinds, long
strings, pathological whitespace, paths, odd Unicode and lone surrogates, forged tokens and
seat numbers, hostile grids), from a host, a seated guest and a page that has not joined,
in a room's lobby, mid-hand and after a hand. Each must be answered without the `internal` code, within a time bound,
with strict JSON only (no NaN or Infinity) to every page, leave the room consistent (seats,
names, host, and every tile of the set: hands + grids + bunch = the distribution), and
leave the connection usable (a following message is answered).

The matrix runs against `Room.handle` through `handle_frame` (the socket's own parser) with
fake pages, which encode what they are sent as the real socket does; a selection of the
frames, the HTTP routes and the regressions run through the real server.
Deterministic (no randomness in the values; rooms deal from a fixed seed).
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import time
import urllib.parse
from unittest import mock

import pytest
from helpers import CHEAP_BOT, Page, http, new_room, strict_json, sweep

from solver.core.grid import Grid
from solver.core.limits import MAX_ROOM_NAME_CHARS
from solver.play.remote import RemoteSeat
from solver.play.variants import BANANAGRAMS
from solver.web import BackgroundServer, WebConfig
from solver.web import rooms as rooms_module
from solver.web.app import STATIC, encode_for_page, handle_frame
from solver.web.bananagrams_table import BananagramsTable, cells_tiles
from solver.web.lobby import Rooms
from solver.web.rooms import Room

TIME_BOUND = 5.0  # seconds per message (none makes a bot think on the sender's behalf)
MAX_BYTES = 16 * 1024


def config(**settings) -> WebConfig:
    defaults = {
        "seed": 5,
        "bots": {"easy": CHEAP_BOT},
        "messages_per_second": 10_000.0,
        "message_burst": 10_000,
        "spellevate_delay": 0.0,
    }
    settings = {**defaults, **settings}
    return WebConfig(**settings)


# Raw JSON tokens a hostile page writes, which json.dumps cannot (Python's json.loads accepts
# the first three; the last two are deeply nested values, under and over the recursion limit).
NAN, INF, NEG_INF = "NaN", "Infinity", "-Infinity"
RAW = {
    NAN: NAN,
    INF: INF,
    NEG_INF: NEG_INF,
    "DEEP": "[" * 3000 + "]" * 3000,
    "DEEP_OBJ": '{"a":' * 2000 + "1" + "}" * 2000,
}

HOSTILE = [
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    99,
    2**31,
    2**53 + 1,
    2**63,
    10**300,
    -(10**300),
    1.5,
    -0.0,
    5e-324,
    1e308,
    *RAW,
    "",
    " " * 5000,
    "\t\n\r \u00a0\u3000" * 800,
    "x" * 15_000,
    "9" * 4000,
    "A" * (MAX_ROOM_NAME_CHARS - 1),
    "A" * MAX_ROOM_NAME_CHARS,
    "A" * (MAX_ROOM_NAME_CHARS + 5),
    "Eve",
    "Hostess",
    "/etc/passwd",
    "../../../../etc/passwd",
    "C:\\Windows\\win.ini",
    "en\u0000",
    "\u202e\u200bCAT\ufeff",
    "\ud800",  # a lone surrogate (written as a JSON escape)
    "\udfff\ud800",
    "\U0001f34c" * 30,
    "e\u0301" * 20,  # combining marks: NFC changes the length
    "ſ",
    "E",
    "é",
    "peel",
    "dump",
    "stuck",
    "bananas",
    "easy",
    "x" * 22,  # the shape of a reconnect token
    "AAAAAAAAAAAAAAAAAAAAAA",
    [],
    [1, [2, [3]]],
    {},
    {"type": "join"},
    [[0, 0, "E"]],
    [[0, 0, "E"]] * 300,
    [[NAN, 0, "E"]],
    [[INF, NEG_INF, "E"]],
    [[1e308, 0, "E"]],
    [[2**63, 0, "E"]],
    [[True, False, "E"]],
    [[0.0, 1.0, "E"]],
    [[0, 0, "e"]],
    [[0, 0, "EE"]],
    [[0, 0, None]],
    [[0, 0, "E"], [0, 0, "E"]],
    [[200, 200, "E"], [-200, -200, "E"]],
    [[0, 0]],
    [[0, 0, "E", 0]],
    [{"row": 0, "col": 0, "letter": "E"}],
]

# The fields each message type reads; `extra` is a field nobody reads (for the types without
# fields), `type` the message type itself.
FIELDS = {
    "join": ["name", "token"],
    "add_bot": ["preset"],
    "remove_bot": ["seat"],
    "start": ["extra"],
    "again": ["extra"],
    "leave": ["extra"],
    "grid": ["cells", "seq"],
    "call": ["call", "tile"],
    "play": ["letters"],
    "pass": ["extra"],
    "hint": ["extra"],
    "hand_log": ["hand"],
    "review": ["hand"],
    "sit": ["extra"],
    "sit_answer": ["name", "accept"],
    "probe": ["type"],
}
BASE = {
    "join": {"name": "Eve"},
    "add_bot": {"preset": "easy"},
    "remove_bot": {"seat": 2},
    "start": {},
    "again": {},
    "leave": {},
    "grid": {"seq": 1, "cells": [[0, 0, "E"]]},
    "call": {"call": "dump", "tile": "E"},
    "play": {"letters": "E"},
    "pass": {},
    "hint": {},
    "hand_log": {"hand": 1},
    "review": {"hand": 1},
    "sit": {},
    "sit_answer": {"name": "Eve", "accept": True},
    "probe": {},
}
PROBE = json.dumps({"type": "probe"})  # answered in every state: unknown_type, or out_of_order before a join


def test_every_message_type_the_page_sends_is_covered():
    script = "".join(path.read_text(encoding="utf-8") for path in STATIC.glob("*.js"))
    sent = set(re.findall(r'type: "([a-z_]+)"', script))
    assert sent and sent <= set(FIELDS)


def hostile_frame(kind: str, field: str, value) -> str:
    message = {"type": kind, **BASE[kind], field: value}
    frame = json.dumps(message)  # ASCII: lone surrogates travel as escapes, as in a text frame
    for token, raw in RAW.items():  # raw non-finite numbers and deep nesting, as a hostile page writes them
        frame = frame.replace(json.dumps(token), raw)
    return frame


class FakePage:
    """A connection as a room sees it. What the room sends it is encoded exactly as the real
    socket's writer does, then parsed back strictly."""

    def __init__(self, name: str):
        self.name = name
        self.received: list[dict] = []
        self.problems: list[str] = []
        self.closing = False

    def send(self, message: dict) -> None:
        text = encode_for_page(message)
        try:
            parsed = strict_json(text)
        except ValueError as error:
            self.problems.append(f"{self.name} was sent non-strict JSON ({error}): {text[:160]}")
            return
        if parsed.get("code") == "internal":
            self.problems.append(f"{self.name} was sent internal: {parsed['message'][:200]}")
        self.received.append(parsed)

    def close(self) -> None:
        self.closing = True


ROLES = ("host", "guest", "stranger")
GUEST = "A" * MAX_ROOM_NAME_CHARS  # a name as long as names go: a newcomer of the same name needs a number


async def deliver(room: Room, page: FakePage, frame: str) -> float:
    started = time.perf_counter()
    await asyncio.wait_for(handle_frame(room, page, frame, MAX_BYTES), TIME_BOUND * 4)
    return time.perf_counter() - started


async def room_in(state: str, rooms: Rooms) -> tuple[Room, dict[str, FakePage]]:
    """A room in `state`: lobby (host, guest and a bot), playing (host and guest mid-hand),
    bot (the same with a bot playing, in worker threads, while the pages send), smoothie
    (Banana Smoothie mid-hand: no PEEL or DUMP, spellcheck off), ended (a hand over: both
    were stuck), spellevate (a Spellevate round with a `simple` bot, bots moving at once),
    spellevate_ended (that round played to its end)."""
    spellevate = state.startswith("spellevate")
    variant = "smoothie" if state == "smoothie" else "spellevate" if spellevate else "classic"
    room = rooms.create("en", state != "smoothie", variant)
    pages = {role: FakePage(role) for role in ROLES}
    for page in pages.values():
        room.connections[page] = None
    await deliver(room, pages["host"], json.dumps({"type": "join", "name": "Hostess"}))
    await deliver(room, pages["guest"], json.dumps({"type": "join", "name": GUEST}))
    if state == "lobby":
        await deliver(room, pages["host"], json.dumps({"type": "add_bot", "preset": "easy"}))
        assert [seat.kind for seat in room.seats] == ["person", "person", "bot"]
        return room, pages
    if state == "bot" or spellevate:
        preset = "simple" if spellevate else "easy"
        await deliver(room, pages["host"], json.dumps({"type": "add_bot", "preset": preset}))
    await deliver(room, pages["host"], json.dumps({"type": "start"}))
    assert room.phase == "playing", pages["host"].received[-3:]
    if state == "spellevate_ended":
        await play_spellevate_out(room, [pages["host"], pages["guest"]])
    if state == "ended":
        for role in ("host", "guest"):
            await deliver(room, pages[role], json.dumps({"type": "call", "call": "stuck"}))
        assert room.phase == "ended", pages["host"].received[-3:]
    return room, pages


def room_problems(room: Room) -> list[str]:
    """What must hold in a room whatever it was sent."""
    problems = []
    names = [seat.name for seat in room.seats]
    if len(room.seats) > room.config.max_seats:
        problems.append(f"{len(room.seats)} seats")
    if len(set(names)) != len(names):
        problems.append(f"names not unique: {names}")
    for name in names:
        if not (isinstance(name, str) and 0 < len(name) <= MAX_ROOM_NAME_CHARS and name == name.strip()):
            problems.append(f"bad name {name!r}")
    if room.host is not None and (room.host not in room.seats or room.host.kind != "person"):
        problems.append("the host has no seat")
    game = room.table
    if game is not None and not isinstance(game, BananagramsTable):
        spellevate = game.match._round
        held = sum(spellevate.hands, spellevate.state.played)
        if held != spellevate.tiles or [len(hand) for hand in spellevate.hands] != spellevate.state.sizes:
            problems.append("Spellevate: hands + tiles played are not the tiles dealt")
        if (room.phase == "playing") != (not spellevate.state.over):
            problems.append(f"phase {room.phase} but the round is over: {spellevate.state.over}")
    elif isinstance(game, BananagramsTable):
        hand = game.round
        try:
            hand.check_invariant()  # bunch + hands (grids are in hands) + unused = the set
        except AssertionError as error:
            problems.append(str(error))
        for player in game.players:
            if isinstance(player, RemoteSeat):
                tiles, cells = player.snapshot()
                if not tiles.contains(cells_tiles(cells)):
                    problems.append(f"{player.name}'s grid holds tiles they do not have")
                elif player.rack() != tiles - cells_tiles(cells) or player.board()[1] != (
                    Grid.from_cells(cells) if cells else None
                ):
                    problems.append(f"{player.name}'s kept rack or grid is not their tiles' and cells'")
        if (room.phase == "playing") != (not hand.over):
            problems.append(f"phase {room.phase} but the hand's ending is {hand.public_view().ending}")
    return problems


async def fuzz_state(state: str, stride: int = 1) -> tuple[list[str], float, int]:
    rooms = Rooms(config())
    rooms.config.max_rooms = 10_000
    problems: list[str] = []
    slowest, count = 0.0, 0
    combination = -1  # every `stride`-th (role, message, field) is fuzzed
    for role in ROLES:
        for kind, fields in FIELDS.items():
            for field in fields:
                combination += 1
                if combination % stride:
                    continue
                room, pages = await room_in(state, rooms)
                page = pages[role]
                for value in HOSTILE:
                    count += 1
                    frame = hostile_frame(kind, field, value)
                    where = f"{state}/{role}: {frame[:160]}"
                    elapsed = await deliver(room, page, frame)
                    before = len(page.received)
                    probe_time = await deliver(room, page, PROBE)
                    slowest = max(slowest, elapsed, probe_time)
                    if max(elapsed, probe_time) > TIME_BOUND:
                        problems.append(f"{elapsed:.1f} s for {where}")
                    answer = page.received[before:]
                    if not any(m["type"] == "error" and m["code"] in ("unknown_type", "out_of_order") for m in answer):
                        problems.append(f"probe unanswered after {where}: {answer[:2]}")
                    problems += [f"{problem} after {where}" for problem in room_problems(room)]
                    if role == "stranger" and room.connections.get(page) is not None:
                        await deliver(room, page, json.dumps({"type": "leave"}))  # the next join is a newcomer's
                    for other in pages.values():
                        problems += [f"{problem} after {where}" for problem in other.problems]
                        other.problems.clear()
                room.close("done")
                rooms.rooms.pop(room.id, None)
    return problems, slowest, count


async def play_spellevate_out(room: Room, pages: list[FakePage], moves: int = 2000) -> None:
    """Each person makes the first play listed to them (or passes) until the round ends."""
    for _ in range(moves):
        if room.phase != "playing":
            return
        for page in pages:
            hand = next((m for m in reversed(page.received) if m["type"] == "hand"), None)
            if hand is not None and hand["your_turn"]:
                move = {"type": "play", "letters": hand["plays"][0]} if hand["plays"] else {"type": "pass"}
                await deliver(room, page, json.dumps(move))
        await bots_moved(room)  # the bot's move, if it is its turn, lands before the persons look again
    raise AssertionError("the Spellevate round did not end")


@pytest.fixture(scope="module")
def warm():
    """The word list and the bot's kernels, loaded once before anything is timed."""
    from solver.lexicon.loader import get_lexicon
    from solver.play.bots import make_bot
    from solver.play.spellevate_bots import word_index

    get_lexicon("en")
    get_lexicon("en", 50)
    make_bot(CHEAP_BOT)
    word_index(get_lexicon("en"))


@pytest.mark.parametrize("state", ["lobby", "playing", "bot", "smoothie", "ended", "spellevate", "spellevate_ended"])
@sweep("stride", 5, 1)  # every 5th (role, message, field), or all of them; each with every hostile value
def test_hostile_values_in_every_field_of_every_room_message(warm, state, stride, capsys):
    started = time.perf_counter()
    problems, slowest, count = asyncio.run(fuzz_state(state, stride))
    with capsys.disabled():
        print(
            f"\n{state}: {count} hostile messages in {time.perf_counter() - started:.1f} s, "
            f"slowest {slowest * 1000:.0f} ms"
        )
    assert not problems, "\n".join(problems[:20])


class TableClock:
    """The clock a Bananagrams table's hand runs on, set by the fuzz (the table's `now`): the
    hand moves only when the fuzz moves this clock, so a seed replays the same game however
    the threads are scheduled."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


async def table_settled(room: Room, timeout: float = 30.0) -> list[str]:
    """Wait until a Bananagrams table has played every event due on its clock (its driver
    poked and done): the problem, if it never gets there."""
    table = room.table
    if not isinstance(table, BananagramsTable):
        return []
    table.poke.set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await asyncio.sleep(0)
        if room.table is not table or table.round.over:
            return []
        if not table.lock.locked() and not table.due_now() and not table.poke.is_set():
            return []
        await asyncio.sleep(0.002)
    return [f"the table's driver did not play the events due within {timeout} s"]


async def random_step(
    room: Room, page, pages: list, message: dict | None, pause: float, label: str, clock: TableClock
) -> list[str]:
    """One step of a random game: the message from `page` (None: `pause` seconds pass on the
    table's clock while the bots' moves land), then every page and the room checked; the
    problems found, labelled."""
    if message is None:
        clock.now += pause
        return [f"{label}: {problem}" for problem in await table_settled(room)]
    await deliver(room, page, json.dumps(message))
    await asyncio.sleep(0)
    found = [problem for other in pages for problem in other.problems] + room_problems(room)
    found += await table_settled(room)
    return [f"{label} {message}: {problem}" for problem in found]


async def random_play(seed: int, variant: str, steps: int = 300, seen: list | None = None) -> tuple[list[str], int]:
    """Two persons (and a bot on even seeds) playing a seeded random mix of plausible moves:
    grids from their own tiles, dumps, peels, BANANAS, stuck, leaving and coming back by
    token, start and again, bots added and removed; the room checked after every message.
    The hand runs on a `TableClock` the seed moves; `seen`, if given, gets the pages."""
    clock = TableClock()
    table_on_clock = functools.partial(BananagramsTable, now=clock.monotonic)
    with mock.patch.dict(rooms_module.TABLES, {BANANAGRAMS: table_on_clock}):
        return await random_room_play(seed, variant, steps, clock, seen if seen is not None else [])


async def random_room_play(
    seed: int, variant: str, steps: int, clock: TableClock, pages: list
) -> tuple[list[str], int]:
    rng = random.Random(seed)
    rooms = Rooms(config(distribution="A3,D1,E4,I2,L1,N2,O2,R2,S2,T2,U2,M2" if seed % 3 == 0 else None))
    room = rooms.create("en", seed % 4 != 1, variant)
    pages.extend(FakePage(f"page {index}") for index in range(3))
    for page in pages:
        room.connections[page] = None
    await deliver(room, pages[0], json.dumps({"type": "join", "name": "Hostess"}))
    await deliver(room, pages[1], json.dumps({"type": "join", "name": "Guest"}))
    if seed % 2 == 0:
        await deliver(room, pages[0], json.dumps({"type": "add_bot", "preset": "easy"}))
    await deliver(room, pages[0], json.dumps({"type": "start"}))
    problems: list[str] = []
    for step in range(steps):
        page = rng.choice(pages)
        held = next((m["held"] for m in reversed(page.received) if m["type"] == "tiles"), "")
        token = next((m["token"] for m in reversed(page.received) if m["type"] == "welcome"), None)
        letters = rng.sample(held, rng.randint(0, len(held))) if held else []
        spots = rng.sample([(row, col) for row in range(-9, 10) for col in range(-9, 10)], len(letters))
        in_a_row = [[0, col, letter] for col, letter in enumerate(letters)]
        message = rng.choice(
            [
                {"type": "grid", "seq": step, "cells": in_a_row},
                {"type": "grid", "seq": step, "cells": [[r, c, letter] for (r, c), letter in zip(spots, letters)]},
                {"type": "call", "call": "dump", "tile": rng.choice(held or "E")},
                {"type": "call", "call": rng.choice(["peel", "bananas", "stuck"])},
                {"type": "call", "call": "stuck"},  # with leaving, what ends a hand the persons cannot win
                {"type": "leave"} if rng.random() < 0.3 else {"type": "probe"},
                {"type": "join", "name": "Newcomer", "token": token},
                {"type": rng.choice(["again", "start"])},
                {"type": "add_bot", "preset": "easy"},
                {"type": "remove_bot", "seat": rng.randint(0, 3)},
                None,
            ]
        )
        problems += await random_step(
            room, page, pages, message, rng.random() * 0.05, f"seed {seed} {variant} step {step}", clock
        )
        if problems:
            break
    room.close("done")
    ended = max(sum(message["type"] == "end" for message in page.received) for page in pages)
    return problems, ended


async def bots_moved(room: Room, timeout: float = 5.0) -> None:
    """Wait until it is no bot's turn in a Spellevate room (or the round is over): a bot's move
    runs in a thread, and on a loaded machine a random pause of milliseconds would let the
    fuzz's persons act many times per bot move, so that no round ever ends."""
    table = room.table
    deadline = time.monotonic() + timeout
    while table is not None and time.monotonic() < deadline:
        if room.table is not table or table.over or not table.match.bot_to_move:
            return
        await asyncio.sleep(0.005)


async def random_spellevate(seed: int, steps: int = 400) -> tuple[list[str], int]:
    """Spellevate: two persons and a bot, a seeded random mix of listed plays, letters from the
    hand, garbage, passes, leaving and coming back by token, again, start, bots added and
    removed; the room checked after every message."""
    rng = random.Random(seed)
    room = Rooms(config()).create("en", True, "spellevate")
    pages = [FakePage(f"page {index}") for index in range(3)]
    for page in pages:
        room.connections[page] = None
    await deliver(room, pages[0], json.dumps({"type": "join", "name": "Hostess"}))
    await deliver(room, pages[1], json.dumps({"type": "join", "name": "Guest"}))
    await deliver(room, pages[0], json.dumps({"type": "add_bot", "preset": rng.choice(["simple", "planner"])}))
    await deliver(room, pages[0], json.dumps({"type": "start"}))
    problems: list[str] = []
    for step in range(steps):
        page = rng.choice(pages)
        hand = next((m for m in reversed(page.received) if m["type"] == "hand"), {"letters": "", "plays": []})
        token = next((m["token"] for m in reversed(page.received) if m["type"] == "welcome"), None)
        held = hand["letters"] or "Z"
        message = rng.choice(
            [
                {"type": "play", "letters": rng.choice(hand["plays"] or ["E"])},
                {"type": "play", "letters": rng.choice(hand["plays"] or ["E"])},
                {"type": "play", "letters": "".join(rng.sample(held, rng.randint(1, min(4, len(held)))))},
                {"type": "play", "letters": rng.choice(["", "QQ", "a", "ZZZZZZZZ", "ÉTÉ", "c a t"])},
                {"type": "pass"},
                {"type": "pass"},
                {"type": "leave"} if rng.random() < 0.2 else {"type": "probe"},
                {"type": "join", "name": "Newcomer", "token": token},
                {"type": rng.choice(["again", "start"])},
                {"type": "add_bot", "preset": rng.choice(["simple", "planner", "easy"])},
                {"type": "remove_bot", "seat": rng.randint(0, 3)},
                None,
            ]
        )
        if message is None:
            await bots_moved(room)
        problems += await random_step(
            room, page, pages, message, rng.random() * 0.02, f"seed {seed} spellevate step {step}", TableClock()
        )
        if problems:
            break
    room.close("done")
    ended = max(sum(message["type"] == "spellevate_end" for message in page.received) for page in pages)
    return problems, ended


@sweep("seeds", 1, 4)
def test_random_spellevate_play_keeps_every_tile_and_never_errs_internally(warm, seeds):
    async def scenario():
        problems, ends = [], 0
        for seed in range(seeds):
            found, ended = await random_spellevate(seed)
            problems += found
            ends += ended
        return problems, ends

    problems, ends = asyncio.run(scenario())
    assert not problems, "\n".join(problems[:10])
    assert ends >= 1  # rounds did end (and the pages were told)


@pytest.mark.parametrize("variant", ["classic", "smoothie"])
@sweep("seeds", 2, 6)
def test_random_play_keeps_every_tile_and_never_errs_internally(warm, variant, seeds):
    async def scenario():
        problems, ends = [], 0
        for seed in range(seeds):
            found, ended = await random_play(seed, variant)
            problems += found
            ends += ended
        return problems, ends

    problems, ends = asyncio.run(scenario())
    assert not problems, "\n".join(problems[:10])
    assert ends >= seeds // 3  # hands did end (and a page was told each time)


def test_a_random_game_replays_from_its_seed(warm):
    """The hand runs on the fuzz's clock, so a seed gives the same game again: the same log."""

    async def logs(seed: int) -> list:
        pages: list[FakePage] = []
        await random_play(seed, "classic", steps=150, seen=pages)
        return [[entry for m in page.received if m["type"] == "log" for entry in m["entries"]] for page in pages]

    first = asyncio.run(logs(4))
    assert any(entry["kind"] in ("peel", "dump", "bananas", "stuck") for entries in first for entry in entries)
    assert asyncio.run(logs(4)) == first


# -- regressions (each found by the fuzz or by reading what it reached) -------------------------------


async def two_persons(rooms: Rooms, *, start: bool = True) -> tuple[Room, FakePage, FakePage]:
    room = rooms.create("en", True, "classic")
    host, guest = FakePage("host"), FakePage("guest")
    for role, page in (("Hostess", host), ("Guest", guest)):
        room.connections[page] = None
        await deliver(room, page, json.dumps({"type": "join", "name": role}))
    if start:
        await deliver(room, host, json.dumps({"type": "start"}))
    return room, host, guest


def last_error(page: FakePage) -> dict:
    return next(m for m in reversed(page.received) if m["type"] == "error")


def test_a_seat_left_in_one_hand_is_not_dealt_into_the_next():
    """A person who left mid-hand keeps the seat until the hand ends; a `start` straight from
    the ended hand dealt them in, and the hand could then never end (they never act)."""

    async def scenario():
        room, host, guest = await two_persons(Rooms(config()))
        await deliver(room, guest, json.dumps({"type": "leave"}))
        await deliver(room, host, json.dumps({"type": "call", "call": "stuck"}))
        assert room.phase == "ended"
        await deliver(room, host, json.dumps({"type": "start"}))
        assert room.phase == "playing" and [seat.name for seat in room.table.seats] == ["Hostess"]
        await deliver(room, host, json.dumps({"type": "call", "call": "stuck"}))
        assert room.phase == "ended", host.received[-3:]
        room.close("done")

    asyncio.run(scenario())


def test_a_hand_ended_by_leaving_stops_its_driver():
    """A hand whose last player left ended without waking the task that drives it: one task
    and one table held for ever per such hand."""

    async def scenario():
        room, host, guest = await two_persons(Rooms(config()))
        (driver,) = room.table_handle.tasks
        for page in (guest, host):
            await deliver(room, page, json.dumps({"type": "leave"}))
        assert room.phase == "ended"
        await asyncio.wait_for(driver, 5)
        room.close("done")

    asyncio.run(scenario())


def test_grid_seq_is_bounded_and_values_quoted_back_are_short():
    async def scenario():
        room, host, _ = await two_persons(Rooms(config()))
        for seq in (-1, 2**53, 10**300, 1.0):
            await deliver(room, host, json.dumps({"type": "grid", "seq": seq, "cells": []}))
            assert last_error(host)["code"] == "bad_value", seq
        await deliver(room, host, json.dumps({"type": "grid", "seq": 2**53 - 1, "cells": []}))
        assert next(m for m in reversed(host.received) if m["type"] == "check")["seq"] == 2**53 - 1
        await deliver(room, host, json.dumps({"type": "x" * 10_000}))
        assert len(last_error(host)["message"]) < 100
        room.close("done")

    asyncio.run(scenario())


def test_forged_tokens_take_no_seat():
    async def scenario():
        room, host, _ = await two_persons(Rooms(config()), start=False)
        token = next(m for m in host.received if m["type"] == "welcome")["token"]
        for forged in (token[:-1], token + "x", token.upper(), [token], {"token": token}, "\u00e9" + token[1:], ""):
            thief = FakePage("thief")
            room.connections[thief] = None
            await deliver(room, thief, json.dumps({"type": "join", "name": "Thief", "token": forged}))
            welcome = next(m for m in thief.received if m["type"] == "welcome")
            assert welcome["name"].startswith("Thief") and welcome["token"] != token, forged
            await deliver(room, thief, json.dumps({"type": "leave"}))
        room.close("done")

    asyncio.run(scenario())


def test_one_room_takes_a_bounded_number_of_sockets():
    from solver.web.app import MAX_ROOM_CONNECTIONS

    with BackgroundServer(config()) as server:
        room = new_room(server)
        url = server.url.replace("http://", "ws://") + f"/r/{room}/ws"

        async def scenario():
            from websockets.asyncio.client import connect

            sockets = [await connect(url) for _ in range(MAX_ROOM_CONNECTIONS)]
            async with connect(url) as extra:
                reply = strict(await asyncio.wait_for(extra.recv(), 10))
                assert reply["code"] == "room_busy", reply
            await sockets[0].close()
            # A freed slot is usable again, once the server has seen it freed: until then a new
            # socket is told `room_busy` at once, before anything is asked.
            while True:
                late = await connect(url)
                await late.send(json.dumps({"type": "join", "name": "Late"}))
                reply = strict(await asyncio.wait_for(late.recv(), 10))
                if reply["type"] != "error":
                    break
                assert reply["code"] == "room_busy", reply
                await late.close()
                await asyncio.sleep(0.05)  # (a pause between tries, not an order of events)
            assert reply["type"] == "welcome" and reply["name"] == "Late", reply
            await late.close()
            for ws in sockets[1:]:
                await ws.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))


# -- through the real server --------------------------------------------------------------------------


def strict(text: str) -> dict:
    return strict_json(text)


class StrictPage(Page):
    """A test_web Page that parses strictly and fails on the `internal` code."""

    async def until(self, test, timeout: float = 20.0) -> dict:
        check = (lambda m: m["type"] == test) if isinstance(test, str) else test
        deadline = time.monotonic() + timeout
        while True:
            message = strict(await asyncio.wait_for(self.ws.recv(), max(0.01, deadline - time.monotonic())))
            assert message.get("code") != "internal", message
            self.seen.append(message)
            if check(message):
                return message

    async def answered(self, frame) -> float:
        """Send a frame, then a probe; the time until the probe's answer."""
        started = time.monotonic()
        await self.send(frame)
        await self.send(PROBE)
        await self.until(lambda m: m["type"] == "error" and m["code"] in ("unknown_type", "out_of_order"), TIME_BOUND)
        return time.monotonic() - started


RAW_FRAMES = [
    "",
    " ",
    "not json",
    "[]",
    '"join"',
    "null",
    "NaN",
    '{"type": NaN}',
    '{"type": "join", "name": Infinity}',
    "{" * 5000,
    "[" * 8000 + "]" * 8000,
    '{"type": "grid", "cells": [[1e999, 0, "E"]]}',
    '{"type": "grid", "seq": -Infinity, "cells": []}',
    '{"type": "join", "name": "\\ud800\\udc00\\ud800"}',
    '{"type": "call", "call": "dump", "tile": "\\u0000"}',
    '{"type": "leave", "type": "probe"}',  # a repeated key: the last one counts
    " \t\r\n" * 3000 + "{}",
    "x" * (MAX_BYTES + 1),
    b"\xff\xfe",
    b'{"type": "join", "name": "Binary"}',
]


@pytest.mark.slow  # a whole hand through the socket; the room's own checks of these frames run in memory above
def test_hostile_frames_through_the_real_socket_keep_every_connection_usable(warm):
    with BackgroundServer(config()) as server:
        room = new_room(server)

        async def scenario():
            async with (
                StrictPage(server, room) as host,
                StrictPage(server, room) as guest,
                StrictPage(server, room) as stranger,
            ):
                await host.join("Hostess")
                await guest.join("Guest")
                for phase in ("lobby", "playing"):
                    for page in (host, guest, stranger):
                        for frame in RAW_FRAMES:
                            assert await page.answered(frame) < TIME_BOUND, frame[:80]
                        for kind in ("grid", "call"):
                            for field in FIELDS[kind]:
                                for value in HOSTILE[::6]:
                                    assert await page.answered(hostile_frame(kind, field, value)) < TIME_BOUND
                    if phase == "lobby":
                        await host.send({"type": "start"})
                        await host.until("tiles")
                # the hand goes on to its end (a hostile value may have been a valid call: stuck;
                # the stranger took a seat in the lobby, with a name of a surrogate pair)
                for page in (stranger, guest, host):
                    await page.send({"type": "call", "call": "stuck"})
                for page in (guest, host):
                    if not any(message["type"] == "end" for message in page.seen):
                        await page.until("end")

        asyncio.run(asyncio.wait_for(scenario(), 120))


def test_long_names_twice_get_distinct_seats_at_once():
    """A name of MAX_ROOM_NAME_CHARS - 1 or MAX_ROOM_NAME_CHARS characters, joined three times, once froze the
    server (the numbered name, cut to MAX_ROOM_NAME_CHARS, was the taken name again, for ever)."""
    with BackgroundServer(config()) as server:
        for name in (
            "A" * MAX_ROOM_NAME_CHARS,
            "B" * (MAX_ROOM_NAME_CHARS - 1),
            "C" * (MAX_ROOM_NAME_CHARS - 2) + " x",
        ):
            room = new_room(server)

            async def scenario(name=name, room=room):
                names = []
                for _ in range(3):
                    page = StrictPage(server, room)
                    await page.__aenter__()
                    names.append((await page.join(name))["name"])
                return names

            names = asyncio.run(asyncio.wait_for(scenario(), 20))
            assert len(set(names)) == 3 and all(len(n) <= MAX_ROOM_NAME_CHARS and n == n.strip() for n in names), names


# -- HTTP routes ----------------------------------------------------------------------------------------

BODIES = [
    b"",
    b"null",
    b"[]",
    b'"en"',
    b"NaN",
    b"1e999",
    b"9" * 5000,
    b'{"language": NaN}',
    b'{"language": ["en"]}',
    b'{"language": {"en": 1}}',
    b'{"language": "en\\u0000"}',
    b'{"language": "\\ud800"}',
    b'{"variant": Infinity}',
    b'{"spellcheck": "yes"}',
    b'{"spellcheck": 1}',
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"\xff\xfe\x00",
    b'{"language": "en", "pad": "' + b"x" * 20_000 + b'"}',
    b'{"language": "en"}' + b" " * 10_000,
]

ROOM_IDS = [
    "x",
    "x" * 5000,
    "%00",
    "%ff%fe",
    "%2e%2e",
    "..%2f..%2fetc%2fpasswd",
    urllib.parse.quote("\U0001f34c\u202e"),
    "%ED%A0%80",  # a surrogate's UTF-8
    "a%20b",
    "<script>",
]


def test_http_routes_answer_hostile_bodies_and_room_ids_without_a_server_error():
    with BackgroundServer(config()) as server:
        for body in BODIES:
            status, kind, text = http(server.url + "/api/rooms", body)
            assert status in (201, 400, 413), (body[:60], status, text[:200])
            reply = strict(text)
            assert status == 201 or reply["code"] in ("bad_json", "bad_value", "too_large"), reply
        for room in ROOM_IDS:
            for suffix in ("", "/qr.svg"):
                status, _, text = http(f"{server.url}/r/{room}{suffix}")
                assert status == 404, (room[:60], suffix, status)
                assert "Traceback" not in text
