"""solver.search.bare: the numpy-free first pass of `bananas solve HAND`, on the compiled
library, agrees with the full solver, and the plain command on it imports no numpy and prints
what the full command prints (which library is found: test_library.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from solver.cli.plain import word_count
from solver.core.grid import Grid, find_words, validate
from solver.core.tiles import ALPHABET, ENGLISH, draw
from solver.search import bare, library
from solver.search.solving import solve

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
pytestmark = pytest.mark.skipif(JIT_DISABLED, reason="the library is compiled code")


@pytest.fixture(scope="module")
def bare_solver(built_library, en):
    layout = json.loads((built_library / library.LAYOUT).read_text())
    lexicon_dir = bare.arrays_dir(bare.arrays_key("en"))
    return bare.BareSolver(built_library / library.LIBRARY, layout, lexicon_dir)


def counts_of(letters: str) -> list[int]:
    return [letters.count(letter) for letter in ALPHABET]


def test_the_first_pass_agrees_with_the_full_solver(bare_solver, en):
    rng = np.random.default_rng(24)
    answered = 0
    hands = [draw(ENGLISH, size, rng) for size in (2, 3, 5, 8, 11, 15, 21, 25, 30) for _ in range(6)]
    for hand in hands:
        found = bare_solver.solve([int(count) for count in hand.counts])
        full = solve(hand, en, time_limit=60)
        if found is None:  # the first pass found no grid: the full solver's later phases decide
            continue
        answered += 1
        rows, nodes = found
        assert full.solved and list(full.grid.rows) == rows and full.nodes == nodes, hand.letters()
        assert validate(Grid.from_rows(rows), en, tiles=hand).ok
    assert answered >= len(hands) * 3 // 4, answered  # most hands end in the first pass


def test_a_hand_out_of_range_is_left_to_the_full_solver(bare_solver):
    assert bare_solver.solve(counts_of("A")) is None
    assert bare_solver.solve(counts_of("E" * 31)) is None
    assert bare_solver.solve(counts_of("QQQQ")) is None  # no grid: the full solver proves it


def test_word_count_counts_runs_across_and_down():
    rows = [".TA.", "CAMP"]
    assert word_count(rows) == len(find_words(Grid.from_rows(rows))) == 4


def test_the_plain_command_imports_no_numpy_and_prints_what_the_full_one_does(built_library, en):
    folder = library.cache_dir()  # the session's BANANAS_CACHE, where `en` is built
    shutil.copytree(built_library, folder)
    script = (
        "import sys\nfrom solver.cli.plain import run\nsys.argv = ['bananas', 'solve', 'aeeirstqunldogcabhmpr']\n"
        "try:\n    run()\nexcept SystemExit as end:\n"
        "    print('exit', end.code, 'numpy' in sys.modules, 'click' in sys.modules, file=sys.stderr)\n"
    )
    runs = {}
    for switch in ("1", "0"):
        env = dict(os.environ, BANANAS_FAST_START="1", BANANAS_BARE=switch)
        runs[switch] = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert runs["1"].stderr.split() == ["exit", "0", "False", "False"]  # answered without numpy or click
    assert runs["0"].stderr.split()[-4:] == ["exit", "0", "True", "True"]
    bare_lines, full_lines = (runs[switch].stdout.splitlines() for switch in ("1", "0"))
    without_ms = [line.split(",")[:2] + line.split(",")[3:] if line.startswith("#") else line for line in bare_lines]
    assert without_ms == [
        line.split(",")[:2] + line.split(",")[3:] if line.startswith("#") else line for line in full_lines
    ]
    assert validate(Grid.from_rows(bare_lines[:-1]), en, tiles=None).ok
    shutil.rmtree(folder)
