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
first, keeping room for the engine's events and the `grids` line. A person's grid that holds
every tile they hold is written at once, whatever the rate: the moment their rack first
emptied is their first grid.

The writer reads every line it writes into a `solver.coach.record.HandRecorder`: the live
table's first grids and the end screen's figures are that record, so they are what the review
reads back from the log (`solver.coach.record`). A line the record refuses (a person's grid or
hint that comes after they went out of the hand: the log would not read back) is not written.
A durable room's hand comes back from its inputs, the engine's events replayed: the person's
lines the figures rest on (the snapshot of a first grid, each hint) are `keepsakes`, saved with
the hand's progress and written back at their places (`restore`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from solver.coach.logs import LogError, log_line
from solver.coach.record import HandRecord, HandRecorder
from solver.core.grid import Grid
from solver.core.limits import MAX_LOG_SNAPSHOTS_PER_HAND, MAX_ROOM_LOG_BYTES, SNAPSHOT_MIN_SECONDS
from solver.core.tiles import DISTRIBUTIONS, TileCounts
from solver.play import events

ENGINE_RESERVE = 4  # the optional lines stop when the log is past 1/ENGINE_RESERVE of its bound short of it


def line_of(entry: dict) -> str:
    return json.dumps(entry, separators=(",", ":"), allow_nan=False)


class HandLogWriter:
    """The JSON lines of one hand, written as the hand goes (`solver.coach.logs.HandLog` is a
    hand read back). A room log holds one hand: its
    lines say `"hand": 1` (a log's hands count from 1) and the header's `room_hand` is the
    room's number for it."""

    def __init__(self, hand: int, header: dict, distribution: TileCounts | None = None, keepsakes: Sequence[list] = ()):
        """`header`: the header line (`solver.coach.logs.room_header`); `distribution`: the
        hand's tile set (by default the header's language's); `keepsakes`: a resumed hand's
        (`restore`)."""
        self.hand = hand
        tiles = distribution if distribution is not None else DISTRIBUTIONS[header["lang"]]
        self.recorder = HandRecorder(tiles, header["players"])
        self.engine_lines = 0  # the engine's lines written: where a keepsake goes
        self.keepsakes: list[list] = []  # [engine lines before it, the line]: see the module docstring
        self.restoring = sorted((list(item) for item in keepsakes), key=lambda item: item[0])
        self.lines: list[str] = [line_of({**header, "room_hand": hand})]
        self.size = len(self.lines[0]) + 1
        self.snapshots: dict[int, int] = {}  # player -> snapshots written
        self.last_rows: dict[int, list[str] | None] = {}  # player -> the grid last written
        self.last_time: dict[int, float] = {}  # player -> when it was written
        self.pending: dict[int, list[str]] = {}  # player -> a grid waiting for its time
        self.ended = False  # the `end` event is written: only the `grids` line may follow
        self.closed = False  # the `grids` line is written: nothing follows

    # -- writing ----------------------------------------------------------------------------------
    def write(self, entry: Mapping[str, Any], optional: bool = False) -> bool:
        """Append one line (with this hand's number) and read it into the record; an optional
        one only while the log is short of its reserve, before the hand's end, and when the
        record takes it. Whether it was written."""
        if self.closed or (optional and self.ended):
            return False
        line = log_line(1, entry)  # as every log writes an event (a stuck's tiles are `tiles`)
        text = line_of(line)
        limit = MAX_ROOM_LOG_BYTES - MAX_ROOM_LOG_BYTES // ENGINE_RESERVE if optional else MAX_ROOM_LOG_BYTES
        if self.size + len(text) + 1 > limit:
            return False
        try:
            if events.kind_of(line) != events.GRIDS:  # (the record's own grids: written last)
                self.recorder.feed(cast(events.LogLine, line))  # (the record checks it: LogError)
        except LogError:
            if optional:
                return False
            raise  # the engine's own events always read back: a bug
        self.lines.append(text)
        self.size += len(text) + 1
        return True

    def keep(self, line: Mapping[str, Any]) -> None:
        """A person's line the figures rest on, kept for a resumed hand (module docstring)."""
        self.keepsakes.append([self.engine_lines, line])

    def restore(self) -> None:
        """Write back the keepsakes due before the next engine line (a resumed hand)."""
        while self.restoring and self.restoring[0][0] <= self.engine_lines:
            line: events.LogLine = self.restoring.pop(0)[1]
            if line["event"] == events.HINT:
                self.hint(line["player"], line["t"])
            elif line["event"] == events.SNAPSHOT and self.write(line, optional=True):
                player = line["player"]
                self.snapshots[player] = self.snapshots.get(player, 0) + 1
                self.last_rows[player], self.last_time[player] = line["grid"], line["t"]
                self.keep(line)

    def engine_event(self, event: events.HandEvent) -> None:
        self.restore()
        if events.kind_of(event) == events.END:
            # The persons' grids that waited are written before the end, at its time: nothing
            # of a hand follows its `end` but the `grids` line (a snapshot written after it
            # would fail the hand's review).
            self.flush(event["t"], force=True)
        if self.write(event, optional=events.kind_of(event) == events.SNAPSHOT):  # a bot's give way like a person's
            self.engine_lines += 1
            self.restore()  # what came next, before anything new
        if event["event"] in (events.ROTTEN, events.LEFT):
            self.pending.pop(event["player"], None)  # nothing of theirs follows their going out
        if events.kind_of(event) == events.END:
            self.ended = True

    def snapshot(self, player: int, t: float, rows: list[str] | None, complete: bool = False) -> None:
        """A person's grid now (`rows`: None for an empty board): written at once, or kept
        until the rate lets it be; `complete` (their rack is empty) writes it at once. An
        emptied board is not a grid (a log's snapshots hold a tile or more): what waited goes."""
        if rows is None:
            self.pending.pop(player, None)
            return
        if rows == self.pending.get(player, self.last_rows.get(player)):
            return
        self.pending[player] = rows
        self.flush(t, player, force=complete)

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
            line = events.make(events.SNAPSHOT, t, player=index, grid=rows)
            first = self.recorder.first_grid(index)
            if self.write(line, optional=True):
                self.snapshots[index] = self.snapshots.get(index, 0) + 1
                self.last_rows[index], self.last_time[index] = rows, t
                if first is None and self.recorder.first_grid(index) is not None:
                    self.keep(line)  # the person's first grid

    def hint(self, player: int, t: float) -> None:
        line = {"t": round(t, 3), "event": events.HINT, "player": player}
        if self.write(line, optional=True):
            self.keep(line)

    def first_grid(self, player: int) -> float | None:
        """The player's first grid so far, as the log has it (`solver.coach.record`)."""
        return self.recorder.first_grid(player)

    def hints(self, player: int) -> int:
        """The hints the player was shown so far, as the log has them."""
        return self.recorder.hints(player)

    def finish(self, grids: Sequence[Grid | None], end: float) -> HandRecord:
        """The hand is over: `grids`, each player's grid as the table last saw it (what still
        waited is in it), make the record, whose grids the `grids` line holds. `end`: the
        hand's end, if its `end` line could not be written."""
        self.pending.clear()
        self.restore()
        if self.recorder.end is None:
            self.recorder.end = end
        record = self.recorder.record(grids)
        self.write({"event": events.GRIDS, "grids": record.grids})
        self.closed = True
        return record

    # -- reading ----------------------------------------------------------------------------------
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
