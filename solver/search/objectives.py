"""What `solve` optimises once it has a grid (kept numba-free so the CLI imports it cheaply).

any           the first valid grid
fewest-words  fewest words (the rules' solo objective), then smallest box
compact       smallest bounding box, then fewest words
longest-word  longest word (the Banana Smoothie tiebreak), then fewest words
"""

from __future__ import annotations

from solver.core.grid import Grid, word_texts

OBJECTIVES = ("any", "fewest-words", "compact", "longest-word")


def objective_key(objective: str, grid: Grid) -> tuple:
    """A sort key for `grid` under `objective`: smaller is better."""
    words = word_texts(grid)
    area = grid.height * grid.width
    if objective == "fewest-words":
        return (len(words), area)
    if objective == "compact":
        return (area, len(words))
    if objective == "longest-word":
        return (-max(map(len, words), default=0), len(words))
    return ()


def best_possible_key(objective: str, tile_count: int, longest: int, min_length: int) -> tuple:
    """A key no grid of `tile_count` tiles beats under `objective`, `longest` the length of the
    longest word the tiles spell: a grid with this key is the best there is (the search can
    stop). Bounds, not always reached: a grid with W words has W = 1 only when one word holds
    every tile; W = 2 is two words crossing, lengths a + b - 1 = tile_count, box a x b."""
    one_word = longest >= tile_count
    if objective == "longest-word":
        return (-longest, 1 if one_word else 2)
    if objective == "fewest-words":
        if one_word:
            return (1, tile_count)
        short = max(min_length, tile_count + 1 - longest)  # the smallest box of two crossing words
        return (2, short * (tile_count + 1 - short))
    if objective == "compact":
        return (tile_count, 1)  # a box of no empty cell, of one word
    return ()
