"""Helpers shared by every `bananas` command: one way to report input errors (one `error: ...`
line, exit 2), to read hands, grids and tile specs, to draw grids, and the common options."""

from __future__ import annotations

import functools
import json
import math
import os
import sys
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import NoReturn

import click

from solver.core.grid import MIN_WORD_LENGTHS, Cell, Grid, GridError
from solver.core.limits import (
    MAX_ERROR_CHARS,
    MAX_GAME_TILES,
    MAX_GRID_BYTES,
    MAX_GRID_TILES,
    MAX_LINE_BYTES,
    MAX_SECONDS,
    MAX_SEED,
)
from solver.core.tiles import TileCounts, TileError, load_tiles, shown_characters, typed_letters
from solver.lexicon.loader import LexiconError, with_offensive

# Input bounds: every input is read up to its bound, never further (a 100 MB file, /dev/zero).

INPUT_ERRORS = (TileError, LexiconError, GridError, ValueError, OSError, UnicodeDecodeError)


# -- errors ---------------------------------------------------------------------------


def describe(error: Exception) -> str:
    """One line for the user; OSError's own str() carries an errno prefix."""
    if isinstance(error, OSError) and error.strerror:
        where = f" {error.filename}" if error.filename is not None else ""
        message = f"cannot read{where}: {error.strerror}"
    elif isinstance(error, UnicodeDecodeError):
        message = f"input is not UTF-8 text ({bad_byte(error)})"
    else:
        message = str(error) or type(error).__name__
    message = " ".join(message.splitlines())
    return message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - 3] + "..."


def bad_byte(error: UnicodeDecodeError) -> str:
    """Where UTF-8 decoding failed, the byte shown as the byte: "byte '\\xff' at byte 1"."""
    where = error.start + 1
    return f"byte {shown_characters(chr(0xDC00 + error.object[error.start]))} at byte {where}"


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
    require(min_length in MIN_WORD_LENGTHS, f"--min-length must be 2 or 3, got {min_length}")


def check_seconds(value: float, option: str, positive: bool = False) -> None:
    """A time option: a finite number of seconds, >= 0 (> 0 when `positive`), at most a day."""
    low_ok = value > 0 if positive else value >= 0  # False for NaN
    require(
        low_ok and math.isfinite(value) and value <= MAX_SECONDS,
        f"{option} must be a number of seconds {'>' if positive else '>='} 0 and at most {MAX_SECONDS:.0f}, "
        f"got {value}",
    )


def check_seed(seed: int | None, option: str = "--seed") -> None:
    require(seed is None or 0 <= seed <= MAX_SEED, f"{option} must be an integer from 0 to {MAX_SEED}, got {seed}")


def check_count(value: int, option: str, low: int, high: int) -> None:
    require(low <= value <= high, f"{option} must be from {low} to {high}, got {value}")


# -- input ----------------------------------------------------------------------------


def parse_hand(letters: str) -> TileCounts:
    """Tiles from letters such as 'catmap' (any case): `typed_letters`, the one reading of typed
    tiles, which the solve API shares. Accents and ligatures are folded as the word lists fold
    them (ÉCOLE is ECOLE, Œ is OE), in any language, since tiles are A-Z; at most a double set
    (288 tiles, the API's limit too: a bigger hand is refused at once, not searched for seconds
    in vain); anything else is rejected, each bad character named."""
    typed = letters.strip()
    if not typed:
        raise TileError("no tiles given")
    # Spaces between letters are refused here (the API's JSON strings may hold them): 'C T' is
    # more likely two arguments run together than one hand.
    return TileCounts.from_letters(typed_letters(typed, MAX_GAME_TILES, shown_text(typed), spaces=False))


def shown_text(text: str, limit: int = 24) -> str:
    """A piece of the input for an error line: quoted, cut short, a byte that was not UTF-8 (a
    command line's surrogate escape) as that byte."""
    cut = text if len(text) <= limit else text[:limit] + "..."
    return "'" + "".join(shown_characters(char)[1:-1] if not char.isprintable() else char for char in cut) + "'"


def parse_tiles_option(spec: str) -> TileCounts:
    """--tiles: plain letters ('CATMAP'), or a distribution: en, fr, 'A13,B3,...' or a file
    (`solver.core.tiles.spec_kind` says which)."""
    try:
        return load_tiles(spec, MAX_GAME_TILES)  # the solve API's limit too
    except TileError as error:
        raise TileError(f"--tiles: {error}") from None


def source_name(source: str) -> str:
    return "standard input" if source == "-" else source


