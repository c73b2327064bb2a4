"""The loop head the two resumable complete searches share (`wordsearch` and `exact`).

Both run in slices of nodes from a state vector whose first slots are DEPTH, NODES and STATUS,
and share these status codes, so one loop head pauses and exhausts them both.
"""

from __future__ import annotations

from solver.search.native import njit  # numba.njit, bound on first use (see native)

SEARCH_RUNNING, SEARCH_FOUND, SEARCH_EXHAUSTED, SEARCH_PAUSED = 0, 1, 2, 3
SEARCH_DEPTH, SEARCH_NODES, SEARCH_STATUS = 0, 1, 2


@njit(cache=True, nogil=True, _nrt=False)
def pause_or_exhaust(state, depth, limit):
    """The loop head: PAUSED once the slice's node limit is reached (the depth kept for the
    resume), EXHAUSTED once the search has backed out past the root; else SEARCH_RUNNING."""
    if state[SEARCH_NODES] >= limit:
        state[SEARCH_DEPTH] = depth
        state[SEARCH_STATUS] = SEARCH_PAUSED
        return SEARCH_PAUSED
    if depth < 0:
        state[SEARCH_DEPTH] = 0
        state[SEARCH_STATUS] = SEARCH_EXHAUSTED
        return SEARCH_EXHAUSTED
    return SEARCH_RUNNING
