"""Benchmark tournament throughput on each backend: local processes and a Dask cluster.

    python benchmarks/bench_cluster.py [--games 120] [--seed 0] [--record]

The same tournament (hard, medium, medium, easy at 4 players, `--games` games) is played:
    local, 1 worker      in this process (after a warm-up game: lexicons loaded, kernels loaded)
    local, 2 workers     forked worker processes (the whole call, worker start-up included)
    LocalCluster, 2      a `distributed.LocalCluster` of 2 worker processes x 1 thread, through
                         `--scheduler`'s code path; started and warmed up first (start-up and the
                         cold first run are reported apart), then timed like the others
Games per second over the whole call, and the scaling efficiency: rate / (workers x the
1-worker rate). The per-game results of every run must be identical.

Needs the `cluster` extra. --record writes benchmarks/results/<date>-cluster.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from dataclasses import asdict
from datetime import date

from results_file import machine, record

from solver.cli.outputs import progress_bar
from solver.play.tournament import run_tournament

BOTS = ["hard", "medium", "medium", "easy"]
PLAYERS = 4


def timed(label: str, games: int, seed: int, **backend) -> tuple[float, list[dict], int]:
    """(games/sec, per-game records, games played) for one whole run_tournament call."""
    with progress_bar(games, label) as bar:
        started = time.perf_counter()
        result = run_tournament(
            BOTS, games, PLAYERS, seed, progress=lambda done, _: bar.update(done - bar.n), **backend
        )
        wall = time.perf_counter() - started
    return len(result.games) / wall, [asdict(game) for game in result.games], len(result.games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    from distributed import LocalCluster

    load_before = os.getloadavg()[0]
    timed("warm-up", PLAYERS, args.seed + 1)  # this process: lexicons and kernels loaded before timing
    rows = {}
    rows["local, 1 worker"] = (1, *timed("local x1", args.games, args.seed, workers=1))
    rows["local, 2 workers"] = (2, *timed("local x2", args.games, args.seed, workers=2))
    started = time.perf_counter()
    # Distributed's own logs silenced (as the tests' clusters are): a worker whose heartbeat
    # meets the scheduler already closing at the end logs a traceback (seen on a loaded CI
    # machine); a game that fails raises in this process all the same.
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.CRITICAL
    ) as cluster:
        cluster_start = time.perf_counter() - started
        cold_rate, _, cold_games = timed(
            "cluster cold", 2 * PLAYERS, args.seed + 2, scheduler=cluster.scheduler_address
        )
        rows["LocalCluster, 2 workers"] = (
            2,
            *timed("cluster x2", args.games, args.seed, scheduler=cluster.scheduler_address),
        )
    reference = rows["local, 1 worker"][2]
    for name, (_, _, games, _) in rows.items():
        if games != reference:
            raise SystemExit(f"per-game results of '{name}' differ from the 1-worker run")
    base = rows["local, 1 worker"][1]
    lines = [
        f"# cluster benchmark, {date.today().isoformat()}",
        "",
        machine("dask", "distributed"),
        "",
        f"Tournament: {', '.join(BOTS)} at {PLAYERS} players, {rows['local, 1 worker'][3]} games (seed {args.seed}); "
        "games/sec over the whole call; per-game results identical on every backend. Efficiency = rate / "
        "(workers x the 1-worker rate).",
        "",
        "| backend | workers | games/sec | speed-up | scaling efficiency |",
        "|---|---|---|---|---|",
        *(
            f"| {name} | {workers} | {rate:.2f} | {rate / base:.2f}x | {100 * rate / (workers * base):.0f}% |"
            for name, (workers, rate, _, _) in rows.items()
        ),
        "",
        f"LocalCluster start-up: {cluster_start:.1f} s; its first run ({cold_games} games, workers importing "
        f"numba and loading lexicons and kernels): {cold_rate:.2f} games/sec. The timed cluster run comes after it.",
        "The machine has 2 cores, so 2 workers is the most that can scale here. Load average (1 min) before "
        f"the runs: {load_before:.2f}, after: {os.getloadavg()[0]:.2f} (other work on the machine slows every row).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "cluster")


if __name__ == "__main__":
    main()
