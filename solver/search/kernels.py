"""All numba code: the run scanner and the resumable grid-building search.

Every kernel takes flat numpy arrays (no typed List/Dict, no globals, no recursion) and
is compiled with `cache=True` and `nogil=True` (they touch no Python objects, so server
sessions in worker threads can search on both cores at once). Each has a pure-Python reference it is tested against:
`scan_runs` against `solver.core.grid.validate`, `generate_moves` against
`solver.search.reference.generate_moves_reference`, and the search through the validator on its
output (and `exhaustive_grid_exists` for its no-grid answers on small hands).

Board layout
------------
The search keeps the grid in one flat uint8 array of side `side` (cell = row*side + col),
0 = empty, 1..26 = A..Z. `side` is 2*tiles + 5 and the first word is laid from the
centre, so no word can reach the outermost ring: neighbour reads never leave the array
and the grid never needs recentring. A move runs along a line with `step` (1 across,
`side` down); its cross direction is `perp` (the other one).

`cross[d*cells + cell]` holds the 26-bit mask of letters that may go in an empty cell for
a word in direction d (0 across, 1 down), given the perpendicular run through it; bit
(code-1) is letter `code`. FULL means no perpendicular neighbour. Masks are updated only
at the ends of runs a move touched, and every change is logged for undo.
"""

from __future__ import annotations

import numpy as np

from solver.search.native import njit  # numba.njit, bound on first use (see native)

FULL = (1 << 26) - 1
REACH = 16  # columns of the DAWG's reach table (solver.lexicon.dawg)
HASH_MASK = (1 << 62) - 1

# Search status codes (state[ST_STATUS]).
RUNNING, SOLVED, EXHAUSTED, PAUSED = 0, 1, 2, 3

# Slots of the int64 `state` vector shared between Python and the kernel:
#   SIDE board side; DEPTH current frame; NODES frames expanded so far; NODE_LIMIT nodes
#   to expand in this call; STATUS one of the codes above; HAND tiles left in the hand;
#   MIN_LEN shortest legal word; MAX_BRANCH moves kept per frame (0 = all); UNDO_TOP
#   height of the undo log; STAMP this search's transposition-table stamp; GEN_BUDGET
#   DAWG steps allowed per move generation; TT_HITS positions skipped as already
#   searched; BOUND_AREA / BOUND_DEPTH prune frames whose box area / depth cannot beat
#   the best grid so far (0 = no bound); BASE_TILES tiles laid before the search (a
#   grid being extended; 0 = start from an empty board with a first word).
ST_SIDE, ST_DEPTH, ST_NODES, ST_NODE_LIMIT, ST_STATUS, ST_HAND, ST_MIN_LEN = 0, 1, 2, 3, 4, 5, 6
ST_MAX_BRANCH, ST_UNDO_TOP, ST_STAMP, ST_GEN_BUDGET, ST_TT_HITS, ST_BOUND_AREA, ST_BOUND_DEPTH = 7, 8, 9, 10, 11, 12, 13
ST_BASE_TILES = 14
STATE_SIZE = 15

# Columns of the per-depth table `frames` (frame d = the position after d moves):
#   MV_START / MV_END / MV_NEXT its move list in `moves` (via `order`) and the next to
#   try; UNDO_MARK undo-log height before the move that made it; RMIN..CMAX its tiles'
#   bounding box; HASH its position key; GENERATED 0 not yet, 1 complete list, 2 cut
#   short (then its exhaustion proves nothing); LETTER_TOP end of its moves' letters.
F_MV_START, F_MV_END, F_MV_NEXT, F_UNDO_MARK, F_RMIN, F_RMAX, F_CMIN, F_CMAX, F_HASH, F_GENERATED, F_LETTER_TOP = range(
    11
)
FRAME_WIDTH = 11

# Columns of the move table `moves`: first cell, direction (0 across, 1 down), length,
# offset of its letters in `letters`, number of hand tiles it places.
M_CELL, M_DIR, M_LEN, M_LETTERS, M_NEW = range(5)
MOVE_WIDTH = 5

