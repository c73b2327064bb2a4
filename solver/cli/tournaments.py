"""The `bananas tournament` and `ladder` commands: seeded, seat-rotated series of bot games,
compared by win rates (tournament) or rated on the Elo scale (ladder).

    bananas tournament --bots hard,medium --games 100 [--players 2] [--workers 2 | --scheduler tcp://HOST:PORT]
                       [--json FILE|-] [--csv out.csv] [--plot rates.svg]
    bananas ladder --bots easy,medium,hard --games 120 [--bootstrap 1000] [--json FILE|-] [--plot ratings.png]

Same conventions as `solver.cli.grids`: bad usage or input prints one `error: ...` line on
stderr and exits 2, never a traceback; every input and output file is checked before the first
game. The numba-backed game runner (`solver.play.schedule`) is imported inside the bodies.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import NoReturn

import click

from solver.cli.common import check_seed, reports_input_errors
from solver.cli.game_options import (
    check_series_size,
    check_specs,
    default_players,
    lang_option,
    make_rules,
    seed_option,
    split_specs,
    variant_option,
)
from solver.cli.group import INTERRUPTED
from solver.cli.outputs import STDOUT, check_writable, progress_bar, write_file, write_text
from solver.play.cluster import normalise_address, require_distributed
from solver.play.plots import ladder_figure, plot_format, require_matplotlib, save_figure, tournament_figure
from solver.play.rules import Rules


def series_options(command):
    """The options `tournament` and `ladder` share (bots, games, seats, backend, outputs)."""
    options = [
        click.option(
            "--bots",
            required=True,
            metavar="SPEC,...",
            help="The bots entered (presets or 'preset:key=value,...'); repeats are separate entries.",
        ),
        click.option(
            "--games",
            type=int,
            required=True,
            metavar="N",
            help="Games to play (rounded up to whole rotation groups of --players games).",
        ),
        click.option("--players", type=int, metavar="K", help="Players per game [default: 2; 1 for solo]."),
        seed_option,
        click.option("--workers", type=int, default=1, show_default=True, metavar="W", help="Local worker processes."),
        click.option(
            "--scheduler",
            metavar="tcp://HOST:PORT",
            help="Play on this Dask cluster instead of local processes (needs the 'cluster' extra).",
        ),
        variant_option,
        lang_option,
        click.option("--json", "json_file", metavar="FILE|-", help="Write the results as JSON ('-': stdout)."),
        click.option(
            "--plot",
            metavar="FILE.svg|FILE.png",
            help="Plot the results with their intervals (needs the 'plots' extra).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@dataclass
class Series:
    """A checked tournament or ladder request, ready to run."""

    specs: list[str]
    games: int
    players: int
    seed: int
    workers: int
    scheduler: str | None
    rules: Rules
    total: int  # games after rounding up to whole rotation groups
    quiet: bool  # JSON on stdout: no bar, no table

    def run(self, runner, **settings):
        """`runner` (`run_tournament`, `run_ladder`: the same leading parameters) on this series
        and `settings`, under a progress bar (a terminal only); then its table, unless quiet."""
        from solver.play.tournament import TournamentStopped

        try:
            with progress_bar(self.total, f"playing {self.total} games", enabled=not self.quiet) as bar:

                def progress(done: int, _total: int) -> None:
                    bar.update(done - bar.n)

                result = runner(
                    self.specs,
                    self.games,
                    self.players,
                    self.seed,
                    self.workers,
                    self.rules,
                    progress=progress,
                    scheduler=self.scheduler,
                    **settings,
                )
        except TournamentStopped as stopped:
            self.stopped(stopped.result)
        if not self.quiet:
            click.echo(result.table())
        return result

    def stopped(self, partial) -> NoReturn:
        """Ctrl-C: the games that finished (their table, unless quiet), no output file, exit 130."""
        click.echo(f"stopped (Ctrl-C): {len(partial.games)} of {self.total} games finished; no file written", err=True)
        if not self.quiet and partial.games:
            click.echo(partial.table())
        raise click.exceptions.Exit(INTERRUPTED)


def check_series(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    files: dict[str, str | None],
    plot: str | None,
) -> Series:
    """Every check a run needs, before its first game: bad input fails at once and writes nothing."""
    from solver.play.schedule import schedule

    check_seed(seed)
    players = default_players(players, variant, 2)
    rules = make_rules(variant, lang)
    rules.check_players(players)
    specs = split_specs(bots)
    check_specs(specs)
    check_series_size(games, workers)
    scheduler = check_backend(workers, scheduler)
    if plot is not None:
        plot_format(plot)
        require_matplotlib()
    for option, path in {**files, "--plot": plot}.items():
        if path is not None:
            if path == STDOUT and option != "--json":
                raise ValueError(f"{option}: give a file name ('-' is for --json only)")
            check_writable(path, option)
    total = len(schedule(len(specs), players, games, seed))
    if total != games:
        click.echo(f"note: {games} games rounded up to {total} (whole rotation groups of {players})", err=True)
    quiet = files.get("--json") == STDOUT
    return Series(specs, games, players, seed, workers, scheduler, rules, total, quiet)


def check_backend(workers: int, scheduler: str | None) -> str | None:
    """--workers or --scheduler (not both); the scheduler's address, normalised."""
    if scheduler is None:
        return None
    if workers != 1:
        raise ValueError("--workers and --scheduler: choose one (the cluster's workers play the games)")
    require_distributed()
    quiet_dask_logs()
    return normalise_address(scheduler)


