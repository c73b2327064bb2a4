"""Benchmark live play: rebuilds after PEEL and DUMP events (solver.search.board).

    python benchmarks/bench_live.py [--sequences 40] [--seed 7] [--record]

Each seeded sequence deals 21 tiles from the 144-tile bag, solves them, then PEELs one
tile at a time until the player holds 60. Every fifth draw is dumped instead: the drawn
tile goes back into the bunch (mixed in), three are drawn and placed. Reported per event
kind: median / p90 / max time and tiles moved, and the tiers that succeeded.
"""

from __future__ import annotations

import argparse
from collections import Counter
from datetime import date

import numpy as np
from results_file import machine, progress, record


def run_sequence(seed: int, lexicon, target: int = 60) -> list[tuple[str, float, int, str]]:
    from solver.core.grid import validate
    from solver.core.tiles import ENGLISH, draw
    from solver.search.board import Board

    rng = np.random.default_rng(seed)
    hand = draw(ENGLISH, 21, rng)
    bunch = ENGLISH - hand
    board = Board(lexicon, hand=hand, time_limit=2.0)
    if not board.rebuild().ok:
        return []
    events = []
    draws = 0
    while len(board.tiles) < target and len(bunch) >= 3:
        tile = draw(bunch, 1, rng)
        bunch = bunch - tile
        draws += 1
        if draws % 5 == 0:
            kind = "dump"
            bunch = bunch + tile  # the dumped tile is mixed back in before the three are drawn
            three = draw(bunch, 3, rng)
            bunch = bunch - three
            result = board.add(three)
        else:
            kind = "peel"
            result = board.add(tile)
        if result.ok and not validate(board.grid, lexicon, board.tiles).ok:
            raise SystemExit(f"INVALID GRID after {kind} (seed {seed}):\n{board.grid}")
        events.append((kind, result.elapsed_ms, result.moved, result.tier))
        if not result.ok:
            break
    return events


def summarise(events, kind: str) -> dict:
    rows = [e for e in events if e[0] == kind]
    times = np.array([e[1] for e in rows])
    moved = np.array([e[2] for e in rows])
    return {
        "kind": kind,
        "events": len(rows),
        "median_ms": float(np.median(times)),
        "p90_ms": float(np.percentile(times, 90)),
        "max_ms": float(times.max()),
        "median_moved": float(np.median(moved)),
        "p90_moved": float(np.percentile(moved, 90)),
        "max_moved": int(moved.max()),
        "tiers": dict(Counter(e[3] for e in rows)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sequences", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()

    from solver.lexicon.loader import get_lexicon
    from solver.search.board import Board

    lexicon = get_lexicon("en")
    Board(lexicon, hand="CATMAP").add("S")  # compile (or load) before timing
    events = []
    for index in progress(range(args.sequences), "sequences", "sequence"):
        events += run_sequence(args.seed * 1000 + index, lexicon)
    lines = [
        f"# live-play benchmark, {date.today().isoformat()}",
        "",
        machine() + " "
        f"{args.sequences} seeded sequences (seed {args.seed}): 21 tiles, then PEELs to 60 tiles, every fifth "
        "draw dumped (one back, three drawn).",
        "",
        "| event | count | median ms | p90 ms | max ms | median moved | p90 moved | max moved | tiers |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for kind in ("peel", "dump"):
        s = summarise(events, kind)
        tiers = ", ".join(f"{tier} {count}" for tier, count in sorted(s["tiers"].items()))
        lines.append(
            f"| {kind} | {s['events']} | {s['median_ms']:.3f} | {s['p90_ms']:.2f} | {s['max_ms']:.1f} | "
            f"{s['median_moved']:.0f} | {s['p90_moved']:.0f} | {s['max_moved']} | {tiers} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "live")


if __name__ == "__main__":
    main()