MAX_WORD = 64
VOWELS_MASK = (1 << 0) | (1 << 4) | (1 << 8) | (1 << 14) | (1 << 20)  # A E I O U


# -- small helpers ----------------------------------------------------------------------


@njit(cache=True, nogil=True)
def mix_hash(cell, code):
    """A 62-bit pseudo-random key for `code` placed at `cell` (splitmix-style mixing).

    Only the low bits of products are kept, so the value is the same with or without JIT.
    """
    x = (int(cell) * 32 + int(code) + 0x9E3779B97F4A7C15) & HASH_MASK  # int(): plain ints without JIT
    x = ((x ^ (x >> 29)) * 0xBF58476D1CE4E5B9) & HASH_MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & HASH_MASK
    return x ^ (x >> 31)


# -- run scanning (the validator's fast twin) ------------------------------------------


@njit(cache=True, nogil=True)
def scan_runs(grid, child, terminal, min_len, out):
    """List every maximal run of 2+ letters of a 2-D code grid into `out`.

    Each row of `out` is (row, col, direction 0 across / 1 down, length, valid). Returns
    the number of runs, or -1 when `out` is too small.
    """
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


# -- cross-check masks ------------------------------------------------------------------


@njit(cache=True, nogil=True)
def cross_mask(grid, cell, perp, min_len, child, terminal, next_mask, end_mask, rchild, rend_mask):
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
            node = rchild[node * 26 + grid[cell + i * perp] - 1]
            if node < 0:
                return 0
        return rend_mask[node]
    node = 0
    for i in range(before, 0, -1):
        node = child[node * 26 + grid[cell - i * perp] - 1]
        if node < 0:
            return 0
    if after == 0:
        return end_mask[node]
    mask = 0
    options = next_mask[node]
    for code in range(1, 27):
        if options & (1 << (code - 1)):
            probe = child[node * 26 + code - 1]
            for i in range(1, after + 1):
                probe = child[probe * 26 + grid[cell + i * perp] - 1]
                if probe < 0:
                    break
            if probe >= 0 and terminal[probe] == 1:
                mask |= 1 << (code - 1)
    return mask


@njit(cache=True, nogil=True)
def refresh_cross(
    grid, cross, cell, direction, state, undo, min_len, child, terminal, next_mask, end_mask, rchild, rend_mask
):
    """Recompute cross[direction] at empty `cell`, logging the old value for undo."""
    side = state[ST_SIDE]
    cells = side * side
    perp = side if direction == 0 else 1
    slot = direction * cells + cell
    new_mask = cross_mask(grid, cell, perp, min_len, child, terminal, next_mask, end_mask, rchild, rend_mask)
    if new_mask != cross[slot]:
        top = state[ST_UNDO_TOP]
        undo[top, 0] = 1
        undo[top, 1] = slot
        undo[top, 2] = cross[slot]
        state[ST_UNDO_TOP] = top + 1
        cross[slot] = new_mask


@njit(cache=True, nogil=True)
def run_end(grid, cell, step, sign):
    """The first empty cell from `cell` going `sign*step` along its run."""
    while grid[cell] != 0:
        cell += sign * step
    return cell


# -- move generation --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _record_move(
    moves,
    scores,
    letters,
    move_count,
    letter_top,
    start_cell,
    direction,
    length,
    word,
    new_count,
    weight,
    vowels_left,
    consonants_left,
    weights,
    rng_state,
    noise,
):
    """Append one move with its ordering score; returns False when the buffers are full.

    Score = the new tiles' weights (hard letters first) + a per-tile bonus (long moves
    first) - leave terms (a hand of only vowels or only consonants, or an unbalanced one).
    """
    if move_count >= moves.shape[0] or letter_top + length > letters.shape[0]:
        return False
    moves[move_count, M_CELL] = start_cell
    moves[move_count, M_DIR] = direction
    moves[move_count, M_LEN] = length
    moves[move_count, M_LETTERS] = letter_top
    moves[move_count, M_NEW] = new_count
    for i in range(length):
        letters[letter_top + i] = word[i]
    score = weight + weights[26] * new_count
    left = vowels_left + consonants_left
    if left > 0:
        if vowels_left == 0 or consonants_left == 0:
            score -= weights[27] * left
        else:
            score -= weights[28] * abs(consonants_left - 2 * vowels_left)
    if noise > 0.0:
        rng_state[0] = (int(rng_state[0]) * 6364136223846793005 + 1442695040888963407) & HASH_MASK
        score += noise * ((rng_state[0] >> 20) & 0xFFFF) / 65536.0
    scores[move_count] = score
    return True


