"""All numba code: the run scanner, the resumable grid-building search, and the two complete
searches that settle small hands (the word search, `solver.search.wordsearch`, and the
cell-by-cell search that checks it, `solver.search.exact`: their sections at the end).

Every kernel takes flat numpy arrays, or `typing.NamedTuple`s of them (no typed List/Dict,
no globals, no recursion), and is compiled with `cache=True` and `nogil=True` (they touch
no Python objects, so server sessions in worker threads can search on both cores at once).
Each has a pure-Python reference it is tested against: `scan_runs` against
`solver.core.grid.validate`, `generate_moves` against
`solver.search.reference.generate_moves_reference`, and the search through the validator on
its output (and `exhaustive_grid_exists` for its no-grid answers on small hands).

Bundles
-------
The search's arrays travel in three NamedTuples, so a call names each array once and two
arrays of the same type cannot be swapped by position:

  `Graph`      the word graph: the forward DAWG's arrays and the reversed-word DAWG's two
               the kernels read (`solver.lexicon.dawg` documents each, bit by bit);
  `Ordering`   the move-ordering weights (per letter, per tile, leave terms, noise);
  `Workspace`  the board, the search's tables and the scratch buffers it reuses on every
               node (nothing is allocated per node except numba's argsort of a move list).

Build them with `graph_of`, `ordering` and `new_workspace` (plain Python, below).

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

from typing import NamedTuple

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

# The undo log `undo`: one row per change, (kind, where, old value). UNDO_TILE: a hand tile
# laid at cell `where` (undone by returning it to the hand); UNDO_MASK: cross[where] was
# `old value`.
U_KIND, U_WHERE, U_OLD = 0, 1, 2
UNDO_TILE, UNDO_MASK = 0, 1

# Rows of the scratch table `walk` (one column per letter of the word being built):
# the DAWG node before each letter, the letters still to try there, whether the cell holds a
# grid tile, hand tiles placed so far, whether the word touches the grid yet, the letter.
WALK_NODE, WALK_TRIED, WALK_FIXED, WALK_NEW, WALK_TOUCH, WALK_WORD = range(6)
WALK_ROWS = 6

# Columns of the scratch table `anchors`: direction, line, position, previous anchor's position.
A_DIR, A_LINE, A_POS, A_PREVIOUS = range(4)
# Each board tile makes at most 3 anchors per direction (itself, an empty cell on either side).
ANCHORS_PER_TILE = 6

# The scratch `cursor` of move generation: moves listed, letters used, 1 = cut short.
C_MOVES, C_LETTERS, C_TRUNCATED = 0, 1, 2

MAX_WORD = 64
# NO_LITERALS: numba compiles a kernel called from another kernel once per pattern of constant
# arguments (a literal 0 and a variable are two specialisations, each compiled in full), so
# kernel-to-kernel calls pass constants as np.int64(...) or computed values: one specialisation each.
START_STEPS_FLOOR = 2000  # DAWG steps a start square may take at least, in a capped search
KEEP_CAPACITY = 256  # largest move-list cap (state[ST_MAX_BRANCH]) the scratch buffers take
VOWELS_MASK = (1 << 0) | (1 << 4) | (1 << 8) | (1 << 14) | (1 << 20)  # A E I O U


class Graph(NamedTuple):
    """The word-graph arrays the kernels read (layouts in `solver.lexicon.dawg`)."""

    child: np.ndarray  # forward DAWG: int32[N*26] dense edges
    terminal: np.ndarray  # uint8[N]
    next_mask: np.ndarray  # int32[N]
    end_mask: np.ndarray  # int32[N]
    reach: np.ndarray  # int32[N*REACH]
    below_mask: np.ndarray  # int32[N]
    rev_child: np.ndarray  # reversed-word DAWG: walks a run backwards from its end
    rev_end_mask: np.ndarray


class Ordering(NamedTuple):
    """Move-ordering weights. A move scores the weights of the letters it places, plus
    `per_tile` per tile (long moves first), minus the leave terms: `one_sided_leave` per
    tile left in a vowel-only or consonant-only hand, `balance` per unit of
    |consonants - 2 vowels| left; plus seeded noise of amplitude `noise` (0 = none)."""

    letter: np.ndarray  # float64[26], index 0 = A
    per_tile: float
    one_sided_leave: float
    balance: float
    noise: float


class Workspace(NamedTuple):
    """A search's board and tables (see the module docstring for each layout), and the
    scratch buffers the kernels reuse (their contents mean nothing between calls)."""

    grid: np.ndarray  # uint8[side*side]
    cross: np.ndarray  # int32[2*side*side]
    hand: np.ndarray  # int64[26] tiles not on the board
    state: np.ndarray  # int64[STATE_SIZE]
    frames: np.ndarray  # int64[max_tiles + 2, FRAME_WIDTH]
    moves: np.ndarray  # int64[capacity, MOVE_WIDTH]
    scores: np.ndarray  # float64[capacity]
    order: np.ndarray  # int64[capacity]: moves of a frame, best first
    letters: np.ndarray  # uint8[letter capacity]: the moves' words
    undo: np.ndarray  # int64[rows, 3]: the undo log
    tt_keys: np.ndarray  # int64[2**k]: transposition table (dead-end position keys)
    tt_stamps: np.ndarray  # int64[2**k]: the search that wrote each key
    rng: np.ndarray  # int64[1]: the noise generator's state
    anchors: np.ndarray  # scratch int64[rows, 4]
    walk: np.ndarray  # scratch int64[WALK_ROWS, MAX_WORD + 1]
    walk_weight: np.ndarray  # scratch float64[MAX_WORD + 1]: letter weights so far
    cursor: np.ndarray  # scratch int64[3]
    bbox: np.ndarray  # scratch int64[4]: rmin, rmax, cmin, cmax
    kept_moves: np.ndarray  # scratch int64[KEEP_CAPACITY, MOVE_WIDTH]
    kept_scores: np.ndarray  # scratch float64[KEEP_CAPACITY]
    kept_letters: np.ndarray  # scratch uint8[KEEP_CAPACITY * MAX_WORD]


def graph_of(forward, reverse) -> Graph:
    """The kernels' bundle from a lexicon's forward and reversed `WordGraph`s."""
    return Graph(
        forward.child,
        forward.terminal,
        forward.next_mask,
        forward.end_mask,
        forward.reach,
        forward.below_mask,
        reverse.child,
        reverse.end_mask,
    )


def ordering(
    letter: np.ndarray, per_tile: float, one_sided_leave: float, balance: float, noise: float = 0.0
) -> Ordering:
    """An `Ordering` with every scalar a float (an int would compile a second specialisation)."""
    return Ordering(
        np.ascontiguousarray(letter, dtype=np.float64),
        float(per_tile),
        float(one_sided_leave),
        float(balance),
        float(noise),
    )


def new_workspace(
    max_tiles: int, move_capacity: int, letter_capacity: int, tt_size: int, max_board_tiles: int | None = None
) -> Workspace:
    """Buffers for hands of up to `max_tiles` (board side 2*max_tiles + 5) with up to
    `max_board_tiles` tiles on the board at once (a grid being extended; default max_tiles)."""
    side = 2 * max_tiles + 5
    cells = side * side
    board_tiles = max(max_tiles, max_board_tiles or 0)
    return Workspace(
        grid=np.zeros(cells, dtype=np.uint8),
        cross=np.full(2 * cells, FULL, dtype=np.int32),
        hand=np.zeros(26, dtype=np.int64),
        state=np.zeros(STATE_SIZE, dtype=np.int64),
        frames=np.zeros((max_tiles + 2, FRAME_WIDTH), dtype=np.int64),
        moves=np.zeros((move_capacity, MOVE_WIDTH), dtype=np.int64),
        scores=np.zeros(move_capacity, dtype=np.float64),
        order=np.zeros(move_capacity, dtype=np.int64),
        letters=np.zeros(letter_capacity, dtype=np.uint8),
        undo=np.zeros((16 * max_tiles + 64, 3), dtype=np.int64),
        tt_keys=np.zeros(tt_size, dtype=np.int64),
        tt_stamps=np.zeros(tt_size, dtype=np.int64),
        rng=np.zeros(1, dtype=np.int64),
        anchors=np.zeros((ANCHORS_PER_TILE * board_tiles + 16, 4), dtype=np.int64),
        walk=np.zeros((WALK_ROWS, MAX_WORD + 1), dtype=np.int64),
        walk_weight=np.zeros(MAX_WORD + 1, dtype=np.float64),
        cursor=np.zeros(3, dtype=np.int64),
        bbox=np.zeros(4, dtype=np.int64),
        kept_moves=np.zeros((KEEP_CAPACITY, MOVE_WIDTH), dtype=np.int64),
        kept_scores=np.zeros(KEEP_CAPACITY, dtype=np.float64),
        kept_letters=np.zeros(KEEP_CAPACITY * MAX_WORD, dtype=np.uint8),
    )


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


# -- cross-check masks ------------------------------------------------------------------


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
    cursor,
    rng,
    ordering,
    word,
    start_cell,
    direction,
    length,
    new_count,
    weight,
    vowels_left,
    consonants_left,
):
    """Append `word` as a move with its ordering score (see `Ordering`) at the generation
    cursor; returns False when the buffers are full. Arrays as in `_walk_words`."""
    move_count, letter_top = cursor[C_MOVES], cursor[C_LETTERS]
    if move_count >= moves.shape[0] or letter_top + length > letters.shape[0]:
        return False
    moves[move_count, M_CELL] = start_cell
    moves[move_count, M_DIR] = direction
    moves[move_count, M_LEN] = length
    moves[move_count, M_LETTERS] = letter_top
    moves[move_count, M_NEW] = new_count
    for i in range(length):
        letters[letter_top + i] = word[i]
    score = weight + ordering.per_tile * new_count
    left = vowels_left + consonants_left
    if left > 0:
        if vowels_left == 0 or consonants_left == 0:
            score -= ordering.one_sided_leave * left
        else:
            score -= ordering.balance * abs(consonants_left - 2 * vowels_left)
    if ordering.noise > 0.0:
        rng[0] = (int(rng[0]) * 6364136223846793005 + 1442695040888963407) & HASH_MASK
        score += ordering.noise * ((rng[0] >> 20) & 0xFFFF) / 65536.0
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
def _list_anchors(ws):
    """Fill ws.anchors with (direction, line, pos, previous anchor pos) rows for the box
    ws.bbox; return the count, or -1 when the table is full.

    An anchor is a cell a new word along the line must reach: a tile, or an empty cell
    with a perpendicular neighbour (a hook). Lines outside bbox +-1 have none.
    """
    grid, bbox, anchors = ws.grid, ws.bbox, ws.anchors
    side = ws.state[ST_SIDE]
    hand_count = ws.state[ST_HAND]
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
                    if count >= anchors.shape[0]:
                        return -1
                    anchors[count, A_DIR] = direction
                    anchors[count, A_LINE] = line
                    anchors[count, A_POS] = pos
                    anchors[count, A_PREVIOUS] = previous
                    previous = pos
                    count += 1
    return count


@njit(cache=True, nogil=True)
def generate_moves(ws, graph, ordering, move_base, letter_base):
    """All moves from the current position (tiles inside ws.bbox) into moves[move_base:],
    letters[letter_base:].

    A move is a word along one line that places at least one hand tile, touches the grid
    (runs through a tile or hooks onto one) and keeps every cross word valid. Start
    squares are taken nearest their anchor first, so when the step budget
    (state[ST_GEN_BUDGET], split evenly over the anchors) cuts generation short, the
    moves kept are the ones anchored closest. Returns (move_end, letter_end, truncated).
    """
    return _generate(ws, graph, ordering, move_base, letter_base, np.int64(0))


@njit(cache=True, nogil=True)
def hardest_letter(hand, letter_weight):
    """Code of the hand's hardest letter: the highest weight, the first in the alphabet
    among equals (0 for an empty hand)."""
    hardest = 0
    for code in range(26):
        if hand[code] > 0 and (hardest == 0 or letter_weight[code] > letter_weight[hardest - 1]):
            hardest = code + 1
    return hardest


@njit(cache=True, nogil=True)
def generate_first_words(ws, graph, ordering):
    """Moves for an empty grid: the words the hand spells that hold its hardest letter
    (`hardest_letter`), laid across from the centre.

    Every tile ends up in some word, so some word of any grid holds the hardest letter;
    starting there spends it first and keeps the root narrow.
    """
    hardest = hardest_letter(ws.hand, ordering.letter)
    if hardest == 0:
        return 0, 0, 0
    return _generate(ws, graph, ordering, np.int64(0), np.int64(0), np.int64(1 << (hardest - 1)))


@njit(cache=True, nogil=True)
def _generate(ws, graph, ordering, move_base, letter_base, first_letters):
    """Both move generators: the empty grid's first words (`first_letters` != 0: one anchor,
    the centre, see `_centre_anchor`) or the moves around the anchors of ws.bbox."""
    cursor = ws.cursor
    cursor[C_MOVES] = move_base
    cursor[C_LETTERS] = letter_base
    cursor[C_TRUNCATED] = 0
    anchor_count = _centre_anchor(ws) if first_letters != 0 else _list_anchors(ws)
    if anchor_count < 0:  # more anchors than the workspace was sized for: no moves, no proof
        cursor[C_TRUNCATED] = 1
    else:
        _walk_words(ws, graph, ordering, anchor_count, first_letters)
    return cursor[C_MOVES], cursor[C_LETTERS], cursor[C_TRUNCATED]


@njit(cache=True, nogil=True)
def _centre_anchor(ws):
    """The empty grid's one anchor: the centre, across, with no start square before it, so
    the first word is laid from the centre. Returns the anchor count, 1."""
    anchors = ws.anchors
    centre = ws.state[ST_SIDE] // 2
    anchors[0, A_DIR] = 0
    anchors[0, A_LINE] = centre
    anchors[0, A_POS] = centre
    anchors[0, A_PREVIOUS] = centre - 1
    return 1


@njit(cache=True, nogil=True)
def _start_square(grid, cross, anchors, anchor_row, dist, side, hand_count):
    """The start square `dist` cells before the anchor in row `anchor_row` of `anchors`, as
    (first cell, direction, room: the most cells a word from it may take, what its anchor
    needs: a letter mask, whether the anchor is empty); first cell -1 when no word may start
    there (it reaches back to the previous anchor, or the board's edge, or needs more tiles
    than the hand has, or follows a tile)."""
    direction, line, anchor, previous = (
        anchors[anchor_row, A_DIR],
        anchors[anchor_row, A_LINE],
        anchors[anchor_row, A_POS],
        anchors[anchor_row, A_PREVIOUS],
    )
    start = anchor - dist
    step = 1 if direction == 0 else side
    base = line * side if direction == 0 else line
    anchor_cell = base + anchor * step
    start_cell = base + start * step
    if (
        start <= previous
        or start < 1
        or dist + (1 if grid[anchor_cell] == 0 else 0) > hand_count
        or grid[start_cell - step] != 0
    ):
        return np.int64(-1), direction, np.int64(0), np.int64(0), False
    if grid[anchor_cell] != 0:
        need = 1 << (int(grid[anchor_cell]) - 1)  # int(): uint8 without JIT
        return start_cell, direction, side - 2 - start, np.int64(need), False
    return start_cell, direction, side - 2 - start, np.int64(cross[direction * side * side + anchor_cell]), True


@njit(cache=True, nogil=True)
def _walk_words(ws, graph, ordering, anchor_count, first_letters):
    """Every word from the start squares of the first `anchor_count` anchors in ws.anchors,
    appended as moves through ws.cursor: the squares 0 cells before their anchor first, then
    1, ... (`_start_square`), each square's walk held to its share of the step budget.

    From a start square, an iterative DFS where level k decides the letter of cell start+k,
    at most `room` cells long. A word must touch the grid (pass over a tile or hook onto
    one); on the empty grid (`first_letters` != 0) it must instead hold a letter of
    `first_letters`, and prefixes that cannot reach one any more are dropped (`below_mask`).
    The anchor, `dist` cells after the start, must take a letter of `anchor_need` (and of the
    hand, when it is an empty hook): a prefix whose DAWG node cannot reach such a letter at
    that distance is dropped at once (`reach`).

    One kernel walks all the squares and takes the arrays out of the bundles once per node:
    a kernel counts a reference (an atomic add) to each array it is passed or takes out of a
    bundle, and with a kernel call per square (thousands of short walks per node) that was
    10-30% of the solve time, more with the bundles passed (bench_solve, 2026-12-01).
    """
    grid, cross, hand, state, cursor, anchors = ws.grid, ws.cross, ws.hand, ws.state, ws.cursor, ws.anchors
    moves, scores, letters, rng, walk, weight_at = ws.moves, ws.scores, ws.letters, ws.rng, ws.walk, ws.walk_weight
    child, terminal, next_mask, reach, below_mask = (
        graph.child,
        graph.terminal,
        graph.next_mask,
        graph.reach,
        graph.below_mask,
    )
    letter_weight = ordering.letter
    node_at, tried, fixed, new_at, touch_at, word = (
        walk[WALK_NODE],
        walk[WALK_TRIED],
        walk[WALK_FIXED],
        walk[WALK_NEW],
        walk[WALK_TOUCH],
        walk[WALK_WORD],
    )
    side = state[ST_SIDE]
    min_len = state[ST_MIN_LEN]
    hand_count = state[ST_HAND]
    budget = state[ST_GEN_BUDGET]
    cells = side * side
    per_start = budget
    if state[ST_MAX_BRANCH] > 0:  # capped search: share the budget among anchors
        per_start = max(budget // max(anchor_count, 1), START_STEPS_FLOOR)
    spent = 0
    whole_hand = _hand_summary(hand)
    for dist in range(hand_count + 1):
        any_start = False
        for anchor_row in range(anchor_count):
            start_cell, direction, room, anchor_need, anchor_empty = _start_square(
                grid, cross, anchors, anchor_row, dist, side, hand_count
            )
            if start_cell < 0:
                continue
            any_start = True
            limit = min(per_start, budget - spent)
            if limit <= 0:
                cursor[C_TRUNCATED] = 1
                break
            step = 1 if direction == 0 else side
            perp = side if direction == 0 else 1
            hand_mask, vowels, consonants = whole_hand  # each walk gives back every tile it takes
            steps = 0
            k = 0
            node_at[0] = 0
            new_at[0] = 0
            touch_at[0] = 0
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
                        if first_letters != 0 and touch_at[k] == 0 and below_mask[node_at[k]] & first_letters == 0:
                            tried[k] = 0  # first word: the hard letter cannot come any more
                        ahead = dist - k + 1
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
                    code = _bit_code(bit)
                    hand[code - 1] -= 1
                    if hand[code - 1] == 0:
                        hand_mask ^= bit
                    if VOWELS_MASK & bit:
                        vowels -= 1
                    else:
                        consonants -= 1
                    new_count = new_at[k] + 1
                    touched = touch_at[k]
                    if grid[cell - perp] != 0 or grid[cell + perp] != 0 or first_letters & bit:
                        touched = 1
                    weight = weight_at[k] + letter_weight[code - 1]
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
                        direction == 1
                        and new_count == 1
                        and _single_is_across(grid, word, length, start_cell, step, perp)
                    )
                ):
                    if _record_move(
                        moves=moves,
                        scores=scores,
                        letters=letters,
                        cursor=cursor,
                        rng=rng,
                        ordering=ordering,
                        word=word,
                        start_cell=start_cell,
                        direction=direction,
                        length=length,
                        new_count=new_count,
                        weight=weight,
                        vowels_left=vowels,
                        consonants_left=consonants,
                    ):
                        cursor[C_LETTERS] += length
                        cursor[C_MOVES] += 1
                    else:
                        cursor[C_TRUNCATED] = 1
                if (
                    next_mask[nxt] != 0
                    and length < room
                    and length < MAX_WORD
                    and (grid[after] != 0 or new_count < hand_count)
                    and steps < limit
                    and cursor[C_TRUNCATED] == 0
                ):
                    new_at[k + 1] = new_count
                    touch_at[k + 1] = touched
                    weight_at[k + 1] = weight
                    node_at[k + 1] = nxt
                    k += 1
                    enter = True
                elif fixed[k] == 0:
                    hand_mask, vowels, consonants = _return_tile(hand, code, hand_mask, vowels, consonants)
            if steps >= limit:
                cursor[C_TRUNCATED] = 1
            spent += steps
        if not any_start or cursor[C_TRUNCATED] == 1 and spent >= budget:
            break


@njit(cache=True, nogil=True)
def _bit_code(bit):
    """The letter code of a one-bit mask (bit code-1 set), by halving: five tests, not a scan
    of up to 26 bits, on every step of a walk."""
    code = 1
    if bit >= 1 << 16:
        bit >>= 16
        code += 16
    if bit >= 1 << 8:
        bit >>= 8
        code += 8
    if bit >= 1 << 4:
        bit >>= 4
        code += 4
    if bit >= 1 << 2:
        bit >>= 2
        code += 2
    if bit >= 1 << 1:
        code += 1
    return code


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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
def hostable_letters(hand, min_len, budget, graph):
    """Bit mask of the hand's letters that appear in at least one word the hand spells.

    A tile whose letter is in no such word can never be placed: the hand has no grid.
    Stops early once every letter of the hand is covered, or after `budget` DAWG steps
    (then returns -1: unknown).
    """
    child, terminal, next_mask = graph.child, graph.terminal, graph.next_mask
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
        code = _bit_code(bit)
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
def word_letter_counts(hand, min_len, budget, graph, out):
    """The letter counts of every word the hand spells (at least `min_len` letters long),
    one row of `out` (int[rows, 26]) per word, in DAWG order. Returns the number of rows,
    or -1 when `out` is full or after `budget` DAWG steps (then the list is incomplete).
    The hand is restored before returning."""
    child, terminal, next_mask = graph.child, graph.terminal, graph.next_mask
    full = hand.copy()
    node_at = np.zeros(MAX_WORD + 1, dtype=np.int64)
    tried = np.zeros(MAX_WORD + 1, dtype=np.int64)
    word = np.zeros(MAX_WORD + 1, dtype=np.int64)
    count = 0
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
            tried[k] = next_mask[node_at[k]] & hand_mask
        if tried[k] == 0:
            k -= 1
            if k >= 0:
                hand[word[k] - 1] += 1
            continue
        bit = tried[k] & (-tried[k])
        tried[k] ^= bit
        code = _bit_code(bit)
        hand[code - 1] -= 1
        word[k] = code
        nxt = child[node_at[k] * 26 + code - 1]
        steps += 1
        if terminal[nxt] == 1 and k + 1 >= min_len:
            if count >= out.shape[0]:
                steps = budget  # full: give up below, like an exhausted budget
            else:
                for letter in range(26):
                    out[count, letter] = full[letter] - hand[letter]
                count += 1
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
    return count


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


# -- resumable complete searches (the word search and the cell-by-cell search below) -----------
# Both run in slices of nodes from a state vector whose first slots are DEPTH, NODES and STATUS,
# and share these status codes, so one loop head pauses and exhausts them both.

SEARCH_RUNNING, SEARCH_FOUND, SEARCH_EXHAUSTED, SEARCH_PAUSED = 0, 1, 2, 3
SEARCH_DEPTH, SEARCH_NODES, SEARCH_STATUS = 0, 1, 2


@njit(cache=True, nogil=True)
def _pause_or_exhaust(state, depth, limit):
    """The loop head: PAUSED once the slice's node limit is reached (the depth kept for the
    resume), EXHAUSTED once the search has backed out past the root; else SEARCH_RUNNING."""
    if state[SEARCH_NODES] >= limit:
        state[SEARCH_DEPTH] = depth
        state[SEARCH_STATUS] = SEARCH_PAUSED
        return SEARCH_PAUSED
    if depth < 0:
        state[SEARCH_DEPTH] = 0
        state[SEARCH_STATUS] = SEARCH_EXHAUSTED
        return SEARCH_EXHAUSTED
    return SEARCH_RUNNING


# -- the word search (solver/search/wordsearch.py: its Python side, the pruning explained) --------
# A complete search over crossing words for hands of up to 21 tiles. Its names carry WS_ / _ws_:
# the move model's own state slots and undo kinds above are different arrays.

WS_RUNNING, WS_FOUND, WS_EXHAUSTED, WS_PAUSED = SEARCH_RUNNING, SEARCH_FOUND, SEARCH_EXHAUSTED, SEARCH_PAUSED
WS_OVERFLOW = 4
WS_NONE, WS_OPEN, WS_COVERED, WS_SINGLE = 0, 1, 2, 3  # a cell's status in one direction
WS_UNDO_BLOCK, WS_UNDO_STATUS, WS_UNDO_TILE = 1, 2, 3
# state slots
WS_DEPTH, WS_NODES, WS_STATUS = SEARCH_DEPTH, SEARCH_NODES, SEARCH_STATUS
WS_LEFT, WS_UNDO, WS_TILES, WS_OVERFLOW_AT = range(3, 7)
WS_STATE_SIZE = 8

WS_POOL = 1 << 21  # option slots: a search that needs more gives up (no claim made)


class SpelledWords(NamedTuple):
    """The words the hand spells, as arrays, and where each letter occurs in them."""

    letters: np.ndarray  # int64[words, longest]: letter codes 0..25
    length: np.ndarray  # int64[words]
    occ_word: np.ndarray  # int64[occurrences]: word of each occurrence, grouped by letter
    occ_offset: np.ndarray  # int64[occurrences]: its position in the word
    occ_start: np.ndarray  # int64[27]: letter l's occurrences are occ_start[l]..occ_start[l+1]
    carrier: np.ndarray  # int64[26]: 1 for a carrier letter
    mask: np.ndarray  # int64[words]: the letters of each word, one bit each
    rho: np.ndarray  # float64[26]: new tiles a word lays per use of carrier c, at most
    together: np.ndarray  # int64[26]: letters some word holds beside letter l (bit l: l twice)
    hosts: np.ndarray  # int64[26]: carrier letters one of which every word holding l holds
    hard_order: np.ndarray  # int64[26]: non-carrier letters, in fewest words first


class WordSearchState(NamedTuple):
    """The search's arrays: the board, the statuses, the undo log and the decision stack."""

    board: np.ndarray  # int64[side*side]: 0 empty, 1..26 letters
    blocked: np.ndarray  # int64[side*side]: how many decisions keep the cell empty
    status: np.ndarray  # int64[side*side, 2]: WS_NONE/WS_OPEN/WS_COVERED/WS_SINGLE across (0) and down (1)
    hand: np.ndarray  # int64[26]: letters not laid yet
    state: np.ndarray  # int64[WS_STATE_SIZE]
    tiles: np.ndarray  # int64[tiles]: the cells holding tiles, in the order laid
    undo: np.ndarray  # int64[entries, 3]: kind, cell, direction
    item_cell: np.ndarray  # int64[depths, items]: each depth's open (tile, direction)s ...
    item_dir: np.ndarray
    item_start: np.ndarray  # ... the options that fit there: pool[start:start + count] ...
    item_count: np.ndarray
    item_single: np.ndarray  # ... and whether the tile may stay alone that way
    items: np.ndarray  # int64[depths]: how many
    pool: np.ndarray  # int64[WS_POOL]: occurrences (options), each depth's lists after the one before
    pool_top: np.ndarray  # int64[depths]: the pool's end after each depth's lists
    scratch: np.ndarray  # int64[6, SCRATCH]: the exclusive-tile matching's work arrays
    chosen_item: np.ndarray  # int64[depths]: the item decided at each depth
    option: np.ndarray  # int64[depths]: the next of its options to try
    mark: np.ndarray  # int64[depths]: the undo log's length before the depth's choice


