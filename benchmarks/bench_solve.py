"""Benchmark `solver.solve` on seeded random hands drawn from the 144-tile bag.

    python benchmarks/bench_solve.py                 # the full run (sizes 11..144)
    python benchmarks/bench_solve.py --quick         # 50 hands per small size
    python benchmarks/bench_solve.py --record        # also write benchmarks/results/<date>-solve.md

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


def bench_size(size: int, hands: int, seed: int, time_limit: float, lexicon) -> dict:
    from solver.core.grid import validate
    from solver.core.tiles import ENGLISH, draw
    from solver.search.solving import solve

    rng = np.random.default_rng([seed, size])
    times, nodes, statuses, unsettled = [], [], {}, []
    for _ in progress(range(hands), f"{size} tiles", "hand"):
        hand = draw(ENGLISH, size, rng)
        result = solve(hand, lexicon, time_limit=time_limit)
        times.append(result.elapsed_ms)
        nodes.append(result.nodes)
        statuses[result.status] = statuses.get(result.status, 0) + 1
        if result.status in ("exhausted", "timeout"):
            unsettled.append(f"{hand.letters()} ({result.status}, {result.elapsed_ms:.0f} ms)")
        if result.grid is not None and not validate(result.grid, lexicon, hand).ok:
            raise SystemExit(f"INVALID GRID for {hand.letters()}:\n{result.grid}")
    t = np.array(times)
    return {
        "size": size,
        "hands": hands,
        **{s: statuses.get(s, 0) for s in ("solved", "no-grid", "exhausted", "timeout")},
        "median_ms": float(np.median(t)),
        "p90_ms": float(np.percentile(t, 90)),
        "p99_ms": float(np.percentile(t, 99)),
        "max_ms": float(t.max()),
        "median_nodes": float(np.median(nodes)),
        "max_overshoot_ms": float(max(0.0, t.max() - time_limit * 1000)),
        "unsettled": unsettled,
    }


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
    lines += ["", "Unsettled hands (neither a grid nor a proof within the limit):", ""]
    for r in rows:
        lines.append(f"- {r['size']} tiles: {', '.join(r['unsettled']) or 'none'}")
    lines += ["", "First-call costs (fresh processes):", ""]
    lines += [f"- {key}: {value} ms" for key, value in costs.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--quick", action="store_true", help="50 hands for the small sizes, 10 for the large")
    parser.add_argument("--sizes", type=str, default="", help="comma-separated subset of sizes")
    parser.add_argument("--record", action="store_true", help="write the table to benchmarks/results/")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from solver.lexicon.loader import get_lexicon
    from solver.search.solving import solve

    sizes = dict(SIZES)
    if args.sizes:
        sizes = {int(s): SIZES.get(int(s), 20) for s in args.sizes.split(",")}
    if args.quick:
        sizes = {s: min(n, 50 if s <= 21 else 10) for s, n in sizes.items()}
    costs = first_call_costs()
    lexicon = get_lexicon("en")
    solve("AEEIRSTQUNL", lexicon)  # compile (or load) before timing
    rows = []
    for size, hands in sizes.items():
        started = time.perf_counter()
        rows.append(bench_size(size, hands, args.seed, args.time_limit, lexicon))
        print(f"size {size}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    text = markdown(rows, costs, args)
    print(json.dumps({"rows": rows, "first_call": costs}, indent=1) if args.json else text)
    if args.record:
        record(text, "solve")


if __name__ == "__main__":
    main()
