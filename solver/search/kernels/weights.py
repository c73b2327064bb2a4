"""The letter weights' linear program: a signed weight per letter, every word's letters weighing
at least its length - 1, of least cost (`solver.search.wordsearch`'s letter-use bound).

    minimise  high @ max(w, 0) + low @ min(w, 0)   subject to  counts @ w >= needed

with counts (int64[words, letters]: how many of each letter each word holds, over the hand's
letters only), needed (float64[words]: length - 1), high >= low >= 0 (a letter of weight >= 0
is charged the most uses its tiles can have, two a tile; one of weight < 0 the fewest, one a
tile). low = 0 asks for weights >= 0. It is solved as its dual, a packing of words into the
letters' uses, each letter's at least its fewest:

    maximise  needed @ y   subject to  low <= counts.T @ y <= high,  y >= 0,

by the primal simplex method with an explicit basis inverse. The rows are the letters' upper
bounds (at most 26; a slack each) and their lower bounds where low > 0 (a surplus and an
artificial variable each, the artificial costing BIG_M: the first basis, slacks and
artificials, is feasible). Each step prices every word against the simplex multipliers; at the
optimum a letter's weight is its two rows' multipliers summed (each word's reduced cost
needed - counts @ w <= 0: every word weighs enough). Largest reduced cost first, then (after
DEGENERATE_STEPS steps that gain nothing: the words' lengths are small integers) Bland's rule,
which cannot cycle.

0.1-1 ms for a hand's 300-1,900 words, where SciPy's HiGHS takes 4-20 ms (its set-up, for a
program this small): so the word search can afford a program per letter of the hand. The
caller checks every answer (`solver.search.wordsearch._lightest_weights`): the weights it uses
are valid whatever this returns.
"""

from __future__ import annotations

import numpy as np

from solver.search.native import njit  # numba.njit, bound on first use (see native)

WEIGHTS_OPTIMAL, WEIGHTS_FAILED = 0, 1
TOLERANCE = 1e-9
BIG_M = 1e6  # an artificial variable's cost: far above any word's worth (its length - 1)
DEGENERATE_STEPS = 50  # steps without gain before Bland's rule
MAX_STEPS = 20_000  # a program not solved by then: WEIGHTS_FAILED (the caller falls back)


@njit(cache=True, nogil=True)
def lightest_weights(counts, needed, high, low, weight) -> int:
    """Solve the program above into `weight` (float64[letters]): WEIGHTS_OPTIMAL, or
    WEIGHTS_FAILED (weight left undefined) when MAX_STEPS did not reach the optimum. Where no
    packing meets the lower bounds, the weights have no least cost (some letter's tiles lie only
    in words that hold letters too dear to use): then an artificial variable stays in the basis
    and its cost bounds the weights (each >= -BIG_M), and the weights returned, valid as ever,
    cost about -BIG_M: the state they were asked for has no room at all."""
    words, letters = counts.shape
    bounded = np.empty(letters, dtype=np.int64)  # the letters with a lower-bound row, row letters + i
    count = 0
    for letter in range(letters):
        if low[letter] > 0.0:
            bounded[count] = letter
            count += 1
    bounded = bounded[:count]  # (no np.flatnonzero: the compiled library links no reshape helper)
    rows = letters + len(bounded)
    variables = words + letters + 2 * len(bounded)  # words, slacks, surpluses, artificials
    inverse = np.eye(rows)  # the basis inverse
    basis = np.empty(rows, dtype=np.int64)  # the variable basic in each row
    value = np.empty(rows)  # the basic variables' values
    multiplier = np.empty(rows)
    column = np.empty(rows)
    for row in range(letters):
        basis[row], value[row] = words + row, high[row]  # the slacks
    for i in range(len(bounded)):
        basis[letters + i], value[letters + i] = variables - len(bounded) + i, low[bounded[i]]  # the artificials
    stalled = 0
    for _ in range(MAX_STEPS):
        _multipliers(inverse, basis, needed, words, variables - len(bounded), multiplier)
        _weights(multiplier, bounded, weight)
        entering = _entering(counts, needed, weight, multiplier, bounded, stalled >= DEGENERATE_STEPS)
        if entering < 0:
            return WEIGHTS_OPTIMAL
        _column(counts, bounded, inverse, entering, column)
        leaving, ratio = -1, np.inf
        for row in range(rows):
            if column[row] > TOLERANCE:
                r = value[row] / column[row]
                if r < ratio - TOLERANCE or (r <= ratio + TOLERANCE and leaving >= 0 and basis[row] < basis[leaving]):
                    leaving, ratio = row, r
        if leaving < 0:
            return WEIGHTS_FAILED  # unbounded: cannot happen with high >= 0
        stalled = stalled + 1 if ratio <= TOLERANCE else 0
        _pivot(inverse, value, column, leaving)
        basis[leaving] = entering
    return WEIGHTS_FAILED