@njit(cache=True, nogil=True)
def _ws_single_fits(board, side, cell, direction) -> bool:
    step = 1 if direction == 0 else side
    return board[cell - step] == 0 and board[cell + step] == 0


@njit(cache=True, nogil=True)
def _ws_log(undo, state, kind, cell, direction):
    at = state[WS_UNDO]
    undo[at, 0], undo[at, 1], undo[at, 2] = kind, cell, direction
    state[WS_UNDO] = at + 1


@njit(cache=True, nogil=True)
def _ws_block(blocked, undo, state, cell):
    blocked[cell] += 1
    _ws_log(undo, state, WS_UNDO_BLOCK, cell, 0)


@njit(cache=True, nogil=True)
def _ws_lay(s, words, side, cell, direction, k, offset):
    """Lay word k as `_ws_add_item` found it fits, logging every change."""
    step = 1 if direction == 0 else side
    length = words.length[k]
    start = cell - offset * step
    _ws_block(s.blocked, s.undo, s.state, start - step)
    _ws_block(s.blocked, s.undo, s.state, start + length * step)
    for j in range(length):
        p = start + j * step
        if s.board[p] == 0:
            letter = words.letters[k, j]
            s.board[p] = letter + 1
            s.hand[letter] -= 1
            s.state[WS_LEFT] -= 1
            s.tiles[s.state[WS_TILES]] = p
            s.state[WS_TILES] += 1
            s.status[p, 1 - direction] = WS_OPEN
            _ws_log(s.undo, s.state, WS_UNDO_TILE, p, direction)
        else:
            _ws_log(s.undo, s.state, WS_UNDO_STATUS, p, direction)
        s.status[p, direction] = WS_COVERED


