"""Hints: one move on a player's own tiles, the first the live-play rebuild would make.

`hint(grid, hand, lexicon, rules)` asks `solver.search.board.Board` to place the whole hand
on the grid moving the fewest tiles (within MAX_HINT_NODES per search call: the same hint
on every machine), then shows one move of that rebuild::

    hook   nothing moves: one tile joins the grid (a hook, or a letter that lengthens a word)
    word   nothing moves: a word laid from the hand, through the grid's letters; of the new
           words, the one that lays the most tiles and is legal alone (the grid after it
           holds only words, in one piece)
    move   tiles must move: the ones to lift (a leaf word, a broken word of a grid still
           being built) and where the rebuild puts the tiles

With no grid yet, the hint is the rebuild's first grid's longest word. Coordinates are
relative to the top-left cell of the grid passed in (negative: above or left of it); with
no grid, to the hinted word's first letter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.core.grid import Cell, Grid, Word, best_translation, find_words, validate
from solver.core.limits import MAX_HINT_NODES
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.play.rules import Rules

SAFETY_SECONDS = 10.0  # the searches' time limit: their node budgets decide long before
HINT_PATIENCE = 16 * MAX_HINT_NODES  # search nodes of a whole hint (every tier of the rebuild)


__all__ = ["hint", "Hint", "place"]


@dataclass
class Hint:
    """One move (module docstring): `kind` hook | word | move, the `word` it makes, where that
    word starts (`row`, `col`) and its direction, the `cells` to lay (row, column, letter) and
    the cells to `lift` first; coordinates relative to the top-left tile of the grid given."""

    kind: str  # hook | word | move
    word: str  # the word the move makes (the longest, for a move)
    row: int  # where that word starts
    col: int
    across: bool
    cells: list[tuple[int, int, str]]  # tiles to lay: row, column, letter
    lift: list[Cell] = field(default_factory=list)  # tiles to pick up first

    @property
    def text(self) -> str:
        """The move in words, rows and columns counted from 1 ("Lay CAT across from row 2, column 3")."""
        where = f"{'across' if self.across else 'down'} from {place(self.row, self.col)}"
        if self.kind == "hook":
            row, col, letter = self.cells[0]
            return f"Put {letter} at {place(row, col)}: it makes {self.word}"
        if self.kind == "word":
            return f"Lay {self.word} {where}"
        lifted = f"{len(self.lift)} tile{'s' if len(self.lift) != 1 else ''}"
        return f"Lift {lifted}, then lay {len(self.cells)}: {self.word} {where}"

    def to_json(self) -> dict:
        """The hint as the engine protocol and the room send it (docs/PROTOCOL.md, `hint`)."""
        return {
            "kind": self.kind,
            "word": self.word,
            "row": self.row,
            "col": self.col,
            "across": self.across,
            "cells": [list(cell) for cell in self.cells],
            "lift": [list(cell) for cell in self.lift],
            "text": self.text,
        }


def place(row: int, col: int) -> str:
    """A cell in words, counted from the grid's top-left tile (row 1, column 1)."""
    rows = f"row {row + 1}" if row >= 0 else f"{-row} row{'s' if row < -1 else ''} above row 1"
    cols = f"column {col + 1}" if col >= 0 else f"{-col} column{'s' if col < -1 else ''} left of column 1"
    return f"{rows}, {cols}"


