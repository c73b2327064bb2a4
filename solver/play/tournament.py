"""Bot tournaments: many seeded hands between bot presets, with seat and deal luck cancelled.

Games come in groups of K (the number of players): the K games of a group share one hand
seed, so the same tiles are dealt and drawn, and seat the same K bots rotated one seat
further each game, so every bot plays every seat once on every deal. Game `g` belongs to
group `g // K` and is its rotation `g % K`; the number of games is rounded up to whole
groups.

Who plays a group::

    len(bot_specs) == K   all of them, every group;
    len(bot_specs) >  K   the K-bot combinations, in a seeded shuffled order, cycled (each
                          full cycle plays every combination once);
    len(bot_specs) <  K   the list cycled to fill the seats (A,B at 4 players: A,B,A,B), so
                          one bot may hold several seats of a game.

An entry's statistics count the seats it held ("games" = seat-games), so an entry that
holds two seats of a game counts that game twice; a win is one of its seats winning alone.

Every game is a pure function of (tournament seed, game index, specs, rules): worker
processes only run games, the schedule is made up front in the calling process, and the
results are sorted by game index, so any number of workers gives the same per-game
results. Only the wall-clock figures (games/sec) vary. With `scheduler` (a Dask address) the
same schedule is played on a Dask cluster instead (`solver.play.cluster`), with the same
results.

Workers are forked where that is safe (Linux, a single-threaded caller): the calling
process plays the first game itself, warming up lexicons and compiled kernels that the
forked workers then inherit. Elsewhere they are spawned (fresh interpreters that import
and load on their own, about a second each), which needs the usual
`if __name__ == "__main__":` guard in a calling script.

Ctrl-C (SIGINT, KeyboardInterrupt in the calling process) stops a tournament at once: the
workers ignore SIGINT (a terminal sends it to all of them), the calling process terminates
them, and `TournamentStopped` carries the games that had finished (`bananas tournament`
prints their table and exits 130).
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field

from solver.play.cluster import play_on_cluster
from solver.play.rules import Bot, Rules
from solver.play.schedule import GameRecord, entry_names, play_game, schedule
from solver.play.stats import confidence_interval

CSV_FIELDS = (
    "bot",
    "spec",
    "games",
    "wins",
    "shared",
    "unawarded",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_game_seconds",
    "dumps",
    "rotten",
)


@dataclass
class BotStats:
    """One entry's totals. games counts seats held."""

    name: str
    spec: str
    games: int = 0
    wins: int = 0
    shared: int = 0
    unawarded: int = 0
    clock_total: float = 0.0
    dumps: int = 0
    rotten: int = 0

    @property
    def win_rate(self) -> float:
        """Sole wins / seat-games (0.0 to 1.0; 0.0 with no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% Wilson interval (low, high) of the win rate."""
        return confidence_interval(self.wins, self.games)

    @property
    def mean_game_seconds(self) -> float:
        """The mean length of its games, in simulated seconds (0.0 with no games)."""
        return self.clock_total / self.games if self.games else 0.0

    def to_json(self) -> dict:
        """One entry of the JSON output's `bots` (and a row of the CSV: CSV_FIELDS)."""
        low, high = self.ci
        return {
            "bot": self.name,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "shared": self.shared,
            "unawarded": self.unawarded,
            "win_rate": round(self.win_rate, 6),
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
            "mean_game_seconds": round(self.mean_game_seconds, 3),
            "dumps": self.dumps,
            "rotten": self.rotten,
        }


