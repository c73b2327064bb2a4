"""Word sets: settle a hand by the sets of words a grid could use, one set at a time.

The word search (`solver.search.wordsearch`) is complete, but on some vowel-poor 21-tile
hands it needs minutes: it tries every word the hand spells (500-2,000 of them) at every open
tile. A grid uses a handful of words, and counting alone rules out most handfuls. So this
search works in two levels (a logic-based Benders decomposition):

1. an integer program (SciPy's `milp`, HiGHS) picks a multiset of spelled words, by letter
   counts (`x[v]` words of letter-count vector v), and how many tiles of each letter lie in
   two of them (`y[l]`, crossings), fewest crossings first, subject to what every valid grid
   satisfies:

   - letter counts: sum_v x[v] * v[l] = hand[l] + y[l], 0 <= y[l] <= hand[l];
   - connected: 1 <= sum_v x[v] <= 1 + sum_l y[l] (the crossings link the words);
   - *crossings are a simple graph* (added when the program's answer breaks one): an across
     and a down word share at most one cell, so the crossings at the letters of a set L join
     distinct pairs of the m words holding a letter of L; when m <= 3, at most m - 1 pairs
     (a pair, or a path: two across and one down word meet at most twice). Written
     y(L) <= m_L - 1 + (hand(L) - 3) * b_L, with a binary b_L that may be 1 only if
     m_L >= 4 (then y(L) <= hand(L) <= m_L - 1 + hand(L) - 3; no b_L when hand(L) <= 3);
   - *words made only of the letters of A hang on crossings at A's letters* (added likewise):
     when the hand has a letter outside A, each word spelled from A alone needs its own
     crossing toward the rest of the grid (the edge to its parent in a spanning tree rooted
     outside them), and that cell lies in the word, so its letter is in A:
     y(A) >= sum of x[v] over the vectors v spelled from A alone;
   - *the sets already searched hold no grid*: some word lies outside each (below).

2. the word search, restricted to the words of a set S that holds the multiset, lays them
   out: a grid (checked by the validator) settles the hand; a search that ends without one
   proves that no grid uses the words of S alone, so the program gets the row
   sum_{v not in S} x[v] >= 1 and is solved again. S is first widened to every word of the
   same vowel content and length as one of the multiset's (`ROLES`), then narrowed to the
   multiset's words when that search does not end within its decisions: a wide S answers for
   many multisets at once.

Every row holds for every valid grid, so when the program has no solution, no grid exists:
that is the proof `WORD_SETS`. Tested against the reference oracle, the cell-by-cell search
and, row family by row family, on the grids `solve` returns (tests/search/test_wordsets.py).

Its integer programs are bounded by time only, so like the crossing argument it runs in
uncapped solves (`solving`), never in a bot's node-capped one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from solver.core.tiles import TileCounts
from solver.search import native

WORD_SETS = (
    "word sets: no set of spelled words that could hold every tile and cross into one connected grid "
    "lays out as one (solver/search/wordsets.py)"
)
VOWELS = (0, 4, 8, 14, 20, 24)  # A E I O U Y: a word's vowel content is its role
# A set S is first widened to the words of the same vowel content and length as a word of the
# multiset, then left as the multiset's words; the wide search gets this many decisions (about
# 0.3 s) before the narrow one (no cap). On the 13 hands of issue 36 the word search had left
# (1 s each, before the program had an objective), this settled 4, the multiset's words alone 3,
# vowel content alone 2.
ROLES = ("vowels and length", "words")
ROLE_DECISIONS = (150_000, None)
SLICE = 0.02  # seconds: a restricted search checks `stop` this often
# Seconds a solve of the program gets at first (HiGHS cannot be stopped from outside, so this
# bounds how late a `stop` is seen); doubled each time a solve runs out of it before its answer
# is proved to have the fewest crossings (an answer short of that leads to the grids of vowel-poor
# hands later: CDDHLLLNOPPRRRRRRSTUW and ACEFGHMNNNNNNRSSSSTTV were solved within 1 s in 5 and 3
# of 8 solves, against 8 and 8). Only a solve that runs to the deadline uses such an answer.
PROGRAM_SLICE = 0.25
CUT_LETTERS = 3  # simple-graph rows are tried for sets of up to this many crossing letters


@dataclass
class _Rows:
    """The rows added to the program so far: simple-graph letter sets (bit masks), hanging
    letter sets, and the searched sets (vector indices)."""

    simple: list[int] = field(default_factory=list)
    hanging: list[int] = field(default_factory=list)
    searched: list[np.ndarray] = field(default_factory=list)


class WordSets:
    """One hand's decomposition (module docstring), run in calls that stop at a deadline:
    `run` returns (status, grid or None, decisions): 'solved', 'no-grid' or 'timeout'."""

    def __init__(self, tiles: TileCounts, lexicon, min_length: int, words: list[str], stop=lambda: False):
        """`words`: the words the hand spells (upper case); `stop`: called between slices of
        the restricted searches, True ends the step ('timeout')."""
        self.tiles, self.lexicon, self.min_length, self.stop = tiles, lexicon, min_length, stop
        self.hand = tiles.counts.astype(np.int64)
        by_vector: dict[tuple, list[str]] = {}
        for word in words:
            by_vector.setdefault(tuple(TileCounts.from_letters(word).counts.tolist()), []).append(word)
        self.spelled = list(by_vector.values())
        self.vectors = np.array(list(by_vector), dtype=np.int64).reshape(-1, 26)
        self.masks = ((self.vectors > 0) * (1 << np.arange(26))).sum(axis=1)
        # A tile lies in two words at most: no grid has more copies of a word than that allows.
        ratios = np.full(self.vectors.shape, np.inf)
        np.divide(2 * self.hand, self.vectors, out=ratios, where=self.vectors > 0)
        self.most = np.floor(ratios.min(axis=1, initial=np.inf))
        self.hand_mask = int(sum(1 << code for code in np.flatnonzero(self.hand)))
        self.rows = _Rows()
        self.decisions = 0
        self.sets = 0  # restricted searches that ended without a grid
        self.paused: tuple | None = None  # (set, search, decisions) of an uncapped search the deadline stopped
        self.program_slice = PROGRAM_SLICE

    def run(self, deadline: float) -> tuple:
        """`step` until the hand is settled or the deadline passes."""
        while True:
            status, grid = self.step(deadline)
            if status != "open":
                return status, grid, self.decisions
            if native.search_clock() >= deadline:
                return "timeout", None, self.decisions

    def step(self, deadline: float) -> tuple:
        """One multiset: the program's next (or the one whose narrow search paused), laid out.
        (status, grid): 'solved', 'no-grid', 'open' (this set holds no grid, others remain)
        or 'timeout' (the deadline came first; the next step resumes a paused search)."""
        if len(self.vectors) == 0:
            return "no-grid", None
        if self.paused is not None:
            chosen, search, counted = self.paused
            self.paused = None
            return self._searched(chosen, search, counted, None, deadline)
        multiset = self._next_multiset(deadline)
        if multiset is None:
            return "no-grid", None
        if isinstance(multiset, str):  # 'retry' (out of its slice: again, with more) or 'timeout'
            return ("open" if multiset == "retry" else "timeout"), None
        return self._lay_out(multiset, deadline)

    # -- level 2: the restricted word search ------------------------------------------

    def _lay_out(self, multiset: np.ndarray, deadline: float) -> tuple:
        """Search the words of ever narrower sets holding `multiset` (vector indices)."""
        from solver.search.wordsearch import WordSearch

        for role, decisions in zip(ROLES, ROLE_DECISIONS):
            chosen = self._widened(multiset, role)
            if len(chosen) == len(multiset):  # no wider than the multiset's own words: search them to the end
                decisions = None
            words = [word for index in chosen for word in self.spelled[index]]
            search = WordSearch(self.tiles, self.lexicon, self.min_length, spelled=words)
            status, grid = self._searched(chosen, search, 0, decisions, deadline)
            if status != "timeout" or decisions is None or native.search_clock() >= deadline or self.stop():
                return status, grid
        return "timeout", None

    def _searched(self, chosen: np.ndarray, search, counted: int, decisions: int | None, deadline: float) -> tuple:
        """Run a restricted `search` (`counted` of its decisions counted already) for up to
        `decisions` more: a grid (validated) settles the hand, an end without one makes
        `chosen` a row ('open'); an uncapped search stopped by the deadline is kept to resume."""
        from solver.core.grid import validate

        budget = None if decisions is None else counted + decisions
        used = counted
        while True:  # in slices, so that a `stop` (the caller's other search has settled the hand) is seen
            before = used
            status, grid, used = search.run(min(deadline, native.search_clock() + SLICE), budget)
            spent = used == before or (budget is not None and used >= budget)  # (no progress: pool overflow)
            if status != "timeout" or spent or native.search_clock() >= deadline or self.stop():
                break
        self.decisions += used - counted
        if status == "solved":
            if validate(grid, self.lexicon, tiles=self.tiles, min_length=self.min_length).ok:
                return "solved", grid
            return "timeout", None  # cannot happen unless the search is wrong: no claim made
        if status == "no-grid":
            self.rows.searched.append(chosen)
            self.sets += 1
            return "open", None
        if decisions is None:
            self.paused = (chosen, search, used)
        return "timeout", None

    def _widened(self, multiset: np.ndarray, role: str) -> np.ndarray:
        if role == "words":
            return multiset
        keys = self.vectors[:, VOWELS]
        if role == "vowels and length":
            keys = np.hstack([keys, self.vectors.sum(axis=1, keepdims=True)])
        wanted = {tuple(row) for row in keys[multiset].tolist()}
        return np.array([i for i, row in enumerate(keys.tolist()) if tuple(row) in wanted], dtype=np.int64)

    # -- level 1: the integer program -------------------------------------------------

    def _next_multiset(self, deadline: float):
        """Vector indices of a multiset the program allows, None when it allows none (the
        proof), 'timeout', or 'retry' (a solve ran out of its slice, or `stop` came: call again).
        Rows the answer breaks are added and the program solved again."""
        while True:
            answer = self._solve_program(deadline)
            if answer is None or isinstance(answer, str):
                return answer
            x, y = answer
            if not self._add_broken_rows(x, y):
                return np.flatnonzero(x)
            if self.stop():
                return "retry"

    def _add_broken_rows(self, x: np.ndarray, y: np.ndarray) -> bool:
        """Add the simple-graph and hanging rows that (x, y) breaks; whether any was."""
        added = False
        chosen = np.flatnonzero(x)
        crossed = np.flatnonzero(y).tolist()
        for size in range(1, CUT_LETTERS + 1):
            for letters in itertools.combinations(crossed, size):
                mask = sum(1 << code for code in letters)
                holders = int(x[chosen][(self.masks[chosen] & mask) != 0].sum())
                if holders <= 3 and y[list(letters)].sum() > holders - 1 and mask not in self.rows.simple:
                    self.rows.simple.append(mask)
                    added = True
        word_masks = {int(mask) for mask in self.masks[chosen]}
        for mask in word_masks | {a | b for a in word_masks for b in word_masks}:
            if self.hand_mask & ~mask == 0 or mask in self.rows.hanging:
                continue
            inside = int(x[chosen][(self.masks[chosen] & ~mask) == 0].sum())
            if y[[code for code in range(26) if mask >> code & 1]].sum() < inside:
                self.rows.hanging.append(mask)
                added = True
        return added

    def _solve_program(self, deadline: float):
        """(x, y) of a solution, None when infeasible, 'timeout', 'retry' (out of its slice before
        an answer was proved to have the fewest crossings; the slice is doubled for the next solve)."""
        with native.one_time_setup():  # SciPy's first import: the process's cost, not the search's
            from scipy.optimize import Bounds, LinearConstraint, milp  # type: ignore[import-untyped]

        left = deadline - native.search_clock()
        if left <= 0:
            return "timeout"
        sliced = left > self.program_slice
        count, binaries = len(self.vectors), len(self.rows.simple)
        columns = count + 26 + binaries
        matrix, lower, upper = self._program_rows(count, binaries)
        hand = self.hand.astype(np.float64)
        # Fewest crossing tiles first (equally: the fewest letters in all the words). Any answer
        # would do for the proof; this order reaches the grids of vowel-poor hands sooner, which
        # are trees of short words: on issue 36's 13 open hands (1 s each) it settled 6, against 4
        # with no objective (HiGHS's first answer) and 6 (but slower) with the most words.
        objective = np.zeros(columns)
        objective[count : count + 26] = 1
        result = milp(
            objective,
            constraints=[LinearConstraint(matrix, lower, upper)],
            integrality=np.ones(columns),
            bounds=Bounds(np.zeros(columns), np.concatenate([self.most, hand, np.ones(binaries)])),
            options={"time_limit": min(left, self.program_slice), "presolve": True},
        )
        if result.status == 2:
            return None
        if result.status == 1 and sliced:  # out of its slice before the fewest were proved: again
            self.program_slice *= 2
            return "retry"
        if result.status not in (0, 1) or result.x is None:
            return "timeout"  # out of time before any answer, or anything else: no claim
        # (status 1 with an answer: out of time before the fewest crossings were proved fewest;
        # any answer that meets every row will do)
        values = np.round(result.x).astype(np.int64)
        return values[:count], values[count : count + 26]

    def _program_rows(self, count: int, binaries: int) -> tuple:
        """The constraint matrix and its row bounds (columns: x, y, b)."""
        rows: list[np.ndarray] = []
        lower: list[float] = []
        upper: list[float] = []

        def row(on_x, on_y, on_b, low: float, high: float) -> None:
            rows.append(np.concatenate([on_x, on_y, on_b]))
            lower.append(low)
            upper.append(high)

        no_y, no_b = np.zeros(26), np.zeros(binaries)
        for letter in range(26):
            on_y = no_y.copy()
            on_y[letter] = -1
            row(self.vectors[:, letter].astype(np.float64), on_y, no_b, self.hand[letter], self.hand[letter])
        row(np.ones(count), -np.ones(26), no_b, -np.inf, 1)
        row(np.ones(count), no_y, no_b, 1, np.inf)
        for k, mask in enumerate(self.rows.simple):
            holders = ((self.masks & mask) != 0).astype(np.float64)
            letters = _letters(mask)
            # y(L) <= hand(L) always, so with m_L >= 4 the row needs only hand(L) - 3 more
            # room: none at all (and b_L stays 0) when the hand holds 3 or fewer such tiles.
            room = max(0.0, float(letters @ self.hand) - 3)
            on_b = no_b.copy()
            on_b[k] = -room
            row(-holders, letters, on_b, -np.inf, -1)  # y(L) - m_L <= -1, unless b_L
            on_b = no_b.copy()
            on_b[k] = -4
            row(holders, no_y, on_b, 0, np.inf)  # b_L = 1 only when m_L >= 4
        for mask in self.rows.hanging:
            inside = ((self.masks & ~mask) == 0).astype(np.float64)
            row(-inside, _letters(mask), no_b, 0, np.inf)
        for chosen in self.rows.searched:
            outside = np.ones(count)
            outside[chosen] = 0
            row(outside, no_y, no_b, 1, np.inf)
        return np.vstack(rows), np.array(lower), np.array(upper)


def _letters(mask: int) -> np.ndarray:
    return np.array([float(mask >> code & 1) for code in range(26)])


def word_sets_grid(tiles: TileCounts, lexicon, min_length: int, time_limit: float) -> tuple:
    """`WordSets(...).run` on every word `tiles` spell, for `time_limit` seconds (tests and
    probes; `solving` builds its own)."""
    words = [word.upper() for word in lexicon.formable_words(tiles, min_length)]
    deadline = native.search_clock() + time_limit
    return WordSets(tiles, lexicon, min_length, words).run(deadline)