def read_source(source: str, limit: int = MAX_GRID_BYTES) -> str:
    """The text of a file, or of standard input for '-': at most `limit` bytes."""
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        with Path(source).open("rb") as stream:
            data = stream.read(limit + 1)
    if len(data) > limit:
        raise GridError(f"{source_name(source)} is larger than {limit >> 10} KB: not a grid")
    try:
        return data.decode("utf-8-sig")  # -sig: a byte-order mark is not part of the grid
    except UnicodeDecodeError as error:
        raise GridError(f"{source_name(source)} is not UTF-8 text ({bad_byte(error)})") from None


def parse_grid(text: str, name: str) -> tuple[Grid, str | None]:
    """The grid, and the hand recorded beside it when the input is a `solve --json` result."""
    stripped = text.lstrip()
    try:
        if not stripped.startswith(("[", "{")):
            return check_grid_size(Grid.parse(text, accents=True)), None  # CAFÉ is CAFE, as in a hand
        grid = check_grid_size(Grid.from_json(stripped, accents=True))  # checks the JSON and its shape first
    except GridError as error:
        raise GridError(f"{name}: {error}") from None
    except RecursionError:
        raise GridError(f"{name}: JSON nested too deeply") from None
    data = json.loads(stripped)
    recorded = data.get("tiles") if isinstance(data, dict) else None
    return grid, recorded if isinstance(recorded, str) else None


def check_grid_size(grid: Grid) -> Grid:
    tiles = sum(len(row) - row.count(".") for row in grid.rows)
    if tiles > MAX_GRID_TILES:
        raise GridError(f"the grid holds {tiles} tiles: at most {MAX_GRID_TILES}")
    return grid


def hand_lines(stream) -> Iterator[tuple[int, str | None, str]]:
    """(line number, hand or None when unreadable, text or the reason) for each hand on a
    byte stream. Lines are decoded one at a time so that one bad line is reported alone; a
    line longer than MAX_LINE_BYTES is reported as such, and only that much of it is held.
    """
    for number, raw in enumerate(bounded_lines(stream), start=1):
        if raw is None:
            yield number, None, f"line longer than {MAX_LINE_BYTES >> 10} KB"
            continue
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as error:
            yield number, None, f"line is not UTF-8 text ({bad_byte(error)})"
            continue
        if line and not line.startswith("#"):
            yield number, line, line


def bounded_lines(stream) -> Iterator[bytes | None]:
    """The lines of a byte stream; None for a line longer than MAX_LINE_BYTES (skipped)."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) <= MAX_LINE_BYTES or line.endswith(b"\n"):
            yield line
            continue
        while line and not line.endswith(b"\n"):  # the rest of the overlong line
            line = stream.readline(MAX_LINE_BYTES)
        yield None


# -- output ---------------------------------------------------------------------------


def colour_wanted() -> bool:
    """ANSI colours only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def draw_grid(grid: Grid, highlight: AbstractSet[Cell] = frozenset(), colour: bool = False) -> str:
    def cell(row: int, col: int, letter: str) -> str:
        if colour and (row, col) in highlight:
            return click.style(letter, fg="red", bold=True)
        return letter

    return "\n".join("".join(cell(r, c, ch) for c, ch in enumerate(line)) for r, line in enumerate(grid.rows))


def emit_json(data: object) -> None:
    click.echo(json.dumps(data))  # click.echo flushes: batch results stream out one by one


def exit_with(code: int) -> NoReturn:
    click.get_current_context().exit(code)


# -- options --------------------------------------------------------------------------

lexicon_option = click.option(
    "--lexicon",
    default="en",
    show_default=True,
    metavar="en|en@LEVEL|fr|PATH",
    help="Shipped word list name, or a file with one word per line (optionally gzipped). "
    "en@35, en@50, en@60, en@70, en@80: the English words up to that vocabulary level "
    "(en@50: common words, as the beginner bots know them).",
)


def offensive_option(command: Callable) -> Callable:
    """--allow-offensive for a command with --lexicon: its `lexicon` argument then keeps the
    shipped list's offensive words in the searches (the loader's offensive mark)."""

    @functools.wraps(command)
    def with_flag(*args, allow_offensive: bool = False, **kwargs):
        kwargs["lexicon"] = with_offensive(kwargs["lexicon"], allow_offensive)
        return command(*args, **kwargs)

    return click.option(
        "--allow-offensive",
        is_flag=True,
        help="Let the search lay and list slurs and profanity too (left out by default: "
        "lexicons/README.md). `check` accepts them as words either way.",
    )(with_flag)


min_length_option = click.option(
    "--min-length", type=int, default=2, show_default=True, metavar="2|3", help="Shortest word allowed on the grid."
)
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