@dataclass
class TournamentResult:
    """What `run_tournament` returns: the settings, every game (GameRecord, by index), each entry's totals
    (`stats`, BotStats in the order of `bot_specs`) and the wall time (seconds).
    """

    bot_specs: list[str]
    names: list[str]
    players: int
    seed: int
    workers: int
    rules: dict
    requested_games: int
    games: list[GameRecord]
    wall_seconds: float
    stats: list[BotStats] = field(default_factory=list)
    scheduler: str | None = None  # the Dask scheduler that played the games (None: local)

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = tally(self.names, self.bot_specs, self.games)

    @property
    def unawarded(self) -> int:
        """The number of games nobody won."""
        return sum(game.outcome == "unawarded" for game in self.games)

    @property
    def shared(self) -> int:
        """The number of games won by more than one player at once."""
        return sum(game.outcome == "shared" for game in self.games)

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second (inf if no time was measured)."""
        return len(self.games) / self.wall_seconds if self.wall_seconds > 0 else math.inf

    def to_json(self) -> dict:
        """The JSON of `bananas tournament --json`: settings, totals, bots (BotStats.to_json) and games."""
        return {
            "settings": {
                "bots": self.bot_specs,
                "players": self.players,
                "seed": self.seed,
                "workers": self.workers,
                "scheduler": self.scheduler,
                "requested_games": self.requested_games,
                "rules": self.rules,
            },
            "totals": {
                "games": len(self.games),
                "unawarded": self.unawarded,
                "shared": self.shared,
                "wall_seconds": round(self.wall_seconds, 3),
                "games_per_second": round(self.games_per_second, 3),
            },
            "bots": [s.to_json() for s in self.stats],
            "games": [asdict(game) for game in self.games],
        }

    def to_csv(self) -> str:
        """One CSV row per entry (columns CSV_FIELDS), with a header line: `bananas tournament --csv`."""
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for s in self.stats:
            writer.writerow(s.to_json())
        return out.getvalue()

    def table(self) -> str:
        """The human-readable table of `bananas tournament`, with a totals line."""
        header = ("bot", "games", "wins", "shared", "win rate", "95% CI", "mean game", "dumps", "rotten")
        rows = []
        for s in self.stats:
            low, high = s.ci
            rows.append(
                (
                    s.name,
                    str(s.games),
                    str(s.wins),
                    str(s.shared),
                    f"{100 * s.win_rate:.1f}%",
                    f"{100 * low:.1f}-{100 * high:.1f}%",
                    f"{s.mean_game_seconds:.1f}s",
                    str(s.dumps),
                    str(s.rotten),
                )
            )
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

        def line(cells) -> str:
            return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

        lines = [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows), ""]
        lines.append(
            f"{len(self.games)} games ({self.players} players, seed {self.seed}): "
            f"{self.unawarded} unawarded, {self.shared} shared; "
            f"{self.wall_seconds:.1f} s wall, {self.games_per_second:.2f} games/sec "
            f"({self.workers} worker{'s' if self.workers != 1 else ''}"
            f"{f' on {self.scheduler}' if self.scheduler else ''})"
        )
        return "\n".join(lines)


class TournamentStopped(KeyboardInterrupt):
    """Ctrl-C during `run_tournament`: the workers are stopped, and `result` holds the games that
    had finished (fewer than asked; none, if it came before the first)."""

    def __init__(self, result: TournamentResult):
        super().__init__()
        self.result = result


def tally(names: list[str], bot_specs: list[str], games: list[GameRecord]) -> list[BotStats]:
    """Each entry's totals (BotStats, in the order of `names`) over `games`: seat-games, sole and shared wins,
    unawarded games, clock, dumps, rotten bananas.
    """
    stats = [BotStats(name, spec) for name, spec in zip(names, bot_specs)]
    for game in games:
        for seat, entry in enumerate(game.entries):
            s = stats[entry]
            s.games += 1
            s.clock_total += game.clock
            s.dumps += game.dumps[seat]
            s.rotten += game.rotten[seat]
            if game.outcome == "win" and game.winners == [seat]:
                s.wins += 1
            elif game.outcome == "shared" and seat in game.winners:
                s.shared += 1
            elif game.outcome == "unawarded":
                s.unawarded += 1
    return stats


def rules_json(rules: Rules) -> dict:
    """The rules a tournament was played under, for its JSON: lexicon, variant, min_length, solo_objective and
    the number of tiles.
    """
    return {
        "lexicon": rules.lexicon,
        "variant": rules.variant,
        "min_length": rules.min_length,
        "solo_objective": rules.solo_objective,
        "tiles": len(rules.distribution),
    }


def default_start_method() -> str:
    """'fork' where it is available and safe (this process runs a single thread; the
    engine starts none), so that workers start warm; else 'spawn'."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _import_bots() -> None:
    """Worker initializer: import the numba modules (compiled code comes from the cache), and
    leave SIGINT to the calling process, which stops the workers (`_stop_workers`): Ctrl-C at a
    terminal reaches every process of the group, and a worker interrupted in a game would
    only report it and take the next."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by `_play_on_workers` until here
    from solver.play import bots  # noqa: F401


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back in this thread meanwhile (delivered when it ends). A process started
    meanwhile inherits the mask, through a spawn's exec too: a Ctrl-C while a spawned worker
    imports would otherwise print that worker's traceback."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: its queued games cancelled, its running ones cut short (a worker is
    terminated, as a game cannot be interrupted from outside), its processes reaped."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=0.5)
        if process.is_alive():
            process.kill()
            process.join()


def run_tournament(
    bot_specs: list[str],
    games: int,
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
    rules: Rules | None = None,
    progress: Callable[[int, int], None] | None = None,
    start_method: str | None = None,
    scheduler: str | None = None,
    make: Callable[[str], Bot] | None = None,
) -> TournamentResult:
    """Play `games` games (rounded up to whole rotation groups) of `players` bots drawn
    from `bot_specs`; `progress(done, total)` is called after each game, in this process.

    workers > 1 runs games in worker processes, started by `start_method` ('fork' or
    'spawn'; default: `default_start_method()`). The game runner is spawn-safe (top-level
    functions, picklable arguments), but under 'spawn' a script that calls this must
    guard its entry point with `if __name__ == "__main__":`.

    `scheduler` ('tcp://HOST:PORT') plays the games on that Dask cluster instead of local
    processes (`workers` is then ignored); see `solver.play.cluster`.

    `make` builds a bot from a spec instead of `make_bot` (local games only: a top-level
    function, so that spawned workers can pickle it; the ceiling study seats its oracle so).

    `bot_specs` are presets or specs ('hard:speed=3'); the same arguments give the same games.
    ValueError for no bots, a bad spec, `games` or `workers` below 1; RuleError for a number
    of players the variant does not seat."""
    from solver.play.bots import make_bot

    rules = rules or Rules()
    if not bot_specs:
        raise ValueError("no bots given")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    rules.check_players(players)
    if make is not None and scheduler is not None:
        raise ValueError("a bot factory (make) plays local games only, not on a cluster")
    for spec in bot_specs:
        (make or make_bot)(spec)  # a bad spec fails here, before any worker starts
    tasks = schedule(len(bot_specs), players, games, seed)
    started = time.perf_counter()
    records: list[GameRecord] = []

    def done(record: GameRecord) -> None:
        records.append(record)
        if progress:
            progress(len(records), len(tasks))

    def result() -> TournamentResult:
        records.sort(key=lambda record: record.index)
        wall = time.perf_counter() - started
        return TournamentResult(
            list(bot_specs),
            entry_names(bot_specs),
            players,
            seed,
            workers,
            rules_json(rules),
            games,
            list(records),
            wall,
            scheduler=scheduler,
        )

    method = start_method or default_start_method()
    try:
        if scheduler is not None:
            workers = play_on_cluster(scheduler, tasks, bot_specs, rules, done)
        elif workers == 1 or len(tasks) == 1:
            for task in tasks:
                done(play_game(task, bot_specs, rules, make))
        else:
            _play_on_workers(tasks, bot_specs, rules, workers, method, done, make)
    except KeyboardInterrupt:
        raise TournamentStopped(result()) from None
    return result()


def _play_on_workers(
    tasks: list,
    bot_specs: list[str],
    rules: Rules,
    workers: int,
    method: str,
    done: Callable[[GameRecord], None],
    make: Callable[[str], Bot] | None = None,
) -> None:
    """`tasks` on `workers` local processes started by `method`, `done` called here with each
    game as it ends. A failed game stops the games not yet started; Ctrl-C stops every worker."""
    pending = tasks
    if method == "fork":
        # Play the first game here: it warms this process up (lexicons loaded, kernels
        # compiled or loaded from the cache), and forked workers inherit all of it.
        done(play_game(tasks[0], bot_specs, rules, make))
        pending = tasks[1:]
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(
        max_workers=min(workers, len(pending)), mp_context=context, initializer=_import_bots
    ) as pool:
        try:
            with _sigint_blocked():  # the workers start with it blocked, until their initializer ignores it
                futures = [pool.submit(play_game, task, bot_specs, rules, make) for task in pending]
            for future in as_completed(futures):
                done(future.result())
        except KeyboardInterrupt:
            _stop_workers(pool)
            raise
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # a failed game: stop the rest
            raise
