"""The move search: a resumable depth-first search over whole-word moves (`search`), all its state
in a `Workspace` (`layout`), and `lay_grid`, which starts it from an existing grid. Its Python
side is `solver.search.solving`.
"""

from __future__ import annotations

import numpy as np

from solver.search.kernels.crosschecks import cross_mask, refresh_cross, run_end
from solver.search.kernels.layout import (
    EXHAUSTED,
    F_CMAX,
    F_CMIN,
    F_GENERATED,
    F_HASH,
    F_LETTER_TOP,
    F_MV_END,
    F_MV_NEXT,
    F_MV_START,
    F_RMAX,
    F_RMIN,
    F_UNDO_MARK,
    HASH_MASK,
    KEEP_CAPACITY,
    M_CELL,
    M_DIR,
    M_LEN,
    M_LETTERS,
    MOVE_WIDTH,
    PAUSED,
    RUNNING,
    SOLVED,
    ST_BASE_TILES,
    ST_BOUND_AREA,
    ST_BOUND_DEPTH,
    ST_DEPTH,
    ST_HAND,
    ST_MAX_BRANCH,
    ST_MIN_LEN,
    ST_NODE_LIMIT,
    ST_NODES,
    ST_SIDE,
    ST_STAMP,
    ST_STATUS,
    ST_TT_HITS,
    ST_UNDO_TOP,
    U_KIND,
    U_OLD,
    U_WHERE,
    UNDO_TILE,
)
from solver.search.kernels.movegen import generate_first_words, generate_moves
from solver.search.native import njit  # numba.njit, bound on first use (see native)


@njit(cache=True, nogil=True, _nrt=False)
def mix_hash(cell, code):
    """A 62-bit pseudo-random key for `code` placed at `cell` (splitmix-style mixing).

    Only the low bits of products are kept, so the value is the same with or without JIT.
    """
    x = (int(cell) * 32 + int(code) + 0x9E3779B97F4A7C15) & HASH_MASK  # int(): plain ints without JIT
    x = ((x ^ (x >> 29)) * 0xBF58476D1CE4E5B9) & HASH_MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & HASH_MASK
    return x ^ (x >> 31)


@njit(cache=True, nogil=True, _nrt=False)
def _apply_move(ws, graph, move, depth):
    """Lay move `move` on the grid and fill frame depth+1 (bbox, hash, undo mark)."""
    grid, hand, state, frames, moves, letters, undo = (
        ws.grid,
        ws.hand,
        ws.state,
        ws.frames,
        ws.moves,
        ws.letters,
        ws.undo,
    )
    side = state[ST_SIDE]
    direction = moves[move, M_DIR]
    step = 1 if direction == 0 else side
    perp = side if direction == 0 else 1
    start = moves[move, M_CELL]
    length = moves[move, M_LEN]
    offset = moves[move, M_LETTERS]
    nxt = depth + 1
    frames[nxt, F_UNDO_MARK] = state[ST_UNDO_TOP]
    rmin, rmax = frames[depth, F_RMIN], frames[depth, F_RMAX]
    cmin, cmax = frames[depth, F_CMIN], frames[depth, F_CMAX]
    key = frames[depth, F_HASH]
    for i in range(length):
        cell = start + i * step
        if grid[cell] == 0:
            code = letters[offset + i]
            grid[cell] = code
            hand[code - 1] -= 1
            state[ST_HAND] -= 1
            top = state[ST_UNDO_TOP]
            undo[top, U_KIND] = UNDO_TILE
            undo[top, U_WHERE] = cell
            undo[top, U_OLD] = 0
            state[ST_UNDO_TOP] = top + 1
            key ^= mix_hash(cell, code)
            row = cell // side
            col = cell - row * side
            rmin = min(rmin, row)
            rmax = max(rmax, row)
            cmin = min(cmin, col)
            cmax = max(cmax, col)
    frames[nxt, F_RMIN], frames[nxt, F_RMAX], frames[nxt, F_CMIN], frames[nxt, F_CMAX] = rmin, rmax, cmin, cmax
    frames[nxt, F_HASH] = key
    frames[nxt, F_GENERATED] = 0
    # Cross masks change only at the ends of the runs the move made or lengthened.
    other = 1 - direction
    refresh_cross(ws, graph, run_end(grid, start, step, np.int64(-1)), other)
    refresh_cross(ws, graph, run_end(grid, start, step, np.int64(1)), other)
    for i in range(frames[nxt, F_UNDO_MARK], state[ST_UNDO_TOP]):
        if undo[i, U_KIND] != UNDO_TILE:
            continue
        cell = undo[i, U_WHERE]
        refresh_cross(ws, graph, run_end(grid, cell, perp, np.int64(-1)), direction)
        refresh_cross(ws, graph, run_end(grid, cell, perp, np.int64(1)), direction)


