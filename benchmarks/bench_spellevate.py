"""Benchmark Spellevate bots: the planner against three simple bots.

    python benchmarks/bench_spellevate.py [--rounds 400] [--double-rounds 80] [--seed 0] [--workers 1] [--record]

Series (`solver.play.spellevate_tournament.run_series`): 4 players, each deal played four
times with the bots rotated through the seats, so seat and deal luck cancel. Reported per
lineup: the planner's round wins with a 95% Wilson interval, its mean score per round
(RULES.md's optional score: the winner gains the tiles left in the other hands, the
others lose theirs, the scores sum to zero), the simple bots' figures, and wall time per
round. A lineup of four simple bots checks the rotation: identical bots rotated through
the same deal must win exactly 25% each with a mean score of exactly 0.

Targets (issue 14): with one set, the planner wins >= 50% of rounds (a simple bot wins 25%
by symmetry) and its mean score is positive.

--record writes benchmarks/results/<date>-spellevate.md.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from datetime import date
from pathlib import Path

from results_file import machine, record

TARGET_WIN_RATE = 0.5
LINEUP = ["planner", "simple", "simple", "simple"]
BASELINE = ["simple", "simple", "simple", "simple"]


def versions() -> str:
    import numba

    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True)
        if dirty.stdout.strip():
            commit += " (with uncommitted changes)"
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return f"Commit {commit}; numba {numba.__version__}."


def series(specs: list[str], rounds: int, seed: int, sets: int, workers: int) -> dict:
    from solver.play.spellevate_tournament import run_series

    started = time.perf_counter()
    result = run_series(specs, rounds, seed=seed, workers=workers, sets=sets)
    wall = time.perf_counter() - started
    stats = result.stats
    first = stats[0]
    others = stats[1:]
    other_rounds = sum(entry.rounds for entry in others)
    low, high = first.ci
    return {
        "bots": ", ".join(specs),
        "sets": sets,
        "rounds": len(result.rounds),
        "first": specs[0],
        "wins": first.wins,
        "rate": first.win_rate,
        "low": low,
        "high": high,
        "score": first.mean_score,
        "tiles_left": first.mean_tiles_left,
        "others_rate": sum(entry.wins for entry in others) / other_rounds,
        "others_score": sum(entry.score_total for entry in others) / other_rounds,
        "plays": sum(record.plays for record in result.rounds) / len(result.rounds),
        "seconds_per_round": wall / len(result.rounds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=400, help="rounds of the one-set series")
    parser.add_argument("--double-rounds", type=int, default=80, help="rounds of the double-set series")
    parser.add_argument("--baseline-rounds", type=int, default=200, help="rounds of four simple bots")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()

    rows = [
        series(LINEUP, args.rounds, args.seed, 1, args.workers),
        series(LINEUP, args.double_rounds, args.seed, 2, args.workers),
        series(BASELINE, args.baseline_rounds, args.seed, 1, args.workers),
    ]
    main_row = rows[0]
    wins_target = main_row["rate"] >= TARGET_WIN_RATE
    score_target = main_row["score"] > 0
    verdict = (
        f"win rate {100 * main_row['rate']:.1f}% (95% CI {100 * main_row['low']:.1f}-{100 * main_row['high']:.1f}%): "
        f"{'meets' if wins_target else 'MISSES'} the >= 50% target"
        f"{', and the whole interval is above it' if main_row['low'] >= TARGET_WIN_RATE else ''}; "
        f"mean score {main_row['score']:+.2f}: {'meets' if score_target else 'MISSES'} the > 0 target."
    )
    lines = [
        f"# Spellevate benchmark, {date.today().isoformat()}",
        "",
        machine(),
        versions(),
        "",
        f"Seat-rotated series at 4 players (seed {args.seed}, {args.workers} worker{'s' * (args.workers != 1)}): "
        "every deal is played once per seat. The first bot's figures, then the simple bots' together:",
        "",
        "| bots | sets | rounds | first bot wins | win rate | 95% CI | mean score | tiles left | "
        "others' win rate | others' mean score | plays/round | s/round |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        *(
            f"| {r['bots']} | {r['sets']} | {r['rounds']} | {r['wins']} | {100 * r['rate']:.1f}% | "
            f"{100 * r['low']:.1f}-{100 * r['high']:.1f}% | {r['score']:+.2f} | {r['tiles_left']:.1f} | "
            f"{100 * r['others_rate']:.1f}% | {r['others_score']:+.2f} | {r['plays']:.1f} | "
            f"{r['seconds_per_round']:.2f} |"
            for r in rows
        ),
        "",
        f"Targets (one set, planner vs three simple): {verdict}",
        "",
        "The four-simple row checks the rotation: identical bots rotated through the same deals win exactly 25% "
        "each, with a mean score of exactly 0.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "spellevate")


if __name__ == "__main__":
    main()
