"""The engine's first-grid passes against variants, on the same seeded hands in one process.

    python benchmarks/bench_plans.py [--sizes 11:600,21:600,40:300] [--variants now,before,probe=150x10]
                                     [--seed 2027] [--record]

Results: benchmarks/results/<date>-first-pass.md.

Variants (`solver.search.solving`'s FIRST_GRID_PLAN with one thing changed):

- `now`: the engine's plan as it is;
- `before`: no probe, the large hands' first pass on 4,000 steps (the plan until 2026-12-06);
- `probe=BxN`: the probe listing B steps' moves a node for N nodes (`probe=none`: no probe);
- `large=B`: the large hands' first pass listing B steps' moves a node; `large=BxN`: B steps for N
  nodes, then the passes of `before`.

The hands of a size go in chunks of 10, each chunk solved by every variant in turn (the same
machine load for all), with a 64 MiB array written between chunks so that no variant finds the
word graph warm in the cache that another left. Per size and variant: the median, mean, p90, p99
and max of the solve's own `elapsed_ms` (objective 'any', time limit 1 s), the median node count,
the hands whose search went past 400 nodes (they reached the later passes) and the statuses. Every
grid is re-checked by the validator.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

import numpy as np
from results_file import machine, record

from solver import solve
from solver.core.grid import validate
from solver.core.tiles import ENGLISH, draw
from solver.lexicon.loader import get_lexicon
from solver.search import solving
from solver.search.plans import LARGE_HAND_PHASES, Phase, SearchPlan

THRASH_BYTES = 64 << 20


def variant_plan(name: str) -> SearchPlan:
    """The plan a variant's name describes (module docstring)."""
    now = solving.FIRST_GRID_PLAN
    if name == "now":
        return now
    if name == "before":
        return SearchPlan(now.small_hands, LARGE_HAND_PHASES)
    kind, _, value = name.partition("=")
    if kind == "probe":
        if value == "none":
            return SearchPlan(now.small_hands, now.large_hands)
        budget, nodes = map(int, value.split("x"))
        return SearchPlan(now.small_hands, now.large_hands, probe=Phase(0, budget, nodes))
    if kind == "large":  # large=B: the first pass on B steps; large=BxN: B steps for N nodes, then 4,000 steps
        first, *rest = LARGE_HAND_PHASES
        budget, _, nodes = value.partition("x")
        if nodes:
            passes = (Phase(first.max_branch, int(budget), int(nodes)), *LARGE_HAND_PHASES)
        else:
            passes = (Phase(first.max_branch, int(budget), first.node_limit), *rest)
        return SearchPlan(now.small_hands, passes, probe=now.probe)
    raise SystemExit(f"error: unknown variant {name!r} (now, before, probe=BxN, large=B)")


def quantile(ordered: list[float], share: float) -> float:
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)]


def run_size(size: int, count: int, seed: int, plans: dict[str, SearchPlan], lexicon) -> list[str]:
    rng = np.random.default_rng([seed, size])
    hands = [draw(ENGLISH, size, rng) for _ in range(count)]
    times: dict[str, list[float]] = {name: [] for name in plans}
    nodes: dict[str, list[int]] = {name: [] for name in plans}
    statuses: dict[str, Counter] = {name: Counter() for name in plans}
    thrash = np.ones(THRASH_BYTES // 8)
    engine_plan = solving.FIRST_GRID_PLAN
    try:
        for first in range(0, count, 10):
            for name, plan in plans.items():
                solving.FIRST_GRID_PLAN = plan  # engine_plan('any') reads it at every call
                thrash += 1
                for hand in hands[first : first + 10]:
                    result = solve(hand, lexicon, time_limit=1.0)
                    if result.grid is not None and not validate(result.grid, lexicon, tiles=hand).ok:
                        raise SystemExit(f"error: {name} returned an invalid grid for {hand.letters()}")
                    times[name].append(result.elapsed_ms)
                    nodes[name].append(result.nodes)
                    statuses[name][result.status] += 1
    finally:
        solving.FIRST_GRID_PLAN = engine_plan
    rows = []
    for name in plans:
        ordered = sorted(times[name])
        rows.append(
            f"| {size} ({count}) | {name} | {statistics.median(ordered):.3f} | {statistics.mean(ordered):.3f} | "
            f"{quantile(ordered, 0.9):.3f} | {quantile(ordered, 0.99):.3f} | {ordered[-1]:.2f} | {statistics.median(nodes[name]):g} | "
            f"{sum(n > 400 for n in nodes[name])} | {', '.join(f'{k} {v}' for k, v in sorted(statuses[name].items()))} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="11:600,15:600,21:600,30:600,40:300,60:100,144:40")
    parser.add_argument("--variants", default="now,before,probe=none")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/<date>-first-pass.md")
    args = parser.parse_args()
    plans = {name: variant_plan(name) for name in args.variants.split(",")}
    lexicon = get_lexicon("en")
    solve("AEEIRSTQUNL", lexicon)  # load and compile before any clock
    header = machine()
    lines = [
        "| tiles (hands) | variant | median ms | mean | p90 | p99 | max | median nodes | past 400 nodes | statuses |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    for item in args.sizes.split(","):
        size, _, count = item.partition(":")
        rows = run_size(int(size), int(count or 200), args.seed, plans, lexicon)
        print("\n".join(rows), flush=True)
        lines += rows
    if args.record:
        text = (
            f"# The first-grid passes against variants (bench_plans.py)\n\n{header}\nSeed {args.seed}.\n\n"
            + "\n".join(lines)
        )
        record(text + "\n", "first-pass")


if __name__ == "__main__":
    main()
