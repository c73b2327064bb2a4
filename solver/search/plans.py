"""The search's passes: a `Phase` (one configuration of the move-search kernel), a `SearchPlan` (the
phases for small and large hands, and the probe before them), and the engine's passes, with the
measurements that chose them. `solver.search.solving` runs them (`engine_plan` there picks the
engine's plan for an objective); the bots name their own (`solver.play.bots.BOT_SEARCH`).
"""

from __future__ import annotations

from dataclasses import dataclass

EXHAUSTIVE_UP_TO = 30  # hands of up to this many tiles are small: `SearchPlan.small_hands`


@dataclass(frozen=True)
class Phase:
    """One search pass: its move-list cap (0 = all moves), generation budget in DAWG
    steps per node, and node limit (None = until the deadline). Phases run in turn; a
    pass whose lists were never cut can end in a proof."""

    max_branch: int
    gen_budget: int
    node_limit: int | None


# Small hands: a quick pass on short move lists (most hands end here in about a
# millisecond); then (after the letter-count proof) a narrow pass, the 8 best moves per
# position, which finds the grids of vowel-poor hands in a fraction of the full search's
# time; then a complete search that can prove the move space empty.
NARROW_PASS = Phase(8, 20_000, 20_000)
COMPLETE_PASS = Phase(0, 1 << 40, None)
# The quick pass lists a position's moves within a budget of DAWG steps. Looking for the first
# grid (objective 'any'), the search needs a few good moves a position, not all of them, and
# the walks are most of a small hand's time (about 0.1 us a step, memory-bound): on 1,000
# seeded hands a size, 700 steps against 6,000 cut the median solve by 35% at 11 tiles, 55% at
# 15, 70% at 21 and 75% at 30, and sent 1-3 hands in 1,000 more to the later passes (500 sent
# more, with tails of tens of ms). Comparing grids (the other objectives) wants the long words
# a short walk never reaches: at 1,000 steps, 15-30 tile hands got grids with more words
# (fewest-words) and shorter longest words in the same time, so those searches keep 6,000
# (benchmarks/results/2026-12-02-solve-smallpass.md).
FIRST_GRID_STEPS = 700
BEST_GRID_STEPS = 6_000
# Large hands cannot be searched exhaustively: keep the best moves of a budgeted
# generation, then widen both. The first pass's budget is small: a big hand's long words come
# from the first start squares walked (each may take START_STEPS_FLOOR steps), and more steps
# mostly list moves that are dropped; on seeded 31-144 tile hands, vowel-poor ones included, a
# budget of 4,000 sent no more hands to the wide pass than 50,000 did, at a third of the time
# (bench_solve, 2026-12-02).
LARGE_HAND_PHASES = (Phase(16, 4_000, 400), Phase(48, 400_000, None))
# Looking for a first grid, a large hand tries shorter lists first: 60 nodes on 1,000 steps'
# moves, then the passes above. On seeded 31-144 tile hands the median solve fell by 40-45%
# against 4,000 steps alone (benchmarks/results/2026-12-06-first-pass.md). A first pass on fewer
# steps with the same 400 nodes was as fast, but the odd hand then searched thousands of nodes
# where 4,000 steps took a few (at 40 tiles, 2,000 steps: 15,914 nodes, 78 ms, against 7): the
# 60 nodes cap what such a hand pays.
FIRST_GRID_LARGE_HANDS = (Phase(16, 1_000, 60), *LARGE_HAND_PHASES)
# The probe: before a small hand's quick pass, a search of 20 nodes on moves listed within 200
# steps. Most hands' first grid is among those moves (a median of 3-6 nodes at 11-30 tiles), and
# listing 200 steps' moves a node instead of 700 halves their solve; a hand the probe does not
# settle goes on to the passes as before, the probe's 20 short nodes (some 0.2 ms) more.
# On 600 seeded hands a size, 11-30 tiles, the median solve fell by 35-48%; the mean fell at 15-30
# tiles and moved within 15% either way at 11, where the no-grid hands pay the probe's nodes too
# (benchmarks/results/2026-12-06-first-pass.md).
FIRST_GRID_PROBE = Phase(0, 200, 20)


@dataclass(frozen=True)
class SearchPlan:
    """The passes a search runs: `small_hands` for hands of up to EXHAUSTIVE_UP_TO tiles,
    `large_hands` beyond. The engine's (`engine_plan`) are tuned for `bananas solve`; a
    caller whose results were calibrated on a plan (the bots' play and pace,
    `solver.play.bots.BOT_SEARCH`) names its own, so tuning the engine's cannot change them.
    `side_word` is taken off a move's score for each side word it makes (a hand tile laid beside
    a tile across the move: a word of its own), so moves that make fewer words come first (0:
    the default order, `solver.search.ordering`). `probe`, when set, is a short pass a small hand
    on an empty board runs before `small_hands`: a grid it finds is the answer, and if it finds
    none the passes run as if it had not (the proofs and the word search follow them, not it)."""

    small_hands: tuple[Phase, ...]
    large_hands: tuple[Phase, ...]
    side_word: float = 0.0
    probe: Phase | None = None

    def __post_init__(self) -> None:
        if len(self.small_hands) < 2 or not self.large_hands:
            raise ValueError("a plan needs two or more small-hand passes (the word search follows the second)")

    def phases(self, tile_count: int) -> tuple[Phase, ...]:
        """The passes for a hand of `tile_count` tiles."""
        return self.small_hands if tile_count <= EXHAUSTIVE_UP_TO else self.large_hands

    def passes(self, tile_count: int, extending: bool = False) -> tuple[Phase, ...]:
        """The passes a search runs in turn: `phases`, after the probe for a small hand on an
        empty board (not `extending` a grid)."""
        phases = self.phases(tile_count)
        if self.probe is None or extending or tile_count > EXHAUSTIVE_UP_TO:
            return phases
        return (self.probe, *phases)

    def small_first_pass(self) -> Phase:
        """The pass a small hand on an empty board runs first: the probe, or the first of `small_hands`."""
        return self.passes(EXHAUSTIVE_UP_TO)[0]
