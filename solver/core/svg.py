"""Pictures of grids as SVG text (python-chess's `chess.svg` is the model: a function
returning a string, no browser or drawing library needed).

    from solver.core.svg import grid_svg
    Path("grid.svg").write_text(grid_svg(grid))                  # tiles with their letters
    Path("check.svg").write_text(grid_svg(grid, report=report))  # invalid words outlined in red

`layout` is the geometry (pixels, origin top left) shared by every renderer: this module
writes it as SVG, `solver.play.plots.save_grid_png` draws the same layout with matplotlib.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from solver.core.grid import Grid, Report, Word

CELL = 40  # pixels per cell
MARGIN = 6  # pixels around the grid, so outlines are not clipped
TILE_INSET = 1.5  # gap between neighbouring tiles
TILE_FILL = "#f6e7b8"
TILE_EDGE = "#a5843d"
LETTER_COLOUR = "#222222"
INVALID_COLOUR = "#d62728"
BACKGROUND = "#ffffff"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class Box:
    """A rectangle in pixels."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class TileMark:
    """One tile of a picture: its square (`box`, in SVG user units) and its letter."""

    box: Box
    letter: str


@dataclass(frozen=True)
class Layout:
    """Everything a renderer draws: canvas size, tiles, and red outlines (with their word)."""

    width: float
    height: float
    cell: float
    tiles: tuple[TileMark, ...]
    outlines: tuple[tuple[Box, str], ...]


def layout(grid: Grid, invalid_words: Iterable[Word] = (), cell: float = CELL) -> Layout:
    """The picture's geometry: one square per tile, one outline around each invalid word."""
    margin = MARGIN * cell / CELL
    inset = TILE_INSET * cell / CELL

    def cell_box(row: int, col: int, rows: int = 1, cols: int = 1, pad: float = 0.0) -> Box:
        return Box(margin + col * cell - pad, margin + row * cell - pad, cols * cell + 2 * pad, rows * cell + 2 * pad)

    tiles = tuple(
        TileMark(cell_box(row, col, pad=-inset), letter) for (row, col), letter in sorted(grid.cells().items())
    )
    outlines = []
    for word in invalid_words:
        (top, left), (bottom, right) = word.cells[0], word.cells[-1]
        outlines.append((cell_box(top, left, bottom - top + 1, right - left + 1, pad=inset), word.text))
    return Layout(grid.width * cell + 2 * margin, grid.height * cell + 2 * margin, cell, tiles, tuple(outlines))


def grid_svg(grid: Grid, report: Report | None = None, cell: float = CELL, title: str | None = None) -> str:
    """An SVG picture of `grid`: tiles as squares with their letters; with a checked
    `report`, each invalid word outlined in red. `cell` is the side of a cell in pixels."""
    picture = layout(grid, report.invalid_words if report else (), cell)
    number = f"{picture.width:g}", f"{picture.height:g}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{number[0]}" height="{number[1]}" '
        f'viewBox="0 0 {number[0]} {number[1]}">',
        f"<title>{escape(title if title is not None else picture_title(grid, report))}</title>",
        f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
        f'<g font-family={quoteattr(FONT)} font-weight="bold" font-size="{0.6 * cell:g}" '
        f'text-anchor="middle" fill="{LETTER_COLOUR}">',
    ]
    radius = 0.12 * cell
    for mark in picture.tiles:
        box = mark.box
        parts.append(
            f'<rect class="tile" x="{box.x:g}" y="{box.y:g}" width="{box.width:g}" height="{box.height:g}" '
            f'rx="{radius:g}" fill="{TILE_FILL}" stroke="{TILE_EDGE}" stroke-width="{0.04 * cell:g}"/>'
        )
        # The baseline 0.35 em below the centre puts a capital's middle there (dominant-baseline is
        # not honoured by every viewer).
        baseline = box.y + box.height / 2 + 0.35 * 0.6 * cell
        parts.append(f'<text x="{box.x + box.width / 2:g}" y="{baseline:g}">{escape(mark.letter)}</text>')
    parts.append("</g>")
    for box, word in picture.outlines:
        parts.append(
            f'<rect class="invalid" x="{box.x:g}" y="{box.y:g}" width="{box.width:g}" height="{box.height:g}" '
            f'rx="{radius:g}" fill="none" stroke="{INVALID_COLOUR}" stroke-width="{0.08 * cell:g}">'
            f"<title>not a word: {escape(word)}</title></rect>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def picture_title(grid: Grid, report: Report | None) -> str:
    """The picture's title (what a screen reader says): the grid's size, and its verdict when checked."""
    size = f"{len(grid.cells())}-tile grid, {grid.height}x{grid.width} cells"
    if report is None:
        return size
    return f"{size}: valid" if report.ok else f"{size}: {'; '.join(report.problems())}"
