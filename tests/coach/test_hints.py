"""solver.coach.hint: one legal move on the player's own tiles, the rebuild's first."""

from __future__ import annotations

import pytest

from solver.coach import hint
from solver.core.grid import Grid, connected_components, find_words, validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.play.rules import Rules

CROSS = [".M.", "CAT", ".P."]  # CAT across, MAP down


def applied(grid: Grid | None, move) -> dict:
    """The grid's cells after the move: its lifted tiles picked up, its tiles laid."""
    cells = grid.cells() if grid is not None else {}
    for row, col in move.lift:
        assert (row, col) in cells, "a lift names a tile of the grid"
        del cells[(row, col)]
    for row, col, letter in move.cells:
        assert (row, col) not in cells, "a tile is laid on an empty cell"
        cells[(row, col)] = letter
    return cells


def assert_legal(grid: Grid | None, hand: str, move, en) -> Grid:
    """Every run of the grid after the move is a word, the grid is in one piece, and the move
    lays only tiles from the hand and the tiles it lifted."""
    lifted = "".join(grid.cells()[cell] for cell in move.lift) if grid is not None else ""
    laid = TileCounts.from_letters("".join(letter for *_, letter in move.cells))
    assert (TileCounts.from_letters(hand) + TileCounts.from_letters(lifted)).contains(laid)
    after = Grid.from_cells(applied(grid, move))
    assert all(word.text in en for word in find_words(after)), after
    assert len(connected_components(after.cells())) == 1
    assert move.word in {word.text for word in find_words(after)} or len(move.cells) == 1
    return after


def test_a_hook_lays_one_tile_and_moves_nothing(en):
    grid = Grid.from_rows(CROSS)
    move = hint(grid, TileCounts.from_letters("S"), en)
    assert move.kind == "hook" and len(move.cells) == 1 and not move.lift
    after = assert_legal(grid, "S", move, en)
    assert validate(after, en, grid.tiles() + TileCounts.from_letters("S")).ok  # complete: the hand is placed


def test_a_word_from_the_hand_moves_nothing(en):
    grid = Grid.from_rows(CROSS)
    move = hint(grid, TileCounts.from_letters("DOGE"), en)
    assert move.kind in ("word", "hook") and not move.lift
    assert_legal(grid, "DOGE", move, en)


def test_coordinates_are_relative_to_the_grid_passed_in(en):
    padded = Grid.from_rows(["....", "..M.", ".CAT", "..P."])  # the cross, one row and column in
    plain = hint(Grid.from_rows(CROSS), TileCounts.from_letters("S"), en)
    move = hint(padded, TileCounts.from_letters("S"), en)
    assert [(r - 1, c - 1, letter) for r, c, letter in move.cells] == [tuple(cell) for cell in plain.cells]
    assert_legal(padded, "S", move, en)


def test_a_first_hint_lays_the_longest_word_of_a_first_grid(en):
    move = hint(None, TileCounts.from_letters("QUEENSBAT"), en)
    assert move.kind == "word" and move.cells[0][:2] == (0, 0)
    assert move.word in en and len(move.word) == len(move.cells)
    assert_legal(None, "QUEENSBAT", move, en)


def test_a_broken_grid_gets_a_move_that_lifts_tiles(en):
    grid = Grid.from_rows(["CAXT"])  # not a word: the X must move
    move = hint(grid, TileCounts.from_letters("S"), en)
    assert move.kind == "move" and move.lift
    after = assert_legal(grid, "S", move, en)
    assert validate(after, en, TileCounts.from_letters("CAXTS")).ok


def test_the_three_letter_minimum_is_kept(en):
    rules = Rules.for_language("en", min_length=3)
    grid = Grid.from_rows(["CAT"])
    move = hint(grid, TileCounts.from_letters("S"), en, rules)
    after = assert_legal(grid, "S", move, en)
    assert all(len(word.text) >= 3 for word in find_words(after))


@pytest.mark.parametrize("hand", ["", "QQQQ"])
def test_no_hint_for_an_empty_hand_or_tiles_that_fit_nowhere(hand, en):
    assert hint(Grid.from_rows(CROSS), TileCounts.from_letters(hand), en) is None


def test_a_hint_is_the_same_every_time_and_says_what_to_do(en):
    grid, hand = Grid.from_rows(CROSS), TileCounts.from_letters("ROSE")
    first, again = hint(grid, hand, en), hint(grid, hand, en)
    assert first.to_json() == again.to_json()
    data = first.to_json()
    assert set(data) == {"kind", "word", "row", "col", "across", "cells", "lift", "text"}
    assert data["text"].startswith(("Put", "Lay", "Lift"))


def test_a_hook_that_moves_nothing_comes_before_any_rebuild(en):
    """FORGIVE with RQQQ in hand: the hand cannot all go on, not even by moving tiles, but the R
    hooks on alone (FORGIVER, OR), so the hint lifts nothing."""
    grid, hand = Grid.from_rows(["FORGIVE"]), "RQQQ"
    move = hint(grid, TileCounts.from_letters(hand), en)
    assert move.kind == "hook" and not move.lift and len(move.cells) == 1
    after = assert_legal(grid, hand, move, en)
    assert validate(after, en).ok


def test_without_a_hook_a_few_tiles_go_on_through_a_letter_of_the_grid(en):
    """CAT with QQRPH in hand: the hand cannot all go on without moving tiles; the hint lays a
    few of them and lifts nothing."""
    grid = Grid.from_rows(["CAT"])
    move = hint(grid, TileCounts.from_letters("QQRPH"), en, common=(get_lexicon("en@35"),))
    assert move is not None and not move.lift
    assert_legal(grid, "QQRPH", move, en)


def test_hints_are_sought_in_the_common_lists_first(en):
    common = (get_lexicon("en@35"), get_lexicon("en@50"))
    first = hint(None, TileCounts.from_letters("JINRIKISHA"), en, common=common)
    assert first.word.lower() in common[0].trie and first.word != "JINRIKISHA"
    assert_legal(None, "JINRIKISHA", first, en)
    grid = Grid.from_rows(CROSS)
    for hand in ("S", "DOGE", "ROSE"):
        move = hint(grid, TileCounts.from_letters(hand), en, common=common)
        after = assert_legal(grid, hand, move, en)
        assert all(word.text.lower() in common[1].trie for word in find_words(after)), after


def test_hints_draw_from_the_audited_common_lists(en):
    """A rack that spells a word SCOWL counts common but few people know (lexicons/en.obscure.txt):
    the hint, sought in en@35 then en@50 as a room seeks it, lays common words, not that word."""
    from solver.lexicon.files import SHIPPED_DIR

    obscure = set((SHIPPED_DIR / "en.obscure.txt").read_text().split())
    common = (get_lexicon("en@35"), get_lexicon("en@50"))
    assert not any(word in lexicon.trie for lexicon in common for word in obscure)  # the lists a hint tries first
    for hand in ("OAKUM", "AMORTIZING", "JINRIKISHA"):
        assert hand.lower() in obscure and hand in en
        move = hint(None, TileCounts.from_letters(hand), en, common=common)
        after = assert_legal(None, hand, move, en)
        laid = {word.text.lower() for word in find_words(after)}
        assert laid and not laid & obscure and all(word in common[1].trie for word in laid), laid
