"""The `bananas` command line: `check`, `words`, `solve`, and `peel` and `dump` for live play.

Exit codes, for every command: 0 success (valid grid / solved), 1 a well-formed "no"
(invalid grid / not solved), 2 bad usage or input. Input errors print one line starting
with `error: ` on stderr, never a traceback.

`solver.search.solving` (numba) is imported inside `solve`, `peel` and `dump` only, so `check`
and `words` start in a fraction of a second.
"""

from __future__ import annotations

import sys
from collections import Counter

import click

from solver.cli.common import (
    INPUT_ERRORS,
    check_count,
    check_min_length,
    check_seconds,
    check_seed,
    colour_wanted,
    describe,
    draw_grid,
    emit_json,
    exit_with,
    hand_lines,
    json_option,
    lexicon_option,
    min_length_option,
    offensive_option,
    parse_grid,
    parse_hand,
    parse_tiles_option,
    read_source,
    reports_input_errors,
    require,
    source_name,
)
from solver.cli.outputs import check_writable, write_file, write_text
from solver.cli.plain import plural, solve_summary
from solver.cli.warmup import KernelPrep, notices_wanted
from solver.core.grid import Grid, Report, check_tile_room, validate
from solver.core.limits import MAX_DUMP_SAMPLES, MAX_GAME_TILES
from solver.core.tiles import TileCounts, TileError, load_tiles, spec_kind
from solver.lexicon.loader import Lexicon, get_lexicon, language_of
from solver.search.objectives import OBJECTIVES

PICTURE_HELP = "Also draw the grid into FILE: SVG, or PNG for FILE.png (needs the 'plots' extra)."


@click.command()
@click.argument("grid_file", metavar="GRID_FILE|-")
@lexicon_option
@click.option(
    "--tiles",
    metavar="LETTERS|DISTRIBUTION",
    help="Require the grid to use exactly these tiles: letters (CATMAP), en, fr, "
    "'A13,B3,...' or a file. Defaults to the hand recorded in a solve --json result.",
)
@min_length_option
@json_option
@click.option("--svg", "picture", metavar="FILE", help=PICTURE_HELP + " Invalid words are outlined in red.")
@reports_input_errors
def check(grid_file: str, lexicon: str, tiles: str | None, min_length: int, as_json: bool, picture: str | None) -> None:
    """Validate a grid: words, connectivity and (optionally) the tiles used.

    GRID_FILE holds the grid in text notation, as a JSON list of rows, or as a JSON
    object with a "grid" key (the output of `bananas solve --json`); '-' reads stdin.

    Positions: the text counts rows and columns from 1 ('row 3, column 1', also in the
    JSON's "problems"); the JSON's "cells" are [row, col] indexes from 0 into the grid's
    rows, as in the engine protocol ([2, 0] for row 3, column 1).
    """
    check_min_length(min_length)
    check_picture(picture)
    grid, recorded_tiles = parse_grid(read_source(grid_file), source_name(grid_file))
    tiles_spec = tiles if tiles is not None else recorded_tiles
    hand = parse_tiles_option(tiles_spec) if tiles_spec is not None else None
    report = validate(grid, get_lexicon(lexicon), hand, min_length)
    if as_json:
        emit_json({**report.to_json(), "grid": grid.to_json()})
    else:
        print_report(grid, report)
    if picture is not None:
        save_picture(picture, grid, report)
    exit_with(0 if report.ok else 1)


def check_picture(path: str | None) -> None:
    """--svg: the format and the folder, checked before any work."""
    if path is None:
        return
    if path.lower().endswith(".png"):
        from solver.play.plots import require_matplotlib

        require_matplotlib("--svg FILE.png")
    check_writable(path, "--svg")


def save_picture(path: str, grid: Grid, report: Report | None = None) -> None:
    """The grid's picture (`solver.core.svg`), written whole; a note on stderr."""
    if path.lower().endswith(".png"):
        from solver.play.plots import save_grid_png

        write_file(path, lambda temp: save_grid_png(grid, temp, report))
    else:
        from solver.core.svg import grid_svg  # its XML escaping imports urllib: ~50 ms a solve need not pay

        write_text(path, grid_svg(grid, report))
    click.echo(f"wrote {path}", err=True)


def print_report(grid: Grid, report: Report) -> None:
    highlight = {cell for word in report.invalid_words for cell in word.cells}
    click.echo(draw_grid(grid, highlight, colour_wanted()))
    for problem in report.problems():
        click.echo(problem)
    if report.ok:
        click.echo(f"valid: {plural(len(report.words), 'word')}, {plural(len(grid.cells()), 'tile')}")


