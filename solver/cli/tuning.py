"""The `bananas tune` command: an Optuna study over a bot's strategy settings (`solver.play.tuning`).

    bananas tune [--base hard] [--speed 1] [--against hard:speed=1,...] [--trials 30] [--games 40]
                 [--players 2] [--seed 0] [--storage sqlite:///bananas-tune.db] [--study NAME]
                 [--knobs NAME,...] [--objective games|first-grid]
                 [--workers W | --scheduler tcp://HOST:PORT] [--json FILE|-] [--plot FOLDER]

Same conventions as the other lab commands (`solver.cli.tournaments`): bad input is one
`error: ...` line and exit 2, checked before the first game.
"""

from __future__ import annotations

import json
from pathlib import Path

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
from solver.cli.outputs import STDOUT, check_writable, no_monitor_thread, write_text
from solver.cli.tournaments import check_backend
from solver.play.plots import require_matplotlib
from solver.play.tuning import DEFAULT_STORAGE, OBJECTIVES, TuneSetup, check_storage, require_optuna

MAX_TRIALS = 10_000


@click.command()
@click.option(
    "--base", default="hard", show_default=True, metavar="PRESET", help="The preset the candidates start from."
)
@click.option(
    "--speed",
    type=float,
    default=1.0,
    show_default=True,
    help="The candidates' pace, held fixed (a multiple of a practised player's); the vocabulary is the base's.",
)
@click.option(
    "--against",
    default="hard:speed=1",
    show_default=True,
    metavar="SPEC,...",
    help="The reference bots each candidate plays (presets or 'preset:key=value,...').",
)
@click.option("--trials", type=int, default=30, show_default=True, help="Trials the study should hold (it resumes).")
@click.option(
    "--games", type=int, default=40, show_default=True, help="Games per trial against each reference (same deals)."
)
@click.option("--players", type=int, metavar="K", help="Players per game [default: 2].")
@seed_option
@click.option(
    "--storage", default=DEFAULT_STORAGE, show_default=True, metavar="URL", help="Optuna's storage (an RDB URL)."
)
@click.option("--study", "study_name", default="bananas", show_default=True, help="The study's name in the storage.")
@click.option(
    "--knobs",
    default="",
    metavar="NAME,...",
    help="Only these settings vary (the others keep the base's values) [default: every knob].",
)
@click.option(
    "--objective",
    type=click.Choice(OBJECTIVES),
    default="games",
    show_default=True,
    help="What scores a trial: games, or first-grid races on the same deals (--games of them: each seat "
    "of a deal laid alone by the candidate and the reference, the cheaper first grid on the clock wins).",
)
@click.option("--workers", type=int, default=1, show_default=True, metavar="W", help="Local worker processes.")
@click.option("--scheduler", metavar="tcp://HOST:PORT", help="Play on this Dask cluster (needs the 'cluster' extra).")
@variant_option
@lang_option
@click.option("--json", "json_file", metavar="FILE|-", help="Write the study's trials as JSON ('-': stdout).")
@click.option("--plot", metavar="FOLDER", help="Draw the history and the settings' importances there (needs 'plots').")
@reports_input_errors
def tune(
    base: str,
    speed: float,
    against: str,
    trials: int,
    games: int,
    players: int | None,
    seed: int,
    storage: str,
    study_name: str,
    knobs: str,
    objective: str,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    json_file: str | None,
    plot: str | None,
) -> None:
    """Search a bot's strategy settings with Optuna, pace and vocabulary held fixed.

    Each trial draws settings (search effort, patience, endgame, hooks, strategy, dump
    policy, risk, rebuilds, the opening and its side words, the letters hook room is kept
    for; or only --knobs) onto --base at --speed and plays --games seeded games against
    each --against bot, the same deals for every trial (or, with --objective first-grid, races
    them to a first grid on those deals); hopeless trials are pruned. The
    study is stored (--storage, SQLite by default), so running the command again resumes
    it up to --trials, and machines sharing a storage share the study. Prints the best
    settings as a bot spec. Needs the 'lab' extra (Optuna).

    \b
    Examples:
      bananas tune --trials 40 --games 40 --workers 2
      bananas tune --against hard:speed=1,expert:speed=1 --study two-references --plot tune-plots
      bananas tune --trials 200 --scheduler tcp://10.0.0.5:8786 --storage sqlite:///lab-tune.db
      bananas tune --base hard --speed 2 --against hard --knobs opening,opening_words,room --study first-grid
      bananas tune --base hard --speed 2 --against hard --knobs side_words,opening --objective first-grid --study races
    """
    from solver.play.tournament import run_tournament
    from solver.play.tuning import (
        best_trial,
        candidate_spec,
        finished_trials,
        knobs_of,
        run_study,
        save_plots,
        study_json,
    )

    require_optuna()
    check_seed(seed)
    if not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"--trials must be between 1 and {MAX_TRIALS}, got {trials}")
    if not speed > 0:
        raise ValueError(f"--speed must be positive, got {speed}")
    players = default_players(players, variant, 2)
    if players < 2:
        raise ValueError("--players: a study scores games against other bots, 2 or more")
    rules = make_rules(variant, lang)
    rules.check_players(players)
    references = split_specs(against)
    names = tuple(filter(None, (name.strip() for name in knobs.split(","))))
    knobs_of(names)  # ValueError for an unknown knob
    setup = TuneSetup(base, speed, tuple(references), games, players, seed, variant, lang, names, objective)
    check_specs([*references, candidate_spec(setup, {})])
    check_series_size(games, workers)
    scheduler = check_backend(workers, scheduler)
    if plot is not None:
        require_matplotlib()
    if json_file not in (None, STDOUT):
        check_writable(json_file, "--json")
    check_storage(storage)

    def play(specs: list[str], count: int, seats: int, deal_seed: int):
        return run_tournament(specs, count, seats, deal_seed, workers, rules, scheduler=scheduler)

    quiet = json_file == STDOUT
    no_monitor_thread()  # Optuna's bar is tqdm's: --workers fork only from a single thread
    if not quiet:  # Optuna's import and the storage's opening come before its bar: seconds under load
        click.echo(f"tune: opening study {study_name!r} in {storage} (Optuna), then {trials} trials...", err=True)
    study = run_study(setup, trials, storage, study_name, play, progress=not quiet)
    best = best_trial(study)
    if not quiet:
        click.echo(f"study {study_name!r} in {storage}: {finished_trials(study)} trials")
        if best is not None:
            click.echo(
                f"best: trial {best.number}, {best.value:.1%} of the points over "
                f"{best.user_attrs['games']:g} {setup.unit}"
            )
            click.echo(best.user_attrs["spec"])
    if json_file is not None:
        write_text(json_file, json.dumps(study_json(study, setup), indent=1) + "\n")
    if plot is not None:
        for path in save_plots(study, Path(plot)):
            click.echo(f"wrote {path}", err=True)
