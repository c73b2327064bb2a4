"""Golden test: a seeded, node-capped solve baseline (hand -> status, nodes, grid).

`solve` with `max_nodes` is a pure function of its input (node caps are met exactly and the
search is resumable, so the wall clock never changes what it finds). This test solves a fixed
set of seeded hands of 11, 15, 21 and 40 tiles (plus seeded move orders and the
three-letter minimum) and compares the outcome, text for text, with tests/golden/solve.txt.
Any change to move generation, move ordering or the phases shows up here as a diff to review.

When a change of search order is intended, regenerate the baseline and commit it with the
change (the diff of the golden file is the review):

    PYTHONPATH=$PWD python3 tests/search/test_golden_solve.py --update

Every grid in the baseline is also re-checked by the independent validator.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import numpy as np

from solver.core.grid import validate
from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.search.solving import solve

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "solve.txt"
GOLDEN_SEED = 1313
NODE_CAP = 2_000
HANDS_PER_SIZE = 8
SIZES = (11, 15, 21, 40)


Case = tuple[TileCounts, int | None, int, str]  # hand, move-order seed, minimum word length, objective
HARD_HANDS = ("AABFHJKKLMQRRTUVVWXYZ", "BCDFGHJKLMNPRSTVWXZA", "CDDU")  # run to the cap or exhausted


def golden_cases() -> list[Case]:
    """Every baseline entry. The first grid of most hands takes a few nodes, so the
    objective searches (which keep going until the node cap) carry most of the order."""
    cases: list[Case] = []
    for size in SIZES:
        rng = np.random.default_rng([GOLDEN_SEED, size])
        hands = [draw(ENGLISH, size, rng) for _ in range(HANDS_PER_SIZE)]
        cases += [(hand, None, 2, "any") for hand in hands]
        cases += [(hand, 7, 2, "any") for hand in hands[:2]]  # a seeded move order
        cases += [(hand, None, 3, "any") for hand in hands[2:4]]  # the three-letter minimum
        cases += [(hand, None, 2, "fewest-words") for hand in hands[4:6]]
        cases += [(hand, None, 2, "compact") for hand in hands[6:8]]
    cases += [(TileCounts.from_letters(hand), None, 2, "any") for hand in HARD_HANDS]
    return cases


def baseline_text(lexicon) -> str:
    """The baseline as text: one block per case, grids in the solver's notation."""
    blocks = [
        f"# solve baseline: lexicon en, max_nodes {NODE_CAP}; regenerate with "
        "`PYTHONPATH=$PWD python3 tests/search/test_golden_solve.py --update`\n"
    ]
    for hand, seed, min_length, objective in golden_cases():
        result = solve(hand, lexicon, 3600.0, objective=objective, seed=seed, min_length=min_length, max_nodes=NODE_CAP)
        if result.grid is not None:
            report = validate(result.grid, lexicon, tiles=hand, min_length=min_length)
            assert report.ok, f"{hand.letters()}: invalid grid\n{result.grid}\n" + "\n".join(report.problems())
        lines = [
            f"## {hand.letters()} ({len(hand)} tiles) seed={seed} min_length={min_length} objective={objective}",
            f"{result.status}, {result.nodes} nodes{', proof: ' + result.proof if result.proof else ''}",
        ]
        if result.grid is not None:
            lines.append(result.grid.text())
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def test_solve_matches_golden_baseline(en):
    expected = GOLDEN.read_text(encoding="utf-8")
    actual = baseline_text(en)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True), "golden", "now", n=2
            )
        )
        raise AssertionError(
            "the node-capped solve baseline changed (if intended, regenerate it: "
            f"`PYTHONPATH=$PWD python3 tests/search/test_golden_solve.py --update`):\n{diff[:6000]}"
        )


def main(argv: list[str]) -> int:
    if argv != ["--update"]:
        print("usage: python3 tests/search/test_golden_solve.py --update", file=sys.stderr)
        return 2
    from solver.lexicon.loader import get_lexicon

    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(baseline_text(get_lexicon("en")), encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
