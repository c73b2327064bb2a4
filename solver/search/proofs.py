"""Sound impossibility arguments that need no search: `solve` answers `no-grid` with them.

The letter-count argument
-------------------------
Take any valid grid of a hand of n tiles (n >= 2). Every tile lies in one word (its across
or its down run) or in two (a crossing), every word is spelled from the hand's tiles, and the
words are connected through the crossings: with W words and K crossing tiles, K >= W - 1
(the "words share a crossing" graph is connected; an across and a down word share at most one
cell). So there are non-negative numbers

    x[v]  how many of the grid's words have letter counts v (v ranges over the words the hand
          spells with at least min_length letters),
    y[l]  how many tiles of letter l are crossings (0 <= y[l] <= hand[l]),

with   sum_v x[v] * v[l] = hand[l] + y[l]   for every letter l   (each tile counted once per word)
and    1 <= sum_v x[v] <= 1 + sum_l y[l]                          (connected through crossings).

When not even real-valued x and y satisfy these linear constraints, no grid exists. This
one argument covers the vowel-count and "letters every word needs more of than the hand
holds" bounds: for example, a hand whose only vowel is one O can lay at most two words
through it, and every word the hand spells holds an O, so two words must hold every
consonant. The feasibility question is a small linear program (26 rows and one column per
distinct letter-count vector), solved with SciPy's HiGHS; an "infeasible" verdict is the proof.
"""

from __future__ import annotations

import numpy as np

from solver.core.limits import MAX_PROOF_WORDS
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon
from solver.search import native
from solver.search.kernels import layout, spelling

LETTER_COUNTS = (
    "letter counts: no words spelled from these tiles can hold every tile (once, or twice at a crossing) "
    "and cross often enough to connect"
)
WALK_BUDGET = 4_000_000  # DAWG steps spent listing them


def word_count_vectors(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> np.ndarray | None:
    """The distinct letter-count vectors (int8[rows, 26]) of the words `tiles` spell, or None
    when there are too many to list."""
    counts = _spelled_word_counts(tiles, lexicon, min_length)
    return None if counts is None else np.unique(counts, axis=0)


def longest_spelled_word(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> int:
    """How many letters the longest word `tiles` spell has (0: none), or `len(tiles)` when the
    words are too many to list (no word is longer: a bound all the same). Milliseconds."""
    counts = _spelled_word_counts(tiles, lexicon, min_length)
    if counts is None:
        return len(tiles)
    return int(counts.sum(axis=1, dtype=np.int64).max(initial=0))


def _spelled_word_counts(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> np.ndarray | None:
    """The letter counts of every word `tiles` spell (a row each, repeats kept), or None."""
    out = np.zeros((MAX_PROOF_WORDS, 26), dtype=np.int8)
    hand = tiles.counts.astype(np.int64).copy()
    graph = layout.graph_of(lexicon.forward, lexicon.reverse)
    count = spelling.word_letter_counts(hand, min_length, WALK_BUDGET, graph, out)
    return None if count < 0 else out[:count]


def letter_count_proof(tiles: TileCounts, lexicon: Lexicon, min_length: int, time_limit: float = 1.0) -> str:
    """LETTER_COUNTS when the linear program of the module docstring is infeasible, else ''
    (also when SciPy is missing, the words are too many, or `time_limit` seconds run out)."""
    if len(tiles) < 2:
        return ""
    try:
        with native.one_time_setup():  # SciPy's first import: the process's cost, not the search's
            from scipy.optimize import linprog  # type: ignore[import-untyped]
    except ImportError:  # the argument is an extra: without SciPy, solve just searches
        return ""
    vectors = word_count_vectors(tiles, lexicon, min_length)
    if vectors is None:
        return ""
    if len(vectors) == 0:
        return LETTER_COUNTS
    hand = tiles.counts.astype(np.float64)
    words = len(vectors)
    # Columns: x (one per vector), then y (one per letter).
    equalities = np.hstack([vectors.T.astype(np.float64), -np.eye(26)])
    connect = np.concatenate([np.ones(words), -np.ones(26)])[None, :]
    at_least_one = np.concatenate([-np.ones(words), np.zeros(26)])[None, :]
    result = linprog(
        np.zeros(words + 26),
        A_ub=np.vstack([connect, at_least_one]),
        b_ub=[1.0, -1.0],
        A_eq=equalities,
        b_eq=hand,
        bounds=[(0, None)] * words + [(0, count) for count in hand],
        method="highs",
        options={"time_limit": max(time_limit, 0.01), "presolve": True},
    )
    return LETTER_COUNTS if result.status == 2 else ""
