"""A bot's work laid out word by word (solver.play.layout, `Hand.building_grid`): what a room
shows while the referee charges that work. Every prefix shown is one connected piece of the
grid that lands (checked by the project's validator), each of its runs lies inside a word of
that grid (a whole word each time a word is done), it grows with the time charged, and the
landed grid itself shows only when the work lands. The grids are the bots' own, as they built them in played hands."""

from __future__ import annotations

import pytest

from solver.core.grid import Grid, best_translation, connected_components, find_words, validate
from solver.lexicon.loader import get_lexicon
from solver.play.bots import make_bot
from solver.play.hand import Hand, play_hand
from solver.play.layout import build_frames, grid_while_building, tile_order, word_order
from solver.play.rules import Rules

CROSSING = Grid.from_rows(["CAT..", "..OAR", "..E.."])  # CAT, OAR, TOE: OAR is laid onto TOE


@pytest.fixture(scope="module")
def landings() -> list[tuple[Grid | None, Grid]]:
    """Each bot's grid before and after each of its works landed, in hands of three kinds of bot."""
    pairs = []
    for bots, seed in ((("greedy", "easy"), 4), (("medium", "hard:speed=2"), 9)):
        result = play_hand(Rules.for_language("en"), [make_bot(spec) for spec in bots], seed, snapshots=True)
        last: dict[int, Grid | None] = {}
        for event in result.events:
            if event["event"] == "snapshot":
                grid = Grid.from_rows(event["grid"])
                pairs.append((last.get(event["player"]), grid))
                last[event["player"]] = grid
    assert len(pairs) > 10 and any(before is None for before, _ in pairs)
    return pairs


def embeds(part: Grid, whole: Grid) -> bool:
    """Whether every tile of `part` is on `whole`, same letter, under one shift."""
    return best_translation(part, whole)[1] == part.tile_count


def runs_inside_words(part: Grid, whole: Grid) -> bool:
    """Whether each run of 2+ letters of `part` lies inside a word of `whole` (same direction)."""
    (rows, cols), _ = best_translation(part, whole)
    words = [(word.direction, set(word.cells)) for word in find_words(whole)]
    for run in find_words(part):
        cells = {(row + rows, col + cols) for row, col in run.cells}
        if not any(direction == run.direction and cells <= word for direction, word in words):
            return False
    return True


def test_each_prefix_of_the_word_order_is_connected_and_a_part_of_the_grid(landings):
    en = get_lexicon("en")
    whole_words = 0
    for _, grid in landings:
        cells = grid.cells()
        order = word_order(grid)
        laid: dict = {}
        for word in order:
            laid.update({cell: cells[cell] for cell in word.cells})
            prefix = Grid.from_cells(laid)
            report = validate(prefix, en)
            assert len(report.components) == 1, (grid, prefix)  # one piece
            assert runs_inside_words(prefix, grid), (grid, prefix)
            whole_words += report.ok
        assert laid == cells  # every tile, in the end
    assert whole_words > 0.9 * sum(len(word_order(grid)) for _, grid in landings)  # almost always whole words


def test_each_tile_laid_keeps_one_piece_whose_runs_lie_inside_words(landings):
    for _, grid in landings[::3]:
        cells = grid.cells()
        order = tile_order(grid)
        assert sorted(order) == sorted(cells)
        for count in range(2, len(order) + 1):
            prefix = Grid.from_cells({cell: cells[cell] for cell in order[:count]})
            assert len(connected_components(prefix.cells())) == 1 and runs_inside_words(prefix, grid)


def test_the_frames_start_from_what_stays_and_end_with_the_landed_grid(landings):
    for before, after in landings:
        kept, frames = build_frames(before, after)
        assert frames[-1] == after
        counts = [frame.tile_count for frame in frames]
        assert counts == list(range(kept + 1, after.tile_count + 1))  # a tile more each time
        for frame in frames:
            assert embeds(frame, after) and len(validate(frame, get_lexicon("en")).components) == 1
        assert kept <= (before.tile_count if before else 0)


def test_the_shown_grid_grows_with_the_time_and_is_never_the_landed_grid_before_it_lands(landings):
    for before, after in landings:
        shown = [grid_while_building(before, after, step / 20) for step in range(21)]
        assert shown[0] == before  # nothing laid yet
        kept, frames = build_frames(before, after)
        if len(frames) > 1:
            assert shown[-1] == frames[-2]  # all but the last word, just before it lands
        assert after not in shown[:-1] or after == before
        laid = [grid for grid in shown if grid is not None and grid is not before]
        assert all(embeds(grid, after) for grid in laid)
        assert [grid.tile_count for grid in laid] == sorted(grid.tile_count for grid in laid)


def test_a_word_goes_down_crossing_the_words_laid():
    # OAR laid before TOE would show TO, not a word: TOE goes down first.
    assert [word.text for word in word_order(CROSSING)] == ["CAT", "TOE", "OAR"]
    kept, frames = build_frames(Grid.from_rows(["CAT"]), CROSSING)
    assert kept == 3 and frames[1] == Grid.from_rows(["CAT", "..O", "..E"])  # TOE on CAT, then OAR
    assert frames[2] == Grid.from_rows(["CAT.", "..OA", "..E."])
    assert grid_while_building(Grid.from_rows(["CAT"]), CROSSING, 0.6) == Grid.from_rows(["CAT", "..O", "..E"])


def test_a_hand_shows_each_bots_work_growing_and_lands_it_unchanged():
    """Stepping a hand: at any moment of a work under way the shown grid is a connected part
    of the grid that will land, with fewer tiles, laid out once per work; the hand itself
    plays as without it."""
    rules, seed, bots = Rules.for_language("en"), 9, ("easy", "medium")
    hand = Hand(rules, [make_bot(spec) for spec in bots], seed)
    hand.start()
    growing = 0
    while not hand.over and hand.queue:
        hand.next_event()
        for index, seat in enumerate(hand.seats):
            if not (seat.working and seat.active):
                continue
            begun, lands = seat.work_span
            landed = seat.bot.current_grid()
            assert landed is not None and lands >= begun
            sizes = []
            for step in range(1, 10):
                shown = hand.building_grid(index, begun + (lands - begun) * step / 10)
                fraction = step / 10 if lands > begun else 0.0
                assert shown == grid_while_building(seat.before, landed, fraction)  # as laid out afresh
                assert shown is None or shown == seat.before or embeds(shown, landed)
                assert shown is None or shown == seat.before or shown.tile_count < landed.tile_count
                sizes.append(shown.tile_count if shown is not None else 0)
            growing += len(set(sizes)) > 1
            laid_out = seat.laid_out  # one work is laid out once, however often a room shows it
            hand.building_grid(index, begun)
            assert laid_out is not None and seat.laid_out is laid_out
            assert hand.table_grid(index) == seat.before  # the table's own view: the landed work
    again = play_hand(rules, [make_bot(spec) for spec in bots], seed)
    ending = hand.public_view().ending
    assert ending is not None and hand.events == again.events
    assert [list(grid) if grid is not None else None for grid in ending.grids] == again.grids
    assert growing > 0
