"""The cell-by-cell search (solver/search/exact.py): complete, so its "no grid" is a proof.

Checked against the reference oracle (`exhaustive_grid_exists`, which enumerates every shape)
on small hands, both answers; every grid it returns re-checked by the independent validator.
"""

from __future__ import annotations

import time

import pytest

from solver.core.grid import validate
from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.search.exact import exact_grid
from solver.search.reference import exhaustive_grid_exists


def settle(hand: TileCounts, lexicon, min_length: int = 2):
    return exact_grid(hand, lexicon, min_length, time.perf_counter() + 60)


@pytest.mark.nojit
@pytest.mark.parametrize("letters", ["CAT", "AT", "QQ", "XYZ", "CATMAP", "AEIRST", "ZZZQ"])
def test_known_hands(en, letters):
    hand = TileCounts.from_letters(letters)
    status, grid, _ = settle(hand, en)
    expected = exhaustive_grid_exists(hand, en) if len(hand) <= 5 else True
    assert status == ("solved" if expected else "no-grid")
    if grid is not None:
        assert validate(grid, en, tiles=hand).ok, grid


@pytest.mark.nojit
def test_agrees_with_the_oracle_on_random_small_hands(en, make_rng):
    rng = make_rng(24)
    answers = set()
    for size in (2, 3, 4, 5):
        for _ in range(6 if size < 5 else 4):
            hand = draw(ENGLISH, size, rng)
            status, grid, _ = settle(hand, en)
            oracle = exhaustive_grid_exists(hand, en)
            assert (status == "solved") == (oracle is not None), hand.letters()
            assert status in ("solved", "no-grid")
            if grid is not None:
                assert validate(grid, en, tiles=hand).ok, grid
            answers.add(status)
    assert answers == {"solved", "no-grid"}  # the draws exercise both answers


def test_minimum_word_length_three(en):
    # AT is a word but shorter than 3; CAT is fine.
    assert settle(TileCounts.from_letters("AT"), en, min_length=3)[0] == "no-grid"
    status, grid, _ = settle(TileCounts.from_letters("CAT"), en, min_length=3)
    assert status == "solved" and validate(grid, en, tiles=TileCounts.from_letters("CAT"), min_length=3).ok


def test_a_dense_grid_outside_the_move_model(en):
    # A 2x2 block needs four words at once; the search finds such grids as readily as lines.
    hand = TileCounts.from_letters("AAHH")  # e.g. AH / HA: rows AH, HA and columns AH, HA
    status, grid, _ = settle(hand, en)
    assert status == "solved" and validate(grid, en, tiles=hand).ok


def test_the_budget_is_kept(en):
    hand = TileCounts.from_letters("BEFJLQSTUVW")  # no grid (the word search proves it); far too big for 1000 cells
    status, grid, cells = exact_grid(hand, en, 2, time.perf_counter() + 60, node_budget=1000)
    assert (status, grid) == ("timeout", None) and cells == 1000
