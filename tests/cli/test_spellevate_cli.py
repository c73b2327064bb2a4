"""`bananas spellevate`: one game shown, seat-rotated series, and a person at the table."""

import json

import pytest
from helpers import run_cli

from solver.cli.spellevate_terminal import HumanSeat, LeftTable, TableLog
from solver.play.spellevate_bots import SimpleBot
from solver.play.spellevate_match import play_spellevate_rounds
from solver.play.spellevate_tournament import run_series


def test_spellevate_command_prints_rounds_and_rejects_two_players():
    result = run_cli("spellevate", "--players", "3", "--rounds", "2", "--seed", "1")
    assert result.exit_code == 0
    assert result.output.count("round ") == 2 and "wins" in result.output
    bad = run_cli("spellevate", "--players", "2")
    assert bad.exit_code == 2 and "error: Spellevate takes 3 or more players" in bad.output


def test_one_game_with_named_bots_as_json_lines(tmp_path):
    result = run_cli("spellevate", "--bots", "planner,simple,simple", "--seed", "2", "--json")
    assert result.exit_code == 0
    events = [json.loads(line) for line in result.stdout.splitlines()]  # stderr may say a build
    assert events[0]["event"] == "lead_draw" and events[-1]["event"] == "win"
    assert sum(events[-1]["scores"]) == 0
    path = tmp_path / "game.jsonl"
    again = run_cli("spellevate", "--bots", "planner,simple,simple", "--seed", "2", "--json", str(path))
    assert again.exit_code == 0 and path.read_text() == result.stdout  # same seed, same game


def test_series_table_and_json(tmp_path):
    path = tmp_path / "series.json"
    result = run_cli("spellevate", "--bots", "simple,simple,simple", "--games", "4", "--seed", "3", "--json", str(path))
    assert result.exit_code == 0, result.output
    assert "rounded up to 6" in result.output  # whole rotation groups of 3
    assert "win rate" in result.output and "mean score" in result.output and "simple#3" in result.output
    data = json.loads(path.read_text())
    assert data["settings"]["players"] == 3 and len(data["rounds"]) == 6
    assert sum(entry["wins"] for entry in data["bots"]) == 6
    assert sum(sum(record["scores"]) for record in data["rounds"]) == 0
    for entry in data["bots"]:
        assert entry["ci_low"] <= entry["win_rate"] <= entry["ci_high"]


def test_series_rotates_seats_over_the_same_deal_and_workers_do_not_change_results():
    one = run_series(["simple", "simple", "simple"], 6, seed=4, workers=1)
    for group in (0, 1):
        records = [record for record in one.rounds if record.group == group]
        assert len({record.seed for record in records}) == 1  # a group shares one deal
        assert len({record.leader for record in records}) == 1
        assert sorted(record.entries.index(1) for record in records) == [0, 1, 2]  # entry 1 at every seat
    assert one.rounds[0].seed != one.rounds[3].seed
    two = run_series(["simple", "simple", "simple"], 6, seed=4, workers=2)
    assert [record.scores for record in two.rounds] == [record.scores for record in one.rounds]
    double = run_series(["simple"] * 4, 4, seed=1, sets=2)
    assert all(sum(record.scores) == 0 for record in double.rounds)
    assert double.to_json()["settings"]["sets"] == 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["--human", "--games", "4"], "--human plays one game"),
        (["--games", "4"], "name them with --bots"),
        (["--bots", "simple,simple,simple", "--games", "3", "--rounds", "2"], "--rounds is for one game"),
        (["--workers", "2"], "--workers is for a series"),
        (["--bots", "simple,wizard,simple"], "'wizard': unknown Spellevate bot"),
        (["--bots", "planner:beam=0,simple,simple"], "out of range"),
        (["--players", "3", "--bots", "simple,simple,simple,simple"], "4 bots for 3 bot seats"),
        (["--bots", "simple,simple,simple", "--games", "0"], "--games must be at least 1"),
        (["--seed", "-1"], "--seed must be an integer from 0 to"),
        (["--human", "--json"], "leave out --json"),
    ],
)
def test_bad_settings_get_one_error_line(args, message):
    result = run_cli("spellevate", *args)
    assert result.exit_code == 2
    assert f"error: {message}" in result.output or message in result.output
    assert "Traceback" not in result.output


# -- a person at the table ------------------------------------------------------------------


def test_human_sees_hand_table_and_legal_plays_and_gets_reasons_for_bad_input():
    # Seed 3: P4 leads first and P1 (the person) is dealt two Z and no S.
    typed = "\n".join(["zzzz", "pass", "12", "xq", "ZZZZZZZ", "help", "quit"]) + "\n"
    result = run_cli("spellevate", "--human", "--seed", "3", input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "P1 you, P2 simple, P3 simple, P4 simple" in out
    assert "your hand (36): " in out and "hands: P2 " in out
    assert "table: YTTRIUM (a 7-letter word, by P4)" in out
    assert "you can beat it with: ZANDOLI" in out
    assert "not allowed: ZZZZ is not in the hand" not in out  # the person reads "your hand"
    assert "not allowed: ZZZZ is not in your hand (missing Z, Z)" in out
    assert "not allowed: '12' is not a play" in out
    assert "not allowed: XQ is not in your hand" in out
    assert "P1 you" in out and "passes" in out
    assert out.rstrip().endswith("you left the table")


def test_human_input_ending_mid_round_is_an_error():
    result = run_cli("spellevate", "--human", "--seed", "3", input="pass\n")
    assert result.exit_code == 2
    assert "error: input ended before the round did" in result.output


def test_a_scripted_person_plays_whole_rounds_from_what_the_screen_shows(en):
    """The person reads the screen: the first play offered, else the first of their
    longest words, else pass. Every move they type is legal, and the rounds end."""
    screen: list[str] = []

    def read() -> str:
        for line in reversed(screen):
            if "you can beat it with: " in line:
                return line.split("you can beat it with: ")[1].split(",")[0].split(" ")[0] + "\n"
            if "your longest words: " in line:
                return line.split("your longest words: ")[1].split(",")[0] + "\n"
            if "your hand (" in line and "the table is empty" in screen[-1]:
                return line.split(": ")[1][0] + "\n"  # no word: lead a letter
            if "nothing in your hand beats" in line:
                return "pass\n"
        raise AssertionError("nothing to answer")

    person = HumanSeat(en, read=read, echo=screen.append)
    log: list[str] = []
    results = play_spellevate_rounds(
        [person, SimpleBot(en), SimpleBot(en)],
        rounds=2,
        seed=7,
        lexicon=en,
        observer=TableLog(["you"] * 3, log.append).event,
    )
    assert len(results) == 2 and all(sum(result.scores) == 0 for result in results)
    assert not any("not allowed" in line for line in screen)
    assert any(line.startswith("P1 you") and "plays" in line for line in log)
    assert any("goes out and wins the round" in line for line in log)
    with pytest.raises(LeftTable):
        HumanSeat(en, read=lambda: "", echo=screen.append).choose(person_view(en))


def person_view(en):
    from solver.core.tiles import TileCounts
    from solver.play.spellevate import SpellevateRound

    return SpellevateRound([TileCounts.from_letters(t) for t in ("CAT", "DOG", "EMU")], 0, en).view(0)
