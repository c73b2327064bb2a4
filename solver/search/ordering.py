"""The move search's ordering weights: which of a position's moves the search tries first.

The kernels only read them (`solver.search.kernels.layout.Ordering`); every search takes
`default_ordering`, with seeded noise when it is given a seed, and weighs the side words of its
moves when its plan says so (`solver.search.plans.SearchPlan.side_word`).
"""

from __future__ import annotations

import numpy as np

from solver.core.tiles import ALPHABET, HARDNESS_TIERS
from solver.search.kernels import layout

# Move-ordering weight of the letters of each tier of tiles.HARDNESS_TIERS (hardest first): hard
# letters are spent early. The kernels take the first word's letter by weight, then alphabet,
# which is tiles.HARD_FIRST's order: the search and the bots share one order of hardness.
TIER_WEIGHTS = (12, 10, 9, 7, 6, 5, 4, 3, 2, 1)
PER_TILE_BONUS = 1.0  # longer moves first
ONE_SIDED_LEAVE = 1.5  # per tile left in a vowel-only or consonant-only hand
BALANCE = 0.3  # per unit of |consonants - 2 vowels| left
SEEDED_NOISE = 0.9  # amplitude of the random term a seed adds to move scores


def default_ordering(noise: float = 0.0, side_word: float = 0.0) -> layout.Ordering:
    """The move-ordering weights every search uses, with seeded noise of amplitude `noise` and
    `side_word` taken off a move's score per side word it makes (0: side words not weighed)."""
    weight = {letter: TIER_WEIGHTS[tier] for tier, letters in enumerate(HARDNESS_TIERS) for letter in letters}
    letter = np.array([weight[letter] for letter in ALPHABET], dtype=np.float64)
    return layout.ordering(letter, PER_TILE_BONUS, ONE_SIDED_LEAVE, BALANCE, noise, side_word)
