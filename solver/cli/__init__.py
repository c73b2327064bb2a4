"""The `bananas` command line.

Exit codes, for every command: 0 success (valid grid / solved), 1 a well-formed "no"
(invalid grid / not solved), 2 bad usage or input. Input errors print one line starting
with `error: ` on stderr, never a traceback.

Commands live by concern: `grids` (solve, check, words, peel, dump), `games` (play,
tournament, spellevate), `engine` (engine, serve), `warmup` (warm-up); `common` holds what
they share. Start-up is part of the product: the group imports a command's module only when
that command runs (`--help` lists them from the table below without importing any), and each
command imports numba-backed modules inside its body only.
"""

from __future__ import annotations

import importlib

import click

# name -> (module, the first paragraph of its help: what `bananas --help` lists). A test
# checks the summaries against the commands' own help.
COMMANDS = {
    "check": ("solver.cli.grids", "Validate a grid: words, connectivity and (optionally) the tiles used."),
    "dump": ("solver.cli.grids", "Advise which tile of the hand to DUMP."),
    "engine": (
        "solver.cli.engine",
        "Speak the engine protocol (JSON lines) on stdin/stdout: seat our bots in another game, or let the "
        "engine referee one. See docs/PROTOCOL.md.",
    ),
    "ladder": ("solver.cli.games", "Rate bots: a seat-rotated round robin, then Bradley-Terry ratings."),
    "peel": ("solver.cli.grids", "Add LETTERS (a PEEL's tile, a DUMP's three) to a valid grid, moving few tiles."),
    "play": ("solver.cli.games", "Watch bots play a hand (or a match) of Bananagrams."),
    "serve": (
        "solver.cli.engine",
        "Serve the engine protocol over WebSocket: one isolated session per connection, with limits on message "
        "size, sessions and idle time. See docs/PROTOCOL.md.",
    ),
    "solve": ("solver.cli.grids", "Build a grid using every tile of LETTERS."),
    "spellevate": ("solver.cli.games", "Watch simple bots play Spellevate, the turn-based climbing game."),
    "tournament": (
        "solver.cli.games",
        "Play many seeded games between bots and compare their win rates, with seats rotated so that seat and "
        "deal luck cancel.",
    ),
    "warm-up": (
        "solver.cli.warmup",
        "Build the word-list arrays and compile the solver now, so that no later command waits for them.",
    ),
    "words": ("solver.cli.grids", "List the words formable from LETTERS, longest first."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when run, not when the group is built."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[cmd_name][0])
        return getattr(module, cmd_name.replace("-", "_"))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own listing, fed from the table (click would import every command for it).
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.utils.make_default_short_help(COMMANDS[name][1], limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
      bananas warm-up
    """
    from solver.cli.warmup import show_build_notices

    show_build_notices()  # first-run word-list builds say so on a terminal, whichever command runs


if __name__ == "__main__":
    main()
