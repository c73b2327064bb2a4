"""The cell-by-cell search's kernel: complete and slow, the tests' check of the word search on
small hands. `solver.search.exact` is its Python side and explains the pruning. Its names carry
EX_ / _ex_.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.search.kernels.resumable import (
    SEARCH_DEPTH,
    SEARCH_EXHAUSTED,
    SEARCH_FOUND,
    SEARCH_NODES,
    SEARCH_PAUSED,
    SEARCH_RUNNING,
    SEARCH_STATUS,
    pause_or_exhaust,
)
from solver.search.native import njit  # numba.njit, bound on first use (see native)

EX_RUNNING, EX_FOUND, EX_EXHAUSTED, EX_PAUSED = SEARCH_RUNNING, SEARCH_FOUND, SEARCH_EXHAUSTED, SEARCH_PAUSED
# state slots
EX_DEPTH, EX_NODES, EX_STATUS = SEARCH_DEPTH, SEARCH_NODES, SEARCH_STATUS
EX_ROWNODE, EX_ROWLEN, EX_LEFT, EX_NEXT_LABEL, EX_MIN_COL, EX_MAX_COL = range(3, 9)
EX_STATE_SIZE = 10


class ExactSearchState(NamedTuple):
    """The search's arrays: the board and the frontier, and what each depth saves to undo."""

    board: np.ndarray  # uint8[rows*cols]: 0 empty, 1..26 letters
    hand: np.ndarray  # int64[26]: letters not placed yet
    state: np.ndarray  # int64[EX_STATE_SIZE]
    col_node: np.ndarray  # int64[cols]: DAWG node of the run ending at the column's last decided cell
    col_len: np.ndarray  # int64[cols]: its length (0: that cell is empty)
    label: np.ndarray  # int64[cols]: component of the column's last decided cell (0: empty)
    paired: np.ndarray  # int64[cols]: 1 when that cell has a tile beside it in its row
    choice: np.ndarray  # int64[depths]: the last choice tried at each depth (-1: none yet)
    saved: np.ndarray  # int64[depths, 8]: row node and length, column node and length, paired c, c-1, columns used
    saved_label: np.ndarray  # int64[depths, cols]


@njit(cache=True, nogil=True, _nrt=False)
def _ex_ends_well(node: int, length: int, min_length: int, terminal: np.ndarray) -> bool:
    return length <= 1 or (length >= min_length and terminal[node] == 1)


@njit(cache=True, nogil=True, _nrt=False)
def _ex_may_end(node: int, length: int, min_length: int, available: int, graph_next, terminal) -> bool:
    """A run of two or more letters must end in a word: it is one, or a letter left continues it."""
    if length < 2 or (length >= min_length and terminal[node] == 1):
        return True
    return (graph_next[node] & available) != 0