@click.command()
@click.argument("letters")
@offensive_option
@lexicon_option
@min_length_option
@click.option("--limit", type=int, metavar="N", help="Print at most N words.")
@json_option
@reports_input_errors
def words(letters: str, lexicon: str, min_length: int, limit: int | None, as_json: bool) -> None:
    """List the words formable from LETTERS, longest first.

    Exit 0 when at least one word can be formed, 1 when none can (like grep: a note on stderr,
    or an empty "words" list with --json), 2 for bad input.
    """
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
    exit_with(0 if found else 1)


@click.command()
@click.argument("letters", metavar="LETTERS|-")
@offensive_option
@lexicon_option
@min_length_option
@click.option(
    "--time-limit", type=float, default=10.0, show_default=True, metavar="SECONDS", help="Wall-clock budget per hand."
)
@click.option(
    "--objective",
    type=click.Choice(OBJECTIVES),
    default="any",
    show_default=True,
    help="'any' stops at the first grid; the others keep improving it until the time limit "
    "(or a grid nothing beats). Ctrl-C stops one and prints the best grid so far.",
)
@click.option("--seed", type=int, help="Vary the move order (same seed, same grid).")
@json_option
@click.option(
    "--svg", "picture", metavar="FILE", help=PICTURE_HELP + " One hand only; nothing is written without a grid."
)
@reports_input_errors
def solve(
    letters: str,
    lexicon: str,
    min_length: int,
    time_limit: float,
    objective: str,
    seed: int | None,
    as_json: bool,
    picture: str | None,
) -> None:
    """Build a grid using every tile of LETTERS.

    With '-', read one hand per line from stdin ('#' and blank lines skipped) and write
    one result per hand; start-up and compilation are paid once. In batch mode a bad
    line gets an error record in its place ('# error: line N: ...', or a JSON object with
    "line", "input" and "error"), also on stderr, and the batch goes on; the exit code is then 2.
    """
    check_min_length(min_length)
    check_seconds(time_limit, "--time-limit")  # NaN or infinity would make the deadline never arrive
    check_seed(seed)
    require(picture is None or letters != "-", "--svg draws one hand's grid: not with '-' (a batch)")
    check_picture(picture)
    hand = None if letters == "-" else parse_hand(letters)  # reject bad letters before loading
    kernels = KernelPrep()  # first run: the kernels build while the word list loads
    solve_hand = make_solver(get_lexicon(lexicon), min_length, time_limit, objective, seed, kernels)
    if objective != "any":  # it runs its whole time limit: say so, rather than seem to hang
        click.echo(
            f"bananas: improving the grid ({objective}) for up to {time_limit:g} s a hand; "
            "Ctrl-C stops and prints the best so far",
            err=True,
        )
    try:
        if hand is not None:
            solution = solve_hand(hand)
            print_solution(solution, as_json)
            if picture is not None:
                if solution.grid is not None:
                    save_picture(picture, solution.grid)
                else:
                    click.echo(f"note: no grid, {picture} not written", err=True)
            exit_with(0 if solution.solved else 1)
        exit_with(solve_batch(solve_hand, as_json))
    except StoppedSearch as stop:
        if stop.best is not None:  # printed as a finished search's grid, then exit 130 (the group)
            print_solution(stop.best, as_json)
            click.echo("bananas: stopped: that grid is the best found so far", err=True)
        raise


def make_solver(
    lexicon: Lexicon, min_length: int, time_limit: float, objective: str, seed: int | None, kernels: KernelPrep
):
    from solver.search.solving import solve as search_solve  # numba: imported only when solving

    kernels.ready(lexicon, include_extend=False)  # before any hand's clock starts

    def solve_hand(hand: TileCounts):
        best = BestSoFar(objective != "any" and notices_wanted())

        def attempt(seconds: float):
            return search_solve(
                hand,
                lexicon,
                time_limit=seconds,
                objective=objective,
                seed=seed,
                min_length=min_length,
                on_better=best.show,
            )

        try:
            return attempt(time_limit)
        except KeyboardInterrupt:
            raise StoppedSearch(best.latest) from None
        finally:
            best.clear()

    return solve_hand


class StoppedSearch(KeyboardInterrupt):
    """Ctrl-C during a hand's search, with the best grid found by then (a Solution, or None)."""

    def __init__(self, best):
        super().__init__()
        self.best = best


