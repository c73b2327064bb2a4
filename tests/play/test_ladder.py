"""Ladders: the rating model (fit, prior, bootstrap), the evidence taken from game records,
the `ladder` command, and what `tournament` and `ladder` share (--plot, --json -, progress,
bad input)."""

from __future__ import annotations

import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli, without_build_notices

from solver.cli.outputs import progress_bar
from solver.play.ladder import Evidence, elo_ratings, fit_strengths, log_likelihood, rate, run_ladder
from solver.play.schedule import GameRecord

CHEAP = "easy:node_budget=20,easy,easy:speed=1"  # three cheap bots of clearly different strength


def simulate(strengths: list[float], tables: list[tuple[int, ...]], deals: int, seed: int) -> Evidence:
    """Deals of Luce-model games: each deal one table (cycled), K rotated games."""
    rng = np.random.default_rng(seed)
    strengths = np.asarray(strengths)
    seats = np.zeros((deals, len(strengths)))
    wins = np.zeros((deals, len(strengths)))
    for deal in range(deals):
        table = tables[deal % len(tables)]
        seats[deal] = np.bincount(table, minlength=len(strengths))
        chances = strengths[list(table)] / strengths[list(table)].sum()
        for _ in table:  # one game per rotation
            wins[deal, table[rng.choice(len(table), p=chances)]] += 1
    return Evidence(seats, wins, np.full(deals, float(len(tables[0]))))


def fit(evidence: Evidence) -> np.ndarray:
    lineups, inverse = np.unique(evidence.seats, axis=0, return_inverse=True)
    games = np.bincount(inverse.ravel(), weights=evidence.awarded)
    return fit_strengths(lineups, games, evidence.wins.sum(axis=0)), lineups, games


# -- the model ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tables",
    [
        [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)],  # two players: Bradley-Terry
        [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)],  # mixed tables of three
    ],
)
def test_the_fit_recovers_known_strengths(tables):
    truth = [1.0, 2.0, 4.0, 8.0]
    ratings, _ = rate(simulate(truth, tables, deals=3000, seed=1), bootstrap=0)
    assert list(np.argsort(ratings)) == [0, 1, 2, 3]
    assert np.max(np.abs(ratings - elo_ratings(np.array(truth)))) < 25  # Elo points
    assert ratings.mean() == pytest.approx(1500)


def test_the_fit_is_the_maximum_of_the_likelihood():
    strengths, lineups, games = fit(simulate([1.0, 3.0, 2.0], [(0, 1), (1, 2), (0, 2)], deals=30, seed=2))
    wins = simulate([1.0, 3.0, 2.0], [(0, 1), (1, 2), (0, 2)], deals=30, seed=2).wins.sum(axis=0)
    best = log_likelihood(np.log(strengths), lineups, games, wins)
    rng = np.random.default_rng(0)
    for _ in range(50):
        nudged = np.log(strengths) + rng.normal(0, 1e-3, 3)
        assert log_likelihood(nudged, lineups, games, wins) <= best + 1e-12


def test_even_records_rate_even_and_a_winless_entry_stays_finite():
    even = Evidence(np.array([[1.0, 1.0]] * 4), np.array([[1.0, 1.0]] * 4), np.full(4, 2.0))
    ratings, _ = rate(even, bootstrap=0)
    assert ratings == pytest.approx([1500, 1500])
    shutout = Evidence(np.array([[1.0, 1.0]] * 4), np.array([[2.0, 0.0]] * 4), np.full(4, 2.0))
    ratings, (lows, highs) = rate(shutout, bootstrap=200)
    assert np.all(np.isfinite(ratings)) and ratings[0] > ratings[1]
    assert np.all(lows <= ratings + 1e-9) and np.all(ratings <= highs + 1e-9)


def test_bootstrap_intervals_are_seeded_hold_the_rating_and_narrow_with_games():
    small = simulate([1.0, 2.0, 4.0], [(0, 1), (0, 2), (1, 2)], deals=30, seed=3)
    large = simulate([1.0, 2.0, 4.0], [(0, 1), (0, 2), (1, 2)], deals=900, seed=3)
    ratings, bounds = rate(small, bootstrap=300, seed=7)
    again = rate(small, bootstrap=300, seed=7)[1]
    assert np.array_equal(bounds, again)
    assert np.all(bounds[0] <= ratings) and np.all(ratings <= bounds[1])
    wide = (bounds[1] - bounds[0]).mean()
    narrow = np.diff(rate(large, bootstrap=300, seed=7)[1], axis=0).mean()
    assert narrow < wide / 3  # 30x the deals: about sqrt(30) = 5.5x narrower


def record(index: int, group: int, entries: list[int], outcome: str, winners: list[int]) -> GameRecord:
    return GameRecord(index, group, 0, 0, entries, outcome, winners, "", 10.0, [0] * len(entries), [0] * 4, 5)


def test_evidence_splits_shared_wins_skips_unawarded_hands_and_counts_repeated_seats():
    games = [
        record(0, 0, [0, 1, 0, 1], "win", [2]),  # entry 0, second seat
        record(1, 0, [1, 0, 1, 0], "shared", [0, 1]),  # entries 1 and 0 share
        record(2, 1, [0, 2], "unawarded", []),
        record(3, 1, [2, 0], "win", [0]),
    ]
    evidence = Evidence.from_games(games, 3)
    assert evidence.seats.tolist() == [[2, 2, 0], [1, 0, 1]]
    assert evidence.wins.tolist() == [[1.5, 0.5, 0], [0, 0, 1]]
    assert evidence.awarded.tolist() == [2, 1]


