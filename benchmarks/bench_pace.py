"""Benchmark how fast each bot preset plays on the game's clock, and whether `pacer` keeps pace.

    python benchmarks/bench_pace.py [--hands 5] [--players 1,2,4] [--seed 7] [--record]

Classic English rules, simulated clock (the cost model of `solver/play/cost.py`), seeded hands.

  1. Pace per preset (`solver.play.pace`): at tables of --players copies of the preset, the
     median time to a first 21-tile grid and the tiles placed a minute in the 3 minutes of
     clock after it. Alone, every tile after the first grid is one of its own PEELs; at a
     table of copies, everyone's PEELs deal it tiles, so it places them in batches.
  2. Beside one `medium` bot (2 players): how many PEELs the preset calls in the first
     5 minutes. A bot whose tile rate is below the PEELs the table deals never empties its
     hand, so it never calls PEEL.
  3. `pacer` beside each preset for people (2 players, and lead = +0.1 / -0.1 beside `club`):
     the tiles on both grids at 2 and 4 minutes, and the pacer's median speed.

With --record the results go to benchmarks/results/<date>-pace.md, and each preset's pace
over every table size together (the medians of all its seats; what the lobby states) to
solver/play/pace.json, which the package reads (`solver.play.pace.preset_pace`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from results_file import machine, record

from solver.play.pace import Pace

PEOPLE = ("beginner", "casual", "club", "expert")
MIXED_SECONDS = 300.0
PACER_CHECKS = (120.0, 240.0)


def hand_seeds(seed: int, hands: int) -> list[int]:
    return [int(s) for s in np.random.SeedSequence(seed).generate_state(hands)]


def pace_table(name: str, players: list[int], hands: int, seed: int) -> tuple[dict[int, Pace], Pace]:
    """The preset's pace at each table size, and over them all (what `measure_pace` gives
    for every size together: the lobby's figure)."""
    from solver.play.pace import pace_samples, summarise

    samples = {count: [s for h in hand_seeds(seed, hands) for s in pace_samples(name, count, h)] for count in players}
    return {count: summarise(found) for count, found in samples.items()}, summarise(sum(samples.values(), []))


def peels_beside_medium(name: str, hands: int, seed: int) -> tuple[float, float | None]:
    """Median PEELs the preset called in the first MIXED_SECONDS beside one medium bot, and
    its median first grid there."""
    from solver.play.bots import make_bot
    from solver.play.hand import Hand
    from solver.play.pace import first_grid_seconds, play_until
    from solver.play.rules import Rules

    peels, firsts = [], []
    for hand_seed in hand_seeds(seed, hands):
        hand = Hand(Rules(), [make_bot(name), make_bot("medium")], hand_seed)
        play_until(hand, lambda hand=hand: hand.clock >= MIXED_SECONDS)
        peels.append(sum(e["event"] == "peel" and e["player"] == 0 and e["t"] <= MIXED_SECONDS for e in hand.events))
        first = first_grid_seconds(hand.ledger, 0)
        if first is not None:
            firsts.append(first)
    return statistics.median(peels), statistics.median(firsts) if firsts else None


def pacer_beside(pacer: str, other: str, hands: int, seed: int) -> dict:
    """Tiles on the pacer's grid and the other's (medians) at each of PACER_CHECKS, and the
    pacer's median speed over its decisions."""
    from solver.play.bots import make_bot
    from solver.play.hand import Hand
    from solver.play.pace import placed_timeline, play_until
    from solver.play.rules import Rules

    at: dict[float, list[tuple[int, int]]] = {check: [] for check in PACER_CHECKS}
    speeds: list[float] = []
    for hand_seed in hand_seeds(seed, hands):
        bots = [make_bot(pacer), make_bot(other)]
        hand = Hand(Rules(), bots, hand_seed)
        play_until(hand, lambda hand=hand: hand.clock >= PACER_CHECKS[-1])
        speeds += [work_speed(charge) for charge in hand.ledger if charge.player == 0]
        for check in PACER_CHECKS:
            counts = [
                max((n for when, n in placed_timeline(hand.ledger, p) if when <= check), default=0) for p in (0, 1)
            ]
            at[check].append((counts[0], counts[1]))
    return {
        "at": {check: tuple(statistics.median(c[i] for c in pairs) for i in (0, 1)) for check, pairs in at.items()},
        "speed": statistics.median(speeds),
    }


