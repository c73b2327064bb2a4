"""The letter weights' linear program: a weight per letter, every word's letters weighing at
least its length - 1, of least cost (`solver.search.wordsearch`'s letter-use bound).

    minimise  cost @ w   subject to  counts @ w >= needed,  w >= 0

with counts (int64[words, letters]: how many of each letter each word holds, over the hand's
letters only), needed (float64[words]: length - 1) and cost >= 0 (two uses of each tile of the
hand). It is solved as its dual, a packing of words into the letters' uses,

    maximise  needed @ y   subject to  counts.T @ y <= cost,  y >= 0,

by the primal simplex method with an explicit basis inverse: the letters are the rows (at
most 26), so the slacks are a feasible first basis (cost >= 0), each step prices every word
against the simplex multipliers, and at the optimum those multipliers are the weights (each
word's reduced cost needed - counts @ w <= 0: every word weighs enough; each slack's -w <= 0).
Largest reduced cost first, then (after DEGENERATE_STEPS steps that gain nothing, the words'
lengths being small integers) Bland's rule, which cannot cycle.

A few hundred microseconds for a hand's 300-1,900 words, where SciPy's HiGHS takes 4-20 ms
(its set-up, for a program this small): so the word search can afford a program per letter of
the hand. The caller checks every answer (`solver.search.wordsearch._lightest_weights`): the
weights it uses are valid whatever this returns.
"""

from __future__ import annotations

import numpy as np

from solver.search.native import njit  # numba.njit, bound on first use (see native)

WEIGHTS_OPTIMAL, WEIGHTS_FAILED = 0, 1
TOLERANCE = 1e-9
DEGENERATE_STEPS = 50  # steps without gain before Bland's rule
MAX_STEPS = 20_000  # a program not solved by then: WEIGHTS_FAILED (the caller falls back)


@njit(cache=True, nogil=True)
def lightest_weights(counts, needed, cost, weight) -> int:
    """Solve the program above into `weight` (float64[letters]); WEIGHTS_OPTIMAL, or
    WEIGHTS_FAILED (weight left undefined) when MAX_STEPS did not reach the optimum."""
    words, letters = counts.shape
    inverse = np.eye(letters)  # the basis inverse
    basis = np.empty(letters, dtype=np.int64)  # the variable basic in each row: a word, or words + letter (a slack)
    value = cost.copy()  # the basic variables' values
    column = np.empty(letters)
    for row in range(letters):
        basis[row] = words + row
    stalled = 0
    for _ in range(MAX_STEPS):
        _multipliers(inverse, basis, needed, words, weight)
        entering = _entering(counts, needed, weight, words, stalled >= DEGENERATE_STEPS)
        if entering < 0:
            return WEIGHTS_OPTIMAL
        for row in range(letters):
            column[row] = 0.0
            for letter in range(letters):
                a = counts[entering, letter] if entering < words else (1.0 if letter == entering - words else 0.0)
                column[row] += inverse[row, letter] * a
        leaving, ratio = -1, np.inf
        for row in range(letters):
            if column[row] > TOLERANCE:
                r = value[row] / column[row]
                if r < ratio - TOLERANCE or (r <= ratio + TOLERANCE and leaving >= 0 and basis[row] < basis[leaving]):
                    leaving, ratio = row, r
        if leaving < 0:
            return WEIGHTS_FAILED  # unbounded: cannot happen with cost >= 0
        stalled = stalled + 1 if ratio <= TOLERANCE else 0
        _pivot(inverse, value, column, leaving)
        basis[leaving] = entering
    return WEIGHTS_FAILED


@njit(cache=True, nogil=True, _nrt=False)
def _multipliers(inverse, basis, needed, words, weight):
    """weight = the basic variables' objective coefficients times the basis inverse."""
    letters = len(weight)
    for letter in range(letters):
        weight[letter] = 0.0
    for row in range(letters):
        if basis[row] < words:
            gain = needed[basis[row]]
            for letter in range(letters):
                weight[letter] += gain * inverse[row, letter]


@njit(cache=True, nogil=True, _nrt=False)
def _entering(counts, needed, weight, words, bland) -> int:
    """The variable to bring in: a word with needed - counts @ weight > 0 or a slack with
    weight < 0, the largest such reduced cost (or with `bland`, the first); -1 at the optimum."""
    best, best_gain = -1, TOLERANCE
    letters = len(weight)
    for word in range(words):
        gain = needed[word]
        for letter in range(letters):
            gain -= counts[word, letter] * weight[letter]
        if gain > best_gain:
            best, best_gain = word, gain
            if bland:
                return best
    for letter in range(letters):
        if -weight[letter] > best_gain:
            best, best_gain = words + letter, -weight[letter]
            if bland:
                return best
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _pivot(inverse, value, column, leaving):
    """The basis inverse and values after `column`'s variable replaces row `leaving`'s."""
    letters = len(value)
    pivot = column[leaving]
    for letter in range(letters):
        inverse[leaving, letter] /= pivot
    value[leaving] /= pivot
    for row in range(letters):
        if row != leaving and column[row] != 0.0:
            factor = column[row]
            for letter in range(letters):
                inverse[row, letter] -= factor * inverse[leaving, letter]
            value[row] -= factor * value[leaving]
