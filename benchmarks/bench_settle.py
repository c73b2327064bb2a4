"""Benchmark how `solver.solve` settles hands up to 21 tiles: a grid or a proof, within 1 s.

    python benchmarks/bench_settle.py                # the known hard hands + 1000 hands of 11, 15, 21
    python benchmarks/bench_settle.py --hands 100    # fewer random hands per size
    python benchmarks/bench_settle.py --vowel-poor 100   # also 100 hands per size with 1-2 vowels
    python benchmarks/bench_settle.py --hands 0 --stress 50   # the hard classes only: 50 hands a class and size
    python benchmarks/bench_settle.py --hands 0 --stress 100 --stress-sizes 21 --seed 1   # a wider draw, 21 tiles
    python benchmarks/bench_settle.py --record       # also write benchmarks/results/<date>-settle.md

The random hands are bench_solve.py's draws (same seed, same generator per size), so the
default run settles the project's 3,000-hand bench. Per group it reports how many hands were
settled (solved, or no-grid with a proof), the median and max wall time per hand (steady
state: kernels compiled, lexicon warm), which proofs the no-grid answers carry, and every hand
left unsettled (exhausted or timeout). Every grid is re-checked by the validator.

`--stress N` adds the hard classes, seeded, N hands each at 15, 21 and 30 tiles (or
`--stress-sizes`): two Qs and no U, one to three vowels, and many duplicates (the hand drawn
from six letters only).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import date

import numpy as np
from results_file import machine, progress, record

SIZES = (11, 15, 21)
# Hands of the project's bench that no method settled before (2026-12-01): vowel-poor, Q/J/X/Z-heavy.
HARD_HANDS = ("BEFJLQSTUVW", "IJNOQRSTTXX", "AEGGHQRRSSY", "DGHILNQRRSTUVXZ", "DLLMPQRSTUUWXYZ")
# The hands issue 36 measured (2026-12-03): double Q without U, and vowel-poor 21-tile hands.
ISSUE_36_HANDS = (
    "CDEENNOOQQRSSTV",
    "AAABCFKKNNOOQQRRRRSWZ",
    "ACEFGGGLLNNQQRRTTTUVX",
    "BCDEFIKKLNNNNNPRRRSST",
    "CDDFGIJMNNNOQTTTTUVWY",
    "CDDDFHIKOPQRRTUVVWXXZ",
)
STRESS_SIZES = "15,21,30"  # --stress-sizes' default


def settle_group(name: str, hands: list, time_limit: float, lexicon) -> dict:
    from solver.core.grid import validate
    from solver.search.solving import solve

    times, statuses, proofs, unsettled = [], {}, {}, []
    for hand in progress(hands, name, "hand"):
        result = solve(hand, lexicon, time_limit=time_limit)
        times.append(result.elapsed_ms)
        statuses[result.status] = statuses.get(result.status, 0) + 1
        if result.status == "no-grid":
            proofs[result.proof] = proofs.get(result.proof, 0) + 1
        if result.status in ("exhausted", "timeout"):
            unsettled.append(f"{result.tiles.letters()} ({result.status}, {result.elapsed_ms:.0f} ms)")
        if result.grid is not None and not validate(result.grid, lexicon, result.tiles).ok:
            raise SystemExit(f"INVALID GRID for {result.tiles.letters()}:\n{result.grid}")
    t = np.array(times)
    return {
        "group": name,
        "hands": len(hands),
        "settled": statuses.get("solved", 0) + statuses.get("no-grid", 0),
        "solved": statuses.get("solved", 0),
        "no-grid": statuses.get("no-grid", 0),
        "median_ms": float(np.median(t)),
        "max_ms": float(t.max()),
        "over_1s": int((t > 1000).sum()),
        "proofs": proofs,
        "unsettled": unsettled,
    }


def random_hands(size: int, count: int, seed: int) -> list:
    from solver.core.tiles import ENGLISH, draw

    rng = np.random.default_rng([seed, size])  # bench_solve.py's draws
    return [draw(ENGLISH, size, rng) for _ in range(count)]


def vowel_poor_hands(size: int, count: int, seed: int, most: int = 2) -> list:
    """Hands like the hard ones: one to `most` vowels (drawn from the bag's), the rest consonants
    drawn from the bag's consonants (Y counts as a consonant)."""
    from solver.core.tiles import ENGLISH, TileCounts, draw

    vowels = TileCounts.from_letters("".join(ch * ENGLISH[ch] for ch in "AEIOU"))
    consonants = TileCounts.from_letters("".join(ch * ENGLISH[ch] for ch in ENGLISH.letters() if ch not in "AEIOU"))
    rng = np.random.default_rng([seed, size, 1])
    hands = []
    for _ in range(count):
        few = int(rng.integers(1, most + 1))
        hands.append(draw(vowels, few, rng) + draw(consonants, size - few, rng))
    return hands


def stress_hands(kind: str, size: int, count: int, seed: int) -> list:
    """`count` seeded hands of `size` tiles of one hard class: 'double Q' (QQ, no U, the rest
    from the bag), '1-3 vowels' or 'duplicates' (drawn from six of the bag's letters only)."""
    from solver.core.tiles import ENGLISH, TileCounts, draw

    rng = np.random.default_rng([seed, size, STRESS_KINDS.index(kind) + 2])
    hands = []
    for _ in range(count):
        if kind == "double Q":
            rest = ENGLISH - TileCounts.from_letters("Q" * ENGLISH["Q"] + "U" * ENGLISH["U"])
            hands.append(TileCounts.from_letters("QQ") + draw(rest, size - 2, rng))
        elif kind == "1-3 vowels":
            hands.extend(vowel_poor_hands(size, 1, int(rng.integers(1 << 30)), most=3))
        else:
            letters = rng.choice(list(ENGLISH.letters()), 6, replace=False)
            hands.append(TileCounts.from_letters("".join(rng.choice(letters, size))))
    return hands


STRESS_KINDS = ("double Q", "1-3 vowels", "duplicates")


def markdown(rows: list[dict], args) -> str:
    lines = [
        f"# settle benchmark, {date.today().isoformat()}",
        "",
        machine("scipy"),
        f"Lexicon en, seed {args.seed}, time limit {args.time_limit} s per hand. Load average when the table "
        f"was written: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min; a shared 2-core machine).",
        "",
        "| hands | count | settled | solved | no-grid | median ms | max ms | over 1 s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['group']} | {r['hands']} | {r['settled']} | {r['solved']} | {r['no-grid']} | "
            f"{r['median_ms']:.2f} | {r['max_ms']:.1f} | {r['over_1s']} |"
        )
    lines += ["", "Proofs of the no-grid answers:", ""]
    for r in rows:
        shown = "; ".join(f"{proof}: {count}" for proof, count in sorted(r["proofs"].items())) or "none"
        lines.append(f"- {r['group']}: {shown}")
    lines += ["", "Unsettled hands (neither a grid nor a proof within the limit):", ""]
    for r in rows:
        lines.append(f"- {r['group']}: {', '.join(r['unsettled']) or 'none'}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hands", type=int, default=1000, help="random hands per size (11, 15, 21)")
    parser.add_argument("--vowel-poor", type=int, default=0, help="also this many 1-2 vowel hands per size")
    parser.add_argument("--stress", type=int, default=0, help="also this many hands per hard class and size")
    parser.add_argument(
        "--stress-sizes", default=STRESS_SIZES, help="the sizes of the hard classes' hands (comma-separated)"
    )
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--record", action="store_true", help="write the table to benchmarks/results/")
    args = parser.parse_args()

    from solver.lexicon.loader import get_lexicon
    from solver.search.solving import solve

    lexicon = get_lexicon("en")
    solve("AEEIRSTQUNL", lexicon)  # compile (or load) the kernels before timing
    solve(HARD_HANDS[0], lexicon)  # and the word search's
    rows = [settle_group("known hard", list(HARD_HANDS), args.time_limit, lexicon)]
    rows.append(settle_group("issue 36 hands", list(ISSUE_36_HANDS), args.time_limit, lexicon))
    for size in SIZES if args.hands else ():
        started = time.perf_counter()
        rows.append(settle_group(f"{size} tiles", random_hands(size, args.hands, args.seed), args.time_limit, lexicon))
        print(f"size {size}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    for size in SIZES if args.vowel_poor else ():
        hands = vowel_poor_hands(size, args.vowel_poor, args.seed)
        rows.append(settle_group(f"{size} tiles, 1-2 vowels", hands, args.time_limit, lexicon))
    for kind in STRESS_KINDS if args.stress else ():
        for size in [int(size) for size in args.stress_sizes.split(",")]:
            hands = stress_hands(kind, size, args.stress, args.seed)
            rows.append(settle_group(f"{size} tiles, {kind}", hands, args.time_limit, lexicon))
    text = markdown(rows, args)
    print(text)
    if args.record:
        record(text, "settle")


if __name__ == "__main__":
    main()
