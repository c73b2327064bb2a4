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

import time
from collections.abc import Callable

import numpy as np

from solver.core.limits import MAX_PROOF_WORDS
from solver.core.tiles import ALPHABET, TileCounts
from solver.lexicon.loader import Lexicon
from solver.search import native
from solver.search.kernels import layout, spelling

LETTER_COUNTS = (
    "letter counts: no words spelled from these tiles can hold every tile (once, or twice at a crossing) "
    "and cross often enough to connect"
)
CROSSINGS = "crossings: the words that can hold {letters} would share more tiles than words crossing at most once can"
WALK_BUDGET = 4_000_000  # DAWG steps spent listing them
SCARCE_LETTERS = 4  # the hand's letters held by the fewest words that the crossing argument tries, alone and in pairs
CROSSING_SHARE = 0.25  # of the time left: the crossing argument settles in tens of ms or not at all; the
# word search that follows needs the rest (a 21-tile hand of 5,792 words spent 0.76 s here, in vain)
# Seconds one of its integer programs may take: on the hard vowel-poor hands and 400 seeded double-Q
# hands every program of a proof found took 3 ms or less, and hands it fails on spent 20-210 ms
# a program, ten programs a hand (AAEEEIIILMNNOOQQRSTTT: 1.07 s in all, the word search beside
# it done long before). A program that runs out makes no claim and ends the argument.
PROGRAM_LIMIT = 0.05
MAX_HOLDERS = 2_000  # a letter held by more distinct words than this is not scarce (its programs grow)


