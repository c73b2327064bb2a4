"""A complete search, cell by cell: settles the hands the whole-word move model cannot.

The move model (`solver.search.kernels`) grows a grid one whole word at a time, every
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
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.search.native import njit

RUNNING, FOUND, EXHAUSTED, PAUSED = 0, 1, 2, 3
# state slots
S_DEPTH, S_NODES, S_STATUS, S_ROWNODE, S_ROWLEN, S_LEFT, S_NEXT_LABEL, S_MIN_COL, S_MAX_COL = range(9)
STATE_SIZE = 10


class Exact(NamedTuple):
    """The search's arrays: the board and the frontier, and what each depth saves to undo."""

    board: np.ndarray  # uint8[rows*cols]: 0 empty, 1..26 letters
    hand: np.ndarray  # int64[26]: letters not placed yet
    state: np.ndarray  # int64[STATE_SIZE]
    col_node: np.ndarray  # int64[cols]: DAWG node of the run ending at the column's last decided cell
    col_len: np.ndarray  # int64[cols]: its length (0: that cell is empty)
    label: np.ndarray  # int64[cols]: component of the column's last decided cell (0: empty)
    paired: np.ndarray  # int64[cols]: 1 when that cell has a tile beside it in its row
    choice: np.ndarray  # int64[depths]: the last choice tried at each depth (-1: none yet)
    saved: np.ndarray  # int64[depths, 8]: row node and length, column node and length, paired c, c-1, columns used
    saved_label: np.ndarray  # int64[depths, cols]


