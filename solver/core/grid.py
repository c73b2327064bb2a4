"""Grids: the text notation, its JSON form, and the independent pure-Python validator.

Notation: one line per row, a letter per cell, `.` for an empty cell; lines starting
with `#` are comments; blank lines around the grid are ignored. Rows must all have the
same length (pad with `.`). Letters may be given in either case and are stored upper.

    # MAP (down) crossing CAT (across)
    .M.
    CAT
    .P.

JSON form: the list of row strings, e.g. [".M.", "CAT", ".P."].

The validator (`validate`) is deliberately simple and shares no code with the solver's
kernels: it is the oracle that every solver result is checked against in tests.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from solver.core.limits import MAX_GAME_TILES
from solver.core.tiles import ALPHABET, TileCounts, TileError, fold, fold_cell, shown_characters

EMPTY = "."
GRID_ROW = re.compile(r"[A-Z.]+")  # a row of the notation, once upper-cased
MIN_WORD_LENGTHS = (2, 3)  # the shortest words a game may allow: 2 (classic) or 3 (the three-letter variant)
Cell = tuple[int, int]  # (row, col)


class GridError(ValueError):
    """Malformed grid notation."""


def check_tile_room(grid: Grid, added: int, most: int = MAX_GAME_TILES) -> None:
    """TileError unless `grid` and `added` more tiles (a PEEL's, a hand) hold at most `most`, a
    double set: the one check of the command line's `peel` and `dump` and of the solve API's."""
    if grid.tile_count + added > most:
        raise TileError(f"the grid and the new tiles hold more than {most} tiles")


def _non_ascii_row(row: str, number: int, accents: bool) -> str:
    """A row holding non-ASCII characters: with `accents`, each accented letter folded to its
    tile (`fold_cell`, the hands' folding: É is E); GridError naming a character that is no one
    tile, or any non-ASCII one without `accents`. ('ı'.upper() is 'I', but 'ı' is no tile: only
    what folds to A-Z is.)"""
    if not accents:
        bad = sorted({char for char in row if not char.isascii()})
        raise GridError(f"row {number} has characters other than A-Z and '.': {shown_characters(bad)}")
    cells = []
    for column, char in enumerate(unicodedata.normalize("NFC", row), start=1):
        if char.isascii():
            cells.append(char)
            continue
        tile = fold_cell(char)
        if tile is None:
            spelled = fold(char).upper()
            if len(spelled) > 1 and spelled.isascii() and spelled.isalpha():
                raise GridError(
                    f"row {number}, column {column}: {shown_characters(char)} is {len(spelled)} tiles, "
                    f"{spelled}: one letter a cell"
                )
            raise GridError(f"row {number} has characters other than A-Z and '.': {shown_characters(char)}")
        cells.append(tile)
    return "".join(cells)


@dataclass(frozen=True)
class Grid:
    """A rectangle of cells: rows of upper-case letters and '.'."""

    rows: tuple[str, ...]

    # -- construction -------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, accents: bool = False) -> Grid:
        """A grid from its text notation: rows of A-Z and '.', blank lines around and '#' comment lines (a
        `bananas solve` summary) left out; lower case is read as upper (`accents`: see `from_rows`).
        GridError if the rows are empty, ragged or hold other characters.
        """
        rows = [line.strip() for line in text.splitlines()]
        rows = [row for row in rows if not row.startswith("#")]
        while rows and not rows[0]:
            rows.pop(0)
        while rows and not rows[-1]:
            rows.pop()
        return cls.from_rows(rows, accents)

    @classmethod
    def from_rows(cls, rows: Iterable[str], accents: bool = False) -> Grid:
        """A grid from row strings (A-Z and '.', any case). With `accents`, an accented letter is its
        tile, as in a typed hand (CAFÉ is CAFE: the grids people type, at the command line and on
        the solve API); without, the strict reading of the engine protocol and of logs. GridError if
        there are no rows, a row is empty, the rows differ in length or hold other characters (each
        named: `shown_characters`).
        """
        rows = [str(row) for row in rows]
        rows = [(row if row.isascii() else _non_ascii_row(row, n, accents)).upper() for n, row in enumerate(rows, 1)]
        if not rows:
            raise GridError("empty grid: no rows")
        width = len(rows[0])
        for number, row in enumerate(rows, start=1):
            if not row:
                raise GridError(f"row {number} is empty (use '.' for empty cells)")
            if len(row) != width:
                raise GridError(f"ragged grid: row {number} has {len(row)} cells, row 1 has {width}")
            if not GRID_ROW.fullmatch(row):  # (one pass in C: every grid a room or a log reads comes here)
                bad = sorted({ch for ch in row if ch != EMPTY and ch not in ALPHABET})
                raise GridError(f"row {number} has characters other than A-Z and '.': {shown_characters(bad)}")
        return cls(tuple(rows))

    @classmethod
    def from_json(cls, text: str, accents: bool = False) -> Grid:
        """A grid from JSON text: a list of row strings, or an object with a `grid` list (a `bananas solve
        --json` result). GridError if the JSON is bad or not of that shape, or the rows are (as
        `from_rows`).
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GridError(f"bad JSON grid: {error}") from None
        if isinstance(data, dict) and "grid" in data:
            data = data["grid"]
        if not isinstance(data, list) or not all(isinstance(row, str) for row in data):
            raise GridError("a JSON grid is a list of row strings")
        return cls.from_rows(data, accents)

    @classmethod
    def from_cells(cls, cells: dict[Cell, str]) -> Grid:
        """The smallest grid holding `cells` ({(row, col): letter})."""
        if not cells:
            raise GridError("empty grid: no tiles")
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        height = max(r for r, _ in cells) - top + 1
        width = max(c for _, c in cells) - left + 1
        table = [[EMPTY] * width for _ in range(height)]
        for (row, col), letter in cells.items():
            table[row - top][col - left] = letter.upper()
        return cls.from_rows("".join(row) for row in table)

    @classmethod
    def from_array(cls, codes: np.ndarray) -> Grid:
        """From a 2-D array of letter codes (0 empty, 1..26 = A..Z), trimmed to its tiles."""
        rows_idx, cols_idx = np.nonzero(codes)
        return cls.from_cells({(int(r), int(c)): ALPHABET[int(codes[r, c]) - 1] for r, c in zip(rows_idx, cols_idx)})

    # -- views --------------------------------------------------------------------
    @property
    def height(self) -> int:
        """The number of rows (an int, at least 1)."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """The number of columns (an int, at least 1)."""
        return len(self.rows[0])

    def cells(self) -> dict[Cell, str]:
        """The tiles as {(row, col): letter}, 0-based from the top left; empty cells left out."""
        return {(r, c): ch for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch != EMPTY}

    @property
    def tile_count(self) -> int:
        """How many tiles the grid holds: `len(self.tiles())`, without building the multiset."""
        return sum(len(row) - row.count(EMPTY) for row in self.rows)

    def tiles(self) -> TileCounts:
        """The multiset of the letters on the grid (a TileCounts)."""
        return TileCounts.from_letters("".join(self.rows).replace(EMPTY, ""))

    def to_array(self, pad: int = 0) -> np.ndarray:
        """Letter codes (0 empty) with `pad` empty cells around."""
        codes = np.zeros((self.height + 2 * pad, self.width + 2 * pad), dtype=np.uint8)
        for (row, col), letter in self.cells().items():
            codes[row + pad, col + pad] = ord(letter) - 64
        return codes

    def trimmed(self) -> Grid:
        """The same tiles in the smallest grid that holds them (empty border rows and columns removed)."""
        return Grid.from_cells(self.cells())

    def text(self) -> str:
        """The notation: the rows joined by newlines (no trailing newline)."""
        return "\n".join(self.rows)

    def to_json(self) -> list[str]:
        """The rows, as a list of strings (the form of the JSON outputs and the engine protocol)."""
        return list(self.rows)

    def __str__(self) -> str:
        return self.text()


# -- the validator ------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    """A maximal run of 2+ letters: its text, direction ('across'/'down') and cells."""

    text: str
    direction: str
    cells: tuple[Cell, ...]


@dataclass
class Report:
    """Everything wrong with a grid (empty lists when it is valid)."""

    words: list[Word] = field(default_factory=list)
    invalid_words: list[Word] = field(default_factory=list)
    components: list[list[Cell]] = field(default_factory=list)
    missing: TileCounts = field(default_factory=TileCounts)  # in the tiles, not on the grid
    extra: TileCounts = field(default_factory=TileCounts)  # on the grid, not in the tiles
    empty: bool = False

    @property
    def ok(self) -> bool:
        """True when nothing is wrong: every word valid, one connected part, no missing or extra tile, not empty."""
        return not (
            self.invalid_words or len(self.components) > 1 or len(self.missing) or len(self.extra) or self.empty
        )

    def faults(self) -> list[dict]:
        """One dict per problem, by code, for a reader that words them itself (the page, in its
        language): {"code": "empty"}, {"code": "not_a_word", "word", "direction", "row", "col"}
        (row and col counted from 1), {"code": "not_connected", "sizes"}, {"code": "missing" or
        "extra", "letters"}."""
        faults: list[dict] = [{"code": "empty"}] if self.empty else []
        for word in self.invalid_words:
            row, col = word.cells[0]
            place = {"direction": word.direction, "row": row + 1, "col": col + 1}
            faults.append({"code": "not_a_word", "word": word.text, **place})
        if len(self.components) > 1:
            faults.append({"code": "not_connected", "sizes": [len(part) for part in self.components]})
        for code, tiles in (("missing", self.missing), ("extra", self.extra)):
            if len(tiles):
                faults.append({"code": code, "letters": tiles.letters()})
        return faults

    def problems(self) -> list[str]:
        """One human-readable line per problem (English; `faults` are the same by code)."""
        return [fault_text(fault) for fault in self.faults()]

    def to_json(self) -> dict:
        """The report as the JSON of `bananas check --json` and the protocol's `check` reply: valid, words,
        invalid_words (word, direction, cells), components, missing, extra, problems.
        """
        return {
            "valid": self.ok,
            "words": [w.text for w in self.words],
            "invalid_words": [
                {"word": w.text, "direction": w.direction, "cells": [list(c) for c in w.cells]}
                for w in self.invalid_words
            ],
            "components": len(self.components),
            "component_cells": [[list(c) for c in part] for part in self.components]
            if len(self.components) > 1
            else [],
            "missing": self.missing.letters(),
            "extra": self.extra.letters(),
            "problems": self.problems(),
        }


def fault_text(fault: dict) -> str:
    """A `Report.faults` entry as its English line."""
    code = fault["code"]
    if code == "empty":
        return "the grid has no tiles"
    if code == "not_a_word":
        return f"not a word: {fault['word']} ({fault['direction']} at row {fault['row']}, column {fault['col']})"
    if code == "not_connected":
        sizes = fault["sizes"]
        return f"grid is not connected: {len(sizes)} parts of {', '.join(map(str, sizes))} tiles"
    if code == "missing":
        return f"tiles not on the grid: {fault['letters']}"
    return f"tiles on the grid that are not in the hand: {fault['letters']}"


def find_words(grid: Grid) -> list[Word]:
    """Every maximal horizontal and vertical run of 2+ letters: across first, each direction in
    the order of its first cell (row, then column)."""
    across, down = _word_runs(grid)
    return [Word(text, "across", tuple(zip(repeat(row), range(col, col + len(text))))) for row, col, text in across] + [
        Word(text, "down", tuple(zip(range(row, row + len(text)), repeat(col)))) for row, col, text in down
    ]


def word_texts(grid: Grid) -> list[str]:
    """The texts of `find_words(grid)`, in its order, without their cells (a solve's words)."""
    across, down = _word_runs(grid)
    return [text for _, _, text in across] + [text for _, _, text in down]


def _word_runs(grid: Grid) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """(row, col, text) of the across runs in order, and of the down runs in the order of their
    first cell."""
    columns = ["".join(column) for column in zip(*grid.rows, strict=True)]
    return list(_runs(grid.rows)), sorted((row, col, text) for col, row, text in _runs(columns))


def _runs(lines: Iterable[str]) -> Iterator[tuple[int, int, str]]:
    """(line, offset, text) of each run of 2+ letters in `lines`, in order: the rows split at
    the empty cells (the string methods do in C what a walk over the cells did in Python)."""
    for number, line in enumerate(lines):
        offset = 0
        for text in line.split(EMPTY):
            if len(text) >= 2:
                yield number, offset, text
            offset += len(text) + 1


def connected_components(cells: Iterable[Cell]) -> list[list[Cell]]:
    """4-connected parts, largest first."""
    unvisited = set(cells)
    parts = []
    while unvisited:
        frontier = [unvisited.pop()]
        part = []
        while frontier:
            row, col = frontier.pop()
            part.append((row, col))
            for neighbour in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if neighbour in unvisited:
                    unvisited.remove(neighbour)
                    frontier.append(neighbour)
        parts.append(sorted(part))
    parts.sort(key=lambda part: (-len(part), part))
    return parts


def validate(grid: Grid, lexicon, tiles: TileCounts | None = None, min_length: int = 2) -> Report:
    """Check a grid against the rules.

    Every maximal run of 2+ letters must be a word of the lexicon (`word in lexicon`)
    with at least `min_length` letters; all tiles must form one 4-connected group; and,
    when `tiles` is given, the grid must use exactly that multiset.

    `lexicon` is anything with `__contains__` for upper-case words (a Lexicon, a set). Never
    raises on a bad grid: the Report lists every problem (`ok`, `problems()`).

    >>> from solver import Grid, TileCounts, get_lexicon, validate
    >>> validate(Grid.from_rows([".M.", "CAT", ".P."]), get_lexicon("en"), TileCounts.from_letters("CATMP")).ok
    True
    >>> validate(Grid.from_rows(["CAT", "..Q"]), get_lexicon("en")).problems()
    ['not a word: TQ (down at row 1, column 3)']
    """
    cells = grid.cells()
    report = Report(empty=not cells)
    report.words = find_words(grid)
    report.invalid_words = [w for w in report.words if len(w.text) < min_length or w.text not in lexicon]
    report.components = connected_components(cells)
    if tiles is not None:
        placed = Counter(cells.values())
        wanted = Counter(tiles.letters())
        report.missing = TileCounts.from_letters("".join((wanted - placed).elements()))
        report.extra = TileCounts.from_letters("".join((placed - wanted).elements()))
    return report


def best_translation(old: Grid | None, new: Grid | None) -> tuple[Cell, int]:
    """The shift (rows, cols) that puts the most of `old`'s tiles on the same letter in
    `new`, and how many it keeps (a grid has no fixed origin on the table). Exact ties go
    to the smallest shift, so the measure is a pure function of the two grids."""
    if old is None or new is None:
        return (0, 0), 0
    by_letter: dict[str, list[Cell]] = {}
    for cell, letter in new.cells().items():
        by_letter.setdefault(letter, []).append(cell)
    offsets: Counter = Counter()
    for (row, col), letter in old.cells().items():
        for new_row, new_col in by_letter.get(letter, ()):
            offsets[(new_row - row, new_col - col)] += 1
    if not offsets:
        return (0, 0), 0
    return max(sorted(offsets.items()), key=lambda item: item[1])
