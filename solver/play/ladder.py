"""Ladders: a round robin between bot entries, rated with Bradley-Terry strengths.

The games are a tournament's (`solver.play.tournament`): every deal is played K times with
the seats rotated, and with more entries than seats the K-entry tables cycle through every
combination in a seeded order, so a full cycle is a round robin (mixed tables for K > 2).
Any bot spec is an entry: `hard:dump_policy=advice` against `hard:dump_policy=hardest` is one
ladder.

The model: entry i has a strength p_i, and a table's winner is entry i with probability
p_i / (sum of p over the table's seats) (Luce's choice model; for two players it is
Bradley-Terry). A win shared by m seats counts 1/m to each; unawarded hands carry no
information and are left out of the fit (they still count as games). An entry that holds
two seats of a table counts twice in the sum. Strengths are fitted by maximum likelihood
with one virtual game per entry, half won, against an opponent
of strength 1: it keeps an entry that never wins (or always wins) at a finite rating, and
its pull vanishes as games accumulate. The fit is Newton's method on the log-strengths.

Ratings are on the Elo scale, 400 * log10(p), shifted so that the entries' mean is 1500: a
400-point gap means 10:1 odds in a two-player game. The 95% intervals are percentile
bootstrap intervals over deals (a deal's K rotated games are resampled together, because
they share their tiles), each resample refitted and centred the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.core.limits import MAX_LADDER_ITERATIONS
from solver.play.rules import Rules
from solver.play.schedule import GameRecord
from solver.play.tournament import TournamentResult, run_tournament

MEAN_RATING = 1500.0
ELO_SCALE = 400.0
PRIOR_GAMES = 1.0  # virtual games per entry, half won, against a strength-1 opponent
BOOTSTRAP = 1000
TOLERANCE = 1e-9  # largest change of a log-strength between Newton steps


@dataclass
class Rating:
    """One entry's rating, its bootstrap interval, and its record (seat-games, as in tournaments)."""

    name: str
    spec: str
    rating: float
    ci_low: float
    ci_high: float
    games: int
    wins: int
    shared: int

    def to_json(self) -> dict:
        """One entry of the JSON output's `ratings`: bot, spec, rating and interval (Elo scale), games, wins, shared."""
        return {
            "bot": self.name,
            "spec": self.spec,
            "rating": round(self.rating, 1),
            "ci_low": round(self.ci_low, 1),
            "ci_high": round(self.ci_high, 1),
            "games": self.games,
            "wins": self.wins,
            "shared": self.shared,
            "win_rate": round(self.wins / self.games, 6) if self.games else 0.0,
        }


@dataclass
class LadderResult:
    """What `run_ladder` returns: the tournament played, the ratings (best first) and the number of bootstrap
    samples of the intervals.
    """

    tournament: TournamentResult
    ratings: list[Rating]  # best first
    bootstrap: int

    def to_json(self) -> dict:
        """The JSON of `bananas ladder --json`: the tournament's settings (with bootstrap), totals, ratings
        and games.
        """
        data = self.tournament.to_json()
        return {
            "settings": {
                **data["settings"],
                "bootstrap": self.bootstrap,
                "model": "bradley-terry (luce)",
                "scale": f"elo, mean {MEAN_RATING:g}",
            },
            "totals": data["totals"],
            "entries": [rating.to_json() for rating in self.ratings],
        }

    def table(self) -> str:
        """The human-readable table of `bananas ladder`: rank, rating and interval, record."""
        header = ("rank", "bot", "rating", "95% CI", "games", "wins", "shared", "win rate")
        rows = [
            (
                str(rank),
                r.name,
                f"{r.rating:.0f}",
                f"{r.ci_low:.0f}-{r.ci_high:.0f}",
                str(r.games),
                str(r.wins),
                str(r.shared),
                f"{100 * r.wins / r.games:.1f}%" if r.games else "-",
            )
            for rank, r in enumerate(self.ratings, start=1)
        ]
        widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

        def line(cells) -> str:
            return "  ".join(
                c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            )

        result = self.tournament
        return "\n".join(
            [
                line(header),
                line(["-" * w for w in widths]),
                *(line(row) for row in rows),
                "",
                f"{len(result.games)} games ({result.players} players, seed {result.seed}): "
                f"{result.unawarded} unawarded, {result.shared} shared; {result.wall_seconds:.1f} s wall",
                f"Bradley-Terry ratings on the Elo scale (mean {MEAN_RATING:g}); 95% intervals from "
                f"{self.bootstrap} bootstrap resamples of the deals",
            ]
        )


@dataclass
class Evidence:
    """What the fit needs, per deal (rotation group): the seats each entry holds at the
    table (the same in every rotation), the wins each entry took, and the awarded games."""

    seats: np.ndarray  # (deals, entries) seat counts of one game
    wins: np.ndarray  # (deals, entries) wins over the deal's games, shared wins split
    awarded: np.ndarray  # (deals,) games of the deal with a winner

    @classmethod
    def from_games(cls, games: list[GameRecord], entries: int) -> Evidence:
        """The evidence of `games` for `entries` entries, one row per deal (rotation group), in group order."""
        deals = sorted({game.group for game in games})
        row = {group: index for index, group in enumerate(deals)}
        seats = np.zeros((len(deals), entries))
        wins = np.zeros((len(deals), entries))
        awarded = np.zeros(len(deals))
        for game in games:
            index = row[game.group]
            seats[index] = np.bincount(game.entries, minlength=entries)
            if game.outcome in ("win", "shared") and game.winners:
                awarded[index] += 1
                for seat in game.winners:
                    wins[index, game.entries[seat]] += 1 / len(game.winners)
        return cls(seats, wins, awarded)


