"""Run scanning and cross-check masks: what the board's lines allow (layouts in `layout`).

`scan_runs` is the validator's fast twin (`solver.core.grid.validate`, which it is tested
against); `cross_mask` is the letters an empty cell may take given the perpendicular run through
it, and `refresh_cross` keeps a workspace's masks current, logging each change for undo.
"""

from __future__ import annotations

from solver.search.kernels.layout import FULL, ST_MIN_LEN, ST_SIDE, ST_UNDO_TOP, U_KIND, U_OLD, U_WHERE, UNDO_MASK
from solver.search.native import njit  # numba.njit, bound on first use (see native)


@njit(cache=True, nogil=True, _nrt=False)
def scan_runs(grid, graph, min_len, out):
    """List every maximal run of 2+ letters of a 2-D code grid into `out`.

    Each row of `out` is (row, col, direction 0 across / 1 down, length, valid). Returns
    the number of runs, or -1 when `out` is too small.
    """
    child, terminal = graph.child, graph.terminal
    height, width = grid.shape
    count = 0
    for direction in range(2):
        dr = 1 if direction == 1 else 0
        dc = 1 - dr
        for row in range(height):
            for col in range(width):
                if grid[row, col] == 0:
                    continue
                pr, pc = row - dr, col - dc
                if pr >= 0 and pc >= 0 and grid[pr, pc] != 0:
                    continue  # not the first cell of its run
                length = 0
                node = 0
                r, c = row, col
                while r < height and c < width and grid[r, c] != 0:
                    if node >= 0:
                        node = child[node * 26 + grid[r, c] - 1]
                    length += 1
                    r += dr
                    c += dc
                if length < 2:
                    continue
                if count >= out.shape[0]:
                    return -1
                out[count, 0] = row
                out[count, 1] = col
                out[count, 2] = direction
                out[count, 3] = length
                out[count, 4] = 1 if (node >= 0 and terminal[node] == 1 and length >= min_len) else 0
                count += 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def cross_mask(grid, cell, perp, min_len, graph):
    """Letters that may fill empty `cell` given the run through it along `perp`."""
    before = 0
    while grid[cell - (before + 1) * perp] != 0:
        before += 1
    after = 0
    while grid[cell + (after + 1) * perp] != 0:
        after += 1
    if before == 0 and after == 0:
        return FULL
    if before + after + 1 < min_len:
        return 0
    if before == 0:
        # Only a run after the cell: walk it backwards in the reversed DAWG.
        node = 0
        for i in range(after, 0, -1):
            node = graph.rev_child[node * 26 + grid[cell + i * perp] - 1]
            if node < 0:
                return 0
        return graph.rev_end_mask[node]
    child = graph.child
    node = 0
    for i in range(before, 0, -1):
        node = child[node * 26 + grid[cell - i * perp] - 1]
        if node < 0:
            return 0
    if after == 0:
        return graph.end_mask[node]
    mask = 0
    options = graph.next_mask[node]
    for code in range(1, 27):
        if options & (1 << (code - 1)):
            probe = child[node * 26 + code - 1]
            for i in range(1, after + 1):
                probe = child[probe * 26 + grid[cell + i * perp] - 1]
                if probe < 0:
                    break
            if probe >= 0 and graph.terminal[probe] == 1:
                mask |= 1 << (code - 1)
    return mask


@njit(cache=True, nogil=True, _nrt=False)
def refresh_cross(ws, graph, cell, direction):
    """Recompute cross[direction] at empty `cell`, logging the old value for undo."""
    state, cross, undo = ws.state, ws.cross, ws.undo
    side = state[ST_SIDE]
    cells = side * side
    perp = side if direction == 0 else 1
    slot = direction * cells + cell
    new_mask = cross_mask(ws.grid, cell, perp, state[ST_MIN_LEN], graph)
    if new_mask != cross[slot]:
        top = state[ST_UNDO_TOP]
        undo[top, U_KIND] = UNDO_MASK
        undo[top, U_WHERE] = slot
        undo[top, U_OLD] = cross[slot]
        state[ST_UNDO_TOP] = top + 1
        cross[slot] = new_mask


@njit(cache=True, nogil=True, _nrt=False)
def run_end(grid, cell, step, sign):
    """The first empty cell from `cell` going `sign*step` along its run."""
    while grid[cell] != 0:
        cell += sign * step
    return cell
