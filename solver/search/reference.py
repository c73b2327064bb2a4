"""Slow, plain-Python reference implementations: the oracles the kernels are tested against.

Nothing here imports `solver.search.kernels` or walks the DAWG arrays directly; the code favours
being obviously right over being fast, and is meant for small positions only.

`generate_moves_reference`
    Every legal move from a position, by brute force over (line, start, length) segments.
    A move is reported as (row, col, direction, word), with the kernel's convention for a
    single new tile (see the function). `placements` turns moves into the direction-free
    form tests compare: the frozenset of ((row, col), LETTER) of the tiles a move adds.

`exhaustive_grid_exists`
    A complete search for a grid that uses exactly a (tiny) hand: the oracle for the
    solver's `no-grid` claims.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from solver.core.grid import Cell, Grid, validate
from solver.core.tiles import TileCounts

ACROSS, DOWN = "across", "down"
_STEPS = {ACROSS: (0, 1), DOWN: (1, 0)}

Move = tuple[int, int, str, str]  # (row, col, direction, WORD): the word's first cell
Placement = frozenset  # of ((row, col), LETTER): the tiles a move adds to the grid


# -- move generation ----------------------------------------------------------------------


def _perpendicular_run(cells: dict[Cell, str], cell: Cell, letter: str, direction: str) -> str:
    """The run through `cell` (holding `letter`) perpendicular to `direction`."""
    dr, dc = _STEPS[DOWN if direction == ACROSS else ACROSS]
    row, col = cell
    before = ""
    r, c = row - dr, col - dc
    while (r, c) in cells:
        before = cells[(r, c)] + before
        r, c = r - dr, c - dc
    after = ""
    r, c = row + dr, col + dc
    while (r, c) in cells:
        after += cells[(r, c)]
        r, c = r + dr, c + dc
    return before + letter + after


def _has_neighbour(cells: dict[Cell, str], cell: Cell) -> bool:
    row, col = cell
    return any(n in cells for n in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)))


def generate_moves_reference(grid_cells: dict[Cell, str], hand: TileCounts, lexicon, min_length: int = 2) -> set[Move]:
    """Every legal move from the position `grid_cells` ({(row, col): letter}) with `hand`.

    A move writes a word of `lexicon` along one row (across) or column (down), starting at
    (row, col), such that:
      * each cell of the word holds either the existing tile (same letter) or a new tile
        from the hand, and at least one new tile is placed;
      * the cells just before the first letter and just after the last one are empty, so
        the word is the whole maximal run on its line;
      * the word touches the grid: it runs through an existing tile, or one of its new
        tiles is orthogonally adjacent to an existing tile;
      * every perpendicular run of 2+ letters through a new tile is a word of the lexicon
        with at least `min_length` letters, and the word itself has >= `min_length` letters.

    Convention (the kernel's): a move that adds exactly ONE tile is a placement that could
    be read along either line. It is listed once: as an across move when the tile has a
    horizontal neighbour, otherwise as a down move. `placements()` gives the
    direction-free form.

    An empty grid has no moves here (nothing to touch); the kernel's first-word moves are
    a separate generator.
    """
    letters = {cell: letter.upper() for cell, letter in grid_cells.items()}
    if not letters:
        return set()
    hand_counts = Counter(hand.letters())
    hand_size = len(hand)
    rows = [r for r, _ in letters]
    cols = [c for _, c in letters]
    moves: set[Move] = set()
    for direction in (ACROSS, DOWN):
        dr, dc = _STEPS[direction]
        if direction == ACROSS:
            line_range = range(min(rows) - 1, max(rows) + 2)
            pos_lo, pos_hi = min(cols), max(cols)
        else:
            line_range = range(min(cols) - 1, max(cols) + 2)
            pos_lo, pos_hi = min(rows), max(rows)

        def at(line: int, pos: int, direction: str = direction) -> Cell:
            return (line, pos) if direction == ACROSS else (pos, line)

        for line in line_range:
            line_tiles = TileCounts.from_letters(
                "".join(letters[at(line, p)] for p in range(pos_lo, pos_hi + 1) if at(line, p) in letters)
            )
            # Every candidate word is spelled from the hand plus tiles of this line.
            by_length: dict[int, list[str]] = {}
            for word in lexicon.formable_words(hand + line_tiles, min_length=min_length):
                by_length.setdefault(len(word), [])
                by_length[len(word)].append(word.upper())
            blobs = {length: "\n".join(words) for length, words in by_length.items()}
            # Outside the bounding box every cell is empty, and a word has at most
            # `hand_size` new tiles, so it cannot reach further than that beyond the box.
            lo, hi = pos_lo - hand_size, pos_hi + hand_size
            for start in range(lo, hi + 1):
                if at(line, start - 1) in letters:
                    continue
                for length in range(max(min_length, 1), hi - start + 2):
                    end = start + length - 1
                    if at(line, end + 1) in letters or length not in blobs:
                        continue
                    segment = [at(line, p) for p in range(start, end + 1)]
                    empties = [cell for cell in segment if cell not in letters]
                    if not empties or len(empties) > hand_size:
                        continue
                    touches = len(empties) < len(segment) or any(_has_neighbour(letters, c) for c in empties)
                    if not touches:
                        continue
                    pattern = "".join(letters.get(cell, ".") for cell in segment)
                    for match in re.finditer(f"^{pattern}$", blobs[length], re.MULTILINE):
                        word = match.group(0)
                        new = [(cell, word[i]) for i, cell in enumerate(segment) if cell not in letters]
                        if Counter(letter for _, letter in new) - hand_counts:
                            continue  # needs tiles the hand does not hold
                        legal = True
                        for cell, letter in new:
                            cross = _perpendicular_run(letters, cell, letter, direction)
                            if len(cross) >= 2 and (len(cross) < min_length or not lexicon.lays(cross)):
                                legal = False
                                break
                        if not legal:
                            continue
                        if direction == DOWN and len(new) == 1:
                            (row, col), _ = new[0]
                            if (row, col - 1) in letters or (row, col + 1) in letters:
                                continue  # listed as the across move of the same placement
                        moves.add((segment[0][0], segment[0][1], direction, word))
    return moves


def placements(moves: Iterable[Move], grid_cells: dict[Cell, str]) -> list[Placement]:
    """The tiles each move adds: frozenset of ((row, col), LETTER), one per move, in order."""
    result = []
    for row, col, direction, word in moves:
        dr, dc = _STEPS[direction]
        cells = ((row + i * dr, col + i * dc) for i in range(len(word)))
        result.append(frozenset((cell, word[i].upper()) for i, cell in enumerate(cells) if cell not in grid_cells))
    return result


def apply_move(grid_cells: dict[Cell, str], move: Move) -> dict[Cell, str]:
    """The cells after `move` (a new dict; existing tiles must match the word)."""
    row, col, direction, word = move
    dr, dc = _STEPS[direction]
    cells = dict(grid_cells)
    for i, letter in enumerate(word.upper()):
        cell = (row + i * dr, col + i * dc)
        if cells.get(cell, letter) != letter:
            raise ValueError(f"move {move} conflicts with tile {cells[cell]} at {cell}")
        cells[cell] = letter
    return cells


# -- exhaustive existence search ------------------------------------------------------------


def connected_shapes(size: int) -> list[frozenset[Cell]]:
    """Every 4-connected set of `size` cells (fixed polyominoes), normalised so the smallest
    row and column are 0. Built by growing sets one orthogonally adjacent cell at a time,
    which reaches every connected set (remove a non-cut cell, e.g. a leaf of a spanning
    tree, and what is left is connected)."""
    if size < 1:
        return []

    def normalise(shape: Iterable[Cell]) -> frozenset[Cell]:
        shape = list(shape)
        top = min(r for r, _ in shape)
        left = min(c for _, c in shape)
        return frozenset((r - top, c - left) for r, c in shape)

    level = {frozenset({(0, 0)})}
    for _ in range(size - 1):
        grown = set()
        for shape in level:
            for row, col in shape:
                for cell in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                    if cell not in shape:
                        grown.add(normalise(shape | {cell}))
        level = grown
    return sorted(level, key=sorted)


def _runs(shape: frozenset[Cell]) -> list[tuple[Cell, ...]]:
    """The maximal runs of 2+ cells of a shape, both directions."""
    runs = []
    for dr, dc in ((0, 1), (1, 0)):
        for row, col in sorted(shape):
            if (row - dr, col - dc) in shape:
                continue
            run = [(row, col)]
            while (run[-1][0] + dr, run[-1][1] + dc) in shape:
                run.append((run[-1][0] + dr, run[-1][1] + dc))
            if len(run) >= 2:
                runs.append(tuple(run))
    return runs


class _Words:
    """The lexicon's words up to a length (read from its trie, upper case), and the set of
    (prefix, length of the word it starts) pairs for prefix pruning."""

    def __init__(self, lexicon, max_length: int):
        self.words: set[str] = set()
        self.prefixes: set[tuple[str, int]] = set()
        for word in lexicon.trie.keys():
            if len(word) <= max_length:
                word = word.upper()
                self.words.add(word)
                for i in range(1, len(word) + 1):
                    self.prefixes.add((word[:i], len(word)))


_WORD_CACHE: dict[tuple[int, int], tuple[object, _Words]] = {}


def _words_for(lexicon, max_length: int) -> _Words:
    key = (id(lexicon), max_length)
    cached = _WORD_CACHE.get(key)
    if cached is None or cached[0] is not lexicon:
        cached = (lexicon, _Words(lexicon, max_length))
        _WORD_CACHE[key] = cached
    return cached[1]


def exhaustive_grid_exists(hand: TileCounts, lexicon, min_length: int = 2) -> Grid | None:
    """A grid using exactly the tiles of `hand`, or None when there is none (tiny hands).

    Complete: every connected shape of len(hand) cells is enumerated (`connected_shapes`),
    then every distinct assignment of the hand's letters to its cells, cell by cell in
    row-major order. The only pruning is sound because the shape is fixed: the maximal
    runs of the final grid are exactly the shape's runs, so when the letters assigned so
    far along a run (a prefix of it, given the fill order) are not a prefix of any word of
    the run's length, or a finished run is not a word of >= `min_length` letters, no
    completion is valid. A shape and its transpose are equivalent (transposing swaps
    across and down but every run reads the same), so only one of each pair is searched.
    Every grid returned has passed `solver.core.grid.validate` with exactly these tiles.

    Like `solver.search.solve`, a grid must hold at least one word: a hand of fewer than
    two tiles (or fewer than `min_length`) has none. Cost grows fast: meant for <= 6 tiles.
    """
    size = len(hand)
    if size < 2 or size < min_length:
        return None
    words = _words_for(lexicon, size)
    for shape in connected_shapes(size):
        transposed = frozenset((c, r) for r, c in shape)
        if sorted(transposed) < sorted(shape):
            continue  # its transpose is searched instead
        runs = _runs(shape)
        if any(len(run) < min_length for run in runs):
            continue
        order = sorted(shape)
        runs_at: dict[Cell, list[tuple[tuple[Cell, ...], int]]] = {cell: [] for cell in order}
        for run in runs:
            for index, cell in enumerate(run):
                runs_at[cell].append((run, index))
        found = _assign(order, runs_at, Counter(hand.letters()), {}, words)
        if found is not None:
            grid = Grid.from_cells(found)
            report = validate(grid, lexicon, tiles=hand, min_length=min_length)
            if not report.ok:  # cannot happen unless the pruning is wrong
                raise AssertionError(f"exhaustive search produced an invalid grid:\n{grid}\n{report.problems()}")
            return grid
    return None


def _assign(order: list[Cell], runs_at, remaining: Counter, assigned: dict[Cell, str], words: _Words):
    """Depth-first letter assignment in `order`; the first complete valid assignment or None."""
    depth = len(assigned)
    if depth == len(order):
        return dict(assigned)
    cell = order[depth]
    for letter in sorted(remaining):
        if not remaining[letter]:
            continue
        assigned[cell] = letter
        ok = True
        for run, index in runs_at[cell]:
            # Row-major order fills each run from its first cell: run[:index + 1] is assigned.
            prefix = "".join(assigned[c] for c in run[: index + 1])
            if index == len(run) - 1:
                ok = prefix in words.words
            else:
                ok = (prefix, len(run)) in words.prefixes
            if not ok:
                break
        if ok:
            remaining[letter] -= 1
            found = _assign(order, runs_at, remaining, assigned, words)
            remaining[letter] += 1
            if found is not None:
                return found
        del assigned[cell]
    return None
