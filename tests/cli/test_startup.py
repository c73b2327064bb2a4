"""Start-up: the command group imports only the command that runs, first-run builds say so (a
spinner on a terminal, one line elsewhere; nothing when the caches are warm), and `bananas
warm-up` builds everything ahead of time."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from helpers import BUILD_NOTICE, FakeTerminal, cache_without

from solver.cli import COMMANDS, LazyGroup, main
from solver.cli.warmup import ENTRY_COMPILE_SECONDS, CompileWatch, Notice
from solver.search.native import ENTRIES

RUN_MAIN = "import sys; from solver.cli import main; sys.argv[0] = 'bananas'; main()"
JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def python_cli(*args: str) -> list[str]:
    return [sys.executable, "-c", RUN_MAIN, *args]


def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "mini.txt"
    path.write_text("cat\ncats\nact\ntac\ndog\n")
    return path


def run_on_terminal(command: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run with stderr on a pseudo-terminal (stdout a pipe): (exit code, stdout, stderr)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closes when the process exits
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    stdout = process.stdout.read().decode()
    return process.wait(timeout=120), stdout, b"".join(chunks).decode()


# -- the lazy command group ------------------------------------------------------------------


def test_help_lists_the_commands_as_click_would():
    eager = click.Group(name="bananas", commands={name: main.get_command(None, name) for name in COMMANDS})
    lazy = LazyGroup(name="bananas")
    for group in (eager, lazy):
        formatter = click.HelpFormatter()
        group.format_commands(click.Context(group), formatter)
        group.listing = formatter.getvalue()
    assert lazy.listing == eager.listing
    assert all(name in lazy.listing for name in COMMANDS)


def test_every_command_is_listed():
    for name in COMMANDS:
        command = main.get_command(None, name)
        assert isinstance(command, click.Command) and command.name == name
    assert main.get_command(None, "no-such-command") is None


def imported_modules_after(*args: str) -> set[str]:
    script = (
        "import sys\nfrom solver.cli import main\ntry:\n"
        f"    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.splitlines()[-1].split())


def test_help_imports_neither_numpy_nor_any_command():
    modules = imported_modules_after("--help")
    assert "numpy" not in modules and "numba" not in modules
    assert not set(COMMANDS.values()) & modules


def test_solve_imports_only_what_solving_needs():
    modules = imported_modules_after("solve", "CATMAP")
    assert "solver.cli.grids" in modules and "numba" in modules
    needed = {"solver.cli.grids", "solver.cli.warmup"}  # warmup: the group's first-run notices, every command
    assert not (set(COMMANDS.values()) - needed) & modules
    assert not {"solver.cli.game_options", "solver.play.hand", "solver.search.board"} & modules


# -- notices on a terminal ---------------------------------------------------------------------


def test_first_build_of_a_word_list_is_announced_on_a_terminal(tmp_path):
    env = dict(os.environ, BANANAS_CACHE=str(tmp_path / "cache"), TERM="xterm")
    code, stdout, stderr = run_on_terminal(python_cli("words", "ACTS", "--lexicon", str(word_list(tmp_path))), env)
    assert code == 0 and stdout.split() == ["CATS", "ACT", "CAT", "TAC"]
    assert "building the mini.txt word-list arrays (once; about a second)" in stderr
    assert "built the mini.txt word-list arrays in " in stderr
    # The second run finds the cache: nothing to say.
    code, _, stderr = run_on_terminal(python_cli("words", "ACTS", "--lexicon", str(word_list(tmp_path))), env)
    assert code == 0 and stderr == ""


def test_a_short_build_off_a_terminal_passes_unsaid(tmp_path):
    env = dict(os.environ, BANANAS_CACHE=str(tmp_path / "cache"))
    command = python_cli("words", "ACTS", "--lexicon", str(word_list(tmp_path)))
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.slow  # a build in a subprocess (4 s)
def test_a_long_build_off_a_terminal_is_announced_in_one_line(tmp_path):
    """Issue 38: a piped first run was silent for seconds. The en list's arrays (seconds) in a
    pipe: one line as the build starts; the second run finds the cache and says nothing."""
    env = dict(os.environ, BANANAS_CACHE=str(tmp_path / "cache"))
    result = subprocess.run(python_cli("words", "ACTS"), capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0 and "CATS" in result.stdout.split()
    assert result.stderr.splitlines() == ["bananas: building the en word-list arrays (once; about 3 s)..."]
    result = subprocess.run(python_cli("words", "ACTS"), capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"), reason="compiles with numba")
def test_first_compile_of_the_solver_is_announced_on_a_terminal(tmp_path):
    """A numba cache without the entry kernels, numba's JIT (BANANAS_FAST_START=0): each entry
    kernel's compile is announced (tens of seconds from an empty cache); the second run loads
    them from the cache and says nothing. Off a terminal:
    test_first_compile_of_the_solver_is_one_line_in_a_pipe."""
    cache = cache_without(tmp_path, "hostable_letters", "search")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), BANANAS_FAST_START="0", TERM="xterm")
    code, stdout, stderr = run_on_terminal(python_cli("solve", "CATMAP"), env)
    assert code == 0 and stdout.splitlines()[-1].startswith("# solved: 6 tiles")
    for kernel in ("hostable_letters", "search"):
        assert f"compiling the solver's {kernel} kernel (once; about " in stderr
        assert f"compiled the solver's {kernel} kernel in " in stderr
    code, _, stderr = run_on_terminal(python_cli("solve", "CATMAP"), env)
    assert code == 0 and stderr == ""


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"), reason="compiles with numba")
def test_first_compile_of_the_solver_is_one_line_in_a_pipe(tmp_path):
    """Issue 38: a piped first `bananas play` was silent for 16 s. The search kernel's compile
    (seconds) is a line; the proof's pre-check (about a second) passes unsaid."""
    cache = cache_without(tmp_path, "hostable_letters", "search")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), BANANAS_FAST_START="0")
    result = subprocess.run(python_cli("solve", "CATMAP"), capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()  # the en list's arrays too, when the session's cache is cold
    assert "bananas: compiling the solver's search kernel (once; about 15 s)..." in lines
    assert all(BUILD_NOTICE.fullmatch(line) for line in lines) and "hostable_letters" not in result.stderr


def test_notice_draws_a_spinner_then_the_time_taken():
    stream = FakeTerminal()
    with Notice(stream, "the things", 4.2):
        pass
    text = stream.getvalue()
    assert text.startswith("\r| building the things (once; about 4 s) 0.0 s")
    last = text.split("\r")[-1]
    assert last.startswith("built the things in 0.0 s") and last.endswith("\n")
    assert len(last.rstrip("\n")) >= len(text.split("\r")[-2])  # padded over the spinner line


def test_notice_off_a_terminal_is_one_line_for_a_long_build_only():
    stream = io.StringIO()  # a pipe, a file, a CI log: no spinner to redraw
    with Notice(stream, "the things", 4.2):
        pass
    assert stream.getvalue() == "bananas: building the things (once; about 4 s)...\n"
    stream = io.StringIO()
    with Notice(stream, "the small things", 1.0):  # below LINE_NOTICE_SECONDS: not worth a line
        pass
    assert stream.getvalue() == ""


def test_every_entry_kernel_has_a_compile_estimate():
    """A compile of any entry kernel is announced with its estimate (a missing one crashed a
    first `bananas play` on a terminal: issue 38)."""
    assert set(ENTRY_COMPILE_SECONDS) == set(ENTRIES)


@pytest.mark.slow  # compiles a kernel (~20 s); quick: test_notice_draws_a_spinner_then_the_time_taken
def test_the_compile_notices_let_any_compile_event_pass():
    """The listener of the command line's compile notices (on in every process that ran a
    command, since issue 38) takes a compile event of no dispatcher of ours, as numba's own
    users (and tests/search/test_solve.py) raise, and announces nothing for it."""
    from numba.core import event

    from solver.cli.warmup import show_compile_notices
    from solver.search.solving import solve

    show_compile_notices()
    assert solve("CATMAP", time_limit=60.0).solved  # numba bound: the listener is registered
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream):
        with event.trigger_event("numba:compile", data={"dispatcher": None, "args": None, "return_type": None}):
            pass
    assert stream.getvalue() == ""


