"""Spellevate series: many seeded rounds between bots, seat-rotated, with win rates and mean scores.

The schedule is Bananagrams tournaments' (`solver.play.schedule.schedule`): rounds come
in groups of K (the number of players) that share one seed, so the same player leads (the
draw for the lead) and the same hands are dealt, with the bots rotated one seat further
each round: every bot plays every seat of every deal once. Each round is a fresh first
round (a lead draw and a deal); its score is RULES.md's (the winner gains the tiles left
in the other hands, the others lose theirs). Every round is a pure function of (seed,
round index, specs, rules), so the number of worker processes changes only the wall time.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

import numpy as np

from solver.core.tiles import ENGLISH, TileCounts
from solver.lexicon.loader import get_lexicon
from solver.play.schedule import entry_names, schedule
from solver.play.spellevate import check_table, deal, first_leader, play_spellevate_round, set_of
from solver.play.spellevate_bots import make_spellevate_bot
from solver.play.stats import confidence_interval
from solver.play.tournament import default_start_method


@dataclass
class RoundRecord:
    """One round of a series (seat indices)."""

    index: int
    group: int
    rotation: int
    seed: int  # the group's seed: lead draw and deal
    entries: list[int]  # entry index seated at each seat
    leader: int
    winner: int
    scores: list[int]
    plays: int


@dataclass
class EntryStats:
    """One entry's totals over the seats it held."""

    name: str
    spec: str
    rounds: int = 0
    wins: int = 0
    score_total: int = 0
    tiles_left_total: int = 0

    @property
    def win_rate(self) -> float:
        """Rounds won / seat-rounds (0.0 to 1.0; 0.0 with no rounds)."""
        return self.wins / self.rounds if self.rounds else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% Wilson interval (low, high) of the win rate."""
        return confidence_interval(self.wins, self.rounds)

    @property
    def mean_score(self) -> float:
        """The mean score a round (tiles: positive for the winner, negative for the others)."""
        return self.score_total / self.rounds if self.rounds else 0.0

    @property
    def mean_tiles_left(self) -> float:
        """The mean number of tiles still held at the end of a round."""
        return self.tiles_left_total / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict:
        """One entry of the JSON output's `bots`."""
        low, high = self.ci
        return {
            "bot": self.name,
            "spec": self.spec,
            "rounds": self.rounds,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 6),
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
            "mean_score": round(self.mean_score, 4),
            "mean_tiles_left": round(self.mean_tiles_left, 4),
        }


@dataclass
class Settings:
    """What a worker needs to play a round (picklable)."""

    bot_specs: list[str]
    players: int
    sets: int = 1
    lexicon: str = "en"
    min_length: int = 2
    distribution: str = ENGLISH.distribution()

    @property
    def tiles(self) -> TileCounts:
        """The tile set: `sets` copies of the distribution."""
        return set_of(self.sets, TileCounts.parse(self.distribution))


