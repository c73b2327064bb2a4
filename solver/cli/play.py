"""The `bananas play` command: bots play a hand, or a match, of Bananagrams.

    bananas play [--players 4] [--bots hard,medium] [--seed 0] [--variant classic] [--json] [--svg-dir DIR]

Same conventions as `solver.cli.grids`: bad usage or input prints one `error: ...` line on
stderr and exits 2, never a traceback. The numba-backed bots (`solver.play.bots`) are imported
inside the command body. What it prints as the game goes is `solver.cli.play_logs`'s; a game
is a pure function of its settings, so running the same command again writes the same bytes.
"""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.common import check_seed, reports_input_errors
from solver.cli.game_options import (
    check_specs,
    default_players,
    lang_option,
    make_rules,
    seed_option,
    split_specs,
    variant_option,
)
from solver.cli.outputs import check_writable, write_text
from solver.cli.play_logs import JsonLog, TextLog, label
from solver.core.grid import Grid, validate
from solver.core.svg import grid_svg
from solver.lexicon.loader import get_lexicon
from solver.play.match import MATCH_FORMATS, play_match
from solver.play.rules import Rules


@click.command()
@click.option("--players", type=int, metavar="N", help="Number of players [default: 4; 1 for solo].")
@click.option(
    "--bots",
    metavar="SPEC,...",
    help="Bot presets by seat (beginner, casual, club, expert, pacer, easy, medium, hard, long, "
    "compact, reckless, greedy, or 'hard:speed=3,risk=0.1'); a shorter list cycles. "
    "[default: hard, then medium]",
)
@seed_option
@variant_option
@lang_option
@click.option(
    "--match",
    "match_format",
    type=click.Choice(MATCH_FORMATS),
    default="single",
    show_default=True,
    help="One hand, or a match of several.",
)
@click.option("--json", "as_json", is_flag=True, help="Write the event log as JSON lines (header first).")
@click.option("--realtime", is_flag=True, help="Pace the events on the wall clock.")
@click.option(
    "--svg-dir",
    metavar="DIR",
    help="Write each hand's final grids as SVG pictures into DIR (invalid words outlined in red).",
)
@reports_input_errors
def play(
    players: int | None,
    bots: str | None,
    seed: int,
    variant: str,
    lang: str,
    match_format: str,
    as_json: bool,
    realtime: bool,
    svg_dir: str | None,
) -> None:
    """Watch bots play a hand (or a match) of Bananagrams.

    Events are printed as they happen on the simulated clock; then the grids and who
    won. With --json the event log is written instead, one JSON object per line.

    \b
    Examples:
      bananas play
      bananas play --players 2 --bots hard,easy --seed 7 --match best-of-3
      bananas play --variant solo --bots hard --json > game.jsonl
      bananas play --players 2 --svg-dir grids/
    """
    check_seed(seed)
    if svg_dir is not None:
        check_picture_folder(svg_dir)
    players = default_players(players, variant, 4)
    rules = make_rules(variant, lang)
    rules.check_players(players)  # RuleError (a ValueError): error line, exit 2
    if bots is None:
        specs = ["hard"] + ["medium"] * (players - 1)
    else:
        given = split_specs(bots)
        if len(given) > players:
            raise ValueError(f"--bots names {len(given)} bots for {players} player{'s' if players != 1 else ''}")
        specs = [given[i % len(given)] for i in range(players)]
    check_specs(specs)

    from solver.play.bots import make_bot

    emit: JsonLog | TextLog
    if as_json:
        emit = JsonLog(players, specs, seed, variant, lang, match_format)
    else:
        emit = TextLog(specs, match_format != "single", f"{variant} ({lang}), seed {seed}, {match_format}")
    emit.header()
    match = play_match(
        rules,
        [make_bot(spec) for spec in specs],
        seed,
        match_format,
        realtime=realtime,
        observer=emit.event,
        snapshots=as_json,
    )
    emit.finish(match)
    if svg_dir is not None:
        written = write_grid_pictures(svg_dir, match, specs, rules)
        click.echo(f"wrote {written} grid picture{'s' if written != 1 else ''} to {svg_dir}", err=True)


def check_picture_folder(folder: str) -> None:
    """--svg-dir: an existing folder, or one that can be made (it is made after the game)."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ValueError(f"--svg-dir: {folder} is not a folder")
    check_writable(str(path / "hand1-P1.svg") if path.is_dir() else folder, "--svg-dir")


def write_grid_pictures(folder: str, match, specs: list[str], rules: Rules) -> int:
    """hand<N>-P<seat>.svg for every grid on the table at the end of each hand."""
    Path(folder).mkdir(exist_ok=True)
    lexicon = get_lexicon(rules.lexicon)
    written = 0
    for number, hand in enumerate(match.hands, start=1):
        for seat, rows in enumerate(hand.grids):
            if not rows:
                continue
            grid = Grid.from_rows(rows)
            report = validate(grid, lexicon, min_length=rules.min_length)
            title = f"hand {number}, {label(specs, seat)}: {len(grid.cells())} tiles"
            write_text(str(Path(folder) / f"hand{number}-P{seat + 1}.svg"), grid_svg(grid, report, title=title))
            written += 1
    return written