def test_compile_watch_shows_a_notice_only_for_a_real_compilation():
    from numba import njit

    @njit  # a new function: its first call compiles
    def twice(value):
        return 2 * value

    stream = FakeTerminal()
    with CompileWatch("the test kernel", 1.0, stream) as watch:
        assert twice(21) == 42
    assert watch.compiled
    assert "compiling the test kernel (once; about 1 s)" in stream.getvalue()
    assert "compiled the test kernel in " in stream.getvalue()
    stream = FakeTerminal()
    with CompileWatch("the test kernel", 1.0, stream) as watch:
        assert twice(1) == 2  # compiled already
    assert not watch.compiled and stream.getvalue() == ""


# -- bananas warm-up ---------------------------------------------------------------------------


@pytest.mark.skipif(JIT_DISABLED, reason="warm-up says the JIT is off")
def test_warm_up_builds_then_finds_everything_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path / "cache"))
    path = str(word_list(tmp_path))
    first = CliRunner().invoke(main, ["warm-up", "--lexicon", path])
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert lines[0].startswith("mini.txt: built (")
    assert lines[1] == "compiled kernels: off (BANANAS_FAST_START=0 or NUMBA_DISABLE_JIT set)"  # as in tests
    assert lines[2].startswith("numba kernels: ")  # compiled or cached, depending on numba's cache
    assert lines[2].endswith("; checked: a new process loads all 6 entries from the cache")
    assert lines[3].startswith(f"# caches: word lists and compiled kernels in {tmp_path / 'cache'}")
    second = CliRunner().invoke(main, ["warm-up", "--lexicon", path])
    assert second.exit_code == 0
    assert second.stdout.splitlines()[:3] == ["mini.txt: cached", lines[1], "numba kernels: " + CACHED]


