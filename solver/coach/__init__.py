"""The coach: reviews of played hands, hints, replays (docs/ARCHITECTURE.md, layer 5).

    read_log(source) -> GameLog              a `play --json` or room log, checked (LogError)
    review(log, lexicon=None) -> GameReview  each hand, each player: their grid beside the best
                                             their tiles allowed, pace, PEELs, DUMPs and advice
    hint(grid, hand, lexicon, rules) -> Hint | None   one move on the player's own tiles
    frames(log) -> list[Frame]               every player's grid at each moment of a log

Every name loads on first use: reading a log imports no search kernel.
"""

from __future__ import annotations

from solver.core.lazy import lazy_exports

_LAZY = {
    "read_log": "solver.coach.logs",
    "GameLog": "solver.coach.logs",
    "LogError": "solver.coach.logs",
    "review": "solver.coach.reviews",
    "GameReview": "solver.coach.reviews",
    "hint": "solver.coach.hints",
    "Hint": "solver.coach.hints",
    "frames": "solver.coach.replay",
    "Frame": "solver.coach.replay",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = list(_LAZY)
