"""Every example command line runs: the ones under "Examples:" in the help of the
group and of each command, and the README's `$ bananas ...` sessions (issue 38: the example
`bananas spellevate --human --bots planner` was refused). An example that drifts from its
command's options, or needs a table it does not fill, fails here.

Each help text's examples run in order in one scratch folder (the `review` examples read the
log the first one writes), in-process, with the small shell they use: `|`, `<`, `>` and
`echo`. The folder starts with what the group's examples name: `grid.txt` (a solved CATMAP) and
`hands.txt`. Series are shortened (`--games 1`, rounded up to whole rotation groups; a study
to `--trials 2`; also where a line leaves them at their defaults) so the
sweep stays cheap; a `--human` game gets `quit` on stdin (the table is set, the first turn
shown, then the person leaves); a `--scheduler` example plays on a
local Dask cluster (slow: tests/play/test_cluster.py is the quick test of `--scheduler`).

The README's sessions also show what a command prints: the lines under a `$ bananas ...` line,
to the next one or the block's end, are compared with what it prints (issue 38: the first
`bananas solve` sample showed another grid than the command's), so a sample cannot go stale.
Times (`2 ms`) are any time; a sample that ends in `...` is the output's first lines; a JSON
sample is the same object wrapped as it reads best, any `elapsed_ms`. A line whose series is
shortened here prints another output than its sample: none is compared.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from helpers import run_cli

from solver.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
GRID_HAND = "CATMAP"  # the hand of the grid.txt the examples check, peel from and dump from
HANDS = "CATMAP\nAEIRST\n"
COSTLY_SETS = {"bananas tune", "bananas ladder"}  # a study; a ladder of real games (~20 s)
SHORT_SERIES = {"--games": "1", "--trials": "2"}  # a series' size in the sweep, whatever the line says
PROMPT = re.compile(r"^\s*\$ (.*bananas .*)$")


def help_examples() -> dict[str, list[str]]:
    """'bananas' and 'bananas COMMAND' -> the example lines of that help text, in order."""
    texts = {"bananas": main.help or ""}
    texts.update({f"bananas {name}": main.get_command(None, name).help or "" for name in COMMANDS})
    return {
        name: [line.strip() for line in text.splitlines() if line.strip().startswith("bananas ")]
        for name, text in texts.items()
    }


def readme_sessions() -> dict[str, list[str]]:
    """The README's `$ bananas ...` lines, in order, each with the output shown under it: the
    lines indented as it is, up to the next prompt, the end of a fenced block, or a line less
    indented (blank lines within belong to the output; trailing ones do not)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    sessions: dict[str, list[str]] = {}
    for at, line in enumerate(lines):
        match = PROMPT.match(line)
        if match is None:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        shown = []
        for following in lines[at + 1 :]:
            if PROMPT.match(following) or following.startswith("```"):
                break
            if following.strip() and not following.startswith(indent):
                break
            shown.append(following[len(indent) :])
        while shown and not shown[-1].strip():
            shown.pop()
        sessions[match.group(1)] = shown
    return sessions


def readme_examples() -> list[str]:
    return list(readme_sessions())


def normalized(lines: list[str]) -> list[str]:
    """Output lines with every time (`2 ms`, `0.4 ms`) made the same."""
    return [re.sub(r"\b\d+(\.\d+)? ms\b", "N ms", line.rstrip()) for line in lines]


def assert_shown_as_printed(line: str, shown: list[str], printed: str) -> None:
    """README's sample `shown` under `line` is what the command `printed` (see the docstring)."""
    if len(shown) > 1 and shown[0].startswith("{"):
        expected, actual = json.loads(" ".join(shown)), json.loads(printed)
        for data in (expected, actual):
            data.pop("elapsed_ms", None)
        assert actual == expected, f"README's sample of `{line}` is stale; it prints:\n{printed}"
        return
    expected = normalized(shown)
    actual = normalized(printed.splitlines())
    if expected and expected[-1] == "...":
        expected, actual = expected[:-1], actual[: len(expected) - 1]
    assert actual == expected, f"README's sample of `{line}` is stale; it prints:\n{printed}"


