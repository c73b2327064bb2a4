"""The catalogue of bot presets: every bot a person can seat, of both games, defined once.

The settings of the solver-backed Bananagrams presets are `solver.play.bots.PRESETS` (plus
`greedy`, the baseline); Spellevate's are `solver.play.spellevate_bots.PRESETS`. This module
names them by game, with a line each that says what the bot is like, for the command line's
help, the browser's lobby and the engine protocol's `hello`. Adding a preset: its settings
in the bot's module and its line here (a test checks that the two agree), then
`python benchmarks/bench_pace.py --record` to measure its pace (`pace_line`).
"""

from __future__ import annotations

from solver.play import bots, spellevate_bots
from solver.play.pace import preset_pace
from solver.play.variants import BANANAGRAMS, SPELLEVATE

SUMMARIES = {
    BANANAGRAMS: {
        "beginner": "common words, slow and steady: for a first game",
        "casual": "everyday words at a relaxed pace",
        "club": "a good vocabulary at a practised player's pace, less a third",
        "expert": "every word, quick, keeps room for the awkward letters",
        "pacer": "keeps pace with the others at the table (pacer:lead=0.1 a little ahead)",
        "easy": "common words, works at 0.4x a practised player's pace",
        "medium": "everyday vocabulary at a practised player's pace",
        "hard": "every word, twice a practised player's pace, dumps by advice",
        "tuned": "hard's pace and words, with the strategy settings the lab's study found",
        "long": "every word, long words first",
        "compact": "every word, keeps its grid small",
        "reckless": "calls BANANAS on a grid it has not checked",
        "greedy": "a baseline: the longest word, then words crossing it; never rebuilds",
    },
    SPELLEVATE: {
        "simple": "leads its longest word, follows with the cheapest play that beats the table",
        "planner": "plans its hand ahead to go out first",
    },
}


def preset_names(game: str = BANANAGRAMS) -> tuple[str, ...]:
    """The presets of `game`, in the order a lobby lists them."""
    if game == SPELLEVATE:
        return tuple(spellevate_bots.PRESETS)
    return (*bots.PRESETS, bots.GREEDY)


def describe(game: str, name: str) -> str:
    """One line about the preset `name` of `game` (empty for a name the catalogue lacks)."""
    return SUMMARIES.get(game, {}).get(name, "")


def pace_line(game: str, name: str) -> str | None:
    """How fast the preset plays, as measured (`solver.play.pace`): 'finishes a 21-tile grid
    in about 3 min, then 1 tiles a minute'; None for a preset without a fixed pace (pacer)
    or a game without a clock."""
    if game != BANANAGRAMS:
        return None
    pace = preset_pace(name)
    return pace.describe() if pace is not None else None


def check_spec(game: str, spec: str) -> None:
    """ValueError if `spec` ('hard:speed=3') seats no bot of `game` (builds none: no word list)."""
    if game == SPELLEVATE:
        spellevate_bots.parse_spec(spec)
    else:
        bots.make_bot(spec)  # a SolverBot loads nothing until it is dealt tiles
