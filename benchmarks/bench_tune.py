"""The strategy lab's study and what it found (issue 35): the Optuna study over `hard`'s strategy
settings at equal pace, the shipped `tuned` preset confirmed on deals the study never saw, the
dump advice against the simpler policies, and the 4-player order of the presets.

    python benchmarks/bench_tune.py [--storage URL] [--study NAME] [--trials 40] [--games 48]
                                    [--confirm-games 400] [--dump-games 200] [--order-games 100]
                                    [--seed 9001] [--workers 2] [--plots FOLDER] [--record]

1. The study (`solver.play.tuning.run_study`, what `bananas tune` runs): resumed from --storage
   up to --trials (its setup: base `hard`, speed 1, against `hard:speed=1`, --games a trial, seed
   2026). Its trials are listed, best first.
2. Confirmation: `tuned:speed=1` against `hard:speed=1`, --confirm-games seat-rotated 2-player
   games dealt from --seed (the study dealt from its own seed: these deals are new), the win
   rate with its 95% Wilson interval. The target: 60% or more, the interval's low end above
   55%. The shipped preset is checked against the study's best settings.
3. Dump advice: `hard:speed=1` as it is (the Monte-Carlo advice) against the same bot dumping
   the hardest letter, and against one that never dumps, --dump-games games each.
4. The presets at a 4-player table, every one at speed 1: easy, medium, hard, tuned.

--record writes benchmarks/results/<date>-tune.md (and copies the study's plots beside it).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from results_file import RESULTS, machine, record

from solver.play.bots import PRESETS, make_bot
from solver.play.tournament import run_tournament
from solver.play.tuning import SPACE, TuneSetup, best_trial, candidate_spec, run_study, save_plots

TARGET, TARGET_LOW = 0.60, 0.55


def rate_row(label: str, result, index: int = 0) -> str:
    stats = result.stats[index]
    low, high = stats.ci
    return f"| {label} | {stats.games} | {stats.wins} | {stats.shared} | {stats.win_rate:.1%} | {low:.1%}-{high:.1%} |"


def study_section(study, setup: TuneSetup) -> list[str]:
    trials = sorted(study.trials, key=lambda trial: -(trial.value if trial.value is not None else -1))
    lines = [
        "## The study",
        "",
        f"Setup: base `{setup.base}` at speed {setup.speed:g} (its vocabulary), against "
        f"{', '.join(f'`{spec}`' for spec in setup.against)}, {setup.games} games a trial in rounds (the same "
        f"deals for every trial, seed {setup.seed}); TPE sampler, median pruner. {len(study.trials)} trials.",
        "",
        "| trial | state | share of points | spec |",
        "|---|---|---|---|",
    ]
    for trial in trials:
        value = "-" if trial.value is None else f"{trial.value:.1%}"
        spec = trial.user_attrs.get("spec") or candidate_spec(setup, trial.params)
        lines.append(f"| {trial.number} | {trial.state.name.lower()} | {value} | `{spec}` |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--storage", default="sqlite:///bananas-tune.db")
    parser.add_argument("--study", default="hard-speed1")
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--games", type=int, default=48, help="games a trial (the study's setup)")
    parser.add_argument("--confirm-games", type=int, default=400)
    parser.add_argument("--dump-games", type=int, default=200)
    parser.add_argument("--order-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9001, help="the confirmation's deals (not the study's)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plots", type=Path, help="draw the study's plots into this folder")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine()
    setup = TuneSetup(games=args.games, seed=2026)

    def play(specs, games, players, seed):
        return run_tournament(specs, games, players, seed, args.workers)

    study = run_study(setup, args.trials, args.storage, args.study, play)
    best = best_trial(study)
    found = best.user_attrs["spec"] if best is not None else None
    shipped = PRESETS.get("tuned")
    lines = ["# strategy tuning, `bananas tune` (issue 35)", "", header, "", *study_section(study, setup), ""]
    if found is not None:
        lines.append(f"Best: trial {best.number}, {best.value:.1%} of the points: `{found}`.")
        knobs = [knob.name for knob in SPACE]
        same = shipped is not None and all(
            getattr(make_bot(found).settings, name) == getattr(shipped, name) for name in knobs
        )
        lines.append(
            f"The shipped `tuned` preset {'holds these settings' if same else 'differs from them'} (at speed 2)."
        )
    confirm = run_tournament(["tuned:speed=1", "hard:speed=1"], args.confirm_games, 2, args.seed, args.workers)
    stats = confirm.stats[0]
    low, _ = stats.ci
    met = stats.win_rate >= TARGET and low > TARGET_LOW
    lines += [
        "",
        "## Confirmation: `tuned:speed=1` against `hard:speed=1`",
        "",
        f"{confirm.stats[0].games} seat-rotated 2-player games dealt from seed {args.seed} (the study's deals: seed "
        f"{setup.seed}). Target: a win rate of {TARGET:.0%} or more, the 95% interval's low end above {TARGET_LOW:.0%}: "
        f"**{'met' if met else 'missed'}**.",
        "",
        "| bot | seat-games | wins | shared | win rate | 95% interval |",
        "|---|---|---|---|---|---|",
        rate_row("`tuned:speed=1`", confirm, 0),
        rate_row("`hard:speed=1`", confirm, 1),
        "",
        "## Dump advice against the simpler policies (`hard:speed=1`, all else equal)",
        "",
        "| pairing | seat-games | wins | shared | win rate of the advice | 95% interval |",
        "|---|---|---|---|---|---|",
    ]
    for other in ("hardest", "never"):
        result = run_tournament(
            ["hard:speed=1", f"hard:speed=1,dump_policy={other}"], args.dump_games, 2, args.seed + 1, args.workers
        )
        lines.append(rate_row(f"advice against {other}", result, 0))
    order = run_tournament(
        ["easy:speed=1", "medium:speed=1", "hard:speed=1", "tuned:speed=1"],
        args.order_games,
        4,
        args.seed + 2,
        args.workers,
    )
    lines += [
        "",
        "## The presets at a 4-player table (every one at speed 1)",
        "",
        "| bot | seat-games | wins | shared | win rate | 95% interval |",
        "|---|---|---|---|---|---|",
        *(rate_row(f"`{spec}`", order, index) for index, spec in enumerate(order.bot_specs)),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.plots:
        for path in save_plots(study, args.plots):
            print(f"wrote {path}", file=sys.stderr)
    if args.record:
        written = record(text, "tune")
        if args.plots:
            for path in args.plots.glob("*.png"):
                shutil.copy(path, RESULTS / f"{written.stem}-{path.name}")


if __name__ == "__main__":
    main()