@njit(cache=True, nogil=True, _nrt=False)
def _undo_to(ws, mark):
    """Take back every logged change above `mark` (tiles to the hand, old masks)."""
    grid, hand, state, undo = ws.grid, ws.hand, ws.state, ws.undo
    top = state[ST_UNDO_TOP]
    while top > mark:
        top -= 1
        if undo[top, U_KIND] == UNDO_TILE:
            cell = undo[top, U_WHERE]
            hand[grid[cell] - 1] += 1
            state[ST_HAND] += 1
            grid[cell] = 0
        else:
            ws.cross[undo[top, U_WHERE]] = undo[top, U_OLD]
    state[ST_UNDO_TOP] = top


@njit(cache=True, nogil=True)
def search(ws, graph, ordering):
    """Depth-first grid building, resumable: all state lives in the workspace.

    Runs until the hand is empty (SOLVED), the tree is exhausted (EXHAUSTED) or
    state[ST_NODE_LIMIT] more nodes were expanded (PAUSED); call again to resume. Called
    with status SOLVED, it backtracks from the solution and looks for the next one.
    frames[:, F_GENERATED] == 2 marks a frame whose move list was cut short (by the
    generation budget, the branch cap or a bound), so its exhaustion proves nothing.
    """
    state, frames, tt_keys, tt_stamps = ws.state, ws.frames, ws.tt_keys, ws.tt_stamps
    limit = state[ST_NODES] + state[ST_NODE_LIMIT]
    tt_mask = tt_keys.shape[0] - 1
    stamp = state[ST_STAMP]
    retreat = state[ST_STATUS] == SOLVED
    state[ST_STATUS] = RUNNING
    while True:
        depth = state[ST_DEPTH]
        if not retreat:
            if frames[depth, F_GENERATED] == 0:
                if state[ST_NODES] >= limit:
                    state[ST_STATUS] = PAUSED
                    return
                state[ST_NODES] += 1
                _expand(ws, graph, ordering, depth)
            start = frames[depth, F_MV_NEXT]
            if start < frames[depth, F_MV_END]:
                frames[depth, F_MV_NEXT] = start + 1
                frames[depth + 1, F_MV_START] = frames[depth, F_MV_END]
                frames[depth + 1, F_LETTER_TOP] = frames[depth, F_LETTER_TOP]
                _apply_move(ws, graph, ws.order[start], depth)
                state[ST_DEPTH] = depth + 1
                if state[ST_HAND] == 0:
                    state[ST_STATUS] = SOLVED
                    return
                continue
            # Every move tried: a dead end, remembered unless the list was incomplete.
            if frames[depth, F_GENERATED] == 1:
                slot = frames[depth, F_HASH] & tt_mask
                tt_keys[slot] = frames[depth, F_HASH]
                tt_stamps[slot] = stamp
        retreat = False
        if depth == 0:
            state[ST_STATUS] = EXHAUSTED
            return
        if frames[depth, F_GENERATED] == 2 or frames[depth, F_GENERATED] == 0:
            frames[depth - 1, F_GENERATED] = 2
        _undo_to(ws, frames[depth, F_UNDO_MARK])
        state[ST_DEPTH] = depth - 1


@njit(cache=True, nogil=True)
def _expand(ws, graph, ordering, depth):
    """Generate, order and cap the moves of frame `depth`."""
    state, frames, tt_keys, scores, order = ws.state, ws.frames, ws.tt_keys, ws.scores, ws.order
    move_base = frames[depth, F_MV_START]
    letter_base = frames[depth, F_LETTER_TOP]
    complete = 1
    key = frames[depth, F_HASH]
    slot = key & (tt_keys.shape[0] - 1)
    area = (frames[depth, F_RMAX] - frames[depth, F_RMIN] + 1) * (frames[depth, F_CMAX] - frames[depth, F_CMIN] + 1)
    if depth > 0 and ws.tt_stamps[slot] == state[ST_STAMP] and tt_keys[slot] == key:
        state[ST_TT_HITS] += 1
        move_end, letter_end = move_base, letter_base
    elif depth > 0 and (
        (state[ST_BOUND_AREA] > 0 and area >= state[ST_BOUND_AREA])
        or (state[ST_BOUND_DEPTH] > 0 and depth >= state[ST_BOUND_DEPTH])
    ):
        move_end, letter_end = move_base, letter_base
        complete = 0
    elif depth == 0 and state[ST_BASE_TILES] == 0:
        move_end, letter_end, cut = generate_first_words(ws, graph, ordering)
        complete = 1 - cut
    else:
        bbox = ws.bbox
        bbox[0], bbox[1] = frames[depth, F_RMIN], frames[depth, F_RMAX]
        bbox[2], bbox[3] = frames[depth, F_CMIN], frames[depth, F_CMAX]
        move_end, letter_end, cut = generate_moves(ws, graph, ordering, move_base, letter_base)
        complete = 1 - cut
    cap = min(state[ST_MAX_BRANCH], KEEP_CAPACITY)
    if cap > 0 and move_end - move_base > cap:
        _rank_best(scores, order, ws.kept_scores, move_base, move_end, cap)
        move_end, letter_end = _keep_best(ws, move_base, letter_base, cap)
        complete = 0
    elif move_end > move_base:
        # Stable: ties keep generation order, the same compiled or not (quicksorts break ties differently).
        ranked = np.argsort(-scores[move_base:move_end], kind="mergesort")
        for i in range(move_end - move_base):
            order[move_base + i] = move_base + ranked[i]
    frames[depth, F_MV_END] = move_end
    frames[depth, F_MV_NEXT] = move_base
    frames[depth, F_LETTER_TOP] = letter_end
    frames[depth, F_GENERATED] = 1 if complete else 2


