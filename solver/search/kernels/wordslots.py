"""The word search's state slots, statuses and constant arguments, shared by its kernel
(`wordsearch`) and its bounds (`wordbounds`). The names carry WS_: the move search's state slots
and undo kinds (`layout`) are other arrays.
"""

from __future__ import annotations

import numpy as np

from solver.search.kernels import resumable as loop  # the status codes and first slots both complete searches share

WS_RUNNING, WS_FOUND, WS_EXHAUSTED, WS_PAUSED = (
    loop.SEARCH_RUNNING,
    loop.SEARCH_FOUND,
    loop.SEARCH_EXHAUSTED,
    loop.SEARCH_PAUSED,
)
WS_OVERFLOW = 4
WS_NONE, WS_OPEN, WS_COVERED, WS_SINGLE = 0, 1, 2, 3  # a cell's status in one direction
WS_UNDO_BLOCK, WS_UNDO_STATUS, WS_UNDO_TILE = np.int64(1), np.int64(2), np.int64(3)  # see NO_DEPTH
# state slots
WS_DEPTH, WS_NODES, WS_STATUS = loop.SEARCH_DEPTH, loop.SEARCH_NODES, loop.SEARCH_STATUS
WS_LEFT, WS_UNDO, WS_TILES, WS_OVERFLOW_AT = range(3, 7)
WS_WEIGHTS = 7  # the row of SpelledWords.weight the state's lookahead and items use (`_ws_hopeless`)
WS_STATE_SIZE = 8

WS_POOL = 1 << 21  # option slots: a search that needs more gives up (no claim made)
WS_GROUPS = 6  # bound-tile groups (`solver.search.wordsearch`), at most

# Constant arguments of jitted callees, typed as numba's plain int64 and bool: a Python literal
# (-1, True, a variable first set to 0) reaches the callee as a literal type, and numba compiles
# the callee again for each literal value (four copies of `_ws_add_item`: 10 s of a cold start).
NO_DEPTH = NO_WORD = NO_LETTER = np.int64(-1)
NO_LETTERS = ANY_DIRECTION = np.int64(0)
FROM_POOL, FROM_OCCURRENCES = np.True_, np.False_
