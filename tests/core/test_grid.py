"""Grid notation (text and JSON) and the pure-Python validator."""

from __future__ import annotations

import json

import pytest

from solver.core.grid import (
    Grid,
    GridError,
    Word,
    connected_components,
    find_words,
    validate,
)
from solver.core.tiles import TileCounts

pytestmark = pytest.mark.nojit

CAT_AAP = "CAT\n.A.\n.P."  # the layout in grid.py's docstring: reads AAP down
CAT_MAP = ".M.\nCAT\n.P."  # the rules' demonstration: MAP down through the A of CAT


# -- notation -------------------------------------------------------------------------------


def test_parse_and_format():
    grid = Grid.parse(CAT_AAP)
    assert grid.rows == ("CAT", ".A.", ".P.")
    assert (grid.height, grid.width) == (3, 3)
    assert grid.text() == CAT_AAP and str(grid) == CAT_AAP
    assert grid.cells() == {(0, 0): "C", (0, 1): "A", (0, 2): "T", (1, 1): "A", (2, 1): "P"}
    assert grid.tiles() == TileCounts.from_letters("CATAP") and grid.tile_count == 5


def test_parse_comments_blank_lines_and_case():
    text = "\n# CAT crossing MAP\n\n  cat  \n.a.\n# between rows\n.P.\n\n"
    assert Grid.parse(text) == Grid.parse(CAT_AAP)


def test_json_roundtrip():
    grid = Grid.parse(CAT_AAP)
    encoded = json.dumps(grid.to_json())
    assert json.loads(encoded) == ["CAT", ".A.", ".P."]
    assert Grid.from_json(encoded) == grid
    assert Grid.from_json(json.dumps({"grid": grid.to_json(), "other": 1})) == grid
    assert Grid.parse(Grid.from_json(encoded).text()) == grid


def test_cells_and_array_roundtrip():
    grid = Grid.parse(".....\n" + CAT_AAP.replace("\n", "..\n") + "..")
    assert grid.rows[0] == "....." and grid.cells()[(1, 0)] == "C"
    assert Grid.from_cells(grid.cells()) == Grid.parse(CAT_AAP)
    assert grid.trimmed() == Grid.parse(CAT_AAP)
    array = Grid.parse(CAT_AAP).to_array(pad=2)
    assert array.shape == (7, 7) and array[2, 2] == 3 and array[0].sum() == 0
    assert Grid.from_array(array) == Grid.parse(CAT_AAP)


@pytest.mark.parametrize(
    "text, message",
    [
        ("CAT\n.A\n.P.", "ragged grid: row 2 has 2 cells, row 1 has 3"),
        ("CAT\n.1.", "row 2 has characters other than A-Z"),
        ("CAT\n.É.", "row 2 has characters other than A-Z"),
        ("C T", "row 1 has characters other than A-Z"),
        ("", "empty grid"),
        ("# only a comment", "empty grid"),
        ("CAT\n\n.A.", "row 2 is empty"),
    ],
)
def test_bad_notation(text, message):
    with pytest.raises(GridError, match=message):
        Grid.parse(text)


@pytest.mark.parametrize("text", ["{not json", "42", '["CAT", 3]', '{"rows": ["CAT"]}', '["CAT", ".A"]', "[]"])
def test_bad_json(text):
    with pytest.raises(GridError):
        Grid.from_json(text)


def test_from_cells_empty():
    with pytest.raises(GridError, match="no tiles"):
        Grid.from_cells({})


# -- validator ------------------------------------------------------------------------------


def test_cat_map_rows_from_the_brief_read_aap(en):
    # Rows CAT / .A. / .P. put a second A under CAT's A: the down run is AAP, not MAP.
    report = validate(Grid.parse(CAT_AAP), en, tiles=TileCounts.from_letters("ACAPT"))
    assert [(w.text, w.direction) for w in report.invalid_words] == [("AAP", "down")]
    assert report.problems() == ["not a word: AAP (down at row 1, column 2)"]
    assert report.faults() == [{"code": "not_a_word", "word": "AAP", "direction": "down", "row": 1, "col": 2}]


def test_every_fault_by_code_reads_as_its_problem_line(en):
    """`faults` (for a page's own words) and `problems` (English lines) say the same things."""
    report = validate(Grid.parse("CAT\n...\nQX."), en, tiles=TileCounts.from_letters("ACTQZ"))
    codes = [fault["code"] for fault in report.faults()]
    assert codes == ["not_a_word", "not_connected", "missing", "extra"]
    assert report.faults()[1]["sizes"] == [3, 2] and report.faults()[2]["letters"] == "Z"
    assert len(report.problems()) == len(report.faults()) == 4


