"""The one seat adapter for a player whose moves come from outside the engine.

A person at a browser room's table and a program over the engine protocol's hosted game
play the same way: the engine deals them tiles and judges their calls; they build their
grid in their own time and show it. `RemoteSeat` is that seat, with the `Bot` interface
(`solver.play.rules.Bot`) the hand drives every player through; `decide` answers
`remote`, so the hand never waits on it. A Spellevate match seats it the same way
(`begin`: the deal told; its moves come through `SpellevateMatch.move`).

Two grids, on purpose. The outside shows a grid whenever it likes (a page sends one on
every move, from the event loop, while a bot may be thinking in a worker thread): that is
the *live* grid (`show`, `show_grid`, `board`, `rack`), which spellchecks and the other
players' thumbnails read at once. The hand takes the live grid in only at moments of its
own choosing (`adopt`, at the start of each event and of each outside call) and records it
in its journal: the *adopted* grid (`current_grid`) is the one the rules and the other
players' views see. So the hand is a function of its inputs and their places among its
events, and `solver.play.hand.replay` rebuilds it exactly, however the threads interleaved.

A lock keeps the tiles and the live grid consistent between the engine's thread and the
outside: the live grid only ever uses tiles the player holds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeGuard

from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.play.rules import Decision, Rules, TableView
from solver.play.spellevate import SeatView

Cell = tuple[int, int]
TilesSent = Callable[[TileCounts, str], None]  # (tiles, "split" | "draw"): tell the player


class TilesNotHeld(ValueError):
    """A grid shown with tiles the player does not hold."""


class RemoteSeat:
    """A person's or a program's seat at a hand (module docstring). `on_tiles`, if given, is
    called with each deal and draw (the tiles and "split" or "draw"); `sent` counts those
    calls (what a protocol's `seen` counts) and `answered` how many a call has answered."""

    speed = 1.0

    def __init__(self, name: str, on_tiles: TilesSent | None = None):
        self.name = name
        self.on_tiles = on_tiles
        self.lock = threading.Lock()
        self.tiles = TileCounts()
        self.cells: dict[Cell, str] = {}  # the live grid, in the outside's own coordinates
        self.grid: Grid | None = None  # Grid.from_cells(cells); None when the board is empty
        self.rack_tiles = TileCounts()  # tiles - the live grid's tiles
        self.adopted: Grid | None = None  # the grid the hand has taken in (`adopt`)
        self.sent = 0
        self.answered = 0

    # -- the hand's side (the Bot interface) ---------------------------------------------------
    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        """A new deal (or out of the hand, with no tiles): an empty board, the tiles told."""
        with self.lock:
            self.tiles, self.cells, self.grid, self.rack_tiles, self.adopted = tiles, {}, None, tiles, None
            self.answered = self.sent  # a new deal, or out of the hand: nothing old to answer
        if len(tiles):
            self.tell(tiles, "split")

    def receive(self, tiles: TileCounts) -> None:
        """Tiles drawn (a PEEL's, a DUMP's three): into the rack, and told."""
        with self.lock:
            self.tiles, self.rack_tiles = self.tiles + tiles, self.rack_tiles + tiles
        self.tell(tiles, "draw")

    def tell(self, tiles: TileCounts, reason: str) -> None:
        """Tell the outside of `tiles` ("split" or "draw"), and count it."""
        self.sent += 1
        if self.on_tiles is not None:
            self.on_tiles(tiles, reason)

    def give_back(self, tile: str) -> None:
        """A DUMP of `tile` was honoured. The hand judged it on the adopted grid; the live one
        may have laid that tile since: then it leaves the live grid (the outside resyncs)."""
        returned = TileCounts.from_letters(tile)
        with self.lock:
            if not self.rack_tiles.contains(returned):
                cell = next(cell for cell, letter in self.cells.items() if letter == tile)
                self._set_live({at: letter for at, letter in self.cells.items() if at != cell})
                self.rack_tiles = self.rack_tiles + returned
            self.tiles, self.rack_tiles = self.tiles - returned, self.rack_tiles - returned

    def begin(self, view: SeatView) -> None:
        """A Spellevate round dealt (the `SpellevateBot` interface): its hand told as a split.
        The match keeps the hand; the seat's moves come through `SpellevateMatch.move`."""
        self.tell(view.hand, "split")

    def decide(self, view: TableView) -> Decision:
        """Always "remote": the seat decides on its own time, through `Hand.external_call`."""
        return Decision("remote")

    def holding(self) -> TileCounts:
        """Every tile the seat holds, on its grid and in its rack."""
        return self.tiles

    def current_grid(self) -> Grid | None:
        """The grid the hand has adopted (what the rules and the other players see)."""
        return self.adopted

    def adopt(self) -> tuple[bool, Grid | None]:
        """Take the live grid in: (whether it differs from the adopted one, the grid)."""
        with self.lock:
            changed = self.grid != self.adopted
            self.adopted = self.grid
            return changed, self.grid

    # -- the outside's side --------------------------------------------------------------------
    def show(self, cells: dict[Cell, str]) -> None:
        """The grid as the player now has it, cell by cell (TilesNotHeld: nothing changes)."""
        used = TileCounts.from_letters("".join(cells.values()))
        with self.lock:
            if not self.tiles.contains(used):
                raise TilesNotHeld("the grid holds tiles the player does not have")
            self._set_live(cells)
            self.rack_tiles = self.tiles - used

    def show_grid(self, grid: Grid | None) -> None:
        """`show` for a Grid (None: an empty board)."""
        self.show(grid.cells() if grid is not None else {})

    def _set_live(self, cells: dict[Cell, str]) -> None:
        self.cells, self.grid = cells, Grid.from_cells(cells) if cells else None

    def rack(self) -> TileCounts:
        """The tiles not on the live grid."""
        return self.rack_tiles

    def snapshot(self) -> tuple[TileCounts, dict[Cell, str]]:
        """Every tile held, and the live grid's cells (a copy)."""
        with self.lock:
            return self.tiles, dict(self.cells)

    def board(self) -> tuple[dict[Cell, str], Grid | None]:
        """The live grid: its cells (a copy) and the Grid."""
        with self.lock:
            return dict(self.cells), self.grid

    @property
    def to_answer(self) -> bool:
        """Tiles were sent that no call has answered yet."""
        return self.answered < self.sent


def is_remote(bot: object) -> TypeGuard[RemoteSeat]:
    """Whether a seat's player decides outside the hand (a `RemoteSeat`)."""
    return isinstance(bot, RemoteSeat)
