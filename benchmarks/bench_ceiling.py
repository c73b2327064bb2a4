"""How much of a game strategy can decide (issue 64): the luck share, the portfolio ceiling of
the existing presets at `hard`'s pace and vocabulary, what a deal's features buy a chooser,
and an oracle that knows the bunch's draws.

    python benchmarks/bench_ceiling.py [--games 400] [--seed 6464] [--oracle-games 400] [--confirm-seed 6565]
                                       [--candidates "SPEC;SPEC..."] [--cache DIR] [--record]

Every series is 2-player, seat-rotated (each deal twice, the seats swapped), against `hard`,
dealt from --seed, so all series play the same deals and a game is named by (deal, seat).

1. Luck share: per deal, the share the same seat won both games (the deal decides) and the
   share the same bot won both (the pairing decides): `tuned` against `hard`, `hard` against
   itself, and `hard:speed=2.02` (hard 1% faster, no other change: the scale of a pace edge).
2. Portfolio: each candidate's win rate against `hard`; per game, the best candidate (the
   ceiling of a chooser that always picks right, per game and per deal); what a chooser that
   sees only its own dealt hand (vowel share, awkward letters J Q X Z V) reaches on deals it
   did not learn from (two folds); each candidate's win rate by feature bucket.
3. The first grid: in `hard` against itself, how often the seat whose first grid costs less
   wins, and the mean first grid of `hard` and of `hard:opening=1` on the dealt hands.
4. Oracles (`solver.play.oracle`): hard that knows the bunch's next draws (its dumps, the hook
   room it keeps); a second version that also sees the others' racks; a third that also lays
   the fewest-words first grid of a 60-node search for the looks of its plain one. Each
   against `hard`, with the 95% Wilson interval.
5. The opening lever, `hard:opening=1`, against `hard` on deals dealt from --confirm-seed
   (the lever was chosen on other deals), against the target: 60%, the low end above 55%.

--cache keeps each series' games as JSON (default /tmp/bananas-ceiling), so a re-run with the
same arguments reads them instead of playing again. --record writes
benchmarks/results/<date>-strategy-ceiling.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

from results_file import machine, record

from solver.play import oracle
from solver.play.ceiling import (
    bucket_table,
    candidate_scores,
    chooser,
    dealt_hands,
    first_grid_seconds,
    hand_features,
    luck_share,
    portfolio,
)
from solver.play.rules import Rules
from solver.play.schedule import GameRecord, hand_seed
from solver.play.stats import confidence_interval
from solver.play.tournament import run_tournament

REFERENCE = "hard"
CALIBRATION = "hard:speed=2.02"  # hard 1% faster: what a little pace buys, for scale (not in the portfolio)
CANDIDATES = (
    "hard",
    "tuned",
    "expert:speed=2",
    "long:speed=2",
    "compact:speed=2",
    "medium:speed=2,level=none",
)
OPENING = "hard:opening=1"  # the opening lever (solver.play.bots: `opening`)
ORACLES = ("oracle", "oracle:racks", "oracle:first")


def series(spec: str, games: int, seed: int, cache: Path) -> list[GameRecord]:
    """The games of `spec` against REFERENCE, read from the cache or played (and cached). The
    file is named by both bots' settings as well as their specs: a preset whose settings change
    (`tuned` took the side-words lever) is played again, not read back."""
    bots = repr([getattr(oracle.make(name), "settings", name) for name in (spec, REFERENCE)])
    settings = hashlib.sha256(bots.encode()).hexdigest()[:10]
    path = cache / f"{re.sub(r'[^A-Za-z0-9.]+', '_', spec)}-vs-{REFERENCE}-s{seed}-g{games}-{settings}.json"
    if path.exists():
        data = json.loads(path.read_text())
    else:
        started = time.perf_counter()
        result = run_tournament([spec, REFERENCE], games, seed=seed, make=oracle.make)
        data = result.to_json()
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
        print(f"{spec}: {len(result.games)} games in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return [GameRecord(**game) for game in data["games"]]


def rate(wins: float, games: int) -> str:
    low, high = confidence_interval(wins, games)
    return f"{wins / games:.1%} ({low:.1%}-{high:.1%})"


def luck_section(runs: dict[str, list[GameRecord]]) -> list[str]:
    lines = [
        "## 1. The luck share: each deal twice, the seats swapped",
        "",
        "| pairing | deals | both games won outright | same seat won both | same bot won both | of which the candidate |",
        "|---|---|---|---|---|---|",
    ]
    for spec in ("tuned", CALIBRATION, "hard"):
        if spec not in runs:
            continue
        share = luck_share(runs[spec])
        d = max(share.decided, 1)
        lines.append(
            f"| `{spec}` vs `{REFERENCE}` | {share.deals} | {share.decided} | {share.same_seat} ({share.same_seat / d:.1%}) "
            f"| {share.same_entry} ({share.same_entry / d:.1%}) | {share.by_entry.get(0, 0)} |"
        )
    return lines


def portfolio_section(runs: dict[str, list[GameRecord]], seed: int) -> list[str]:
    scores = {
        spec: candidate_scores(games) for spec, games in runs.items() if spec not in ORACLES and spec != CALIBRATION
    }
    folio = portfolio(scores)
    lines = [
        "## 2. The portfolio: the existing presets' strategies at hard's pace and vocabulary",
        "",
        f"{folio.games} games (each candidate against `{REFERENCE}` on the same deals and seats).",
        "",
        "| candidate | win rate against hard (95% interval) |",
        "|---|---|",
    ]
    for spec, mean in folio.means.items():
        lines.append(f"| `{spec}` | {rate(mean * folio.games, folio.games)} |")
    n = folio.games
    lines += [
        "",
        f"- Per-game ceiling (the best candidate for each deal and seat): **{rate(folio.per_game * n, n)}**.",
        f"- Per-deal ceiling (one candidate for both seats of a deal): {rate(folio.per_deal * n, n)}.",
    ]
    if CALIBRATION in runs:
        pace = candidate_scores(runs[CALIBRATION])
        lines.append(
            f"- For scale, not in the portfolio: `{CALIBRATION}` (hard 1% faster) wins {rate(sum(pace.values()), len(pace))}."
        )
    hands: dict[tuple[int, int], dict[str, float]] = {}
    rules = Rules()
    for group in sorted({key[0] for key in next(iter(scores.values()))}):
        dealt = dealt_hands(rules, 2, hand_seed(seed, group))
        for rotation in range(2):
            hands[(group, rotation)] = hand_features(dealt[rotation])  # entry 0 sits at seat `rotation`

    def vowels(key):
        share = hands[key]["vowel_share"]
        return "vowels <36%" if share < 0.36 else ("vowels 36-44%" if share < 0.44 else "vowels >=44%")

    def awkward(key):
        count = int(hands[key]["awkward"])
        return f"awkward {min(count, 2)}{'+' if count >= 2 else ''}"

    def both(key):
        return f"{vowels(key)}, {awkward(key)}"

    lines += [
        "",
        "What a chooser that sees its own dealt hand reaches on the other fold's deals (learned on half the "
        "deals, scored on the other half, and the other way round; ties go to `hard`):",
        "",
        "| features | held-out win rate against hard |",
        "|---|---|",
    ]
    for label, bucket in (("vowel share", vowels), ("awkward letters", awkward), ("both", both)):
        lines.append(f"| {label} | {rate(chooser(scores, bucket, 'hard') * n, n)} |")
    names = list(scores)
    lines += ["", "Each candidate's win rate by bucket of its dealt hand:", ""]
    lines.append("| bucket | games | " + " | ".join(f"`{name}`" for name in names) + " |")
    lines.append("|---|---|" + "---|" * len(names))
    for bucket in (vowels, awkward):
        for name, (count, means) in bucket_table(scores, bucket).items():
            lines.append(f"| {name} | {count} | " + " | ".join(f"{means[c]:.0%}" for c in names) + " |")
    return lines


def first_grid_section(runs: dict[str, list[GameRecord]], opening: str) -> list[str]:
    """Which seat the first grid puts ahead, and whether that seat wins (hard against itself)."""
    rules = Rules()
    ahead = ties = deals = 0
    plain, opened = [], []
    for game in runs["hard"]:
        if game.rotation:
            continue
        deals += 1
        dealt = dealt_hands(rules, 2, game.seed)
        seconds = [first_grid_seconds("hard", tiles, rules) for tiles in dealt]
        plain += seconds
        opened += [first_grid_seconds(opening, tiles, rules) for tiles in dealt]
        if seconds[0] == seconds[1]:
            ties += 1
        else:
            ahead += (seconds[0] < seconds[1]) == (game.winners == [0])
    decided = deals - ties
    return [
        "## 3. What decides a deal: the first grid",
        "",
        f"`hard` against itself, {deals} deals: the seat whose first grid the referee charges less (before the jitter) "
        f"won {ahead} of the {decided} deals where the two differ ({ahead / max(decided, 1):.1%}; {ties} ties).",
        f"Mean first grid on these {len(plain)} dealt hands: `hard` {sum(plain) / len(plain):.2f} s, "
        f"`{opening}` {sum(opened) / len(opened):.2f} s (each word is 3 s of work, each look 1 s, at speed 2 halved).",
    ]


def oracle_section(runs: dict[str, list[GameRecord]]) -> list[str]:
    lines = [
        "## 4. The oracles: hard that knows the bunch's draws",
        "",
        "| bot | games against hard | points | win rate (95% interval) |",
        "|---|---|---|---|",
    ]
    for spec in ORACLES:
        if spec in runs:
            scores = candidate_scores(runs[spec])
            points = sum(scores.values())
            lines.append(f"| `{spec}` | {len(scores)} | {points:g} | {rate(points, len(scores))} |")
    return lines


def confirm_section(spec: str, games: list[GameRecord], seed: int) -> list[str]:
    scores = candidate_scores(games)
    points = sum(scores.values())
    low, _ = confidence_interval(points, len(scores))
    verdict = "met" if points / len(scores) >= 0.60 and low > 0.55 else "missed"
    return [
        f"## 5. The lever on deals it was not chosen on: `{spec}` against `{REFERENCE}`",
        "",
        f"{len(scores)} games dealt from seed {seed}: **{rate(points, len(scores))}**. Target (60%, the interval's "
        f"low end above 55%): {verdict}.",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--oracle-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=6464)
    parser.add_argument("--candidates", default=";".join(CANDIDATES), help="specs separated by semicolons")
    parser.add_argument("--confirm-seed", type=int, default=6565, help="the lever's own deals (0: none)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/bananas-ceiling"))
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine()
    runs = {spec: series(spec, args.games, args.seed, args.cache) for spec in args.candidates.split(";")}
    runs[CALIBRATION] = series(CALIBRATION, args.games, args.seed, args.cache)
    if args.oracle_games:
        runs.update({spec: series(spec, args.oracle_games, args.seed, args.cache) for spec in ORACLES})
    command = "python benchmarks/bench_ceiling.py " + " ".join(sys.argv[1:])
    lines = [
        "# How much of a game strategy can decide (issue 64)",
        "",
        header,
        "",
        f"Command: `{command}`. 2-player classic games, seat-rotated, dealt from seed {args.seed}, every series "
        f"against `{REFERENCE}` (speed 2, every word).",
        "",
        *luck_section(runs),
        "",
        *portfolio_section(runs, args.seed),
        "",
        *first_grid_section(runs, OPENING),
        "",
        *oracle_section(runs),
        "",
    ]
    if args.confirm_seed:
        confirm = series(OPENING, args.games, args.confirm_seed, args.cache)
        lines += [*confirm_section(OPENING, confirm, args.confirm_seed), ""]
    text = "\n".join(lines)
    print(text)
    if args.record:
        record(text, "strategy-ceiling")


if __name__ == "__main__":
    main()
