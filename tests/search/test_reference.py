"""The reference oracles themselves, and the solver's statuses against the exhaustive one.

* connected_shapes: the fixed-polyomino counts (OEIS A001168).
* exhaustive_grid_exists: its pruning against an unpruned enumeration validated cell for
  cell; known solvable and unsolvable hands; agreement with solve() on random hands.
* generate_moves_reference: against an enumeration of one- and two-tile placements judged
  by solver.core.grid.validate alone, and by applying every move it lists.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from helpers import sweep
from helpers import tiles as hand

from solver.core.grid import Grid, validate
from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.search.reference import (
    apply_move,
    connected_shapes,
    exhaustive_grid_exists,
    generate_moves_reference,
    placements,
)
from solver.search.solving import solve

# -- shapes ------------------------------------------------------------------------------------


def test_connected_shapes_counts():
    assert [len(connected_shapes(n)) for n in range(1, 8)] == [1, 2, 6, 19, 63, 216, 760]
    assert connected_shapes(0) == []
    for shape in connected_shapes(5):
        assert min(r for r, _ in shape) == 0 and min(c for _, c in shape) == 0
        assert len(Grid.from_cells({cell: "A" for cell in shape}).cells()) == 5


# -- exhaustive_grid_exists ----------------------------------------------------------------------


def unpruned_grid_exists(tiles: TileCounts, lexicon, min_length=2) -> bool:
    """Every shape, every distinct letter order, each grid judged by validate alone."""
    letters = tiles.letters()
    for shape in connected_shapes(len(letters)):
        cells = sorted(shape)
        for order in set(itertools.permutations(letters)):
            grid = Grid.from_cells(dict(zip(cells, order)))
            if validate(grid, lexicon, tiles=tiles, min_length=min_length).ok:
                return True
    return False


@pytest.mark.parametrize(
    "letters", ["CAT", "QI", "AAB", "QUIZ", "AEIOU", "OXEN", "ZZZ", "XU", "JAB", "IT", "QIQ", "JOJ", "AAAAA"]
)
def test_exhaustive_finds_grids(en, letters):
    grid = exhaustive_grid_exists(hand(letters), en)
    assert grid is not None
    assert validate(grid, en, tiles=hand(letters)).ok


@pytest.mark.parametrize("letters", ["QQ", "XZ", "ZZ", "BCDFG", "XYZZY", "QQJJX", "VV", "Q"])
def test_exhaustive_no_word_at_all(en, letters):
    # No word at all can be spelled from these tiles, so no grid can exist.
    assert en.formable_words(hand(letters)) == []
    assert exhaustive_grid_exists(hand(letters), en) is None


@pytest.mark.parametrize("letters", ["QIV", "ZZZZ", "ILY", "ACI", "AAU", "DEV", "EQT", "CIRT", "BOOU"])
def test_exhaustive_none_although_words_exist(en, letters):
    # Words can be spelled, but no grid uses every tile: checked against the unpruned search.
    assert en.formable_words(hand(letters))
    assert exhaustive_grid_exists(hand(letters), en) is None
    assert not unpruned_grid_exists(hand(letters), en)


def test_exhaustive_min_length_three(en):
    grid = exhaustive_grid_exists(hand("CAT"), en, min_length=3)
    assert grid is not None and validate(grid, en, tiles=hand("CAT"), min_length=3).ok
    assert exhaustive_grid_exists(hand("QI"), en, min_length=3) is None
    assert exhaustive_grid_exists(hand("QI"), en) is not None
    assert exhaustive_grid_exists(hand("A"), en) is None  # one tile spells no word


def random_hands(rng, count, sizes, uniform_share=0.4):
    """Hands from the English bag, plus a share with uniformly random letters (more of
    them have no grid)."""
    hands = []
    for _ in range(count):
        size = int(rng.choice(sizes))
        if rng.random() < uniform_share:
            hands.append(TileCounts(np.bincount(rng.integers(0, 26, size), minlength=26)))
        else:
            hands.append(draw(ENGLISH, size, rng))
    return hands


@sweep("hands", 20, 60)
def test_exhaustive_pruning_is_sound(en, make_rng, hands):
    rng = make_rng(4)
    found = 0
    for tiles in random_hands(rng, hands, [2, 3, 4]):
        grid = exhaustive_grid_exists(tiles, en)
        assert (grid is not None) == unpruned_grid_exists(tiles, en), tiles.letters()
        found += grid is not None
    for tiles in random_hands(rng, hands // 10, [5]):
        assert (exhaustive_grid_exists(tiles, en) is not None) == unpruned_grid_exists(tiles, en), tiles.letters()
    assert hands // 6 < found < hands


def test_exhaustive_pruning_is_sound_min_length_three(en, make_rng):
    rng = make_rng(8)
    for tiles in random_hands(rng, 40, [3, 4]):
        grid = exhaustive_grid_exists(tiles, en, min_length=3)
        assert (grid is not None) == unpruned_grid_exists(tiles, en, min_length=3), tiles.letters()


def test_solve_agrees_with_exhaustive(en, make_rng):
    rng = make_rng(2718)
    statuses = Counter()
    for tiles in random_hands(rng, 300, [2, 3, 4, 5]):
        exhaustive = exhaustive_grid_exists(tiles, en)
        solution = solve(tiles, en, time_limit=10.0)
        statuses[solution.status] += 1
        context = f"{tiles.letters()}: solve {solution.status} ({solution.proof}), exhaustive {exhaustive}"
        if solution.status == "solved":
            assert validate(solution.grid, en, tiles=tiles).ok, context
            assert exhaustive is not None, context
        if solution.status == "no-grid":
            assert exhaustive is None, context
        if exhaustive is not None:
            assert solution.status == "solved", context
        else:
            assert solution.status == "no-grid", context  # tiny hands: the proof must come
    assert statuses["solved"] > 50 and statuses["no-grid"] > 50


def test_solve_agrees_with_exhaustive_min_length_three(en, make_rng):
    rng = make_rng(31)
    for tiles in random_hands(rng, 80, [3, 4, 5]):
        exhaustive = exhaustive_grid_exists(tiles, en, min_length=3)
        solution = solve(tiles, en, time_limit=10.0, min_length=3)
        context = f"{tiles.letters()}: solve {solution.status} ({solution.proof}), exhaustive {exhaustive}"
        if solution.status == "solved":
            assert validate(solution.grid, en, tiles=tiles, min_length=3).ok, context
        assert (exhaustive is not None) == (solution.status == "solved"), context
        assert solution.status in ("solved", "no-grid"), context


@sweep("hands", 25, 150)
def test_solve_agrees_with_exhaustive_six_tiles(en, make_rng, hands):
    # Six tiles are beyond the solver's proof bound: 'no-grid' is not promised there, but
    # it must never claim one wrongly, nor miss a grid the exhaustive search finds.
    rng = make_rng(6)
    for tiles in random_hands(rng, hands, [6]):
        exhaustive = exhaustive_grid_exists(tiles, en)
        solution = solve(tiles, en, time_limit=10.0)
        context = f"{tiles.letters()}: solve {solution.status}, exhaustive {exhaustive}"
        if exhaustive is None:
            assert solution.status != "solved", context
        else:
            assert solution.status == "solved", context
            assert validate(solution.grid, en, tiles=tiles).ok


# -- generate_moves_reference -----------------------------------------------------------------


def placements_by_validation(cells, tiles: TileCounts, lexicon, max_new: int, min_length=2):
    """Every placement of 1..max_new hand tiles, in one line, forming a single run with the
    existing tiles, after which the grid validates (all runs words, connected). Independent
    of the move definition; only for grids that are valid to begin with."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    empties = [
        (r, c)
        for r in range(min(rows) - max_new, max(rows) + max_new + 1)
        for c in range(min(cols) - max_new, max(cols) + max_new + 1)
        if (r, c) not in cells
    ]
    letters = sorted(set(tiles.letters()))
    found = set()
    for count in range(1, max_new + 1):
        for spots in itertools.combinations(empties, count):
            if len({r for r, _ in spots}) > 1 and len({c for _, c in spots}) > 1:
                continue  # not in one line
            for word in itertools.product(letters, repeat=count):
                if Counter(word) - Counter(tiles.letters()):
                    continue
                new = dict(zip(spots, word))
                after = {**cells, **new}
                if count > 1 and not one_run(after, spots):
                    continue
                if validate(Grid.from_cells(after), lexicon.laid, min_length=min_length).ok:  # the words a move may lay
                    found.add(frozenset(new.items()))
    return found