@njit(cache=True, nogil=True)
def _ws_undo_to(s, mark):
    while s.state[WS_UNDO] > mark:
        at = s.state[WS_UNDO] - 1
        kind, cell, direction = s.undo[at, 0], s.undo[at, 1], s.undo[at, 2]
        if kind == WS_UNDO_BLOCK:
            s.blocked[cell] -= 1
        elif kind == WS_UNDO_STATUS:
            s.status[cell, direction] = WS_OPEN
        else:
            s.hand[s.board[cell] - 1] += 1
            s.state[WS_LEFT] += 1
            s.board[cell] = 0
            s.status[cell, 0] = WS_NONE
            s.status[cell, 1] = WS_NONE
            s.state[WS_TILES] -= 1
        s.state[WS_UNDO] = at


@njit(cache=True, nogil=True)
def _ws_hopeless(s, words) -> bool:
    """The carrier-use bounds of the module docstring."""
    left = s.state[WS_LEFT]
    if left == 0:
        return False
    room = 0.0
    for letter in range(26):
        if words.carrier[letter] == 1:
            room += 2 * s.hand[letter] * words.rho[letter]
    for t in range(s.state[WS_TILES]):
        cell = s.tiles[t]
        letter = s.board[cell] - 1
        if words.carrier[letter] == 1:
            for direction in range(2):
                if s.status[cell, direction] == WS_OPEN:
                    room += words.rho[letter]
    if left > room + 1e-9:
        return True
    return not _ws_exclusive_tiles_hosted(s, words)


