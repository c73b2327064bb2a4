"""Durable rooms: every room, and the hand at its table, saved as it happens (SQLite).

`bananas serve --db PATH` keeps a `RoomStore`: a room's record (settings, seats and their
reconnect tokens, host, phase, wins, the last hands' logs) is written whenever the lobby
changes, and a Bananagrams hand's inputs as the hand takes them (`Hand.journal`: calls,
grids taken in, leaves, each with its place among the events) with its progress (the game
clock, the events processed, the figures only the table keeps). A server started again on
the same file rebuilds each room, and each hand from its seed and its inputs
(`solver.play.hand.replay`): the same tiles everywhere, the same grids, the bots' pending
work, the clock where it was (the time the server was down counts against nobody). What a
person had placed but the hand had not yet taken in (less than a second: the hand takes a
grid in at each event and each call) is the only thing lost. A Spellevate round is not
saved: its room comes back to the lobby.

One connection, WAL journal, written under a lock (a hand's inputs come from the table's
worker threads). A write that fails (disk full, read-only) is reported once in the log and
the store stops writing: the rooms play on in memory.

Schema (JSON text in each record column)::

    rooms  (id TEXT PRIMARY KEY, record TEXT)          the room (`Room.record`)
    hands  (room TEXT PRIMARY KEY, setup TEXT,         the hand under way: its setup
            progress TEXT)                             and its progress (clock, steps, ...)
    inputs (room TEXT, seq INTEGER, entry TEXT,        the hand's journal, entry by entry
            PRIMARY KEY (room, seq))
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("bananas.web")

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hands (room TEXT PRIMARY KEY, setup TEXT NOT NULL, progress TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (room TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
                                   PRIMARY KEY (room, seq));
"""


@dataclass
class SavedHand:
    """A hand under way as the store holds it."""

    setup: dict
    progress: dict
    journal: list[dict]


@dataclass
class SavedRoom:
    """A room as the store holds it, with its hand under way if it has one."""

    record: dict
    hand: SavedHand | None


class RoomStore:
    """The rooms of one server in an SQLite file (module docstring). ValueError if the file
    cannot be opened as a database."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.lock = threading.Lock()
        self.failed: str | None = None  # the first write error; nothing is written after it
        self.writes = 0  # transactions written (the server's metrics)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():  # it holds every seat's token: the server's user only
                self.path.touch(mode=0o600)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at each checkpoint, fast commits
            self.db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise ValueError(f"cannot open the room database {self.path}: {error}") from None

    def write(self, statements: list[tuple[str, tuple]]) -> None:
        """Run `statements` in one transaction; on failure report it once and stop writing."""
        if self.failed is not None:
            return
        with self.lock:
            try:
                self.db.execute("BEGIN")
                for sql, parameters in statements:
                    self.db.execute(sql, parameters)
                self.db.execute("COMMIT")
                self.writes += 1
            except sqlite3.Error as error:
                self.failed = str(error)
                log.error("the room database %s cannot be written (%s): rooms play on in memory only", self.path, error)
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass

    # -- writing -------------------------------------------------------------------------------
    def save_room(self, room_id: str, record: dict) -> None:
        self.write([("INSERT OR REPLACE INTO rooms (id, record) VALUES (?, ?)", (room_id, dump(record)))])

    def delete_room(self, room_id: str) -> None:
        self.write(
            [
                ("DELETE FROM rooms WHERE id = ?", (room_id,)),
                ("DELETE FROM hands WHERE room = ?", (room_id,)),
                ("DELETE FROM inputs WHERE room = ?", (room_id,)),
            ]
        )

    def start_hand(self, room_id: str, setup: dict, progress: dict) -> None:
        self.write(
            [
                ("DELETE FROM inputs WHERE room = ?", (room_id,)),
                (
                    "INSERT OR REPLACE INTO hands (room, setup, progress) VALUES (?, ?, ?)",
                    (room_id, dump(setup), dump(progress)),
                ),
            ]
        )

    def add_input(self, room_id: str, seq: int, entry: dict) -> None:
        self.write([("INSERT OR REPLACE INTO inputs (room, seq, entry) VALUES (?, ?, ?)", (room_id, seq, dump(entry)))])

    def save_progress(self, room_id: str, progress: dict) -> None:
        self.write([("UPDATE hands SET progress = ? WHERE room = ?", (dump(progress), room_id))])

    def end_hand(self, room_id: str) -> None:
        self.write(
            [("DELETE FROM hands WHERE room = ?", (room_id,)), ("DELETE FROM inputs WHERE room = ?", (room_id,))]
        )

    # -- reading -------------------------------------------------------------------------------
    def load(self, prefix: str | None = None) -> list[SavedRoom]:
        """Every saved room (whose id starts with `prefix-`, if given), with its hand."""
        with self.lock:
            rooms = self.db.execute("SELECT id, record FROM rooms ORDER BY rowid").fetchall()
            hands = {room: (setup, progress) for room, setup, progress in self.db.execute("SELECT * FROM hands")}
            inputs: dict[str, list[dict]] = {}
            for room, _, entry in self.db.execute("SELECT room, seq, entry FROM inputs ORDER BY room, seq"):
                inputs.setdefault(room, []).append(json.loads(entry))
        saved = []
        for room_id, record in rooms:
            if prefix is not None and not room_id.startswith(f"{prefix}-"):
                continue
            hand = None
            if room_id in hands:
                setup, progress = hands[room_id]
                hand = SavedHand(json.loads(setup), json.loads(progress), inputs.get(room_id, []))
            saved.append(SavedRoom(json.loads(record), hand))
        return saved

    def close(self) -> None:
        with self.lock:
            self.db.close()


def dump(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"), allow_nan=False)


def default_path() -> Path:
    """Where `bananas serve` keeps its rooms by default: $BANANAS_DATA, else the user's data
    folder ($XDG_DATA_HOME/bananas, ~/.local/share/bananas), then rooms.sqlite3."""
    import os

    data = os.environ.get("BANANAS_DATA")
    if data:
        return Path(data) / "rooms.sqlite3"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bananas" / "rooms.sqlite3"
