"""The `bananas review` and `bananas replay` commands (registered into `solver.cli.main`).

    bananas review LOG [--json]
    bananas replay LOG --svg-dir DIR

LOG is a `bananas play --json` log or a room's hand log ('-': standard input), read up to
MAX_LOG_BYTES and checked line by line (`solver.coach.read_log`): a truncated, foreign or
hostile log prints one `error: ...` line and exits 2. The search modules are imported
inside the command bodies.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from solver.cli.common import reports_input_errors
from solver.cli.outputs import check_writable, write_text
from solver.core.limits import MAX_LOG_BYTES


def load_log(source: str):
    from solver.coach.logs import read_log

    if source == "-":
        return read_log(sys.stdin.buffer.read(MAX_LOG_BYTES + 1))
    return read_log(Path(source))


@click.command()
@click.argument("log", metavar="LOG")
@click.option("--json", "as_json", is_flag=True, help="Write the review as one JSON object.")
@reports_input_errors
def review(log: str, as_json: bool) -> None:
    """Review a played game: each player's grid beside the best their tiles allowed.

    For every hand and player (bots too): the final tiles and grid, the best grid of those
    tiles (fewest words, then the longest word; fixed search budgets, so the same review
    on every machine), the time to a first grid, tiles per minute, PEELs, each DUMP with
    what the dump advice would have dumped, and for a rotten banana its invalid words and
    the nearest valid grid.

    \b
    Examples:
      bananas play --players 2 --seed 7 --json > game.jsonl
      bananas review game.jsonl
      bananas review game.jsonl --json
    """
    from solver.coach.reviews import review as review_game

    result = review_game(load_log(log))
    if as_json:
        click.echo(json.dumps(result.to_json(), separators=(",", ":")))
    else:
        click.echo(result.text().rstrip("\n"))


@click.command()
@click.argument("log", metavar="LOG")
@click.option("--svg-dir", metavar="DIR", required=True, help="Write one SVG picture per frame into DIR.")
@reports_input_errors
def replay(log: str, svg_dir: str) -> None:
    """Draw a played game's frames: every player's grid at each moment.

    One picture per frame (hand<N>-frame<NNN>.svg): each time a grid changed (the grids as
    they were built, from the log's snapshots and BANANAS calls), and the grids at the end
    of each hand; every player side by side. At most 200 frames per hand.

    \b
    Examples:
      bananas play --players 2 --seed 7 --json > game.jsonl
      bananas replay game.jsonl --svg-dir frames/
    """
    from solver.coach.replay import frame_svg, frames

    folder = Path(svg_dir)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--svg-dir: {svg_dir} is not a folder")
    game = load_log(log)
    check_writable(str(folder / "hand1-frame001.svg") if folder.is_dir() else svg_dir, "--svg-dir")
    folder.mkdir(exist_ok=True)
    written, numbers = 0, dict[int, int]()
    for frame in frames(game):
        numbers[frame.hand] = numbers.get(frame.hand, 0) + 1
        write_text(str(folder / f"hand{frame.hand}-frame{numbers[frame.hand]:03d}.svg"), frame_svg(frame, game.labels))
        written += 1
    click.echo(f"wrote {written} frame{'s' if written != 1 else ''} to {svg_dir}", err=True)