class BestSoFar:
    """A search's better grids as it finds them: the latest kept (printed if Ctrl-C stops the
    search: `StoppedSearch`), and, when `shown` (a terminal), one status line on stderr redrawn."""

    def __init__(self, shown: bool):
        self.shown = shown
        self.latest = None  # a Solution once a grid is found
        self._width = 0

    def show(self, solution) -> None:
        self.latest = solution
        if self.shown:
            grid = solution.grid
            longest = max(map(len, solution.words))
            text = (
                f"best so far: {plural(len(solution.words), 'word')}, {grid.height}x{grid.width}, "
                f"longest {longest} (found at {solution.elapsed_ms / 1000:.1f} s; Ctrl-C keeps it)"
            )
            self._draw(text)

    def clear(self) -> None:
        if self._width:
            self._draw("")
            click.echo("\r", nl=False, err=True)

    def _draw(self, text: str) -> None:
        # Pad over the previous text: a carriage return alone would leave its tail behind.
        click.echo("\r" + text.ljust(self._width), nl=False, err=True)
        self._width = len(text)


def print_solution(solution, as_json: bool) -> None:
    if as_json:
        emit_json(solution.to_json())
        return
    if solution.grid is not None:
        click.echo(draw_grid(solution.grid))
    # A '#' line, so the text output is itself a grid file `bananas check` reads.
    summary = solve_summary(
        solution.status, len(solution.tiles), len(solution.words), solution.elapsed_ms, solution.nodes
    )
    click.echo(summary + (f" ({solution.proof})" if solution.proof else ""))


def solve_batch(solve_hand, as_json: bool) -> int:
    """Solve each hand on stdin; the exit code: 2 if a line was bad, else 0 if all solved, else 1."""
    any_bad, all_solved, count = False, True, 0
    for number, line, text in hand_lines(sys.stdin.buffer):
        count += 1
        try:
            if line is None:
                raise TileError(text)
            solution = solve_hand(parse_hand(line))
        except INPUT_ERRORS as error:
            any_bad = True
            if not as_json and count > 1:
                click.echo()
            print_line_error(number, text, describe(error), as_json)
            continue
        all_solved = all_solved and solution.solved
        if not as_json and count > 1:
            click.echo()
        print_solution(solution, as_json)
    require(count > 0, "no hands on standard input")
    return 2 if any_bad else 0 if all_solved else 1


def print_line_error(number: int, text: str, message: str, as_json: bool) -> None:
    """A bad line's record in the output, where its result would be, so the output keeps one
    record per hand read (the Nth record answers the Nth hand); and on stderr, for a person
    watching. In text, a '#' comment, so the output is still a series of grid files."""
    if as_json:
        emit_json({"line": number, "input": text, "error": message})
    else:
        click.echo(f"# error: line {number}: {message}")
    click.echo(f"error: line {number}: {message}", err=True)


# -- live play: peel and dump ---------------------------------------------------------

grid_option = click.option(
    "--grid",
    "grid_file",
    required=True,
    metavar="FILE|-",
    help="The current grid: text notation, a JSON list of rows or a solve --json result; '-' reads stdin.",
)


def load_board(
    grid_file: str, lexicon_spec: str, min_length: int, hand: TileCounts | str = "", added: int = 0, **options
):
    """A `Board` on the grid read from `grid_file` (read and checked before the word list is
    loaded); an invalid grid is bad input (exit 2), and so is a grid that with the hand and
    `added` tiles to come holds more than a double set (the solve API's limit)."""
    from solver.search.board import (
        Board,  # numba (through solver.search.solving): imported only for live play
    )

    name = source_name(grid_file)
    grid, _ = parse_grid(read_source(grid_file), name)
    check_tile_room(grid, added + len(TileCounts.of(hand)))
    lexicon = get_lexicon(lexicon_spec)
    try:
        return Board(lexicon, grid=grid, hand=hand, min_length=min_length, **options)
    except TileError:
        raise
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def ready_kernels_for(board, kernels: KernelPrep) -> None:
    """Load the search kernels before a timed rebuild: loading them inside the rebuild's
    deadline would starve the cheap tiers."""
    kernels.ready(board.lexicon, include_extend=True)


@click.command()
@click.argument("letters")
@grid_option
@offensive_option
@lexicon_option
@min_length_option
@click.option(
    "--time-limit",
    type=float,
    default=2.0,
    show_default=True,
    metavar="SECONDS",
    help="Wall-clock budget for the rebuild.",
)
@json_option
@reports_input_errors
def peel(letters: str, grid_file: str, lexicon: str, min_length: int, time_limit: float, as_json: bool) -> None:
    """Add LETTERS (a PEEL's tile, a DUMP's three) to a valid grid, moving few tiles.

    Tiers, cheapest first: hook (nothing moves), lift (one leaf word is taken up and
    re-placed), rebuild (every leaf word), resolve (a full solve aligned on the old grid).
    Prints the new grid and a '# peel:' line with the tiles moved, the tier and the time.
    Exit 0 when every tile is placed, 1 when none could be in time (the grid is kept).
    """
    check_min_length(min_length)
    check_seconds(time_limit, "--time-limit")
    hand = parse_hand(letters)
    kernels = KernelPrep()
    board = load_board(grid_file, lexicon, min_length, added=len(hand), time_limit=time_limit)
    ready_kernels_for(board, kernels)
    result = board.add(hand)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(draw_grid(board.grid))
        summary = f"# peel: {plural(result.moved, 'tile')} moved ({result.tier}), {result.elapsed_ms:.0f} ms"
        click.echo(summary + (f"; not placed: {board.hand.letters()}" if not result.ok else ""))
    exit_with(0 if result.ok else 1)