def one_run(cells, spots) -> bool:
    """The new tiles lie in one maximal run of the grid."""
    (r0, c0), (r1, c1) = min(spots), max(spots)
    dr, dc = (0, 1) if r0 == r1 else (1, 0)
    r, c = r0, c0
    while (r, c) != (r1, c1):
        if (r, c) not in cells:
            return False
        r, c = r + dr, c + dc
    return True


@pytest.mark.parametrize(
    "text, letters, min_length",
    [
        ("CAT", "SE", 2),
        (".M.\nCAT\n.P.", "AS", 2),
        ("QI", "TS", 2),
        ("A", "TE", 2),
        ("AB\nBA", "SO", 2),
        ("CAT", "SE", 3),
        ("OX\n.I", "ES", 2),
    ],
)
def test_reference_moves_match_validation(en, text, letters, min_length):
    cells = Grid.parse(text).cells()
    assert validate(Grid.parse(text), en, min_length=min_length).ok or min_length == 3
    tiles = hand(letters)
    moves = generate_moves_reference(cells, tiles, en, min_length)
    small = {p for p in placements(moves, cells) if len(p) <= 2}
    assert small == placements_by_validation(cells, tiles, en, 2, min_length)


def test_reference_moves_random(en, make_rng):
    rng = make_rng(12)
    checked = 0
    while checked < 25:
        word = en.trie.restore_key(int(rng.integers(len(en.trie)))).upper()
        if not 2 <= len(word) <= 6:
            continue
        cells = {(0, i): letter for i, letter in enumerate(word)}
        tiles = draw(ENGLISH, 2, rng)
        moves = generate_moves_reference(cells, tiles, en)
        listed = placements(moves, cells)
        assert len(listed) == len(set(listed))  # one move per placement
        assert set(listed) == placements_by_validation(cells, tiles, en, 2)
        for move in moves:  # every move leaves a valid grid that holds its word
            after = apply_move(cells, move)
            assert validate(Grid.from_cells(after), en).ok, move
        checked += 1


def test_reference_single_tile_convention(en):
    # An S at (0, 1) next to A and above O makes AS across and SO down: one placement,
    # listed once, as the across move.
    cells = Grid.parse("A.\n.O").cells()
    assert "as" in en and "so" in en
    moves = generate_moves_reference(cells, hand("S"), en)
    both = frozenset({((0, 1), "S")})
    assert [m for m in moves if placements([m], cells)[0] == both] == [(0, 0, "across", "AS")]
    # Only vertical neighbours: the placement is a down move.
    moves = generate_moves_reference(Grid.parse("CAT").cells(), hand("S"), en)
    assert (0, 1, "down", "AS") in moves and (1, 1, "across", "S") not in moves
    assert (0, 0, "across", "CATS") in moves
    assert generate_moves_reference({}, hand("CAT"), en) == set()