@njit(cache=True, nogil=True)
def _ws_exclusive_tiles_hosted(s, words) -> bool:
    """Tiles of the hand no word holds two of (taken greedily, hardest letters first) each need
    a word of their own, and that word a carrier use of one of their letter's hosts: whether
    the carrier uses left can be matched to them (Kuhn's augmenting paths)."""
    scratch = s.scratch
    members = scratch[0]  # letters of the exclusive tiles
    count = 0
    taken = 0  # letters already in the set
    for i in range(26):
        letter = words.hard_order[i]
        if letter < 0:
            break
        for _ in range(s.hand[letter]):
            if words.together[letter] & taken:  # some word holds both (or this letter twice)
                break
            members[count] = letter
            count += 1
            taken |= 1 << letter
    if count == 0:
        return True
    slots = scratch[1]  # the carrier letter of each use left
    used = 0
    for letter in range(26):
        if words.carrier[letter] == 1:
            for _ in range(2 * s.hand[letter]):
                if used < len(slots):
                    slots[used] = letter
                    used += 1
    for t in range(s.state[WS_TILES]):
        cell = s.tiles[t]
        letter = s.board[cell] - 1
        if words.carrier[letter] == 1:
            for direction in range(2):
                if s.status[cell, direction] == WS_OPEN and used < len(slots):
                    slots[used] = letter
                    used += 1
    if used < count:
        return False
    owner, seen, stack, slot_at = scratch[2], scratch[3], scratch[4], scratch[5]
    owner[:used] = -1
    for member in range(count):
        seen[:used] = 0
        depth = 0
        stack[0], slot_at[0] = member, 0
        found = False
        while depth >= 0 and not found:
            m = stack[depth]
            advanced = False
            while slot_at[depth] < used:
                j = slot_at[depth]
                slot_at[depth] += 1
                if seen[j] or not (words.hosts[members[m]] >> slots[j]) & 1:
                    continue
                seen[j] = 1
                if owner[j] == -1:  # a free use: each member on the path takes the use it tried last
                    for d in range(depth + 1):
                        owner[slot_at[d] - 1] = stack[d]
                    found = True
                    break
                depth += 1
                stack[depth], slot_at[depth] = owner[j], 0
                advanced = True
                break
            if not advanced and not found:
                depth -= 1
        if not found:
            return False
    return True


