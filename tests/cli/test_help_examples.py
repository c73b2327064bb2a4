"""Every example command line runs: the ones under "Examples:" in the help of the
group and of each command, and the README's `$ bananas ...` sessions (issue 38: the example
`bananas spellevate --human --bots planner` was refused). An example that drifts from its
command's options, or needs a table it does not fill, fails here.

Each help text's examples run in order in one scratch folder (the `review` examples read the
log the first one writes), in-process, with the small shell they use: `|`, `<`, `>` and
`echo`. The folder starts with what the group's examples name: `grid.txt` (a solved CATMAP) and
`hands.txt`. Series are shortened (`--games 1`, rounded up to whole rotation groups) so the
sweep stays cheap; a `--human` game gets `quit` on stdin (the table is set, the first turn
shown, then the person leaves); a `--scheduler` example plays on a
local Dask cluster (slow: tests/play/test_cluster.py is the quick test of `--scheduler`).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from helpers import run_cli

from solver.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
GRID_HAND = "CATMAP"  # the hand of the grid.txt the examples check, peel from and dump from
HANDS = "CATMAP\nAEIRST\n"
PROMPT = re.compile(r"^\s*\$ (.*bananas .*)$")


def help_examples() -> dict[str, list[str]]:
    """'bananas' and 'bananas COMMAND' -> the example lines of that help text, in order."""
    texts = {"bananas": main.help or ""}
    texts.update({f"bananas {name}": main.get_command(None, name).help or "" for name in COMMANDS})
    return {
        name: [line.strip() for line in text.splitlines() if line.strip().startswith("bananas ")]
        for name, text in texts.items()
    }


def readme_examples() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [match.group(1) for match in map(PROMPT.match, lines) if match]


def example_sets() -> list:
    """One set per help text (and the README), its lines run in order on one local process;
    as slow sets of their own, the same lines with their worker processes, and the lines that
    need a Dask cluster."""
    sets = [(name, lines) for name, lines in help_examples().items() if lines]
    sets.append(("README.md", readme_examples()))
    params = []
    for name, lines in sets:
        local = [line for line in lines if "--scheduler" not in line]
        on_cluster = [line for line in lines if "--scheduler" in line]
        params.append(pytest.param(local, False, id=name))
        if any("--workers" in line for line in local):
            params.append(pytest.param(local, True, id=f"{name} --workers", marks=pytest.mark.slow))
        if on_cluster:
            params.append(pytest.param(on_cluster, True, id=f"{name} --scheduler", marks=pytest.mark.slow))
    return params


EXAMPLE_SETS = example_sets()


def test_the_help_texts_and_the_readme_have_examples():
    names = {param.id for param in EXAMPLE_SETS}
    assert {"bananas", "bananas play", "bananas spellevate", "bananas tournament", "README.md"} <= names
    assert all(param.values[0] for param in EXAMPLE_SETS)


def shortened(args: list[str], scheduler: str | None, workers: bool) -> list[str]:
    """The example's arguments with its series cut to one rotation group, its cluster ours,
    and (unless `workers`) its games played in this process."""
    out = list(args)
    for index, arg in enumerate(out[:-1]):
        if arg == "--games":
            out[index + 1] = "1"
        elif arg == "--workers" and not workers:
            out[index + 1] = "1"
        elif arg == "--scheduler":
            assert scheduler is not None
            out[index + 1] = scheduler
    return out


def run_line(line: str, scheduler: str | None = None, workers: bool = False) -> None:
    """One example line: `echo TEXT |`, `bananas ARGS [< FILE] [> FILE]`, joined by `|`."""
    text: str | None = None
    stages = [stage.strip() for stage in line.split(" | ")]
    for stage in stages:
        words = shlex.split(stage)
        if words[0] == "echo":
            text = " ".join(words[1:]) + "\n"
            continue
        assert words[0] == "bananas", line
        args, target = words[1:], None
        if "<" in args:
            at = args.index("<")
            text = Path(args[at + 1]).read_text()
            del args[at : at + 2]
        if ">" in args:
            at = args.index(">")
            target = args[at + 1]
            del args[at : at + 2]
        if "--human" in args:
            text = "quit\n"  # sit down, see the first turn, leave
        result = run_cli(*shortened(args, scheduler, workers), input=text)
        assert result.exit_code == 0, f"{line}\n{result.output}"
        assert "Traceback" not in result.output
        if target is not None:
            Path(target).write_text(result.stdout)
        text = result.stdout


@pytest.fixture
def scheduler(request):
    """A local Dask cluster's address, started only for an example that names a scheduler."""
    if not any("--scheduler" in line for line in request.getfixturevalue("lines")):
        yield None
        return
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize(("lines", "workers"), EXAMPLE_SETS)
def test_every_example_runs(lines, workers, scheduler, tmp_path, monkeypatch, en):
    monkeypatch.chdir(tmp_path)
    solved = run_cli("solve", GRID_HAND)
    assert solved.exit_code == 0, solved.output
    Path("grid.txt").write_text(solved.stdout)
    Path("hands.txt").write_text(HANDS)
    for line in lines:
        run_line(line, scheduler, workers)
