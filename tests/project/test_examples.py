"""examples/seat_referee.py, a referee written from docs/PROTOCOL.md with the standard library
only, plays whole games between `bananas engine` processes in both clock modes: every game ends
under the rules and every tile is accounted for (the engines' grids and hands hold exactly what
the referee dealt, stale DUMPs included).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.core.grid import Grid, validate

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "seat_referee.py"
ENGINE = f"{sys.executable} -c 'from solver.cli.engine import engine; engine()'"


def test_the_example_imports_only_the_standard_library():
    tree = ast.parse(EXAMPLE.read_text())
    modules = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    modules |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert modules - {"__future__"} <= set(sys.stdlib_module_names), modules


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "2", "--bots", "easy,greedy", "--seed", "1", "--clock", "instant"],
        pytest.param(
            ["--players", "4", "--bots", "easy,greedy", "--seed", "1", "--clock", "instant"], marks=pytest.mark.slow
        ),
        pytest.param(
            ["--players", "3", "--bots", "easy", "--seed", "2", "--clock", "realtime", "--time-scale", "50"],
            marks=pytest.mark.slow,  # 20 s of wall clock; the realtime seat clock: tests/protocol/test_seat_mode.py
        ),
    ],
    ids=["instant-2", "instant-4", "realtime"],
)
def test_the_example_referee_plays_a_whole_game_between_engine_processes(args, en):
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args, "--engine", ENGINE], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    summary = json.loads(done.stdout)
    assert summary["problems"] == []
    assert summary["outcome"] in ("win", "unawarded"), summary
    assert summary["counts"].get("peels", 0) >= 10
    if summary["outcome"] == "win":
        report = validate(Grid.from_rows(summary["grid"]), en)
        assert report.ok, report.problems()