CACHED = "cached; checked: a new process loads all 6 entries from the cache"


@pytest.mark.skipif(JIT_DISABLED, reason="warm-up says the JIT is off")
def test_warm_up_never_says_cached_for_kernels_numba_s_cache_does_not_hold(tmp_path, monkeypatch):
    """numba's cache folder empty after the compile (here: the compile made nothing): warm-up
    names what is missing and where, never 'cached'."""
    from solver.search import native

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(native, "compile_entries", dict)  # compiles nothing, binds nothing
    result = CliRunner().invoke(main, ["warm-up", "--lexicon", str(word_list(tmp_path))])
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[2]
    assert line.startswith("numba kernels: NOT cached: no search, hostable_letters, word_letter_counts, lay_grid")
    assert str(tmp_path / "numba") in line and "cached;" not in line


@pytest.mark.slow  # compiles every entry kernel into an empty cache (a minute or more)
def test_warm_up_fills_numba_s_cache_with_every_entry_the_commands_load(tmp_path):
    env = dict(os.environ, BANANAS_CACHE=str(tmp_path / "cache"), NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    run = subprocess.run(
        python_cli("warm-up", "--lexicon", str(word_list(tmp_path))),
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    assert run.returncode == 0, run.stderr
    line = run.stdout.splitlines()[2]
    assert line.startswith("numba kernels: compiled (") and line.endswith("loads all 6 entries from the cache")
    check = "from solver.search import native; print(native.uncached_entries(), native.numba_cache_dir())"
    missing, folder = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, env=env, check=True
    ).stdout.split(" ", 1)
    assert missing == "[]" and folder.strip().startswith(str(tmp_path / "numba"))


def test_warm_up_reports_a_missing_word_list(tmp_path):
    result = CliRunner().invoke(main, ["warm-up", "--lexicon", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no lexicon named") and "Traceback" not in result.output


# -- the README quotes the latest recorded start-up run --------------------------------------


def test_readme_start_up_figures_come_from_the_latest_recorded_run():
    root = Path(__file__).resolve().parents[2]
    latest = sorted((root / "benchmarks" / "results").glob("????-??-??-startup.md"))[-1]
    summary = latest.read_text().split("## Summary (README)\n", 1)[1].strip().splitlines()
    readme = (root / "README.md").read_text()
    block = readme.split("<!-- startup:begin", 1)[1].split("-->", 1)[1].split("<!-- startup:end -->")[0]
    assert block.strip().splitlines() == summary
    assert f"benchmarks/results/{latest.name}" in readme