@njit(cache=True, nogil=True, _nrt=False)
def exact_search(x: ExactSearchState, n: int, min_length: int, node_limit: int, child, terminal, graph_next) -> int:
    """Run the search from where it stopped for up to `node_limit` more cells decided; returns
    the status (EX_FOUND leaves the grid on the board; calling again after EX_FOUND looks for the next).
    One function with the arrays in locals: numba passes a bundle to a call by value, its
    reference counts included, which cost more than the work of a cell."""
    board, hand, state, col_node, col_len = x.board, x.hand, x.state, x.col_node, x.col_len
    label, paired, choice, saved, saved_label = x.label, x.paired, x.choice, x.saved, x.saved_label
    cols = 2 * n - 1
    depths = n * cols - (n - 1)
    if state[EX_STATUS] == EX_RUNNING and state[EX_NODES] == 0 and choice[0] == -1:
        state[EX_LEFT] = n
    limit = state[EX_NODES] + node_limit
    depth = state[EX_DEPTH]
    if state[EX_STATUS] == EX_FOUND:
        depth -= 1  # resume: try the next choice of the last cell
    state[EX_STATUS] = EX_RUNNING
    while True:
        stop = pause_or_exhaust(state, depth, limit)
        if stop != SEARCH_RUNNING:
            return stop
        if depth == depths:
            ok = state[EX_LEFT] == 0
            only = 0
            for c in range(cols):
                if not _ex_ends_well(col_node[c], col_len[c], min_length, terminal):
                    ok = False
                if col_len[c] == 1 and paired[c] == 0:
                    ok = False
                if label[c] != 0:
                    if only != 0 and label[c] != only:
                        ok = False
                    only = label[c]
            if ok:
                state[EX_DEPTH] = depth
                state[EX_STATUS] = EX_FOUND
                return EX_FOUND
            depth -= 1
            continue
        cell = (n - 1) + depth
        col = cell % cols
        if choice[depth] == -1:  # first visit: save what the cell's choices change
            row = saved[depth]
            row[0], row[1], row[2], row[3] = state[EX_ROWNODE], state[EX_ROWLEN], col_node[col], col_len[col]
            row[4] = paired[col]
            row[5] = paired[col - 1] if col > 0 else 0
            row[6], row[7] = state[EX_MIN_COL], state[EX_MAX_COL]
            for c in range(cols):
                saved_label[depth, c] = label[c]
            pick = 1 if depth == 0 else 0  # the first tile is a tile
        else:  # undo the last choice
            if board[cell] != 0:
                hand[board[cell] - 1] += 1
                state[EX_LEFT] += 1
                board[cell] = 0
            row = saved[depth]
            state[EX_ROWNODE], state[EX_ROWLEN], col_node[col], col_len[col] = row[0], row[1], row[2], row[3]
            paired[col] = row[4]
            if col > 0:
                paired[col - 1] = row[5]
            state[EX_MIN_COL], state[EX_MAX_COL] = row[6], row[7]
            for c in range(cols):
                label[c] = saved_label[depth, c]
            pick = choice[depth] + 1
        row_node, row_len = state[EX_ROWNODE], state[EX_ROWLEN]
        up_node, up_len = col_node[col], col_len[col]
        up = label[col]
        chosen = -1
        if pick == 0:
            ok = row_len == 0 or _ex_ends_well(row_node, row_len, min_length, terminal)
            ok = ok and (up_len == 0 or _ex_ends_well(up_node, up_len, min_length, terminal))
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
                ok = still_open or not (others or state[EX_LEFT] > 0)
            if ok:
                chosen = 0
            else:
                pick = 1
        # A connected set of n cells spans h rows and w columns with h + w - 1 <= n.
        span_ok = cell // cols + 1 + max(state[EX_MAX_COL], col) - min(state[EX_MIN_COL], col) <= n
        if chosen == -1 and state[EX_LEFT] > 0 and span_ok:
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
                if not _ex_may_end(next_row, row_len + 1, min_length, after, graph_next, terminal):
                    continue
                if not _ex_may_end(next_col, up_len + 1, min_length, after, graph_next, terminal):
                    continue
                if col == cols - 1 and not _ex_ends_well(next_row, row_len + 1, min_length, terminal):
                    continue  # the row ends at the board's edge
                chosen = letter + 1
                state[EX_MIN_COL], state[EX_MAX_COL] = min(state[EX_MIN_COL], col), max(state[EX_MAX_COL], col)
                hand[letter] -= 1
                state[EX_LEFT] -= 1
                board[cell] = chosen
                state[EX_ROWNODE], state[EX_ROWLEN] = next_row, row_len + 1
                col_node[col], col_len[col] = next_col, up_len + 1
                left = label[col - 1] if left_tile else 0
                paired[col] = 1 if left_tile else 0
                if left_tile:
                    paired[col - 1] = 1
                if up == 0 and left == 0:
                    label[col] = state[EX_NEXT_LABEL]
                    state[EX_NEXT_LABEL] += 1
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
            state[EX_ROWNODE], state[EX_ROWLEN] = 0, 0
            col_node[col], col_len[col], paired[col], label[col] = 0, 0, 0, 0
        if col == cols - 1:
            state[EX_ROWNODE], state[EX_ROWLEN] = 0, 0
        choice[depth] = chosen
        state[EX_NODES] += 1
        depth += 1
        if depth < depths:
            choice[depth] = -1
