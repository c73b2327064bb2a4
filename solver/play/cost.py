"""The referee's clock: what each decision of a player costs in simulated seconds.

The referee measures the work (`Hand.charge`), so no bot can lay tiles for free::

    tile work   from the grid each player shows, before and after the decision, aligned
                under the translation that keeps the most tiles in place (`best_translation`,
                as `solver.search.board` counts moved tiles): tiles laid from the hand, grid tiles
                moved to another cell, grid tiles lifted back into the hand, and the new
                words (words through a tile laid or moved); plus tiles drawn from or
                returned to the bunch since the last decision (PEEL and DUMP draws, the
                dumped tile)
    looks       the one thing only the bot knows: how many positions (a grid and a hand)
                it examined for words to play; one look = one node of a depth-first
                search, where the player lists the words that could go down and tries
                them. The solver's search node and the greedy baseline's scan of the grid
                are both one look. A bot that reports fewer looks than it made only saves
                LOOK_SECONDS per look: every tile and word it lays is charged anyway.

Cost model. One simulated second stands for one second of a practised player at the
kitchen table, with the tiles in front of them::

    REACT_SECONDS             1.0  looking at the tiles before acting (the keystroke-level
                                   model's mental preparation operator is 1.35 s)
    + TILE_SECONDS * tiles    1.0  each tile picked up and set down: laid, moved, lifted,
                                   drawn or returned (the keystroke-level model's hand
                                   movement to a target is 1.1 s, 0.8-1.5 s by Fitts' law)
    + WORD_SECONDS * words    3.0  spotting each new word on the grid (timed anagram tasks
                                   give 10 s for a five-letter anagram and most solutions
                                   come in a few seconds; a Bananagrams word may be any
                                   word the tiles allow, and hooks onto letters in place)
    + LOOK_SECONDS * looks    1.0  examining one position for what could go down (a glance
                                   that may find nothing: shorter than a word's spotting)
    + CALL_SECONDS            0.5  saying PEEL / DUMP / BANANAS (not for a player who waits)
    then / speed, and x (1 + JITTER * u), u uniform in [0, 1) from the hand's seed, so that
    equal bots do not finish to the microsecond (exact ties are shared wins under the rules)

These land where games at a table do (`benchmarks/results/*-strength.md` measures it): the
first 21-tile grid of the `medium` preset takes tens of seconds (21 tiles, a handful of
words and looks), a PEEL answered by a one-tile hook about eight seconds, and a 2-player
classic game several minutes (about fifty PEELs); sellers of the game quote about 15
minutes a game for casual players, who are slower than this model's practised player.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.core.grid import Grid, best_translation, find_words
from solver.play.rules import Decision

REACT_SECONDS = 1.0  # the cost model (module docstring), in simulated seconds
TILE_SECONDS = 1.0
WORD_SECONDS = 3.0
LOOK_SECONDS = 1.0
CALL_SECONDS = 0.5
JITTER = 0.05  # each action's time is scaled by 1 + JITTER * U(0, 1), from the hand's seed


@dataclass(frozen=True)
class TileWork:
    """The tile work the referee sees between two decisions of a player."""

    laid: int = 0  # tiles from the hand now on the grid
    moved: int = 0  # grid tiles now in another cell (under the best translation)
    lifted: int = 0  # grid tiles taken back into the hand
    drawn: int = 0  # tiles taken from the bunch (PEEL and DUMP draws) since the last decision
    returned: int = 0  # tiles put back into the bunch (a DUMP) since the last decision
    words: int = 0  # words of the new grid through a tile laid or moved

    @property
    def tiles(self) -> int:
        """Tiles handled: picked up and set down once each."""
        return self.laid + self.moved + self.lifted + self.drawn + self.returned


@dataclass(frozen=True)
class Charge:
    """One decision as the referee charged it (`Hand.ledger`, `HandResult.ledger`)."""

    player: int
    at: float  # simulated time the decision began
    action: str
    looks: int  # as the bot reported them (negative reports count as 0)
    work: TileWork
    seconds: float  # the time charged: `work_seconds`, then jitter


def measure_work(before: Grid | None, after: Grid | None, drawn: int = 0, returned: int = 0) -> TileWork:
    """The tile work that turns grid `before` into grid `after` (module docstring).

    Tiles are told apart only by letter, so the referee charges the cheapest explanation:
    an old tile gone from its cell and a new tile of the same letter elsewhere is one tile
    moved, not one lifted and one laid. The new words are the words of `after` through a
    tile laid or moved (a word the player had to make); a word left standing is not new."""
    (shift_rows, shift_cols), _ = best_translation(before, after)
    new_cells = after.cells() if after is not None else {}
    old_cells = {
        (row + shift_rows, col + shift_cols): letter
        for (row, col), letter in (before.cells() if before is not None else {}).items()
    }
    kept = {cell for cell, letter in old_cells.items() if new_cells.get(cell) == letter}
    gone = Counter(letter for cell, letter in old_cells.items() if cell not in kept)
    placed = Counter(letter for cell, letter in new_cells.items() if cell not in kept)
    moved = sum((gone & placed).values())
    words = 0 if after is None else sum(any(cell not in kept for cell in word.cells) for word in find_words(after))
    return TileWork(
        laid=sum(placed.values()) - moved,
        moved=moved,
        lifted=sum(gone.values()) - moved,
        drawn=drawn,
        returned=returned,
        words=words,
    )


def work_seconds(decision: Decision, speed: float, work: TileWork = TileWork()) -> float:
    """The cost model (module docstring), before jitter: the bot's looks and the tile work
    the referee measured, divided by the bot's speed."""
    seconds = (
        REACT_SECONDS
        + LOOK_SECONDS * max(0, int(decision.looks))
        + TILE_SECONDS * work.tiles
        + WORD_SECONDS * work.words
    )
    if decision.action != "wait":
        seconds += CALL_SECONDS
    return seconds / speed