@njit(cache=True, nogil=True)
def _ws_add_item(s, words, side, depth, cell, direction, first, last, from_pool, need, present) -> bool:
    """Append (cell, direction) to depth's items with those of its candidate options that
    fit now: pool[first:last] when `from_pool`, else occurrences first..last-1. False when it
    has no option at all, or the pool is full (then WS_OVERFLOW is set)."""
    k = s.items[depth]
    top = s.pool_top[depth]
    board, blocked, status, hand = s.board, s.blocked, s.status, s.hand
    word_letters, word_length, occ_word, mask, pool = words.letters, words.length, words.occ_word, words.mask, s.pool
    occ_offset = words.occ_offset
    step = 1 if direction == 0 else side
    area, row = side * side, cell // side
    s.item_cell[depth, k], s.item_dir[depth, k], s.item_start[depth, k] = cell, direction, top
    for i in range(first, last):
        at = pool[i] if from_pool else i
        if mask[occ_word[at]] & ~present:
            continue
        # Whether word kw fits with its letter `offset` on `cell` (see the module docstring),
        # written out here: a call per candidate cost more than the check itself.
        kw, offset = occ_word[at], occ_offset[at]
        length = word_length[kw]
        start = cell - offset * step
        before, after = start - step, start + length * step
        if before < 0 or after >= area or board[before] != 0 or board[after] != 0:
            continue
        if direction == 0 and (before // side != row or after // side != row):
            continue
        ok = True
        for j in range(length):
            p = start + j * step
            letter = word_letters[kw, j]
            if board[p] != 0:
                if board[p] != letter + 1 or status[p, direction] != WS_OPEN:
                    ok = False
                    break
            elif blocked[p] != 0:
                ok = False
                break
            else:
                need[letter] += 1
                if need[letter] > hand[letter]:
                    ok = False
                    break
        for j in range(length):
            need[word_letters[kw, j]] = 0
        if ok:
            if top == len(s.pool):
                s.state[WS_OVERFLOW_AT] = 1
                return False
            s.pool[top] = at
            top += 1
    single = _ws_single_fits(s.board, side, cell, direction)
    s.item_count[depth, k] = top - s.item_start[depth, k]
    s.item_single[depth, k] = 1 if single else 0
    s.items[depth] = k + 1
    s.pool_top[depth] = top
    return top > s.item_start[depth, k] or single


@njit(cache=True, nogil=True)
def _ws_next_items(s, words, side, depth, tiles_before, need) -> bool:
    """Depth + 1's items: depth's, but the one just decided and those no longer open, their
    options filtered (options only ever stop fitting deeper down), then the new tiles' own
    direction. False when some item has no option left (or the pool is full)."""
    nxt = depth + 1
    s.items[nxt] = 0
    s.pool_top[nxt] = s.pool_top[depth]
    present = 0
    for letter in range(26):
        if s.hand[letter] > 0:
            present |= 1 << letter
    for t in range(s.state[WS_TILES]):
        present |= 1 << (s.board[s.tiles[t]] - 1)
    for k in range(s.items[depth]):
        cell, direction = s.item_cell[depth, k], s.item_dir[depth, k]
        if k == s.chosen_item[depth] or s.status[cell, direction] != WS_OPEN:
            continue
        first = s.item_start[depth, k]
        if not _ws_add_item(
            s, words, side, nxt, cell, direction, first, first + s.item_count[depth, k], True, need, present
        ):
            return False
    for t in range(tiles_before, s.state[WS_TILES]):
        cell = s.tiles[t]
        direction = 0 if s.status[cell, 0] == WS_OPEN else 1
        letter = s.board[cell] - 1
        first, last = words.occ_start[letter], words.occ_start[letter + 1]
        if not _ws_add_item(s, words, side, nxt, cell, direction, first, last, False, need, present):
            return False
    return True


@njit(cache=True, nogil=True)
def word_search(s, words, hard: int, node_limit: int) -> int:
    """Run the search from where it stopped for up to `node_limit` more decisions; returns the
    status (WS_FOUND leaves the grid on the board; calling again looks for the next; WS_OVERFLOW:
    the option pool ran out, no claim)."""
    state = s.state
    side = int(np.sqrt(len(s.board)))
    need = np.zeros(26, dtype=np.int64)
    if state[WS_STATUS] == WS_RUNNING and state[WS_NODES] == 0 and state[WS_DEPTH] == 0:
        # Depth 0 decides the first word: across, with a tile of the hardest letter mid-board.
        centre = (side // 2) * side + side // 2
        s.items[0], s.item_cell[0, 0], s.item_dir[0, 0] = 1, centre, 0
        s.item_start[0, 0] = 0
        s.item_count[0, 0] = words.occ_start[hard + 1] - words.occ_start[hard]
        s.item_single[0, 0] = 0
        for i in range(s.item_count[0, 0]):
            s.pool[i] = words.occ_start[hard] + i
        s.pool_top[0] = s.item_count[0, 0]
        s.chosen_item[0], s.option[0], s.mark[0] = 0, 0, 0
    limit = state[WS_NODES] + node_limit
    depth = state[WS_DEPTH]
    state[WS_STATUS] = WS_RUNNING
    while True:
        if state[WS_OVERFLOW_AT] == 1:
            state[WS_STATUS] = WS_OVERFLOW
            return WS_OVERFLOW
        stop = _pause_or_exhaust(state, depth, limit)
        if stop != SEARCH_RUNNING:
            return stop
        _ws_undo_to(s, s.mark[depth])
        k = s.chosen_item[depth]
        cell, direction = s.item_cell[depth, k], s.item_dir[depth, k]
        count = s.item_count[depth, k]
        o = s.option[depth]
        if o > count or (o == count and s.item_single[depth, k] == 0):
            depth -= 1
            continue
        s.option[depth] = o + 1
        state[WS_NODES] += 1
        tiles_before = state[WS_TILES]
        if o == count:  # the last option: the tile alone that way
            step = 1 if direction == 0 else side
            s.status[cell, direction] = WS_SINGLE
            _ws_log(s.undo, s.state, WS_UNDO_STATUS, cell, direction)
            _ws_block(s.blocked, s.undo, s.state, cell - step)
            _ws_block(s.blocked, s.undo, s.state, cell + step)
        else:
            at = s.pool[s.item_start[depth, k] + o]
            _ws_lay(s, words, side, cell, direction, words.occ_word[at], words.occ_offset[at])
        if _ws_hopeless(s, words):
            continue
        if not _ws_next_items(s, words, side, depth, tiles_before, need):
            continue
        nxt = depth + 1
        if s.items[nxt] == 0:  # nothing open
            if state[WS_LEFT] == 0:
                state[WS_DEPTH] = depth
                state[WS_STATUS] = WS_FOUND
                return WS_FOUND
            continue
        best, best_count = 0, 1 << 60
        for i in range(s.items[nxt]):
            options = s.item_count[nxt, i] + s.item_single[nxt, i]
            if options < best_count:
                best, best_count = i, options
        depth = nxt
        s.chosen_item[depth], s.option[depth], s.mark[depth] = best, 0, state[WS_UNDO]


# -- the cell-by-cell search (solver/search/exact.py: its Python side, the pruning explained) ----
# Complete and slow: the tests' check of the word search on small hands. Names carry EX_ / _ex_.

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


@njit(cache=True, nogil=True)
def _ex_ends_well(node: int, length: int, min_length: int, terminal: np.ndarray) -> bool:
    return length <= 1 or (length >= min_length and terminal[node] == 1)


@njit(cache=True, nogil=True)
def _ex_may_end(node: int, length: int, min_length: int, available: int, graph_next, terminal) -> bool:
    """A run of two or more letters must end in a word: it is one, or a letter left continues it."""
    if length < 2 or (length >= min_length and terminal[node] == 1):
        return True
    return (graph_next[node] & available) != 0


@njit(cache=True, nogil=True)
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
        stop = _pause_or_exhaust(state, depth, limit)
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
