"""Benchmark the solver's strategies side by side: every objective under every move ordering.

    python benchmarks/bench_strategies.py [--hands 30] [--max-nodes 2000] [--first-nodes 50000] [--seed 2026] [--record]

Hand sets: seeded hands drawn from the English 144-tile bag, `--hands` of 11 and of 21
tiles, a third as many of 40, and the whole bag (144 tiles: one hand, since every 144-tile
draw is the same multiset).

Settings: each objective (any, fewest-words, compact, longest-word) under each move ordering:
    hard-first   the default order (hard letters first, long moves, balanced leave), no noise
    noisy        the default order with seeded noise (`solve(seed=...)`, one seed per hand)
    flat         every letter weighs the same (long moves and the balanced leave still count):
                 what the hard-letter weights are worth. The benchmark swaps the solver's
                 shared weight table for the run; the library itself has no such switch.

Measures, per hand: time to the first grid (the objective 'any' run, which stops there: the
other objectives find the same first grid, then keep improving), and for the returned grid
the number of words, the bounding-box area and the longest word. Objectives other than 'any'
stop after `--max-nodes` search nodes, so the grids they return do not depend on the
machine's speed (the times do); the 'any' runs stop at their first grid, or after
`--first-nodes` nodes (a hand that has no grid within that counts as unsolved), and a 10 s
safety limit bounds every solve.

Output: a Markdown table of medians per setting and hand size, and one plot per measure
(needs matplotlib). --record writes them to benchmarks/results/<date>-strategies.md and
<date>-strategies-<measure>.svg.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
from datetime import date
from pathlib import Path

import numpy as np
from results_file import RESULTS, machine, record

from solver.cli.outputs import progress_bar
from solver.core.tiles import ENGLISH, draw
from solver.search import solving
from solver.search.objectives import OBJECTIVES

ORDERINGS = ("hard-first", "noisy", "flat")
MEASURES = {  # key: (title, unit, better)
    "first_ms": ("time to first grid", "ms", "lower"),
    "words": ("words", "words", "lower"),
    "area": ("bounding-box area", "cells", "lower"),
    "longest": ("longest word", "letters", "higher"),
}
SAFETY_SECONDS = 10.0


@contextlib.contextmanager
def ordering(name: str):
    """The move ordering for the solves inside: flat gives every letter the mean weight (the
    process-wide default ordering is swapped: this benchmark solves in one thread)."""
    saved = solving._ORDERING
    if name == "flat":
        solving._ORDERING = saved._replace(letter=np.full_like(saved.letter, saved.letter.mean()))
    try:
        yield
    finally:
        solving._ORDERING = saved


def hand_sets(hands: int, seed: int) -> dict[int, list]:
    sizes = {11: hands, 21: hands, 40: max(1, hands // 3), 144: 1}
    return {size: [draw(ENGLISH, size, np.random.default_rng([seed, size, i])) for i in range(count)]
            for size, count in sizes.items()}  # fmt: skip


def measure(solution) -> dict:
    grid = solution.grid
    return {
        "words": len(solution.words),
        "area": grid.height * grid.width,
        "longest": max(len(word) for word in solution.words),
    }


def run(hands: int, max_nodes: int, first_nodes: int, seed: int) -> dict:
    """{(size, objective, ordering): {"solved": n, "hands": n, measure: [values]}}"""
    from solver.core.grid import validate
    from solver.lexicon.loader import get_lexicon

    lexicon = get_lexicon("en")
    solving.warm_kernels(lexicon)
    sets = hand_sets(hands, seed)
    for hand_list in sets.values():  # allocate each size's search buffers before any clock runs
        solving.solve(hand_list[0], lexicon, time_limit=SAFETY_SECONDS)
    results: dict = {}
    total = sum(len(hs) for hs in sets.values()) * len(OBJECTIVES) * len(ORDERINGS)
    with progress_bar(total, "solving", unit="solve") as bar:
        for name in ORDERINGS:
            with ordering(name):
                for size, hand_list in sets.items():
                    for objective in OBJECTIVES:
                        cell = results.setdefault((size, objective, name), {"solved": 0, "hands": len(hand_list)})
                        for index, hand in enumerate(hand_list):
                            capped = objective != "any"
                            solution = solving.solve(
                                hand, lexicon, time_limit=SAFETY_SECONDS, objective=objective,
                                seed=index + 1 if name == "noisy" else None,
                                max_nodes=max_nodes if capped else first_nodes,
                            )  # fmt: skip
                            bar.update(1)
                            if not solution.solved:
                                continue
                            assert validate(solution.grid, lexicon, hand).ok  # the independent validator
                            cell["solved"] += 1
                            values = measure(solution)
                            if not capped:
                                values["first_ms"] = solution.elapsed_ms
                            for key, value in values.items():
                                cell.setdefault(key, []).append(value)
    for size in sets:  # the first grid is the same search whatever the objective
        for name in ORDERINGS:
            first = results[(size, "any", name)].get("first_ms", [])
            for objective in OBJECTIVES:
                results[(size, objective, name)]["first_ms"] = first
    return results


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(results: dict) -> list[str]:
    lines = [
        "| tiles | objective | ordering | solved | first grid ms (median) | words | area | longest word |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (size, objective, name), cell in sorted(results.items(), key=lambda item: item[0]):
        lines.append(
            f"| {size} | {objective} | {name} | {cell['solved']}/{cell['hands']} | {median(cell['first_ms']):.2f} | "
            f"{median(cell.get('words', [])):.1f} | {median(cell.get('area', [])):.0f} | "
            f"{median(cell.get('longest', [])):.1f} |"
        )
    return lines


def plots(results: dict, stem: str) -> list[Path]:
    """One figure per measure: a panel per hand size, objectives along x, a bar per ordering."""
    from matplotlib.figure import Figure

    sizes = sorted({size for size, _, _ in results})
    paths = []
    for key, (title, unit, better) in MEASURES.items():
        figure = Figure(figsize=(12, 3.4), layout="constrained")
        axes = figure.subplots(1, len(sizes))
        objectives = ["any"] if key == "first_ms" else list(OBJECTIVES)
        width = 0.8 / len(ORDERINGS)
        for axis, size in zip(axes, sizes, strict=True):
            for offset, name in enumerate(ORDERINGS):
                heights = [median(results[(size, objective, name)].get(key, [])) for objective in objectives]
                positions = np.arange(len(objectives)) + (offset - (len(ORDERINGS) - 1) / 2) * width
                axis.bar(positions, heights, width, label=name)
            axis.set_xticks(range(len(objectives)), objectives, rotation=20, fontsize="small")
            axis.set_title(f"{size} tiles")
            axis.set_ylabel(unit)
        handles, labels = axes[0].get_legend_handles_labels()
        figure.legend(handles, labels, loc="outside right upper", fontsize="small", title="move ordering")
        figure.suptitle(f"{title} (median; {better} is better)")
        path = RESULTS / f"{stem}-{key.replace('_', '-')}.svg"
        figure.savefig(path, format="svg", metadata={"Date": None})
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--max-nodes", type=int, default=2000)
    parser.add_argument("--first-nodes", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()

    results = run(args.hands, args.max_nodes, args.first_nodes, args.seed)
    stem = f"{date.today().isoformat()}-strategies"
    lines = [
        f"# strategy benchmark, {date.today().isoformat()}",
        "",
        machine(),
        "",
        f"Lexicon en; hands from the English bag, seed {args.seed}: {args.hands} of 11 and of 21 tiles, "
        f"{max(1, args.hands // 3)} of 40, and the whole 144-tile bag. Objectives other than 'any' stop after "
        f"{args.max_nodes} search nodes; 'any' stops at its first grid or after {args.first_nodes} nodes. 'First grid' "
        "is the 'any' run (the same first grid for every objective under one ordering). Medians over the solved "
        "hands; every grid re-checked by the validator.",
        "",
        *table(results),
    ]
    if args.record:
        try:
            paths = plots(results, stem)
            lines += ["", "Plots: " + ", ".join(f"[{path.name}]({path.name})" for path in paths)]
        except ImportError:
            lines += ["", "(no plots: matplotlib is not installed)"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "strategies")


if __name__ == "__main__":
    main()