@njit(cache=True, nogil=True, _nrt=False)
def _multipliers(inverse, basis, needed, words, artificial, multiplier):
    """The rows' simplex multipliers: the basic variables' costs times the basis inverse (a
    word's cost is its need, an artificial's -BIG_M, a slack's or surplus's 0)."""
    rows = len(multiplier)
    for row in range(rows):
        multiplier[row] = 0.0
    for row in range(rows):
        variable = basis[row]
        cost = needed[variable] if variable < words else (-BIG_M if variable >= artificial else 0.0)
        if cost != 0.0:
            for other in range(rows):
                multiplier[other] += cost * inverse[row, other]


@njit(cache=True, nogil=True, _nrt=False)
def _weights(multiplier, bounded, weight):
    """Each letter's weight: its upper-bound row's multiplier plus its lower-bound row's."""
    letters = len(weight)
    for letter in range(letters):
        weight[letter] = multiplier[letter]
    for i in range(len(bounded)):
        weight[bounded[i]] += multiplier[letters + i]


@njit(cache=True, nogil=True, _nrt=False)
def _entering(counts, needed, weight, multiplier, bounded, bland) -> int:
    """The variable to bring in, of positive reduced cost: a word (needed - counts @ weight), a
    slack (-its row's multiplier), a surplus (+ its row's) or an artificial (-BIG_M - its
    row's); the largest (or with `bland`, the first); -1 at the optimum."""
    words, letters = counts.shape
    best, best_gain = -1, TOLERANCE
    for word in range(words):
        gain = needed[word]
        for letter in range(letters):
            gain -= counts[word, letter] * weight[letter]
        if gain > best_gain:
            best, best_gain = word, gain
            if bland:
                return best
    for row in range(letters + len(bounded)):
        if row < letters:
            gain, variable = -multiplier[row], words + row
        else:
            gain, variable = multiplier[row], words + row
        if gain > best_gain:
            best, best_gain = variable, gain
            if bland:
                return best
    for i in range(len(bounded)):
        gain = -BIG_M - multiplier[letters + i]
        if gain > best_gain:
            best, best_gain = words + letters + len(bounded) + i, gain
            if bland:
                return best
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _column(counts, bounded, inverse, entering, column):
    """The basis inverse times the entering variable's column: a word's counts in its letters'
    rows (both bounds), a slack's +1 in its row, a surplus's -1, an artificial's +1."""
    words, letters = counts.shape
    rows = len(column)
    for row in range(rows):
        column[row] = 0.0
    if entering < words:
        for letter in range(letters):
            count = counts[entering, letter]
            if count != 0:
                for row in range(rows):
                    column[row] += inverse[row, letter] * count
        for i in range(len(bounded)):
            count = counts[entering, bounded[i]]
            if count != 0:
                for row in range(rows):
                    column[row] += inverse[row, letters + i] * count
        return
    at = entering - words  # a slack (0..letters-1), surplus, then artificial
    if at < letters:
        sign, position = 1.0, at
    elif at < letters + len(bounded):
        sign, position = -1.0, at  # surplus i: row letters + i = at
    else:
        sign, position = 1.0, at - len(bounded)
    for row in range(rows):
        column[row] = sign * inverse[row, position]


@njit(cache=True, nogil=True, _nrt=False)
def _pivot(inverse, value, column, leaving):
    """The basis inverse and values after `column`'s variable replaces row `leaving`'s."""
    rows = len(value)
    pivot = column[leaving]
    for other in range(rows):
        inverse[leaving, other] /= pivot
    value[leaving] /= pivot
    for row in range(rows):
        if row != leaving and column[row] != 0.0:
            factor = column[row]
            for other in range(rows):
                inverse[row, other] -= factor * inverse[leaving, other]
            value[row] -= factor * value[leaving]