def quiet_dask_logs() -> None:
    """Dask logs what it retries, with tracebacks (its config sets a level per logger); the
    command reports a failure in one `error:` line instead."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL)


def write_results(files: dict[str, tuple[str | None, str]], plot: str | None, figure) -> None:
    """The output files, each written whole; then one 'wrote' line per file on stderr."""
    for path, text in files.values():
        if path is not None:
            write_text(path, text)
    if plot is not None:
        write_file(plot, lambda temp: save_figure(figure(), temp, plot_format(plot)))
    for path in [path for path, _ in files.values()] + [plot]:
        if path is not None and path != STDOUT:
            click.echo(f"wrote {path}", err=True)


@click.command()
@series_options
@click.option("--csv", "csv_file", metavar="FILE", help="Write one row per bot as CSV.")
@reports_input_errors
def tournament(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    json_file: str | None,
    plot: str | None,
    csv_file: str | None,
) -> None:
    """Play many seeded games between bots and compare their win rates.

    Each deal is played K times (K players) with the seats rotated, so seat and deal
    luck cancel. The table gives win rates with 95% Wilson intervals, the mean simulated
    game time, dumps, rotten bananas and unawarded hands. With --scheduler the games run
    on a Dask cluster, with the same results as a local run. Ctrl-C stops the games and the
    workers at once and prints the table of those that finished (exit code 130).

    \b
    Examples:
      bananas tournament --bots hard,medium --games 100 --workers 2
      bananas tournament --bots hard,medium,easy,greedy --players 4 --games 40 --csv out.csv
      bananas tournament --bots hard,medium --games 10000 --scheduler tcp://10.0.0.5:8786 --plot rates.svg
    """
    from solver.play.tournament import run_tournament

    series = check_series(
        bots, games, players, seed, workers, scheduler, variant, lang, {"--json": json_file, "--csv": csv_file}, plot
    )
    result = series.run(run_tournament)
    files = {"json": (json_file, json.dumps(result.to_json(), indent=1) + "\n"), "csv": (csv_file, result.to_csv())}
    write_results(files, plot, lambda: tournament_figure(result))


@click.command()
@series_options
@click.option(
    "--bootstrap",
    type=int,
    default=1000,
    show_default=True,
    metavar="B",
    help="Bootstrap resamples of the deals for the 95% intervals (0: none).",
)
@reports_input_errors
def ladder(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    json_file: str | None,
    plot: str | None,
    bootstrap: int,
) -> None:
    """Rate bots: a seat-rotated round robin, then Bradley-Terry ratings.

    With more bots than seats, the K-bot tables cycle through every combination (mixed
    tables for K > 2). Ratings are on the Elo scale (field mean 1500; 400 points = 10:1
    odds in a two-player game), with 95% bootstrap intervals over deals, best first.
    Any bot spec is an entry.

    \b
    Examples:
      bananas ladder --bots easy,medium,hard,greedy --games 120
      bananas ladder --bots hard:dump_policy=advice,hard:dump_policy=hardest --games 400 --json ladder.json
      bananas ladder --bots easy,medium,hard,long,compact --players 4 --games 200 --plot ladder.png
    """
    from solver.play.ladder import run_ladder

    if bootstrap < 0:
        raise ValueError(f"--bootstrap must be 0 or more, got {bootstrap}")
    if len(split_specs(bots)) < 2:
        raise ValueError("--bots: a ladder needs at least two bots")
    if default_players(players, variant, 2) < 2:
        raise ValueError("a ladder compares bots at one table: --players must be 2 or more")
    series = check_series(bots, games, players, seed, workers, scheduler, variant, lang, {"--json": json_file}, plot)
    result = series.run(run_ladder, bootstrap=bootstrap)
    write_results(
        {"json": (json_file, json.dumps(result.to_json(), indent=1) + "\n")}, plot, lambda: ladder_figure(result)
    )
