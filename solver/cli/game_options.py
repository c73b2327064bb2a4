"""What the game commands share (`play`, `tournament`, `ladder`, `spellevate`): the bot lists
(`--bots`), the variant, language and seed options, and the bounds of a series.

Kept apart from `solver.cli.common`, which every command imports: these need the rules
(`solver.play.rules`), which a `bananas solve` never loads.
"""

from __future__ import annotations

import click

from solver.core.limits import MAX_GAMES, MAX_WORKERS
from solver.play.rules import Rules
from solver.play.variants import BANANAGRAMS, VARIANTS, offered

VARIANT_CHOICES = offered(BANANAGRAMS)
LANGUAGES = ("en", "fr")


def make_rules(variant: str, lang: str) -> Rules:
    """--variant and --lang (the catalogue, `solver.play.variants`)."""
    return Rules.for_variant(VARIANTS[variant], lang)


def default_players(players: int | None, variant: str, otherwise: int) -> int:
    """--players, or the variant's own count when it has one (solo)."""
    if players is not None:
        return players
    kind = VARIANTS[variant]
    return kind.min_players if kind.min_players == kind.max_players else otherwise


def split_specs(bots: str) -> list[str]:
    """'hard:speed=3,risk=0.1,medium' -> ['hard:speed=3,risk=0.1', 'medium']: a comma starts
    a new bot unless what follows is one more setting (KEY=VALUE) of a bot that has some."""
    specs: list[str] = []
    for piece in (piece.strip() for piece in bots.split(",")):
        if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    if not bots.strip() or not all(specs):
        raise ValueError(f"--bots: expected comma-separated bot presets, got {bots!r}")
    return specs


def check_specs(specs: list[str]) -> None:
    from solver.play.bots import make_bot

    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as error:
            raise ValueError(f"--bots: {spec!r}: {error}") from None


def check_series_size(games: int, workers: int) -> None:
    """--games and --workers of a series (a tournament, a ladder, a Spellevate series)."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be at least 1 and at most {MAX_GAMES}, got {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be at least 1 and at most {MAX_WORKERS}, got {workers}")


variant_option = click.option(
    "--variant",
    type=click.Choice(VARIANT_CHOICES),
    default="classic",
    show_default=True,
    help="Rule variant (three-letter: classic with 3+ letter words).",
)
lang_option = click.option(
    "--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="Lexicon and tile distribution."
)
seed_option = click.option(
    "--seed", type=int, default=0, show_default=True, help="The deal and every draw (same seed, same game)."
)
