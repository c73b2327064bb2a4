"""Issue 15, finding 9: /dev/zero, huge files and huge counts given to the CLI get one error
line and exit code 2, within a time bound (the engine's bounded line reads are in
tests/protocol/test_hostile_messages.py; the broad sweep is tests/cli/test_fuzz_cli.py).
"""

from __future__ import annotations

import json
import subprocess
import time

import pytest
from click.testing import CliRunner
from helpers import bananas_script

from solver.cli import main as cli


@pytest.fixture(scope="module")
def huge_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("huge") / "huge.txt"
    with open(path, "wb") as stream:  # 100 MB, sparse: no disk written
        stream.truncate(100 << 20)
    return str(path)


@pytest.fixture(scope="module")
def small_grid(tmp_path_factory):
    path = tmp_path_factory.mktemp("grid") / "grid.txt"
    path.write_text(".M.\nCAT\n.P.\n")
    return str(path)


CLI_CASES = {
    "check /dev/zero": ["check", "/dev/zero"],
    "peel --grid /dev/zero": ["peel", "--grid", "/dev/zero", "S"],
    "dump --grid /dev/zero": ["dump", "--grid", "/dev/zero", "--hand", "Q"],
    "check 100 MB grid": ["check", "{huge}"],
    "check 100 MB lexicon": ["check", "{grid}", "--lexicon", "{huge}"],
    "words 100 MB lexicon": ["words", "CAT", "--lexicon", "{huge}"],
    "check --tiles overflow": ["check", "{grid}", "--tiles", "A99999999999999999999"],
    "check --tiles 100 MB file": ["check", "{grid}", "--tiles", "{huge}"],
    "dump --bunch overflow": ["dump", "--grid", "{grid}", "--hand", "Q", "--bunch", "Q99999999999999999999"],
    "tournament --games huge": ["tournament", "--bots", "easy", "--games", "999999999999"],
    "tournament --workers huge": ["tournament", "--bots", "easy", "--games", "2", "--workers", "999999999"],
    "dump --samples huge": ["dump", "--grid", "{grid}", "--hand", "Q", "--samples", "1000000000"],
    "dump --time-per-try inf": ["dump", "--grid", "{grid}", "--hand", "Q", "--time-per-try", "inf"],
    "solve --time-limit nan": ["solve", "CAT", "--time-limit", "nan"],
    "solve --time-limit inf": ["solve", "CAT", "--time-limit", "inf"],
    "solve --seed -1": ["solve", "CAT", "--seed", "-1"],
    "solve --seed huge": ["solve", "CAT", "--seed", "9" * 40],
    "dump --seed -1": ["dump", "--grid", "{grid}", "--hand", "Q", "--seed", "-1"],
    "words 20000 letters": ["words", "E" * 20_000],
    "check 20000-tile grid": ["check", "{dense}"],
}


@pytest.mark.parametrize("name", list(CLI_CASES))
def test_9_every_hostile_cli_input_gets_one_error_line_and_exit_2(name, huge_file, small_grid, tmp_path, en):
    dense = tmp_path / "dense.txt"
    dense.write_text("\n".join(["CAT" * 66 + "CA"] * 100))  # 20,000 letters in 200 KB
    args = [arg.format(huge=huge_file, grid=small_grid, dense=dense) for arg in CLI_CASES[name]]
    started = time.perf_counter()
    result = CliRunner().invoke(cli, args, input=b"")
    assert time.perf_counter() - started < 10.0
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "Traceback" not in result.stderr, result.stderr


def test_9_solve_batch_bounds_a_line_without_end():
    """`bananas solve -` on an endless line (/dev/zero): a bounded read, one error, exit 2."""
    script = bananas_script()
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([script, "check", "-"], stdin=zero, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("error: standard input is larger than")
    data = b"CAT\n" + b"A" * 200_000 + b"\nDOG\n"
    done = subprocess.run([script, "solve", "--json", "-"], input=data, capture_output=True, timeout=120)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [result.get("error", "ok")[:14] for result in results] == ["ok", "line longer th", "ok"]
    assert done.returncode == 2
