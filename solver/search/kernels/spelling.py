"""What a hand spells: one walk of the word graph over the hand's letters, and its two uses.

`hostable_letters` (which letters of the hand some word it spells holds: `solver.search.solving`'s
quick no-grid proof) and `word_letter_counts` (the letter counts of every such word:
`solver.search.proofs` and `solver.search.wordsearch`) share `_walk_spelled_words`.
"""

from __future__ import annotations

import numpy as np

from solver.search.kernels.layout import MAX_WORD
from solver.search.native import njit  # numba.njit, bound on first use (see native)

# What `_walk_spelled_words` does at each word: list its letter counts, or stop once the words
# seen so far cover every letter of the hand.
LIST_COUNTS, COVER_HAND = 0, 1


@njit(cache=True, nogil=True, _nrt=False)
def bit_code(bit):
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
def hostable_letters(hand, min_len, budget, graph):
    """Bit mask of the hand's letters that appear in at least one word the hand spells.

    A tile whose letter is in no such word can never be placed: the hand has no grid.
    Stops early once every letter of the hand is covered, or after `budget` DAWG steps
    (then returns -1: unknown).
    """
    no_rows = np.zeros((0, 26), dtype=np.int8)
    found, covered = _walk_spelled_words(hand, min_len, budget, graph, no_rows, np.int64(COVER_HAND))
    return -1 if found < 0 else covered


@njit(cache=True, nogil=True)
def word_letter_counts(hand, min_len, budget, graph, out):
    """The letter counts of every word the hand spells (at least `min_len` letters long),
    one row of `out` (int[rows, 26]) per word, in DAWG order. Returns the number of rows,
    or -1 when `out` is full or after `budget` DAWG steps (then the list is incomplete).
    The hand is restored before returning."""
    found, _ = _walk_spelled_words(hand, min_len, budget, graph, out, np.int64(LIST_COUNTS))
    return found


@njit(cache=True, nogil=True)
def _walk_spelled_words(hand, min_len, budget, graph, out, goal):
    """Walk every word the hand spells (at least `min_len` letters), in DAWG order: an
    iterative DFS where level k picks the word's letter k from the tiles left, taking only
    letters the node continues with. At each word, by `goal`: LIST_COUNTS writes its letter
    counts to the next row of `out`; COVER_HAND adds its letters to the covered mask and stops
    once that holds every letter of the hand, and skips the letters below which no word holds a
    letter not covered yet (the graph's `below_mask`): once the common letters are covered, the
    walk goes only where the rare ones are.

    Returns (rows written, or -1 when cut short: `budget` DAWG steps taken, or `out` full;
    mask of the hand's letters covered by the words walked). The hand is restored before
    returning.
    """
    child, terminal, next_mask, below_mask = graph.child, graph.terminal, graph.next_mask, graph.below_mask
    full = hand.copy()
    wanted = 0
    for code in range(26):
        if hand[code] > 0:
            wanted |= 1 << code
    covered = 0
    node_at = np.zeros(MAX_WORD + 1, dtype=np.int64)
    tried = np.zeros(MAX_WORD + 1, dtype=np.int64)
    word = np.zeros(MAX_WORD + 1, dtype=np.int64)
    path = np.zeros(MAX_WORD + 1, dtype=np.int64)  # path[k]: the letters of the word's first k
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
        code = bit_code(bit)
        hand[code - 1] -= 1
        word[k] = code
        path[k + 1] = path[k] | bit
        nxt = child[node_at[k] * 26 + code - 1]
        steps += 1
        if goal == COVER_HAND and (path[k + 1] | below_mask[nxt]) & wanted & ~covered == 0:
            hand[code - 1] += 1  # no word through this letter holds one not covered yet: skip them all
            continue
        if terminal[nxt] == 1 and k + 1 >= min_len:
            covered |= path[k + 1]
            if goal == COVER_HAND:
                if covered & wanted == wanted:
                    for i in range(k + 1):
                        hand[word[i] - 1] += 1
                    return count, covered & wanted
            elif count >= out.shape[0]:
                steps = budget  # full: give up below, like an exhausted budget
            else:
                for letter in range(26):
                    out[count, letter] = full[letter] - hand[letter]
                count += 1
        if steps >= budget:
            for i in range(k + 1):
                hand[word[i] - 1] += 1
            return -1, covered & wanted
        if next_mask[nxt] != 0 and k + 1 < MAX_WORD:
            node_at[k + 1] = nxt
            k += 1
            enter = True
        else:
            hand[code - 1] += 1
    return count, covered & wanted