@njit(cache=True, nogil=True, _nrt=False)
def _rank_best(scores, order, best_scores, move_base, move_end, cap):
    """The `cap` best moves of scores[move_base:move_end], best first, into
    order[move_base:move_base + cap]: the first `cap` of the stable sort by score (ties in
    generation order), without sorting the thousands of moves a big hand lists (one pass,
    insertion into the short list; `best_scores` is scratch of at least `cap`)."""
    count = 0
    for move in range(move_base, move_end):
        score = scores[move]
        if count == cap and score <= best_scores[cap - 1]:
            continue
        slot = count if count < cap else cap - 1  # a full list drops its worst
        count = min(count + 1, cap)
        while slot > 0 and best_scores[slot - 1] < score:
            best_scores[slot] = best_scores[slot - 1]
            order[move_base + slot] = order[move_base + slot - 1]
            slot -= 1
        best_scores[slot] = score
        order[move_base + slot] = move


@njit(cache=True, nogil=True, _nrt=False)
def _keep_best(ws, move_base, letter_base, cap):
    """Compact the `cap` best moves (already ranked in `order`; cap <= KEEP_CAPACITY) to
    the front of the frame's region, so deeper frames get the buffer space back. Returns
    the new ends."""
    moves, scores, order, letters = ws.moves, ws.scores, ws.order, ws.letters
    kept, kept_scores, kept_letters = ws.kept_moves, ws.kept_scores, ws.kept_letters
    top = 0
    for i in range(cap):
        move = order[move_base + i]
        for column in range(MOVE_WIDTH):
            kept[i, column] = moves[move, column]
        kept_scores[i] = scores[move]
        offset, length = moves[move, M_LETTERS], moves[move, M_LEN]
        for j in range(length):
            kept_letters[top + j] = letters[offset + j]
        kept[i, M_LETTERS] = letter_base + top
        top += length
    for i in range(cap):
        for column in range(MOVE_WIDTH):
            moves[move_base + i, column] = kept[i, column]
        scores[move_base + i] = kept_scores[i]
        order[move_base + i] = move_base + i
    for j in range(top):
        letters[letter_base + j] = kept_letters[j]
    return move_base + cap, letter_base + top


@njit(cache=True, nogil=True)
def lay_grid(codes, top, left, ws, graph):
    """Put an existing grid (2-D letter codes) on the empty board at (top, left) as frame 0:
    its tiles, bounding box, position key and the cross masks of the empty cells around."""
    grid, cross, state, frames = ws.grid, ws.cross, ws.state, ws.frames
    side = state[ST_SIDE]
    cells = side * side
    min_len = state[ST_MIN_LEN]
    height, width = codes.shape
    rmin, rmax, cmin, cmax = side, -1, side, -1
    key = 0
    placed = 0
    for row in range(height):
        for col in range(width):
            code = codes[row, col]
            if code != 0:
                cell = (top + row) * side + left + col
                grid[cell] = code
                key ^= mix_hash(cell, code)
                placed += 1
                rmin = min(rmin, top + row)
                rmax = max(rmax, top + row)
                cmin = min(cmin, left + col)
                cmax = max(cmax, left + col)
    for row in range(rmin - 1, rmax + 2):
        for col in range(cmin - 1, cmax + 2):
            cell = row * side + col
            if grid[cell] == 0:
                cross[cell] = cross_mask(grid, cell, side, min_len, graph)
                cross[cells + cell] = cross_mask(grid, cell, np.int64(1), min_len, graph)
    frames[0, F_RMIN], frames[0, F_RMAX], frames[0, F_CMIN], frames[0, F_CMAX] = rmin, rmax, cmin, cmax
    frames[0, F_HASH] = key
    state[ST_BASE_TILES] = placed
