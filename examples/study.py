"""A researcher's study: how do the bot presets compare? A seeded, seat-rotated tournament.

    python examples/study.py                                   # 4 presets, 12 games: seconds
    python examples/study.py --games 400 --workers 2           # a study worth reporting
    python examples/study.py --bots club,expert,pacer --players 3 --out runs/table3

Every game is a pure function of the seed (`solver.play.tournament`), so the same command gives
the same games, the same CSV and the same plot on any machine, with any number of workers.
It writes into --out:

    presets.csv   one row per preset: games (seats held), wins, win rate and its 95% Wilson
                  interval, mean game length in simulated seconds, dumps, rotten bananas
    games.csv     one row per seat of every game, the raw data: game, hand seed, seat, preset,
                  outcome, whether that seat won, game length, its dumps and rotten bananas
    presets.svg   win rates with their intervals, game lengths and dumps (needs matplotlib,
                  the `plots` extra; --no-plot skips it)

and prints the table and, last, one JSON line with the paths and the totals.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

from solver.play.presets import check_spec
from solver.play.tournament import TournamentResult, run_tournament
from solver.play.variants import BANANAGRAMS

GAME_FIELDS = ("game", "hand_seed", "seat", "preset", "outcome", "won", "clock_seconds", "dumps", "rotten")


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bots", default="easy,medium,hard,greedy", help="presets or specs, comma-separated")
    # 12: with 4 presets at 2 seats, every pair once in each seating (each preset 6 seat-games)
    parser.add_argument("--games", type=int, default=12, help="games (rounded up to whole seat rotations)")
    parser.add_argument("--players", type=int, default=2, help="seats at each table")
    parser.add_argument("--seed", type=int, default=2026, help="the tournament seed")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, default=Path("study-out"), help="the folder for the CSV and plot")
    parser.add_argument("--no-plot", action="store_true", help="write the CSV only")
    arguments = parser.parse_args(argv)
    arguments.bots = [spec for spec in arguments.bots.split(",") if spec]
    for spec in arguments.bots:
        try:
            check_spec(BANANAGRAMS, spec)
        except ValueError as error:
            parser.error(f"--bots {spec}: {error}")
    return arguments


def game_rows(result: TournamentResult) -> list[dict]:
    """One row per seat of every game (GAME_FIELDS)."""
    rows = []
    for game in result.games:
        for seat, entry in enumerate(game.entries):
            rows.append(
                {
                    "game": game.index,
                    "hand_seed": game.seed,
                    "seat": seat,
                    "preset": result.names[entry],
                    "outcome": game.outcome,
                    "won": int(game.outcome in ("win", "shared") and seat in game.winners),
                    "clock_seconds": round(game.clock, 3),
                    "dumps": game.dumps[seat],
                    "rotten": game.rotten[seat],
                }
            )
    return rows


def write_csv(result: TournamentResult, out: Path) -> tuple[Path, Path]:
    presets, games = out / "presets.csv", out / "games.csv"
    presets.write_text(result.to_csv())
    with games.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=GAME_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(game_rows(result))
    return presets, games


def can_plot() -> bool:
    """Whether matplotlib is installed (else a note says which extra draws the plot)."""
    from solver.play.plots import require_matplotlib

    try:
        require_matplotlib("the plot")
    except ValueError as error:
        print(f"no plot: {error}")
        return False
    return True


def draw(result: TournamentResult, out: Path) -> Path:
    """The plot, as SVG (matplotlib)."""
    from solver.play.plots import save_figure, tournament_figure

    path = out / "presets.svg"
    save_figure(tournament_figure(result), str(path), "svg")
    return path


def main(argv: list[str] | None = None) -> None:
    arguments = parse_arguments(argv)
    arguments.out.mkdir(parents=True, exist_ok=True)
    plotting = not arguments.no_plot and can_plot()  # known before the games, not after
    result = run_tournament(
        arguments.bots, arguments.games, players=arguments.players, seed=arguments.seed, workers=arguments.workers
    )
    print(result.table())
    presets, games = write_csv(result, arguments.out)
    plot = draw(result, arguments.out) if plotting else None
    summary = {
        "presets_csv": str(presets),
        "games_csv": str(games),
        "plot": str(plot) if plot else None,
        "games": len(result.games),
        "win_rates": {s.name: round(s.win_rate, 4) for s in result.stats},
    }
    print(json.dumps(summary))


if __name__ == "__main__":  # worker processes may be spawned: see solver.play.tournament
    main()
