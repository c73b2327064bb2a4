"""Helpers shared by every `bananas` command: one way to report input errors (one `error: ...`
line, exit 2), to read hands, grids and tile specs, to draw grids, and the common options."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import click

from solver.core.grid import Cell, Grid, GridError
from solver.core.tiles import DISTRIBUTIONS, TileCounts, TileError, load_distribution
from solver.lexicon.loader import LexiconError

MIN_LENGTHS = (2, 3)

INPUT_ERRORS = (TileError, LexiconError, GridError, ValueError, OSError, UnicodeDecodeError)


# -- errors ---------------------------------------------------------------------------

def describe(error: Exception) -> str:
    """One line for the user; OSError's own str() carries an errno prefix."""
    if isinstance(error, OSError) and error.strerror:
        where = f" {error.filename}" if error.filename is not None else ""
        message = f"cannot read{where}: {error.strerror}"
    elif isinstance(error, UnicodeDecodeError):
        message = "input is not UTF-8 text"
    else:
        message = str(error) or type(error).__name__
    return " ".join(message.splitlines())


def fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def silence_stdout() -> None:
    """Point stdout at /dev/null so Python's flush at exit cannot raise BrokenPipeError again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. captured output)
        pass


def reports_input_errors(command: Callable) -> Callable:
    """Turn input errors raised by a command body into `error: ...` and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            # The reader went away (`bananas words ... | head`): not an error to report.
            silence_stdout()
            sys.exit(1)
        except INPUT_ERRORS as error:
            fail(describe(error))

    return wrapper


def require(condition: bool, message: str) -> None:
    # ValueError, so the message reaches the user through `reports_input_errors`.
    if not condition:
        raise ValueError(message)


def check_min_length(min_length: int) -> None:
    require(min_length in MIN_LENGTHS, f"--min-length must be 2 or 3, got {min_length}")


# -- input ----------------------------------------------------------------------------

def parse_hand(letters: str) -> TileCounts:
    """Tiles from letters such as 'catmap' (any case); anything else is rejected."""
    hand = letters.strip()
    if not hand:
        raise TileError("no tiles given")
    bad = sorted({ch for ch in hand if not (ch.isascii() and ch.isalpha())})
    if bad:
        raise TileError(f"{hand!r} has characters other than the letters A-Z: {''.join(bad)!r}")
    return TileCounts.from_letters(hand)


def parse_tiles_option(spec: str) -> TileCounts:
    """--tiles: plain letters ('CATMAP'), or a distribution: en, fr, 'A13,B3,...' or a file."""
    try:
        if spec not in DISTRIBUTIONS and spec.strip().isascii() and spec.strip().isalpha():
            return parse_hand(spec)
        return load_distribution(spec)
    except TileError as error:
        raise TileError(f"--tiles: {error}") from None


def source_name(source: str) -> str:
    return "standard input" if source == "-" else source


def read_source(source: str) -> str:
    """The text of a file, or of standard input for '-'."""
    data = click.get_binary_stream("stdin").read() if source == "-" else Path(source).read_bytes()
    try:
        return data.decode("utf-8-sig")  # -sig: a byte-order mark is not part of the grid
    except UnicodeDecodeError:
        raise GridError(f"{source_name(source)} is not UTF-8 text") from None


def parse_grid(text: str, name: str) -> tuple[Grid, str | None]:
    """The grid, and the hand recorded beside it when the input is a `solve --json` result."""
    stripped = text.lstrip()
    try:
        if not stripped.startswith(("[", "{")):
            return Grid.parse(text), None
        grid = Grid.from_json(stripped)  # checks the JSON and its shape first
    except GridError as error:
        raise GridError(f"{name}: {error}") from None
    data = json.loads(stripped)
    recorded = data.get("tiles") if isinstance(data, dict) else None
    return grid, recorded if isinstance(recorded, str) else None


def hand_lines(stream) -> Iterator[tuple[int, str | None, str]]:
    """(line number, hand or None when undecodable, text) for each hand on a byte stream.

    Lines are decoded one at a time so that one bad line is reported alone.
    """
    for number, raw in enumerate(stream, start=1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            yield number, None, raw.decode("utf-8", "replace").strip()
            continue
        if line and not line.startswith("#"):
            yield number, line, line


# -- output ---------------------------------------------------------------------------

def colour_wanted() -> bool:
    """ANSI colours only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def draw_grid(grid: Grid, highlight: set[Cell] = frozenset(), colour: bool = False) -> str:
    def cell(row: int, col: int, letter: str) -> str:
        if colour and (row, col) in highlight:
            return click.style(letter, fg="red", bold=True)
        return letter

    return "\n".join("".join(cell(r, c, ch) for c, ch in enumerate(line)) for r, line in enumerate(grid.rows))


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def emit_json(data: object) -> None:
    click.echo(json.dumps(data))  # click.echo flushes: batch results stream out one by one


def exit_with(code: int) -> NoReturn:
    click.get_current_context().exit(code)


# -- options --------------------------------------------------------------------------

lexicon_option = click.option(
    "--lexicon", default="en", show_default=True, metavar="en|fr|PATH",
    help="Shipped word list name, or a file with one word per line (optionally gzipped).")
min_length_option = click.option(
    "--min-length", type=int, default=2, show_default=True, metavar="2|3",
    help="Shortest word allowed on the grid.")
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")

