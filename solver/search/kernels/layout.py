"""The move search's bundles and the layouts of their arrays (plain Python: no kernel here).

Bundles
-------
The search's arrays travel in three NamedTuples, so a call names each array once and two
arrays of the same type cannot be swapped by position:

  `Graph`      the word graph: the forward DAWG's arrays and the reversed-word DAWG's two
               the kernels read (`solver.lexicon.dawg` documents each, bit by bit);
  `Ordering`   the move-ordering weights (per letter, per tile, leave terms, noise);
  `Workspace`  the board, the search's tables and the scratch buffers it reuses on every
               node (nothing is allocated per node except numba's argsort of a move list).

Build them with `graph_of`, `ordering` and `new_workspace` (below).

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
# grid tile, hand tiles placed so far, whether the word touches the grid yet, the letter,
# the side words so far (hand tiles placed beside a tile across the word: each makes a word).
WALK_NODE, WALK_TRIED, WALK_FIXED, WALK_NEW, WALK_TOUCH, WALK_WORD, WALK_SIDE = range(7)
WALK_ROWS = 7

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
    |consonants - 2 vowels| left; minus `side_word` per side word (a hand tile laid beside a
    tile across the move makes a word of its own, which a referee charges as one more word);
    plus seeded noise of amplitude `noise` (0 = none)."""

    letter: np.ndarray  # float64[26], index 0 = A
    per_tile: float
    one_sided_leave: float
    balance: float
    noise: float
    side_word: float


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
    letter: np.ndarray,
    per_tile: float,
    one_sided_leave: float,
    balance: float,
    noise: float = 0.0,
    side_word: float = 0.0,
) -> Ordering:
    """An `Ordering` with every scalar a float (an int would compile a second specialisation)."""
    return Ordering(
        np.ascontiguousarray(letter, dtype=np.float64),
        float(per_tile),
        float(one_sided_leave),
        float(balance),
        float(noise),
        float(side_word),
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