def test_cat_map_words():
    # find_words needs no lexicon: the runs themselves.
    words = find_words(Grid.parse(CAT_MAP))
    assert words == [
        Word("CAT", "across", ((1, 0), (1, 1), (1, 2))),
        Word("MAP", "down", ((0, 1), (1, 1), (2, 1))),
    ]


def test_rules_example_cat_map(en):
    # The rules' CAT/MAP crossing: MAP reads down through the A of CAT.
    grid = Grid.parse(CAT_MAP)
    report = validate(grid, en, tiles=TileCounts.from_letters("MCATP"))
    assert report.ok, report.problems()
    assert sorted(w.text for w in report.words) == ["CAT", "MAP"]
    assert report.to_json()["valid"] is True and report.problems() == []


def test_accidental_adjacency(en):
    # CAT over DOG: the parallel words form CD, AO and TG down, none of them words.
    assert not any(word in en for word in ("cd", "ao", "tg"))
    grid = Grid.parse("CAT\nDOG")
    report = validate(grid, en)
    assert not report.ok
    assert sorted(w.text for w in report.words) == ["AO", "CAT", "CD", "DOG", "TG"]
    assert {(w.text, w.direction, w.cells) for w in report.invalid_words} == {
        ("CD", "down", ((0, 0), (1, 0))),
        ("AO", "down", ((0, 1), (1, 1))),
        ("TG", "down", ((0, 2), (1, 2))),
    }
    assert "not a word: CD (down at row 1, column 1)" in report.problems()
    data = report.to_json()
    assert {"word": "TG", "direction": "down", "cells": [[0, 2], [1, 2]]} in data["invalid_words"]
    assert data["valid"] is False


def test_accidental_runs_that_are_words_are_fine(en):
    # AB / BA: AB and BA across and down, all four runs words.
    assert "ab" in en and "ba" in en
    report = validate(Grid.parse("AB\nBA"), en)
    assert report.ok and len(report.words) == 4


def test_accidental_across_run(en):
    # Two down words side by side: QI next to AT makes QA and IT across; QA is no word.
    report = validate(Grid.parse("QA\nIT"), en)
    assert "qa" not in en and "it" in en
    assert [(w.text, w.direction, w.cells) for w in report.invalid_words] == [("QA", "across", ((0, 0), (0, 1)))]


def test_disconnected(en):
    grid = Grid.parse("CAT..\n.....\n..DOG")
    report = validate(grid, en, tiles=TileCounts.from_letters("CATDOG"))
    assert not report.invalid_words
    assert not report.ok
    assert report.components == [[(0, 0), (0, 1), (0, 2)], [(2, 2), (2, 3), (2, 4)]]
    assert "grid is not connected: 2 parts of 3, 3 tiles" in report.problems()
    assert report.to_json()["components"] == 2
    # Diagonal contact does not connect.
    assert len(connected_components(Grid.parse("AT.\n..A\n..T").cells())) == 2


def test_wrong_multiset(en):
    grid = Grid.parse(CAT_MAP)
    report = validate(grid, en, tiles=TileCounts.from_letters("CATPSS"))
    assert not report.ok
    assert report.missing == TileCounts.from_letters("SS")
    assert report.extra == TileCounts.from_letters("M")
    assert not report.invalid_words and len(report.components) == 1
    problems = report.problems()
    assert "tiles not on the grid: SS" in problems
    assert "tiles on the grid that are not in the hand: M" in problems
    assert report.to_json()["missing"] == "SS" and report.to_json()["extra"] == "M"
    # Without tiles, the multiset is not checked.
    assert validate(grid, en).ok


def test_min_length_three_flags_two_letter_words(en):
    grid = Grid.parse("QI\n.T")  # QI across, IT down
    assert validate(grid, en).ok
    report = validate(grid, en, min_length=3)
    assert not report.ok
    assert {w.text for w in report.invalid_words} == {"QI", "IT"}
    assert validate(Grid.parse(CAT_MAP), en, min_length=3).ok


def test_single_tile(en):
    report = validate(Grid.parse("A"), en, tiles=TileCounts.from_letters("A"))
    assert report.words == [] and report.invalid_words == []
    assert len(report.components) == 1
    assert report.ok


def test_empty_grid_is_reported(en):
    report = validate(Grid.parse("..\n.."), en)
    assert report.empty and not report.ok
    assert "the grid has no tiles" in report.problems()


def test_not_a_word_case_and_position(en):
    report = validate(Grid.parse("..\n.X\n.Q"), en)
    assert [(w.text, w.direction, w.cells) for w in report.invalid_words] == [("XQ", "down", ((1, 1), (2, 1)))]
    assert report.problems() == ["not a word: XQ (down at row 2, column 2)"]
