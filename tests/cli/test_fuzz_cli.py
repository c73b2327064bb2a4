"""A fuzz of every CLI command's arguments and input files (issue 15).

Each command starts from a cheap valid invocation; one argument at a time is replaced by a
hostile value (huge, tiny, negative, non-finite, long, pathological whitespace, paths,
devices, huge and binary files). Every run must end within a time bound with exit code
0, 1 or 2, never a traceback; an exit 2 carries one `error: ...` line (click's own usage
errors included). In-process through click's runner, so hundreds of runs cost seconds.
(`bananas engine` is covered by tests/protocol/test_fuzz_protocol.py; `bananas serve` is fuzzed up
to the point where it would serve: it binds port 0 and returns at once.)
"""

from __future__ import annotations

import signal
import time

import pytest
from click.testing import CliRunner
from helpers import without_build_notices

from solver.cli import main as cli

TIME_BOUND = 20.0  # seconds per run (the valid ones solve with a 0.5 s limit or play tiny games)

VALUES = [
    "",
    " ",
    "-1",
    "0",
    "1e999",
    "nan",
    "inf",
    "-inf",
    "9" * 40,
    "A99999999999999999999",
    "x" * 100_000,
    "CAT" * 5000,
    "\x00",
    "é",
    "A1" + " " * 800 + "B" + " " * 800 + "!",
    "../../../../etc/passwd",
    "/dev/zero",
    "{huge}",
    "{binary}",
    "{deep}",
    "{nan_json}",
    "{dir}",
    "{missing}",
    "-",
]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz_cli")
    grid = folder / "grid.txt"
    grid.write_text(".M.\nCAT\n.P.\n")
    huge = folder / "huge.txt"
    with open(huge, "wb") as stream:
        stream.truncate(100 << 20)  # 100 MB, sparse
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 64)
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "nan.json").write_text('{"grid": [".M.", "CAT", ".P."], "tiles": NaN}')
    return {
        "grid": str(grid),
        "huge": str(huge),
        "binary": str(folder / "binary.bin"),
        "deep": str(folder / "deep.json"),
        "nan_json": str(folder / "nan.json"),
        "dir": str(folder),
        "missing": str(folder / "missing.txt"),
        "out": str(folder / "out"),
    }


# Each command: a cheap valid invocation, and which of its arguments the fuzz replaces
# (by position in the list).
COMMANDS = {
    "check": (["check", "{grid}", "--lexicon", "en", "--tiles", "CATMP", "--min-length", "2"], [1, 3, 5, 7]),
    "words": (["words", "CAT", "--lexicon", "en", "--min-length", "2", "--limit", "5"], [1, 3, 5, 7]),
    "solve": (["solve", "CATMAP", "--time-limit", "0.5", "--seed", "1", "--objective", "any"], [1, 3, 5, 7]),
    "peel": (["peel", "S", "--grid", "{grid}", "--time-limit", "0.5", "--min-length", "2"], [1, 3, 5, 7]),
    "dump": (
        [
            "dump",
            "--grid",
            "{grid}",
            "--hand",
            "QS",
            "--bunch",
            "AEIOU",
            "--samples",
            "1",
            "--seed",
            "0",
            "--time-per-try",
            "0.1",
        ],
        [2, 4, 6, 8, 10, 12],
    ),
    "play": (["play", "--players", "2", "--bots", "greedy", "--seed", "1", "--variant", "classic"], [2, 4, 6, 8]),
    "review": (["review", "{grid}", "--json"], [1]),
    "replay": (["replay", "{grid}", "--svg-dir", "{out}"], [1, 3]),
    "tournament": (
        [
            "tournament",
            "--bots",
            "greedy",
            "--games",
            "1",
            "--players",
            "1",
            "--variant",
            "solo",
            "--seed",
            "0",
            "--workers",
            "1",
            "--json",
            "{out}.json",
        ],
        [2, 4, 6, 10, 12],  # not --json: an output path, any name that can be written is valid
    ),
    "spellevate": (["spellevate", "--players", "3", "--rounds", "1", "--seed", "0", "--bots", "simple"], [2, 4, 6, 8]),
    "ladder": (
        ["ladder", "--bots", "greedy,greedy", "--games", "2", "--players", "2", "--seed", "0", "--workers", "1"],
        [2, 4, 6, 8, 10],
    ),
    "serve": (
        [
            "serve",
            "--port",
            "0",
            "--rate",
            "20",
            "--room-idle",
            "60",
            "--absent",
            "60",
            "--distribution",
            "A13,B3",
            "--seed",
            "1",
            "--bot",
            "easy=easy",
            "--idle-timeout",
            "60",
            "--engine-rate",
            "50",
            "--max-message",
            "65536",
            "--max-rooms",
            "10",
            "--spellevate-delay",
            "0.5",
            "--db",
            "none",
        ],
        [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24],
    ),
}


