"""What `solve` optimises once it has a grid (kept numba-free so the CLI imports it cheaply).

any           the first valid grid
fewest-words  fewest words (the rules' solo objective), then smallest box
compact       smallest bounding box, then fewest words
longest-word  longest word (the Banana Smoothie tiebreak), then fewest words
"""

from __future__ import annotations

from solver.core.grid import Grid, find_words

OBJECTIVES = ("any", "fewest-words", "compact", "longest-word")


def objective_key(objective: str, grid: Grid) -> tuple:
    """A sort key for `grid` under `objective`: smaller is better."""
    words = find_words(grid)
    area = grid.height * grid.width
    if objective == "fewest-words":
        return (len(words), area)
    if objective == "compact":
        return (area, len(words))
    if objective == "longest-word":
        return (-max((len(w.text) for w in words), default=0), len(words))
    return ()
