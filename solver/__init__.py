"""bananas: a fast Bananagrams grid solver and AI opponent.

The public API, importable from here; every name loads on first use, so `import solver`
(and the `bananas` command's start-up) imports neither numpy nor numba until needed::

    solve(tiles, lexicon="en", time_limit=10.0, objective="any", seed=None) -> Solution
    extend(grid, tiles, ...) -> Solution            place tiles without moving the grid
    Board(lexicon, grid, hand)                      live play: PEEL / DUMP rebuilds
    Grid, validate(grid, lexicon, tiles)            notation and the independent validator
    TileCounts, ENGLISH, FRENCH                     tile multisets and the tile sets
    get_lexicon(name_or_path)                       word lists
    read_log(path), review(log), hint(grid, hand)   the coach: game logs, reviews, hints
"""

from __future__ import annotations

from solver.core.lazy import lazy_exports

__version__ = "0.1.0"

# name -> the module that defines it
_LAZY = {
    "solve": "solver.search.solving",
    "extend": "solver.search.solving",
    "Solution": "solver.search.solving",
    "Board": "solver.search.board",
    "dump_advice": "solver.search.board",
    "Grid": "solver.core.grid",
    "validate": "solver.core.grid",
    "TileCounts": "solver.core.tiles",
    "ENGLISH": "solver.core.tiles",
    "FRENCH": "solver.core.tiles",
    "get_lexicon": "solver.lexicon.loader",
    "read_log": "solver.coach.logs",
    "review": "solver.coach.reviews",
    "hint": "solver.coach.hints",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "solve",
    "extend",
    "Solution",
    "Board",
    "dump_advice",
    "Grid",
    "validate",
    "get_lexicon",
    "TileCounts",
    "ENGLISH",
    "FRENCH",
    "read_log",
    "review",
    "hint",
    "__version__",
]