def word_count_vectors(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> np.ndarray | None:
    """The distinct letter-count vectors (int8[rows, 26]) of the words `tiles` spell, or None
    when there are too many to list."""
    counts = _spelled_word_counts(tiles, lexicon, min_length)
    return None if counts is None else distinct_rows(counts)


def distinct_rows(table: np.ndarray, in_order: bool = False) -> np.ndarray:
    """`table`'s distinct rows, in lexicographic order (np.unique(axis=0)'s answer, 5-10x faster:
    it sorts a byte view of the rows; 9,351 words' letter counts took it 60 ms), or with
    `in_order` each row's first occurrence, in the table's order."""
    order = np.lexsort(table.T[::-1])  # stable: equal rows keep the table's order
    ordered = table[order]
    fresh = np.ones(len(ordered), dtype=bool)
    fresh[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return table[np.sort(order[fresh])] if in_order else ordered[fresh]


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


def counting_proofs(
    tiles: TileCounts,
    lexicon: Lexicon,
    min_length: int,
    time_limit: float = 1.0,
    crossings: bool = True,
    stop: Callable[[], bool] = lambda: False,
) -> str:
    """LETTER_COUNTS, else (with `crossings`) a CROSSINGS proof, else '' (within `time_limit`
    seconds, CROSSING_SHARE of what is left for the crossings, and until `stop()` is true, asked
    between the crossings' programs; the words are listed once for both arguments). The
    crossing argument's integer programs are bounded by time alone, so a search that must be a
    pure function of its input (a node-capped one: the bots') asks for the letter counts only,
    a linear program that settles in milliseconds."""
    deadline = time.monotonic() + time_limit
    vectors = _vectors_for_proofs(tiles, lexicon, min_length)
    if vectors is None:
        return ""
    letter_counts = _letter_count_program(tiles, vectors, time_limit)
    if letter_counts or not crossings or stop():
        return letter_counts
    now = time.monotonic()
    return crossing_proof(tiles, vectors, now + max(deadline - now, 0.0) * CROSSING_SHARE, stop)


def letter_count_proof(tiles: TileCounts, lexicon: Lexicon, min_length: int, time_limit: float = 1.0) -> str:
    """LETTER_COUNTS when the linear program of the module docstring is infeasible, else ''
    (also when SciPy is missing, the words are too many, or `time_limit` seconds run out)."""
    vectors = _vectors_for_proofs(tiles, lexicon, min_length)
    return "" if vectors is None else _letter_count_program(tiles, vectors, time_limit)


def _vectors_for_proofs(tiles: TileCounts, lexicon: Lexicon, min_length: int) -> np.ndarray | None:
    """The hand's word vectors when an argument can use them: two or more tiles, SciPy
    present, and not too many words to list."""
    if len(tiles) < 2:
        return None
    try:
        with native.one_time_setup():  # SciPy's first import: the process's cost, not the search's
            import scipy.optimize  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:  # the arguments are an extra: without SciPy, solve just searches
        return None
    return word_count_vectors(tiles, lexicon, min_length)


def _letter_count_program(tiles: TileCounts, vectors: np.ndarray, time_limit: float) -> str:
    """LETTER_COUNTS when the letter-count program over these word vectors is infeasible."""
    with native.one_time_setup():  # imported already (`_vectors_for_proofs`): set-up, not search
        from scipy.optimize import linprog

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


def crossing_proof(
    tiles: TileCounts, vectors: np.ndarray, deadline: float, stop: Callable[[], bool] = lambda: False
) -> str:
    """CROSSINGS (naming the letters) when, for some scarce letter set S, no number of words
    holding S tiles fits the hand as the module docstring's crossing argument requires, else ''
    (also when the `deadline`, a `time.monotonic()` time, passes, or `stop()` is true between two
    programs: the word search beside it has settled the hand). SciPy must be importable
    (`counting_proofs` checks)."""
    hand = tiles.counts.astype(np.int64)
    if len(tiles) < 2 or len(vectors) == 0:
        return ""
    for letters in _scarce_sets(hand, vectors):
        fits = _some_words_fit(hand, vectors, letters, deadline, stop)
        if fits is None:
            return ""  # out of time: no claim
        if not fits:
            return CROSSINGS.format(letters=" and ".join(ALPHABET[code] for code in letters))
    return ""


def _scarce_sets(hand: np.ndarray, vectors: np.ndarray) -> list[tuple[int, ...]]:
    """The letter sets the crossing argument tries: each of the SCARCE_LETTERS letters of the
    hand held by the fewest words (at most MAX_HOLDERS), then each pair of them."""
    holders = (vectors > 0).sum(axis=0)
    present = [code for code in np.flatnonzero(hand).tolist() if holders[code] <= MAX_HOLDERS]
    scarce = sorted(present, key=lambda code: (holders[code], code))[:SCARCE_LETTERS]
    singles: list[tuple[int, ...]] = [(code,) for code in scarce]
    return singles + [(a, b) for i, a in enumerate(scarce) for b in scarce[i + 1 :]]


def _some_words_fit(
    hand: np.ndarray, vectors: np.ndarray, letters: tuple[int, ...], deadline: float, stop: Callable[[], bool]
) -> bool | None:
    """Whether some m words holding `letters` satisfy the crossing argument's program (None:
    out of time, or stopped). Columns: x (one per word vector holding a letter of `letters`), then c."""
    with native.one_time_setup():  # imported already (`_vectors_for_proofs`): set-up, not search
        from scipy.optimize import Bounds, LinearConstraint, milp

    chosen = list(letters)
    words = vectors[(vectors[:, chosen] > 0).any(axis=1)].astype(np.float64)
    needed = int(hand[chosen].sum())
    if len(words) == 0:
        return False  # no word holds them (the stranded-letter argument says so first)
    most_per_word = int(words[:, chosen].sum(axis=1).max())
    count = len(words)
    spelled = np.hstack([words.T, -np.eye(26)])  # row l: sum_w x[w] * w[l] - c[l]
    upper = hand.astype(np.float64)
    lower = np.full(26, -np.inf)
    lower[chosen] = upper[chosen]  # every tile of the chosen letters lies in these words
    for m in range(max(1, -(-needed // most_per_word)), 2 * needed + 1):
        left = deadline - time.monotonic()
        if left <= 0 or stop():
            return None
        rows = [
            LinearConstraint(spelled, lower, upper),
            LinearConstraint(np.concatenate([np.ones(count), np.zeros(26)])[None, :], m, m),
            LinearConstraint(np.concatenate([np.zeros(count), np.ones(26)])[None, :], 0, m * m // 4),
        ]
        result = milp(
            np.zeros(count + 26),
            constraints=rows,
            integrality=np.ones(count + 26),
            bounds=Bounds(np.zeros(count + 26), np.concatenate([np.full(count, m), upper])),
            options={"time_limit": min(left, PROGRAM_LIMIT), "presolve": True},
        )
        if result.status != 2:  # 0: a solution; 1: out of time; anything else: no claim either
            return None if result.status != 0 else True
    return False
