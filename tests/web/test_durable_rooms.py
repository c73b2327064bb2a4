"""Issue 33: a restart loses no game. `bananas serve --db PATH` saves each room and the
inputs of the hand at its table as they happen (solver.web.persistence); a server killed at any
moment and started again on the same file resumes the hand where it was.

The end-to-end test runs the real command and kills it with SIGKILL mid-hand (a person and a
bot, after a PEEL and a DUMP), restarts it on the same database, rejoins with the token and
finds every tile, grid, log entry and the clock as they were; then stops it with SIGTERM
(the page is told `restarting`), restarts it again, and plays the hand to its end.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sqlite3
import subprocess
import time

import pytest
from helpers import SLOW_BOT, Page, bananas_script, http, new_room, run_bounded, start_server
from websockets.exceptions import ConnectionClosed

from solver.core.grid import validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.search import solve
from solver.web.persistence import SCHEMA_VERSION, DatabaseLock, RoomStore

# A small set: two hands of 21 and 11 tiles in the bunch, so a hand ends after a few PEELs.
TILES = "A8,E10,I6,O6,U2,R4,S4,T4,N4,L3,D2"


class Served:
    """`bananas serve` as a user runs it, on a free port, with its rooms in `db`."""

    def __init__(self, db):
        self.process = subprocess.Popen(
            [
                bananas_script(),
                "serve",
                "--port",
                "0",
                "--db",
                str(db),
                "--seed",
                "3",
                "--distribution",
                TILES,
                "--bot",
                f"slow={SLOW_BOT}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        line = self.process.stdout.readline()
        assert "play at" in line, (line, self.process.stderr.read() if self.process.poll() is not None else "")
        self.url = line.split("play at ", 1)[1].split()[0].rstrip("/")
        deadline = time.monotonic() + 60
        while http(self.url + "/")[0] != 200:  # up once its rooms are restored
            assert time.monotonic() < deadline and self.process.poll() is None, "the server did not come up"
            time.sleep(0.2)

    def stop(self, sig: int) -> str:
        self.process.send_signal(sig)
        _, errors = self.process.communicate(timeout=30)
        return errors


def cells_of(tiles: str) -> list[list]:
    """A valid grid of every tile, as a page sends it."""
    result = solve(TileCounts.from_letters(tiles), time_limit=10)
    assert result.solved, (tiles, result.status)
    assert validate(result.grid, get_lexicon("en"), TileCounts.from_letters(tiles)).ok
    return [[row, col, letter] for (row, col), letter in sorted(result.grid.cells().items())]


async def build_and_call(page: Page, held: str, call: str, **extra) -> dict:
    """Lay every tile held, then make `call`; the next `tiles` message (the new hand)."""
    await page.send({"type": "grid", "cells": cells_of(held)})
    await page.send({"type": "call", "call": call, **extra})
    return await page.until(lambda m: m["type"] == "tiles" and m["held"] != held or m["type"] == "error")


async def seated_with_a_bot(page: Page, preset: str) -> tuple[str, dict]:
    """Join as ana, seat a bot of `preset`, start: ana's token and her deal."""
    token = (await page.join("ana"))["token"]
    await page.send({"type": "add_bot", "preset": preset})
    await page.until(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
    await page.send({"type": "start"})
    return token, await page.until(lambda m: m["type"] == "tiles" and m["held"])


def state_of(page: Page) -> tuple:
    """What the page knows of the hand: its tiles, the bunch, each player's count, the log."""
    tiles = next(m for m in reversed(page.seen) if m["type"] == "tiles")
    table = next(m for m in reversed(page.seen) if m["type"] == "table")
    players = [(p["name"], p["tiles_left"], p["active"]) for p in table["players"]]
    log = [entry for m in page.seen if m["type"] == "log" for entry in m["entries"]]
    return sorted(tiles["held"]), table["bunch"], players, [(e["kind"], e.get("who")) for e in log]


@pytest.mark.slow  # three server starts (tens of seconds); the quick test of the same is below
def test_a_killed_server_resumes_the_hand_and_it_plays_to_its_end(tmp_path):
    db = tmp_path / "rooms.sqlite3"

    async def first(server) -> tuple:
        room = new_room(server)
        async with Page(server, room) as ana:
            token, dealt = await seated_with_a_bot(ana, "slow")
            peeled = await build_and_call(ana, dealt["held"], "peel")
            assert len(peeled["held"]) == 22, peeled
            rack = TileCounts.from_letters(peeled["held"]) - TileCounts.from_letters(dealt["held"])
            await ana.send({"type": "call", "call": "dump", "tile": rack.letters()[0]})
            dumped = await ana.until(lambda m: m["type"] == "tiles" and len(m["held"]) == 24)
            await ana.until("table")
            await ana.quiet(0.5)
            dump = next(e for m in ana.seen if m["type"] == "log" for e in m["entries"] if e["kind"] == "dump")
            return room, token, state_of(ana), dumped, dump["t"]

    async def rejoin(server, room, token) -> tuple:
        async with Page(server, room) as ana:
            welcome = await ana.join("ana", token)
            assert welcome["name"] == "ana" and not welcome["spectator"]
            await ana.until(lambda m: m["type"] == "tiles")  # after the log and the table
            await ana.quiet(0.5)
            return state_of(ana), ana.seen

    server = Served(db)
    room, token, before, dumped, dumped_at = run_bounded(lambda: first(server), timeout=120)
    server.stop(signal.SIGKILL)

    server = Served(db)
    after, seen = run_bounded(lambda: rejoin(server, room, token), timeout=120)
    assert after == before  # every tile, the bunch, each player's count, the whole log
    restored = next(m for m in seen if m["type"] == "tiles")
    assert sorted(restored["held"]) == sorted(dumped["held"])
    laid = {(row, col) for row, col, _ in restored["cells"]}
    assert len(laid) == 21  # the grid of its PEEL, as the hand had it (the rack: the DUMP's three and one)
    clock = next(m for m in reversed(seen) if m["type"] == "table")["clock"]
    # The clock went on from where it was saved, never before the last call the page was
    # answered for (its journal entry was committed first): the downtime counts against nobody.
    # (At most a second is lost where the server is not starved: test_crash_recovery's tick test.)
    # The page's clock is rounded to a tenth, the log's time to a thousandth: compare as the page shows.
    assert round(dumped_at, 1) <= clock < 60

    async def told(server, room, token) -> list:
        async with Page(server, room) as ana:
            await ana.join("ana", token)
            await ana.until(lambda m: m["type"] == "tiles")
            os.kill(server.process.pid, signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ana.seen.append(json.loads(await asyncio.wait_for(ana.ws.recv(), 20)))
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            return ana.seen

    seen = run_bounded(lambda: told(server, room, token), timeout=60)
    assert {"type": "restarting"} in seen
    server.process.communicate(timeout=30)

    async def finish(server, room, token) -> dict:
        async with Page(server, room) as ana:
            await ana.join("ana", token)
            held = (await ana.until(lambda m: m["type"] == "tiles"))["held"]
            bunch = next(m for m in reversed(ana.seen) if m["type"] == "table")["bunch"]
            while bunch >= 2:  # PEEL down the bunch (the bot's work never lands: it is slow)
                held = (await build_and_call(ana, held, "peel"))["held"]
                bunch -= 2
            await ana.send({"type": "grid", "cells": cells_of(held)})
            await ana.send({"type": "call", "call": "bananas"})
            return await ana.until("end", timeout=30)

    server = Served(db)
    end = run_bounded(lambda: finish(server, room, token), timeout=120)
    server.stop(signal.SIGTERM)
    assert end["outcome"] == "win" and end["winners"] == ["ana"]


def test_a_room_and_its_hand_come_back_from_the_database(tmp_path):
    """The quick test of the same, in one process: a server stopped with its rooms saved,
    another on the same file, the person back in the hand with the same tiles."""
    db = str(tmp_path / "rooms.sqlite3")

    async def play(server) -> tuple:
        room = new_room(server)
        async with Page(server, room) as ana:
            token, dealt = await seated_with_a_bot(ana, "easy")
            await build_and_call(ana, dealt["held"], "peel")
            await ana.until("table")
            await ana.quiet(0.3)
            return room, token, state_of(ana)

    async def back(server, room, token) -> tuple:
        async with Page(server, room) as ana:
            await ana.join("ana", token)
            await ana.until(lambda m: m["type"] == "tiles")  # after the log and the table
            await ana.quiet(0.3)
            return state_of(ana)

    server = start_server(db=db)
    try:
        room, token, before = run_bounded(lambda: play(server))
    finally:
        server.stop()
    server = start_server(db=db)
    try:
        after = run_bounded(lambda: back(server, room, token))
    finally:
        server.stop()
    assert after[0] == before[0] and after[1] == before[1]  # the person's tiles and the bunch
    assert after[3][: len(before[3])] == before[3]  # the log as it was (the slow bot may have moved on)


def test_a_database_that_cannot_be_written_is_reported_and_the_room_plays_on(tmp_path, caplog):
    server = start_server(db=str(tmp_path / "rooms.sqlite3"))
    store: RoomStore = server.app.state.rooms.store
    store.db.execute("PRAGMA query_only = ON")  # every write now fails, as on a full or read-only disk

    async def play() -> dict:
        room = new_room(server)
        async with Page(server, room) as ana:
            await ana.join("ana")
            await ana.send({"type": "start"})
            return await ana.until(lambda m: m["type"] == "tiles" and m["held"])

    try:
        with caplog.at_level(logging.ERROR, logger="bananas.web"):
            dealt = run_bounded(play)
    finally:
        server.stop()
    assert len(dealt["held"]) == 21  # the solo hand was dealt and plays, in memory
    assert store.failed is not None
    reports = [record for record in caplog.records if "cannot be written" in record.getMessage()]
    assert len(reports) == 1  # reported once


def test_a_persons_first_grid_and_hints_come_back_with_the_hand(tmp_path):
    """Issue 40: the end's figures are read from the hand's log, which a resumed hand rebuilds
    from the engine's events; the person's lines they rest on (the first grid's snapshot, each
    hint) are saved with the hand and come back at their places. A solo hand on a 21-tile set:
    a word, a hint, the whole grid; the server stops; back, BANANAS: the end screen and the
    review say when the first grid came, and that one hint was shown."""
    db = str(tmp_path / "rooms.sqlite3")
    settings = {"db": db, "distribution": "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"}

    async def play(server) -> tuple:
        room = new_room(server)
        async with Page(server, room) as ana:
            token = (await ana.join("ana"))["token"]
            await ana.send({"type": "start"})
            held = (await ana.until(lambda m: m["type"] == "tiles" and m["held"]))["held"]
            cells = cells_of(held)
            await ana.send({"type": "grid", "cells": cells[:2]})
            await ana.send({"type": "hint"})
            await ana.until("hint")
            await ana.send({"type": "grid", "cells": cells})
            table = await ana.until(lambda m: m["type"] == "table" and m["players"][0]["first_grid"] is not None)
            return room, token, table["players"][0]["first_grid"], cells

    async def back(server, room, token, cells) -> tuple:
        async with Page(server, room) as ana:
            await ana.join("ana", token)
            await ana.until(lambda m: m["type"] == "tiles")
            await ana.send({"type": "grid", "cells": cells})
            await ana.send({"type": "call", "call": "bananas"})
            end = await ana.until("end")
            await ana.send({"type": "review"})  # the page asks when it shows the end
            review = await ana.until("review", timeout=60)
            return end, review["review"]

    server = start_server(**settings)
    try:
        room, token, first, cells = run_bounded(lambda: play(server))
    finally:
        server.stop()
    server = start_server(**settings)
    try:
        end, review = run_bounded(lambda: back(server, room, token, cells))
    finally:
        server.stop()
    (board,), (player,) = end["boards"], review["players"]
    assert board["first_grid"] == player["first_grid_s"] == first
    assert board["hints"] == player["hints"] == 1
    assert board["tiles_left"] == player["tiles_left"] == 0 and board["status"] == "winner"


def test_a_spectators_request_for_a_seat_comes_back_with_the_room(tmp_path):
    """Issue 40's leftover: a spectator asks the host for a seat, the server restarts, and the
    host's page still offers to seat them (`sit_requests`), since the host answers between hands."""
    db = str(tmp_path / "rooms.sqlite3")

    async def ask(server) -> tuple:
        room = new_room(server)
        async with Page(server, room) as ana, Page(server, room) as dee:
            token = (await ana.join("Ana"))["token"]
            await ana.send({"type": "start"})
            await ana.until("tiles")
            await dee.join("Dee")  # the only seat is taken, a hand is on: Dee watches
            await dee.send({"type": "sit"})
            await ana.until(lambda m: m["type"] == "room" and m["sit_requests"] == ["Dee"])
            return room, token

    async def back(server, room, token) -> dict:
        async with Page(server, room) as ana:
            await ana.join("Ana", token)
            return await ana.until(lambda m: m["type"] == "room")

    server = start_server(db=db, max_seats=1)
    try:
        room, token = run_bounded(lambda: ask(server))
    finally:
        server.stop()
    server = start_server(db=db, max_seats=1)
    try:
        restored = run_bounded(lambda: back(server, room, token))
    finally:
        server.stop()
    assert restored["spectators"] == ["Dee"] and restored["sit_requests"] == ["Dee"]


def test_a_second_server_on_the_same_database_is_refused(tmp_path):
    """One owner per file: while a server holds the room database's lock, `bananas serve` on
    the same file stops at once with one `error:` line naming the file and the holder."""
    db = tmp_path / "rooms.sqlite3"
    held = DatabaseLock(db)  # as a running server holds it
    try:
        ran = subprocess.run(
            [bananas_script(), "serve", "--port", "0", "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        held.release()
    assert ran.returncode == 2, ran
    (line,) = ran.stderr.splitlines()
    assert line.startswith("error: ") and str(db) in line and f"pid {os.getpid()}" in line, line
    assert "--db PATH" in line and "--db none" in line
    again = DatabaseLock(db)  # released: the next server takes it
    again.release()


def test_restored_rooms_never_lock_anyone_out(tmp_path):
    """A restart closes the rooms no person sits in, keeps the others, and charges none of
    them to its creator again: the creator can still create as many rooms as before."""
    db = str(tmp_path / "rooms.sqlite3")

    async def seat_someone(server, room) -> None:
        async with Page(server, room) as ana:
            await ana.join("ana")

    server = start_server(db=db, rooms_per_client=2)
    try:
        kept = new_room(server)
        new_room(server)  # nobody joins this one
        run_bounded(lambda: seat_someone(server, kept))
        assert http(server.url + "/api/rooms", {"language": "en"})[0] == 429  # the quota, as it stands
    finally:
        server.stop()
    server = start_server(db=db, rooms_per_client=2)
    try:
        rooms = server.app.state.rooms
        assert set(rooms.rooms) == {kept}  # the empty room closed at the restart
        assert [new_room(server), new_room(server)]  # the creator's quota is whole again
    finally:
        server.stop()
    assert {saved.record["id"] for saved in RoomStore(db).load()} >= {kept}


OLD_SCHEMA = """
CREATE TABLE rooms (id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE hands (room TEXT PRIMARY KEY, setup TEXT NOT NULL, progress TEXT NOT NULL);
CREATE TABLE inputs (room TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (room, seq));
"""


def test_a_database_of_an_older_schema_is_migrated_forward(tmp_path):
    """A file written before the schema had a version (version 0: no `live` table) opens,
    is brought to SCHEMA_VERSION, and reads back its room and hand; a file of a newer schema
    is refused rather than misread."""
    db = tmp_path / "old.sqlite3"
    old = sqlite3.connect(db)
    old.executescript(OLD_SCHEMA)
    old.execute("INSERT INTO rooms VALUES ('r1', ?)", (json.dumps({"id": "r1"}),))
    old.execute(
        "INSERT INTO hands VALUES ('r1', ?, ?)", (json.dumps({"seed": 5}), json.dumps({"clock": 3.0, "steps": 4}))
    )
    old.execute("INSERT INTO inputs VALUES ('r1', 0, ?)", (json.dumps({"step": 1, "input": "leave", "seat": 0}),))
    old.commit()
    old.close()

    store = RoomStore(db)
    (room,) = store.load()
    assert room.record == {"id": "r1"} and room.hand is not None
    assert room.hand.progress == {"clock": 3.0, "steps": 4} and room.hand.journal[0]["input"] == "leave"
    assert room.hand.live == {}
    store.save_live("r1", 0, [[0, 0, "A"]], {"clock": 4.0, "steps": 5}).result(10)
    store.close()
    newer = sqlite3.connect(db)
    assert newer.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert RoomStore(db).load()[0].hand.live == {0: [[0, 0, "A"]]}
    newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    newer.commit()
    newer.close()
    with pytest.raises(ValueError, match="newer than this bananas knows"):
        RoomStore(db)


def test_a_rooms_settings_come_back_with_it(tmp_path):
    """Every setting the room was created with is in its record: after a restart the room
    still allows every word if its creator said so (the offensive ones included)."""
    db = str(tmp_path / "rooms.sqlite3")

    async def room_message(server, room, token=None) -> tuple[str, dict]:
        async with Page(server, room) as ana:
            welcome = await ana.join("ana", token)
            return welcome["token"], await ana.until(lambda m: m["type"] == "room")

    server = start_server(db=db)
    try:
        room = new_room(server, offensive_words=True, hints=True, hint_count=3, show_letters=True)
        token, before = run_bounded(lambda: room_message(server, room))
    finally:
        server.stop()
    server = start_server(db=db)
    try:
        _, after = run_bounded(lambda: room_message(server, room, token))
    finally:
        server.stop()
    settings = ("offensive_words", "hints", "hint_count", "show_letters", "spellcheck", "language", "variant")
    assert before["offensive_words"] is True
    assert {key: after[key] for key in settings} == {key: before[key] for key in settings}