@njit(cache=True, nogil=True)
def _hand_summary(hand):
    """(mask of letters present, vowel tiles, consonant tiles)."""
    mask = 0
    vowels = 0
    consonants = 0
    for code in range(26):
        if hand[code] > 0:
            mask |= 1 << code
            if VOWELS_MASK & (1 << code):
                vowels += hand[code]
            else:
                consonants += hand[code]
    return mask, vowels, consonants


@njit(cache=True, nogil=True)
def _list_anchors(grid, state, bbox, anchors):
    """Fill `anchors` with (direction, line, pos, previous anchor pos) rows; return the count.

    An anchor is a cell a new word along the line must reach: a tile, or an empty cell
    with a perpendicular neighbour (a hook). Lines outside bbox +-1 have none.
    """
    side = state[ST_SIDE]
    hand_count = state[ST_HAND]
    count = 0
    for direction in range(2):
        step = 1 if direction == 0 else side
        perp = side if direction == 0 else 1
        if direction == 0:
            line_lo, line_hi, pos_lo, pos_hi = bbox[0] - 1, bbox[1] + 1, bbox[2] - 1, bbox[3] + 1
        else:
            line_lo, line_hi, pos_lo, pos_hi = bbox[2] - 1, bbox[3] + 1, bbox[0] - 1, bbox[1] + 1
        for line in range(line_lo, line_hi + 1):
            base = line * side if direction == 0 else line
            previous = max(bbox[2] if direction == 0 else bbox[0], 1 + hand_count) - hand_count - 1
            for pos in range(pos_lo, pos_hi + 1):
                cell = base + pos * step
                if grid[cell] != 0 or grid[cell - perp] != 0 or grid[cell + perp] != 0:
                    anchors[count, 0] = direction
                    anchors[count, 1] = line
                    anchors[count, 2] = pos
                    anchors[count, 3] = previous
                    previous = pos
                    count += 1
    return count


