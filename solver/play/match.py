"""Matches: several hands of the same players, RULES.md "Matches"."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.core.limits import MAX_MATCH_HANDS
from solver.play.hand import HandResult, play_hand
from solver.play.rules import Bot, RuleError, Rules

MATCH_FORMATS = ("single", "best-of-3", "best-of-5", "first-to-two")


@dataclass
class MatchResult:
    """A match's hands, the hand wins of each seat and the match winner (a seat, or None for a drawn match)."""

    format: str
    hands: list[HandResult]
    wins: list[int]
    winner: int | None  # None: drawn match


def play_match(rules: Rules, bots: list[Bot], seed: int, format: str = "best-of-3", **options) -> MatchResult:
    """RULES.md matches: best of three or five (count hand wins), or first to two sole
    round wins (shared or unawarded rounds give no win and are replayed). Hand k uses seed
    (seed, k), so a match is as reproducible as a hand."""
    if format not in MATCH_FORMATS:
        raise RuleError(f"unknown match format {format!r} (choose from {', '.join(MATCH_FORMATS)})")
    wins = [0] * len(bots)
    hands: list[HandResult] = []
    target = {"single": 1, "best-of-3": 2, "best-of-5": 3, "first-to-two": 2}[format]
    limit = {"single": 1, "best-of-3": 3, "best-of-5": 5}.get(format, MAX_MATCH_HANDS)
    while len(hands) < limit and max(wins) < target:
        hand_seed = int(np.random.SeedSequence([seed, len(hands)]).generate_state(1)[0])
        result = play_hand(rules, bots, hand_seed, **options)
        hands.append(result)
        if result.sole_winner is not None:
            wins[result.sole_winner] += 1
        elif format != "first-to-two" and result.outcome == "replay" and limit < MAX_MATCH_HANDS:
            limit += 1  # Smoothie: equal longest words means another hand
    leaders = [index for index, count in enumerate(wins) if count == max(wins)]
    winner = leaders[0] if len(leaders) == 1 and max(wins) > 0 else None
    return MatchResult(format, hands, wins, winner)
