"""The strategy lab's search: an Optuna study over a bot's strategy settings, scored by seeded
games against reference bots, pace and vocabulary held fixed (`bananas tune`).

Each trial draws strategy settings (`SPACE`: search effort, patience, endgame, hooks, flexible
hook spots and the letters they are kept for, strategy, dump policy, risk, how far a rebuild
goes, how far the first grid's search goes on for fewer words and past how many; or only the
knobs `TuneSetup.knobs` names, the others left at the base's values) onto a base preset whose speed
and vocabulary level stay as given, and plays `TuneSetup.games` games against each reference
(`run_tournament`: seat-rotated deals, locally or on a Dask cluster). Every trial plays the same
deals (common random numbers: the differences between trials are the settings', not the
deals'), in `ROUNDS` rounds; after each the trial's running win rate is reported, and Optuna's
median pruner stops a trial already below the median of the others at that round. A new
study's first trial is the base preset's own settings (`base_params`), the mark to beat.

The study lives in an Optuna RDB storage (`sqlite:///bananas-tune.db` by default): run again
with the same storage and study name and it resumes, adding trials up to `--trials`; several
machines may share one storage (a database server's URL). The study records its setup, and a
run whose setup differs from the stored one is refused rather than mixing two experiments.
The sampler is seeded (TPE, `seed`): the same setup gives the same trials on one machine.

The score is the candidate's share of the games: a sole win counts 1, a shared win 1/2. With
`TuneSetup.objective` 'first-grid' a trial races instead of playing (`race_round`): on the same
deals, each seat's dealt hand laid by the candidate and by each reference alone, the one whose
first complete grid the referee charges less takes the point. At equal pace the first grid decides
most games, and a race costs one first grid rather than a game: a trial of 400 races tells a lever
worth 1.6 s on the clock from noise, where 100-200 games cannot (a study's best is then checked in
games, `bananas tournament`).
Optuna is the `lab` extra (`pip install 'bananas[lab]'`); nothing here imports it at module
level, so the rest of the lab runs without it.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROUNDS = 4  # a trial's games are played in this many rounds, each reported for pruning
OBJECTIVES = ("games", "first-grid")  # what a trial is scored by: games, or first-grid races
DEFAULT_STORAGE = "sqlite:///bananas-tune.db"


@dataclass(frozen=True)
class Knob:
    """One strategy setting the study varies: `kind` 'int' (`low`..`high`, log scale when
    `log`), 'float' (`low`..`high`) or 'choice' (`choices`)."""

    name: str
    kind: str
    low: float = 0
    high: float = 0
    log: bool = False
    choices: tuple = ()


SPACE = (
    Knob("node_budget", "int", 100, 6000, log=True),
    Knob("patience", "int", 1, 60, log=True),
    Knob("endgame", "int", 0, 20),
    Knob("hooks", "choice", choices=("cheap", "first")),
    Knob("flexible", "choice", choices=(True, False)),
    Knob("strategy", "choice", choices=("long-words", "compact")),
    Knob("dump_policy", "choice", choices=("advice", "hardest")),
    Knob("risk", "float", 0.0, 0.3),
    Knob("rebuild", "choice", choices=("hook", "lift", "rebuild", "resolve")),
    Knob("opening", "int", 0, 4),
    Knob("opening_words", "int", 0, 8),
    Knob("side_words", "float", 0.0, 6.0),
    Knob("side_words_everywhere", "choice", choices=(False, True)),
    Knob("room", "choice", choices=("CJQVZ", "JQVZX", "JQXZ", "JQVZ", "CJQVZX")),
)
KNOB_NAMES = tuple(knob.name for knob in SPACE)


def knobs_of(names: tuple[str, ...]) -> tuple[Knob, ...]:
    """The knobs of `SPACE` named (all of them for none); ValueError naming an unknown one."""
    unknown = [name for name in names if name not in KNOB_NAMES]
    if unknown:
        raise ValueError(f"unknown knob {unknown[0]!r} (knobs: {', '.join(KNOB_NAMES)})")
    return tuple(knob for knob in SPACE if not names or knob.name in names)


class TuneError(ValueError):
    """A study that cannot run as asked (a stored study of another setup, no lab extra)."""


def require_optuna() -> None:
    """TuneError unless Optuna (the `lab` extra) is installed."""
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise TuneError("bananas tune needs Optuna: pip install 'bananas[lab]'") from None


def check_storage(storage: str) -> None:
    """TuneError naming what is wrong with `storage` (Optuna's RDB URL), before a study opens it
    and before the first game: not a database URL, a scheme no installed SQLAlchemy dialect
    serves ('bogus://x'), a database driver that is not installed, an SQLite file in a folder
    that does not exist or cannot be written. Creates nothing; a server's URL is only parsed
    here (it is reached when the study opens, and `open_study` reports a failure there alike)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    shown = f"--storage {storage!r}"
    try:
        url = make_url(storage)
    except ArgumentError:
        raise TuneError(f"{shown} is not a database URL (e.g. {DEFAULT_STORAGE})") from None
    try:
        url.get_dialect().import_dbapi()
    except NoSuchModuleError:
        raise TuneError(
            f"{shown}: {url.drivername!r} is no database SQLAlchemy knows (e.g. {DEFAULT_STORAGE})"
        ) from None
    except ImportError as error:
        raise TuneError(f"{shown}: its database driver is not installed ({error.name or error})") from None
    database = url.database or ""
    if url.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return
    path = Path(database)
    folder = path.parent
    if path.is_dir():
        raise TuneError(f"{shown}: {path} is a folder, not a database file")
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise TuneError(f"{shown}: {path} cannot be read and written")
        with path.open("rb") as stream:
            header = stream.read(16)
        if header and header != b"SQLite format 3\x00":
            raise TuneError(f"{shown}: {path} is not an SQLite database")
    elif not folder.is_dir():
        raise TuneError(f"{shown}: the folder {folder} does not exist")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise TuneError(f"{shown}: cannot create a file in {folder}")


def storage_error(storage: str, error: Exception) -> TuneError:
    """A database's failure while a study opens it (a server that refuses, a file that is not
    SQLite), as one line."""
    reason = " ".join(str(getattr(error, "orig", None) or error).splitlines()[:1]) or type(error).__name__
    return TuneError(f"--storage {storage!r}: {reason}")


@dataclass(frozen=True)
class TuneSetup:
    """What a study measures: candidates built on `base` at `speed` (its vocabulary kept),
    scored by `games` games against each of `against` with `players` seats, dealt from `seed`;
    `knobs` names the settings the study varies (none: every knob of `SPACE`)."""

    base: str = "hard"
    speed: float = 1.0
    against: tuple[str, ...] = ("hard:speed=1",)
    games: int = 40
    players: int = 2
    seed: int = 0
    variant: str = "classic"
    lang: str = "en"
    knobs: tuple[str, ...] = ()
    objective: str = "games"

    def to_json(self) -> dict:
        """The setup a study stores (`knobs` left out when none are named, `objective` when it is
        games: a study made before either existed stores only the fields that describe it)."""
        data = {**asdict(self), "against": list(self.against), "knobs": list(self.knobs)}
        if not self.knobs:
            del data["knobs"]
        if self.objective == "games":
            del data["objective"]
        return data

    @property
    def unit(self) -> str:
        """What a trial's count is of: 'games' or 'races'."""
        return "races" if self.objective == "first-grid" else "games"


def candidate_spec(setup: TuneSetup, params: dict[str, Any]) -> str:
    """The bot spec of a trial's settings: 'hard:speed=1,node_budget=900,...'."""
    values = [f"speed={setup.speed:g}"] + [f"{name}={_text(value)}" for name, value in sorted(params.items())]
    return f"{setup.base}:{','.join(values)}"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def base_params(setup: TuneSetup) -> dict[str, Any]:
    """The base preset's own value of each knob, where it lies in the knob's range."""
    from solver.play.bots import PRESETS

    settings = PRESETS[setup.base]
    params = {}
    for knob in knobs_of(setup.knobs):
        value = getattr(settings, knob.name)
        if knob.kind == "choice":
            inside = value in knob.choices
        else:
            inside = value is not None and knob.low <= value <= knob.high
        if inside:
            params[knob.name] = value
    return params


def suggest(trial, names: tuple[str, ...] = ()) -> dict[str, Any]:
    """The trial's draw of the knobs `names` (`knobs_of`: every knob of `SPACE` for none)."""
    params: dict[str, Any] = {}
    for knob in knobs_of(names):
        if knob.kind == "int":
            params[knob.name] = trial.suggest_int(knob.name, int(knob.low), int(knob.high), log=knob.log)
        elif knob.kind == "float":
            params[knob.name] = trial.suggest_float(knob.name, knob.low, knob.high)
        else:
            params[knob.name] = trial.suggest_categorical(knob.name, list(knob.choices))
    return params


def score_round(setup: TuneSetup, spec: str, round_index: int, play: Callable) -> tuple[float, int]:
    """(points, games) of the candidate `spec` in one round: a share of `setup.games` against
    each reference, every trial on the same deals. `play(specs, games, players, seed)` is
    `run_tournament` with the rules and the backend (local workers or a cluster) bound."""
    if setup.objective == "first-grid":
        return race_round(setup, spec, round_index)
    points, games = 0.0, 0
    for index, reference in enumerate(setup.against):
        result = play([spec, reference], _per_round(setup), setup.players, _round_seed(setup, round_index, index))
        mine = result.stats[0]
        points += mine.wins + mine.shared / 2
        games += mine.games
    return points, games


def _per_round(setup: TuneSetup) -> int:
    return max(1, setup.games // ROUNDS)


def _round_seed(setup: TuneSetup, round_index: int, reference_index: int) -> int:
    """The tournament seed of a round's games against one reference: the same for every trial."""
    return setup.seed * 1_000_003 + round_index * 101 + reference_index


def race_round(setup: TuneSetup, spec: str, round_index: int) -> tuple[float, int]:
    """(points, races) of the candidate `spec` in one round of first-grid races against each
    reference: on each deal a round of games would play (`schedule.hand_seed` of its seed), every
    seat's dealt hand is laid by the candidate and by the reference, each alone at that seat
    (`ceiling.first_grid_race`: DUMPs and their draws included); the one whose first complete grid
    the referee charges less (before the jitter) takes the point, half each when the same."""
    from solver.play.schedule import hand_seed

    points, races = 0.0, 0
    for index, reference in enumerate(setup.against):
        seed = _round_seed(setup, round_index, index)
        for group in range(_per_round(setup)):
            deal = hand_seed(seed, group)
            for seat in range(setup.players):
                mine = race_seconds(spec, setup.variant, setup.lang, deal, seat, setup.players)
                theirs = race_seconds(reference, setup.variant, setup.lang, deal, seat, setup.players)
                points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
                races += 1
    return points, races


@functools.lru_cache(maxsize=65_536)  # a reference's races are the same in every trial
def race_seconds(spec: str, variant: str, lang: str, deal: int, seat: int, players: int) -> float:
    """What the bot of `spec` is charged on its way to a first complete grid at `seat` of the
    hand dealt from `deal` (`ceiling.first_grid_race`); infinite when it never gets there."""
    from solver.play.ceiling import first_grid_race
    from solver.play.rules import Rules
    from solver.play.variants import VARIANTS

    rules = Rules.for_variant(VARIANTS[variant], lang)
    race = first_grid_race(spec, rules, deal, seat, players)
    return math.inf if race.seconds is None else race.seconds


def make_objective(setup: TuneSetup, play: Callable) -> Callable:
    """Optuna's objective: the candidate's share of points over its rounds, pruned early."""
    import optuna

    def objective(trial) -> float:
        spec = candidate_spec(setup, suggest(trial, setup.knobs))
        trial.set_user_attr("spec", spec)
        points = games = 0.0
        for round_index in range(ROUNDS):
            try:
                won, played = score_round(setup, spec, round_index, play)
            except KeyboardInterrupt:
                # Ctrl-C stops the study: Optuna would log the trial's "failure" with a traceback
                optuna.logging.set_verbosity(optuna.logging.ERROR)
                raise
            points, games = points + won, games + played
            trial.report(points / games, round_index)
            if trial.should_prune():
                raise optuna.TrialPruned()
        trial.set_user_attr("games", games)
        return points / games

    return objective


def open_study(setup: TuneSetup, storage: str, name: str):
    """The study `name` in `storage`, made for `setup` if new; TuneError if it exists for
    another setup."""
    import optuna
    from sqlalchemy.exc import SQLAlchemyError

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        study = optuna.create_study(
            study_name=name,
            storage=storage,
            direction="maximize",
            load_if_exists=True,
            sampler=optuna.samplers.TPESampler(seed=setup.seed),
            pruner=optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=1),
        )
    except (SQLAlchemyError, ImportError) as error:
        raise storage_error(storage, error) from None
    stored = study.user_attrs.get("setup")
    wanted = json.loads(json.dumps(setup.to_json()))
    if stored is None:
        study.set_user_attr("setup", wanted)
        study.enqueue_trial(base_params(setup))  # the first trial: the base preset as it is
    elif stored != wanted:
        raise TuneError(f"study {name!r} in {storage} was made for another setup: {stored} (use another --study)")
    return study


def finished_trials(study) -> int:
    """Trials completed or pruned (a trial cut off by an interruption is run again)."""
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return len(study.get_trials(deepcopy=False, states=done))


def run_study(setup: TuneSetup, trials: int, storage: str, name: str, play: Callable, progress: bool = False) -> Any:
    """Run the study until it holds `trials` finished trials (resuming a stored one); the study."""
    study = open_study(setup, storage, name)
    remaining = trials - finished_trials(study)
    if remaining > 0:
        study.optimize(make_objective(setup, play), n_trials=remaining, show_progress_bar=progress)
    return study


def best_trial(study) -> Any | None:
    """The best completed trial, or None before any completed."""
    import optuna

    complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    return max(complete, key=lambda trial: (trial.value, -trial.number)) if complete else None


def study_json(study, setup: TuneSetup) -> dict:
    """The study as the `--json` output: its setup, every trial and the best one."""
    trials = [
        {
            "number": trial.number,
            "state": trial.state.name.lower(),
            "value": trial.value,
            "spec": trial.user_attrs.get("spec"),
            "params": trial.params,
        }
        for trial in study.get_trials(deepcopy=False)
    ]
    best = best_trial(study)
    return {
        "format": "bananas-tune/1",
        "study": study.study_name,
        "setup": setup.to_json(),
        "trials": trials,
        "best": None if best is None else {"number": best.number, "value": best.value, "spec": best.user_attrs["spec"]},
    }


def save_plots(study, folder) -> list:
    """The optimisation history and the settings' importances (Optuna's matplotlib
    visualisations), as PNG files in `folder`; the paths written."""
    import warnings

    import matplotlib
    import optuna

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
    from optuna.visualization import matplotlib as optuna_plots

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in (
        ("history", optuna_plots.plot_optimization_history),
        ("importances", optuna_plots.plot_param_importances),
    ):
        with warnings.catch_warnings():  # "experimental" since Optuna 2.2, stable in use
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            axes = draw(study)
        path = folder / f"{name}.png"
        figure = axes.figure
        assert isinstance(figure, Figure)  # Optuna draws on a figure of its own, not a subfigure
        figure.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(figure)
        written.append(path)
    return written
