"""Grid pictures: the SVG renderer (solver.core.svg), its PNG twin, and the --svg options of
`solve`, `check` and `play`."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from helpers import run_cli

from solver.core.grid import Grid, validate
from solver.core.svg import CELL, INVALID_COLOUR, grid_svg, layout

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises on malformed XML


def tiles_drawn(root: ET.Element) -> dict[tuple[int, int], str]:
    """(row, col) -> letter, read back from the picture's geometry."""
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "tile"]
    texts = list(root.iter(f"{SVG}text"))
    assert len(rects) == len(texts)
    cells = {}
    for rect, text in zip(rects, texts, strict=True):
        x, y, width = float(rect.get("x")), float(rect.get("y")), float(rect.get("width"))
        assert abs(float(text.get("x")) - (x + width / 2)) < 1e-6  # the letter sits on its tile
        cells[(round((y - 6) // CELL), round((x - 6) // CELL))] = text.text
    return cells


def outlines(root: ET.Element) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "invalid"]


def covers(rect: ET.Element, cells) -> bool:
    """The outline's box holds the centre of each of `cells` and of no neighbouring cell."""
    x, y = float(rect.get("x")), float(rect.get("y"))
    right, bottom = x + float(rect.get("width")), y + float(rect.get("height"))

    def inside(row: int, col: int) -> bool:
        return x < 6 + (col + 0.5) * CELL < right and y < 6 + (row + 0.5) * CELL < bottom

    around = {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))} - set(cells)
    return all(inside(*cell) for cell in cells) and not any(inside(*cell) for cell in around)


def test_every_tile_is_drawn_with_its_letter_at_its_cell():
    grid = Grid.parse(".M.\nCAT\n.P.\n")
    root = parse(grid_svg(grid))
    assert tiles_drawn(root) == grid.cells()
    assert float(root.get("width")) == pytest.approx(3 * CELL + 12) and root.find(f"{SVG}title") is not None
    assert not outlines(root)


def test_a_valid_checked_grid_has_no_red_outline(en):
    grid = Grid.parse(".M.\nCAT\n.P.\n")
    report = validate(grid, en)
    assert report.ok
    assert not outlines(parse(grid_svg(grid, report)))


def test_invalid_words_and_only_they_are_outlined_in_red(en):
    grid = Grid.parse("CATX\nA...\nQ...\n")  # CATX and CAQ are not words
    report = validate(grid, en)
    invalid = sorted(word.text for word in report.invalid_words)
    assert invalid == ["CAQ", "CATX"]
    root = parse(grid_svg(grid, report))
    marks = outlines(root)
    assert len(marks) == 2 and all(mark.get("stroke") == INVALID_COLOUR for mark in marks)
    for mark, word in zip(marks, report.invalid_words, strict=True):
        assert covers(mark, word.cells)
        assert word.text in mark.find(f"{SVG}title").text
    assert "not a word" in root.find(f"{SVG}title").text


def test_letters_are_escaped_and_the_title_is_ours():
    svg = grid_svg(Grid.parse("AB"), title="<hand & 1>")
    assert "&lt;hand &amp; 1&gt;" in svg
    parse(svg)


def test_cell_size_scales_the_picture():
    grid = Grid.parse("AB")
    small, large = layout(grid, cell=20), layout(grid, cell=80)
    assert large.width == pytest.approx(4 * small.width) and large.tiles[1].box.x == pytest.approx(
        4 * small.tiles[1].box.x
    )


def test_png_has_the_svg_size(tmp_path: Path, en):
    pytest.importorskip("matplotlib")
    from solver.play.plots import save_grid_png

    grid = Grid.parse("CATX\nA...\nT...\n")
    path = tmp_path / "grid.png"
    save_grid_png(grid, str(path), validate(grid, en))
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    picture = layout(grid)
    assert (width, height) == (round(picture.width), round(picture.height))


# -- the commands ---------------------------------------------------------------------


def test_solve_svg_draws_the_solved_grid(tmp_path: Path, en):
    path = tmp_path / "solved.svg"
    result = run_cli("solve", "AEEIRSTQUNLDOGCABHMPR", "--svg", str(path))
    assert result.exit_code == 0, result.output
    drawn = tiles_drawn(parse(path.read_text()))
    grid = Grid.from_cells(drawn)
    assert validate(grid, en, grid.tiles()).ok  # the independent validator on the picture's grid
    assert Counter(drawn.values()) == Counter("AEEIRSTQUNLDOGCABHMPR")
    assert grid.rows == Grid.parse(result.stdout).rows  # the same grid as printed


def test_solve_svg_png(tmp_path: Path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "solved.png"
    assert run_cli("solve", "CATMAP", "--svg", str(path)).exit_code == 0
    assert path.read_bytes().startswith(PNG_SIGNATURE)


def test_solve_without_a_grid_writes_nothing(tmp_path: Path):
    path = tmp_path / "none.svg"
    result = run_cli("solve", "Q", "--svg", str(path))
    assert result.exit_code == 1 and not path.exists() and "not written" in result.stderr


def test_check_svg_outlines_the_invalid_word(tmp_path: Path, grid_file):
    path = tmp_path / "check.svg"
    result = run_cli("check", grid_file("CATX\nA...\nT...\n"), "--svg", str(path))
    assert result.exit_code == 1
    marks = outlines(parse(path.read_text()))
    assert len(marks) == 1 and covers(marks[0], [(0, 0), (0, 1), (0, 2), (0, 3)])


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "-", "--svg", "OUT.svg"], "not with '-'"),
        (["solve", "CATMAP", "--svg", "NOFOLDER/out.svg"], "no folder"),
        (["check", "GRID", "--svg", "NOFOLDER/out.svg"], "no folder"),
    ],
)
def test_bad_picture_paths_are_one_error_line(tmp_path: Path, grid_file, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    args = [grid_file(".M.\nCAT\n.P.\n") if arg == "GRID" else arg for arg in args]
    result = run_cli(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr
    assert {p.name for p in tmp_path.iterdir()} <= {"grid.txt"}  # nothing written


def test_png_without_matplotlib_is_one_error_line(tmp_path: Path, grid_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    path = tmp_path / "check.png"
    result = run_cli("check", grid_file(".M.\nCAT\n.P.\n"), "--svg", str(path))
    assert result.exit_code == 2 and "bananas[plots]" in result.stderr and len(result.stderr.splitlines()) == 1
    assert not path.exists()


def test_play_svg_dir_draws_every_final_grid(tmp_path: Path, en):
    folder = tmp_path / "grids"
    result = run_cli(
        "play", "--players", "2", "--bots", "easy,easy:node_budget=20", "--seed", "4", "--svg-dir", str(folder)
    )
    assert result.exit_code == 0, result.output
    pictures = sorted(folder.iterdir())
    assert [p.name for p in pictures] == ["hand1-P1.svg", "hand1-P2.svg"]
    for picture in pictures:
        root = parse(picture.read_text())
        grid = Grid.from_cells(tiles_drawn(root))
        report = validate(grid, en)
        assert len(outlines(root)) == len(report.invalid_words)
    assert "wrote 2 grid pictures" in result.stderr


def test_play_svg_dir_that_is_a_file_is_refused(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run_cli("play", "--players", "2", "--bots", "easy", "--svg-dir", str(blocker))
    assert result.exit_code == 2 and "not a folder" in result.stderr and blocker.read_text() == "x"
