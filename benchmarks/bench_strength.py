"""Benchmark bot strength on the fair clock: win rates at equal speed, and the strategy levers.

    python benchmarks/bench_strength.py [--games 400] [--lever-games 200] [--seed 7] [--workers 1] [--record]

Classic English rules. Every bot plays at speed=1 in the strength tables (the same
simulated pace: a bot wins on what it does, not on how fast it is set to work), in
seat-rotated tournaments (`solver.play.tournament`: each deal is played once per seat
rotation, so seat and deal luck cancel). Win rates carry 95% Wilson intervals.

  1. Calibration: what the cost model makes of the presets at their own speeds (first
     21-tile grid, one-tile PEEL answers, whole 2-player games), in simulated seconds,
     over --calibration-hands seeded 2-player hands per preset.
  2. hard vs greedy, 2 players, --games games. Target: hard wins >= 90%.
  3. easy, medium, hard and greedy at one 4-player table, --games games. Target: easy <
     medium < hard, and hard wins the most.
  4. Monte-Carlo dump advice vs "dump the hardest letter": two hard bots that differ only
     in that, head to head, --lever-games games.
  5. Strategy levers: the hard bot against itself with one setting changed, head to head,
     --lever-games games each (and the greedy baseline with short words against its
     long words).

Tournaments run in --workers processes (results do not depend on the number). --record
writes benchmarks/results/<date>-strength.md.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from datetime import date
from pathlib import Path

import numpy as np
from results_file import machine, record

FAIR = "hard:speed=1"  # the strongest settings, at a practised player's pace
TARGET_HARD_VS_GREEDY = 0.90
LEVERS = [
    # (lever, what changes, challenger spec, baseline spec)
    ("cheap hooks", "one new tile goes where the search first finds room", f"{FAIR},hooks=first", FAIR),
    (
        "flexible grid for the endgame",
        "hook spots of awkward letters (C J Q V Z) not kept open",
        f"{FAIR},flexible=no",
        FAIR,
    ),
    ("dense vs open grid", "full re-solves look for the smallest box (compact)", f"{FAIR},strategy=compact", FAIR),
    ("dump timing: patience", "40 looks before dumping, not 5", f"{FAIR},patience=40", FAIR),
    (
        "dump timing: endgame",
        "dumps until the bunch is empty, not only while 10+ PEELs are left",
        f"{FAIR},endgame=0",
        FAIR,
    ),
    ("rebuild vs hook", "only hooks while it can dump (never moves a tile)", f"{FAIR},rebuild=hook", FAIR),
    ("rebuild vs hook", "hooks and single-word lifts only while it can dump", f"{FAIR},rebuild=lift", FAIR),
    ("long vs short words", "greedy baseline laying words of at most 4 letters", "greedy:max_word=4", "greedy"),
    ("vocabulary", "common words only (SCOWL size 50)", f"{FAIR},level=50", FAIR),
]


def versions() -> str:
    import numba

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parent,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parent,
            check=True,
        ).stdout.strip()
        commit += " (uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return f"Commit {commit}, numba {numba.__version__}, numpy {np.__version__}."


# -- 1. calibration ---------------------------------------------------------------------------


def first_grid_seconds(result, player: int) -> float | None:
    """When the player's first complete grid was done: the end of its first decision
    that called (or planned) PEEL or BANANAS, i.e. left its hand empty."""
    for charge in result.ledger:
        if charge.player == player and charge.action in ("peel", "bananas"):
            return charge.at + charge.seconds
    return None


def calibrate(preset: str, hands: int, seed: int) -> dict:
    from solver.play.bots import make_bot
    from solver.play.hand import play_hand
    from solver.play.rules import Rules
    from solver.play.schedule import hand_seed

    firsts, games, hooks, peels = [], [], [], []
    for index in range(hands):
        result = play_hand(Rules(), [make_bot(preset), make_bot(preset)], hand_seed(seed, index))
        firsts += [t for t in (first_grid_seconds(result, player) for player in (0, 1)) if t is not None]
        games.append(result.clock)
        peels.append(sum(event["event"] == "peel" for event in result.events))
        hooks += [
            charge.seconds
            for charge in result.ledger
            if charge.work.laid == 1 and charge.work.drawn == 1 and charge.work.tiles == 2 and charge.looks <= 1
        ]
    return {
        "preset": preset,
        "hands": hands,
        "first": np.percentile(firsts, [10, 50, 90]),
        "hook": float(np.median(hooks)),
        "game": np.percentile(games, [10, 50, 90]) / 60,
        "peels": float(np.median(peels)),
    }


# -- 2-5. tournaments ----------------------------------------------------------------------------


def tournament(specs: list[str], games: int, players: int, seed: int, workers: int):
    from solver.play.rules import Rules
    from solver.play.tournament import run_tournament

    return run_tournament(specs, games, players=players, seed=seed, workers=workers, rules=Rules())


def percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def table(result) -> list[str]:
    lines = [
        "| bot | games (seats) | wins | shared | win rate | 95% CI | mean game | dumps |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in result.stats:
        low, high = s.ci
        lines.append(
            f"| `{s.spec}` | {s.games} | {s.wins} | {s.shared} | {percent(s.win_rate)} | "
            f"{percent(low)}-{percent(high)} | {s.mean_game_seconds / 60:.1f} min | {s.dumps} |"
        )
    lines.append("")
    lines.append(
        f"{len(result.games)} games, {result.players} players, seed {result.seed}: {result.unawarded} "
        f"unawarded, {result.shared} shared; {result.wall_seconds:.0f} s wall with {result.workers} "
        f"worker{'s' if result.workers != 1 else ''}."
    )
    return lines


def head_to_head(challenger: str, baseline: str, games: int, seed: int, workers: int) -> dict:
    result = tournament([baseline, challenger], games, 2, seed, workers)
    base, other = result.stats
    return {"base": base, "other": other, "games": len(result.games), "wall": result.wall_seconds}


def decided_share(base, other) -> tuple[float, float, float]:
    """The baseline's share of the games one of the two won alone (unawarded and shared
    games left out), with its 95% Wilson interval."""
    from solver.play.stats import confidence_interval

    decided = base.wins + other.wins
    return (base.wins / decided if decided else 0.5, *confidence_interval(base.wins, decided))


def verdict(base, other) -> str:
    _, low, high = decided_share(base, other)
    if low > 0.5:
        return "the baseline's setting wins"
    if high < 0.5:
        return "the changed setting wins"
    return "no clear effect"


def lever_row(lever: str, change: str, h: dict) -> str:
    base, other = h["base"], h["other"]
    share, low, high = decided_share(base, other)
    return (
        f"| {lever} | {change} | `{other.spec}` | {base.wins} / {other.wins} of {h['games']} | {percent(share)} | "
        f"{percent(low)}-{percent(high)} | {base.dumps} / {other.dumps} | {base.mean_game_seconds / 60:.1f} min | "
        f"{verdict(base, other)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--lever-games", type=int, default=200)
    parser.add_argument("--calibration-hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()

    calibration = [calibrate(preset, args.calibration_hands, args.seed) for preset in ("easy", "medium", "hard")]
    duel = tournament([FAIR, "greedy"], args.games, 2, args.seed, args.workers)
    table4 = tournament(["easy:speed=1", "medium", FAIR, "greedy"], args.games, 4, args.seed, args.workers)
    advice = head_to_head(f"{FAIR},dump_policy=hardest", FAIR, args.lever_games, args.seed, args.workers)
    levers = [
        (lever, change, head_to_head(challenger, baseline, args.lever_games, args.seed, args.workers))
        for lever, change, challenger, baseline in LEVERS
    ]

    hard = duel.stats[0]
    rates = {s.spec: s.win_rate for s in table4.stats}
    ordered = rates["easy:speed=1"] < rates["medium"] < rates[FAIR] and rates[FAIR] == max(rates.values())
    lines = [
        f"# strength benchmark, {date.today().isoformat()}",
        "",
        machine() + " " + versions(),
        "",
        (
            f"`python benchmarks/bench_strength.py --games {args.games} --lever-games {args.lever_games} "
            f"--calibration-hands {args.calibration_hands} --seed {args.seed} --workers {args.workers}`; "
            f"{(time.perf_counter() - started) / 60:.1f} min wall in all. Classic English rules; the cost model of "
            "`solver/game.py` (react 1 s, 1 s a tile handled, 3 s a new word, 1 s a look, 0.5 s a call)."
        ),
        "",
        "## 1. Calibration: the presets at their own speeds",
        "",
        (
            f"{args.calibration_hands} seeded 2-player hands per preset against itself (hand seeds from seed "
            f"{args.seed}); simulated time. A kitchen-table game is quoted at about 15 minutes."
        ),
        "",
        "| preset | first 21-tile grid p10 / median / p90 | one-tile PEEL answer (median) | 2-player game p10 / median / p90 | PEELs a game (median) |",
        "|---|---|---|---|---|",
        *(
            f"| `{c['preset']}` | {c['first'][0]:.0f} / {c['first'][1]:.0f} / {c['first'][2]:.0f} s | {c['hook']:.1f} s | "
            f"{c['game'][0]:.1f} / {c['game'][1]:.1f} / {c['game'][2]:.1f} min | {c['peels']:.0f} |"
            for c in calibration
        ),
        "",
        "## 2. hard vs greedy, 2 players, every bot at speed 1",
        "",
        *table(duel),
        "",
        (
            f"Target: hard wins >= {percent(TARGET_HARD_VS_GREEDY)}: "
            f"{'met' if hard.win_rate >= TARGET_HARD_VS_GREEDY else 'MISSED'} ({percent(hard.win_rate)}, "
            f"95% CI {percent(hard.ci[0])}-{percent(hard.ci[1])})."
        ),
        "",
        "## 3. easy, medium, hard and greedy at one 4-player table, every bot at speed 1",
        "",
        *table(table4),
        "",
        f"Target: easy < medium < hard, hard the most wins: {'met' if ordered else 'MISSED'}.",
        "",
        "## 4. Monte-Carlo dump advice vs dumping the hardest letter",
        "",
        (
            f"`{FAIR}` (advice) against `{FAIR},dump_policy=hardest`, head to head, {advice['games']} games "
            f"(seed {args.seed}). The advice's trial searches are looks on the bot's clock."
        ),
        "",
        "| bot | wins | win rate | 95% CI | dumps |",
        "|---|---|---|---|---|",
        *(
            f"| `{s.spec}` | {s.wins} | {percent(s.win_rate)} | {percent(s.ci[0])}-{percent(s.ci[1])} | {s.dumps} |"
            for s in (advice["base"], advice["other"])
        ),
        "",
        f"Verdict: {verdict(advice['base'], advice['other'])}.",
        "",
        "## 5. Strategy levers",
        "",
        (
            f"Each row: the baseline against the same bot with one setting changed, head to head, seat-rotated, "
            f"{args.lever_games} games (seed {args.seed}). The baseline is `{FAIR}` (the hard preset's settings at "
            "speed 1) except for the greedy rows."
        ),
        "",
        "| lever | changed setting | challenger | wins: baseline / challenger | baseline's share of decided games | 95% CI | dumps: baseline / challenger | mean game | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
        *(lever_row(lever, change, h) for lever, change, h in levers),
        "",
        "A game is decided when one player wins it alone; the rest are unawarded (every player stuck) or shared.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "strength")


if __name__ == "__main__":
    main()
