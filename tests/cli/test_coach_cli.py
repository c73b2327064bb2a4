"""`bananas review` and `bananas replay`: a play --json log in, a review or frames out; a bad
log is one `error:` line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import assert_one_error_line, run_cli

from solver.coach import read_log
from solver.core.grid import Grid, validate

GAME_LOG = Path(__file__).resolve().parents[1] / "golden" / "coach-game.jsonl"
PLAY = ("play", "--players", "2", "--bots", "greedy", "--seed", "1")  # a game of a few seconds


@pytest.fixture(scope="module")
def game_log_file(tmp_path_factory) -> Path:
    """A short game played here: `play --json` logs snapshots, and the coach reads it."""
    result = run_cli(*PLAY, "--json")
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("coach") / "game.jsonl"
    path.write_text(result.stdout)
    return path


def test_play_json_logs_snapshots_the_coach_reads(game_log_file):
    lines = [json.loads(line) for line in game_log_file.read_text().splitlines()]
    assert any(line["event"] == "snapshot" for line in lines)
    assert all(isinstance(line.get("hand", 1), int) for line in lines)  # a stuck event's tiles are `tiles`
    log = read_log(game_log_file)
    assert log.players == 2 and log.hands[0].grids is not None


def test_play_json_is_the_same_bytes_every_time(game_log_file):
    assert run_cli(*PLAY, "--json").stdout == game_log_file.read_text()


def test_the_text_log_prints_no_snapshot_line(capsys):
    from solver.cli.play_logs import TextLog

    TextLog(["greedy"], False, "solo").event({"t": 1.0, "event": "snapshot", "player": 0, "grid": ["CAT"]})
    assert capsys.readouterr().out == ""


def test_review_prints_each_player_and_their_best_grid(en):
    result = run_cli("review", str(GAME_LOG))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("== hand 1: win (P2 easy)")
    assert "-- P1 reckless:" in result.stdout and "-- P2 easy:" in result.stdout
    assert "rotten banana" in result.stdout


def test_review_json_from_standard_input(en):
    result = run_cli("review", "-", "--json", input=GAME_LOG.read_bytes())
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "bananas-review/1"
    for player in data["hands"][0]["players"]:
        assert validate(Grid.from_rows(player["best"]["grid"]), en).ok


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not a log\n",
        '{"event":"header","format":"bananas-play-log/1"}\n',
        GAME_LOG.read_text()[:-50],
        GAME_LOG.read_text().replace('"player":0', '"player":-1', 1),
    ],
    ids=["empty", "foreign", "bad header", "truncated", "negative player"],
)
def test_a_bad_log_is_one_error_line_and_exit_2(text, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    for command in (["review", str(path)], ["replay", str(path), "--svg-dir", str(tmp_path / "frames")]):
        assert_one_error_line(run_cli(*command))


def test_a_missing_log_is_one_error_line(tmp_path):
    assert "cannot read" in assert_one_error_line(run_cli("review", str(tmp_path / "missing.jsonl")))


def test_replay_draws_one_picture_per_frame(game_log_file, tmp_path):
    folder = tmp_path / "frames"
    result = run_cli("replay", str(game_log_file), "--svg-dir", str(folder))
    assert result.exit_code == 0, result.output
    pictures = sorted(folder.glob("hand1-frame*.svg"))
    assert pictures and result.stderr.strip() == f"wrote {len(pictures)} frames to {folder}"
    assert all(picture.read_text().startswith("<svg") for picture in pictures)


def test_replay_refuses_a_file_as_its_folder(game_log_file, tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    assert "not a folder" in assert_one_error_line(run_cli("replay", str(game_log_file), "--svg-dir", str(target)))
