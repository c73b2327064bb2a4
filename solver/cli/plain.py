"""The `bananas` console script (`run`), and the plain `bananas solve HAND` (one hand of
letters, default options) on the bare path.

`solver.search.bare` runs the search's first pass without numpy; when it finds a grid, `answer`
prints exactly what `bananas solve HAND` prints (the grid, then its '#' summary line: the
formatting `grids` uses too) and the command is done before click is even imported. Anything
else - other options, a batch, a hand the first pass does not solve, no library built yet -
and `run` hands the arguments to the click group (`solver.cli.main`) as ever.
BANANAS_BARE=0 turns the bare path off.
"""

from __future__ import annotations

import sys
import time

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def run() -> None:
    """The console script: the bare path when it answers, else the whole command line.

    Piped, stdout is line-buffered, so `bananas play | tee` shows each event as it happens
    rather than all of them at exit. Ctrl-C before click runs (or after) exits 130, quietly:
    the group turns it into that exit code while a command runs."""
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a TextIOWrapper
    try:
        if answer(sys.argv[1:]):
            sys.exit(0)
        from solver.cli import main

        main()
    except KeyboardInterrupt:
        sys.exit(130)


def answer(argv: list[str]) -> bool:
    """Print the answer to `argv` (the arguments after `bananas`) and return True when it is a
    plain solve the bare path settles; else print nothing and return False."""
    if len(argv) != 2 or argv[0] != "solve":
        return False
    hand = argv[1].strip().upper()
    if not (hand.isascii() and hand.isalpha()):
        return False
    from solver.search.bare import BareSolver  # here: `bananas --help` need not load ctypes

    try:
        solver = BareSolver.load("en")
    except (OSError, ValueError):  # an unreadable cache or library: the full path reports it
        return False
    if solver is None:
        return False
    started = time.perf_counter()
    found = solver.solve([hand.count(letter) for letter in ALPHABET])
    if found is None:
        return False
    rows, nodes = found
    elapsed_ms = (time.perf_counter() - started) * 1000
    summary = solve_summary("solved", len(hand), word_count(rows), elapsed_ms, nodes)
    sys.stdout.write("\n".join(rows) + "\n" + summary + "\n")
    sys.stdout.flush()
    return True


def word_count(rows: list[str]) -> int:
    """Runs of two or more letters across and down: the grid's words."""
    lines = rows + ["".join(column) for column in zip(*rows, strict=True)]
    return sum(len(run) >= 2 for line in lines for run in line.split("."))


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def solve_summary(status: str, tiles: int, words: int, elapsed_ms: float, nodes: int) -> str:
    """The '#' line under a solve's grid (a comment, so the output is itself a grid file)."""
    return f"# {status}: {plural(tiles, 'tile')}, {plural(words, 'word')}, {elapsed_ms:.0f} ms, {plural(nodes, 'node')}"
