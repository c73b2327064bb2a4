"""The letter weights' linear program (solver/search/kernels/weights.py): its simplex agrees
with SciPy's HiGHS, the program's other solver, on the optimum (or that there is none), and its
weights are feasible, on the programs the word search poses (seeded hands of the stress classes,
the whole hand's and each letter's without it, signed and not) and on random small programs,
degenerate ones included."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.search import wordsearch
from solver.search.kernels import weights


def assert_optimal(counts: np.ndarray, needed: np.ndarray, high: np.ndarray, low: np.ndarray) -> None:
    """The kernel's weights meet every word's need and cost what HiGHS's optimum costs (signed:
    w = a - b, a >= 0, 0 <= b <= BIG_M, cost high @ a - low @ b; where no packing meets the
    lower bounds, b's bound sets the optimum: about -BIG_M)."""
    weight = np.zeros(counts.shape[1])
    status = weights.lightest_weights(counts, needed, high, low, weight)
    both = np.hstack([counts, -counts])
    bounds = [(0, None)] * len(high) + [(0, weights.BIG_M)] * len(high)  # (the artificials' cost: w >= -BIG_M)
    highs = linprog(np.concatenate([high, -low]), A_ub=-both, b_ub=-needed, bounds=bounds, method="highs")
    assert status == weights.WEIGHTS_OPTIMAL and highs.status == 0
    assert (counts @ weight >= needed - 1e-7).all()
    if not low.any():
        assert (weight >= -1e-9).all()
    cost = high @ np.maximum(weight, 0) + low @ np.minimum(weight, 0)
    assert cost == pytest.approx(highs.fun, rel=1e-7, abs=1e-6)


@pytest.mark.parametrize(
    "letters",
    [
        pytest.param("ACDDEFJLMNNNOQQRRTTTZ", marks=pytest.mark.slow),  # 1,801 words: 56 programs in 1.5 s
        "DDDDGGIKLMNNNPRRTTUWW",
        "EEEOOOOPPPPSSSVVVVVVV",
    ],
)
def test_the_word_searchs_programs_agree_with_highs(en, letters):
    """The whole hand's program and each letter's without it (`spent_letter_weights`)."""
    hand = TileCounts.from_letters(letters).counts.astype(np.int64)
    words = [word.upper() for word in en.formable_words(TileCounts.from_letters(letters), 2)]
    _, lengths, counts, _, _ = wordsearch._letter_table(words)
    present = np.flatnonzero(hand)
    held = np.ascontiguousarray(counts[:, present])
    needed = (lengths - 1).astype(np.float64)
    high = 2.0 * hand[present]
    assert_optimal(held, needed, high, high / 2)
    assert_optimal(held, needed, high, np.zeros(len(present)))
    for i, code in enumerate(present):
        high = 2.0 * hand[present]
        high[i] = 1e-3 * hand[code]
        assert_optimal(held, needed, high, high / 2)
        assert_optimal(held, needed, high, np.zeros(len(present)))


def test_seeded_draws_agree_with_highs(en, make_rng):
    rng = make_rng(3605)
    for size in (7, 11, 15, 21):
        for _ in range(3):
            tiles = draw(ENGLISH, size, rng)
            words = [word.upper() for word in en.formable_words(tiles, 2)]
            if not words or len(words) > 3_000:
                continue
            hand = tiles.counts.astype(np.int64)
            _, lengths, counts, _, _ = wordsearch._letter_table(words)
            present = np.flatnonzero(hand)
            high = 2.0 * hand[present]
            assert_optimal(np.ascontiguousarray(counts[:, present]), lengths - 1.0, high, high / 2)


@pytest.mark.nojit  # (small: the pure-Python kernel too)
def test_random_small_programs_agree_with_highs(make_rng):
    """Words of 1-3 of each of 2-8 letters, needing their length - 1 (at least 1), at costs of
    small integers (many ties: the degenerate steps Bland's rule is there for), with lower
    bounds of none, half or all of the upper (some then met by no packing)."""
    rng = make_rng(3606)
    for _ in range(150):
        letters, words = int(rng.integers(2, 9)), int(rng.integers(1, 40))
        counts = rng.integers(0, 4, size=(words, letters)) * (rng.random((words, letters)) < 0.5)
        counts[counts.sum(axis=1) < 2, 0] += 2
        needed = (counts.sum(axis=1) - 1).astype(np.float64)
        high = rng.integers(1, 5, size=letters) * 1.0
        low = high * rng.integers(0, 3, size=letters) / 2  # none, half, all of high
        assert_optimal(np.ascontiguousarray(counts, dtype=np.int64), needed, high, low)


def test_the_fallback_keeps_the_weights_valid(en, monkeypatch):
    """Should the kernel fail, HiGHS answers; either way `letter_weights` returns weights every
    word meets, the same optimum."""
    letters = "AABDDDFHLLNNPPRRSTTTV"
    hand = TileCounts.from_letters(letters).counts.astype(np.int64)
    words = [word.upper() for word in en.formable_words(TileCounts.from_letters(letters), 2)]
    _, lengths, counts, _, _ = wordsearch._letter_table(words)
    kernel = wordsearch.letter_weights(counts, lengths, hand)
    monkeypatch.setattr(weights, "lightest_weights", lambda *args: weights.WEIGHTS_FAILED)
    fallback = wordsearch.letter_weights(counts, lengths, hand)
    for weight in (kernel, fallback):
        assert weight is not None and (counts @ weight >= lengths - 1).all()
    room = lambda weight: 2 * hand @ np.maximum(weight, 0) + hand @ np.minimum(weight, 0)  # noqa: E731
    assert room(kernel) == pytest.approx(room(fallback), abs=1e-4)
