"""Hints: the smallest move that lays at least one of a player's own tiles.

`hint(grid, hand, lexicon, rules, common=...)` looks for, in this order:

1. a move that lifts nothing: the whole hand laid on the grid as it is (the hook tier of
   `solver.search.board.Board`); else one tile that joins the grid and makes only words (the
   hardest letter that can); else a word laid from a few of the hand's tiles through a letter
   of the grid;
2. the first move of the rebuild that places the whole hand moving the fewest tiles.

Each is sought in the `common` lists first (words people know: en@35, then en@50), every move
that lifts nothing before any that lifts tiles, and only then in the whole list. Every search
is bounded by nodes (MAX_HINT_NODES a call), so a hint is the same on every machine. The move::

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.core.grid import Cell, Grid, Word, best_translation, find_words, validate
from solver.core.limits import MAX_HINT_NODES
from solver.core.tiles import HARD_FIRST, TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.play.rules import Rules

SAFETY_SECONDS = 10.0  # the searches' time limit: their node budgets decide long before
HINT_PATIENCE = 16 * MAX_HINT_NODES  # search nodes of a whole hint (every tier of the rebuild)
MAX_WORD_TRIES = 8  # word placements a still move tries when no tile hooks on alone
MAX_WORD_LENGTH = 8  # the longest of those words

if TYPE_CHECKING:
    from solver.search.board import Board


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
    common: Sequence[Lexicon] = (),
) -> Hint | None:
    """The smallest move that lays at least one tile of `hand` on `grid` (module docstring);
    None when the hand is empty or no move is found. Moves that lift nothing come first
    (`still_move`), then the rebuild's first move (`moving_move`); each is sought in the
    `common` lists (smallest first: words people know) before the whole `lexicon`, and every
    still move in the common lists before any moving one. The shortest word is `min_length`,
    else the rules', else 2; `time_limit` is only a safety net."""
    shortest = min_length if min_length is not None else (rules.min_length if rules is not None else 2)
    words = lexicon if isinstance(lexicon, Lexicon) else get_lexicon(lexicon or (rules.lexicon if rules else "en"))
    if not len(hand):
        return None
    search = HintSearch(words, hand, shortest, time_limit)
    cells = grid.cells() if grid is not None else {}
    old = Grid.from_cells(cells) if cells else None
    lists = [*common, words]
    if old is None:
        return next(filter(None, (search.first_grid(known) for known in lists)), None)
    top, left = min(row for row, _ in cells), min(col for _, col in cells)
    if not validate(old, words, min_length=shortest).ok:  # the grid must be mended first
        tries = [(search.mending_move, known) for known in lists]
    else:
        tries = [(search.still_move, known) for known in common] + [(search.moving_move, known) for known in common]
        tries += [(search.still_move, words), (search.moving_move, words)]
    for attempt, known in tries:
        found = attempt(old, known)
        if found is not None:
            return shifted(found, top, left)
    return None


