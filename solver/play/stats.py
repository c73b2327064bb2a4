"""Statistics of a series of games: how sure a measured win rate is."""

from __future__ import annotations

import math


def confidence_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    # Clamped so that rounding never leaves the observed rate outside its own interval.
    return (max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half)))
