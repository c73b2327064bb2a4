"""What the first grid costs on the referee's clock, spec by spec, on the dealt hands of a seed: the
cheap proxy for a first-grid lever, in seconds instead of games.

    python benchmarks/bench_first_grid.py [--seed 6464] [--deals 200] [--specs SPEC;SPEC...] [--record]

Every deal of a 2-player tournament dealt from --seed (`solver.play.schedule.hand_seed`, the deals
`bananas tournament --seed` plays), each seat's dealt hand: the first decision's charge before the
jitter (`solver.play.ceiling.first_grid_seconds`, a first decision that dumps counted as what it is
charged) and the way to a first complete grid (`first_grid_race`: every charge until the seat's
first PEEL, DUMPs and their draws included, the other seat idle). Per spec: the means, the looks,
the words, the DUMPs on the way, and the share of hands where the way to a first grid is cheaper or
dearer than the reference's (the first spec). `oracle:...` specs are the study's oracles
(`solver.play.oracle`). --record writes benchmarks/results/<date>-first-grid.md.
"""

from __future__ import annotations

import argparse
import statistics
import time

from results_file import machine, record

from solver.play import oracle
from solver.play.ceiling import dealt_hands, first_grid_race, first_grid_seconds
from solver.play.rules import Rules
from solver.play.schedule import hand_seed

SPECS = (
    "hard",
    "hard:opening=1,opening_words=4",
    "oracle:first",
    "hard:side_words=1",
    "hard:side_words=2",
    "hard:side_words=3",
    "hard:side_words=6",
    "hard:side_words=3,opening=1,opening_words=4",
)
UNREACHED = 600.0  # seconds counted for a seat that never completes a first grid (none did here)


def measure(spec: str, seed: int, deals: int) -> dict:
    """The first grids of `spec` on every seat of `deals` deals from `seed`."""
    rules = Rules()
    charges, races = [], []
    for group in range(deals):
        deal = hand_seed(seed, group)
        for seat, tiles in enumerate(dealt_hands(rules, 2, deal)):
            charges.append(first_grid_seconds(spec, tiles, rules, make=oracle.make))
            races.append(first_grid_race(spec, rules, deal, seat, make=oracle.make))
    return {"charges": charges, "races": races}


def table(seed: int, deals: int, specs: list[str]) -> list[str]:
    lines = [
        f"Dealt hands of seed {seed}: {deals} deals, both seats ({2 * deals} hands).",
        "",
        "| spec | first decision | first complete grid | looks | words | DUMPs | cheaper than "
        f"`{specs[0]}` | dearer | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    reference: list[float] = []
    for spec in specs:
        started = time.perf_counter()
        found = measure(spec, seed, deals)
        races = found["races"]
        seconds = [race.seconds if race.seconds is not None else UNREACHED for race in races]
        reference = reference or seconds
        cheaper = sum(mine < theirs for mine, theirs in zip(seconds, reference, strict=True)) / len(seconds)
        dearer = sum(mine > theirs for mine, theirs in zip(seconds, reference, strict=True)) / len(seconds)
        lines.append(
            f"| `{spec}` | {statistics.mean(found['charges']):.2f} s | {statistics.mean(seconds):.2f} s "
            f"| {statistics.mean(race.looks for race in races):.2f} | {statistics.mean(race.words for race in races):.2f} "
            f"| {sum(race.dumps for race in races)} | {cheaper:.0%} | {dearer:.0%} "
            f"| {time.perf_counter() - started:.0f} s |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, action="append", help="repeatable (default: 6464 and 77)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--specs", default=";".join(SPECS), help="';'-separated, the reference first")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine()
    specs = args.specs.split(";")
    lines = ["# The first grid on the referee's clock", "", header, ""]
    for seed in args.seed or [6464, 77]:
        lines += table(seed, args.deals, specs) + [""]
    print("\n".join(lines))
    if args.record:
        record("\n".join(lines), "first-grid-proxy")


if __name__ == "__main__":
    main()
