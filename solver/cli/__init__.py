"""The `bananas` command line.

Exit codes, for every command: 0 success (valid grid / solved), 1 a well-formed "no"
(invalid grid / not solved), 2 bad usage or input. Input errors print one line starting
with `error: ` on stderr, never a traceback.

Commands live by concern: `grids` (solve, check, words, peel, dump), `games` (play,
tournament, spellevate), `engine` (engine, serve); `common` holds what they share. Each
imports numba-backed modules inside its command body only, so `--help`, `check` and `words`
start fast.
"""

from __future__ import annotations

import click

from solver.cli.engine import engine, serve
from solver.cli.games import ladder, play, spellevate, tournament
from solver.cli.grids import check, dump, peel, solve, words


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bananas")
def main() -> None:
    """Solve and check Bananagrams grids.

    A grid is written one row per line, one letter per cell and '.' for an empty cell
    ('#' lines are comments); its JSON form is a list of row strings. Word lists: the
    shipped 'en' and 'fr', or a path to a file of words.

    Exit codes: 0 valid / solved, 1 invalid / not solved, 2 bad usage or input.

    \b
    Examples:
      bananas solve CATMAP
      bananas solve --json --time-limit 2 - < hands.txt
      bananas check grid.txt --tiles CATMAP
      bananas solve CATMAP --json | bananas check -
      bananas words AEIRST --limit 10
      bananas peel --grid grid.txt S
      bananas dump --grid grid.txt --hand QE
    """


for _command in (check, words, solve, peel, dump, play, tournament, ladder, spellevate, engine, serve):
    main.add_command(_command)


if __name__ == "__main__":
    main()
