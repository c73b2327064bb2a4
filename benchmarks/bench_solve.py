"""Benchmark `solver.solve` on seeded random hands drawn from the 144-tile bag.

    python benchmarks/bench_solve.py                 # the full run (sizes 11..144)
    python benchmarks/bench_solve.py --quick         # 50 hands per small size
    python benchmarks/bench_solve.py --sizes 40,144 --hands 30   # a subset, 30 hands each
    python benchmarks/bench_solve.py --sizes 21:200,40:30        # hands per size
    python benchmarks/bench_solve.py --record        # also write benchmarks/results/<date>-solve.md
    python benchmarks/bench_solve.py --against "/tmp/peers/watson/target/release/watson --fresh --quiet --dict WORDS.txt"

With --against, another solver solves exactly the same hands, side by side: the hands of a size
go in chunks, each chunk solved by bananas and then by the other command (all the chunk's hands
as its last arguments, one process per chunk), so both see the same machine load. The command
prints one line per hand holding "solved in X ms" or "FAILED in X ms" (the Rust peer of
docs/ARCHITECTURE's speed figures does, with --fresh: each hand solved from scratch); its own
per-hand milliseconds are compared, not its process time. The table then gives per size its
solved count and median ms, and the ratio of the medians (other / bananas); WORDS.txt should be
our own `en` list (`python benchmarks/bench_process.py --write-words WORDS.txt`).

Per size it reports solved / no-grid / exhausted / timeout counts and the median, p90,
p99 and max wall time per hand (steady state: compiled kernels, warm lexicon), the
median node count, and every hand left unsettled (exhausted or timeout: neither a grid nor
a proof within the limit). Compile cost is measured apart, in fresh subprocesses: once with an
empty numba cache (compile) and once with the cache filled (cache load).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from datetime import date

import numpy as np
from results_file import machine, progress, record

SIZES = {11: 1000, 15: 1000, 21: 1000, 30: 50, 40: 50, 60: 20, 100: 20, 144: 20}
FIRST_CALL = (
    "import time; t = time.perf_counter(); from solver.search.solving import solve; "
    "from solver.lexicon.loader import get_lexicon; lex = get_lexicon('en'); t1 = time.perf_counter(); "
    "solve('AEEIRSTQUNL', lex); t2 = time.perf_counter(); "
    "print(round((t1 - t) * 1000, 1), round((t2 - t1) * 1000, 1))"
)


def first_call_costs() -> dict[str, float]:
    """Import + lexicon load, and first solve, with a cold and then a warm numba cache."""
    costs = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold", "warm"):
            out = subprocess.run(
                [sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True
            )
            load_ms, solve_ms = map(float, out.stdout.split())
            costs[f"import_and_lexicon_ms_{label}_cache"] = load_ms
            costs[f"first_solve_ms_{label}_cache"] = solve_ms
    return costs


PEER_LINE = re.compile(r"\b(?P<outcome>solved|FAILED) in (?P<ms>[\d.]+) ms")
CHUNK = 10  # hands per side-by-side turn: bananas solves a chunk, then the other command does


def peer_times(command: str, hands: list[str]) -> list[tuple[bool, float]]:
    """(solved, its own ms) per hand from one run of the other command on `hands`, in order."""
    run = subprocess.run([*shlex.split(command), *hands], capture_output=True, text=True, timeout=60 + 60 * len(hands))
    found = [(m["outcome"] == "solved", float(m["ms"])) for m in map(PEER_LINE.search, run.stdout.splitlines()) if m]
    if len(found) != len(hands):
        raise SystemExit(
            f"{command}: {len(found)} result lines for {len(hands)} hands (exit {run.returncode}):\n"
            f"{run.stdout[-1000:]}{run.stderr[-1000:]}"
        )
    return found


def bench_size(size: int, hands: int, args, lexicon) -> dict:
    from solver.core.grid import validate
    from solver.core.tiles import ENGLISH, draw
    from solver.search.solving import solve

    rng = np.random.default_rng([args.seed, size])
    drawn = [draw(ENGLISH, size, rng) for _ in range(hands)]
    times, nodes, statuses, unsettled, peer = [], [], {}, [], []
    bar = progress(range(hands), f"{size} tiles", "hand")
    for first in range(0, hands, CHUNK):
        chunk = drawn[first : first + CHUNK]
        for hand in chunk:
            result = solve(hand, lexicon, time_limit=args.time_limit)
            times.append(result.elapsed_ms)
            nodes.append(result.nodes)
            statuses[result.status] = statuses.get(result.status, 0) + 1
            if result.status in ("exhausted", "timeout"):
                unsettled.append(f"{hand.letters()} ({result.status}, {result.elapsed_ms:.0f} ms)")
            if result.grid is not None and not validate(result.grid, lexicon, hand).ok:
                raise SystemExit(f"INVALID GRID for {hand.letters()}:\n{result.grid}")
            bar.update(1)
        if args.against:
            peer += peer_times(args.against, [hand.letters() for hand in chunk])
    bar.close()
    t = np.array(times)
    row = {
        "size": size,
        "hands": hands,
        **{s: statuses.get(s, 0) for s in ("solved", "no-grid", "exhausted", "timeout")},
        "median_ms": float(np.median(t)),
        "p90_ms": float(np.percentile(t, 90)),
        "p99_ms": float(np.percentile(t, 99)),
        "max_ms": float(t.max()),
        "median_nodes": float(np.median(nodes)),
        "max_overshoot_ms": float(max(0.0, t.max() - args.time_limit * 1000)),
        "unsettled": unsettled,
    }
    if args.against:
        peer_ms = np.array([ms for _, ms in peer])
        row["peer_solved"] = sum(solved for solved, _ in peer)
        row["peer_median_ms"] = float(np.median(peer_ms))
        row["peer_max_ms"] = float(peer_ms.max())
        row["ratio"] = row["peer_median_ms"] / row["median_ms"]
    return row


def versions() -> str:
    """The commit (with `+changes` when the tree differs from it) and the library versions."""
    import numba
    import scipy

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def git(*args: str) -> str:
        run = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
        return run.stdout.strip() if run.returncode == 0 else ""

    commit = (git("rev-parse", "--short", "HEAD") or "unknown") + ("+changes" if git("status", "--porcelain") else "")
    return f"Commit {commit}, numba {numba.__version__}, numpy {np.__version__}, scipy {scipy.__version__}."


def markdown(rows: list[dict], costs: dict, args) -> str:
    lines = [
        f"# solve benchmark, {date.today().isoformat()}",
        "",
        machine(),
        versions(),
        f"Lexicon en, seed {args.seed}, time limit {args.time_limit} s per hand. "
        f"Load average when the table was written: {os.getloadavg()[0]:.1f} (other jobs slow a shared machine).",
        "",
        "| tiles | hands | solved | no-grid | exhausted | timeout | median ms | p90 ms | p99 ms | max ms "
        "| median nodes | past limit ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['size']} | {r['hands']} | {r['solved']} | {r['no-grid']} | {r['exhausted']} | {r['timeout']} | "
            f"{r['median_ms']:.3f} | {r['p90_ms']:.2f} | {r['p99_ms']:.2f} | {r['max_ms']:.1f} "
            f"| {r['median_nodes']:.0f} | {r['max_overshoot_ms']:.1f} |"
        )
    if args.against:
        lines += side_by_side(rows, args.against)
    lines += ["", "Unsettled hands (neither a grid nor a proof within the limit):", ""]
    for r in rows:
        lines.append(f"- {r['size']} tiles: {', '.join(r['unsettled']) or 'none'}")
    if costs:
        lines += ["", "First-call costs (fresh processes):", ""]
        lines += [f"- {key}: {value} ms" for key, value in costs.items()]
    return "\n".join(lines) + "\n"


def side_by_side(rows: list[dict], against: str) -> list[str]:
    """The per-size table against the other command: its solved count and median of its own
    per-hand ms, ours (settled: solved or no-grid), and the ratio of the medians."""
    lines = [
        "",
        f"Side by side with `{against} HAND...` on the same hands, in chunks of {CHUNK} alternating "
        "with bananas (its own per-hand ms, not its process time):",
        "",
        "| tiles (hands) | other: solved, median ms | bananas: settled, median, max ms | median ratio |",
        "|---|---|---|---|",
    ]
    for r in rows:
        settled = r["solved"] + r["no-grid"]
        lines.append(
            f"| {r['size']} ({r['hands']}) | {r['peer_solved']}, {r['peer_median_ms']:.1f} "
            f"| {settled}, {r['median_ms']:.2f}, {r['max_ms']:.1f} | {r['ratio']:.1f}x |"
        )
    return lines


def size_counts(item: str) -> tuple[int, int]:
    """'40' -> (40, its default count); '40:30' -> (40, 30)."""
    size, _, count = item.partition(":")
    return int(size), int(count) if count else SIZES.get(int(size), 20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--quick", action="store_true", help="50 hands for the small sizes, 10 for the large")
    parser.add_argument(
        "--sizes", type=str, default="", help="comma-separated subset of sizes, each SIZE or SIZE:HANDS"
    )
    parser.add_argument("--hands", type=int, default=0, help="hands per size (default: each size's own count)")
    parser.add_argument("--against", help="another solver's command, side by side (the hands are appended)")
    parser.add_argument("--no-first-call", action="store_true", help="skip the fresh-process compile costs")
    parser.add_argument("--record", action="store_true", help="write the table to benchmarks/results/")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from solver.lexicon.loader import get_lexicon
    from solver.search.solving import solve

    sizes = dict(SIZES)
    if args.sizes:
        sizes = dict(size_counts(item) for item in args.sizes.split(","))
    if args.quick:
        sizes = {s: min(n, 50 if s <= 21 else 10) for s, n in sizes.items()}
    if args.hands:
        sizes = dict.fromkeys(sizes, args.hands)
    costs = {} if args.no_first_call else first_call_costs()
    lexicon = get_lexicon("en")
    solve("AEEIRSTQUNL", lexicon)  # compile (or load) before timing
    rows = []
    for size, hands in sizes.items():
        started = time.perf_counter()
        rows.append(bench_size(size, hands, args, lexicon))
        print(f"size {size}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    text = markdown(rows, costs, args)
    print(json.dumps({"rows": rows, "first_call": costs}, indent=1) if args.json else text)
    if args.record:
        record(text, "solve")


if __name__ == "__main__":
    main()
