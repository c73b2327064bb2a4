"""A room hand's event log, in the coach's `bananas-room-log/1` format (JSON lines).

What `solver.coach.review` reads and the page's Replay plays back: a header (who sat where,
the seed, the room's settings), the engine's events as the table saw them, each person's
grid `snapshot` as they build, the `hint` events, and the `grids` line once the hand ends.

The log is bounded (solver.core.limits): a person's snapshots at most one per
`SNAPSHOT_MIN_SECONDS` (a grid changed more often waits, and the latest is written when its
time comes, or at once when the person calls: the grid a call was judged on is in the log;
the final grid is the `grids` line's), at most `MAX_LOG_SNAPSHOTS_PER_HAND` snapshots of each
player (the engine bounds the bots' the same way), and the
whole log within `MAX_ROOM_LOG_BYTES`: the lines that are not the engine's (snapshots, hints) stop
first, keeping room for the engine's events and the `grids` line.
"""

from __future__ import annotations

import json

from solver.coach.logs import log_line
from solver.core.limits import MAX_LOG_SNAPSHOTS_PER_HAND, MAX_ROOM_LOG_BYTES, SNAPSHOT_MIN_SECONDS
from solver.play import events

ENGINE_RESERVE = 4  # the optional lines stop when the log is past 1/ENGINE_RESERVE of its bound short of it


def line_of(entry: dict) -> str:
    return json.dumps(entry, separators=(",", ":"), allow_nan=False)


class HandLogWriter:
    """The JSON lines of one hand, written as the hand goes (`solver.coach.logs.HandLog` is a
    hand read back). A room log holds one hand: its
    lines say `"hand": 1` (a log's hands count from 1) and the header's `room_hand` is the
    room's number for it."""

    def __init__(self, hand: int, header: dict):
        """`header`: the header line (`solver.coach.logs.room_header`)."""
        self.hand = hand
        self.lines: list[str] = [line_of({**header, "room_hand": hand})]
        self.size = len(self.lines[0]) + 1
        self.snapshots: dict[int, int] = {}  # player -> snapshots written
        self.last_rows: dict[int, list[str] | None] = {}  # player -> the grid last written
        self.last_time: dict[int, float] = {}  # player -> when it was written
        self.pending: dict[int, list[str]] = {}  # player -> a grid waiting for its time
        self.ended = False  # the `end` event is written: only the `grids` line may follow
        self.closed = False  # the `grids` line is written: nothing follows

    # -- writing ----------------------------------------------------------------------------------
    def write(self, entry: dict, optional: bool = False) -> bool:
        """Append one line (with this hand's number); an optional one only while the log is
        short of its reserve, and only before the hand's end. Whether it was written."""
        if self.closed or (optional and self.ended):
            return False
        text = line_of(log_line(1, entry))  # as every log writes an event (a stuck's tiles are `tiles`)
        limit = MAX_ROOM_LOG_BYTES - MAX_ROOM_LOG_BYTES // ENGINE_RESERVE if optional else MAX_ROOM_LOG_BYTES
        if self.size + len(text) + 1 > limit:
            return False
        self.lines.append(text)
        self.size += len(text) + 1
        return True

    def engine_event(self, event: dict) -> None:
        if events.kind_of(event) == events.END:
            # The persons' grids that waited are written before the end, at its time: nothing
            # of a hand follows its `end` but the `grids` line (a snapshot written after it
            # failed the hand's review: issue 33).
            self.flush(event["t"], force=True)
        self.write(event, optional=events.kind_of(event) == events.SNAPSHOT)  # a bot's give way like a person's
        if events.kind_of(event) == events.END:
            self.ended = True

    def snapshot(self, player: int, t: float, rows: list[str] | None) -> None:  # rows: None for an empty board
        """A person's grid now: written at once, or kept until the rate lets it be. An emptied
        board is not a grid (a log's snapshots hold a tile or more): what waited goes."""
        if rows is None:
            self.pending.pop(player, None)
            return
        if rows == self.pending.get(player, self.last_rows.get(player)):
            return
        self.pending[player] = rows
        self.flush(t, player)

    def flush(self, t: float, player: int | None = None, force: bool = False) -> None:
        """Write the waiting snapshots whose time has come (all of them with `force`)."""
        for index in [player] if player is not None else list(self.pending):
            if index not in self.pending:
                continue
            if not force and t - self.last_time.get(index, -SNAPSHOT_MIN_SECONDS) < SNAPSHOT_MIN_SECONDS:
                continue
            rows = self.pending.pop(index)
            if rows == self.last_rows.get(index) or self.snapshots.get(index, 0) >= MAX_LOG_SNAPSHOTS_PER_HAND:
                continue
            if self.write(events.make(events.SNAPSHOT, t, player=index, grid=rows), optional=True):
                self.snapshots[index] = self.snapshots.get(index, 0) + 1
                self.last_rows[index], self.last_time[index] = rows, t

    def hint(self, player: int, t: float) -> None:
        self.write({"t": round(t, 3), "event": events.HINT, "player": player}, optional=True)

    def finish(self, grids: list[list[str] | None]) -> None:
        """The hand is over: every player's final grid (what still waited is in it)."""
        self.pending.clear()
        self.write({"event": events.GRIDS, "grids": grids})
        self.closed = True

    # -- reading ----------------------------------------------------------------------------------
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
