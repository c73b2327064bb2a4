"""Durable rooms: what a server saves of its rooms and hands, and how (SQLite).

`bananas serve --db PATH` keeps a `RoomStore`. What it saves, each record built here:

- a room (`room_record`): settings, seats and their reconnect tokens, host, phase, wins, the
  last hands' logs; written whenever the lobby changes;
- a Bananagrams hand under way: its setup (`setup_record`: seed, seats, tiles) when dealt,
  every input the hand takes (`Hand.journal`: each call with its verdict, each grid taken
  in, each leave, with its place among the hand's events) as it takes it, and its progress
  (the game clock, the person's log lines the end's figures rest on) at least once a second;
- each person's live grid (`save_live`): the grid their page last sent, cell by cell in the
  page's own coordinates, written before the page's `check` is answered (with the hand's
  progress when the grid added a line the end's figures rest on: a first grid);
- a Spellevate round the same way: its setup, its journal (each person's move or leave), and
  its progress (the moves made, the room's log) after each move.

A server started again on the same file rebuilds each room, replays each hand from its seed
and inputs up to the saved clock (`solver.play.hand.replay`: the bots' work comes back as it
was, from the same seed and the same inputs), and gives each person their live grid back:
a grid the page was answered for is never lost; the clock loses at most a second.

Writes run on one writer thread, off the event loop: `submit` queues a transaction and
returns a `Commit` (a future); the thread commits whatever is queued in one transaction (group
commit), so a busy server's many small writes cost few commits. The transactions submitted in
one turn of the event loop go to the thread together, with one `Commit`: one hand-over to the
thread and one wake-up of the loop for all of them, not one each. A caller that must not
answer before its write is durable (a person's grid) awaits the future (`Commit.wait`). A
write that fails (disk full, read-only) is reported once in the log and the store stops
writing: the rooms play on in memory.

One owner per file: `DatabaseLock` (an exclusive `flock` on `PATH.lock`, holding the owner's
PID) is taken by `bananas serve` before it listens; a second server on the same file is
refused. The workers of `serve --processes N` share their front's lock.

Schema (JSON text in each record column), versioned by `PRAGMA user_version`; `MIGRATIONS`
brings an older file forward, step by step, when it is opened::

    rooms  (id TEXT PRIMARY KEY, record TEXT)          the room (`room_record`)
    hands  (room TEXT PRIMARY KEY, setup TEXT,         the hand under way: its setup
            progress TEXT)                             and its progress (clock, keepsakes)
    inputs (room TEXT, seq INTEGER, entry TEXT,        the hand's journal, entry by entry
            PRIMARY KEY (room, seq))
    live   (room TEXT, seat INTEGER, cells TEXT,       (version 2) each person's live grid:
            PRIMARY KEY (room, seat))                  [[row, col, letter], ...]
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.web.table import Commit, Seat

if TYPE_CHECKING:
    from solver.web.rooms import Room
    from solver.web.table import TableHandle, TableSetup

log = logging.getLogger("bananas.web")

Statement = tuple[str, tuple]
Transaction = list[Statement]


def committed_already() -> Commit:
    """A Commit that is done: what a failed store answers (nothing is written any more)."""
    done = Commit()
    done.set_result(None)
    return done


# MIGRATIONS[n] takes a file from version n to n + 1. Version 0 is a new file, or one written
# before the schema had a version (it has version 1's tables: CREATE IF NOT EXISTS).
MIGRATIONS: list[str] = [
    """
    CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS hands (room TEXT PRIMARY KEY, setup TEXT NOT NULL, progress TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS inputs (room TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
                                       PRIMARY KEY (room, seq));
    """,
    """
    CREATE TABLE IF NOT EXISTS live (room TEXT NOT NULL, seat INTEGER NOT NULL, cells TEXT NOT NULL,
                                     PRIMARY KEY (room, seat));
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
MAX_BATCH = 256  # hand-overs (each one or more transactions) committed together at most
# After a commit the writer waits this long before the next: what comes meanwhile is queued
# without waking it, and goes in the next commit. A write that finds the writer idle is
# committed at once; on a busy server a write waits at most this much longer, and the
# writer and the event loop wake a few hundred times a second, not once per write.
COMMIT_GAP_SECONDS = 0.004


@dataclass
class SavedHand:
    """A hand under way as the store holds it: `live` maps a seat to its live grid's cells."""

    setup: dict
    progress: dict
    journal: list[dict]
    live: dict[int, list[list]] = field(default_factory=dict)


@dataclass
class SavedRoom:
    """A room as the store holds it, with its hand under way if it has one."""

    record: dict
    hand: SavedHand | None


class RoomStore:
    """The rooms of one server in an SQLite file (module docstring). ValueError if the file
    cannot be opened as a database, or was written by a newer schema."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.failed: str | None = None  # the first write error; nothing is written after it
        self.writes = 0  # transactions committed (the server's metrics)
        self.commits = 0  # commits, each of one or more transactions
        self.lock = threading.Lock()  # the connection: the writer thread, or a reader
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():  # it holds every seat's token: the server's user only
                self.path.touch(mode=0o600)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives the process's death
            migrate(self.db)
        except (OSError, sqlite3.Error) as error:
            raise ValueError(f"cannot open the room database {self.path}: {error}") from None
        self.queue: queue.SimpleQueue[tuple[list[Transaction], Commit] | None] = queue.SimpleQueue()
        self.gathering: tuple[list[Transaction], Commit] | None = None  # this turn of the event loop's
        self.gathering_lock = threading.Lock()
        self.writer = threading.Thread(target=self._write_queued, name="bananas-room-store", daemon=True)
        self.writer.start()

    # -- the writer thread ---------------------------------------------------------------------
    def submit(self, statements: Transaction) -> Commit:
        """Queue `statements` as one transaction; the future is done once it is committed (or
        the store has failed: the rooms play on in memory). On an event loop, with the others
        of this turn of the loop; from another thread, with them too while they gather (in
        the order submitted), else at once."""
        if self.failed is not None:
            return committed_already()
        with self.gathering_lock:
            if self.gathering is None:
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:  # a thread without a loop: a transaction of its own
                    done = Commit()
                    self.queue.put(([statements], done))
                    return done
                self.gathering = ([], Commit())
                loop.call_soon(self.hand_over)
            self.gathering[0].append(statements)
            return self.gathering[1]

    def hand_over(self) -> None:
        """The transactions gathered so far, to the writer thread."""
        with self.gathering_lock:
            gathered, self.gathering = self.gathering, None
            if gathered is not None:
                self.queue.put(gathered)

    def _write_queued(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < MAX_BATCH:
                try:
                    following = self.queue.get_nowait()
                except queue.Empty:
                    break
                if following is None:
                    self._commit(batch)
                    return
                batch.append(following)
            self._commit(batch)
            time.sleep(COMMIT_GAP_SECONDS)

    def _commit(self, batch: list[tuple[list[Transaction], Commit]]) -> None:
        with self.lock:
            if self.failed is None:
                try:
                    self.db.execute("BEGIN")
                    for transactions, _ in batch:
                        for statements in transactions:
                            for sql, parameters in statements:
                                self.db.execute(sql, parameters)
                    self.db.execute("COMMIT")
                    self.writes += sum(len(transactions) for transactions, _ in batch)
                    self.commits += 1
                except sqlite3.Error as error:
                    self.failed = str(error)
                    log.error(
                        "the room database %s cannot be written (%s): rooms play on in memory only", self.path, error
                    )
                    with contextlib.suppress(sqlite3.Error):
                        self.db.execute("ROLLBACK")
        for _, done in batch:
            done.set_result(None)

    def flush(self, timeout: float = 30.0) -> None:
        """Wait until everything submitted so far is committed (on the event loop too: what
        it gathered is handed over now)."""
        done = self.submit([])
        self.hand_over()
        done.result(timeout)

    def close(self) -> None:
        """Commit what is queued, stop the writer, close the file."""
        self.hand_over()
        if self.writer.is_alive():
            self.queue.put(None)
            self.writer.join(timeout=30.0)
        with self.lock:
            self.db.close()

    # -- writing -------------------------------------------------------------------------------
    def save_room(self, room_id: str, record: dict) -> Commit:
        return self.submit([("INSERT OR REPLACE INTO rooms (id, record) VALUES (?, ?)", (room_id, dump(record)))])

    def delete_room(self, room_id: str) -> Commit:
        return self.submit([("DELETE FROM rooms WHERE id = ?", (room_id,)), *hand_gone(room_id)])

    def start_hand(self, room_id: str, setup: dict, progress: dict) -> Commit:
        return self.submit(
            [
                *hand_gone(room_id),
                (
                    "INSERT INTO hands (room, setup, progress) VALUES (?, ?, ?)",
                    (room_id, dump(setup), dump(progress)),
                ),
            ]
        )

    def add_input(self, room_id: str, seq: int, entry: dict) -> Commit:
        sql = "INSERT OR REPLACE INTO inputs (room, seq, entry) VALUES (?, ?, ?)"
        return self.submit([(sql, (room_id, seq, dump(entry)))])

    def save_progress(self, room_id: str, progress: dict) -> Commit:
        return self.submit([("UPDATE hands SET progress = ? WHERE room = ?", (dump(progress), room_id))])

    def save_live(self, room_id: str, seat: int, cells: Sequence[Sequence], progress: dict | None = None) -> Commit:
        """A person's live grid, with the hand's progress when given (one transaction)."""
        live = ("INSERT OR REPLACE INTO live (room, seat, cells) VALUES (?, ?, ?)", (room_id, seat, dump(cells)))
        if progress is None:
            return self.submit([live])
        return self.submit([live, ("UPDATE hands SET progress = ? WHERE room = ?", (dump(progress), room_id))])

    def end_hand(self, room_id: str) -> Commit:
        return self.submit(hand_gone(room_id))

    # -- reading -------------------------------------------------------------------------------
    def load(self, prefix: str | None = None) -> list[SavedRoom]:
        """Every saved room (whose id starts with `prefix-`, if given), with its hand."""
        self.flush()
        with self.lock:
            rooms = self.db.execute("SELECT id, record FROM rooms ORDER BY rowid").fetchall()
            hands = {room: (setup, progress) for room, setup, progress in self.db.execute("SELECT * FROM hands")}
            inputs: dict[str, list[dict]] = {}
            for room, _, entry in self.db.execute("SELECT room, seq, entry FROM inputs ORDER BY room, seq"):
                inputs.setdefault(room, []).append(json.loads(entry))
            live: dict[str, dict[int, list]] = {}
            for room, seat, cells in self.db.execute("SELECT room, seat, cells FROM live"):
                live.setdefault(room, {})[seat] = json.loads(cells)
        saved = []
        for room_id, record in rooms:
            if prefix is not None and not room_id.startswith(f"{prefix}-"):
                continue
            hand = None
            if room_id in hands:
                setup, progress = hands[room_id]
                journal = inputs.get(room_id, [])
                hand = SavedHand(json.loads(setup), json.loads(progress), journal, live.get(room_id, {}))
            saved.append(SavedRoom(json.loads(record), hand))
        return saved


def keep_table(store: RoomStore, room_id: str, handle: TableHandle) -> None:
    """A table's writes, through its handle, into `room_id`'s rows of `store`."""
    handle.store_input = lambda seq, entry: store.add_input(room_id, seq, entry)
    handle.store_progress = lambda progress: store.save_progress(room_id, progress)
    handle.store_live = lambda seat, cells, progress: store.save_live(room_id, seat, cells, progress)


def hand_gone(room_id: str) -> list[Statement]:
    """The statements that forget a room's hand: its setup, inputs and live grids."""
    return [
        ("DELETE FROM hands WHERE room = ?", (room_id,)),
        ("DELETE FROM inputs WHERE room = ?", (room_id,)),
        ("DELETE FROM live WHERE room = ?", (room_id,)),
    ]


def migrate(db: sqlite3.Connection) -> None:
    """Bring the file to SCHEMA_VERSION, one migration at a time, each in its transaction."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(
            f"its schema is version {version}, newer than this bananas knows ({SCHEMA_VERSION}): upgrade bananas"
        )
    for step in range(version, SCHEMA_VERSION):
        db.execute("BEGIN")
        for statement in MIGRATIONS[step].split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {step + 1}")
        db.execute("COMMIT")


def dump(record: Any) -> str:
    return json.dumps(record, separators=(",", ":"), allow_nan=False)


# -- the records ---------------------------------------------------------------------------------


def room_record(room: Room) -> dict:
    """The room as the store keeps it (`Room.from_record` reads it back)."""
    idle = time.monotonic() - room.last_activity
    return {
        "id": room.id,
        "number": room.number,
        "language": room.language,
        "spellcheck": room.spellcheck,
        "show_letters": room.show_letters,
        "hints": room.hints,
        "hint_count": room.hint_count,
        "offensive_words": room.offensive_words,
        "variant": room.variant.name,
        "phase": room.phase,
        "hands": room.hands,
        "wins": room.wins,
        "seats": [seat_record(seat) for seat in room.seats],
        "spectators": [seat_record(seat) for seat in room.spectators],
        "host": room.seats.index(room.host) if room.host in room.seats else None,
        "last_winner": room.last_winner.name if room.last_winner is not None else None,
        "creator": room.creator,
        "ever_joined": room.ever_joined,
        "last_activity": time.time() - idle,  # wall time: the monotonic clock does not survive a restart
        "hand_logs": {str(hand): reply["log"] for hand, reply in room.hand_logs.items()},
    }


def seat_record(seat: Seat) -> dict:
    record = {"kind": seat.kind, "name": seat.name, "token": seat.token, "spec": seat.spec, "preset": seat.preset}
    return record | ({"asks_to_sit": True} if seat.asks_to_sit else {})  # a spectator's request waits for the host


def restored_seat(entry: dict, now: float) -> Seat:
    """A seat as `seat_record` saved it; a person disconnected by the restart since `now`."""
    seat = Seat(entry["kind"], entry["name"], token=entry["token"], spec=entry["spec"], preset=entry["preset"])
    seat.asks_to_sit = entry.get("asks_to_sit", False)
    if seat.kind != "bot":
        seat.gone_since = now  # `absent_seconds` to come back
    return seat


def setup_record(setup: TableSetup) -> dict:
    """What the store keeps of a hand's setup (the rest is the room's)."""
    return {
        "seats": len(setup.seats),
        "seed": setup.seed,
        "distribution": setup.distribution.letters(),
        "hand": setup.hand,
    }


# -- one owner per file --------------------------------------------------------------------------


class DatabaseBusy(ValueError):
    """Another live process holds the room database's lock."""


class DatabaseLock:
    """An exclusive lock on a room database: `flock` on `PATH.lock`, which holds the owner's
    PID. Held until `release` or the process ends (the kernel drops it with the process, so a
    killed server never leaves it behind). DatabaseBusy names the file and the holder."""

    def __init__(self, path: str | Path):
        self.path = Path(f"{path}.lock")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(self.path, "a+")  # noqa: SIM115 - held open for the process's life
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.seek(0)
            holder = self.file.read().strip() or "unknown"
            self.file.close()
            raise DatabaseBusy(
                f"the room database {path} is in use by another bananas serve (pid {holder}): "
                "give this server a file of its own with --db PATH, or keep its rooms in memory with --db none"
            ) from None
        self.file.seek(0)
        self.file.truncate()
        self.file.write(f"{os.getpid()}\n")
        self.file.flush()

    def release(self) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()


def default_path() -> Path:
    """Where `bananas serve` keeps its rooms by default: $BANANAS_DATA, else the user's data
    folder ($XDG_DATA_HOME/bananas, ~/.local/share/bananas), then rooms.sqlite3."""
    data = os.environ.get("BANANAS_DATA")
    if data:
        return Path(data) / "rooms.sqlite3"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bananas" / "rooms.sqlite3"
