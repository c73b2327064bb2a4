"""The coach (solver.coach) as the rooms use it: a hand's review and a person's hint, in the
shapes the page takes. Both are heavy (searches): a table calls them off the event loop.

The coach works on grids cropped to their tiles; a page places tiles in its own coordinates,
so a hint's cells are moved by the page grid's top-left corner here, and the page lays them
where they show.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import solver.coach as coach
from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon, with_offensive
from solver.play.rules import Rules

Cell = tuple[int, int]


def review_of(log_text: str, lexicon: Lexicon | None = None, common: Sequence[Lexicon] = ()) -> dict | None:
    """The review of a room log's one hand (`bananas-review/1`'s hand entry), or None when it
    has no hand; its best grids in the largest of the `common` lists first (`common_words`)."""
    game = coach.read_log(io.BytesIO(log_text.encode("utf-8")))
    hands = coach.review(game, lexicon=lexicon, common=common[-1] if common else None).to_json()["hands"]
    return hands[-1] if hands else None


def replay_frames(log_text: str) -> list[dict]:
    """A room log's replay for the page: each moment's time and every player's grid then (rows,
    or None before their first), as the table showed them (`solver.coach.frames`), from the
    deal (no grid yet) on."""
    game = coach.read_log(io.BytesIO(log_text.encode("utf-8")))
    deal = {"t": 0.0, "grids": [None] * game.players}
    return [deal] + [
        {"t": frame.t, "grids": [grid.to_json() if grid is not None else None for grid in frame.grids]}
        for frame in coach.frames(game)
    ]


COMMON_WORDS_LEVELS = (35, 50)  # SCOWL sizes: the words most people know, then common ones (the bots' levels)


def common_words(language: str, offensive: bool = False) -> tuple[Lexicon, ...]:
    """The common-word lists a hint tries first, smallest first (English only: the French list
    has no levels); with `offensive`, their slurs and profanity too."""
    if language != "en":
        return ()
    return tuple(get_lexicon(with_offensive("en", offensive), level) for level in COMMON_WORDS_LEVELS)


def hint_for(
    cells: dict[Cell, str], rack: TileCounts, lexicon: Lexicon, rules: Rules, common: Sequence[Lexicon] = ()
) -> dict | None:
    """A hint for a page's grid (`cells`, its coordinates) and the rack beside it, in the page's
    coordinates; None when nothing fits. The `common` lists (inside `lexicon`, smallest first)
    are searched before all of `lexicon` (`solver.coach.hint`): a hint of LOOIE or KAAMA
    teaches nothing."""
    grid = Grid.from_cells(cells) if cells else None
    found = coach.hint(grid, rack, lexicon, rules, common=common)
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
