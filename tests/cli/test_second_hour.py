"""Issue 65, "the second hour": what an operator and a newcomer still hit after the first hour,
each item as a user meets it. Bad input is one `error:` line and exit 2 (`tune --storage`, a
hand over the API's limit, a bad byte, a distribution entry, a bot setting), Ctrl-C is exit 130
and stops everything it started (`tournament --workers`, `serve`), and grids and the solve
API's tiles fold accents as the command line's hands do, through one function
(`solver.core.tiles.typed_letters`, `fold_cell`). The reference site's mail links and the
packaging warning are tested beside what they are about (tests/project/test_reference_site.py,
test_packaging.py).

The Ctrl-C tests run a real `bananas` process and send it SIGINT, to its whole process group as
a terminal does.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import CHEAP_BOT, assert_one_error_line, run_cli

from solver.core.grid import Grid, GridError
from solver.core.limits import MAX_API_TILES, MAX_GAME_TILES
from solver.core.tiles import TileError, parse_tiles, typed_letters
from solver.web import solve_api

START = "from solver.cli.plain import run; run()"  # the console script, as `bananas` runs it
TOO_MANY = "AEIOURSTLN" * 29  # 290 letters: over a double set, the solve API's limit

pytest.importorskip("optuna")  # `tune`'s tests below need the lab extra (the test extra has it)


# -- tune --storage ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "storage, named",
    [
        ("bogus://x", "'bogus' is no database SQLAlchemy knows"),
        ("sqlite:////nonexistent/dir/x.db", "the folder /nonexistent/dir does not exist"),
        ("not a url", "is not a database URL"),
    ],
)
def test_tune_checks_its_storage_before_it_starts(storage, named, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    started = time.perf_counter()
    line = assert_one_error_line(run_cli("tune", "--trials", "1", "--games", "2", "--storage", storage))
    assert line.startswith(f"error: --storage {storage!r}") and named in line, line
    assert time.perf_counter() - started < 30  # no game played: a game loads the word list first
    assert list(tmp_path.iterdir()) == []  # nothing created


def test_tune_reports_a_file_that_is_no_database_in_one_line(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("not SQLite\n" * 100)
    line = assert_one_error_line(run_cli("tune", "--trials", "1", "--games", "2", "--storage", f"sqlite:///{bad}"))
    assert line == f"error: --storage 'sqlite:///{bad}': {bad} is not an SQLite database"


def test_tune_says_what_it_does_before_optunas_bar(tmp_path, monkeypatch):
    """The line comes before the study opens (Optuna's import, the database, the first trial's
    games: 13 s before the bar under load); tests/play/test_tuning.py runs real studies."""

    def run_study(*args, **kwargs):
        raise ValueError("the study would start here")

    monkeypatch.setattr("solver.play.tuning.run_study", run_study)  # imported in the command's body
    result = run_cli("tune", "--trials", "1", "--games", "2", "--storage", f"sqlite:///{tmp_path / 't.db'}")
    assert result.stderr.splitlines() == [
        f"tune: opening study 'bananas' in sqlite:///{tmp_path / 't.db'} (Optuna), then 1 trials...",
        "error: the study would start here",
    ]


# -- Ctrl-C ---------------------------------------------------------------------------------


def workers(pid: int) -> list[int]:
    """The child processes of `pid` that play games: not multiprocessing's resource tracker, nor
    a first run's background build of the compiled library (which outlives the command)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:  # a thread that just ended
            pass
    return [child for child in found if not re.search("resource_tracker|solver.search.prebuilt", cmdline(child))]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def started(*args: str) -> subprocess.Popen:
    """`bananas ARGS` in a process group of its own, as a shell runs a job in the foreground: with
    Ctrl-C's default action, whatever this process inherited (a test run started in the background
    by a non-interactive shell ignores SIGINT, and so would every process it starts)."""
    return subprocess.Popen(
        [sys.executable, "-c", START, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def interrupt(process: subprocess.Popen, timeout: float) -> tuple[float, str, str]:
    """Ctrl-C: SIGINT to the whole group, as a terminal sends it; (seconds to exit, stdout, stderr)."""
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=timeout + 30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return time.monotonic() - sent, out, err


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")
def test_ctrl_c_stops_a_tournament_and_its_workers_within_2_s_and_prints_what_finished():
    process = started("tournament", "--bots", f"{CHEAP_BOT},greedy", "--games", "4000", "--seed", "1", "--workers", "2")
    deadline = time.monotonic() + 120
    while len(workers(process.pid)) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    playing = workers(process.pid)
    assert len(playing) == 2, process.communicate()
    time.sleep(2.0)  # some games finish
    seconds, out, err = interrupt(process, timeout=2.0)
    assert process.returncode == 130, (out, err)
    assert seconds < 2.0, seconds
    assert not [pid for pid in playing if running(pid)], "a worker outlived Ctrl-C"
    assert "Traceback" not in err and "Exception ignored" not in err, err
    finished = re.search(r"stopped \(Ctrl-C\): (\d+) of 4000 games finished; no file written", err)
    assert finished, err
    if int(finished.group(1)):
        assert out.startswith("bot ") and f"{finished.group(1)} games (2 players, seed 1)" in out, out


def test_a_tournament_stopped_in_process_keeps_the_games_that_finished(monkeypatch):
    """The quick twin of the subprocess test (the same path, `TournamentStopped`): the first
    games finish, the next is interrupted."""
    from solver.play import tournament

    played = []

    def play_game(task, specs, rules, make=None):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(task)
        return real(task, specs, rules)

    real = tournament.play_game
    monkeypatch.setattr(tournament, "play_game", play_game)
    with pytest.raises(tournament.TournamentStopped) as stopped:
        tournament.run_tournament([CHEAP_BOT, "greedy"], 10, seed=1)
    assert len(stopped.value.result.games) == 2 and stopped.value.result.stats[0].games == 2


@pytest.mark.parametrize("processes", ["1", "2"])
def test_serve_exits_130_on_ctrl_c(processes):
    process = started("serve", "--port", "0", "--db", "none", "--processes", processes)
    assert process.stdout is not None
    line = process.stdout.readline()  # said once it listens
    assert "play at http://127.0.0.1:" in line, (line, process.poll())
    time.sleep(0.5)
    seconds, out, err = interrupt(process, timeout=30.0)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err, err


# -- hands over the API's limit ---------------------------------------------------------------


def api_message(field: str, letters: str) -> str:
    with pytest.raises(solve_api.ApiError) as refused:
        solve_api.letters_field({field: letters}, field, MAX_API_TILES)
    return refused.value.message


@pytest.mark.parametrize(
    "args",
    [
        ["solve", TOO_MANY],
        ["words", TOO_MANY],
        ["peel", "--grid", "GRID", TOO_MANY],
        ["dump", "--grid", "GRID", "--hand", TOO_MANY],
        ["check", "GRID", "--tiles", TOO_MANY],
    ],
    ids=lambda args: args[0],
)
def test_the_cli_refuses_a_hand_over_the_apis_limit_at_once_with_its_message(args, grid_file):
    assert MAX_API_TILES == MAX_GAME_TILES == 288
    grid = grid_file("CAT\n")
    started = time.perf_counter()
    line = assert_one_error_line(run_cli(*[grid if arg == "GRID" else arg for arg in args]))
    assert time.perf_counter() - started < 5  # refused, not searched (a 300-letter solve ran 10 s)
    assert line.endswith("290 letters, at most 288"), line
    assert api_message("tiles", TOO_MANY) == "tiles: 290 letters, at most 288"  # the same words


def test_peel_refuses_a_grid_and_letters_over_a_double_set_as_the_api_does(grid_file):
    grid = grid_file(("CAT" * 40 + "\n") + ("." * 120 + "\n") + ("CAT" * 40 + "\n"))  # 240 tiles
    line = assert_one_error_line(run_cli("peel", "--grid", grid, "AEIOURSTLN" * 5))
    assert line == "error: the grid and the new tiles hold more than 288 tiles"


# -- accents: one folding for hands, grids and the API's tiles --------------------------------


def test_an_accented_grid_is_checked_as_its_tiles(grid_file):
    result = run_cli("check", "--lexicon", "fr", grid_file("CAFÉ\n"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("CAFE\nvalid: 1 word, 4 tiles")
    assert Grid.parse("CAFÉ\n.É..", accents=True) == Grid.parse("CAFE\n.E..")
    with pytest.raises(GridError, match="row 1 has characters other than A-Z and '.': 'É'"):
        Grid.parse("CAFÉ")  # the engine protocol's strict reading: a program sends A-Z


@pytest.mark.parametrize(
    "row, named",
    [("CA€", "'€'"), ("CŒUR", "'Œ' is 2 tiles, OE: one letter a cell"), ("ıT", "'ı'"), ("C\x00T", "'\\x00'")],
)
def test_a_grid_character_that_is_no_tile_is_named(row, named, grid_file):
    line = assert_one_error_line(run_cli("check", grid_file(row + "\n")))
    assert line.endswith(named), line
    with pytest.raises(GridError):
        Grid.from_rows([row], accents=True)


def test_the_api_folds_tiles_and_grids_as_the_cli_does():
    assert solve_api.letters_field({"tiles": "ÉCOLE"}, "tiles", MAX_API_TILES).letters() == "CEELO"
    assert solve_api.grid_field({"grid": "CAFÉ"}).rows == ("CAFE",)
    assert parse_tiles("ÉCOLE") == solve_api.letters_field({"tiles": "ecole"}, "tiles", MAX_API_TILES)
    assert typed_letters("Œuf ß") == "OEUFSS"
    with pytest.raises(TileError, match="'€'"):
        typed_letters("CA€")


# -- bad bytes, shown as bytes -------------------------------------------------------------------


def test_a_bad_byte_is_shown_as_the_byte():
    result = run_cli("solve", "-", input=b"\xff\xfe\x00AB\n")
    assert result.exit_code == 2
    assert "line 1: line is not UTF-8 text (byte '\\xff' at byte 1)" in result.output
    result = run_cli("solve", "-", input=b"AB\x00C\n")
    assert "holds characters other than the letters A-Z: '\\x00'" in result.output
    # The escaped text a shell's printf may leave (no \x in dash's): its backslash is one backslash.
    result = run_cli("solve", "-", input="\\xff\\xfe\\x00AB\n")
    assert result.output.rstrip().endswith("holds characters other than the letters A-Z: '0', '\\'"), result.output
    line = assert_one_error_line(run_cli("check", "-", input=b"CA\xffT\n"))
    assert line == "error: standard input is not UTF-8 text (byte '\\xff' at byte 3)"
    # A command line's bytes that are not UTF-8 reach Python as surrogate escapes: shown as the bytes.
    line = assert_one_error_line(run_cli("solve", "AB\udcff"))
    assert line == "error: 'AB\\xff' holds characters other than the letters A-Z: '\\xff'"


# -- messages that name what is wrong -----------------------------------------------------------


def test_a_distribution_entry_names_its_fault(grid_file):
    grid = grid_file("CAT\n")
    line = assert_one_error_line(run_cli("check", grid, "--tiles", "C4T"))
    assert line.startswith("error: --tiles: bad distribution entry 'C4T': 'T' after the count 4"), line
    line = assert_one_error_line(run_cli("check", grid, "--tiles", "A13,B"))
    assert "bad distribution entry 'B': no count after B" in line


def test_a_bot_setting_names_the_one_that_is_wrong():
    line = assert_one_error_line(run_cli("play", "--bots", "hard:speed=-3"))
    assert line == "error: --bots: 'hard:speed=-3': speed must be a positive number, got -3"
    line = assert_one_error_line(run_cli("play", "--bots", "hard:risk=2"))
    assert line == "error: --bots: 'hard:risk=2': risk must be from 0 to 1, got 2"
