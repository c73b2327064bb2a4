"""A complete search, cell by cell: settles the hands the whole-word move model cannot.

The move model (`solver.search.kernels.movesearch`) grows a grid one whole word at a time, every
intermediate grid valid; a grid none of whose build orders stays valid (dense corners, words
side by side) lies outside it, so its exhaustion is no proof. This search decides every cell
instead, so when it ends without a grid, none exists.

The board. Any grid of n tiles has a first tile in reading order (top row, leftmost tile); put
it at row 0, column n - 1 of a board of n rows and 2n - 1 columns. Every grid then has exactly
one place on the board (the rows below the first tile's are at most n - 1; the columns at most
n - 1 either side), and the cells before the first tile are empty. The search decides the
cells after it in reading order, each empty or one of the hand's letters, depth first.

What it prunes, each a property every valid grid has, checked as soon as it is decided:

- a run being built along a row or a column spells a prefix of a word (the forward DAWG), and
  a run of two or more letters can still end in a word: it is one, or a remaining letter
  continues it;
- a run that ends (an empty cell, the board's edge) is one letter, or a word of at least
  `min_length` letters;
- no tile is alone: a tile whose row run and column run both end at one letter is isolated;
- connected: the tiles are tracked in components, by the labels of the last decided cell of
  each column (a frontier one row deep); a component none of whose tiles is on the frontier
  can grow no more, so it must be the only one and the hand must be spent.

Every grid it returns passes `solver.core.grid.validate` (the caller checks); its "no grid"
answers are tested against `solver.search.reference.exhaustive_grid_exists` on small hands.
The search keeps all its state in arrays, so it runs in slices under a deadline.
Its kernel, `exact_search`, and the bundle `ExactSearchState` are in `solver.search.kernels.exact`.
"""

from __future__ import annotations

import numpy as np

from solver.search.kernels import exact as kernel
from solver.search.native import search_clock


def new_exact(tiles: np.ndarray) -> kernel.ExactSearchState:
    """The arrays for a hand of letter counts `tiles` (int[26]), at the start of the search."""
    n = int(tiles.sum())
    rows, cols = n, 2 * n - 1
    depths = rows * cols - (n - 1) + 1
    state = np.zeros(kernel.EX_STATE_SIZE, dtype=np.int64)
    state[kernel.EX_NEXT_LABEL] = 1
    state[kernel.EX_MIN_COL], state[kernel.EX_MAX_COL] = n - 1, n - 1  # the first tile's column
    choice = np.full(depths, -1, dtype=np.int64)
    return kernel.ExactSearchState(
        np.zeros(rows * cols, dtype=np.uint8),
        tiles.astype(np.int64).copy(),
        state,
        np.zeros(cols, dtype=np.int64),
        np.zeros(cols, dtype=np.int64),
        np.zeros(cols, dtype=np.int64),
        np.zeros(cols, dtype=np.int64),
        choice,
        np.zeros((depths, 8), dtype=np.int64),
        np.zeros((depths, cols), dtype=np.int64),
    )


def exact_grid(tiles, lexicon, min_length: int, deadline: float, node_budget: int | None = None):
    """(status, grid or None, cells decided): 'solved' with a grid, 'no-grid' when the search is
    complete without one, 'timeout' when `deadline` (`native.search_clock`) or `node_budget` came first."""

    from solver.core.grid import Grid

    counts = tiles.counts.astype(np.int64)
    n = int(counts.sum())
    x = new_exact(counts)
    graph = lexicon.forward
    slice_nodes = 20_000
    while True:
        if node_budget is not None:
            slice_nodes = max(1, min(slice_nodes, node_budget - int(x.state[kernel.EX_NODES])))
        started = search_clock()
        status = kernel.exact_search(x, n, min_length, slice_nodes, graph.child, graph.terminal, graph.next_mask)
        nodes = int(x.state[kernel.EX_NODES])
        if status == kernel.EX_FOUND:
            cols = 2 * n - 1
            cells = {(int(k) // cols, int(k) % cols): chr(64 + int(x.board[k])) for k in np.nonzero(x.board)[0]}
            return "solved", Grid.from_cells(cells), nodes
        if status == kernel.EX_EXHAUSTED:
            return "no-grid", None, nodes
        now = search_clock()
        if now >= deadline or (node_budget is not None and nodes >= node_budget):
            return "timeout", None, nodes
        per_node = (now - started) / max(slice_nodes, 1)
        slice_nodes = int(max(1000, min(slice_nodes * 2, min((deadline - now) / 4, 0.02) / max(per_node, 1e-9))))
