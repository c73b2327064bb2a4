"""The coach (solver.coach) as the rooms use it: a hand's review and a person's hint, in the
shapes the page takes. Both are heavy (searches): a table calls them off the event loop.

A review costs seconds of searching, so it is worked out only when a page asks for it
(`HandReviewer`, once per hand), on REVIEWS: one thread per process, so ended hands queue for
it instead of taking the threads the tables' engine steps run on, and at most one review at a
time competes with the event loop.

The coach works on grids cropped to their tiles; a page places tiles in its own coordinates,
so a hint's cells are moved by the page grid's top-left corner here, and the page lays them
where they show.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import solver.coach as coach
from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon, with_offensive
from solver.play.rules import Rules

Cell = tuple[int, int]

log = logging.getLogger(__name__)
REVIEWS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")


def review_of(log_text: str, lexicon: Lexicon | None = None, common: Sequence[Lexicon] = ()) -> dict | None:
    """The review of a room log's one hand (`bananas-review/1`'s hand entry), or None when it
    has no hand; its best grids in the largest of the `common` lists first (`common_words`)."""
    game = coach.read_log(io.BytesIO(log_text.encode("utf-8")))
    hands = coach.review(game, lexicon=lexicon, common=common[-1] if common else None).to_json()["hands"]
    return hands[-1] if hands else None


class HandReviewer:
    """An ended hand's `review` message, worked out on REVIEWS the first time it is asked for;
    every later or concurrent ask gets the same message. A review that fails is sent as null
    (the end screen goes on without it)."""

    def __init__(self, hand: int, log_text: str, lexicon: Lexicon | None, common: Sequence[Lexicon] = ()):
        self.hand, self.log_text, self.lexicon, self.common = hand, log_text, lexicon, tuple(common)
        self.worked_out: dict | None = None
        self.task: asyncio.Future[dict] | None = None

    async def message(self) -> dict:
        if self.worked_out is not None:
            return self.worked_out
        if self.task is None:
            self.task = asyncio.ensure_future(self.work_out())
        return await asyncio.shield(self.task)

    async def work_out(self) -> dict:
        loop = asyncio.get_running_loop()
        try:
            review = await loop.run_in_executor(REVIEWS, review_of, self.log_text, self.lexicon, self.common)
        except Exception:  # noqa: BLE001 - the end screen goes on without it
            log.exception("the review of hand %s", self.hand)
            review = None
        self.worked_out = {"type": "review", "hand": self.hand, "review": review}
        return self.worked_out


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
