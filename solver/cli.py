"""The `bananas` command line: `check`, `words` and `solve`.

Exit codes, for every command: 0 success (valid grid / solved), 1 a well-formed "no"
(invalid grid / not solved), 2 bad usage or input. Input errors print one line starting
with `error: ` on stderr, never a traceback.

`solver.search` (numba) is imported inside `solve` only, so `check` and `words` start
in a fraction of a second.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import click

from .grid import Cell, Grid, GridError, Report, validate
from .lexicon import Lexicon, LexiconError, get_lexicon
from .objectives import OBJECTIVES
from .tiles import DISTRIBUTIONS, TileCounts, TileError, load_distribution

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


# -- commands -------------------------------------------------------------------------

lexicon_option = click.option(
    "--lexicon", default="en", show_default=True, metavar="en|fr|PATH",
    help="Shipped word list name, or a file with one word per line (optionally gzipped).")
min_length_option = click.option(
    "--min-length", type=int, default=2, show_default=True, metavar="2|3",
    help="Shortest word allowed on the grid.")
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bananas")
def main() -> None:
    """Solve and check Bananagrams grids.

    A grid is written one row per line, one letter per cell and '.' for an empty cell
    ('#' lines are comments); its JSON form is a list of row strings. Word lists: the
    shipped 'en' and 'fr', or a path to a file of words.

    Exit codes: 0 valid / solved, 1 invalid / not solved, 2 bad usage or input.

    \b
    Examples:
      bananas solve CATMAP
      bananas solve --json --time-limit 2 - < hands.txt
      bananas check grid.txt --tiles CATMAP
      bananas solve CATMAP --json | bananas check -
      bananas words AEIRST --limit 10
    """


@main.command()
@click.argument("grid_file", metavar="GRID_FILE|-")
@lexicon_option
@click.option("--tiles", metavar="LETTERS|DISTRIBUTION",
              help="Require the grid to use exactly these tiles: letters (CATMAP), en, fr, "
                   "'A13,B3,...' or a file. Defaults to the hand recorded in a solve --json result.")
@min_length_option
@json_option
@reports_input_errors
def check(grid_file: str, lexicon: str, tiles: str | None, min_length: int, as_json: bool) -> None:
    """Validate a grid: words, connectivity and (optionally) the tiles used.

    GRID_FILE holds the grid in text notation, as a JSON list of rows, or as a JSON
    object with a "grid" key (the output of `bananas solve --json`); '-' reads stdin.
    """
    check_min_length(min_length)
    grid, recorded_tiles = parse_grid(read_source(grid_file), source_name(grid_file))
    tiles_spec = tiles if tiles is not None else recorded_tiles
    hand = parse_tiles_option(tiles_spec) if tiles_spec is not None else None
    report = validate(grid, get_lexicon(lexicon), hand, min_length)
    if as_json:
        emit_json({**report.to_json(), "grid": grid.to_json()})
    else:
        print_report(grid, report)
    exit_with(0 if report.ok else 1)


def print_report(grid: Grid, report: Report) -> None:
    highlight = {cell for word in report.invalid_words for cell in word.cells}
    click.echo(draw_grid(grid, highlight, colour_wanted()))
    for problem in report.problems():
        click.echo(problem)
    if report.ok:
        click.echo(f"valid: {plural(len(report.words), 'word')}, {plural(len(grid.cells()), 'tile')}")


@main.command()
@click.argument("letters")
@lexicon_option
@min_length_option
@click.option("--limit", type=int, metavar="N", help="Print at most N words.")
@json_option
@reports_input_errors
def words(letters: str, lexicon: str, min_length: int, limit: int | None, as_json: bool) -> None:
    """List the words formable from LETTERS, longest first."""
    check_min_length(min_length)
    require(limit is None or limit >= 1, f"--limit must be at least 1, got {limit}")
    hand = parse_hand(letters)
    found = [word.upper() for word in get_lexicon(lexicon).formable_words(hand, min_length, limit)]
    if as_json:
        emit_json({"tiles": hand.letters(), "words": found})
    elif found:
        click.echo("\n".join(found))
    else:
        click.echo(f"no words can be formed from {hand.letters()}", err=True)


@main.command()
@click.argument("letters", metavar="LETTERS|-")
@lexicon_option
@min_length_option
@click.option("--time-limit", type=float, default=10.0, show_default=True, metavar="SECONDS",
              help="Wall-clock budget per hand.")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="any", show_default=True,
              help="'any' stops at the first grid; the others keep improving it until the time limit.")
@click.option("--seed", type=int, help="Vary the move order (same seed, same grid).")
@json_option
@reports_input_errors
def solve(letters: str, lexicon: str, min_length: int, time_limit: float, objective: str,
          seed: int | None, as_json: bool) -> None:
    """Build a grid using every tile of LETTERS.

    With '-', read one hand per line from stdin ('#' and blank lines skipped) and write
    one result per hand; start-up and compilation are paid once. In batch mode a bad
    line gets an error result and the batch goes on; the exit code is then 2.
    """
    check_min_length(min_length)
    # `not >=` also rejects NaN, which would make the deadline never arrive.
    require(time_limit >= 0, f"--time-limit must be a number of seconds >= 0, got {time_limit}")
    hand = None if letters == "-" else parse_hand(letters)  # reject bad letters before loading
    solve_hand = make_solver(get_lexicon(lexicon), min_length, time_limit, objective, seed)
    if hand is not None:
        solution = solve_hand(hand)
        print_solution(solution, as_json)
        exit_with(0 if solution.solved else 1)
    exit_with(solve_batch(solve_hand, as_json))


def make_solver(lexicon: Lexicon, min_length: int, time_limit: float, objective: str, seed: int | None):
    from .search import solve as search_solve  # numba: imported only when solving

    def solve_hand(hand: TileCounts):
        return search_solve(hand, lexicon, time_limit=time_limit, objective=objective, seed=seed,
                            min_length=min_length)

    return solve_hand


def print_solution(solution, as_json: bool) -> None:
    if as_json:
        emit_json(solution.to_json())
        return
    if solution.grid is not None:
        click.echo(draw_grid(solution.grid))
    # A '#' line, so the text output is itself a grid file `bananas check` reads.
    summary = (f"# {solution.status}: {plural(len(solution.tiles), 'tile')}, {plural(len(solution.words), 'word')}, "
               f"{solution.elapsed_ms:.0f} ms, {plural(solution.nodes, 'node')}")
    click.echo(summary + (f" ({solution.proof})" if solution.proof else ""))


def solve_batch(solve_hand, as_json: bool) -> int:
    """Solve each hand on stdin; the exit code: 2 if a line was bad, else 0 if all solved, else 1."""
    any_bad, all_solved, count = False, True, 0
    for number, line, text in hand_lines(click.get_binary_stream("stdin")):
        count += 1
        try:
            if line is None:
                raise TileError("line is not UTF-8 text")
            solution = solve_hand(parse_hand(line))
        except INPUT_ERRORS as error:
            any_bad = True
            print_line_error(number, text, describe(error), as_json)
            continue
        all_solved = all_solved and solution.solved
        if not as_json and count > 1:
            click.echo()
        print_solution(solution, as_json)
    require(count > 0, "no hands on standard input")
    return 2 if any_bad else 0 if all_solved else 1


def print_line_error(number: int, text: str, message: str, as_json: bool) -> None:
    if as_json:
        # On stdout, so the output keeps one JSON object per input hand.
        emit_json({"line": number, "input": text, "error": message})
    else:
        click.echo(f"error: line {number}: {message}", err=True)


if __name__ == "__main__":
    main()