def work_speed(charge) -> float:
    """The speed the referee charged a decision at: its unjittered cost at speed 1 over the
    time charged (the jitter, at most 5%, is left in)."""
    from solver.play.cost import work_seconds
    from solver.play.rules import Decision

    return work_seconds(Decision(charge.action, looks=charge.looks), 1.0, charge.work) / charge.seconds


def main() -> None:
    from solver.play.bots import GREEDY, PRESETS
    from solver.play.pace import PACE_FILE, WINDOW_SECONDS, clock_words

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=5, help="seeded hands per preset and table size")
    parser.add_argument("--players", default="1,2,4", help="table sizes (copies of the preset)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--presets", default=None, help="comma-separated (default: every preset but pacer)")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    players = sorted({int(p) for p in args.players.split(",")})
    names = (
        args.presets.split(",")
        if args.presets
        else [n for n in (*PRESETS, GREEDY) if PRESETS.get(n) is None or PRESETS[n].lead is None]
    )

    measured = {name: pace_table(name, players, args.hands, args.seed) for name in names}
    paces = {name: by_size for name, (by_size, _) in measured.items()}
    stated = {name: overall for name, (_, overall) in measured.items()}
    mixed = {name: peels_beside_medium(name, args.hands, args.seed) for name in names if name in (*PEOPLE, "easy")}
    pacing = [(f"pacer beside {o}", pacer_beside("pacer", o, args.hands, args.seed)) for o in PEOPLE] + [
        (f"pacer:lead={lead} beside club", pacer_beside(f"pacer:lead={lead}", "club", args.hands, args.seed))
        for lead in (0.1, -0.1)
    ]

    sizes = " | ".join(f"{p} player{'s' if p > 1 else ''}" for p in players)
    lines = [
        f"# pace benchmark, {time.strftime('%Y-%m-%d')}",
        "",
        machine(),
        "",
        (
            f"`python benchmarks/bench_pace.py --hands {args.hands} --players {args.players} --seed {args.seed}`; "
            f"{(time.perf_counter() - started) / 60:.1f} min wall. Classic English rules, simulated clock (react 1 s, "
            "1 s a tile handled, 3 s a new word, 1 s a look, 0.5 s a call, / speed)."
        ),
        "",
        "## 1. Pace per preset",
        "",
        (
            f"Medians over {args.hands} seeded hands per table size (every seat of a table of copies counts): first "
            f"21-tile grid (s) / tiles placed a minute in the {WINDOW_SECONDS / 60:.0f} min of clock after it."
        ),
        "",
        f"| preset | {sizes} | the lobby says (every table together) |",
        "|---|" + "---|" * len(players) + "---|",
        *(
            f"| `{name}` | "
            + " | ".join(f"{paces[name][p].first_grid:.0f} s / {paces[name][p].tiles_per_minute:.1f}" for p in players)
            + f" | {stated[name].describe()} |"
            for name in names
        ),
        "",
    ]
    if mixed:
        lines += [
            "## 2. Beside one `medium` bot (2 players)",
            "",
            f"Median over {args.hands} hands: the preset's first 21-tile grid, and the PEELs it called in the first "
            f"{MIXED_SECONDS / 60:.0f} min (medium PEELs about every 8 s).",
            "",
            "| preset | first grid | its PEELs in 5 min |",
            "|---|---|---|",
            *(
                f"| `{name}` | {clock_words(first) if first is not None else 'none'} | {peels:.0f} |"
                for name, (peels, first) in mixed.items()
            ),
            "",
        ]
    lines += [
        "## 3. `pacer` keeps pace",
        "",
        f"2 players, medians over {args.hands} hands: tiles on each grid (pacer / the other) at 2 and 4 min of clock, "
        "and the speed the pacer worked at (median over its decisions; the preset's 0.5 until the split is past).",
        "",
        "| pairing | at 2 min | at 4 min | pacer's speed |",
        "|---|---|---|---|",
        *(
            f"| `{label}` | "
            + " | ".join(f"{r['at'][c][0]:.0f} / {r['at'][c][1]:.0f}" for c in PACER_CHECKS)
            + f" | {r['speed']:.2f} |"
            for label, r in pacing
        ),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.record:
        record(text, "pace")
        data = {
            "measured_by": "benchmarks/bench_pace.py (solver.play.pace.measure_pace)",
            "players": players,
            "hands": args.hands,
            "seed": args.seed,
            "presets": {
                name: {"first_grid": round(pace.first_grid, 1), "tiles_per_minute": round(pace.tiles_per_minute, 2)}
                for name, pace in stated.items()
            },
        }
        PACE_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
