"""The `bananas spellevate` command: Spellevate, the turn-based climbing game (docs/RULES.md).

    bananas spellevate [--players 4] [--bots simple,planner,...] [--rounds 1] [--seed N] [--double-set] [--json [FILE]]
    bananas spellevate --bots planner,simple,simple,simple --games N [--seed S] [--workers W] [--json FILE]
    bananas spellevate --human [--bots planner] [--players 4] [--rounds 3]

One game shown round by round, a seat-rotated series of bots compared, or a game with a person
at P1 (`solver.cli.spellevate_terminal`). Same conventions as `solver.cli.grids`: bad usage or
input prints one `error: ...` line on stderr and exits 2, never a traceback.
"""

from __future__ import annotations

import json

import click

from solver.cli.common import check_seed, reports_input_errors
from solver.cli.game_options import check_series_size, split_specs
from solver.cli.outputs import STDOUT, check_writable, progress_bar, write_text
from solver.core.limits import MAX_SPELLEVATE_PLAYERS
from solver.lexicon.loader import get_lexicon


@click.command()
@click.option(
    "--players", type=int, metavar="N", help="Players, 3 or more [default: one per bot (and you), at least 3; else 4]."
)
@click.option(
    "--bots",
    metavar="SPEC,...",
    help="Bot presets by seat: simple, planner (or 'planner:beam=8,...'); a shorter list cycles. [default: simple]",
)
@click.option("--rounds", type=click.IntRange(1, 100), default=1, show_default=True, help="Rounds of one game.")
@click.option("--games", type=int, metavar="N", help="Play a seat-rotated series of N rounds and compare the bots.")
@click.option("--workers", type=int, default=1, show_default=True, metavar="W", help="Worker processes (--games).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--double-set", is_flag=True, help="Deal two sets (288 tiles), for large groups.")
@click.option("--human", is_flag=True, help="Take seat P1 yourself and play the bots in the terminal.")
@click.option(
    "--json",
    "json_file",
    is_flag=False,
    flag_value="-",
    metavar="[FILE]",
    help="One game: every event as JSON lines; --games: the results as JSON. To FILE, or stdout.",
)
@reports_input_errors
def spellevate(
    players: int | None,
    bots: str | None,
    rounds: int,
    games: int | None,
    workers: int,
    seed: int,
    double_set: bool,
    human: bool,
    json_file: str | None,
) -> None:
    """Spellevate, the turn-based climbing game (RULES.md): watch bots, compare them, or play.

    Without --games, one game of --rounds rounds is shown round by round. With --games,
    a series: every deal is played once per seat with the bots rotated, and the table
    gives each bot's win rate (95% Wilson interval) and mean score. With --human you hold
    seat P1: type a word or a letter from your hand, or pass.

    \b
    Examples:
      bananas spellevate --players 5 --rounds 3
      bananas spellevate --bots planner,simple,simple,simple --games 200 --workers 2
      bananas spellevate --human --bots planner
    """
    from solver.play.spellevate import MIN_PLAYERS, set_of

    check_seed(seed)
    if players is not None and not 1 <= players <= MAX_SPELLEVATE_PLAYERS:
        raise ValueError(f"--players must be from 3 to {MAX_SPELLEVATE_PLAYERS} (a tile each), got {players}")
    given = split_specs(bots) if bots is not None else None
    sets = 2 if double_set else 1
    if games is not None:
        if human:
            raise ValueError("--human plays one game: leave out --games")
        if rounds != 1:
            raise ValueError("--rounds is for one game; a series plays --games rounds")
        if given is None:
            raise ValueError("--games compares bots: name them with --bots (e.g. planner,simple,simple,simple)")
        spellevate_series(given, games, players or len(given), seed, workers, sets, json_file)
        return
    if workers != 1:
        raise ValueError("--workers is for a series: add --games")
    seated = 1 if human else 0
    if players is None:
        # A seat per bot named (and yours); a shorter list cycles to fill the smallest table.
        players = max(len(given) + seated, MIN_PLAYERS) if given else 4
    if given is not None and len(given) > players - seated:
        raise ValueError(f"--bots names {len(given)} bots for {players - seated} bot seats")
    choices = given or ["simple"]
    specs = [choices[i % len(choices)] for i in range(max(0, players - seated))]
    spellevate_game(specs, human, rounds, seed, set_of(sets), json_file)


