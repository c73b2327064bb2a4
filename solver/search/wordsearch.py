"""A complete search over whole words that may cross anywhere: settles vowel-poor hands fast.

The move model (`solver.search.kernels.movesearch`) keeps every intermediate grid valid, so it misses the
grids none of whose build orders stays valid; the cell-by-cell search (`solver.search.exact`)
is complete but decides every cell, far too slow on hands of 11-21 tiles. This search is
complete and works on whole words: each word it lays is *declared* a maximal run of the final
grid (the cells just before and after it are blocked: they stay empty for good), and every
tile has, in each direction, a status: open (undecided), covered (inside a declared word of
that direction) or single (its run that way is the tile alone: both neighbours blocked).

It starts from a word holding a chosen letter of the hand (its *root*), laid across: in any
valid grid a tile of that letter is in an across word or in a down one, and the transposed
grid is valid too. Any root gives a complete search, but how long it takes depends on the
root by orders of magnitude (CDDFGIJMNNNOQTTTTUVWY: 2.2 s from Q, 0.1 s from J), so
`WordSearch` runs ROOTS searches side by side, from the hand's hardest letters (those in
fewest words), in turns (more of them to the one whose tree looks nearest its end; in an
uncapped solve two at once, each in a thread of its own, the hardest letter's search keeping one
of the two); the first to end settles the hand.

When a root option's search ends without a grid, no grid holds its word at all: a copy of the
word anywhere in a grid has a tile of the root letter at that offset, whose run that way is
the word (transposed, across), and that search was complete for such grids. `WordSearch.run`
bans the word (`SpelledWords.banned`), for every root's search: none lays it from then on.

An item's options are tried in the words' order (longest first, then alphabetical). The order
changes nothing in a proof: the items, their options and every bound depend on the state alone,
so a search that ends without a grid visits the same states in any order. How soon it finds a
grid depends on the order by orders of magnitude, and no other fixed order (most new tiles per
carrier first, the fewest first, shortest first, one for each root) finds grids sooner on the
whole.

Then, as long as some (tile, direction) is open, it takes the one with the fewest options
and branches on them: the tile is single that way, or it is letter i of word w laid that
way. The options partition what a valid grid can hold there, so every valid grid consistent
with the decisions so far stays reachable by one branch: when the search ends without a
grid, none exists. A state with nothing open and no tile left is a valid grid (every run is
a declared word or one tile; connected, since each word went through a tile already laid).

What it prunes, each a property of every valid grid reachable from the state:

- an option must fit: letters on the board match and are open that way, empty cells are not
  blocked and the hand has their letters, the cells past the word's ends hold no tile;
- carrier uses: the *carriers* are letters such that every word the hand spells holds one
  (the vowels, then greedily whatever letter the other words share). A tile is in at most two
  words, so a carrier tile on the board offers its open directions, a carrier in the hand two;
  every word laid from now on takes a use of each carrier tile it holds, and lays at most
  length - 1 new tiles. Give each carrier c a *weight* rho[c] such that every word's carrier
  tiles weigh at least its length - 1 (an LP dual: any such weights bound the tiles laid): the
  tiles left must not exceed the sum of the weights of the carrier uses left. The weights
  (`_use_weights`): each carrier first weighs the most (length - 1) / its tiles over the words
  holding no other carrier letter; then a word of several carrier letters whose tiles weigh
  less than its length - 1 raises each of them to its even share. So a carrier that only ever
  comes beside another weighs little: in BBDDEFGLMMNNRSTTTTVYY, M (a carrier for MM alone)
  weighs 1/2, where the even share of GYMS would give it 3/2.
  Tightened twice, each still a bound: a word laid from now on lays new tiles only from the
  hand left, at most min(length - 1, tiles the hand left supplies of its letters), and the
  weights are worked out again on those (`rho_now`, `_ws_supplied_weights`); and a word
  through a carrier tile on the board is one of the options of that tile's open item, which
  only lose options deeper down, so that use is charged at most the most new tiles an option
  lays beyond what its new carrier tiles weigh (`item_share`; counted tile by tile, each at
  least 0, since a later word through it may find some of those cells filled). Together they
  halve the decisions on the vowel-poor 21-tile hands that took seconds;
- letter uses: the same argument over every letter, not only the carriers. A tile is in one
  word or two, so each tile of the hand is in one to two of the words laid from now on and each
  tile on the board in at most its open directions' worth; a word laid from now on lays at most
  length - 1 new tiles. So with a weight per letter such that every spelled word's letters weigh
  at least its length - 1, the tiles left must not exceed the letters' weights times their uses
  left: for a letter of weight >= 0 the most it can have (two a tile of the hand, one an open
  direction), for one of weight < 0 the fewest (one a tile of the hand). (`_ws_letter_room`; one
  step ahead too, in the options' lookahead, and once the items are listed a use on the board is
  charged what its options' new tiles lay beyond their weights, `item_excess`.) The weights
  come from a linear program (`letter_weights`, `kernels.weights`: a small simplex, 0.1-2 ms):
  the lightest for the whole hand, then a row more per letter of the hand, the lightest for the
  hand without that letter's tiles (`spent_letter_weights`: what a state that has laid them
  looks like); each state takes the row that leaves it least room (`_ws_letter_rooms_short`).
  The options' lookahead asks every row some word could leave short, not only the state's
  (`_ws_rows_short`): an option that another row prunes once it is laid is never listed, so the
  fewest-options choice sees the real counts.
  Where no packing of words gives each tile one use to two, the weights cost about -BIG_M: no
  room at all. They put weight where a carrier's cannot: in DDDDGGIKLMNNNPRRTTUWW the D and N
  tiles are carriers only for DKL and PWN, so the carrier weights give seven such tiles 2 each
  (28 of the hand's 44); weights >= 0 give K, L, N and P 1, I and U 3 and D nothing: the hand
  weighs 24 against its 19 tiles;
- exclusive tiles: tiles of the hand no word holds two of each need a word of their own, and
  that word a use of a carrier that every word holding the tile's letter holds one of (its
  hosts): the uses left must match them (Hall's condition, by augmenting paths). Once the
  items are listed, a use on the board is its tile's item, and a word through it one of the
  item's options: it can take only a tile whose letter one of them holds (`item_mask`). On
  double-Q hands, where the second Q needs the one A's other direction, this halves the
  decisions;
- bound tiles: the letters whose hosts lie within a set C of one to three carriers (a *group*:
  D, F, L and V in AABDDDFHLLNNPPRRSTTTV, within {A}; G, M, R and T in DDDDGGIKLMNNNPRRTTUWW,
  within {I, U}; D, F, N and T in ABBDDFHNNNNNNORRRRTTT, within {A, H, O}) can only be laid by
  words holding a carrier of C, each tile of C in such a word taking one of the uses of C's
  carriers. A word lays at most `group_cap` of the group's tiles per tile of C it holds (as the
  hand left allows: `group_now`; a use on the board, once the items are listed, at most its
  item's `item_bound`), so the group's tiles left must not exceed that times the uses of C left.
  The carrier bound shares a word's new tiles among all its carriers, and the letters the other
  carriers host soak up its room; this one counts only the tiles C alone can lay;
- one step ahead: an option is listed only if laying it keeps the carrier bound (each carrier
  tile of the word, on the board or new, takes one use; rho_now of the state listing it) and
  leaves each letter of the hand as many uses of its hosts as the words its tiles still need,
  and each group enough uses for its tiles; the tile alone one way likewise. Trying such an
  option would prune it; listed out, an item with none left prunes its state before any is
  tried, and the fewest-options choice sees the real counts. Sound deeper down too: what a
  deeper state with the option laid reaches, this one with it laid reaches.

Every grid it returns passes `solver.core.grid.validate` (the tests check each); its "no grid"
answers are tested against `solver.search.reference.exhaustive_grid_exists` on small hands.
All state is in arrays, so it runs in slices under a deadline and resumes where it paused.
This module is its Python side (the word arrays, the slices); the kernel, `word_search`, and its
bundles `SpelledWords` / `WordSearchState` are in `solver.search.kernels.wordsearch`, its bounds
in `solver.search.kernels.wordbounds` (the kernel is also in the compiled library,
`solver.search.library`).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from solver.search.kernels import layout, spelling
from solver.search.kernels import weights as weights_kernel
from solver.search.kernels import wordsearch as kernel
from solver.search.native import one_time_setup, search_clock
from solver.search.proofs import distinct_rows

BITS = np.int64(1) << np.arange(26, dtype=np.int64)  # letter code -> its bit
# The arrays below are built with numpy, word by word never: a hand that reaches the word
# stage spells up to MAX_WORDS words, and Python loops over them took 100-140 ms of its second.


def carriers(words: list[str], hand_letters: set[str]) -> set[str]:
    """Letters such that every word of `words` holds one: the hand's vowels, then the letter
    most of the remaining words hold, until none remains (ties alphabetical)."""
    holds = _letter_table(words)[2][: len(words)] > 0  # (the table has a row even for no word)
    return {chr(65 + code) for code in np.flatnonzero(_carrier_flags(holds, hand_letters))}


def _carrier_flags(holds: np.ndarray, hand_letters: set[str]) -> np.ndarray:
    """`carriers` on `holds` (bool[words, 26]: the word holds the letter): int64[26], 1 each."""
    chosen = np.array([chr(65 + code) in "AEIOU" and chr(65 + code) in hand_letters for code in range(26)])
    while True:
        unhit = ~(holds & chosen).any(axis=1)
        if not unhit.any():
            return chosen.astype(np.int64)
        chosen[int(np.argmax(holds[unhit].sum(axis=0)))] = True  # the first of the most: alphabetical


def _letter_table(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """letters (int64[words, longest], 0-padded), lengths, counts (int64[words, 26]: each
    letter's count in each word), and each letter of each word in order: its word and offset."""
    lengths = np.array([len(word) for word in words], dtype=np.int64)
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).astype(np.int64) - 65
    word_of = np.repeat(np.arange(len(words), dtype=np.int64), lengths)
    offset_of = np.arange(len(codes), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    letters = np.zeros((max(len(words), 1), int(lengths.max(initial=1))), dtype=np.int64)
    letters[word_of, offset_of] = codes
    counts = np.zeros((max(len(words), 1), 26), dtype=np.int64)
    np.add.at(counts, (word_of, codes), 1)
    return letters, lengths, counts, word_of, offset_of


def word_arrays(words: list[str], hand_letters: set[str], hand: np.ndarray | None = None) -> kernel.SpelledWords:
    """`kernels.SpelledWords` for upper-case `words` (those a hand spells). With the hand's
    letter counts `hand`, the letters' weights are `letter_weights`'; else (or without SciPy)
    the carriers' weights, `rho`."""
    letters, lengths, counts, word_of, offset_of = _letter_table(words)
    codes = letters[word_of, offset_of]  # each letter of each word, in order
    padded = lambda array: array if words else np.zeros(1, dtype=array.dtype)  # noqa: E731 (no word: one slot)
    by_letter = np.argsort(codes, kind="stable")  # the occurrences grouped by letter, in word order
    occ_word, occ_offset = word_of[by_letter], offset_of[by_letter]
    occ_start = np.zeros(27, dtype=np.int64)
    occ_start[1:] = np.cumsum(np.bincount(codes, minlength=26))
    holds = counts > 0
    masks = holds @ BITS
    carrier = _carrier_flags(holds[: len(words)], hand_letters)
    hosts = _hosts(holds, masks, carrier)
    carrier_tiles = counts[: len(words), carrier == 1]
    share = padded((lengths - 1) / carrier_tiles.sum(axis=1))
    solo = (carrier_tiles > 0).sum(axis=1) == 1  # one carrier letter (perhaps twice): its weight alone pays
    by_share: list[np.ndarray] = []
    largest_first = np.argsort(-share[: len(words)], kind="stable")
    for code in range(26):
        by_share.append(largest_first[holds[largest_first, code] & solo[largest_first]] if carrier[code] else [])
    mixed, mixed_start = _mixed_words(carrier_tiles, solo, lengths)
    rho = _use_weights(share, solo, mixed, lengths, counts, carrier)
    weight = None  # the letters' weights, a row for the hand and one per letter of it
    first = None if hand is None else letter_weights(counts[: len(words)], lengths, hand)
    if hand is not None and first is not None:
        weight = first[None, :]
        if len(words) <= SPENT_ROWS_UP_TO:
            weight = with_rows(weight, spent_letter_weights(counts[: len(words)], lengths, hand))
    together = np.zeros(26, dtype=np.int64)
    for code in np.flatnonzero(holds.any(axis=0)).tolist():
        together[code] = np.bitwise_or.reduce(masks[holds[:, code]]) & ~BITS[code]
        if (counts[:, code] > 1).any():
            together[code] |= BITS[code]
    in_words = occ_start[1:] - occ_start[:-1]
    order = [code for code in sorted(range(26), key=lambda c: (in_words[c], c)) if not carrier[code]]
    hard_order = np.full(26, -1, dtype=np.int64)
    hard_order[: len(order)] = order
    groups = _bound_groups(counts[: len(words)], hosts, carrier)  # letter_groups .. by_group_start
    weight = rho[None, :].copy() if weight is None else weight
    return kernel.SpelledWords(
        letters,
        padded(lengths),
        padded(occ_word),
        padded(occ_offset),
        occ_start,
        carrier,
        masks,
        rho,
        together,
        hosts,
        hard_order,
        *_rest_masks(counts, letters, occ_word, occ_offset),
        share,
        padded(np.concatenate(by_share).astype(np.int64)),
        np.concatenate([[0], np.cumsum([len(holding) for holding in by_share])]).astype(np.int64),
        weight,
        padded(mixed),
        mixed_start,
        _tally(counts, letters.shape[1]),
        *groups,
        np.zeros(max(len(words), 1), dtype=np.int64),  # banned: none yet
        np.einsum("rl,wl->rw", np.maximum(weight, 0.0), counts),  # charge (einsum: no BLAS threads)
    )


def _mixed_words(carrier_tiles: np.ndarray, solo: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`SpelledWords.mixed` and `mixed_start`: the words holding two carrier letters or more,
    grouped by their carrier tiles (how many of each carrier letter), longest first within."""
    mixed = np.flatnonzero(~solo)
    patterns, group = np.unique(carrier_tiles[mixed], axis=0, return_inverse=True)
    order = np.lexsort((-lengths[mixed], group.ravel()))
    starts = np.zeros(len(patterns) + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(group.ravel(), minlength=len(patterns)))
    return mixed[order].astype(np.int64), starts


def _use_weights(share, solo, mixed, lengths, counts, carrier) -> np.ndarray:
    """`SpelledWords.rho`: a weight per carrier such that every word's carrier tiles weigh at
    least its length - 1 (`_ws_supplied_weights` with the whole hand, in numpy)."""
    rho = np.zeros(26, dtype=np.float64)
    for code in np.flatnonzero(carrier):
        holding = np.flatnonzero(solo & (counts[: len(solo), code] > 0))
        rho[code] = share[holding].max(initial=0.0)
    # The weights only grow below, so a word they already pay for stays paid for: only those
    # short now are walked (in order: each raise changes the next one's test).
    short = mixed[counts[mixed] @ rho < lengths[mixed] - 1 - 1e-9]
    for k in short.tolist():
        if counts[k] @ rho < lengths[k] - 1 - 1e-9:
            held = (counts[k] > 0) & (carrier == 1)
            rho[held] = np.maximum(rho[held], share[k])
    return rho


def letter_weights(counts: np.ndarray, lengths: np.ndarray, hand: np.ndarray) -> np.ndarray | None:
    """`SpelledWords.weight`'s first row for words of letter counts `counts` (int[words, 26]) and
    `lengths`: a signed weight per letter such that every word's letters weigh at least its
    length - 1, the hand weighing least in all, a tile of weight >= 0 two uses, one of weight
    < 0 one (`kernels.weights`). None when the program fails: then the carriers' weights serve
    (they are such weights too)."""
    return _lightest_weights(counts, lengths, hand, 2.0 * hand)


def _lightest_weights(counts, lengths, hand, high) -> np.ndarray | None:
    """Signed weights over the hand's letters, every word's weighing at least its length - 1, of
    least high @ max(w, 0) + (high / 2) @ min(w, 0), none below -BIG_M (`kernels.weights`;
    SciPy's HiGHS should the kernel fail); None when neither answers. Every answer is checked
    here: the weights returned are valid."""
    if len(lengths) == 0:
        return None
    present = np.flatnonzero(hand > 0)  # (a word's letters are the hand's)
    # A column per distinct word row (anagrams share one), in the words' order (the simplex's
    # choices, among equal weights, follow it): a third fewer columns on big hands, and the
    # simplex's time falls by more (BCDEEFLNOOPQQRRSTTTYY: 3,876 words, 2,556 rows; 950 ms -> 4 ms).
    table = distinct_rows(np.column_stack([counts[:, present], lengths - 1]).astype(np.int64), in_order=True)
    held = np.ascontiguousarray(table[:, :-1])
    needed = table[:, -1].astype(np.float64)
    high = np.ascontiguousarray(high[present], dtype=np.float64)
    low = high / 2
    solved: np.ndarray | None = np.zeros(len(present))
    if weights_kernel.lightest_weights(held, needed, high, low, solved) != weights_kernel.WEIGHTS_OPTIMAL:
        solved = _highs_weights(held, needed, high, low)
    if solved is None:
        return None
    weight = np.zeros(26)
    weight[present] = solved + WEIGHT_MARGIN  # past the solver's tolerance (higher weights stay valid)
    return weight if (counts @ weight >= lengths - 1).all() else None


def _highs_weights(held, needed, high, low) -> np.ndarray | None:
    """`kernels.weights`' program by SciPy's HiGHS (w = a - b, a, b >= 0), or None (no SciPy,
    or no answer)."""
    try:
        with one_time_setup():  # SciPy's first import: the process's cost, not the search's
            from scipy.optimize import linprog  # type: ignore[import-untyped]
    except ImportError:
        return None
    both = np.hstack([held, -held])
    bounds = [(0, None)] * len(high) + [(0, weights_kernel.BIG_M)] * len(high)
    result = linprog(np.concatenate([high, -low]), A_ub=-both, b_ub=-needed, bounds=bounds, method="highs")
    if result.status != 0:
        return None
    return result.x[: len(high)] - result.x[len(high) :]


def spent_letter_weights(counts: np.ndarray, lengths: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """More rows for `SpelledWords.weight` (float64[rows, 26]): for each letter of the hand, the
    lightest weights for the hand without that letter's tiles. A state that has laid them all
    weighs less by these than by the whole hand's (the letter weighs what it must, at almost no
    cost); every row is valid weights, so each bounds every state. (Weights are not held >= 0
    besides: on the hard vowel-poor hands that cuts no more decisions.)"""
    rows = []
    for code in np.flatnonzero(hand > 0).tolist():
        high = 2.0 * hand
        high[code] = 1e-3 * hand[code]
        weight = _lightest_weights(counts, lengths, hand, high)
        if weight is not None:
            rows.append(weight)
    return np.array(rows, dtype=np.float64).reshape(len(rows), 26)


WEIGHT_MARGIN = 1e-6
# A hand that spells more words gets the hand's row alone: its 15 or so programs would take
# 250-450 ms (ABEGIKLNOOOPQQRSTTWYY: 9,351 words), and such hands are grids to find, where the
# rows, a proof's tool, cut little.
SPENT_ROWS_UP_TO = 3_000


def with_rows(weight: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """`weight` (float64[rows, 26]), then those of `rows` that no row kept before them is at most
    everywhere (the room only grows with each weight, so such a row gives every state at least
    as much room as that one: it never prunes, and is never the least)."""
    kept = list(weight)
    for row in rows:
        if not any((other <= row + 1e-9).all() for other in kept):
            kept.append(row)
    return np.array(kept, dtype=np.float64)


def _hosts(holds: np.ndarray, masks: np.ndarray, carrier: np.ndarray) -> np.ndarray:
    """`SpelledWords.hosts`: for each letter, carriers chosen greedily (the one most of the
    words holding the letter and none chosen yet hold; ties alphabetical) until each of those
    words holds one."""
    hosts = np.zeros(26, dtype=np.int64)
    for code in np.flatnonzero(holds.any(axis=0)).tolist():
        holding = holds[:, code]
        while True:
            unhit = holding & ((masks & hosts[code]) == 0)
            if not unhit.any():
                break
            tally = np.where(carrier == 1, holds[unhit].sum(axis=0), -1)
            hosts[code] |= BITS[int(np.argmax(tally))]
    return hosts


# A group's carriers, at most. Three as well as one or two: ABBDDFHNNNNNNORRRRTTT's D, F, N and T
# are each in words that all hold an A, an H or an O, and only that group of three bounds it
# (382,809 decisions -> 25,561); four carriers cut no more decisions over 2,400 seeded 21-tile
# hands and cost more time (benchmarks/results/2026-12-05-solve-groups3-newold.md).
GROUP_CARRIERS = 3


def _bound_groups(
    counts: np.ndarray, hosts: np.ndarray, carrier: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`SpelledWords.letter_groups` .. `by_group_start`. The groups: the distinct host sets of
    at most GROUP_CARRIERS carriers of the non-carrier letters (fewest carriers first, then most letters
    within, at most WS_GROUPS); a group's letters are those whose hosts lie within its
    carriers, so every word holding one holds one of its carriers."""
    letters = [code for code in range(26) if not carrier[code] and hosts[code] and counts[:, code].any()]
    sets = {int(hosts[code]) for code in letters if bin(int(hosts[code])).count("1") <= GROUP_CARRIERS}
    within = {mask: [code for code in letters if int(hosts[code]) & ~mask == 0] for mask in sets}
    chosen = sorted(sets, key=lambda mask: (bin(mask).count("1"), -len(within[mask]), mask))[: kernel.WS_GROUPS]
    letter_groups, carrier_groups = np.zeros(26, dtype=np.int64), np.zeros(26, dtype=np.int64)
    group_carriers, group_cap = np.zeros(kernel.WS_GROUPS, dtype=np.int64), np.zeros(kernel.WS_GROUPS)
    by_group: list[np.ndarray] = []
    for g, mask in enumerate(chosen):
        group_carriers[g] = mask
        carriers = [code for code in range(26) if mask >> code & 1]
        carrier_groups[carriers] |= 1 << g
        letter_groups[within[mask]] |= 1 << g
        holding = np.flatnonzero(counts[:, carriers].sum(axis=1) > 0)
        ratios = counts[holding][:, within[mask]].sum(axis=1) / counts[holding][:, carriers].sum(axis=1)
        by_group.append(holding[np.argsort(-ratios, kind="stable")])
        group_cap[g] = float(ratios.max(initial=0.0))
    starts = np.zeros(kernel.WS_GROUPS + 1, dtype=np.int64)
    starts[1 : len(by_group) + 1] = np.cumsum([len(words) for words in by_group])
    starts[len(by_group) + 1 :] = starts[len(by_group)]
    flat = np.concatenate(by_group).astype(np.int64) if by_group else np.zeros(0, dtype=np.int64)
    return (
        letter_groups,
        carrier_groups,
        group_carriers,
        group_cap,
        flat if len(flat) else np.zeros(1, dtype=np.int64),
        starts,
    )


def _tally(counts: np.ndarray, longest: int) -> np.ndarray:
    """`SpelledWords.tally`: each word's distinct letters as code * 32 + count, then -1."""
    tally = np.full((len(counts), longest), -1, dtype=np.int64)
    rows, codes = np.nonzero(counts)
    columns = np.cumsum(counts > 0, axis=1)[rows, codes] - 1
    tally[rows, columns] = codes * 32 + counts[rows, codes]
    return tally


def _rest_masks(
    counts: np.ndarray, letters: np.ndarray, word_of: np.ndarray, offset_of: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`SpelledWords.occ_rest` and `occ_rest_twice`: per occurrence (word k, offset), the letters
    of the word but that one, and those of them it holds twice or more, one bit each."""
    if len(word_of) == 0:
        return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    others = counts[word_of]
    others[np.arange(len(word_of)), letters[word_of, offset_of]] -= 1
    return (others > 0) @ BITS, (others > 1) @ BITS


def new_search(counts: np.ndarray) -> kernel.WordSearchState:
    """The arrays for a hand of letter counts `counts` (int[26]), at the start."""
    n = int(counts.sum())
    side = 2 * n + 5
    depths = 2 * n + 2
    items = 2 * n + 2
    entries = 8 * n * n + 64
    state = np.zeros(kernel.WS_STATE_SIZE, dtype=np.int64)
    state[kernel.WS_LEFT] = n

    def table() -> np.ndarray:
        return np.zeros((depths, items), dtype=np.int64)

    return kernel.WordSearchState(
        np.zeros(side * side, dtype=np.int64),
        np.zeros(side * side, dtype=np.int64),
        np.zeros((side * side, 2), dtype=np.int64),
        counts.astype(np.int64).copy(),
        state,
        np.zeros(n + 1, dtype=np.int64),
        np.zeros((entries, 3), dtype=np.int64),
        table(),
        table(),
        table(),
        table(),
        table(),
        np.zeros(depths, dtype=np.int64),
        np.zeros(kernel.WS_POOL, dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros((12, max(4 * n + 8, 53)), dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros(depths, dtype=np.int64),
        np.zeros((depths, items), dtype=np.float64),
        np.zeros(26, dtype=np.float64),
        table(),
        np.zeros(kernel.WS_GROUPS, dtype=np.float64),
        np.zeros((depths, items, kernel.WS_GROUPS), dtype=np.float64),
        np.zeros((depths, items), dtype=np.float64),
        np.zeros(depths, dtype=np.int64),
    )


def hardest_letters(words: kernel.SpelledWords, counts: np.ndarray, count: int) -> list[int]:
    """The hand's `count` letters that occur in the fewest words, hardest first (ties:
    alphabetical)."""
    present = [code for code in range(26) if counts[code] > 0]
    return sorted(present, key=lambda code: (int(words.occ_start[code + 1] - words.occ_start[code]), code))[:count]


ROOTS = 3  # searches run side by side, each from another of the hardest letters (module docstring)
# Decisions a turn: about 10 ms (4-5 us each on 21-tile hands). Fixed, and turns are given by decisions and
# the searches' states alone, so the decisions counted when one ends do not depend on the clock.
TURN_NODES = 2_000
# Which search gets the next turn: each in turn for the first WARM_TURNS rounds, then the one
# whose tree looks nearest its end (`_turns_left`), but never fewer than 1 in FAIR_SHARE turns
# each (an estimate can be wrong by orders of magnitude). On the hard vowel-poor hands the
# fastest root is 3-4x faster than the next, and this took the word search's time from 1.1-1.3 s
# to 0.4-0.5 s on three of them.
WARM_TURNS = 4
FAIR_SHARE = 16


# A hand that spells more words is declined (see WordSearch). Its arrays take about 30 ms a
# thousand words to build (ABEGIKLNOOOPQQRSTTWYY: 9,351 words, 0.25 s), and hands of two Qs
# and no U spell 3,000-9,000 of which the word search finds a grid from Q in a few thousand
# decisions (BCDEEFLNOOPQQRRSTTTYY: 3,876 words, 109 decisions; the move model found none in
# 10 s). Up to 3,000 (2026-12-05) it left them to the move model's passes.
MAX_WORDS = 10_000
WALK_BUDGET = 2_000_000  # DAWG steps spent counting them


def _spelled_count(counts: np.ndarray, lexicon, min_length: int) -> int:
    """How many words the hand spells, or -1 when more than MAX_WORDS (or too long to count)."""
    out = np.zeros((MAX_WORDS, 26), dtype=np.int8)
    graph = layout.graph_of(lexicon.forward, lexicon.reverse)
    return int(spelling.word_letter_counts(counts.astype(np.int64).copy(), min_length, WALK_BUDGET, graph, out))


class WordSearch:
    """One hand's search, run in calls that each stop at a deadline and resume where they
    paused: `run` returns (status, grid or None, decisions so far), status 'solved' with a
    grid, 'no-grid' when a search is complete without one, 'timeout' when the deadline
    (`native.search_clock`) or the node budget came first. Its ROOTS searches (one per root
    letter, `roots`) take turns; `search` and `hard` are the first's."""

    def __init__(self, tiles, lexicon, min_length: int, spelled: list[str] | None = None):
        """`spelled`: the upper-case words the grid may use (default: every word the hand
        spells; with fewer, or the same in another order (the tests do), a grid of those words
        only is looked for, and a 'no-grid' answer says no grid of those words only exists)."""
        self.counts = tiles.counts.astype(np.int64)
        if spelled is None:
            # A hand that spells very many words is vowel-rich: the move model's ground, and
            # listing them would cost more than the deadline allows. The search declines it.
            self.declined = _spelled_count(self.counts, lexicon, min_length) < 0
            spelled = [] if self.declined or len(tiles) < 2 else lexicon.formable_words(tiles, min_length)
            spelled = [word.upper() for word in spelled]
        else:
            self.declined = False
            spelled = spelled if len(tiles) >= 2 else []
        self.spelled = spelled  # the words it lays (`solver.search.wordsets` reuses them)
        self.empty = not spelled and not self.declined  # no word at all (or one tile): no grid
        hand_letters = {chr(65 + code) for code in range(26) if self.counts[code] > 0}
        self.words = word_arrays(spelled, hand_letters, self.counts)
        self.roots = hardest_letters(self.words, self.counts, ROOTS) if self.counts.any() else [0]
        self.searches = [new_search(self.counts) for _ in self.roots]
        self.overflowed = [False] * len(self.roots)
        self.turns = [0] * len(self.roots)  # turns each search has had
        self.search, self.hard = self.searches[0], self.roots[0]

    @property
    def decisions(self) -> int:
        return sum(int(search.state[kernel.WS_NODES]) for search in self.searches)

    def run(self, deadline: float, node_budget: int | None = None, workers: int = 1) -> tuple:
        """Turns until the hand is settled, the deadline or the node budget; with `workers` > 1,
        that many searches take their turns at once, each in a thread of its own (the kernel
        releases the GIL). Turns go in rounds, and the round's outcomes are read in the order
        the searches were picked, so the answer and the decisions counted do not depend on the
        threads' timing: a run is a pure function of its input and `workers`."""
        if self.declined:
            return "timeout", None, 0
        if self.empty:
            return "no-grid", None, 0
        with contextlib.ExitStack() as stack:
            pool = stack.enter_context(ThreadPoolExecutor(workers - 1, "word-search-turn")) if workers > 1 else None
            while not all(self.overflowed):
                turns = self._next_round(workers, node_budget)
                helped = [pool.submit(self._take_turn, *turn) for turn in turns[1:]] if pool else []
                statuses = [self._take_turn(*turns[0])] + [future.result() for future in helped]
                for (index, _), status in zip(turns, statuses):
                    if status == kernel.WS_FOUND:
                        return "solved", _grid_on(self.searches[index].board), self.decisions
                    if status == kernel.WS_EXHAUSTED:  # every root's search is complete: this one settles it
                        return "no-grid", None, self.decisions
                    self.overflowed[index] = status == kernel.WS_OVERFLOW  # its option pool ran out: no claim
                for index, _ in turns:
                    self._ban_ended_root_options(index)
                if search_clock() >= deadline or (node_budget is not None and self.decisions >= node_budget):
                    return "timeout", None, self.decisions
        return "timeout", None, self.decisions

    def _next_round(self, workers: int, node_budget: int | None) -> list[tuple[int, int]]:
        """The round's turns: (search, decisions) for up to `workers` distinct searches, within
        the node budget."""
        turns: list[tuple[int, int]] = []
        left = None if node_budget is None else node_budget - self.decisions
        while len(turns) < workers and (left is None or left > 0 or not turns):
            # With two workers or more, the first search (from the hardest letter) takes one turn of
            # every round, and the others share the rest. It was the fastest of the three on 42 of
            # 71 hard hands; on 64 hard hands (2,400 seeded draws' slowest) two workers
            # took 8.08 s in all with every turn shared, 7.34 s with it pinned
            # (EEEOOOOPPPPSSSVVVVVVV: 0.73 -> 0.53 s), though a hand whose fastest root is another
            # takes longer (AAEFGGIKLMOOOOQQSTVXZ: 0.16 -> 0.51 s).
            index = self._next_turn([index for index, _ in turns], pinned=workers > 1 and not turns)
            if index < 0:
                break
            nodes = TURN_NODES if left is None else max(1, min(TURN_NODES, left))
            self.turns[index] += 1
            turns.append((index, nodes))
            left = None if left is None else left - nodes
        return turns

    def _ban_ended_root_options(self, index: int) -> None:
        """Ban the word of each root option search `index` has ended without a grid: no grid
        holds it (module docstring), so no search lays it from now on."""
        search = self.searches[index]
        first, ended = search.item_start[0, 0], max(int(search.option[0]) - 1, 0)  # those before the one in progress
        self.words.banned[self.words.occ_word[search.pool[first : first + ended]]] = 1  # (again: harmless)

    def _take_turn(self, index: int, nodes: int) -> int:
        return kernel.word_search(self.searches[index], self.words, self.roots[index], nodes)

    def _next_turn(self, taken: list[int], pinned: bool = False) -> int:
        """The search that gets the next turn, among those not `taken` this round (see
        WARM_TURNS; `pinned`: the first search's while it runs, see `_next_round`); -1 when none
        is left."""
        live = [index for index, overflowed in enumerate(self.overflowed) if not overflowed and index not in taken]
        if not live:
            return -1
        if pinned and live[0] == 0:
            return 0
        done = sum(self.turns)
        if done < WARM_TURNS * len(self.searches):
            return live[done % len(live)]
        starved = [index for index in live if self.turns[index] * FAIR_SHARE < done]
        if starved:
            return starved[0]
        return min(live, key=lambda index: _turns_left(self.searches[index]))


def _turns_left(search: kernel.WordSearchState) -> float:
    """Decisions a search still needs, estimated from its share of the tree done so far: at each
    depth of the decision stack the options tried before the current one are done, each worth
    1 / options of its parent's share (so an unbalanced tree fools it, hence FAIR_SHARE)."""
    done, width = 0.0, 1.0
    for depth in range(int(search.state[kernel.WS_DEPTH]) + 1):
        item = search.chosen_item[depth]
        options = int(search.item_count[depth, item] + search.item_single[depth, item])
        if options <= 0:
            break
        done += width * max(int(search.option[depth]) - 1, 0) / options
        width /= options
    decisions = int(search.state[kernel.WS_NODES])
    return decisions * (1.0 - done) / max(done, 1e-12)


def _grid_on(board: np.ndarray):
    """The grid a search's board (int[side * side], letter codes + 1) holds."""
    from solver.core.grid import Grid

    side = int(np.sqrt(len(board)))
    return Grid.from_cells({(int(k) // side, int(k) % side): chr(64 + int(board[k])) for k in np.nonzero(board)[0]})


def word_search_grid(tiles, lexicon, min_length: int, deadline: float, node_budget: int | None = None):
    """`WordSearch(tiles, lexicon, min_length).run(deadline, node_budget)`."""
    return WordSearch(tiles, lexicon, min_length).run(deadline, node_budget)
