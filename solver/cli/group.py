"""The `bananas` command group (`solver.cli.main`).

Exit codes, for every command: 0 success (valid grid / solved), 1 a well-formed "no"
(invalid grid / not solved), 2 bad usage or input, 130 stopped with Ctrl-C. Input errors print
one line starting with `error: ` on stderr, never a traceback.

Commands live by concern: `grids` (solve, check, words, peel, dump), `play`, `tournaments`
(tournament, ladder), `spellevate`, `coach` (review, replay), `engine` (engine, serve), `warmup`
(warm-up); `common` holds what they all share, `game_options` what the game commands share.
Start-up is part of the product: the group imports a command's module only when that command
runs (`--help` reads their help from the sources without importing any), and each command
imports numba-backed modules inside its body only.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
from pathlib import Path

import click

INTERRUPTED = 130  # the exit code of a command stopped with Ctrl-C, as shells report it

# name -> the module that defines it (the function is the name with '_' for '-').
COMMANDS = {
    "check": "solver.cli.grids",
    "dump": "solver.cli.grids",
    "engine": "solver.cli.engine",
    "ladder": "solver.cli.tournaments",
    "peel": "solver.cli.grids",
    "play": "solver.cli.play",
    "replay": "solver.cli.coach",
    "review": "solver.cli.coach",
    "serve": "solver.cli.engine",
    "solve": "solver.cli.grids",
    "spellevate": "solver.cli.spellevate",
    "tournament": "solver.cli.tournaments",
    "tune": "solver.cli.tuning",
    "warm-up": "solver.cli.warmup",
    "words": "solver.cli.grids",
}


def command_docstrings() -> dict[str, str]:
    """Each command's help text, read from its module's source: the first triple-quoted string
    after `def NAME(` (tests/cli/test_startup.py checks the listing against click's own). Reading
    the text costs a millisecond; importing the modules (numpy, the lexicon loader) a tenth of
    a second, and parsing them with `ast` tens of milliseconds."""
    import inspect  # --help only: some 15 ms of import that a solve does not need

    docstrings: dict[str, str] = {}
    sources: dict[str, str] = {}
    for name, module in COMMANDS.items():
        if module not in sources:
            spec = importlib.util.find_spec(module)
            assert spec is not None and spec.origin is not None, module  # COMMANDS names real source modules
            sources[module] = Path(spec.origin).read_text(encoding="utf-8")
        source = sources[module]
        start = source.index('"""', source.index(f"\ndef {name.replace('-', '_')}(")) + 3
        docstrings[name] = inspect.cleandoc(source[start : source.index('"""', start)])
    return docstrings


class OneLineUsageError(click.UsageError):
    """A click usage error (a bad option value, a missing argument, an unknown command) shown as
    every other input error is: one `error: ...` line on stderr, exit code 2, where click would
    print three (Usage / Try / Error)."""

    def show(self, file=None) -> None:
        hint = f" (see '{self.ctx.command_path} --help')" if self.ctx is not None else ""
        click.echo(f"error: {' '.join(self.format_message().splitlines())}{hint}", err=True)


def one_line(error: click.UsageError) -> click.UsageError:
    # Help shown for a bare `bananas` (or a group with no command) is help, not an error.
    if isinstance(error, (OneLineUsageError, click.exceptions.NoArgsIsHelpError)):
        return error
    return OneLineUsageError(error.format_message(), error.ctx)  # exit code 2, as every UsageError


def nearest_command(name: str) -> str | None:
    """The command a mistyped or shortened name most likely meant: the only one it begins, else
    the closest spelling (difflib's ratio of at least 0.6), else None."""
    name = name.lower()
    begun = [command for command in COMMANDS if command.startswith(name)]
    if len(begun) == 1:
        return begun[0]
    close = difflib.get_close_matches(name, list(COMMANDS), n=1)
    return close[0] if close else None


class LazyGroup(click.Group):
    """A group whose commands are imported when run, not when the group is built. Usage errors,
    the group's own and its commands' (parsed in `invoke`), are one `error:` line."""

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise one_line(error) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            raise one_line(error) from None
        except KeyboardInterrupt:
            # Ctrl-C is the user's choice, not a failure: the shell's 130 (128 + SIGINT), without
            # click's "Aborted!" (which would also exit 1, the code of a well-formed "no").
            raise click.exceptions.Exit(INTERRUPTED) from None

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else ""
        # Options and shell completion (resilient parsing: no error for a half-typed word) are click's.
        if name in COMMANDS or name.startswith("-") or ctx.resilient_parsing:
            return super().resolve_command(ctx, args)
        nearest = nearest_command(name)
        suggestion = f" Did you mean {nearest!r}?" if nearest else ""
        raise OneLineUsageError(f"No such command {name!r}.{suggestion}", ctx)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        return getattr(importlib.import_module(COMMANDS[cmd_name]), cmd_name.replace("-", "_"))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own listing (tests/cli/test_startup.py compares them), without importing the commands.
        names = self.list_commands(ctx)
        docstrings = command_docstrings()
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=docstrings[name]).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bananas")
def main() -> None:
    """Solve and check Bananagrams grids.

    A grid is written one row per line, one letter per cell and '.' for an empty cell
    ('#' lines are comments); its JSON form is a list of row strings. Word lists: the
    shipped 'en' and 'fr', 'en@50' (common English words; levels 35 to 80), or a path to
    a file of words.

    Exit codes: 0 valid / solved, 1 invalid / not solved, 2 bad usage or input,
    130 stopped with Ctrl-C.

    Shell completion (bash): . <(_BANANAS_COMPLETE=bash_source bananas); zsh
    and fish: see the README, "Shell completion".

    \b
    Examples:
      bananas solve CATMAP
      bananas solve --json --time-limit 2 - < hands.txt
      bananas check grid.txt --tiles CATMAP
      bananas solve CATMAP --json | bananas check -
      bananas words AEIRST --limit 10
      bananas words AEIRST --lexicon en@50
      bananas solve --lexicon fr ÉCOLE
      bananas peel --grid grid.txt S
      bananas dump --grid grid.txt --hand QE
      bananas warm-up
    """
    from solver.cli.warmup import show_build_notices, show_compile_notices

    # First-run word-list builds and kernel compiles say so on a terminal, whichever command runs.
    show_build_notices()
    show_compile_notices()


if __name__ == "__main__":
    main()