def spellevate_game(specs: list[str], human: bool, rounds: int, seed: int, tiles, json_file: str | None) -> None:
    """One game: the rounds shown one line each (or every event as JSON lines); with a
    person at P1, every event as it happens."""
    from solver.cli.spellevate_terminal import HumanSeat, LeftTable, TableLog
    from solver.play import spellevate_events as sp
    from solver.play.spellevate import SpellevateBot, check_table
    from solver.play.spellevate_bots import check_spellevate_spec, make_spellevate_bot
    from solver.play.spellevate_match import play_spellevate_rounds

    for spec in specs:
        check_spellevate_spec(spec)
    check_table(len(specs) + human, tiles)
    if human and json_file is not None:
        raise ValueError("--human shows the game as it goes: leave out --json")
    if json_file is not None:
        check_writable(json_file, "--json")  # before the game: a bad path fails at once
    lexicon = get_lexicon("en")
    seats: list[SpellevateBot] = [HumanSeat(lexicon)] if human else []
    seats += [make_spellevate_bot(spec, lexicon) for spec in specs]
    if human:
        names = ["you"] + specs
        click.echo(f"Spellevate, seed {seed}: {', '.join(f'P{i + 1} {name}' for i, name in enumerate(names))}")
        try:
            results = play_spellevate_rounds(seats, rounds, seed, lexicon, tiles, observer=TableLog(names).event)
        except LeftTable as left:
            if not left.by_choice:
                raise ValueError(str(left)) from None
            click.echo(str(left))
            return
    else:
        results = play_spellevate_rounds(seats, rounds, seed, lexicon, tiles)
    lines = []
    for number, result in enumerate(results, start=1):
        if json_file is not None:
            lines += [json.dumps({"round": number, **event}) + "\n" for event in result.events]
            continue
        if human:
            continue
        plays = sum(1 for event in result.events if event["event"] == sp.PLAY)
        click.echo(
            f"round {number}: P{result.leader + 1} leads; {plays} plays; P{result.winner + 1} wins; "
            f"scores {' '.join(f'P{i + 1} {s:+d}' for i, s in enumerate(result.scores))}"
        )
    if human and len(results) > 1:
        totals = [sum(result.scores[seat] for result in results) for seat in range(len(seats))]
        click.echo(f"totals: {' '.join(f'P{i + 1} {t:+d}' for i, t in enumerate(totals))}")
    if json_file is not None:
        write_text(json_file, "".join(lines))  # written whole, at the end
    if json_file not in (None, "-"):
        click.echo(f"wrote {json_file}", err=True)


def spellevate_series(
    specs: list[str], games: int, players: int, seed: int, workers: int, sets: int, json_file: str | None
) -> None:
    """A seat-rotated series (`solver.play.spellevate_tournament`), shown as a table."""
    from solver.play.spellevate_bots import check_spellevate_spec
    from solver.play.spellevate_tournament import run_series

    for spec in specs:
        check_spellevate_spec(spec)
    check_series_size(games, workers)
    if json_file is not None:
        check_writable(json_file, "--json")  # before the run: a bad path fails at once
    total = -(-games // players) * players
    if total != games:
        click.echo(f"note: {games} rounds rounded up to {total} (whole rotation groups of {players})", err=True)
    with progress_bar(total, f"playing {total} rounds", unit="round", enabled=json_file != STDOUT) as bar:
        result = run_series(
            specs, games, players, seed, workers, sets, progress=lambda done, _total: bar.update(done - bar.n)
        )
    if json_file != STDOUT:
        click.echo(result.table())
    if json_file is not None:
        write_text(json_file, json.dumps(result.to_json(), indent=1) + "\n")
    if json_file not in (None, "-"):
        click.echo(f"wrote {json_file}", err=True)
