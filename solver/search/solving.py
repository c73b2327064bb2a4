"""`solve`: build one connected grid from a tile multiset, under a deadline.

The numba kernel (`solver.search.kernels.movesearch.search`) does the depth-first search; this
module owns its buffers, runs it in short resumable slices so the wall-clock deadline is honoured,
proves `no-grid` where it can, and keeps improving the grid for an objective until the
deadline when one is asked for.

Statuses::

  solved     a grid using every tile was found
  no-grid    proved impossible: one tile; a tile whose letter is in no word the hand
             spells; the letter counts (`solver.search.proofs`); or an exhaustive search
             that is complete for the hand's size
  exhausted  every move sequence was tried without a grid: no proof (dense grids whose
             partial builds are invalid are outside the move model), but no grid found
  timeout    the deadline came first
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from solver.core.grid import MIN_WORD_LENGTHS, Grid, word_texts
from solver.core.limits import MAX_SOLVE_TILES
from solver.core.tiles import ALPHABET, TileCounts, TileError
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.search.kernels import layout, movesearch, spelling
from solver.search.native import bound_call, search_clock
from solver.search.objectives import OBJECTIVES, best_possible_key, objective_key
from solver.search.ordering import SEEDED_NOISE, default_ordering
from solver.search.plans import (
    BEST_GRID_STEPS,
    COMPLETE_PASS,
    EXHAUSTIVE_UP_TO,
    FIRST_GRID_LARGE_HANDS,
    FIRST_GRID_PROBE,
    FIRST_GRID_STEPS,
    NARROW_PASS,
    Phase,
    SearchPlan,
)
from solver.search.proofs import counting_proofs, longest_spelled_word
from solver.search.wordstage import (
    NARROW_BESIDE_WORD_SEARCH,
    WORD_SEARCH,
    WORD_SEARCH_SHARE,
    WORD_SEARCH_UP_TO,
    WordStage,
    nodes_left,
    run_word_search,
    word_search_outcome,
    word_search_run,
)

_ORDERING = default_ordering()
_SEEDED_ORDERING = default_ordering(SEEDED_NOISE)


@dataclass
class Solution:
    """What `solve` and `extend` return: how the search ended and, when it found one, the grid.
    `to_json` is the `bananas solve --json` object, the same fields."""

    tiles: TileCounts
    """Every tile the grid must use: the hand (for `extend`, the base grid's tiles and the added ones)."""
    status: str
    """How the search ended: 'solved' (a grid: `grid`, `words`), 'no-grid' (proved
    impossible: `proof` says how), 'exhausted' (every move sequence tried, no grid, no proof)
    or 'timeout' (the time limit or `max_nodes` came first). The module's docstring says more."""
    grid: Grid | None = None
    """The grid found, of exactly `tiles`; None unless `status` is 'solved'."""
    listed_words: list[str] | None = field(default=None, repr=False, compare=False)
    """The grid's words when the caller had them; None: listed from the grid on first use (`words`)."""
    elapsed_ms: float = 0.0
    """The search's time in milliseconds (the word list's load and a first compile come before
    its clock starts); with an objective other than 'any', up to the time limit."""
    nodes: int = 0
    """Search nodes visited (positions examined): the work done. For objective 'any', or under
    `max_nodes`, the same on every machine for a given hand and seed; the other objectives
    search until the time limit, so their count follows the machine's speed."""
    objective: str = "any"
    """What the search optimised: 'any', 'fewest-words', 'compact' or 'longest-word'
    (`solver.search.objectives`)."""
    proof: str = ""
    """For 'no-grid', why no grid exists, in words (one tile; a letter no word holds; the
    letter counts; an exhaustive search); empty otherwise."""

    @property
    def words(self) -> list[str]:
        """The grid's words, across then down, each direction in the order of its first cell (a word
        that occurs twice is listed twice); empty without a grid. Listed on first use: a caller that
        reads only the grid (a bot, a batch of solves timed one by one) does not pay for them."""
        if self.listed_words is None:
            self.listed_words = word_texts(self.grid) if self.grid is not None else []
        return self.listed_words

    @property
    def solved(self) -> bool:
        """True when status is 'solved' (then `grid` and `words` are set)."""
        return self.status == "solved"

    def to_json(self) -> dict:
        """The solution as the JSON of `bananas solve --json`: tiles, status, grid (rows or None), words,
        elapsed_ms, nodes, objective, proof (None unless no-grid).
        """
        return {
            "tiles": self.tiles.letters(),
            "status": self.status,
            "grid": self.grid.to_json() if self.grid else None,
            "words": self.words,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "nodes": self.nodes,
            "objective": self.objective,
            "proof": self.proof or None,
        }


MOVE_CAPACITY = 1 << 19
LETTER_CAPACITY = 1 << 23
TT_SIZE = 1 << 20

# Preallocated buffers, lent to one search at a time: the servers run searches in worker
# threads, and two searches must never share a board. They are pooled for the process rather
# than kept per thread: a buffer set is tens of MiB once its pages are touched, and per thread
# and hand size the sets multiplied with every thread a pool ever started (a server's RSS grew
# for as long as it ran); pooled, there are only as many as searches ran at once.
_FREE_WORKSPACES: dict[int, list[layout.Workspace]] = {}
_FREE_LOCK = threading.Lock()


def workspace_size(tile_count: int) -> int:
    """The board size of the buffers for `tile_count` tiles: 24, 48, 96, ... (buckets of sizes
    keep the number of distinct board sizes, and allocations, small)."""
    size = 24
    while size < tile_count:
        size *= 2
    return size


def new_workspace(size: int) -> layout.Workspace:
    """Fresh buffers for board size `size` (`workspace_size`)."""
    return layout.new_workspace(size, MOVE_CAPACITY, LETTER_CAPACITY, TT_SIZE, max_board_tiles=MAX_SOLVE_TILES)


@contextlib.contextmanager
def _borrowed_workspace(tile_count: int) -> Iterator[layout.Workspace]:
    """Buffers for hands of up to `tile_count` tiles, for the `with` block's search alone."""
    space = _take_workspace(tile_count)
    try:
        yield space
    finally:
        _give_back(space)


def _take_workspace(tile_count: int) -> layout.Workspace:
    """Buffers for hands of up to `tile_count` tiles, the caller's alone until `_give_back`."""
    size = workspace_size(tile_count)
    with _FREE_LOCK:
        free = _FREE_WORKSPACES.get(size)
        if free:
            return free.pop()
    return new_workspace(size)


def _give_back(space: layout.Workspace) -> None:
    size = len(space.frames) - 2  # a frame a tile, and two more (`layout.new_workspace`)
    with _FREE_LOCK:
        _FREE_WORKSPACES.setdefault(size, []).append(space)


_CELL_TEXT = bytes.maketrans(bytes(range(27)), b"." + ALPHABET.encode("ascii"))  # letter code -> grid notation


# Boards up to this side (hands of up to 48 tiles) are cleared whole, a copy of a template each for the
# board and the masks (1-5 us, the caches cold after a search), where cutting out the changed box costs
# about 3 us of numpy indexing; the next size's whole clear takes 37 us.
WHOLE_CLEAR_SIDE = 101
_STATE_WORDS = struct.Struct(f"={layout.STATE_SIZE}q")  # the state vector, written in one call


class _Views:
    """Memoryviews of the workspace arrays Python sets up and reads between kernel calls, and the
    templates a new search copies into them. A small hand's search is a few kernel calls, and the
    caches are cold after each: a numpy scalar read or slice assignment then costs a microsecond or
    more of numpy's indexing machinery, where a memoryview's index or copy is a few C lines."""

    def __init__(self, space: layout.Workspace):
        self.space = space
        self.side = math.isqrt(len(space.grid))
        self.state, self.hand, self.rng = space.state.data, space.hand.data, space.rng.data
        self.frames = space.frames.reshape(-1).data  # frame d's column c at d * FRAME_WIDTH + c
        self.grid, self.cross = space.grid.data, space.cross.data
        # Templates: the empty board, its full cross masks, and the frames of a new search (all
        # zero, frame 0's box the centre cell); only boards cleared whole need the first two.
        whole = self.side <= WHOLE_CLEAR_SIDE
        self.empty_grid = (np.zeros_like(space.grid) if whole else space.grid[:0]).data
        self.full_cross = (np.full_like(space.cross, layout.FULL) if whole else space.cross[:0]).data
        frames = np.zeros_like(space.frames)
        frames[0, layout.F_RMIN : layout.F_CMAX + 1] = self.side // 2
        self.new_frames = frames.reshape(-1).data

    def box(self, depth: int) -> list[int]:
        """rmin, rmax, cmin, cmax of frame `depth`: the bounding box of its position's tiles."""
        first = depth * layout.FRAME_WIDTH
        return self.frames[first + layout.F_RMIN : first + layout.F_CMAX + 1].tolist()


_VIEWS: dict[int, _Views] = {}  # id(workspace) -> its views (their `space` checked: ids are reused)


def _views(space: layout.Workspace) -> _Views:
    """The views of `space`, made on its first search."""
    found = _VIEWS.get(id(space))
    if found is None or found.space is not space:
        if len(_VIEWS) >= 64:
            _VIEWS.clear()
        found = _VIEWS[id(space)] = _Views(space)
    return found


def _clear_board(views: _Views) -> None:
    """Empty the board and reset its cross masks. A search leaves changed only the cells of its
    position (the kernel undoes every move it takes back), and cross masks only at the run ends
    next to them: all within the last frame's bounding box and one cell around it. On a big board
    only that box is reset (at 144 tiles the masks are 1.2 MB, most never touched), unless the
    state does not describe this board (a new workspace, or a set-up cut short)."""
    side, state = views.side, views.state
    if side <= WHOLE_CLEAR_SIDE:
        views.grid[:] = views.empty_grid
        views.cross[:] = views.full_cross
        return
    space = views.space
    if state[layout.ST_SIDE] != side:
        space.grid[:] = 0
        space.cross[:] = layout.FULL
        return
    rmin, rmax, cmin, cmax = views.box(state[layout.ST_DEPTH])
    rows, columns = slice(max(rmin - 1, 0), rmax + 2), slice(max(cmin - 1, 0), cmax + 2)
    space.grid.reshape(side, side)[rows, columns] = 0
    space.cross.reshape(2, side, side)[:, rows, columns] = layout.FULL


class _Run:
    """One search over a workspace: state vector set up, sliced calls, grid read-out."""

    def __init__(
        self,
        space: layout.Workspace,
        tiles: TileCounts,
        lexicon: Lexicon,
        min_length: int,
        max_branch: int,
        gen_budget: int,
        seed: int | None,
        base: Grid | None = None,
        side_word: float = 0.0,
    ):
        if not 0 <= max_branch <= layout.KEEP_CAPACITY:
            raise ValueError(f"move-list cap {max_branch} outside 0..{layout.KEEP_CAPACITY}")
        self.space = space
        self.graph = _graph(lexicon)
        self.views = views = _views(space)
        self.side = side = views.side
        self.state = state = views.state
        # Clear the board; the transposition table is invalidated by a new stamp, not cleared.
        values = [0] * layout.STATE_SIZE
        values[layout.ST_STAMP] = state[layout.ST_STAMP] + 1
        values[layout.ST_SIDE] = side
        values[layout.ST_HAND] = len(tiles)
        values[layout.ST_MIN_LEN] = min_length
        values[layout.ST_MAX_BRANCH] = max_branch
        values[layout.ST_GEN_BUDGET] = gen_budget
        _clear_board(views)
        views.frames[:] = views.new_frames
        _STATE_WORDS.pack_into(state, 0, *values)
        views.hand[:] = tiles.counts.data
        if base is not None:
            centre = side // 2
            movesearch.lay_grid(base.to_array(), centre - base.height // 2, centre - base.width // 2, space, self.graph)
        views.rng[0] = (seed or 0) & layout.HASH_MASK  # any int seed fits
        self.ordering = _ordering(seed, side_word)
        self._search = bound_call(movesearch.search, (space, self.graph, self.ordering))

    def step(self, node_limit: int) -> int:
        self.state[layout.ST_NODE_LIMIT] = node_limit
        self._search()
        return self.state[layout.ST_STATUS]

    def grid(self) -> Grid:
        """The grid on the board, cut to the bounding box the kernel keeps for the frame."""
        rmin, rmax, cmin, cmax = self.views.box(self.state[layout.ST_DEPTH])
        side = self.side
        # The box's rows, whole board rows each; the kernel's cells are A-Z and empty: the rows
        # need none of `Grid.from_rows`' checks.
        text = self.views.grid[rmin * side : (rmax + 1) * side].tobytes().translate(_CELL_TEXT).decode("ascii")
        width = cmax - cmin + 1
        return Grid(tuple([text[start : start + width] for start in range(cmin, len(text), side)]))

    @property
    def nodes(self) -> int:
        return self.state[layout.ST_NODES]

    def root_complete(self) -> bool:
        return self.views.frames[layout.F_GENERATED] == 1


_SIDE_WORD_ORDERINGS: dict[tuple[int, float], tuple[layout.Ordering, layout.Ordering]] = {}


def _ordering(seed: int | None, side_word: float) -> layout.Ordering:
    """The move ordering of a search, the same object at every call for the same settings: the
    kernel's call is resolved once for its arguments' identities (`native.bound_call`)."""
    ordering = _ORDERING if seed is None else _SEEDED_ORDERING
    if not side_word:
        return ordering
    key = (id(ordering), float(side_word))
    found = _SIDE_WORD_ORDERINGS.get(key)
    if found is None or found[0] is not ordering:
        if len(_SIDE_WORD_ORDERINGS) >= 16:
            _SIDE_WORD_ORDERINGS.clear()
        found = _SIDE_WORD_ORDERINGS[key] = (ordering, ordering._replace(side_word=float(side_word)))
    return found[1]


_GRAPHS: dict[int, tuple[Lexicon, layout.Graph]] = {}  # id(lexicon) -> (it, its graph): one bundle a list


def _graph(lexicon: Lexicon) -> layout.Graph:
    """The kernels' word-graph bundle of `lexicon`, the same at every call (`native.LibraryEntry`)."""
    found = _GRAPHS.get(id(lexicon))
    if found is None or found[0] is not lexicon:
        if len(_GRAPHS) >= 16:
            _GRAPHS.clear()
        found = _GRAPHS[id(lexicon)] = (lexicon, layout.graph_of(lexicon.forward, lexicon.reverse))
    return found[1]


FIRST_GRID_PLAN = SearchPlan(
    (Phase(0, FIRST_GRID_STEPS, 3_000), NARROW_PASS, COMPLETE_PASS), FIRST_GRID_LARGE_HANDS, probe=FIRST_GRID_PROBE
)
# The objectives that compare grids start with the same probe and large hands' first pass: where
# it finds a grid, they start from the grid `any` answers with and keep only better ones (a search
# that began on the 6,000-step pass could end, at its time limit, with a longest word shorter
# than the probe's first grid had).
BEST_GRID_PLAN = dataclasses.replace(
    FIRST_GRID_PLAN, small_hands=(Phase(0, BEST_GRID_STEPS, 3_000), *FIRST_GRID_PLAN.small_hands[1:])
)


def engine_plan(objective: str) -> SearchPlan:
    """The engine's passes for `objective`: FIRST_GRID_PLAN for 'any' (the first grid is the
    answer), BEST_GRID_PLAN for the objectives that compare grids."""
    return FIRST_GRID_PLAN if objective == "any" else BEST_GRID_PLAN


PROOF_COMPLETE_UP_TO = 5  # the move model reaches every grid of up to this many tiles
HOSTABLE_BUDGET = 5_000_000  # DAWG steps of the stranded-letter check
_HANDS = threading.local()  # .hand: this thread's, the same array at every call (`native.LibraryEntry` memo)


def _hand_buffer() -> np.ndarray:
    if getattr(_HANDS, "hand", None) is None:
        _HANDS.hand = np.zeros(len(ALPHABET), dtype=np.int64)
    return _HANDS.hand


def _prove_no_grid(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> str:
    """A reason no grid exists, or '' when none was found quickly."""
    return _too_few_tiles(tiles, min_length) or _stranded_letters(tiles, lexicon, min_length)


def _too_few_tiles(tiles: TileCounts, min_length: int) -> str:
    count = len(tiles)
    if count < 2:
        return "a grid needs at least two tiles"
    if count < min_length:
        return f"fewer tiles than the minimum word length {min_length}"
    return ""


def _stranded_letters(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> str:
    """The proof that a letter of the hand is in no word it spells, or ''. `solve` asks only
    when the search's first slice found no grid: for most hands it is never needed."""
    hand = _hand_buffer()  # the kernel takes tiles out and puts them back
    hand[:] = tiles.counts
    covered = spelling.hostable_letters(hand, min_length, HOSTABLE_BUDGET, _graph(lexicon))
    if covered < 0 or int(covered).bit_count() == np.count_nonzero(hand):  # unknown, or every letter in some word
        return ""
    stranded = [ALPHABET[code] for code in np.flatnonzero(hand).tolist() if not covered & (1 << code)]
    if stranded:
        return f"no word spelled from these tiles contains {', '.join(stranded)}"
    return ""


_WARM: set[tuple[int, str]] = set()  # (id(lexicon), step) of the warm-ups done: read without the lock
_STARTED: set[tuple[int, str]] = set()  # begun by the thread holding _WARMING (its tiny solve calls back in)
# Held for a whole warm-up: a second thread asking (a room's bots, an API request) waits until
# the kernels are compiled instead of finding them marked warm and compiling inside its own
# clock (or holding a table's lock through numba's compiler lock). Re-entrant: the tiny solve
# below calls back in.
_WARMING = threading.RLock()


def warm_kernels(lexicon: Lexicon, include_extend: bool = True) -> None:
    """Compile (or load from numba's cache) the search kernels for this lexicon's array
    types with a tiny solve, once per process, so no timed search pays for it: `solve` and
    `extend` call it before their clocks start (a first call's deadline is its search's, not
    numba's import, binding and compile; kernels only a longer search reaches compile inside
    it, and that compile is left out of its clock too: `search_clock`).
    `include_extend=False` leaves out the kernel only `extend` uses (a process that only
    solves starts faster). Thread-safe: a call while another thread warms up waits for it;
    once they are warm, a call takes no lock."""
    if (id(lexicon), "solve") in _WARM and (not include_extend or (id(lexicon), "extend") in _WARM):
        return  # every call but a process's first: two set look-ups
    steps = ("solve", "extend") if include_extend else ("solve",)
    with _WARMING:
        for step in steps:
            key = (id(lexicon), step)
            if key in _WARM or key in _STARTED:
                continue
            _STARTED.add(key)
            try:
                if step == "solve":
                    _warm_search(lexicon)
                    # The word search's kernel too: a hard hand's first reaches it in a thread beside
                    # the proofs, where loading it from numba's cache took 0.2 s of the hand's clock.
                    _warm_word_search(lexicon)
                else:
                    _warm_extend(lexicon)
            finally:
                _STARTED.discard(key)
            _WARM.add(key)


# The warm-up's three steps, each the kernels one tiny call reaches (tests/precompile.py
# compiles them in two processes side by side).
def _warm_search(lexicon: Lexicon) -> None:
    solve("CATMAP", lexicon, time_limit=600.0)


def _warm_word_search(lexicon: Lexicon) -> None:
    _stranded_letters(TileCounts.from_letters("CATS"), lexicon, 2)  # a solve whose first slice finds no grid
    word_search_run(TileCounts.from_letters("CATS"), lexicon, 2).run(search_clock() + 600.0)


def _warm_extend(lexicon: Lexicon) -> None:
    extend(Grid.from_rows(["AT"]), "C", lexicon, time_limit=600.0)


def _check_arguments(tiles: TileCounts, objective: str, min_length: int, time_limit: float) -> None:
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (choose from {', '.join(OBJECTIVES)})")
    if min_length not in MIN_WORD_LENGTHS:
        raise ValueError("minimum word length must be 2 or 3")
    if len(tiles) > MAX_SOLVE_TILES:
        raise TileError(f"{len(tiles)} tiles: the solver takes at most {MAX_SOLVE_TILES}")
    if not time_limit >= 0:  # also rejects NaN
        raise ValueError(f"time limit must be a number of seconds >= 0, got {time_limit}")


def solve(
    tiles: TileCounts | str,
    lexicon: Lexicon | str = "en",
    time_limit: float = 10.0,
    objective: str = "any",
    seed: int | None = None,
    min_length: int = 2,
    max_nodes: int | None = None,
    plan: SearchPlan | None = None,
    on_better: Callable[[Solution], None] | None = None,
) -> Solution:
    """Build a grid using every tile of `tiles`.

    Returns as soon as a grid is found for objective 'any'; for the other objectives it
    keeps searching for better grids until `time_limit` seconds (or the search space)
    run out and returns the best, or sooner when a grid reaches what no grid can beat (such as
    a longest word as long as the hand spells, in two words; not under `max_nodes`, whose node
    counts are a cost the bots are charged). `on_better`, if given, is called with each better
    grid as the search finds it (a 'solved' Solution: a progress display, the best so far when
    the caller is interrupted). `seed` varies the move order (same seed, same result).

    `tiles` is a TileCounts or a string of letters ('AEEIRST', any case); `lexicon` a Lexicon
    or a name for `get_lexicon` ('en', 'fr', a path); `time_limit` is in wall-clock seconds
    (>= 0); `objective` is one of 'any', 'fewest-words', 'compact', 'longest-word';
    `min_length` (2 or 3) is the shortest word allowed; `max_nodes` caps the search nodes (a
    result that does not depend on the machine's speed); `plan` the passes the search runs (a
    `SearchPlan`; None: the engine's for the objective, `engine_plan`). The Solution's status is 'solved',
    'no-grid' (with its `proof`), 'exhausted' or 'timeout'.

    Raises TileError for letters outside A-Z, no tiles or more than MAX_SOLVE_TILES (1000);
    ValueError for an unknown objective, a `min_length` other than 2 or 3 or a negative time
    limit; LexiconError for a word list that cannot be loaded.

    >>> from solver import solve
    >>> result = solve("AACMPT", time_limit=1.0)
    >>> result.status, result.words
    ('solved', ['TA', 'CAMP', 'TA', 'AM'])
    >>> print(result.grid)
    .TA.
    CAMP
    """
    tiles = TileCounts.of(tiles)
    lexicon = get_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
    _check_arguments(tiles, objective, min_length, time_limit)
    warm_kernels(lexicon, include_extend=False)  # a process's first call: before its clock starts
    started = search_clock()
    if len(tiles) == 0:
        raise TileError("no tiles to solve")
    proof = _too_few_tiles(tiles, min_length)
    if not proof and max_nodes is not None:  # capped: before any node (`_run_phases` asks the others later)
        proof = _stranded_letters(tiles, lexicon, min_length)
    if proof:
        return Solution(
            tiles, "no-grid", elapsed_ms=(search_clock() - started) * 1000, objective=objective, proof=proof
        )
    settings = (started, time_limit, objective, seed, min_length, max_nodes, plan, on_better)
    return _search(tiles, lexicon, None, *settings)


def extend(
    base: Grid,
    tiles: TileCounts | str,
    lexicon: Lexicon | str = "en",
    time_limit: float = 1.0,
    seed: int | None = None,
    min_length: int = 2,
    max_nodes: int | None = None,
    plan: SearchPlan | None = None,
) -> Solution:
    """Place every tile of `tiles` onto the valid grid `base` without moving any of its
    tiles (hooks, extensions and new crossing words). The result's `tiles` are the base's
    plus the new ones; 'exhausted' means no such placement exists in the move model.

    The arguments and errors are those of `solve` (`time_limit` in seconds, default 1), with
    the objective 'any'; `base` (a Grid) must be valid for the lexicon."""
    tiles = TileCounts.of(tiles)
    lexicon = get_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
    _check_arguments(tiles + base.tiles(), "any", min_length, time_limit)
    warm_kernels(lexicon, include_extend=True)  # a process's first call: before its clock starts
    started = search_clock()
    if len(tiles) == 0:
        return Solution(base.tiles(), "solved", base, word_texts(base), (search_clock() - started) * 1000)
    return _search(tiles, lexicon, base, started, time_limit, "any", seed, min_length, max_nodes, plan, None)


def _search(tiles: TileCounts, lexicon: Lexicon, base: Grid | None, *settings) -> Solution:
    """`_run_phases` (`settings`: its arguments after `base`) on buffers borrowed for the
    whole search."""
    extent = len(tiles) + (max(base.height, base.width) if base is not None else 0)
    space = _take_workspace(extent)  # not `_borrowed_workspace`: a generator a hand is a few us more
    try:
        return _run_phases(space, tiles, lexicon, base, *settings)
    finally:
        _give_back(space)


def _run_phases(
    space: layout.Workspace,
    tiles: TileCounts,
    lexicon: Lexicon,
    base: Grid | None,
    started: float,
    time_limit: float,
    objective: str,
    seed: int | None,
    min_length: int,
    max_nodes: int | None,
    plan: SearchPlan | None,
    on_better: Callable[[Solution], None] | None,
) -> Solution:
    """Run the phases on `space` until a grid (objective 'any'), the deadline, exhaustion, or a
    grid no other beats."""
    deadline = started + time_limit
    all_tiles = tiles if base is None else tiles + base.tiles()

    def finish(status: str, grid: Grid | None = None, nodes: int = 0, proof: str = "") -> Solution:
        return Solution(all_tiles, status, grid, None, (search_clock() - started) * 1000, nodes, objective, proof)

    def counting_proof(stop: Callable[[], bool] = lambda: False, crossings: bool = True) -> str:
        """The letter-count and (with `crossings`) crossing arguments (`proofs`), for a hand on
        an empty board small enough to list its words, within the time left, until `stop()`. A
        node-capped search (a bot's) skips the crossing argument: its programs are bounded by
        time, and up to the whole deadline, where the search must stay a pure function of its input."""
        if base is not None or len(tiles) > EXHAUSTIVE_UP_TO or search_clock() >= deadline:
            return ""
        time_left, crossings = deadline - search_clock(), crossings and max_nodes is None
        return counting_proofs(tiles, lexicon, min_length, time_left, crossings, stop)

    # The stranded-letter proof, asked once the first slice has found no grid (most hands' first
    # slice finds one: a grid exists, nothing to prove) and before any later work. A node-capped
    # search (a bot's: its nodes are charged as time) asks before its first node (`solve`), so a
    # stranded hand costs it no node; `extend` lays tiles onto a valid grid and has none.
    stranded_unasked = base is None and max_nodes is None

    def stranded_proof(searched: int) -> Solution | None:
        nonlocal stranded_unasked
        if not stranded_unasked:
            return None
        stranded_unasked = False
        proof = _stranded_letters(tiles, lexicon, min_length)
        return finish("no-grid", nodes=searched, proof=proof) if proof else None

    proof_tried = False
    words_run = None
    plan = plan or engine_plan(objective)
    phases = plan.phases(len(tiles))
    passes = plan.passes(len(tiles), extending=base is not None)
    best: Grid | None = None
    best_key: tuple = ()
    unbeatable = _unbeatable_key(tiles, lexicon, base, objective, min_length, max_nodes)
    nodes = 0
    stage: WordStage | None = None  # uncapped hands of up to 21 tiles: the word search beside the passes
    try:
        for phase in passes:
            run = _Run(
                space, tiles, lexicon, min_length, phase.max_branch, phase.gen_budget, seed, base, plan.side_word
            )
            if best is not None:
                _tighten_bounds(run, objective, best)
            status = layout.PAUSED
            slice_nodes = 8  # small first: a node of a big hand can take milliseconds
            node_limit = phase.node_limit
            if stage is not None and node_limit is not None:
                node_limit = min(node_limit, NARROW_BESIDE_WORD_SEARCH)
            while search_clock() < deadline:
                slice_started = search_clock()
                nodes_before = run.nodes
                if stage is not None and stage.settled_meanwhile():
                    break
                # Node caps are met exactly, so a capped search is a pure function of its input.
                for cap in (node_limit, None if max_nodes is None else max_nodes - nodes):
                    if cap is not None:
                        slice_nodes = max(1, min(slice_nodes, cap - run.nodes))
                status = run.step(slice_nodes)
                if status != layout.SOLVED and best is None and (proved := stranded_proof(nodes + run.nodes)):
                    return proved
                if status == layout.SOLVED:
                    grid = run.grid()
                    if objective == "any":  # the first grid is the answer: no key to compute
                        best = grid
                        break
                    key = objective_key(objective, grid)
                    if best is None or key < best_key:
                        best, best_key = grid, key
                        _tighten_bounds(run, objective, grid)
                        if on_better is not None:
                            on_better(finish("solved", grid, nodes + run.nodes))
                        if key == unbeatable:  # the time left would find nothing better
                            return finish("solved", grid, nodes + run.nodes)
                elif status == layout.EXHAUSTED:
                    break
                if node_limit is not None and run.nodes >= node_limit:
                    break
                if max_nodes is not None and nodes + run.nodes >= max_nodes:
                    break
                slice_nodes = _next_slice(slice_nodes, run.nodes - nodes_before, slice_started, deadline)
            if best is None and (proved := stranded_proof(nodes + run.nodes)):  # no slice ran: the deadline
                return proved
            nodes += run.nodes
            if best is not None and objective == "any":
                break
            if status == layout.EXHAUSTED and run.root_complete():
                break  # the whole move space is searched: a wider pass finds nothing new
            if phase is plan.probe:
                continue
            small = base is None and len(tiles) <= WORD_SEARCH_UP_TO
            if best is None and not proof_tried and max_nodes is None and small:
                # Uncapped, the quick pass's failure starts the word search in threads of its own;
                # the proofs and a short narrow pass run beside it (WordStage).
                proof_tried, words_run = True, word_search_run(tiles, lexicon, min_length)
                stage = WordStage(words_run, deadline)
                settled = stage.start(counting_proof)
            elif stage is not None and phase is phases[1]:
                settled = stage.finish() if best is None else None
                stage.stop()  # a grid to improve on (the other objectives): the passes go on alone
            else:
                settled = None
            if settled is not None:
                status_name, grid, decisions, proof = settled
                return finish(status_name, grid, nodes + decisions, proof)
            if best is None and not proof_tried:
                # The quick pass found nothing: before the long one, try to prove there is nothing.
                proof_tried, proof = True, counting_proof()
                if proof:
                    return finish("no-grid", nodes=nodes, proof=proof)
            elif best is None and small and max_nodes is not None and phase is phases[1]:
                # A bot's capped search, after its narrow pass: the complete word search settles most
                # such hands (vowel-poor, dense) in milliseconds, the move model's full pass often never.
                words_run = word_search_run(tiles, lexicon, min_length)
                now = search_clock()
                end = now + max(deadline - now, 0.0) * WORD_SEARCH_SHARE
                settled = word_search_outcome(words_run, end, nodes_left(max_nodes, nodes))
                if settled is not None:
                    status_name, grid, decisions, proof = settled
                    return finish(status_name, grid, nodes + decisions, proof)
            if search_clock() >= deadline or (max_nodes is not None and nodes >= max_nodes):
                break
    finally:
        if stage is not None:
            stage.stop()
    if best is not None:
        return finish("solved", best, nodes)
    if status == layout.EXHAUSTED and run.root_complete():
        if base is None and len(tiles) <= PROOF_COMPLETE_UP_TO:
            return finish("no-grid", nodes=nodes, proof="exhaustive search")
        proof = "" if proof_tried else counting_proof()
        if proof:
            return finish("no-grid", nodes=nodes, proof=proof)
        if base is None and len(tiles) <= WORD_SEARCH_UP_TO and search_clock() < deadline:
            words_run = words_run or word_search_run(tiles, lexicon, min_length)  # resumes where it paused
            status_name, grid, decisions = run_word_search(
                words_run, deadline, node_budget=nodes_left(max_nodes, nodes)
            )
            if status_name == "solved":
                return finish("solved", grid, nodes + decisions)
            if status_name == "no-grid":
                return finish("no-grid", nodes=nodes + decisions, proof=WORD_SEARCH)
        return finish("exhausted", nodes=nodes)
    return finish("timeout", nodes=nodes)


def _next_slice(current: int, done: int, slice_started: float, deadline: float) -> int:
    """Nodes for the next kernel call: double while calls are short, but aim to come back
    within a quarter of the time left (and under 20 ms), so the deadline is kept."""
    now = search_clock()
    per_node = (now - slice_started) / max(done, 1)
    budget = min((deadline - now) / 4, 0.02)
    return int(max(1, min(current * 2, budget / max(per_node, 1e-7))))


def _unbeatable_key(
    tiles: TileCounts, lexicon: Lexicon, base: Grid | None, objective: str, min_length: int, max_nodes: int | None
) -> tuple | None:
    """The objective's key that no grid beats, for a search that may stop on reaching it; None
    for one that may not: objective 'any' (its first grid ends it anyway), `extend`, and a
    search capped in nodes, which spends its nodes as it always did (the bots' clock charges
    them: their measured paces stay)."""
    if objective == "any" or base is not None or max_nodes is not None:
        return None
    return best_possible_key(objective, len(tiles), longest_spelled_word(tiles, lexicon, min_length), min_length)


def _tighten_bounds(run: _Run, objective: str, grid: Grid) -> None:
    """Let the kernel prune branches that cannot beat `grid` for the objective."""
    if objective == "compact":
        run.state[layout.ST_BOUND_AREA] = grid.height * grid.width
    elif objective == "fewest-words":
        run.state[layout.ST_BOUND_DEPTH] = max(len(word_texts(grid)) - 1, 1)
