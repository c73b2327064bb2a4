"""solver.coach.frames and frame pictures: every player's grid at each moment of a log."""

from __future__ import annotations

from solver.coach import frames
from solver.coach.logs import replay_tables
from solver.coach.replay import MAX_REPLAY_FRAMES, frame_svg, spaced
from solver.core.grid import validate


def test_every_replayed_grid_is_valid_and_holds_only_the_players_tiles(game_log, en):
    replayed = frames(game_log)
    assert replayed[-1].event == "grids"
    held_at = {}  # (t, player) -> the tiles the player held just after the frame's event
    for event, _, table in replay_tables(game_log, game_log.hands[0]):
        if event["event"] == "snapshot":
            held_at[(event["t"], event["player"])] = table.held[event["player"]]
    for frame in replayed:
        if frame.event != "snapshot":
            continue
        grid = frame.grids[frame.player]
        if game_log.bots[frame.player] != "reckless":  # it calls BANANAS on grids it did not check
            assert validate(grid, en).ok  # the other bots show valid grids as they build
        assert held_at[(frame.t, frame.player)].contains(grid.tiles())
    last = replayed[-1]
    winner = game_log.hands[0].end["winners"][0]
    assert validate(last.grids[winner], en, _final_tiles(game_log, winner)).ok  # the tile multiset, exactly


def _final_tiles(game_log, player):
    *_, (_, _, table) = replay_tables(game_log, game_log.hands[0])
    return table.held[player]


def test_frames_follow_the_clock_and_are_bounded(game_log):
    replayed = frames(game_log)
    times = [frame.t for frame in replayed]
    assert times == sorted(times)
    assert 2 < len(replayed) <= MAX_REPLAY_FRAMES * len(game_log.hands)


def test_spacing_keeps_the_first_and_the_last():
    items = list(range(1000))
    kept = spaced(items, 10)
    assert len(kept) == 10 and kept[0] == 0 and kept[-1] == 999


def test_a_frame_picture_shows_every_player(game_log):
    frame = frames(game_log)[-1]
    picture = frame_svg(frame, game_log.labels)
    assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
    assert all(label in picture for label in game_log.labels)
    assert picture.count('class="tile"') == sum(len(grid.cells()) for grid in frame.grids if grid is not None)