class HintSearch:
    """The searches of one hint: the whole list, a hand, the shortest word, each search bounded by MAX_HINT_NODES
    (the whole rebuild by HINT_PATIENCE), so a hint is the same on every machine."""

    def __init__(self, whole: Lexicon, hand: TileCounts, min_length: int, time_limit: float):
        self.whole = whole  # the whole list: what is a word
        self.hand = hand
        self.min_length = min_length
        self.options: dict[str, Any] = {"seed": 0, "time_limit": time_limit, "node_budget": MAX_HINT_NODES}

    def board(self, lexicon: Lexicon, grid: Grid | None, hand: TileCounts, mend: bool = False) -> Board:
        from solver.search.board import Board

        if mend and grid is not None:
            board = Board.mended(lexicon, grid, hand, self.min_length, **self.options)
        else:
            board = Board(lexicon, grid, hand, self.min_length, **self.options)
        board.patience = HINT_PATIENCE  # the whole rebuild's nodes: bounded whatever the grid
        return board

    def first_grid(self, lexicon: Lexicon) -> Hint | None:
        """The longest word of the first grid the hand makes, when it makes one."""
        rebuilt = self.board(lexicon, None, self.hand).rebuild()
        return first_word(rebuilt.grid) if rebuilt.ok and rebuilt.grid is not None else None

    def still_move(self, old: Grid, lexicon: Lexicon) -> Hint | None:
        """A move that lifts nothing: a word of the whole hand laid on the grid as it is; else a
        hook, one tile (the hardest letter that has one); else the longest word that lays a few of
        the hand's tiles through a letter of the grid."""
        if not validate(old, lexicon, min_length=self.min_length).ok:  # a list without the grid's words
            return None
        rebuilt = self.board(lexicon, old, self.hand).rebuild(up_to="hook")
        if rebuilt.ok and rebuilt.grid is not None:
            return one_move(old, rebuilt.grid, lexicon, self.min_length)
        found = self.hook(old, lexicon)
        if found is not None:
            return found
        for tiles in self.word_tiles(old, lexicon)[:MAX_WORD_TRIES]:
            rebuilt = self.board(lexicon, old, tiles).rebuild(up_to="hook")
            if rebuilt.ok and rebuilt.grid is not None:
                return one_move(old, rebuilt.grid, lexicon, self.min_length)
        return None

    def hook(self, old: Grid, lexicon: Lexicon) -> Hint | None:
        """One tile of the hand that joins the grid and makes only words, the hardest letter first."""
        from solver.search.board import one_tile_hooks

        held = set(self.hand.letters())
        for letter in (letter for letter in HARD_FIRST if letter in held):
            hooks = one_tile_hooks(old, letter, lexicon, self.min_length)
            if hooks:
                spot = hooks[0][-1]
                return one_move(old, Grid.from_cells({**old.cells(), spot: letter}), lexicon, self.min_length)
        return None

    def word_tiles(self, old: Grid, lexicon: Lexicon) -> list[TileCounts]:
        """The hand's tiles of the words spelled from the hand and one letter of the grid, most
        tiles first (each set once)."""
        found: dict[str, TileCounts] = {}
        for letter in sorted(set(old.tiles().letters())):
            for word in lexicon.formable_words(self.hand + TileCounts.from_letters(letter), max_length=MAX_WORD_LENGTH):
                spelled = TileCounts.from_letters(word.upper())
                if spelled.contains(TileCounts.from_letters(letter)):
                    tiles = spelled - TileCounts.from_letters(letter)
                    if len(tiles) and self.hand.contains(tiles):
                        found.setdefault(tiles.letters(), tiles)
        return sorted(found.values(), key=lambda tiles: (-len(tiles), tiles.letters()))

    def moving_move(self, old: Grid, lexicon: Lexicon) -> Hint | None:
        """The first move of the rebuild that places the whole hand moving the fewest tiles, when
        `lexicon` holds every word of the grid."""
        if not validate(old, lexicon, min_length=self.min_length).ok:
            return None
        return self.rebuilt_move(old, lexicon, self.board(lexicon, old, self.hand))

    def mending_move(self, old: Grid, lexicon: Lexicon) -> Hint | None:
        """The first move of the rebuild of a grid that is not valid: its wrong tiles lifted first,
        when `lexicon` finds the same words wrong as the whole list does."""
        if {word.text for word in find_words(old) if word.text not in lexicon} != self.misspelled(old):
            return None
        return self.rebuilt_move(old, lexicon, self.board(lexicon, old, self.hand, mend=True))

    def misspelled(self, grid: Grid) -> set[str]:
        return {word.text for word in find_words(grid) if word.text not in self.whole}

    def rebuilt_move(self, old: Grid, lexicon: Lexicon, board: Board) -> Hint | None:
        rebuilt = board.rebuild()
        if not rebuilt.ok or rebuilt.grid is None:
            return None
        return one_move(old, rebuilt.grid, lexicon, self.min_length)


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
