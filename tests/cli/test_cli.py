"""The `bananas` command line: outputs, exit codes and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FakeTerminal, assert_one_error_line, bananas_script, run_cli, without_build_notices

from solver.cli import common as cli
from solver.cli import grids
from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon

VALID_GRID = ".M.\nCAT\n.P.\n"  # CAT across, MAP down through its A
ANSI = "\x1b["


def error_lines(result) -> list[str]:
    return result.stderr.splitlines()


def subprocess_env() -> dict[str, str]:
    return dict(os.environ)


# -- check ----------------------------------------------------------------------------


def test_check_valid_grid_exits_0(grid_file):
    result = run_cli("check", grid_file(VALID_GRID))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [".M.", "CAT", ".P.", "valid: 2 words, 5 tiles"]


def test_check_invalid_word_exits_1_and_names_it(grid_file):
    result = run_cli("check", grid_file("CAT\n.X.\n.P.\n"))
    assert result.exit_code == 1
    assert "not a word: AXP (down at row 1, column 2)" in result.stdout
    assert "valid:" not in result.stdout


def test_check_disconnected_grid_exits_1(grid_file):
    result = run_cli("check", grid_file("CAT\n...\nMAP\n"))
    assert result.exit_code == 1
    assert "grid is not connected: 2 parts of 3, 3 tiles" in result.stdout


def test_check_tiles_must_match_exactly(grid_file):
    path = grid_file(VALID_GRID)
    assert run_cli("check", path, "--tiles", "catmp").exit_code == 0
    short = run_cli("check", path, "--tiles", "CATMPS")
    assert short.exit_code == 1
    assert "tiles not on the grid: S" in short.stdout
    extra = run_cli("check", path, "--tiles", "CATM")
    assert extra.exit_code == 1
    assert "tiles on the grid that are not in the hand: P" in extra.stdout


def test_check_tiles_accepts_a_distribution(grid_file):
    path = grid_file(VALID_GRID)
    assert run_cli("check", path, "--tiles", "A1,C1,M1,P1,T1").exit_code == 0
    whole_bag = run_cli("check", path, "--tiles", "en", "--json")
    assert whole_bag.exit_code == 1
    assert len(json.loads(whole_bag.stdout)["missing"]) == 144 - 5


def test_check_min_length_3_rejects_two_letter_words(grid_file):
    path = grid_file("AT\n")
    assert run_cli("check", path).exit_code == 0
    result = run_cli("check", path, "--min-length", "3")
    assert result.exit_code == 1
    assert "not a word: AT" in result.stdout


def test_check_json_output(grid_file):
    result = run_cli("check", grid_file("CAT\n.X.\n.P.\n"), "--json", "--tiles", "CATXP")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["valid"] is False
    assert data["grid"] == ["CAT", ".X.", ".P."]
    assert data["words"] == ["CAT", "AXP"]
    assert data["invalid_words"] == [{"word": "AXP", "direction": "down", "cells": [[0, 1], [1, 1], [2, 1]]}]
    assert data["components"] == 1
    assert data["missing"] == data["extra"] == ""
    assert data["problems"] == ["not a word: AXP (down at row 1, column 2)"]


def test_check_counts_positions_from_1_in_text_and_from_0_in_json(grid_file):
    """Issue 38: the two differ on purpose (people read the text, programs index the JSON);
    README, "Positions", and `check --help` say so."""
    path = grid_file("CAT\nA..\nXYZ\n")
    text = run_cli("check", path).stdout
    data = json.loads(run_cli("check", path, "--json").stdout)
    assert [word["cells"][0] for word in data["invalid_words"]] == [[2, 0], [0, 0]]  # XYZ across, CAX down
    for word in data["invalid_words"]:
        row, col = word["cells"][0]
        line = f"not a word: {word['word']} ({word['direction']} at row {row + 1}, column {col + 1})"
        assert line in text.splitlines() and line in data["problems"]
    assert "from 1" in run_cli("check", "--help").stdout and "from 0" in run_cli("check", "--help").stdout


def test_check_reads_json_rows_and_solve_results_from_stdin():
    rows = json.dumps(["CAT", ".X.", ".P."])
    assert run_cli("check", "-", input=rows).exit_code == 1
    as_object = json.dumps({"grid": [".M.", "CAT", ".P."]})
    assert run_cli("check", "-", input=as_object).exit_code == 0
    assert run_cli("check", "-", input=VALID_GRID).exit_code == 0


def test_check_uses_the_hand_recorded_in_a_solve_result():
    result = {"tiles": "ACMPT", "status": "solved", "grid": [".M.", "CAT", ".P."]}
    assert run_cli("check", "-", input=json.dumps(result)).exit_code == 0
    tampered = run_cli("check", "-", input=json.dumps({**result, "tiles": "ACMPTS"}))
    assert tampered.exit_code == 1
    assert "tiles not on the grid: S" in tampered.stdout
    # an explicit --tiles wins over the recorded hand
    assert run_cli("check", "-", "--tiles", "ACMPT", input=json.dumps({**result, "tiles": "Z"})).exit_code == 0


def test_check_has_no_colour_codes_when_not_a_terminal(grid_file):
    result = run_cli("check", grid_file("CAT\n.X.\n.P.\n"), color=True)
    assert result.exit_code == 1
    assert ANSI not in result.output


def test_check_colours_exactly_the_invalid_words_cells(grid_file, monkeypatch):
    monkeypatch.setattr(grids, "colour_wanted", lambda: True)
    result = run_cli("check", grid_file("CAT\n.X.\n.P.\n"), color=True)
    red = lambda letter: f"\x1b[31m\x1b[1m{letter}\x1b[0m"  # noqa: E731
    assert result.stdout.splitlines()[:3] == [f"C{red('A')}T", f".{red('X')}.", f".{red('P')}."]


def test_colour_only_on_a_terminal_and_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys, "stdout", FakeTerminal())
    assert cli.colour_wanted()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not cli.colour_wanted()


# -- words ----------------------------------------------------------------------------


def test_words_lists_longest_first_in_upper_case():
    result = run_cli("words", "tca")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "CAT" in lines and "ACT" in lines
    assert all(line.isupper() for line in lines)
    assert [len(word) for word in lines] == sorted((len(word) for word in lines), reverse=True)


def test_words_respects_limit_and_min_length():
    assert len(run_cli("words", "TCA", "--limit", "2").stdout.splitlines()) == 2
    three = run_cli("words", "TCA", "--min-length", "3").stdout.splitlines()
    assert three and all(len(word) == 3 for word in three)


def test_words_json():
    data = json.loads(run_cli("words", "TCA", "--json", "--limit", "1").stdout)
    assert data == {"tiles": "ACT", "words": ["ACT"]}


def test_words_exits_1_when_no_word_can_be_formed():
    result = run_cli("words", "QQ")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "no words can be formed from QQ\n"
    as_json = run_cli("words", "QQ", "--json")
    assert as_json.exit_code == 1 and json.loads(as_json.stdout) == {"tiles": "QQ", "words": []}
    assert run_cli("words", "CAT").exit_code == 0


def test_words_with_common_words_only():
    everything = run_cli("words", "AEIRST").stdout.split()
    common = run_cli("words", "AEIRST", "--lexicon", "en@50").stdout.split()
    assert {"AIREST", "TERAIS", "SATIRE"} <= set(everything)
    assert "SATIRE" in common and "AIREST" not in common and "TERAIS" not in common
    assert set(common) < set(everything)


def test_accented_letters_are_folded_as_the_word_lists_are():
    from solver.core import tiles
    from solver.lexicon import loader

    assert loader.fold is tiles.fold  # one folding for the lists and for what is typed
    assert json.loads(run_cli("words", "CAFÉ", "--json").stdout)["tiles"] == "ACEF"  # English too
    french = json.loads(run_cli("words", "cœur", "--lexicon", "fr", "--json").stdout)
    assert french["tiles"] == "CEORU" and "COEUR" in french["words"]


# -- solve ----------------------------------------------------------------------------


def assert_valid_solution(data: dict, hand: str) -> None:
    assert data["status"] == "solved"
    assert data["tiles"] == TileCounts.from_letters(hand).letters()
    report = validate(Grid.from_rows(data["grid"]), get_lexicon("en"), TileCounts.from_letters(hand))
    assert report.ok, report.problems()


def test_solve_small_hand_gives_a_valid_grid_with_exactly_its_tiles():
    result = run_cli("solve", "catmap", "--json", "--time-limit", "30")
    assert result.exit_code == 0
    assert_valid_solution(json.loads(result.stdout), "CATMAP")


def test_solve_with_common_words_only():
    result = run_cli("solve", "CATMAP", "--json", "--lexicon", "en@50", "--time-limit", "30")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert_valid_solution(data, "CATMAP")
    assert all(word.lower() in get_lexicon("en", max_level=50) for word in data["words"])


def test_solve_a_french_hand_typed_with_its_accents():
    result = run_cli("solve", "ÉCOLE", "--lexicon", "fr", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["status"] == "solved" and data["tiles"] == "CEELO"


def test_solve_text_output_is_a_grid_file_check_accepts():
    result = run_cli("solve", "CATMAP", "--time-limit", "30")
    assert result.exit_code == 0
    *grid, summary = result.stdout.splitlines()
    assert summary.startswith("# solved: 6 tiles, ") and " ms, " in summary
    assert run_cli("check", "-", "--tiles", "CATMAP", input=result.stdout).exit_code == 0


def test_solve_json_output_checks_with_its_recorded_hand():
    solved = run_cli("solve", "CATMAP", "--json", "--time-limit", "30")
    assert run_cli("check", "-", input=solved.stdout).exit_code == 0


def test_solve_single_tile_is_no_grid_and_exits_1():
    result = run_cli("solve", "Q", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data.pop("elapsed_ms") >= 0
    assert data == {
        "tiles": "Q",
        "status": "no-grid",
        "grid": None,
        "words": [],
        "nodes": 0,
        "objective": "any",
        "proof": "a grid needs at least two tiles",
    }
    text = run_cli("solve", "Q")
    assert text.exit_code == 1
    assert text.stdout.startswith("# no-grid: 1 tile, 0 words")


def test_solve_same_seed_same_grid():
    first = json.loads(run_cli("solve", "CATMAPS", "--json", "--seed", "7", "--time-limit", "30").stdout)
    second = json.loads(run_cli("solve", "CATMAPS", "--json", "--seed", "7", "--time-limit", "30").stdout)
    assert first["grid"] == second["grid"]


def test_solve_with_an_objective_says_it_may_take_its_time_limit():
    """Issue 38: `--objective compact` ran 10 s with nothing on screen."""
    result = run_cli("solve", "AACMPT", "--objective", "fewest-words", "--time-limit", "5")
    assert result.exit_code == 0, result.output
    assert without_build_notices(result.stderr).splitlines() == [
        "bananas: improving the grid (fewest-words) for up to 5 s a hand; Ctrl-C stops and prints the best so far"
    ]
    assert without_build_notices(run_cli("solve", "AACMPT").stderr) == ""  # the first grid is the answer


def test_ctrl_c_during_an_objective_search_prints_the_best_grid_so_far(monkeypatch):
    import solver.search.solving

    search = solver.search.solving.solve

    def interrupted(*args, on_better, **kwargs):
        on_better(search(*args, **kwargs))  # a better grid found, then Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(solver.search.solving, "solve", interrupted)
    result = run_cli("solve", "AACMPT", "--objective", "compact", "--json")
    assert result.exit_code == 130
    assert_valid_solution(json.loads(result.stdout), "AACMPT")
    stopped = "bananas: stopped: that grid is the best found so far"
    assert without_build_notices(result.stderr).splitlines()[-1] == stopped


def test_the_best_so_far_is_one_line_redrawn_on_a_terminal(capsys, en):
    from solver.search.solving import solve

    best = grids.BestSoFar(shown=True)
    best.show(solve("AACMPT", en, objective="fewest-words", time_limit=5))
    best.clear()
    shown = capsys.readouterr().err
    assert shown.startswith("\rbest so far: 2 words, ") and ", longest 4 (" in shown
    assert shown.endswith("\r") and "\n" not in shown  # cleared: the grid prints from the line's start


def test_solve_batch_writes_one_json_line_per_hand():
    result = run_cli("solve", "-", "--json", "--time-limit", "30", input="CAT\n\n# a comment\nmap\n  tacs  \n")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for line, hand in zip(lines, ("CAT", "MAP", "TACS")):
        assert_valid_solution(json.loads(line), hand)


def test_solve_batch_reports_a_bad_line_and_goes_on():
    result = run_cli("solve", "-", "--json", "--time-limit", "30", input=b"CAT\nC4T\n\xff\xfe\nMAP\n")
    assert result.exit_code == 2
    first, bad, undecodable, last = (json.loads(line) for line in result.stdout.splitlines())
    assert first["status"] == last["status"] == "solved"
    assert bad["line"] == 2 and bad["input"] == "C4T" and "'4'" in bad["error"]
    assert undecodable["line"] == 3 and "UTF-8" in undecodable["error"]
    assert [line.split(":")[:2] for line in error_lines(result)] == [["error", " line 2"], ["error", " line 3"]]


def test_solve_batch_exits_1_when_a_hand_is_not_solved():
    result = run_cli("solve", "-", "--json", "--time-limit", "30", input="CAT\nQ\n")
    assert result.exit_code == 1
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["solved", "no-grid"]


def test_solve_batch_text_output_keeps_a_record_per_hand_and_names_the_bad_line():
    result = run_cli("solve", "-", input="CAT\n# a comment\nC4T\nMAP\n")
    assert result.exit_code == 2
    message = "line 3: 'C4T' holds characters other than the letters A-Z: '4'"
    assert error_lines(result) == [f"error: {message}"]
    records = result.stdout.split("\n\n")  # one per hand read, in order, blank-line separated
    assert len(records) == 3
    assert "# solved: 3 tiles" in records[0]
    assert records[1] == f"# error: {message}"
    assert "# solved: 3 tiles" in records[2]


# -- bad input: one `error:` line, exit 2, no traceback ----------------------------------

BAD_INPUTS = {
    "unknown letters (solve)": (["solve", "CAT1"], None),
    "a letter no folding makes A-Z": (["words", "CAFΩ"], None),
    "only an accent": (["words", "\u0301"], None),
    "space in letters": (["words", "C T"], None),
    "no letters": (["solve", ""], None),
    "ragged grid": (["check", "{ragged}"], None),
    "other characters in grid": (["check", "{digits}"], None),
    "empty grid file": (["check", "{empty}"], None),
    "empty stdin": (["check", "-"], ""),
    "only comments": (["check", "-"], "# nothing\n\n"),
    "binary grid file": (["check", "{junk}"], None),
    "grid file is a directory": (["check", "{dir}"], None),
    "missing grid file": (["check", "{dir}/nope.txt"], None),
    "bad JSON": (["check", "-"], '["CAT", '),
    "JSON without a grid": (["check", "-"], '{"status": "no-grid", "grid": null}'),
    "missing lexicon": (["words", "CAT", "--lexicon", "{dir}/nope.txt"], None),
    "binary lexicon": (["words", "CAT", "--lexicon", "{junk}"], None),
    "lexicon is a directory": (["check", "{valid}", "--lexicon", "{dir}"], None),
    "bad tiles distribution": (["check", "{valid}", "--tiles", "A13,B"], None),
    "tiles neither letters nor file": (["check", "{valid}", "--tiles", "hand.txt"], None),
    "min-length 4 (check)": (["check", "{valid}", "--min-length", "4"], None),
    "min-length 1 (words)": (["words", "CAT", "--min-length", "1"], None),
    "min-length 4 (solve)": (["solve", "CAT", "--min-length", "4"], None),
    "negative time limit": (["solve", "CAT", "--time-limit", "-1"], None),
    "NaN time limit": (["solve", "CAT", "--time-limit", "nan"], None),
    "zero limit": (["words", "CAT", "--limit", "0"], None),
    "unknown vocabulary level": (["words", "CAT", "--lexicon", "en@45"], None),
    "a list without levels": (["solve", "CAT", "--lexicon", "fr@50"], None),
    "empty batch": (["solve", "-"], "\n# only a comment\n"),
}


@pytest.fixture
def bad_input_paths(tmp_path: Path) -> dict[str, str]:
    files = {
        "ragged": "CAT\nCA\n",
        "digits": "C1T\n",
        "empty": "",
        "valid": VALID_GRID,
        "junk": b"\xff\xfe\x00\x81binary" * 20,
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content.encode() if isinstance(content, str) else content)
    paths = {name: str(tmp_path / name) for name in files}
    return {**paths, "dir": str(tmp_path)}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_is_one_error_line_and_exit_2(case, bad_input_paths):
    args, stdin = BAD_INPUTS[case]
    result = run_cli(*(arg.format(**bad_input_paths) for arg in args), input=stdin)
    assert_one_error_line(result)


CLICK_USAGE_ERRORS = {
    "not a number": (["solve", "CAT", "--time-limit", "abc"], "Invalid value for '--time-limit'"),
    "not a choice": (["solve", "CAT", "--objective", "best"], "Invalid value for '--objective'"),
    "missing option": (["peel", "S"], "Missing option '--grid'"),
    "missing argument": (["words"], "Missing argument 'LETTERS'"),
    "mistyped command": (["slove", "CAT"], "No such command 'slove'. Did you mean 'solve'?"),
    "shortened command": (["tourn", "--games", "2"], "No such command 'tourn'. Did you mean 'tournament'?"),
    "unknown command": (["xyzzy"], "No such command 'xyzzy'. (see"),
    "unknown group option": (["--bogus"], "No such option '--bogus'"),
}


@pytest.mark.parametrize("case", CLICK_USAGE_ERRORS)
def test_click_usage_errors_are_one_error_line(case):
    args, message = CLICK_USAGE_ERRORS[case]
    line = assert_one_error_line(run_cli(*args))
    assert message in line and "--help" in line  # where to look next, on the same line


def test_every_command_reports_an_unknown_option_in_one_line():
    from solver.cli import COMMANDS

    for name in COMMANDS:
        line = assert_one_error_line(run_cli(name, "--no-such-option"))
        assert f" {name} --help'" in line


def test_a_bare_bananas_still_shows_the_help():
    result = run_cli()
    assert "Usage: " in result.output and "Commands:" in result.output and "error:" not in result.output


def test_help_lists_every_command_with_an_example():
    result = run_cli("--help")
    assert result.exit_code == 0
    for command in ("check", "solve", "words"):
        assert f"  {command}  " in result.stdout
    assert "bananas solve CATMAP" in result.stdout


def test_ctrl_c_exits_130_without_aborted(monkeypatch):
    """Ctrl-C while a command runs: the shell's 130, no click "Aborted!" (exit 1), no traceback.
    The real signal, through the console script: test_ctrl_c_stops_the_installed_script."""
    import solver.cli.grids

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solver.cli.grids, "parse_hand", interrupted)
    result = run_cli("words", "AEIRST")
    assert result.exit_code == 130, result.output
    assert "Aborted" not in result.output and "Traceback" not in result.output


# -- the installed entry point --------------------------------------------------------


def test_shell_completion_through_the_console_script():
    """README, "Shell completion": click's completion answers through the console script
    (`solver.cli.plain:run`, whose bare path must not take the completion's call)."""
    bananas = bananas_script()
    source = subprocess.run(
        [bananas], capture_output=True, text=True, env={**subprocess_env(), "_BANANAS_COMPLETE": "bash_source"}
    )
    assert source.returncode == 0 and "_bananas_completion" in source.stdout, source.stderr
    cases = (
        ("bananas so", "plain,solve"),
        ("bananas solve --objective ", "plain,compact"),
        ("bananas xyz --", "plain,--help"),  # an unknown command is no error while completing
    )
    for words, expected in cases:
        env = {**subprocess_env(), "_BANANAS_COMPLETE": "bash_complete", "COMP_WORDS": words}
        env["COMP_CWORD"] = str(len(words.split(" ")) - 1)
        completed = subprocess.run([bananas], capture_output=True, text=True, env=env)
        assert expected in completed.stdout.splitlines(), (words, completed.stdout, completed.stderr)


def test_ctrl_c_stops_the_installed_script():
    """A real SIGINT to the console script mid-game: exit 130 and nothing on stderr. The game's
    first line arrives before it ends although stdout is a pipe: the script line-buffers it."""
    import select
    import signal

    process = subprocess.Popen(
        [bananas_script(), "play", "--seed", "1", "--realtime"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        # A process started from a non-interactive shell may inherit SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        ready, _, _ = select.select([process.stdout], [], [], 120)  # a first run may compile first
        assert ready, "no line before the game's end: stdout is not line-buffered"
        assert process.stdout.readline().startswith(b"classic (en), seed 1")
        process.send_signal(signal.SIGINT)
        stderr = process.communicate(timeout=60)[1]
    finally:
        process.kill()
    assert process.returncode == 130
    assert b"Aborted" not in stderr and b"Traceback" not in stderr


def test_entry_point_exit_codes(grid_file):
    bananas = bananas_script()
    valid = subprocess.run(
        [bananas, "check", grid_file(VALID_GRID)], capture_output=True, text=True, env=subprocess_env()
    )
    assert valid.returncode == 0, valid.stderr
    invalid = subprocess.run(
        [bananas, "check", grid_file("CAT\n.X.\n.P.\n", "bad.txt")],
        capture_output=True,
        text=True,
        env=subprocess_env(),
    )
    assert invalid.returncode == 1
    assert ANSI not in invalid.stdout  # a pipe is not a terminal
    ragged_path = grid_file("CAT\nCA\n", "ragged.txt")
    ragged = subprocess.run([bananas, "check", ragged_path], capture_output=True, text=True, env=subprocess_env())
    assert ragged.returncode == 2
    assert ragged.stderr.splitlines() == [f"error: {ragged_path}: ragged grid: row 2 has 2 cells, row 1 has 3"]


def test_entry_point_stops_quietly_when_the_reader_goes_away():
    # ~26,000 words: more than a pipe buffer, so writing hits the closed pipe.
    process = subprocess.Popen(
        [bananas_script(), "words", "aeiorstlnmcdpughbk"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    process.stdout.close()
    stderr = process.communicate(timeout=60)[1]
    assert process.returncode == 1
    assert without_build_notices(stderr.decode()) == ""


def test_check_does_not_import_numba(grid_file):
    script = (
        "import sys\n"
        "from solver.cli import main\n"
        "try:\n"
        f"    main(['check', {grid_file(VALID_GRID)!r}])\n"
        "except SystemExit as exit:\n"
        "    print(exit.code, 'numba' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=subprocess_env())
    assert result.stdout.splitlines()[-1] == "0 False", result.stderr
