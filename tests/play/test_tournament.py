"""Tournaments (seat rotation, determinism across worker counts, outputs) and the `play`
and `tournament` commands."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
from collections import Counter

import pytest
from click.testing import CliRunner
from helpers import per_game

from solver.cli.play import play
from solver.cli.play_logs import draw_grids
from solver.cli.tournaments import tournament
from solver.play.rules import Rules
from solver.play.schedule import entry_names, schedule
from solver.play.tournament import CSV_FIELDS, run_tournament


@pytest.fixture(scope="module")
def three_way():
    """Three bots, three seats, two deals: six games, in-process."""
    return run_tournament(["hard", "medium", "greedy"], 6, players=3, seed=5, workers=1, rules=Rules())


# -- the schedule ---------------------------------------------------------------------


def test_groups_share_a_deal_and_rotate_seats():
    tasks = schedule(entries=3, players=3, games=6, seed=1)
    assert [task[0] for task in tasks] == list(range(6))
    for group in (0, 1):
        members = [task for task in tasks if task[1] == group]
        assert len({task[3] for task in members}) == 1  # one hand seed per group
        for seat in range(3):
            assert sorted(task[4][seat] for task in members) == [0, 1, 2]  # every bot in every seat


def test_games_round_up_to_whole_groups():
    assert len(schedule(entries=2, players=2, games=5, seed=0)) == 6
    assert len(schedule(entries=4, players=4, games=1, seed=0)) == 4


def test_more_bots_than_seats_cycle_through_combinations_evenly():
    tasks = schedule(entries=4, players=2, games=24, seed=9)  # 12 groups = 2 cycles of the 6 pairs
    pairs = Counter(tuple(sorted(task[4])) for task in tasks)
    assert len(pairs) == 6 and set(pairs.values()) == {4}
    seats = Counter((entry, seat) for task in tasks for seat, entry in enumerate(task[4]))
    assert set(seats.values()) == {6}
    assert tasks == schedule(entries=4, players=2, games=24, seed=9)
    assert tasks != schedule(entries=4, players=2, games=24, seed=10)


def test_fewer_bots_than_seats_fill_the_table():
    tasks = schedule(entries=2, players=4, games=4, seed=0)
    assert all(sorted(task[4]) == [0, 0, 1, 1] for task in tasks)


def test_repeated_specs_get_their_own_names():
    assert entry_names(["medium", "hard", "medium"]) == ["medium", "hard", "medium#2"]


# -- results --------------------------------------------------------------------------


def test_each_bot_sits_in_each_seat_equally_often(three_way):
    seats = Counter((entry, seat) for game in three_way.games for seat, entry in enumerate(game.entries))
    assert len(seats) == 9 and set(seats.values()) == {2}
    assert [s.games for s in three_way.stats] == [6, 6, 6]


def test_totals_add_up_and_intervals_contain_the_rate(three_way):
    games = three_way.games
    assert sum(s.wins for s in three_way.stats) == sum(g.outcome == "win" for g in games)
    assert three_way.unawarded == sum(g.outcome == "unawarded" for g in games)
    for s in three_way.stats:
        low, high = s.ci
        assert 0.0 <= low <= s.win_rate <= high <= 1.0
        assert s.mean_game_seconds > 0


def test_json_and_csv_outputs_parse(three_way):
    data = json.loads(json.dumps(three_way.to_json()))
    assert data["settings"]["bots"] == ["hard", "medium", "greedy"]
    assert data["totals"]["games"] == 6 and len(data["games"]) == 6
    assert [b["bot"] for b in data["bots"]] == ["hard", "medium", "greedy"]
    rows = list(csv.DictReader(io.StringIO(three_way.to_csv())))
    assert [row["bot"] for row in rows] == ["hard", "medium", "greedy"]
    assert tuple(rows[0]) == CSV_FIELDS
    for row, s in zip(rows, three_way.stats):
        assert int(row["wins"]) == s.wins and float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"])
    table = three_way.table()
    assert "95% CI" in table and "games/sec" in table


@pytest.fixture(scope="module")
def serial_run():
    return run_tournament(["hard", "medium:node_budget=100"], 4, players=2, seed=3, workers=1, rules=Rules())


@pytest.mark.parametrize("start_method", ["fork", pytest.param("spawn", marks=pytest.mark.slow)])
def test_same_seed_same_games_whatever_the_worker_count(serial_run, start_method):
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start_method} here")
    two = run_tournament(
        serial_run.bot_specs, 4, players=2, seed=3, workers=2, rules=Rules(), start_method=start_method
    )
    assert per_game(serial_run) == per_game(two)
    assert [s.to_json() for s in serial_run.stats] == [s.to_json() for s in two.stats]
    assert [g.index for g in two.games] == [0, 1, 2, 3]


def test_progress_is_reported_per_game():
    seen = []
    run_tournament(
        ["easy", "greedy"],
        2,
        players=2,
        seed=0,
        workers=1,
        rules=Rules(),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(1, 2), (2, 2)]


def test_bad_tournament_settings_raise_value_errors():
    with pytest.raises(ValueError, match="unknown bot"):
        run_tournament(["hard", "nope"], 2, rules=Rules())
    with pytest.raises(ValueError, match="solo"):
        run_tournament(["hard"], 2, players=2, rules=Rules(variant="solo"))


# -- play -----------------------------------------------------------------------------


def invoke(command, *args: str):
    return CliRunner().invoke(command, list(args))


def assert_one_error_line(result) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output


def test_play_prints_events_grids_and_a_winner():
    result = invoke(play, "--players", "2", "--bots", "hard,medium", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "classic (en), seed 1, single: P1 hard, P2 medium"
    assert "SPLIT" in lines[1]
    assert any("PEEL" in line and "(bunch " in line for line in lines)
    assert any(line.startswith("P1 hard") and "P2 medium" in line for line in lines)  # grids, side by side
    assert lines[-1].startswith(("Winner: ", "Shared win: ", "No winner: "))


def test_play_default_table_and_match():
    result = invoke(play, "--seed", "2", "--match", "best-of-3", "--bots", "easy,greedy", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "-- hand 1 --" in result.stdout
    assert result.stdout.splitlines()[-1].startswith(("Winner: ", "No winner: "))


def test_play_json_log_is_replayable_and_identical_across_runs():
    args = ["--players", "3", "--bots", "hard,greedy", "--seed", "4", "--json"]
    first, second = invoke(play, *args), invoke(play, *args)
    assert first.exit_code == 0 and second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes
    records = [json.loads(line) for line in first.stdout.splitlines()]
    header = records[0]
    assert header["event"] == "header"
    assert {k: header[k] for k in ("seed", "players", "bots", "variant", "lang", "match")} == {
        "seed": 4,
        "players": 3,
        "bots": ["hard", "greedy", "hard"],
        "variant": "classic",
        "lang": "en",
        "match": "single",
    }
    assert records[1]["event"] == "split" and records[1]["hand"] == 1
    assert any(r["event"] == "end" for r in records)
    assert records[-1]["event"] == "match"


def test_bots_with_several_settings_keep_their_commas():
    from solver.cli.game_options import split_specs

    assert split_specs("hard:speed=3,risk=0.1,medium,greedy:speed=2") == [
        "hard:speed=3,risk=0.1",
        "medium",
        "greedy:speed=2",
    ]
    assert split_specs("hard,medium") == ["hard", "medium"]
    result = invoke(play, "--players", "2", "--bots", "hard:speed=3,risk=0.1,easy:speed=2", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["bots"] == ["hard:speed=3,risk=0.1", "easy:speed=2"]
    assert_one_error_line(invoke(play, "--players", "2", "--bots", "hard,speed=3"))  # a setting needs its bot's colon


def test_play_solo_defaults_to_one_player():
    result = invoke(play, "--variant", "solo", "--bots", "medium", "--seed", "0", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["players"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "solo", "--players", "2"],
        ["--players", "9"],
        ["--bots", "hard,wizard"],
        ["--bots", "hard:colour=red"],
        ["--bots", "hard,,medium"],
        ["--seed", "-1"],
        ["--players", "2", "--bots", "hard,medium,easy"],
    ],
)
def test_play_bad_settings_give_one_error_line(args):
    assert_one_error_line(invoke(play, *args))


def test_draw_grids_falls_back_to_one_after_another_when_wide():
    narrow = draw_grids(["P1 a", "P2 b"], [["CAT"], None]).splitlines()
    assert narrow[0].startswith("P1 a") and "P2 b" in narrow[0] and "(no grid)" in narrow[2]
    wide = draw_grids(["P1 a", "P2 b"], [["A" * 60], ["B" * 60]]).splitlines()
    assert wide[0] == "P1 a" and "P2 b" in wide


# -- tournament -----------------------------------------------------------------------


def test_tournament_writes_json_and_csv(tmp_path):
    json_file, csv_file = tmp_path / "t.json", tmp_path / "t.csv"
    result = invoke(
        tournament,
        "--bots",
        "easy,greedy",
        "--games",
        "3",
        "--seed",
        "2",
        "--json",
        str(json_file),
        "--csv",
        str(csv_file),
    )
    assert result.exit_code == 0, result.output
    assert "rounded up to 4" in result.stderr
    assert "95% CI" in result.stdout and "games/sec" in result.stdout
    data = json.loads(json_file.read_text())
    assert data["totals"]["games"] == 4 and [b["bot"] for b in data["bots"]] == ["easy", "greedy"]
    rows = list(csv.DictReader(csv_file.open()))
    assert [row["bot"] for row in rows] == ["easy", "greedy"] and sum(int(r["games"]) for r in rows) == 8


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "hard,wizard", "--games", "2"],
        ["--bots", "hard,medium", "--games", "0"],
        ["--bots", "hard,medium", "--games", "2", "--seed", "-3"],
        ["--bots", "hard,medium", "--games", "2", "--workers", "0"],
        ["--bots", "hard,medium", "--games", "2", "--variant", "solo", "--players", "2"],
        ["--bots", "hard,medium", "--games", "2", "--csv", "/nonexistent-dir/out.csv"],
        # the strategy settings and the greedy baseline's settings
        ["--bots", "hard:flexible=maybe,medium", "--games", "2"],
        ["--bots", "hard:patience=0,medium", "--games", "2"],
        ["--bots", "hard:rebuild=everything,medium", "--games", "2"],
        ["--bots", "hard:hooks=none,medium", "--games", "2"],
        ["--bots", "hard:endgame=-1,medium", "--games", "2"],
        ["--bots", "greedy:max_word=1,medium", "--games", "2"],
        ["--bots", "greedy:speed=0,medium", "--games", "2"],
        ["--bots", "greedy:risk=1,medium", "--games", "2"],
    ],
)
def test_tournament_bad_settings_give_one_error_line(args):
    assert_one_error_line(invoke(tournament, *args))


@pytest.mark.parametrize("wins, games", [(0, 11), (6, 6), (21, 21), (3, 7)])
def test_interval_contains_the_rate_at_the_edges(wins, games):
    from solver.play.tournament import BotStats

    s = BotStats("b", "b", games=games, wins=wins)
    low, high = s.ci
    assert low <= s.win_rate <= high
