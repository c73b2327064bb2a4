"""Benchmark whole games: a 4-bot classic hand, and tournament throughput.

    python benchmarks/bench_game.py [--games 30] [--seed 0] [--tournament-games 120] [--record]

Game: hard, medium, medium, easy (and, for comparison, four hard bots), classic English
rules, `--games` seeded hands played one after another in this process after a warm-up
hand (steady state: compiled kernels, warm lexicons). Reported: median / p90 / max wall
time per hand, and the median simulated game length and event count. Target: median
<= 1 s for the first lineup.

Tournament: the same four bots, 4 players, `--tournament-games` games, with workers=1
and workers=2; games/sec over the whole call, so workers=2 includes starting the
(spawned) worker processes. The per-game results of the two runs must agree.

--record writes benchmarks/results/<date>-game.md.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict
from datetime import date

import numpy as np
from results_file import machine, progress, record

BOTS = ["hard", "medium", "medium", "easy"]
EVEN = ["hard", "hard", "hard", "hard"]  # evenly matched: every seat keeps working to the end
TARGET_MEDIAN_SECONDS = 1.0


def time_games(specs: list[str], games: int, seed: int) -> dict:
    from solver.play.bots import make_bot
    from solver.play.hand import play_hand
    from solver.play.rules import Rules

    rules = Rules()
    play_hand(rules, [make_bot(spec) for spec in specs], seed + 1_000_000)  # warm-up: compile/load, lexicons
    walls, clocks, events, outcomes = [], [], [], []
    for index in progress(range(games), ", ".join(specs), "game"):
        bots = [make_bot(spec) for spec in specs]
        started = time.perf_counter()
        result = play_hand(rules, bots, seed + index)
        walls.append(time.perf_counter() - started)
        clocks.append(result.clock)
        events.append(len(result.events))
        outcomes.append(result.outcome)
    walls = np.array(walls)
    return {
        "bots": ", ".join(specs),
        "games": games,
        "median_s": float(np.median(walls)),
        "p90_s": float(np.percentile(walls, 90)),
        "max_s": float(walls.max()),
        "mean_s": float(walls.mean()),
        "median_clock": float(np.median(clocks)),
        "median_events": float(np.median(events)),
        "unawarded": outcomes.count("unawarded"),
    }


def time_tournaments(games: int, seed: int) -> dict[int, float]:
    from solver.play.rules import Rules
    from solver.play.tournament import run_tournament

    rates, per_game = {}, {}
    for workers in (1, 2):
        result = run_tournament(BOTS, games, players=4, seed=seed, workers=workers, rules=Rules())
        rates[workers] = result.games_per_second
        per_game[workers] = [asdict(game) for game in result.games]
    if per_game[1] != per_game[2]:
        raise SystemExit("tournament results differ between workers=1 and workers=2")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tournament-games", type=int, default=120)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()

    games = [time_games(specs, args.games, args.seed) for specs in (BOTS, EVEN)]
    rates = time_tournaments(args.tournament_games, args.seed)
    game = games[0]
    verdict = "meets" if game["median_s"] <= TARGET_MEDIAN_SECONDS else "MISSES"
    lines = [
        f"# game benchmark, {date.today().isoformat()}",
        "",
        machine(),
        "",
        f"4-bot classic hands, English, {args.games} seeded hands per lineup (seeds {args.seed}.."
        f"{args.seed + args.games - 1}), each lineup after a warm-up hand; wall time per hand:",
        "",
        "| bots | hands | median s | p90 s | max s | mean s | median simulated s | median events | unawarded |",
        "|---|---|---|---|---|---|---|---|---|",
        *(
            f"| {g['bots']} | {g['games']} | {g['median_s']:.3f} | {g['p90_s']:.3f} | {g['max_s']:.3f} | "
            f"{g['mean_s']:.3f} | {g['median_clock']:.1f} | {g['median_events']:.0f} | {g['unawarded']} |"
            for g in games
        ),
        "",
        f"Target: median <= {TARGET_MEDIAN_SECONDS:.0f} s steady state ({', '.join(BOTS)}): {verdict} it.",
        "",
        f"Tournament, same four bots at 4 players, {args.tournament_games} games (seed {args.seed}); wall time "
        "of the whole call, worker start-up included; per-game results identical across worker counts:",
        "",
        "| workers | games/sec |",
        "|---|---|",
        *(f"| {workers} | {rate:.2f} |" for workers, rate in rates.items()),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "game")


if __name__ == "__main__":
    main()