def hint(
    grid: Grid | None,
    hand: TileCounts,
    lexicon: Lexicon | str | None = None,
    rules: Rules | None = None,
    *,
    min_length: int | None = None,
    time_limit: float = SAFETY_SECONDS,
) -> Hint | None:
    """One move for a player with `grid` on the table and `hand` still to place (module
    docstring); None when the hand is empty or the rebuild finds no grid. The shortest word
    is `min_length`, else the rules', else 2; `time_limit` is only a safety net."""
    from solver.search.board import Board

    shortest = min_length if min_length is not None else (rules.min_length if rules is not None else 2)
    words = lexicon if isinstance(lexicon, Lexicon) else get_lexicon(lexicon or (rules.lexicon if rules else "en"))
    if not len(hand):
        return None
    options: dict[str, Any] = {"seed": 0, "time_limit": time_limit, "node_budget": MAX_HINT_NODES}
    cells = grid.cells() if grid is not None else {}
    old = Grid.from_cells(cells) if cells else None
    if old is None:
        board = Board(words, None, hand, shortest, **options)
    elif validate(old, words, min_length=shortest).ok:
        board = Board(words, old, hand, shortest, **options)
    else:
        board = Board.mended(words, old, hand, shortest, **options)
    board.patience = HINT_PATIENCE  # the whole rebuild's nodes: bounded whatever the grid
    rebuilt = board.rebuild()
    if not rebuilt.ok or rebuilt.grid is None:
        return None
    if old is None:
        return first_word(rebuilt.grid)
    top, left = min(row for row, _ in cells), min(col for _, col in cells)
    return shifted(one_move(old, rebuilt.grid, words, shortest), top, left)


def first_word(grid: Grid) -> Hint:
    """The longest word of a first grid, to lay first (its first letter at 0, 0)."""
    word = max(find_words(grid), key=lambda w: len(w.text), default=None)
    if word is None:  # a one-tile grid: no word, the tile alone
        (row, col), letter = next(iter(grid.cells().items()))
        return Hint("word", letter, 0, 0, True, [(0, 0, letter)])
    row, col = word.cells[0]
    laid = [(r - row, c - col, letter) for (r, c), letter in zip(word.cells, word.text)]
    return Hint("word", word.text, 0, 0, word.direction == "across", laid)


def one_move(old: Grid, new: Grid, lexicon: Lexicon, min_length: int) -> Hint:
    """One move from `old` towards `new`, in `old`'s coordinates."""
    (shift_rows, shift_cols), _ = best_translation(old, new)
    before = old.cells()
    after = {(row - shift_rows, col - shift_cols): letter for (row, col), letter in new.cells().items()}
    lift = sorted(cell for cell, letter in before.items() if after.get(cell) != letter)
    laid = {cell: letter for cell, letter in after.items() if before.get(cell) != letter}
    # find_words numbers cells from the new grid's own top-left: put them in old's frame.
    top, left = min(r for r, _ in after), min(c for _, c in after)
    shown = [shift_word(word, top, left) for word in find_words(Grid.from_cells(after))]
    placed = [word for word in shown if any(cell in laid for cell in word.cells)]
    placed.sort(key=lambda word: (-sum(cell in laid for cell in word.cells), word.cells))
    if lift:
        return make_hint("move", longest(placed), laid, lift)
    for word in placed:
        cells = {cell: laid[cell] for cell in word.cells if cell in laid}
        if validate(Grid.from_cells({**before, **cells}), lexicon, min_length=min_length).ok:
            return make_hint("hook" if len(cells) == 1 else "word", word, cells, [])
    return make_hint("word", longest(placed), laid, [])


def shift_word(word: Word, top: int, left: int) -> Word:
    return Word(word.text, word.direction, tuple((row + top, col + left) for row, col in word.cells))


def longest(words: list[Word]) -> Word:
    return max(words, key=lambda word: len(word.text))


def make_hint(kind: str, word: Word, laid: dict[Cell, str], lift: list[Cell]) -> Hint:
    row, col = word.cells[0]
    cells = [(r, c, letter) for (r, c), letter in sorted(laid.items())]
    return Hint(kind, word.text, row, col, word.direction == "across", cells, lift)


def shifted(move: Hint, top: int, left: int) -> Hint:
    """`move` in the frame of a grid whose first tile row and column are `top`, `left`."""
    return Hint(
        move.kind,
        move.word,
        move.row + top,
        move.col + left,
        move.across,
        [(row + top, col + left, letter) for row, col, letter in move.cells],
        [(row + top, col + left) for row, col in move.lift],
    )
