"""A grid laid out word by word: how a room shows a bot's work while the referee charges it.

The referee charges a bot's decision as one piece of work that lands when its time is up
(solver.play.hand), so a table that showed only landed work showed a bot's thumbnail empty
for minutes and then whole. People watch a grid grow a word at a time, so a room shows,
while the work is charged, prefixes of the grid it will land: the part of the earlier grid
that stays, then the new grid's words one at a time, in an order where every prefix is one
connected piece and every run of letters shown lies inside a word of the landed grid (a
whole word whenever the order allows it). Each word goes down a tile at a time, from the
tiles laid outward, as a person lays it: a first grid of two long words would otherwise show
nothing for more than half its time. The prefix grows with the time charged, a tile at a
time. This is for show only: the hand, the fair clock and the end of a hand (the landed
work: solver.coach.record) do not read it.
"""

from __future__ import annotations

import functools

from solver.core.grid import Cell, Grid, Word, best_translation, connected_components, find_words

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def word_order(grid: Grid, start: frozenset[Cell] = frozenset()) -> list[Word]:
    """The words of `grid` that hold a cell not in `start`, in the order they are laid after
    `start` (cells of `grid` already shown, one connected piece or none). Each next word
    touches what is laid so far, so every prefix is connected when `grid` is. Among those,
    the one that leaves the fewest runs shown that are not whole words of `grid` comes first,
    then the longest; with nothing laid yet, the longest word starts."""
    words = find_words(grid)
    whole = {word.cells for word in words}
    laid = set(start)
    order = []
    waiting = [word for word in words if not laid.issuperset(word.cells)]
    while waiting:
        touching = [word for word in waiting if touches(word, laid)] or waiting  # (a grid in pieces: go on)
        best = min(touching, key=lambda word: (broken_runs(laid, word, whole), -len(word.cells)))
        order.append(best)
        laid.update(best.cells)
        waiting = [word for word in waiting if not laid.issuperset(word.cells)]
    return order


def tile_order(grid: Grid, start: frozenset[Cell] = frozenset()) -> list[Cell]:
    """The cells of `grid` not in `start`, in the order they are laid: word by word
    (`word_order`), each word's new tiles one at a time, each next to a tile laid (the first
    word from its first letter), so every prefix is one piece and each run in it lies
    inside a word."""
    laid, order = set(start), []
    for word in word_order(grid, start):
        new = [cell for cell in word.cells if cell not in laid]
        while new:
            cell = next((cell for cell in new if touches_cell(cell, laid)), new[0])
            new.remove(cell)
            laid.add(cell)
            order.append(cell)
    return order


def touches_cell(cell: Cell, laid: set[Cell]) -> bool:
    row, col = cell
    return any((row + dr, col + dc) in laid for dr, dc in STEPS)


def touches(word: Word, laid: set[Cell]) -> bool:
    """Whether `word` shares or borders a laid cell (nothing laid: any word may start)."""
    if not laid:
        return True
    return any(cell in laid or touches_cell(cell, laid) for cell in word.cells)


def broken_runs(laid: set[Cell], word: Word, whole: set[tuple[Cell, ...]]) -> int:
    """How many runs of 2+ cells through `word`'s cells, once it is laid, are not whole words
    of the grid (only runs through new cells change)."""
    cells = laid | set(word.cells)
    runs = {run_through(cells, cell, step) for cell in word.cells for step in ((0, 1), (1, 0))}
    return sum(1 for run in runs if len(run) >= 2 and run not in whole)


def run_through(cells: set[Cell], cell: Cell, step: Cell) -> tuple[Cell, ...]:
    """The maximal run of `cells` through `cell` along `step` (across or down), in order."""
    (row, col), (dr, dc) = cell, step
    while (row - dr, col - dc) in cells:
        row, col = row - dr, col - dc
    run = []
    while (row, col) in cells:
        run.append((row, col))
        row, col = row + dr, col + dc
    return tuple(run)


@functools.lru_cache(maxsize=256)  # a table shows each bot's work every second while it is charged
def build_frames(before: Grid | None, after: Grid) -> tuple[int, tuple[Grid, ...]]:
    """How `before` becomes `after`, in `after`'s cells: how many tiles stay (the largest
    connected piece of `before`'s tiles still in place when the two are aligned as the
    referee aligns them, `best_translation`), and the grids shown after each new tile: what
    stays plus the tiles of `after` laid so far (`tile_order`). The last is `after`."""
    cells = after.cells()
    start = frozenset(kept_piece(before, after))
    laid = {cell: cells[cell] for cell in start}
    frames = []
    for cell in tile_order(after, start):
        laid[cell] = cells[cell]
        frames.append(Grid.from_cells(laid))
    return len(start), tuple(frames)


def kept_piece(before: Grid | None, after: Grid) -> list[Cell]:
    """The cells of `after` where `before` left its letter (best aligned): the largest piece."""
    if before is None:
        return []
    (rows, cols), _ = best_translation(before, after)
    cells = after.cells()
    shifted = {(row + rows, col + cols): letter for (row, col), letter in before.cells().items()}
    kept = [cell for cell, letter in shifted.items() if cells.get(cell) == letter]
    pieces = connected_components(kept)
    return pieces[0] if pieces else []


LaidOut = tuple[Grid | None, Grid, tuple[int, tuple[Grid, ...]]]  # before, after, build_frames(before, after)


def laid_out_for(kept: LaidOut | None, before: Grid | None, after: Grid) -> LaidOut:
    """`build_frames(before, after)` with the two grids it was worked out for: `kept` itself
    when it was for the same two (a room shows one work again and again while it is charged)."""
    if kept is not None and kept[0] is before and (kept[1] is after or kept[1] == after):
        return kept
    return before, after, build_frames(before, after)


def grid_while_building(
    before: Grid | None, after: Grid | None, fraction: float, laid_out: tuple[int, tuple[Grid, ...]] | None = None
) -> Grid | None:
    """What the table shows `fraction` (0 to 1) of the way through the work that turns grid
    `before` into `after`: `before` until the first new tile of `after` is laid, then the
    last frame (`build_frames`) whose tiles are at most that fraction of the way from what
    stays to `after`'s. Never `after` itself: the table sees that when the work lands.
    `laid_out`: `build_frames(before, after)` if the caller kept it (a room shows the same
    work again and again while it is charged)."""
    if after is None:  # a grid taken apart: shown when that work lands
        return before
    kept, frames = laid_out if laid_out is not None else build_frames(before, after)
    target = kept + max(0.0, min(1.0, fraction)) * (after.tile_count - kept)
    shown = before
    for frame in frames[:-1]:
        if frame.tile_count > target:
            break
        shown = frame
    return shown