def example_sets() -> list:
    """One set per help text (and the README), its lines run in order on one local process;
    as slow sets of their own, the lines up to the last that names --workers with their worker
    processes (the ones after it ran in the local set already, and need nothing it writes), and
    the lines that need a Dask cluster."""
    sets = [(name, lines) for name, lines in help_examples().items() if lines]
    sets.append(("README.md", readme_examples()))
    params = []
    for name, lines in sets:
        local = [line for line in lines if "--scheduler" not in line]
        on_cluster = [line for line in lines if "--scheduler" in line]
        costly = name in COSTLY_SETS  # a study: slow even at two trials of one game
        params.append(pytest.param(local, False, id=name, marks=[pytest.mark.slow] if costly else []))
        with_workers = [at for at, line in enumerate(local) if "--workers" in line]
        if with_workers:
            upto = local[: with_workers[-1] + 1]
            params.append(pytest.param(upto, True, id=f"{name} --workers", marks=pytest.mark.slow))
        if on_cluster:
            params.append(pytest.param(on_cluster, True, id=f"{name} --scheduler", marks=pytest.mark.slow))
    return params


EXAMPLE_SETS = example_sets()


def test_the_help_texts_and_the_readme_have_examples():
    names = {param.id for param in EXAMPLE_SETS}
    assert {"bananas", "bananas play", "bananas spellevate", "bananas tournament", "README.md"} <= names
    assert all(param.values[0] for param in EXAMPLE_SETS)


def test_the_readme_shows_what_its_sessions_print():
    """The samples are read as the README lays them out (the comparison itself runs in
    test_every_example_runs)."""
    sessions = readme_sessions()
    assert sessions["bananas solve AEEIRSTQUNLDOGCABHMPR"][-1].startswith("# solved: 21 tiles, ")
    assert sessions["bananas solve AACMPT --json"][0].startswith('{"tiles": "AACMPT"')
    assert sessions["bananas play --players 2 --bots reckless,easy --seed 8 --json > game.jsonl"] == []
    review = sessions["bananas review game.jsonl"]
    assert review[0].startswith("== hand 1: ") and "" in review and review[-1] == "..."


def shortened(args: list[str], scheduler: str | None, workers: bool) -> list[str]:
    """The example's arguments with its series cut to one rotation group, its cluster ours,
    and (unless `workers`) its games played in this process."""
    out = list(args)
    defaults = {opt: param.default for param in main.get_command(None, args[0]).params for opt in param.opts}
    for option, size in SHORT_SERIES.items():
        if option not in out and isinstance(defaults.get(option), int) and defaults[option] > int(size):
            out += [option, size]  # the line leaves a long series at its default
    for index, arg in enumerate(out[:-1]):
        if arg in SHORT_SERIES:
            out[index + 1] = SHORT_SERIES[arg]
        elif arg == "--workers" and not workers:
            out[index + 1] = "1"
        elif arg == "--scheduler":
            assert scheduler is not None
            out[index + 1] = scheduler
    return out


def run_line(line: str, scheduler: str | None = None, workers: bool = False) -> str | None:
    """One example line: `echo TEXT |`, `bananas ARGS [< FILE] [> FILE]`, joined by `|`. What
    it prints, unless a series was shortened (then None: not what the line prints)."""
    text: str | None = None
    as_written = True
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
        run_args = shortened(args, scheduler, workers)
        as_written = as_written and run_args == args
        result = run_cli(*run_args, input=text)
        assert result.exit_code == 0, f"{line}\n{result.output}"
        assert "Traceback" not in result.output
        if target is not None:
            Path(target).write_text(result.stdout)
        text = result.stdout
    return text if as_written else None


@pytest.fixture
def scheduler(request):
    """A local Dask cluster's address, started only for an example that names a scheduler."""
    if not any("--scheduler" in line for line in request.getfixturevalue("lines")):
        yield None
        return
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize(("lines", "workers"), EXAMPLE_SETS)
def test_every_example_runs(lines, workers, scheduler, tmp_path, monkeypatch, en, request):
    monkeypatch.chdir(tmp_path)
    solved = run_cli("solve", GRID_HAND)
    assert solved.exit_code == 0, solved.output
    Path("grid.txt").write_text(solved.stdout)
    Path("hands.txt").write_text(HANDS)
    shown = readme_sessions() if request.node.callspec.id.startswith("README.md") else {}
    for line in lines:
        printed = run_line(line, scheduler, workers)
        if shown.get(line) and printed is not None:
            assert_shown_as_printed(line, shown[line], printed)
