"""`bananas peel` and `bananas dump`: live play from the command line.

Every grid `peel` prints is re-checked with the independent validator against exactly
the old grid's tiles plus the letters peeled.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from helpers import assert_one_error_line, bananas_script, run_cli, tiles, without_build_notices

from solver.core.grid import Grid, validate
from solver.core.tiles import ENGLISH, FRENCH, TileCounts
from solver.search.board import TIERS

CROSS = ".M.\nCAT\n.P.\n"  # CAT across, MAP down through its A
LIFT_GRID = "ARNOTTO\nE......\n"  # + C: no hook; lifting the E of AE gives ACE
NO_U = "BE\n"  # a Q has no word with these
SUMMARY = re.compile(r"^# peel: (\d+) tiles? moved \((\w+)\), \d+ ms(; not placed: ([A-Z]+))?$")


def peel_output(result) -> tuple[Grid, int, str, str]:
    """The grid printed by `peel`, the tiles moved, the tier and the letters not placed."""
    lines = result.stdout.splitlines()
    match = SUMMARY.match(lines[-1])
    assert match, lines[-1]
    grid = Grid.parse(result.stdout)  # the '#' line is a comment: the output is a grid file
    return grid, int(match.group(1)), match.group(2), match.group(4) or ""


def assert_exact(grid: Grid, held: TileCounts, lexicon) -> None:
    report = validate(grid, lexicon, held)
    assert report.ok, f"{report.problems()}\n{grid}"


# -- peel -----------------------------------------------------------------------------


def test_peel_a_hook_moves_nothing_and_exits_0(grid_file, en):
    result = run_cli("peel", "--grid", grid_file(CROSS), "s")
    assert result.exit_code == 0, result.output
    grid, moved, tier, left = peel_output(result)
    assert (moved, tier, left) == (0, "hook", "")
    assert_exact(grid, Grid.parse(CROSS).tiles() + tiles("S"), en)
    assert without_build_notices(result.stderr) == ""


def test_peel_a_tile_that_needs_a_lift(grid_file, en):
    result = run_cli("peel", "--grid", grid_file(LIFT_GRID), "C")
    assert result.exit_code == 0, result.output
    grid, moved, tier, _ = peel_output(result)
    assert (moved, tier) == (1, "lift")
    assert_exact(grid, Grid.parse(LIFT_GRID).tiles() + tiles("C"), en)


def test_peel_three_tiles_of_a_dump(grid_file, en):
    result = run_cli("peel", "--grid", grid_file(CROSS), "ERS")
    assert result.exit_code == 0, result.output
    grid, moved, tier, _ = peel_output(result)
    assert tier in TIERS and tier not in ("unchanged", "failed")
    assert moved <= len(Grid.parse(CROSS).cells()), "more tiles moved than the grid held"
    assert_exact(grid, Grid.parse(CROSS).tiles() + tiles("ERS"), en)


def test_peel_json(grid_file, en):
    result = run_cli("peel", "--grid", grid_file(CROSS), "S", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"grid", "hand", "moved", "elapsed_ms", "tier"} <= set(data)
    assert (data["tier"], data["moved"], data["hand"]) == ("hook", 0, "")
    assert isinstance(data["elapsed_ms"], (int, float)) and data["elapsed_ms"] >= 0
    assert_exact(Grid.from_rows(data["grid"]), Grid.parse(CROSS).tiles() + tiles("S"), en)
    # The JSON result is itself a grid `check` reads.
    assert run_cli("check", "-", "--tiles", "ACMPST", input=result.stdout).exit_code == 0


def test_peel_reads_json_rows_and_solve_results_from_stdin(en):
    rows = json.dumps(CROSS.split())
    result = run_cli("peel", "--grid", "-", "S", "--json", input=rows)
    assert result.exit_code == 0, result.output
    assert_exact(Grid.from_rows(json.loads(result.stdout)["grid"]), tiles("ACMPST"), en)

    solved = run_cli("solve", "CATMAP", "--json")
    assert solved.exit_code == 0
    result = run_cli("peel", "--grid", "-", "SE", "--json", input=solved.stdout)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["tier"] in TIERS and data["hand"] == ""
    assert_exact(Grid.from_rows(data["grid"]), tiles("CATMAPSE"), en)


def test_peel_without_time_fails_keeps_the_grid_and_exits_1(grid_file):
    result = run_cli("peel", "--grid", grid_file(CROSS), "S", "--time-limit", "0")
    assert result.exit_code == 1, result.output
    grid, moved, tier, left = peel_output(result)
    assert (grid, moved, tier, left) == (Grid.parse(CROSS), 0, "failed", "S")
    data = json.loads(run_cli("peel", "--grid", grid_file(CROSS), "S", "--time-limit", "0", "--json").stdout)
    assert (data["tier"], data["hand"], data["grid"]) == ("failed", "S", CROSS.split())


def test_peel_min_length_3(grid_file, en):
    result = run_cli("peel", "--grid", grid_file("CATS\n"), "E", "--min-length", "3", "--json")
    assert result.exit_code == 0, result.output
    grid = Grid.from_rows(json.loads(result.stdout)["grid"])
    assert validate(grid, en, tiles("ACEST"), min_length=3).ok


# -- dump -----------------------------------------------------------------------------


def test_dump_recommends_the_q_and_shows_the_reasoning(grid_file):
    result = run_cli("dump", "--grid", grid_file(NO_U), "--hand", "qe", "--time-per-try", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "recommended dump: Q"
    assert "complete without a dump: no" in lines
    header = lines.index("letter  chance  completions")
    rows = lines[header + 1 : header + 3]
    assert [row.split()[0] for row in rows] == ["Q", "E"]
    for row in rows:
        letter, chance, ratio = row.split()
        done, total = map(int, ratio.split("/"))
        assert total == 16 and 0 <= done <= total
        assert chance == f"{done / total:.0%}"
    assert lines[-1] == "# 16 simulated draws per letter from a bunch of 140 tiles, seed 0"
    assert without_build_notices(result.stderr) == ""


def test_dump_says_when_the_hand_completes_without_a_dump(grid_file):
    args = ("dump", "--grid", grid_file(CROSS), "--hand", "S", "--samples", "4", "--time-per-try", "1")
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "recommended dump: none needed (the hand completes the grid as it is)"
    assert "complete without a dump: yes" in lines
    assert "letter  chance  completions" in lines  # what a dump would give, all the same
    data = json.loads(run_cli(*args, "--json").stdout)
    assert data["recommended"] is None and data["complete_without_dump"] is True


def test_dump_json_shape_and_determinism(grid_file):
    # A generous --time-per-try: every simulated rebuild ends by exhaustion, not the clock,
    # so the advice depends on the seed only (not on the machine's load).
    args = (
        "dump",
        "--grid",
        grid_file("REST\n"),
        "--hand",
        "QOV",
        "--samples",
        "6",
        "--seed",
        "3",
        "--json",
        "--time-per-try",
        "2",
    )
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"recommended", "complete_without_dump", "options"}
    assert isinstance(data["complete_without_dump"], bool)
    assert sorted(option["letter"] for option in data["options"]) == ["O", "Q", "V"]
    for option in data["options"]:
        assert set(option) == {"letter", "chance", "completions", "samples"}
        assert 0.0 <= option["chance"] <= 1.0 and option["samples"] == 6
        assert option["chance"] == round(option["completions"] / 6, 4)
    chances = [option["chance"] for option in data["options"]]
    assert chances == sorted(chances, reverse=True)
    assert data["recommended"] == (None if data["complete_without_dump"] else data["options"][0]["letter"])
    assert run_cli(*args).stdout == result.stdout  # same seed, same advice


def test_dump_default_bunch_is_the_lexicon_language_set_minus_grid_and_hand(grid_file):
    default = run_cli("dump", "--grid", grid_file(NO_U), "--hand", "QE", "--samples", "3", "--json")
    explicit = run_cli(
        "dump", "--grid", grid_file(NO_U), "--hand", "QE", "--samples", "3", "--json", "--bunch", ENGLISH.distribution()
    )
    assert default.exit_code == explicit.exit_code == 0
    assert default.stdout == explicit.stdout
    assert (
        run_cli("dump", "--grid", grid_file(NO_U), "--hand", "QE", "--samples", "3", "--bunch", "en", "--json").stdout
        == default.stdout
    )

    solved = run_cli("solve", "CHAT", "--lexicon", "fr", "--json")
    assert solved.exit_code == 0, solved.output
    result = run_cli("dump", "--grid", "-", "--hand", "QE", "--lexicon", "fr", "--samples", "3", input=solved.stdout)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].endswith(f"from a bunch of {len(FRENCH) - 6} tiles, seed 0")


def test_dump_with_a_bunch_of_letters(grid_file):
    result = run_cli("dump", "--grid", grid_file(NO_U), "--hand", "QE", "--bunch", "uu", "--samples", "8", "--json")
    assert result.exit_code == 0, result.output
    options = {o["letter"]: o for o in json.loads(result.stdout)["options"]}
    assert set(options) == {"Q", "E"}
    # The dumped tile joins U, U and all three are drawn: every sample is the same hand.
    assert all(o["completions"] in (0, 8) for o in options.values())

    short = run_cli("dump", "--grid", grid_file(NO_U), "--hand", "Q", "--bunch", "U", "--samples", "2")
    assert short.exit_code == 0, short.output
    assert short.stdout.splitlines()[0] == "recommended dump: none (the bunch has fewer than 3 tiles to draw)"
    assert "letter  chance  completions" not in short.stdout


# -- bad input: one `error:` line, exit 2, no traceback ----------------------------------

BAD_INPUTS = {
    "peel: missing grid file": (["peel", "--grid", "{dir}/nope.txt", "S"], None, "cannot read"),
    "dump: missing grid file": (["dump", "--grid", "{dir}/nope.txt", "--hand", "Q"], None, "cannot read"),
    "peel: invalid grid": (["peel", "--grid", "{invalid}", "S"], None, "starting grid is not valid"),
    "dump: invalid grid": (["dump", "--grid", "{invalid}", "--hand", "Q"], None, "starting grid is not valid"),
    "peel: disconnected grid on stdin": (["peel", "--grid", "-", "S"], "CAT\n...\nDOG\n", "not connected"),
    "peel: ragged grid": (["peel", "--grid", "{ragged}", "S"], None, "ragged"),
    "peel: empty stdin": (["peel", "--grid", "-", "S"], "", "empty grid"),
    "dump: binary grid": (["dump", "--grid", "{junk}", "--hand", "Q"], None, "UTF-8"),
    "peel: letters with digits": (["peel", "--grid", "{valid}", "S1"], None, "other than the letters"),
    "peel: no letters": (["peel", "--grid", "{valid}", ""], None, "no tiles"),
    "dump: hand with digits": (["dump", "--grid", "{valid}", "--hand", "Q1"], None, "other than the letters"),
    "dump: negative samples": (["dump", "--grid", "{valid}", "--hand", "Q", "--samples", "-1"], None, "--samples"),
    "dump: zero time per try": (
        ["dump", "--grid", "{valid}", "--hand", "Q", "--time-per-try", "0"],
        None,
        "--time-per-try",
    ),
    "dump: NaN time per try": (
        ["dump", "--grid", "{valid}", "--hand", "Q", "--time-per-try", "nan"],
        None,
        "--time-per-try",
    ),
    "dump: zero samples": (["dump", "--grid", "{valid}", "--hand", "Q", "--samples", "0"], None, "--samples"),
    "peel: negative time limit": (["peel", "--grid", "{valid}", "S", "--time-limit", "-1"], None, "--time-limit"),
    "peel: NaN time limit": (["peel", "--grid", "{valid}", "S", "--time-limit", "nan"], None, "--time-limit"),
    "peel: min-length 4": (["peel", "--grid", "{valid}", "S", "--min-length", "4"], None, "--min-length"),
    "dump: bad bunch distribution": (["dump", "--grid", "{valid}", "--hand", "Q", "--bunch", "A13,B"], None, "--bunch"),
    "dump: bunch with digits and letters": (
        ["dump", "--grid", "{valid}", "--hand", "Q", "--bunch", "U2U"],
        None,
        "--bunch",
    ),
    "dump: more tiles than the set": (["dump", "--grid", "{valid}", "--hand", "QQQ"], None, "the default bunch"),
    "dump: more tiles than the --bunch set": (
        ["dump", "--grid", "{valid}", "--hand", "QQQ", "--bunch", "en"],
        None,
        "--bunch en: the grid and hand hold more tiles than that set has (Q too many)",
    ),
    "peel: missing lexicon": (["peel", "--grid", "{valid}", "S", "--lexicon", "{dir}/nope.txt"], None, "no lexicon"),
}


@pytest.fixture
def bad_input_paths(tmp_path: Path) -> dict[str, str]:
    files = {
        "valid": CROSS,
        "invalid": "CAT\n.X.\n.P.\n",
        "ragged": "CAT\nCA\n",
        "junk": b"\xff\xfe\x00\x81binary" * 20,
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content.encode() if isinstance(content, str) else content)
    return {**{name: str(tmp_path / name) for name in files}, "dir": str(tmp_path)}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_is_one_error_line_and_exit_2(case, bad_input_paths):
    args, stdin, expected = BAD_INPUTS[case]
    result = run_cli(*(arg.format(**bad_input_paths) for arg in args), input=stdin)
    line = assert_one_error_line(result)
    assert expected in line, line


def test_invalid_grid_error_names_the_source_and_the_problem(bad_input_paths):
    result = run_cli("peel", "--grid", bad_input_paths["invalid"], "S")
    problem = "the starting grid is not valid: not a word: AXP (down at row 1, column 2)"
    assert result.stderr.splitlines() == [f"error: {bad_input_paths['invalid']}: {problem}"]


def test_missing_grid_option_is_a_usage_error():
    assert run_cli("peel", "S").exit_code == 2
    assert run_cli("dump", "--hand", "Q").exit_code == 2
    assert run_cli("dump", "--grid", "-").exit_code == 2  # --hand is required


def test_help_lists_peel_and_dump():
    result = run_cli("--help")
    assert result.exit_code == 0
    for command in ("peel", "dump"):
        assert f"  {command}  " in result.stdout
        assert f"bananas {command} --grid" in result.stdout
        assert run_cli(command, "--help").exit_code == 0


# -- the installed entry point (a cold process) -------------------------------------------


def test_entry_point_peel_hooks_in_a_fresh_process(grid_file, en):
    """The kernels are loaded before the timed rebuild: a cold process still hooks."""
    bananas = bananas_script()
    process = subprocess.run(
        [bananas, "peel", "--grid", grid_file(CROSS), "S", "--time-limit", "0.2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    lines = process.stdout.splitlines()
    assert SUMMARY.match(lines[-1]).group(1, 2) == ("0", "hook")
    assert_exact(Grid.parse(process.stdout), tiles("ACMPST"), en)