class Overtime(Exception):
    pass


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """Hostile values land in output options (--json FILE, --svg FILE): write them in a
    scratch folder, never in the checkout. `serve` checks its settings, binds, and returns
    instead of serving."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("solver.web.uvicorn_runner.serve_forever", lambda sock, config: sock.close())


def run_within_bound(args: list[str]) -> tuple[object, float]:
    def alarm(signum, frame):
        raise Overtime

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(int(TIME_BOUND) + 10)  # a hang fails this run instead of the whole test session
    started = time.perf_counter()
    try:
        result = CliRunner().invoke(cli, args, input=b"CAT\n")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return result, time.perf_counter() - started


def problems_of(args: list[str], result, elapsed: float) -> list[str]:
    shown = " ".join(arg[:40] for arg in args)
    problems = []
    if isinstance(result.exception, Overtime) or elapsed > TIME_BOUND:
        problems.append(f"{elapsed:.1f} s: {shown}")
    if result.exit_code not in (0, 1, 2) or result.exception and not isinstance(result.exception, SystemExit):
        problems.append(f"exit {result.exit_code} ({result.exception!r}): {shown}")
    stderr = without_build_notices(result.stderr)  # a first run's build may be announced first
    if "Traceback" in stderr or "Traceback" in result.output:
        problems.append(f"traceback: {shown}")
    if result.exit_code == 2:
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("error: "):
            problems.append(f"not one error line ({stderr[:300]!r}): {shown}")
    return problems


@pytest.mark.parametrize("command", list(COMMANDS))
def test_hostile_arguments_and_files(command, files, en, capsys):
    base, positions = COMMANDS[command]
    problems, runs, slowest, started = [], 0, 0.0, time.perf_counter()
    for position in positions:
        for value in VALUES:
            args = [arg.format(**files) for arg in base]
            args[position] = value.format(**files) if value.startswith("{") else value
            result, elapsed = run_within_bound(args)
            runs += 1
            slowest = max(slowest, elapsed)
            problems += problems_of(args, result, elapsed)
    with capsys.disabled():
        print(f"\n{command}: {runs} runs in {time.perf_counter() - started:.1f} s, slowest {slowest:.1f} s")
    assert not problems, "\n".join(problems[:20])


STDIN = {
    "nul": b"\x00" * 300_000,
    "binary": b"\xff\xfe" * 1000 + b"\n",
    "deep": b"[" * 200_000,
    "long": b"A" * 2_000_000,
}


@pytest.mark.parametrize("stdin", list(STDIN))
@pytest.mark.parametrize("command", [["check", "-"], ["solve", "-", "--time-limit", "0.2"]], ids=["check", "solve"])
def test_hostile_standard_input(command, stdin, en):
    started = time.perf_counter()
    result = CliRunner().invoke(cli, command, input=STDIN[stdin])
    assert time.perf_counter() - started < TIME_BOUND
    assert not problems_of(command, result, 0.0)
    assert result.exit_code == 2
