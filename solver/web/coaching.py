"""The coach (solver.coach) as the rooms use it: a hand's review and a person's hint, in the
shapes the page takes. Both are heavy (searches): a table calls them off the event loop.

The coach works on grids cropped to their tiles; a page places tiles in its own coordinates,
so a hint's cells are moved by the page grid's top-left corner here, and the page lays them
where they show.
"""

from __future__ import annotations

import io

import solver.coach as coach
from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon, with_offensive
from solver.play.rules import Rules

Cell = tuple[int, int]


def review_of(log_text: str, lexicon: Lexicon | None = None, common: Lexicon | None = None) -> dict | None:
    """The review of a room log's one hand (`bananas-review/1`'s hand entry), or None when it
    has no hand; its best grids in `common` words first (`common_words`)."""
    game = coach.read_log(io.BytesIO(log_text.encode("utf-8")))
    hands = coach.review(game, lexicon=lexicon, common=common).to_json()["hands"]
    return hands[-1] if hands else None


COMMON_WORDS_LEVEL = 50  # SCOWL sizes up to 50: the words people know (the bots' vocabulary levels)


def common_words(language: str, offensive: bool = False) -> Lexicon | None:
    """The common-words list a hint tries first (English only: the French list has no levels);
    with `offensive`, its slurs and profanity too."""
    return get_lexicon(with_offensive("en", offensive), COMMON_WORDS_LEVEL) if language == "en" else None


def hint_for(
    cells: dict[Cell, str], rack: TileCounts, lexicon: Lexicon, rules: Rules, common: Lexicon | None = None
) -> dict | None:
    """A hint for a page's grid (`cells`, its coordinates) and the rack beside it, in the page's
    coordinates; None when nothing fits. With `common` (a list inside `lexicon`) the hint is
    sought among words people know first, then among all of `lexicon`'s: a hint of LOOIE or
    KAAMA teaches nothing."""
    grid = Grid.from_cells(cells) if cells else None
    found = coach.hint(grid, rack, common, rules) if common is not None else None
    if found is None:
        found = coach.hint(grid, rack, lexicon, rules)
    if found is None:
        return None
    data = found.to_json()
    top = min((row for row, _ in cells), default=0)
    left = min((col for _, col in cells), default=0)
    data["row"] += top
    data["col"] += left
    data["cells"] = [[row + top, col + left, letter] for row, col, letter in data["cells"]]
    data["lift"] = [[row + top, col + left] for row, col in data.get("lift", [])]
    return data