@dataclass
class SeriesResult:
    """What a Spellevate series returns: its settings, every round (RoundRecord), each entry's totals
    (EntryStats) and the wall time (seconds).
    """

    settings: Settings
    names: list[str]
    seed: int
    workers: int
    requested: int
    rounds: list[RoundRecord]
    wall_seconds: float
    stats: list[EntryStats] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = tally(self.names, self.settings.bot_specs, self.rounds)

    @property
    def rounds_per_second(self) -> float:
        """Rounds played per wall-clock second (inf if no time was measured)."""
        return len(self.rounds) / self.wall_seconds if self.wall_seconds > 0 else math.inf

    def to_json(self) -> dict:
        """The JSON of `bananas spellevate --games N --json`: settings, totals, bots, rounds."""
        s = self.settings
        return {
            "settings": {
                "bots": s.bot_specs,
                "players": s.players,
                "sets": s.sets,
                "lexicon": s.lexicon,
                "min_length": s.min_length,
                "seed": self.seed,
                "workers": self.workers,
                "requested_games": self.requested,
            },
            "totals": {"rounds": len(self.rounds), "wall_seconds": round(self.wall_seconds, 3)},
            "bots": [entry.to_json() for entry in self.stats],
            "rounds": [asdict(record) for record in self.rounds],
        }

    def table(self) -> str:
        """The human-readable table of `bananas spellevate --games N`."""
        header = ("bot", "rounds", "wins", "win rate", "95% CI", "mean score", "tiles left")
        rows = []
        for entry in self.stats:
            low, high = entry.ci
            rows.append(
                (
                    entry.name,
                    str(entry.rounds),
                    str(entry.wins),
                    f"{100 * entry.win_rate:.1f}%",
                    f"{100 * low:.1f}-{100 * high:.1f}%",
                    f"{entry.mean_score:+.2f}",
                    f"{entry.mean_tiles_left:.1f}",
                )
            )
        widths = [max(len(title), *(len(row[i]) for row in rows)) for i, title in enumerate(header)]

        def line(cells) -> str:
            padded = (c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))
            return "  ".join(padded)

        s = self.settings
        sets = "double set" if s.sets == 2 else "one set"
        return "\n".join(
            [
                line(header),
                line(["-" * w for w in widths]),
                *(line(row) for row in rows),
                "",
                f"{len(self.rounds)} rounds ({s.players} players, {sets}, seed {self.seed}); "
                f"{self.wall_seconds:.1f} s wall ({self.workers} worker{'s' if self.workers != 1 else ''})",
            ]
        )


def tally(names: list[str], bot_specs: list[str], rounds: list[RoundRecord]) -> list[EntryStats]:
    """Each entry's totals (EntryStats, in the order of `names`) over `rounds`."""
    stats = [EntryStats(name, spec) for name, spec in zip(names, bot_specs, strict=True)]
    for record in rounds:
        for seat, entry in enumerate(record.entries):
            stats[entry].rounds += 1
            stats[entry].wins += record.winner == seat
            stats[entry].score_total += record.scores[seat]
            stats[entry].tiles_left_total += max(0, -record.scores[seat])
    return stats


def play_scheduled_round(task: tuple, settings: Settings) -> RoundRecord:
    """Run one scheduled round (in a worker process or in-process)."""
    index, group, rotation, seed, seated = task
    lexicon = get_lexicon(settings.lexicon)
    tiles = settings.tiles
    rng = np.random.default_rng(seed)
    leader, _ = first_leader(settings.players, tiles, rng)
    hands = deal(settings.players, tiles, rng, first=leader)
    bots = [make_spellevate_bot(settings.bot_specs[entry], lexicon, settings.min_length) for entry in seated]
    result = play_spellevate_round(hands, leader, lexicon, bots, settings.min_length)
    plays = sum(event["event"] == "play" for event in result.events)
    return RoundRecord(index, group, rotation, seed, list(seated), leader, result.winner, result.scores, plays)


def run_series(
    bot_specs: list[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    sets: int = 1,
    lexicon: str = "en",
    min_length: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> SeriesResult:
    """Play `games` rounds (rounded up to whole rotation groups) between the bots; by
    default as many players as bots. `progress(done, total)` is called after each round."""
    players = len(bot_specs) if players is None else players
    settings = Settings(list(bot_specs), players, sets, lexicon, min_length)
    check_table(players, settings.tiles)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    loaded = get_lexicon(lexicon)
    for spec in bot_specs:
        make_spellevate_bot(spec, loaded, min_length)  # a bad spec fails here, before any worker starts
    tasks = schedule(len(bot_specs), players, games, seed)
    started = time.perf_counter()
    records: list[RoundRecord] = []

    def done(record: RoundRecord) -> None:
        records.append(record)
        if progress:
            progress(len(records), len(tasks))

    # The first round is played here: it builds the word index, which forked workers inherit.
    done(play_scheduled_round(tasks[0], settings))
    if workers == 1 or len(tasks) == 1:
        for task in tasks[1:]:
            done(play_scheduled_round(task, settings))
    else:
        context = multiprocessing.get_context(default_start_method())
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks) - 1), mp_context=context) as pool:
            for record in pool.map(play_scheduled_round, tasks[1:], [settings] * (len(tasks) - 1)):
                done(record)
    return SeriesResult(settings, entry_names(bot_specs), seed, workers, games, records, time.perf_counter() - started)
