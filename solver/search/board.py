"""Live play: keep a valid grid through PEEL and DUMP, moving as few tiles as possible.

A `Board` holds a grid and a hand of unplaced tiles. Events add tiles (PEEL: one; DUMP:
three) or take one away (the dumped tile, from the hand or lifted out of the grid); each
returns a `Rebuild`: the new grid using every tile, how many placed tiles moved, the time
taken and the tier that succeeded. Tiers escalate under one deadline::

    unchanged  nothing to place
    hook       the hand goes on by hooks, extensions and new crossing words; nothing moves
    lift       one "leaf" word (crossing the rest of the grid once) is lifted and the rest
               rebuilt locally; leaves are tried smallest first
    rebuild    every leaf word is lifted at once and the core extended
    resolve    a full solve of all the tiles, aligned onto the old grid to keep what it can
    failed     no grid found before the deadline: the grid is kept, the tiles stay in hand

"Moved" counts the old grid's tiles that are not in the same cell with the same letter in
the new grid, after the translation that keeps the most of them (a grid has no fixed
origin on the table).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from solver.core.grid import Cell, Grid, best_translation, find_words, validate
from solver.core.tiles import HARD_FIRST, TileCounts, TileError, draw
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.search.native import search_clock
from solver.search.plans import SearchPlan
from solver.search.solving import Solution, engine_plan, extend, solve, warm_kernels

TIERS = ("unchanged", "hook", "lift", "rebuild", "resolve", "failed")


@dataclass
class Rebuild:
    """The outcome of one event."""

    grid: Grid | None
    hand: TileCounts
    moved: int
    elapsed_ms: float
    tier: str
    nodes: int = 0  # search nodes spent (the work a bot's simulated clock charges for)

    @property
    def ok(self) -> bool:
        """True unless the rebuild failed (tier 'failed': no grid holds every tile within the time limit)."""
        return self.tier != "failed"

    def to_json(self) -> dict:
        """The rebuild as the JSON of `bananas peel --json`: grid (rows or None), hand, moved (tiles),
        elapsed_ms, tier, nodes.
        """
        return {
            "grid": self.grid.to_json() if self.grid else None,
            "hand": self.hand.letters(),
            "moved": self.moved,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "tier": self.tier,
            "nodes": self.nodes,
        }


def tiles_moved(old: Grid | None, new: Grid | None) -> int:
    """Old tiles not found at the same place in `new`, under the best translation (the
    referee's measure, `solver.core.grid.best_translation`)."""
    if old is None:
        return 0
    return len(old.cells()) - best_translation(old, new)[1]


def one_tile_hooks(grid: Grid, letter: str, lexicon: Lexicon, min_length: int = 2) -> list[tuple[int, int, Cell]]:
    """Every empty cell next to `grid` where one tile `letter` makes only words (every run
    through the cell of two or more letters is a word of `min_length` or more), as (words
    formed, crowding, cell): fewest words first (1 or 2: the referee charges each; a run
    the tile lengthens counts as a new word, as the referee counts it), then least crowded
    (tiles among the 8 cells around: an open spot keeps room for later tiles), then cell
    order."""
    cells = grid.cells()
    spots = sorted(
        {(row + dr, col + dc) for row, col in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} - cells.keys()
    )
    hooks = []
    for spot in spots:
        words = 0
        for dr, dc in ((0, 1), (1, 0)):
            run = [letter]
            row, col = spot[0] - dr, spot[1] - dc
            while (row, col) in cells:
                run.insert(0, cells[(row, col)])
                row, col = row - dr, col - dc
            row, col = spot[0] + dr, spot[1] + dc
            while (row, col) in cells:
                run.append(cells[(row, col)])
                row, col = row + dr, col + dc
            if len(run) >= 2:
                if len(run) < min_length or "".join(run) not in lexicon:
                    break
                words += 1
        else:
            crowding = sum((spot[0] + dr, spot[1] + dc) in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            hooks.append((words, crowding, spot))
    hooks.sort()
    return hooks


def blocked_spots(grid: Grid, keep_open: TileCounts, lexicon: Lexicon, min_length: int = 2) -> dict[Cell, float]:
    """How much covering each cell would cost the letters of `keep_open` (tiles still to
    come that are hard to place): a tile on a letter's hook spot, or on a cell that would
    join the words through that spot (the first empty cell past each end of the runs
    through it), takes the spot away. A spot is worth count / (that letter's spots): the
    last spot for a Q matters most. Read off the grid as it is (the same look as the hook
    itself)."""
    cells = grid.cells()
    cost: dict[Cell, float] = {}
    for letter in set(keep_open.letters()):
        spots = [spot for *_, spot in one_tile_hooks(grid, letter, lexicon, min_length)]
        for spot in spots:
            touched = {spot}
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                row, col = spot[0] + dr, spot[1] + dc
                while (row, col) in cells:
                    row, col = row + dr, col + dc
                touched.add((row, col))
            for cell in touched:
                cost[cell] = cost.get(cell, 0.0) + keep_open[letter] / len(spots)
    return cost


def leaf_words(grid: Grid) -> list[tuple[str, list[Cell]]]:
    """Words that cross the rest of the grid exactly once, with their other ("private")
    cells: lifting those cells leaves a connected grid. Smallest first."""
    words = find_words(grid)
    if len(words) < 2:
        return []
    usage: Counter = Counter(cell for word in words for cell in word.cells)
    leaves = []
    for word in words:
        shared = [cell for cell in word.cells if usage[cell] > 1]
        private = [cell for cell in word.cells if usage[cell] == 1]
        if len(shared) == 1 and private:
            leaves.append((word.text, private))
    leaves.sort(key=lambda leaf: (len(leaf[1]), leaf[0], leaf[1]))
    return leaves


def lift(grid: Grid, cells: list[Cell]) -> tuple[Grid | None, TileCounts]:
    """The grid without `cells` (None when nothing is left) and the lifted tiles."""
    remaining = grid.cells()
    lifted = "".join(remaining.pop(cell) for cell in cells)
    return (Grid.from_cells(remaining) if remaining else None), TileCounts.from_letters(lifted)


class Board:
    """A player's grid and hand, kept valid through PEEL and DUMP events.

    `lexicon` is a Lexicon or a name for `get_lexicon`; `grid` a valid Grid (None: no grid yet);
    `hand` the tiles not on it (a TileCounts or letters); `time_limit` the seconds each
    operation may take. `add`, `remove` and `rebuild` return a Rebuild (the grid, the hand
    left, the tiles moved, the time in ms, the tier that placed them, or 'failed')."""

    def __init__(
        self,
        lexicon: Lexicon | str = "en",
        grid: Grid | None = None,
        hand: TileCounts | str = "",
        min_length: int = 2,
        seed: int | None = None,
        time_limit: float = 2.0,
        node_budget: int | None = None,
        plan: SearchPlan | None = None,
    ):
        """`node_budget` caps the search nodes of each search call (a full re-solve gets
        four times as many) instead of slicing the time limit: rebuilds then depend only on
        the board (the time limit stays a safety net). `plan` is the searches' passes
        (`solver.search.plans.SearchPlan`; None: the engine's; a bot names its own)."""
        self.lexicon = get_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
        self.grid = grid.trimmed() if grid is not None else None
        self.hand = TileCounts.of(hand)
        self.min_length = min_length
        self.seed = seed
        self.time_limit = time_limit
        self.node_budget = node_budget
        self.plan = plan
        self.objective = "any"  # what a full re-solve optimises within its node budget
        self.cheap_hooks = False  # one tile goes where it forms the fewest words (one look)
        self.patience: int | None = None  # search nodes a whole rebuild may spend (None: no cap)
        self.keep_open = TileCounts()  # cheap hooks avoid covering these letters' hook spots
        self.opening = 0  # nodes the first grid's search goes on past its first grid, for fewer words
        self.opening_words = 0  # ... only when that first grid has more words than this (0: always)
        self.side_words = 0.0  # the first grid's move order: weight against a move's side words (SearchPlan)
        self.side_words_everywhere = False  # ... and every search's, the rebuilds' too
        self.nodes = 0  # search nodes spent by the current rebuild
        if self.grid is not None:
            report = validate(self.grid, self.lexicon, min_length=min_length)
            if not report.ok:
                raise ValueError("the starting grid is not valid: " + "; ".join(report.problems()))

    @classmethod
    def mended(cls, lexicon: Lexicon | str, grid: Grid, hand: TileCounts, min_length: int = 2, **options) -> Board:
        """A board from a grid that may break the rules (a rotten banana's, a grid still being
        built): its broken words and stray parts go back to the hand, as `remove` mends a grid.
        `options` are the constructor's (seed, time_limit, node_budget, plan)."""
        board = cls(lexicon, None, hand, min_length, **options)
        board.grid, board.hand = grid.trimmed(), hand
        board._mend()
        return board

    @property
    def tiles(self) -> TileCounts:
        """Every tile the player holds: on the grid and in the hand."""
        return self.hand + (self.grid.tiles() if self.grid is not None else TileCounts())

    # -- events -----------------------------------------------------------------------
    def add(self, letters: TileCounts | str, time_limit: float | None = None) -> Rebuild:
        """New tiles (a PEEL draw, a DUMP's three) join the hand; then rebuild."""
        self.hand = self.hand + TileCounts.of(letters)
        return self.rebuild(time_limit)

    def remove(self, letter: str, cell: Cell | None = None, time_limit: float | None = None) -> Rebuild:
        """Take one tile away (the dumped tile): from the hand, or lifted out of the grid
        at `cell` (row, col of `board.grid`, which is kept trimmed to its tiles). The grid
        is then mended (parts left disconnected or broken go back to the hand) and rebuilt;
        the mended tiles count as moved."""
        letter = letter.upper()
        if len(letter) != 1:
            raise TileError(f"remove takes exactly one tile, got {letter!r}")
        if cell is None:
            self.hand = self.hand - TileCounts.from_letters(letter)
            return self.rebuild(time_limit)
        cells = self.grid.cells() if self.grid is not None else {}
        if cells.get(cell) != letter:
            raise TileError(f"no {letter} at row {cell[0] + 1}, column {cell[1] + 1} of the grid")
        started = search_clock()
        assert self.grid is not None  # the cell held the tile, so there is a grid
        self.grid, _ = lift(self.grid, [cell])
        before = self.grid  # the dumped tile itself is not "moved"
        mended = self._mend()
        result = self.rebuild(time_limit)
        result.moved = tiles_moved(before, result.grid)
        if mended and result.tier == "hook":
            result.tier = "lift"  # tiles were lifted to mend the grid
        result.elapsed_ms = (search_clock() - started) * 1000
        return result

    def _mend(self) -> int:
        """After a tile is pulled out: lift stray parts and broken words into the hand
        until what is left is a valid grid. Returns the number of tiles lifted."""
        lifted_count = 0
        while self.grid is not None:
            report = validate(self.grid, self.lexicon, min_length=self.min_length)
            if report.ok:
                break
            if len(report.components) > 1:
                cells = [cell for part in report.components[1:] for cell in part]
            else:
                usage = Counter(cell for word in report.words for cell in word.cells)
                broken = report.invalid_words[0]
                cells = [cell for cell in broken.cells if usage[cell] == 1] or list(broken.cells)
            self.grid, lifted = lift(self.grid, cells)
            self.hand = self.hand + lifted
            lifted_count += len(lifted)
        return lifted_count

    # -- the escalating rebuild --------------------------------------------------------
    def rebuild(self, time_limit: float | None = None, up_to: str = "resolve") -> Rebuild:
        """Place the whole hand, moving as few grid tiles as possible, before the deadline.
        `up_to` is the last tier tried (hook, lift, rebuild or resolve); a first grid is
        always a full solve."""
        if up_to not in TIERS[1:5]:
            raise ValueError(f"up_to is one of {', '.join(TIERS[1:5])}, got {up_to!r}")
        warm_kernels(self.lexicon)  # compile/load the kernels before the clock starts
        started = search_clock()
        deadline = started + (self.time_limit if time_limit is None else time_limit)
        old = self.grid
        self.nodes = 0
        outcome = self._place(deadline, TIERS.index(up_to))
        tier, grid = outcome if outcome else ("failed", old)
        if outcome:
            self.grid, self.hand = grid, TileCounts()
        moved = tiles_moved(old, grid) if outcome else 0
        return Rebuild(self.grid, self.hand, moved, (search_clock() - started) * 1000, tier, self.nodes)

    def _place(self, deadline: float, last_tier: int) -> tuple[str, Grid] | None:
        if len(self.hand) == 0:
            return ("unchanged", self.grid) if self.grid is not None else None
        if self.grid is None:
            return self._resolve(deadline)
        if self.cheap_hooks and len(self.hand) == 1:
            placed = self._cheapest_hook()
        else:
            placed = self._extend(self.grid, self.hand, deadline)
        if placed:
            return "hook", placed
        if last_tier < TIERS.index("lift"):
            return None
        leaves = leaf_words(self.grid)
        for _, cells in leaves:
            if search_clock() >= deadline or self._cap(None) == 0:
                return None
            core, lifted = lift(self.grid, cells)
            assert core is not None  # a leaf word's shared cell stays on the grid
            placed = self._extend(core, self.hand + lifted, deadline)
            if placed:
                return "lift", placed
        if last_tier < TIERS.index("rebuild"):
            return None
        if len(leaves) > 1:
            core, lifted = lift(self.grid, sorted({cell for _, cells in leaves for cell in cells}))
            if core is not None and validate(core, self.lexicon, min_length=self.min_length).ok:
                placed = self._extend(core, self.hand + lifted, deadline)
                if placed:
                    return "rebuild", placed
        return self._resolve(deadline) if last_tier >= TIERS.index("resolve") else None

    def _cheapest_hook(self) -> Grid | None:
        """One look at the grid for the spot where the hand's one tile forms fewest words."""
        self.nodes += 1
        assert self.grid is not None  # only called once there is a grid
        letter = self.hand.letters()
        hooks = one_tile_hooks(self.grid, letter, self.lexicon, self.min_length)
        if not hooks:
            return None
        fewest = [hook for hook in hooks if hook[0] == hooks[0][0]]
        if len(fewest) > 1 and len(self.keep_open):
            blocked = blocked_spots(self.grid, self.keep_open, self.lexicon, self.min_length)
            fewest.sort(key=lambda hook: (blocked.get(hook[-1], 0.0), hook))
        cells = self.grid.cells()
        cells[fewest[0][-1]] = letter
        return Grid.from_cells(cells)

    def can_place_quickly(self) -> bool:
        """Hook and a few single-lift tries only (what a dump estimate can afford)."""
        deadline = search_clock() + self.time_limit
        if self.grid is None:
            return bool(self._resolve(deadline))
        if self._extend(self.grid, self.hand, deadline):
            return True
        for _, cells in leaf_words(self.grid)[:3]:
            core, lifted = lift(self.grid, cells)
            assert core is not None  # a leaf word's shared cell stays on the grid
            if self._extend(core, self.hand + lifted, deadline):
                return True
        return False

    def _cap(self, budget: int | None) -> int | None:
        """The nodes the next search call may spend: its budget, within the patience left."""
        if self.patience is None:
            return budget
        left = max(0, self.patience - self.nodes)
        return left if budget is None else min(budget, left)

    def _extend(self, base: Grid, hand: TileCounts, deadline: float) -> Grid | None:
        remaining = deadline - search_clock()
        cap = self._cap(self.node_budget)
        if remaining <= 0 or cap == 0:
            return None
        # A local rebuild gets a slice of the time (or the node budget): the next tier may do better.
        if cap is None:
            result = extend(
                base,
                hand,
                self.lexicon,
                time_limit=min(remaining, 0.05 + remaining / 8),
                seed=self.seed,
                min_length=self.min_length,
                plan=self._search_plan("any"),
            )
        else:
            result = extend(
                base,
                hand,
                self.lexicon,
                time_limit=remaining,
                seed=self.seed,
                min_length=self.min_length,
                max_nodes=cap,
                plan=self._search_plan("any"),
            )
        self.nodes += result.nodes
        return result.grid if result.solved else None

    def _resolve(self, deadline: float) -> tuple[str, Grid] | None:
        remaining = deadline - search_clock()
        budget = self._cap(None if self.node_budget is None else 4 * self.node_budget)
        if remaining <= 0 or budget == 0:
            return None
        objective = self.objective if budget else "any"
        result = solve(
            self.tiles,
            self.lexicon,
            time_limit=remaining,
            seed=self.seed,
            min_length=self.min_length,
            max_nodes=budget,
            objective=objective,
            plan=self._search_plan(objective),
        )
        if (
            result.solved
            and self.grid is None
            and self.opening
            and objective == "any"
            and len(result.words) > self.opening_words
        ):
            result = self._opening(result, budget, deadline)
        self.nodes += result.nodes
        if not result.solved:
            return None
        assert result.grid is not None  # a solved result carries its grid
        return ("resolve", result.grid)

    def _search_plan(self, objective: str) -> SearchPlan | None:
        """The passes of a search: the board's, and with `side_words` for a first grid (no grid
        yet; any search with `side_words_everywhere`), moves that make fewer side words first (each
        is a word on the referee's clock)."""
        if not self.side_words or (self.grid is not None and not self.side_words_everywhere):
            return self.plan
        return replace(self.plan or engine_plan(objective), side_word=self.side_words)

    def _opening(self, first: Solution, budget: int | None, deadline: float) -> Solution:
        """The first grid with the fewest words that the same search finds within `opening` nodes past
        `first` (its first grid): the search run again, seeking fewest words, capped there. Up to its
        first grid that search examines the very same nodes (the objective prunes only once it has a
        grid), so its node count is the looks of one search that went on a little: what is charged."""
        cap = first.nodes + self.opening if budget is None else min(budget, first.nodes + self.opening)
        remaining = deadline - search_clock()
        if cap <= first.nodes or remaining <= 0:
            return first
        better = solve(
            self.tiles,
            self.lexicon,
            time_limit=remaining,
            seed=self.seed,
            min_length=self.min_length,
            max_nodes=cap,
            objective="fewest-words",
            plan=self._search_plan("any"),
        )
        if better.solved and len(better.words) <= len(first.words):
            return better
        return replace(first, nodes=max(first.nodes, better.nodes))  # the looks were spent all the same


# -- dump advice -----------------------------------------------------------------------


@dataclass
class DumpOption:
    """The estimated chance of completing the grid after dumping `letter`."""

    letter: str
    completions: int
    samples: int

    @property
    def chance(self) -> float:
        """completions / samples: the estimated probability (0.0 to 1.0) of completing the grid after this
        dump; 0.0 without samples.
        """
        return self.completions / self.samples if self.samples else 0.0


@dataclass
class DumpAdvice:
    """Which tile to dump, with the estimate behind it."""

    recommended: str | None  # the best letter to dump, if one dumps (None: the bunch has under 3 tiles)
    keep_chance: float  # can the hand be completed as it is (1.0 or 0.0)
    options: list[DumpOption] = field(default_factory=list)
    nodes: int = 0  # search nodes the estimate spent (what a bot's clock charges as looks)

    @property
    def advised(self) -> str | None:
        """The dump to make: None when the hand completes the grid as it is (no dump is needed:
        `recommended` is then only the best of the options) or when no dump is possible. What
        `bananas dump` and the JSON's `recommended` say; a coach reviewing a DUMP already made
        reads `recommended`."""
        return None if self.keep_chance == 1.0 else self.recommended

    def to_json(self) -> dict:
        """The advice as the JSON of `bananas dump --json`: recommended (the `advised` letter, or
        None when no dump is needed or possible), complete_without_dump, options (letter, chance,
        completions, samples; best first), nodes.
        """
        return {
            "recommended": self.advised,
            "complete_without_dump": self.keep_chance == 1.0,
            "options": [
                {"letter": o.letter, "chance": round(o.chance, 4), "completions": o.completions, "samples": o.samples}
                for o in self.options
            ],
            "nodes": self.nodes,
        }


TRIAL_NODE_BUDGET = 200  # search nodes per tier of each dump-advice trial


def dump_advice(
    board: Board,
    bunch: TileCounts,
    samples: int = 16,
    seed: int = 0,
    time_per_try: float = 1.0,
    trial_budget: int | None = None,
    known_stuck: bool = False,
) -> DumpAdvice:
    """Estimate, for each distinct letter of the hand, the chance that dumping it and
    drawing three tiles from `bunch` (with the dumped tile mixed in first) leads to a
    complete grid, by seeded Monte Carlo over `samples` draws with a quick rebuild
    (hook and lift tiers) each. Each try is capped in search nodes (the board's budget,
    else TRIAL_NODE_BUDGET), so the estimate does not depend on the machine's speed;
    `time_per_try` is only a safety net. Recommends the letter with the best chance; ties go to
    the harder letter (the one the solver would rather spend). `trial_budget` overrides the
    nodes per tier of a trial; `known_stuck` skips checking whether the hand completes as it
    is (the caller has just failed to place it: keep_chance 0). The advice's `nodes` count
    every search node it spent."""
    # Node caps keep the estimate machine-independent.
    budget = trial_budget or board.node_budget or TRIAL_NODE_BUDGET
    nodes, keep_chance = 0, 0.0
    if not known_stuck:
        keep = Board(
            board.lexicon, board.grid, board.hand, board.min_length, board.seed, time_per_try, budget, plan=board.plan
        )
        keep_chance = 1.0 if keep.rebuild().ok else 0.0
        nodes += keep.nodes
    options = []
    rng = np.random.default_rng(seed)
    for letter in sorted(set(board.hand.letters())):
        pool = bunch + TileCounts.from_letters(letter)
        if len(pool) < 3:
            continue
        wins = 0
        for _ in range(samples):
            hand = board.hand - TileCounts.from_letters(letter) + draw(pool, 3, rng)
            trial = Board(
                board.lexicon, board.grid, hand, board.min_length, board.seed, time_per_try, budget, plan=board.plan
            )
            wins += trial.can_place_quickly()
            nodes += trial.nodes
        options.append(DumpOption(letter, wins, samples))
    options.sort(key=lambda o: (-o.chance, HARD_FIRST.index(o.letter), o.letter))
    return DumpAdvice(options[0].letter if options else None, keep_chance, options, nodes)