def new_exact(tiles: np.ndarray) -> Exact:
    """The arrays for a hand of letter counts `tiles` (int[26]), at the start of the search."""
    n = int(tiles.sum())
    rows, cols = n, 2 * n - 1
    depths = rows * cols - (n - 1) + 1
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[S_NEXT_LABEL] = 1
    state[S_MIN_COL], state[S_MAX_COL] = n - 1, n - 1  # the first tile's column
    choice = np.full(depths, -1, dtype=np.int64)
    return Exact(
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


@njit(cache=True, nogil=True)
def _ends_well(node: int, length: int, min_length: int, terminal: np.ndarray) -> bool:
    return length <= 1 or (length >= min_length and terminal[node] == 1)


@njit(cache=True, nogil=True)
def _may_end(node: int, length: int, min_length: int, available: int, graph_next, terminal) -> bool:
    """A run of two or more letters must end in a word: it is one, or a letter left continues it."""
    if length < 2 or (length >= min_length and terminal[node] == 1):
        return True
    return (graph_next[node] & available) != 0


@njit(cache=True, nogil=True)
def exact_search(x: Exact, n: int, min_length: int, node_limit: int, child, terminal, graph_next) -> int:
    """Run the search from where it stopped for up to `node_limit` more cells decided; returns
    the status (FOUND leaves the grid on the board; calling again after FOUND looks for the next).
    One function with the arrays in locals: numba passes a bundle to a call by value, its
    reference counts included, which cost more than the work of a cell."""
    board, hand, state, col_node, col_len = x.board, x.hand, x.state, x.col_node, x.col_len
    label, paired, choice, saved, saved_label = x.label, x.paired, x.choice, x.saved, x.saved_label
    cols = 2 * n - 1
    depths = n * cols - (n - 1)
    if state[S_STATUS] == RUNNING and state[S_NODES] == 0 and choice[0] == -1:
        state[S_LEFT] = n
    limit = state[S_NODES] + node_limit
    depth = state[S_DEPTH]
    if state[S_STATUS] == FOUND:
        depth -= 1  # resume: try the next choice of the last cell
    state[S_STATUS] = RUNNING
    while True:
        if state[S_NODES] >= limit:
            state[S_DEPTH] = depth
            state[S_STATUS] = PAUSED
            return PAUSED
        if depth < 0:
            state[S_DEPTH] = 0
            state[S_STATUS] = EXHAUSTED
            return EXHAUSTED
        if depth == depths:
            ok = state[S_LEFT] == 0
            only = 0
            for c in range(cols):
                if not _ends_well(col_node[c], col_len[c], min_length, terminal):
                    ok = False
                if col_len[c] == 1 and paired[c] == 0:
                    ok = False
                if label[c] != 0:
                    if only != 0 and label[c] != only:
                        ok = False
                    only = label[c]
            if ok:
                state[S_DEPTH] = depth
                state[S_STATUS] = FOUND
                return FOUND
            depth -= 1
            continue
        cell = (n - 1) + depth
        col = cell % cols
        if choice[depth] == -1:  # first visit: save what the cell's choices change
            row = saved[depth]
            row[0], row[1], row[2], row[3] = state[S_ROWNODE], state[S_ROWLEN], col_node[col], col_len[col]
            row[4] = paired[col]
            row[5] = paired[col - 1] if col > 0 else 0
            row[6], row[7] = state[S_MIN_COL], state[S_MAX_COL]
            for c in range(cols):
                saved_label[depth, c] = label[c]
            pick = 1 if depth == 0 else 0  # the first tile is a tile
        else:  # undo the last choice
            if board[cell] != 0:
                hand[board[cell] - 1] += 1
                state[S_LEFT] += 1
                board[cell] = 0
            row = saved[depth]
            state[S_ROWNODE], state[S_ROWLEN], col_node[col], col_len[col] = row[0], row[1], row[2], row[3]
            paired[col] = row[4]
            if col > 0:
                paired[col - 1] = row[5]
            state[S_MIN_COL], state[S_MAX_COL] = row[6], row[7]
            for c in range(cols):
                label[c] = saved_label[depth, c]
            pick = choice[depth] + 1
        row_node, row_len = state[S_ROWNODE], state[S_ROWLEN]
        up_node, up_len = col_node[col], col_len[col]
        up = label[col]
        chosen = -1
        if pick == 0:
            ok = row_len == 0 or _ends_well(row_node, row_len, min_length, terminal)
            ok = ok and (up_len == 0 or _ends_well(up_node, up_len, min_length, terminal))
            ok = ok and not (up_len == 1 and paired[col] == 0)  # the tile above would be alone
            if ok and up != 0:
                still_open = False
                others = False
                for c in range(cols):
                    if c != col and label[c] == up:
                        still_open = True
                    elif c != col and label[c] != 0:
                        others = True
                # a finished component, and tiles elsewhere or still to place
                ok = still_open or not (others or state[S_LEFT] > 0)
            if ok:
                chosen = 0
            else:
                pick = 1
        # A connected set of n cells spans h rows and w columns with h + w - 1 <= n.
        span_ok = cell // cols + 1 + max(state[S_MAX_COL], col) - min(state[S_MIN_COL], col) <= n
        if chosen == -1 and state[S_LEFT] > 0 and span_ok:
            available = 0
            for letter in range(26):
                if hand[letter] > 0:
                    available |= 1 << letter
            candidates = available
            if row_len > 0:
                candidates &= graph_next[row_node]
            if up_len > 0:
                candidates &= graph_next[up_node]
            left_tile = col > 0 and board[cell - 1] != 0
            for letter in range(max(pick, 1) - 1, 26):
                if not (candidates >> letter) & 1:
                    continue
                after = available if hand[letter] > 1 else available & ~(1 << letter)
                next_row = child[row_node * 26 + letter]
                next_col = child[up_node * 26 + letter]
                if not _may_end(next_row, row_len + 1, min_length, after, graph_next, terminal):
                    continue
                if not _may_end(next_col, up_len + 1, min_length, after, graph_next, terminal):
                    continue
                if col == cols - 1 and not _ends_well(next_row, row_len + 1, min_length, terminal):
                    continue  # the row ends at the board's edge
                chosen = letter + 1
                state[S_MIN_COL], state[S_MAX_COL] = min(state[S_MIN_COL], col), max(state[S_MAX_COL], col)
                hand[letter] -= 1
                state[S_LEFT] -= 1
                board[cell] = chosen
                state[S_ROWNODE], state[S_ROWLEN] = next_row, row_len + 1
                col_node[col], col_len[col] = next_col, up_len + 1
                left = label[col - 1] if left_tile else 0
                paired[col] = 1 if left_tile else 0
                if left_tile:
                    paired[col - 1] = 1
                if up == 0 and left == 0:
                    label[col] = state[S_NEXT_LABEL]
                    state[S_NEXT_LABEL] += 1
                elif up == 0 or left == 0 or up == left:
                    label[col] = up if up != 0 else left
                else:
                    label[col] = left
                    for c in range(cols):
                        if label[c] == up:
                            label[c] = left
                break
        if chosen == -1:  # no choice left here: back up
            choice[depth] = -1
            depth -= 1
            continue
        if chosen == 0:
            state[S_ROWNODE], state[S_ROWLEN] = 0, 0
            col_node[col], col_len[col], paired[col], label[col] = 0, 0, 0, 0
        if col == cols - 1:
            state[S_ROWNODE], state[S_ROWLEN] = 0, 0
        choice[depth] = chosen
        state[S_NODES] += 1
        depth += 1
        if depth < depths:
            choice[depth] = -1


def exact_grid(tiles, lexicon, min_length: int, deadline: float, node_budget: int | None = None):
    """(status, grid or None, cells decided): 'solved' with a grid, 'no-grid' when the search is
    complete without one, 'timeout' when `deadline` (perf_counter) or `node_budget` came first."""
    import time

    from solver.core.grid import Grid

    counts = tiles.counts.astype(np.int64)
    n = int(counts.sum())
    x = new_exact(counts)
    graph = lexicon.forward
    slice_nodes = 20_000
    while True:
        if node_budget is not None:
            slice_nodes = max(1, min(slice_nodes, node_budget - int(x.state[S_NODES])))
        started = time.perf_counter()
        status = exact_search(x, n, min_length, slice_nodes, graph.child, graph.terminal, graph.next_mask)
        nodes = int(x.state[S_NODES])
        if status == FOUND:
            cols = 2 * n - 1
            cells = {(int(k) // cols, int(k) % cols): chr(64 + int(x.board[k])) for k in np.nonzero(x.board)[0]}
            return "solved", Grid.from_cells(cells), nodes
        if status == EXHAUSTED:
            return "no-grid", None, nodes
        now = time.perf_counter()
        if now >= deadline or (node_budget is not None and nodes >= node_budget):
            return "timeout", None, nodes
        per_node = (now - started) / max(slice_nodes, 1)
        slice_nodes = int(max(1000, min(slice_nodes * 2, min((deadline - now) / 4, 0.02) / max(per_node, 1e-9))))