@njit(cache=True, nogil=True)
def generate_moves(
    grid,
    cross,
    hand,
    state,
    bbox,
    moves,
    scores,
    letters,
    move_base,
    letter_base,
    weights,
    rng_state,
    noise,
    child,
    terminal,
    next_mask,
    reach,
):
    """All moves from the current position into moves[move_base:], letters[letter_base:].

    A move is a word along one line that places at least one hand tile, touches the grid
    (runs through a tile or hooks onto one) and keeps every cross word valid. Start
    squares are taken nearest their anchor first, so when the step budget
    (state[ST_GEN_BUDGET], split evenly over the anchors) cuts generation short, the
    moves kept are the ones anchored closest. Returns (move_end, letter_end, truncated).
    """
    side = state[ST_SIDE]
    hand_count = state[ST_HAND]
    anchors = np.empty((4 * (bbox[1] - bbox[0] + 3) * (bbox[3] - bbox[2] + 3), 4), dtype=np.int64)
    anchor_count = _list_anchors(grid, state, bbox, anchors)
    budget = state[ST_GEN_BUDGET]
    per_start = budget
    if state[ST_MAX_BRANCH] > 0:  # capped search: share the budget among anchors
        per_start = max(budget // max(anchor_count, 1), 2000)
    buffers = np.zeros((7, MAX_WORD + 1), dtype=np.int64)
    weight_at = np.zeros(MAX_WORD + 1, dtype=np.float64)
    cursor = np.zeros(3, dtype=np.int64)  # move count, letter top, truncated
    cursor[0] = move_base
    cursor[1] = letter_base
    spent = 0
    for dist in range(hand_count + 1):
        any_start = False
        for i in range(anchor_count):
            direction, line, anchor, previous = anchors[i, 0], anchors[i, 1], anchors[i, 2], anchors[i, 3]
            start = anchor - dist
            if start <= previous or start < 1:
                continue
            step = 1 if direction == 0 else side
            base = line * side if direction == 0 else line
            anchor_cell = base + anchor * step
            if dist + (1 if grid[anchor_cell] == 0 else 0) > hand_count:
                continue
            start_cell = base + start * step
            if grid[start_cell - step] != 0:
                continue
            any_start = True
            limit = min(per_start, budget - spent)
            if limit <= 0:
                cursor[2] = 1
                break
            if grid[anchor_cell] != 0:
                anchor_need, anchor_empty = 1 << (int(grid[anchor_cell]) - 1), False  # int(): uint8 without JIT
            else:
                anchor_need, anchor_empty = cross[direction * side * side + anchor_cell], True
            spent += _extend_from(
                grid,
                cross,
                hand,
                state,
                start_cell,
                direction,
                side - 2 - start,
                moves,
                scores,
                letters,
                cursor,
                weights,
                rng_state,
                noise,
                limit,
                buffers,
                weight_at,
                child,
                terminal,
                next_mask,
                reach,
                dist,
                anchor_need,
                anchor_empty,
                True,
                0,
            )
        if not any_start or cursor[2] == 1 and spent >= budget:
            break
    return cursor[0], cursor[1], cursor[2]


@njit(cache=True, nogil=True)
def _extend_from(
    grid,
    cross,
    hand,
    state,
    start_cell,
    direction,
    room,
    moves,
    scores,
    letters,
    cursor,
    weights,
    rng_state,
    noise,
    budget,
    buffers,
    weight_at,
    child,
    terminal,
    next_mask,
    reach,
    gap,
    anchor_need,
    anchor_empty,
    need_touch,
    touch_letters,
):
    """Every word starting at `start_cell` along `direction` (an iterative DFS where level
    k decides the letter of cell start+k), at most `room` cells long. Appends moves
    through `cursor`; returns the DAWG steps taken. A word must touch the grid (pass over a
    tile or hook onto one) or, for the empty grid's first word, hold a letter of
    `touch_letters`; with need_touch False any word goes.

    The first anchor is `gap` cells after the start (gap < 0: none) and must take a letter
    of `anchor_need` (and of the hand, when it is an empty hook): a prefix whose DAWG node
    cannot reach such a letter at that distance is dropped at once, using `reach`.
    """
    side = state[ST_SIDE]
    min_len = state[ST_MIN_LEN]
    hand_count = state[ST_HAND]
    cells = side * side
    step = 1 if direction == 0 else side
    perp = side if direction == 0 else 1
    node_at, tried, fixed, new_at, touch_at, word = (
        buffers[0],
        buffers[1],
        buffers[2],
        buffers[3],
        buffers[4],
        buffers[5],
    )
    hand_mask, vowels, consonants = _hand_summary(hand)
    steps = 0
    k = 0
    node_at[0] = 0
    new_at[0] = 0
    touch_at[0] = 0 if need_touch else 1
    weight_at[0] = 0.0
    enter = True
    while k >= 0:
        cell = start_cell + k * step
        if enter:
            enter = False
            if grid[cell] != 0:
                fixed[k] = 1
                tried[k] = 1
            else:
                fixed[k] = 0
                tried[k] = next_mask[node_at[k]] & cross[direction * cells + cell] & hand_mask
                if touch_letters != 0 and touch_at[k] == 0 and reach[node_at[k]] & touch_letters == 0:
                    tried[k] = 0  # first word: the hard letter cannot come any more
                ahead = gap - k + 1
                if 1 < ahead < REACH:
                    need = anchor_need & hand_mask if anchor_empty else anchor_need
                    if reach[node_at[k] * REACH + ahead] & need == 0:
                        tried[k] = 0
        if tried[k] == 0:  # level exhausted: retreat, giving back the letter below
            k -= 1
            if k >= 0 and fixed[k] == 0:
                hand_mask, vowels, consonants = _return_tile(hand, word[k], hand_mask, vowels, consonants)
            continue
        if fixed[k]:
            tried[k] = 0
            code = grid[cell]
            new_count = new_at[k]
            touched = 1
            weight = weight_at[k]
        else:
            bit = tried[k] & (-tried[k])
            tried[k] ^= bit
            code = 1
            while (1 << (code - 1)) != bit:
                code += 1
            hand[code - 1] -= 1
            if hand[code - 1] == 0:
                hand_mask ^= bit
            if VOWELS_MASK & bit:
                vowels -= 1
            else:
                consonants -= 1
            new_count = new_at[k] + 1
            touched = touch_at[k]
            if grid[cell - perp] != 0 or grid[cell + perp] != 0 or touch_letters & bit:
                touched = 1
            weight = weight_at[k] + weights[code - 1]
        word[k] = code
        nxt = child[node_at[k] * 26 + code - 1]
        if nxt < 0:  # only a fixed tile can leave the DAWG
            continue
        steps += 1
        length = k + 1
        after = cell + step
        if (
            grid[after] == 0
            and terminal[nxt] == 1
            and new_count > 0
            and touched == 1
            and length >= min_len
            and not (
                direction == 1 and new_count == 1 and _single_is_across(grid, word, length, start_cell, step, perp)
            )
        ):
            move = cursor[0]
            if _record_move(
                moves,
                scores,
                letters,
                move,
                cursor[1],
                start_cell,
                direction,
                length,
                word,
                new_count,
                weight,
                vowels,
                consonants,
                weights,
                rng_state,
                noise,
            ):
                cursor[1] += length
                cursor[0] = move + 1
            else:
                cursor[2] = 1
        if (
            next_mask[nxt] != 0
            and length < room
            and length < MAX_WORD
            and (grid[after] != 0 or new_count < hand_count)
            and steps < budget
            and cursor[2] == 0
        ):
            new_at[k + 1] = new_count
            touch_at[k + 1] = touched
            weight_at[k + 1] = weight
            node_at[k + 1] = nxt
            k += 1
            enter = True
        elif fixed[k] == 0:
            hand_mask, vowels, consonants = _return_tile(hand, code, hand_mask, vowels, consonants)
    if steps >= budget:
        cursor[2] = 1
    return steps


@njit(cache=True, nogil=True)
def _return_tile(hand, code, hand_mask, vowels, consonants):
    """Put tile `code` back in the hand; returns the updated (mask, vowels, consonants)."""
    hand[code - 1] += 1
    hand_mask |= 1 << (code - 1)
    if VOWELS_MASK & (1 << (code - 1)):
        return hand_mask, vowels + 1, consonants
    return hand_mask, vowels, consonants + 1


@njit(cache=True, nogil=True)
def _single_is_across(grid, word, length, start_cell, step, perp):
    """A one-new-tile down move whose tile also has a horizontal neighbour: the across
    pass lists the same placement, so the down pass skips it."""
    for i in range(length):
        cell = start_cell + i * step
        if grid[cell] == 0:
            return grid[cell - perp] != 0 or grid[cell + perp] != 0
    return False


@njit(cache=True, nogil=True)
def generate_first_words(
    grid, cross, hand, state, moves, scores, letters, weights, rng_state, noise, child, terminal, next_mask, below_mask
):
    """Moves for an empty grid: the words the hand spells that hold its hardest letter
    (highest weight), laid across from the centre.

    Every tile ends up in some word, so some word of any grid holds the hardest letter;
    starting there spends it first and keeps the root narrow. (`below_mask` takes the
    place of `reach` in the extender: with no anchor, that argument prunes by letter.)
    """
    side = state[ST_SIDE]
    centre = side // 2
    hardest = 0
    for code in range(26):
        if hand[code] > 0 and (hardest == 0 or weights[code] > weights[hardest - 1]):
            hardest = code + 1
    buffers = np.zeros((7, MAX_WORD + 1), dtype=np.int64)
    weight_at = np.zeros(MAX_WORD + 1, dtype=np.float64)
    cursor = np.zeros(3, dtype=np.int64)
    _extend_from(
        grid,
        cross,
        hand,
        state,
        centre * side + centre,
        0,
        side - 2 - centre,
        moves,
        scores,
        letters,
        cursor,
        weights,
        rng_state,
        noise,
        state[ST_GEN_BUDGET],
        buffers,
        weight_at,
        child,
        terminal,
        next_mask,
        below_mask,
        -1,
        0,
        False,
        True,
        1 << (hardest - 1),
    )
    return cursor[0], cursor[1], cursor[2]


@njit(cache=True, nogil=True)
def _apply_move(
    grid,
    cross,
    hand,
    state,
    frames,
    moves,
    letters,
    undo,
    move,
    depth,
    child,
    terminal,
    next_mask,
    end_mask,
    rchild,
    rend_mask,
):
    """Lay move `move` on the grid and fill frame depth+1 (bbox, hash, undo mark)."""
    side = state[ST_SIDE]
    min_len = state[ST_MIN_LEN]
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
            undo[top, 0] = 0
            undo[top, 1] = cell
            undo[top, 2] = 0
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
    refresh_cross(
        grid,
        cross,
        run_end(grid, start, step, -1),
        other,
        state,
        undo,
        min_len,
        child,
        terminal,
        next_mask,
        end_mask,
        rchild,
        rend_mask,
    )
    refresh_cross(
        grid,
        cross,
        run_end(grid, start, step, 1),
        other,
        state,
        undo,
        min_len,
        child,
        terminal,
        next_mask,
        end_mask,
        rchild,
        rend_mask,
    )
    for i in range(frames[nxt, F_UNDO_MARK], state[ST_UNDO_TOP]):
        if undo[i, 0] != 0:
            continue
        cell = undo[i, 1]
        refresh_cross(
            grid,
            cross,
            run_end(grid, cell, perp, -1),
            direction,
            state,
            undo,
            min_len,
            child,
            terminal,
            next_mask,
            end_mask,
            rchild,
            rend_mask,
        )
        refresh_cross(
            grid,
            cross,
            run_end(grid, cell, perp, 1),
            direction,
            state,
            undo,
            min_len,
            child,
            terminal,
            next_mask,
            end_mask,
            rchild,
            rend_mask,
        )


@njit(cache=True, nogil=True)
def _undo_to(grid, cross, hand, state, undo, mark):
    """Take back every logged change above `mark` (tiles to the hand, old masks)."""
    top = state[ST_UNDO_TOP]
    while top > mark:
        top -= 1
        if undo[top, 0] == 0:
            cell = undo[top, 1]
            hand[grid[cell] - 1] += 1
            state[ST_HAND] += 1
            grid[cell] = 0
        else:
            cross[undo[top, 1]] = undo[top, 2]
    state[ST_UNDO_TOP] = top


@njit(cache=True, nogil=True)
def search(
    grid,
    cross,
    hand,
    state,
    frames,
    moves,
    scores,
    order,
    letters,
    undo,
    tt_keys,
    tt_stamps,
    weights,
    rng_state,
    noise,
    child,
    terminal,
    next_mask,
    end_mask,
    reach,
    below_mask,
    rchild,
    rend_mask,
):
    """Depth-first grid building, resumable: all state lives in the arrays.

    Runs until the hand is empty (SOLVED), the tree is exhausted (EXHAUSTED) or
    state[ST_NODE_LIMIT] more nodes were expanded (PAUSED); call again to resume. Called
    with status SOLVED, it backtracks from the solution and looks for the next one.
    frames[:, F_GENERATED] == 2 marks a frame whose move list was cut short (by the
    generation budget, the branch cap or a bound), so its exhaustion proves nothing.
    """
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
                _expand(
                    grid,
                    cross,
                    hand,
                    state,
                    frames,
                    moves,
                    scores,
                    order,
                    letters,
                    tt_keys,
                    tt_stamps,
                    weights,
                    rng_state,
                    noise,
                    depth,
                    child,
                    terminal,
                    next_mask,
                    reach,
                    below_mask,
                )
            start = frames[depth, F_MV_NEXT]
            if start < frames[depth, F_MV_END]:
                frames[depth, F_MV_NEXT] = start + 1
                frames[depth + 1, F_MV_START] = frames[depth, F_MV_END]
                frames[depth + 1, F_LETTER_TOP] = frames[depth, F_LETTER_TOP]
                _apply_move(
                    grid,
                    cross,
                    hand,
                    state,
                    frames,
                    moves,
                    letters,
                    undo,
                    order[start],
                    depth,
                    child,
                    terminal,
                    next_mask,
                    end_mask,
                    rchild,
                    rend_mask,
                )
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
        _undo_to(grid, cross, hand, state, undo, frames[depth, F_UNDO_MARK])
        state[ST_DEPTH] = depth - 1


@njit(cache=True, nogil=True)
def _expand(
    grid,
    cross,
    hand,
    state,
    frames,
    moves,
    scores,
    order,
    letters,
    tt_keys,
    tt_stamps,
    weights,
    rng_state,
    noise,
    depth,
    child,
    terminal,
    next_mask,
    reach,
    below_mask,
):
    """Generate, order and cap the moves of frame `depth`."""
    move_base = frames[depth, F_MV_START]
    letter_base = frames[depth, F_LETTER_TOP]
    complete = 1
    key = frames[depth, F_HASH]
    slot = key & (tt_keys.shape[0] - 1)
    area = (frames[depth, F_RMAX] - frames[depth, F_RMIN] + 1) * (frames[depth, F_CMAX] - frames[depth, F_CMIN] + 1)
    if depth > 0 and tt_stamps[slot] == state[ST_STAMP] and tt_keys[slot] == key:
        state[ST_TT_HITS] += 1
        move_end, letter_end = move_base, letter_base
    elif depth > 0 and (
        (state[ST_BOUND_AREA] > 0 and area >= state[ST_BOUND_AREA])
        or (state[ST_BOUND_DEPTH] > 0 and depth >= state[ST_BOUND_DEPTH])
    ):
        move_end, letter_end = move_base, letter_base
        complete = 0
    elif depth == 0 and state[ST_BASE_TILES] == 0:
        move_end, letter_end, cut = generate_first_words(
            grid,
            cross,
            hand,
            state,
            moves,
            scores,
            letters,
            weights,
            rng_state,
            noise,
            child,
            terminal,
            next_mask,
            below_mask,
        )
        complete = 1 - cut
    else:
        bbox = np.empty(4, dtype=np.int64)
        bbox[0], bbox[1] = frames[depth, F_RMIN], frames[depth, F_RMAX]
        bbox[2], bbox[3] = frames[depth, F_CMIN], frames[depth, F_CMAX]
        move_end, letter_end, cut = generate_moves(
            grid,
            cross,
            hand,
            state,
            bbox,
            moves,
            scores,
            letters,
            move_base,
            letter_base,
            weights,
            rng_state,
            noise,
            child,
            terminal,
            next_mask,
            reach,
        )
        complete = 1 - cut
    if move_end > move_base:
        ranked = np.argsort(-scores[move_base:move_end])
        for i in range(move_end - move_base):
            order[move_base + i] = move_base + ranked[i]
        cap = state[ST_MAX_BRANCH]
        if cap > 0 and move_end - move_base > cap:
            move_end, letter_end = _keep_best(moves, scores, order, letters, move_base, letter_base, cap)
            complete = 0
    frames[depth, F_MV_END] = move_end
    frames[depth, F_MV_NEXT] = move_base
    frames[depth, F_LETTER_TOP] = letter_end
    frames[depth, F_GENERATED] = 1 if complete else 2


@njit(cache=True, nogil=True)
def hostable_letters(hand, min_len, budget, child, terminal, next_mask):
    """Bit mask of the hand's letters that appear in at least one word the hand spells.

    A tile whose letter is in no such word can never be placed: the hand has no grid.
    Stops early once every letter of the hand is covered, or after `budget` DAWG steps
    (then returns -1: unknown).
    """
    wanted = 0
    for code in range(26):
        if hand[code] > 0:
            wanted |= 1 << code
    covered = 0
    node_at = np.zeros(MAX_WORD + 1, dtype=np.int64)
    tried = np.zeros(MAX_WORD + 1, dtype=np.int64)
    word = np.zeros(MAX_WORD + 1, dtype=np.int64)
    path = np.zeros(MAX_WORD + 1, dtype=np.int64)
    steps = 0
    k = 0
    enter = True
    while k >= 0:
        if enter:
            enter = False
            hand_mask = 0
            for code in range(26):
                if hand[code] > 0:
                    hand_mask |= 1 << code
            # Only branch into letters that can still add something new, or lead on.
            tried[k] = next_mask[node_at[k]] & hand_mask
        if tried[k] == 0:
            k -= 1
            if k >= 0:
                hand[word[k] - 1] += 1
            continue
        bit = tried[k] & (-tried[k])
        tried[k] ^= bit
        code = 1
        while (1 << (code - 1)) != bit:
            code += 1
        hand[code - 1] -= 1
        word[k] = code
        path[k + 1] = path[k] | bit
        nxt = child[node_at[k] * 26 + code - 1]
        steps += 1
        if terminal[nxt] == 1 and k + 1 >= min_len:
            covered |= path[k + 1]
            if covered & wanted == wanted:
                for i in range(k + 1):
                    hand[word[i] - 1] += 1
                return covered & wanted
        if steps >= budget:
            for i in range(k + 1):
                hand[word[i] - 1] += 1
            return -1
        if next_mask[nxt] != 0 and k + 1 < MAX_WORD:
            node_at[k + 1] = nxt
            k += 1
            enter = True
        else:
            hand[code - 1] += 1
    return covered & wanted


@njit(cache=True, nogil=True)
def _keep_best(moves, scores, order, letters, move_base, letter_base, cap):
    """Compact the `cap` best moves (already ranked in `order`) to the front of the frame's
    region, so deeper frames get the buffer space back. Returns the new ends.

    Element loops rather than fancy indexing and slice assignment: same work, but numba
    compiles them in a fraction of the time (no shape-error formatting)."""
    width = moves.shape[1]
    kept = np.empty((cap, width), dtype=np.int64)
    kept_scores = np.empty(cap, dtype=np.float64)
    total = 0
    for i in range(cap):
        source = order[move_base + i]
        for j in range(width):
            kept[i, j] = moves[source, j]
        kept_scores[i] = scores[source]
        total += kept[i, M_LEN]
    kept_letters = np.empty(total, dtype=letters.dtype)
    top = 0
    for i in range(cap):
        offset, length = kept[i, M_LETTERS], kept[i, M_LEN]
        for k in range(length):
            kept_letters[top + k] = letters[offset + k]
        kept[i, M_LETTERS] = letter_base + top
        top += length
    for i in range(cap):
        for j in range(width):
            moves[move_base + i, j] = kept[i, j]
        scores[move_base + i] = kept_scores[i]
        order[move_base + i] = move_base + i
    for k in range(total):
        letters[letter_base + k] = kept_letters[k]
    return move_base + cap, letter_base + total


@njit(cache=True, nogil=True)
def lay_grid(codes, top, left, grid, cross, state, frames, child, terminal, next_mask, end_mask, rchild, rend_mask):
    """Put an existing grid (2-D letter codes) on the empty board at (top, left) as frame 0:
    its tiles, bounding box, position key and the cross masks of the empty cells around."""
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
                cross[cell] = cross_mask(
                    grid, cell, side, min_len, child, terminal, next_mask, end_mask, rchild, rend_mask
                )
                cross[cells + cell] = cross_mask(
                    grid, cell, 1, min_len, child, terminal, next_mask, end_mask, rchild, rend_mask
                )
    frames[0, F_RMIN], frames[0, F_RMAX], frames[0, F_CMIN], frames[0, F_CMAX] = rmin, rmax, cmin, cmax
    frames[0, F_HASH] = key
    state[ST_BASE_TILES] = placed
