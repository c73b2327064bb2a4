"""Which features of a deal tell the better strategy (issue 64): decision stumps on the
strategy-ceiling study's series (`bench_ceiling.py`: the six presets' strategies at `hard`'s
pace, each against `hard` on the same 200 deals, each deal twice with the seats swapped).

    python benchmarks/bench_deal_features.py [--games 400] [--seed 6464] [--cache DIR] [--record]

For every game (a deal and a seat) the features of the dealt hands: the candidate's vowel share,
its awkward letters (J Q X Z V; and Q J X Z alone), its distinct letters, the same for the other
seat's hand, the differences, and what `hard`'s first grid on each hand costs on the referee's
clock (and the difference). A stump picks one candidate below a threshold of one feature and
another at or above it, each the best on the other half of the deals (`solver.play.ceiling.stumps`:
two folds, ties to `hard`); the table gives the best stumps' held-out win rates against `hard`,
beside the per-game ceiling (the best candidate for each game, known after the fact).

The series are read from bench_ceiling's cache (--cache, played and cached when missing).
--record writes benchmarks/results/<date>-deal-features.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench_ceiling import CANDIDATES, rate, series
from results_file import machine, record

from solver.core.tiles import TileCounts
from solver.play.ceiling import (
    AWKWARD_LETTERS,
    candidate_scores,
    dealt_hands,
    first_grid_seconds,
    hand_features,
    portfolio,
    stumps,
)
from solver.play.rules import Rules
from solver.play.schedule import hand_seed

SHOWN = 10  # stumps in the table


def features_of(mine: TileCounts, other: TileCounts, seconds: tuple[float, float]) -> dict[str, float]:
    """A game's features: the candidate's dealt hand (`mine`), the other seat's, and what `hard`'s
    first grid on each costs on the clock (`seconds`)."""
    own, theirs = hand_features(mine), hand_features(other)
    values = {
        "vowel share": own["vowel_share"],
        "awkward (JQXZV)": own["awkward"],
        "awkward (JQXZ)": float(sum(mine[ch] for ch in AWKWARD_LETTERS if ch != "V")),
        "distinct letters": float(len(set(mine.letters()))),
        "other's vowel share": theirs["vowel_share"],
        "other's awkward": theirs["awkward"],
        "first grid (s)": seconds[0],
        "other's first grid (s)": seconds[1],
    }
    values["awkward, mine - other's"] = values["awkward (JQXZV)"] - values["other's awkward"]
    values["first grid, mine - other's (s)"] = round(seconds[0] - seconds[1], 2)
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=6464)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/bananas-ceiling"))
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine()
    scores = {spec: candidate_scores(series(spec, args.games, args.seed, args.cache)) for spec in CANDIDATES}
    rules = Rules()
    features = {}
    for group in sorted({key[0] for key in scores["hard"]}):
        dealt = dealt_hands(rules, 2, hand_seed(args.seed, group))
        seconds = [first_grid_seconds("hard", tiles, rules) for tiles in dealt]
        for rotation in range(2):  # entry 0 sits at seat `rotation`
            features[(group, rotation)] = features_of(
                dealt[rotation], dealt[1 - rotation], (seconds[rotation], seconds[1 - rotation])
            )
    found = stumps(scores, features, "hard")
    folio = portfolio(scores)
    n = folio.games
    lines = [
        "# Which features of a deal tell the better strategy (issue 64)",
        "",
        header,
        "",
        f"Command: `python benchmarks/bench_deal_features.py {' '.join(sys.argv[1:])}`. The series of "
        f"bench_ceiling.py (seed {args.seed}): {len(scores)} candidates, each against `hard` in the same {n} games.",
        "",
        f"- Per-game ceiling (the best candidate for each game, after the fact): {rate(folio.per_game * n, n)}.",
        f"- `hard` itself: {rate(folio.means['hard'] * n, n)}.",
        "",
        f"The {SHOWN} best decision stumps of {len(found)} (one feature, one threshold; a candidate each side, "
        "learned on the other half of the deals):",
        "",
        "| feature | threshold | held-out win rate against hard |",
        "|---|---|---|",
    ]
    for stump in found[:SHOWN]:
        lines.append(f"| {stump.feature} | {stump.threshold:.3g} | {rate(stump.held_out * n, n)} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "deal-features")


if __name__ == "__main__":
    main()
