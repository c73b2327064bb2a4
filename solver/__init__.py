"""bananas: a fast Bananagrams grid solver and AI opponent.

The public API, importable from here (the numba-backed parts load on first use, so
`import solver` stays light):

    solve(tiles, lexicon="en", time_limit=10.0, objective="any", seed=None) -> Solution
    extend(grid, tiles, ...) -> Solution            place tiles without moving the grid
    Board(lexicon, grid, hand)                      live play: PEEL / DUMP rebuilds
    Grid, validate(grid, lexicon, tiles)            notation and the independent validator
    TileCounts, ENGLISH, FRENCH                     tile multisets and the tile sets
    get_lexicon(name_or_path)                       word lists
"""

from __future__ import annotations

__version__ = "0.1.0"

from solver.core.grid import Grid, validate
from solver.core.tiles import ENGLISH, FRENCH, TileCounts
from solver.lexicon.loader import get_lexicon

# name -> module; these import numba, so they load on first use
_LAZY = {
    "solve": "solver.search.solving",
    "extend": "solver.search.solving",
    "Solution": "solver.search.solving",
    "Board": "solver.search.board",
    "dump_advice": "solver.search.board",
}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


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
    "__version__",
]
