"""The word sets (solver/search/wordsets.py): its 'no grid' is a proof, so every row of its
integer program must hold for every valid grid, and its answers must be the oracles'.

* Row by row: the words and crossings of real grids (the solver's, and hand-made ones with a
  2x2 block, where four words meet four times) satisfy the program's matrix, every
  simple-graph and hanging row the search could add included, as `_program_rows` writes it.
* Whole: on small hands it agrees with the exhaustive reference, on vowel-poor hands of 6-7
  tiles with the cell-by-cell search, both answers; every grid re-checked by the validator.
"""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest

from solver.core.grid import Grid, find_words, validate
from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.search import solving, wordsets
from solver.search.exact import exact_grid
from solver.search.reference import exhaustive_grid_exists
from solver.search.solving import solve
from solver.search.wordsets import WORD_SETS, WordSets, word_sets_grid


def sets_for(hand: TileCounts, lexicon) -> WordSets:
    return WordSets(hand, lexicon, 2, [word.upper() for word in lexicon.formable_words(hand, 2)])


def grid_columns(sets: WordSets, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """The grid's x (how many of its words have each of the program's vectors) and y (its
    crossing tiles per letter)."""
    index = {tuple(vector): k for k, vector in enumerate(sets.vectors.tolist())}
    x = np.zeros(len(sets.vectors), dtype=np.int64)
    words = find_words(grid)
    for word in words:
        x[index[tuple(TileCounts.from_letters(word.text).counts.tolist())]] += 1
    cells = grid.cells()
    in_words: dict = {}
    for word in words:
        for cell in word.cells:
            in_words[cell] = in_words.get(cell, 0) + 1
    y = np.zeros(26, dtype=np.int64)
    for cell, count in in_words.items():
        if count == 2:
            y[ord(cells[cell]) - 65] += 1
    return x, y


def assert_rows_hold(sets: WordSets, grid: Grid) -> None:
    """Add every simple-graph row (letter sets of up to three of the grid's letters) and every
    hanging row (the letters of one or two of its words) to the program, then check the
    grid satisfies the matrix as written, with b_L = 1 exactly when m_L >= 4."""
    x, y = grid_columns(sets, grid)
    letters = sorted({ord(letter) - 65 for letter in grid.cells().values()})
    sets.rows.simple = [
        sum(1 << code for code in chosen) for size in (1, 2, 3) for chosen in itertools.combinations(letters, size)
    ]
    masks = {int(mask) for mask in sets.masks[np.flatnonzero(x)]}
    sets.rows.hanging = sorted({a | b for a in masks for b in masks if sets.hand_mask & ~(a | b)})
    holders = [int(x[(sets.masks & mask) != 0].sum()) for mask in sets.rows.simple]
    b = np.array([1 if m >= 4 else 0 for m in holders], dtype=np.int64)
    matrix, lower, upper = sets._program_rows(len(sets.vectors), len(sets.rows.simple))
    values = matrix @ np.concatenate([x, y, b])
    broken = np.flatnonzero((values < lower - 1e-9) | (values > upper + 1e-9))
    assert not len(broken), f"{grid}\nrows {broken.tolist()}: {values[broken]} not in {lower[broken]}..{upper[broken]}"
    assert np.all(x <= sets.most), "a word more often than its tiles allow"


@pytest.mark.parametrize("rows", [("AT", "TA"), ("TAT", "A.A", "TAT"), ("QAT", "..A", "..T")])
def test_hand_made_grids_satisfy_every_row(en, rows):
    """The 2x2 block (four words, four crossings: m = 4 breaks y(L) <= m - 1, which b_L
    allows), a ring of four words, and a corner."""
    grid = Grid.from_rows(rows)
    hand = grid.tiles()
    assert validate(grid, en, tiles=hand).ok
    assert_rows_hold(sets_for(hand, en), grid)


@pytest.mark.slow  # 3 s; quick counterpart: test_hand_made_grids_satisfy_every_row
def test_the_solvers_grids_satisfy_every_row(en, make_rng):
    """Grids of 8-21 tiles, vowel-rich and vowel-poor (the solver's own, validated)."""
    rng = make_rng(3601)
    checked = 0
    for size in (8, 12, 16, 21):
        for _ in range(4):
            hand = draw(ENGLISH, size, rng)
            result = solve(hand, en, time_limit=2.0)
            if result.status != "solved":
                continue
            assert validate(result.grid, en, tiles=hand).ok
            assert_rows_hold(sets_for(hand, en), result.grid)
            checked += 1
    for letters in ("ACDEFGGKMNNNNRRRSTTTW", "BBDDELNNNNPRRSTTTTTUW"):  # grids the word sets find
        hand = TileCounts.from_letters(letters)
        status, grid, _ = word_sets_grid(hand, en, 2, 20.0)
        assert status == "solved" and validate(grid, en, tiles=hand).ok, (letters, status)
        assert_rows_hold(sets_for(hand, en), grid)
        checked += 1
    assert checked >= 12, checked


def test_agrees_with_the_oracle_on_small_hands(en, make_rng):
    rng = make_rng(3602)
    answers = set()
    for size in (2, 3, 4, 5):
        for _ in range(8 if size < 5 else 6):
            hand = draw(ENGLISH, size, rng)
            status, grid, _ = word_sets_grid(hand, en, 2, 30.0)
            expected = "solved" if exhaustive_grid_exists(hand, en) is not None else "no-grid"
            assert status == expected, hand.letters()
            if grid is not None:
                assert validate(grid, en, tiles=hand).ok, grid
            answers.add(status)
    assert answers == {"solved", "no-grid"}


def test_agrees_with_the_cell_by_cell_search_on_vowel_poor_hands(en):
    answers = set()
    for letters in ("BCDEFG", "AJQRST", "EGHNST", "IJKLMN", "OPRSTXZ", "ACHLMPS", "EIJQSTU", "QQATST", "BRRTSK"):
        hand = TileCounts.from_letters(letters)
        expected, _, _ = exact_grid(hand, en, 2, time.perf_counter() + 60)
        status, grid, _ = word_sets_grid(hand, en, 2, 30.0)
        assert status == ("solved" if expected == "solved" else "no-grid"), letters
        if grid is not None:
            assert validate(grid, en, tiles=hand).ok, grid
        answers.add(status)
    assert answers == {"solved", "no-grid"}


def test_program_solves_in_slices_that_double_reach_the_same_answers(en, monkeypatch):
    """A solve of the program that runs out of its slice with no answer is made again with
    twice the time (so a stop is seen soon, and a long solve still ends): with a slice far too
    short for any solve, the word sets still settle the hands, as the oracle does."""
    monkeypatch.setattr(wordsets, "PROGRAM_SLICE", 1e-4)
    doubled = 0
    for letters in ("QQATST", "EGHNST", "BRRTSK", "ACHLMPS"):
        hand = TileCounts.from_letters(letters)
        sets = WordSets(hand, en, 2, [word.upper() for word in en.formable_words(hand, 2)])
        status, grid, _ = sets.run(time.perf_counter() + 30.0)
        expected, _, _ = exact_grid(hand, en, 2, time.perf_counter() + 60)
        assert status == ("solved" if expected == "solved" else "no-grid"), letters
        if grid is not None:
            assert validate(grid, en, tiles=hand).ok, grid
        doubled += sets.program_slice >= 2e-4
    assert doubled >= 2, doubled  # the slices had to grow (a hand that spells nothing needs no program)


def test_solve_settles_a_hand_only_the_word_sets_prove(en):
    """BCDDEGLNNNNRRRRSSSTTY: the letter counts and the crossing argument leave it open and the
    word search needs about a second; the word sets prove it in a third of one (bench_settle)."""
    result = solve("BCDDEGLNNNNRRRRSSSTTY", en, time_limit=10.0)
    assert result.status == "no-grid" and result.proof in (WORD_SETS, solving.WORD_SEARCH), result.proof
    status, _, _ = word_sets_grid(TileCounts.from_letters("BCDDEGLNNNNRRRRSSSTTY"), en, 2, 20.0)
    assert status == "no-grid"


def test_a_node_capped_search_never_runs_the_word_sets(en, monkeypatch):
    """Its integer programs are bounded by time: a bot's search must stay a pure function of
    its input (as for the crossing argument)."""

    def refuse(*arguments):
        raise AssertionError("the word sets ran in a node-capped search")

    monkeypatch.setattr(WordSets, "run", refuse)
    result = solve("BCDDEGLNNNNRRRRSSSTTY", en, time_limit=10.0, max_nodes=20_000)
    assert result.status in ("timeout", "no-grid")


def test_the_background_word_search_ends_with_the_solve(en):
    """An uncapped solve runs the word search in a thread beside the proofs and the word sets;
    whichever settles the hand (or the deadline), no thread outlives the call."""
    for letters, limit in (
        ("BCDDEGLNNNNRRRRSSSTTY", 10.0),
        ("AABDDDFHLLNNPPRRSTTTV", 0.3),
        ("BDIINNRRRRRRSSTTTTTTT", 10.0),
    ):
        result = solve(letters, en, time_limit=limit)
        if result.grid is not None:
            assert validate(result.grid, en, tiles=TileCounts.from_letters(letters)).ok
        assert not [thread for thread in threading.enumerate() if thread.name == "word-search"], letters