def parse_bunch(spec: str | None, lexicon: str, taken: TileCounts) -> TileCounts:
    """--bunch: plain letters are the bunch itself; a distribution (en, fr, 'A13,...' or a
    file) is the whole tile set, from which the grid and hand are taken out. Default: the
    distribution of the lexicon's language (fr for --lexicon fr, else en)."""
    given = spec is not None
    if spec is None:
        spec = "fr" if language_of(lexicon) == "fr" else "en"
    elif spec_kind(spec) == "letters":
        return parse_hand(spec)
    try:
        full = load_tiles(spec, MAX_GAME_TILES)
    except TileError as error:
        raise TileError(f"--bunch: {error}") from None
    if not full.contains(taken):
        extra = "".join(sorted((Counter(taken.letters()) - Counter(full.letters())).elements()))
        # Say where the set came from: blaming a missing --bunch when one was given misleads.
        source = f"--bunch {spec}: the" if given else f"the {spec} set (the default bunch): the"
        raise TileError(
            f"{source} grid and hand hold more tiles than that set has ({extra} too many); "
            "give the tiles left to draw as letters, e.g. --bunch EIORSTU"
        )
    return full - taken


@click.command()
@grid_option
@click.option(
    "--hand", "hand_letters", required=True, metavar="LETTERS", help="The tiles in hand, not yet on the grid."
)
@click.option(
    "--bunch",
    metavar="LETTERS|DISTRIBUTION",
    help="The tiles left to draw: letters, or a full tile set (en, fr, 'A13,B3,...' or a file) from "
    "which the grid and hand are taken out. Default: the set of the lexicon's language.",
)
@offensive_option
@lexicon_option
@min_length_option
@click.option("--samples", type=int, default=16, show_default=True, metavar="N", help="Simulated draws per letter.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simulated draws.")
@click.option(
    "--time-per-try",
    type=float,
    default=1.0,
    show_default=True,
    metavar="SECONDS",
    help="Budget of each simulated rebuild; larger is slower but less dependent on machine load.",
)
@json_option
@reports_input_errors
def dump(
    grid_file: str,
    hand_letters: str,
    bunch: str | None,
    lexicon: str,
    min_length: int,
    samples: int,
    seed: int,
    time_per_try: float,
    as_json: bool,
) -> None:
    """Advise which tile of the hand to DUMP.

    For each letter of the hand, estimates the chance that dumping it (it is mixed into
    the bunch, then three tiles are drawn) leads to a complete grid, by simulated draws
    with a quick rebuild each. Also says whether the hand completes without a dump.
    """
    from solver.search.board import dump_advice

    check_min_length(min_length)
    check_count(samples, "--samples", 1, MAX_DUMP_SAMPLES)
    check_seconds(time_per_try, "--time-per-try", positive=True)
    check_seed(seed)
    hand = parse_hand(hand_letters)
    kernels = KernelPrep()
    board = load_board(grid_file, lexicon, min_length, hand=hand)
    pool = parse_bunch(bunch, lexicon, board.tiles)
    ready_kernels_for(board, kernels)
    advice = dump_advice(board, pool, samples=samples, seed=seed, time_per_try=time_per_try)
    if as_json:
        emit_json(advice.to_json())
        return
    if advice.advised is not None:
        click.echo(f"recommended dump: {advice.advised}")
    elif advice.keep_chance == 1.0:
        click.echo("recommended dump: none needed (the hand completes the grid as it is)")
    else:
        click.echo("recommended dump: none (the bunch has fewer than 3 tiles to draw)")
    click.echo(f"complete without a dump: {'yes' if advice.keep_chance == 1.0 else 'no'}")
    if advice.options:
        click.echo("letter  chance  completions")
        for option in advice.options:
            click.echo(f"{option.letter:<6}  {option.chance:>6.0%}  {option.completions}/{option.samples}")
    click.echo(
        f"# {plural(samples, 'simulated draw')} per letter from a bunch of {plural(len(pool), 'tile')}, seed {seed}"
    )