# -- run_ladder and the command -------------------------------------------------------


@pytest.fixture(scope="module")
def cheap_ladder():
    return run_ladder(CHEAP.split(","), 12, players=2, seed=4, bootstrap=200)


def test_a_ladder_is_sorted_and_its_records_are_the_tournaments(cheap_ladder):
    ratings = cheap_ladder.ratings
    assert [r.rating for r in ratings] == sorted((r.rating for r in ratings), reverse=True)
    stats = {s.name: s for s in cheap_ladder.tournament.stats}
    for r in ratings:
        assert (r.games, r.wins, r.shared) == (stats[r.name].games, stats[r.name].wins, stats[r.name].shared)
        assert r.ci_low <= r.rating <= r.ci_high
    assert sum(r.games for r in ratings) == 2 * len(cheap_ladder.tournament.games)
    pairs = {tuple(sorted(set(game.entries))) for game in cheap_ladder.tournament.games}
    assert pairs == {(0, 1), (0, 2), (1, 2)}  # a round robin
    table = cheap_ladder.table()
    assert table.splitlines()[2].split()[1] == ratings[0].name and "Bradley-Terry" in table


@pytest.mark.slow  # 12 real games and a bootstrap through the CLI; the fixture's ladder stays quick
def test_ladder_command_writes_json_and_plot(tmp_path: Path, cheap_ladder):
    pytest.importorskip("matplotlib")
    out, plot = tmp_path / "ladder.json", tmp_path / "ladder.svg"
    result = run_cli("ladder", "--bots", CHEAP, "--games", "12", "--seed", "4", "--bootstrap", "200",
                 "--json", str(out), "--plot", str(plot))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    entries = data["entries"]
    assert [e["bot"] for e in entries] == [r.name for r in cheap_ladder.ratings]  # same seed, same ladder
    for entry, rating in zip(entries, cheap_ladder.ratings, strict=True):
        assert set(entry) >= {"rating", "ci_low", "ci_high", "games", "wins"}
        assert entry["rating"] == pytest.approx(rating.rating, abs=0.05) and entry["wins"] == rating.wins
    assert data["settings"]["bootstrap"] == 200 and data["totals"]["games"] == 12
    svg = ET.parse(plot).getroot()
    assert svg.tag.endswith("svg") and "1500" in plot.read_text()  # the rating axis
    assert result.stdout.splitlines()[0].split()[:3] == ["rank", "bot", "rating"]


def test_ladder_with_more_seats_than_bots_fills_the_table():
    result = run_ladder(["easy", "easy:node_budget=20"], 4, players=4, seed=1, bootstrap=50)
    assert all(sorted(game.entries) == [0, 0, 1, 1] for game in result.tournament.games)
    assert sum(r.games for r in result.ratings) == 16


def test_json_to_stdout_is_all_that_is_printed():
    result = run_cli("ladder", "--bots", "easy,easy:node_budget=20", "--games", "2", "--bootstrap", "20", "--json", "-")
    assert result.exit_code == 0
    data = json.loads(result.stdout)  # the whole of stdout is the JSON
    assert len(data["entries"]) == 2
    assert without_build_notices(result.stderr) == ""  # no bar, no table, no 'wrote'


def test_tournament_plot_and_json_to_stdout(tmp_path: Path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "rates.png"
    result = run_cli(
        "tournament", "--bots", "easy,easy:node_budget=20", "--games", "2", "--json", "-", "--plot", str(plot)
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"]["games"] == 2
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_the_progress_bar_shows_rate_on_a_terminal_and_nothing_elsewhere(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, expect_bar in ((Terminal(), True), (io.StringIO(), False)):
        monkeypatch.setattr(sys, "stderr", stream)
        with progress_bar(4, "playing") as bar:
            bar.update(4)
        shown = stream.getvalue()
        assert ("playing" in shown and "game/s" in shown) if expect_bar else shown == ""


@pytest.mark.parametrize(
    "args, message",
    [
        (["ladder", "--bots", "easy,medium", "--games", "0"], "--games must be at least 1"),
        (["ladder", "--bots", "easy,nosuchbot", "--games", "2"], "unknown bot"),
        (["ladder", "--bots", "easy", "--games", "2"], "at least two bots"),
        (["ladder", "--bots", "easy,medium", "--games", "2", "--bootstrap", "-1"], "--bootstrap"),
        (["ladder", "--bots", "easy,medium", "--games", "2", "--variant", "solo"], "--players must be 2 or more"),
        (["ladder", "--bots", "easy,medium", "--games", "2", "--plot", "OUT.pdf"], "must end in .svg or .png"),
        (["ladder", "--bots", "easy,medium", "--games", "2", "--json", "NOFOLDER/x.json"], "no folder"),
        (["tournament", "--bots", "easy,medium", "--games", "0", "--json", "OUT.json"], "--games must be at least 1"),
        (["tournament", "--bots", "easy,medium", "--games", "2", "--csv", "-"], "'-' is for --json only"),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(tmp_path: Path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ") and message in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_plot_without_matplotlib_is_one_error_line(tmp_path: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run_cli("ladder", "--bots", "easy,medium", "--games", "2", "--plot", str(tmp_path / "x.svg"))
    assert result.exit_code == 2 and "bananas[plots]" in result.stderr and list(tmp_path.iterdir()) == []
