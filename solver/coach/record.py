"""The end of a hand, defined once: each player's grid and rack as the table last saw them,
their first grid and their own tiles a minute, read from the hand's log.

A room's end screen, the review (`solver.coach.review`) and the hand log agree because they
are one reading of one thing: the room's table feeds its `HandRecorder` each line it writes
to the hand's log, as it writes it, and the review feeds a new one the same lines read back
(`hand_record`). For each player::

    grid              the grid the table last saw: for a player still in at the end, the
                      `grids` line's - a bot's work shows when it lands on the table's clock,
                      so work still under way when the hand ended is not laid; a person's grid
                      as their page last showed it; for a rotten banana, the grid they called;
                      for a player who left, the last grid the table saw before they left
    tiles             the tiles they held at the end (on going out, for a player out of the hand)
    tiles_left        their rack: the tiles held that are not on that grid
    first_grid        the first moment, on the table's clock, their rack was empty: the first
                      line of the log (a `snapshot`, a BANANAS call) whose grid holds every tile
                      they held then, or their own PEEL (the rules ask for an empty rack); a
                      final grid holding every tile counts at their finish, for a log whose
                      snapshots stopped at their bound; None if their rack was never empty
    finish            their BANANAS call, their rotten banana or their leaving, else the hand's end
    tiles_per_minute  tiles on their grid per minute of their own time, from the split to their
                      finish, to 0.1 (None with no tile placed)
    peels, dumps, hints   the PEELs they called, their DUMPs, the hints they were shown

Times are the log's, seconds on the hand's clock to the millisecond, unrounded further: every
reader shows the same figure the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.coach.logs import GameLog, HandLog, Table
from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.play import events

__all__ = ["HandRecorder", "HandRecord", "PlayerRecord", "hand_record"]


@dataclass(frozen=True)
class PlayerRecord:
    """One player at the end of a hand: the fields of the module docstring. `out` says how a
    player left the hand before its end (`rotten`, `left`), None for a player still in."""

    player: int
    grid: Grid | None
    tiles: TileCounts
    tiles_left: int
    first_grid: float | None
    finish: float
    tiles_per_minute: float | None
    peels: int
    dumps: int
    hints: int
    out: str | None

    def to_json(self) -> dict:
        """The record as JSON: grids as rows, tiles as letters."""
        return {
            "player": self.player,
            "grid": self.grid.to_json() if self.grid is not None else None,
            "tiles": self.tiles.letters(),
            "tiles_left": self.tiles_left,
            "first_grid": self.first_grid,
            "finish": self.finish,
            "tiles_per_minute": self.tiles_per_minute,
            "peels": self.peels,
            "dumps": self.dumps,
            "hints": self.hints,
            "out": self.out,
        }


@dataclass(frozen=True)
class HandRecord:
    """The end of one hand: its `end` time and each player's record, by seat."""

    end: float
    players: list[PlayerRecord]

    @property
    def grids(self) -> list[list[str] | None]:
        """Every player's grid as rows (None: no grid): what a `grids` line holds."""
        return [player.grid.to_json() if player.grid is not None else None for player in self.players]


@dataclass
class _Player:
    """What the recorder gathers about one player as the lines come."""

    peels: int = 0
    dumps: int = 0
    hints: int = 0
    first_grid: float | None = None
    finish: float | None = None
    out: str | None = None
    out_tiles: TileCounts = field(default_factory=TileCounts)
    out_grid: Grid | None = None  # the grid called (rotten), or the last one seen (left)


class HandRecorder:
    """The record of one hand, line by line (module docstring). `feed` takes each line of the
    hand's log after the header, in order, up to its `end` (a `LogError` for a line the tiles
    refuse: `solver.coach.logs.Table`); `record` is the end, given the `grids` line."""

    def __init__(self, distribution: TileCounts, players: int):
        self.table = Table(distribution, players)
        self.seats = [_Player() for _ in range(players)]
        self.end: float | None = None

    def feed(self, line: events.LogLine) -> None:
        """One line of the hand (an event, a hint), as the log holds it."""
        kind = events.kind_of(line)
        player = events.player_of(line)
        held = self.table.held[player] if isinstance(player, int) and 0 <= player < len(self.seats) else None
        self.table.check(line, len(self.seats))
        t = events.time_of(line)
        if kind == events.END:
            self.end = t
        if player is None:
            return
        seat, table = self.seats[player], self.table
        if kind == events.PEEL:
            seat.peels += 1
            seat.first_grid = t if seat.first_grid is None else seat.first_grid
        elif kind == events.DUMP:
            seat.dumps += 1
        elif kind == events.HINT:
            seat.hints += 1
        elif kind in (events.SNAPSHOT, events.BANANAS):
            shown = table.shown[player]
            if seat.first_grid is None and shown is not None and shown.tiles() == table.held[player]:
                seat.first_grid = t
            if kind == events.BANANAS and seat.finish is None:
                seat.finish = t
            if kind == events.BANANAS:
                seat.out_grid = shown
        elif kind in (events.ROTTEN, events.LEFT):
            assert held is not None  # the table checked the player
            seat.out, seat.out_tiles = kind, held
            seat.finish = t if seat.finish is None else seat.finish
            if kind == events.LEFT:
                seat.out_grid = table.shown[player]

    def active(self, player: int) -> bool:
        """Whether the player is still in the hand, as the lines so far say."""
        return self.table.active[player]

    def first_grid(self, player: int) -> float | None:
        """The player's first grid so far (module docstring), or None."""
        return self.seats[player].first_grid

    def hints(self, player: int) -> int:
        """The hints the player was shown so far."""
        return self.seats[player].hints

    def record(self, grids: Sequence[Grid | list[str] | None]) -> HandRecord:
        """The end of the hand: `grids` is the grid the table last saw of each player (the
        `grids` line; only the players still in are read from it)."""
        if self.end is None:
            raise ValueError("the hand has not ended")
        end = self.end
        return HandRecord(end, [self.standing(index, rows, end) for index, rows in enumerate(grids)])

    def standing(self, player: int, rows: Grid | list[str] | None, now: float) -> PlayerRecord:
        """A player's record as it stands at clock `now`, `rows` being the grid the table sees
        of them then (read only while they are in: a player out of the hand is what they were
        on going out, as the end will say)."""
        seat = self.seats[player]
        if seat.out is not None:
            grid, tiles = seat.out_grid, seat.out_tiles
        else:
            grid = Grid.from_rows(rows) if isinstance(rows, list) else rows
            tiles = self.table.held[player]
        finish = seat.finish if seat.finish is not None else now
        placed = grid.tiles() if grid is not None else TileCounts()
        first = seat.first_grid
        if first is None and seat.out is None and len(tiles) and placed == tiles:
            first = finish  # seen at the end: the snapshots stopped at their bound before
        on_grid = sum(min(a, b) for a, b in zip(placed.counts, tiles.counts, strict=True))
        return PlayerRecord(
            player=player,
            grid=grid,
            tiles=tiles,
            tiles_left=len(tiles) - int(on_grid),
            first_grid=first,
            finish=finish,
            tiles_per_minute=round(len(placed) * 60 / finish, 1) if finish > 0 and len(placed) else None,
            peels=seat.peels,
            dumps=seat.dumps,
            hints=seat.hints,
            out=seat.out,
        )


def hand_record(log: GameLog, hand: HandLog) -> HandRecord:
    """The record of one hand of a checked log (`solver.coach.read_log`)."""
    recorder = HandRecorder(log.rules.distribution, log.players)
    for line in hand.events:
        recorder.feed(line)
    assert hand.grids is not None  # read_log checked
    return recorder.record(hand.grids)