def log_likelihood(theta: np.ndarray, lineups: np.ndarray, table_games: np.ndarray, wins: np.ndarray) -> float:
    """The model's log-likelihood at log-strengths `theta`, prior games included."""
    strengths = np.exp(theta)
    return float(
        (wins + PRIOR_GAMES / 2) @ theta
        - table_games @ np.log(lineups @ strengths)
        - PRIOR_GAMES * np.log1p(strengths).sum()
    )


def fit_strengths(lineups: np.ndarray, table_games: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """Maximum-likelihood strengths (with the prior games): `table_games[t]` awarded games
    were played at the table `lineups[t]` (seats per entry); `wins` are each entry's wins.

    Newton's method on the log-strengths: the log-likelihood is concave there, and strictly
    so with the prior games, so a few steps (halved when one would not climb) converge."""
    theta = np.zeros(lineups.shape[1])
    current = log_likelihood(theta, lineups, table_games, wins)
    for _ in range(MAX_LADDER_ITERATIONS):
        strengths = np.exp(theta)
        share = lineups * strengths / (lineups @ strengths)[:, None]  # each entry's win chance per table
        expected = table_games @ share
        gradient = wins + PRIOR_GAMES / 2 - expected - PRIOR_GAMES * strengths / (strengths + 1)
        hessian = share.T @ (table_games[:, None] * share) - np.diag(expected)
        hessian -= np.diag(PRIOR_GAMES * strengths / (strengths + 1) ** 2)
        step = np.linalg.solve(hessian, -gradient)
        while True:
            candidate = log_likelihood(theta + step, lineups, table_games, wins)
            if candidate >= current or np.max(np.abs(step)) < TOLERANCE:
                break
            step /= 2
        theta, current = theta + step, candidate
        if np.max(np.abs(step)) < TOLERANCE:
            break
    return np.exp(theta)


def elo_ratings(strengths: np.ndarray) -> np.ndarray:
    """Bradley-Terry strengths (positive floats) on the Elo scale: 400 log10, shifted so that the field's mean
    is 1500.
    """
    logs = ELO_SCALE * np.log10(strengths)
    return logs - logs.mean() + MEAN_RATING


def rate(evidence: Evidence, bootstrap: int = BOOTSTRAP, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Ratings and their (2, entries) bootstrap 95% interval bounds."""
    # Few distinct tables (a round robin has C(entries, K)): the fit works on those.
    lineups, inverse = np.unique(evidence.seats, axis=0, return_inverse=True)
    inverse = inverse.ravel()

    def fit(deal_weights: np.ndarray) -> np.ndarray:
        table_games = np.bincount(inverse, weights=deal_weights * evidence.awarded, minlength=len(lineups))
        return elo_ratings(fit_strengths(lineups, table_games, deal_weights @ evidence.wins))

    deals = len(evidence.awarded)
    ratings = fit(np.ones(deals))
    if bootstrap < 1:
        return ratings, np.vstack([ratings, ratings])
    rng = np.random.default_rng([seed, 0xB007])
    samples = np.empty((bootstrap, len(ratings)))
    for index in range(bootstrap):
        weight = np.bincount(rng.integers(0, deals, deals), minlength=deals).astype(float)  # deals drawn, counted
        samples[index] = fit(weight)
    return ratings, np.percentile(samples, [2.5, 97.5], axis=0)


def run_ladder(
    bot_specs: list[str],
    games: int,
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
    rules: Rules | None = None,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    bootstrap: int = BOOTSTRAP,
) -> LadderResult:
    """Play the round robin (see `run_tournament` for games, workers and scheduler) and rate it.

    The LadderResult holds the tournament and a Rating per entry, best first: Bradley-Terry on
    the Elo scale (field mean 1500) with a 95% interval from `bootstrap` resamples of the deals.
    ValueError for fewer than two bots or players or a negative `bootstrap`, and as
    `run_tournament`."""
    if len(bot_specs) < 2:
        raise ValueError("a ladder needs at least two bots")
    if players < 2:
        raise ValueError("a ladder compares bots at one table: players must be 2 or more")
    if bootstrap < 0:
        raise ValueError(f"bootstrap resamples must be >= 0, got {bootstrap}")
    result = run_tournament(bot_specs, games, players, seed, workers, rules, progress=progress, scheduler=scheduler)
    ratings, (lows, highs) = rate(Evidence.from_games(result.games, len(bot_specs)), bootstrap, seed)
    entries = [
        Rating(s.name, s.spec, float(ratings[i]), float(lows[i]), float(highs[i]), s.games, s.wins, s.shared)
        for i, s in enumerate(result.stats)
    ]
    entries.sort(key=lambda entry: -entry.rating)
    return LadderResult(result, entries, bootstrap)
