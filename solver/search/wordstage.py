"""The word search beside the move model's passes: `solve` (`solver.search.solving`) starts it
when its quick pass finds no grid on a hand of up to WORD_SEARCH_UP_TO tiles, in threads of its
own (`WordStage`, `BackgroundWordSearch`), or, in a node-capped search, in the caller's thread
within its nodes (`word_search_outcome`). The search itself is `solver.search.wordsearch`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon
from solver.search.native import search_clock

WORD_SEARCH_UP_TO = 21  # the complete word search (solver/search/wordsearch.py) runs on hands up to this size
WORD_SEARCH_SHARE = 0.9  # of the time left, before the move model's full pass (then the rest, if exhausted)
WORD_SEARCH = "exhaustive search over crossing words (solver/search/wordsearch.py)"


# In an uncapped solve, once the quick pass has found nothing on a hand of up to 21 tiles, the
# word search runs in a thread of its own while this one tries the proofs and a narrow pass of
# at most NARROW_BESIDE_WORD_SEARCH nodes (it finds some vowel-poor grids in tens of ms), then
# waits until the word search settles the hand or WORD_SEARCH_SHARE of the time left is spent
# (the rest goes to the move model's complete pass); while it waits, the word search runs two
# of its root searches at once (`word_search_workers`). The kernels release the GIL.
NARROW_BESIDE_WORD_SEARCH = 5_000
# Decisions (about 10-25 ms) between the background word search's checks for a stop: one round
# of two workers' turns, or two turns of one (wordsearch.TURN_NODES); counted, not timed: the
# clock leaves out once-a-process set-up (SciPy's import), so a timed slice that straddles one
# runs that much longer.
BACKGROUND_SLICE = 4_000


def word_search_workers() -> int:
    """Root searches the background word search runs at once while the solve waits for it: two
    where the process may use two cores. Two take BCDDDDFGMMMORRTTTTTUU's proof from 0.79 to
    0.39 s; a third, on two cores, only shares them (0.49 s). While the proofs run beside it,
    one: three busy threads on two cores slowed both sides (DDDDGGIKLMNNNPRRTTUWW: 0.18 s in a
    solve with one, 0.23 s with two)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return min(cores, 2)


class WordStage:
    """The word search in the background and the work beside it (the comment above)."""

    def __init__(self, words_run, deadline: float):
        now = search_clock()
        self.end = now + max(deadline - now, 0.0) * WORD_SEARCH_SHARE
        self.background = None
        if not words_run.declined:
            self.background = BackgroundWordSearch(words_run, self.end)

    def start(self, counting_proof: Callable[[Callable[[], bool], bool], str]) -> tuple | None:
        """The proofs, beside the word search, until it settles the hand: (status, grid,
        decisions, proof) or None. The crossing argument only where the word search declined the
        hand: beside it, it settled none of 7,600 stress hands first (nine seeded runs of
        bench_settle, 2026-12-06) and took a core from it (70 hard hands: 13.1 -> 11.3 s in all;
        EEEOOOOPPPPSSSVVVVVVV 876 -> 650 ms, benchmarks/results/2026-12-06-solve-crossings.md)."""
        proof = counting_proof(lambda: self.settled_meanwhile() is not None, self.background is None)
        return ("no-grid", None, 0, proof) if proof else self.settled_meanwhile()

    def settled_meanwhile(self) -> tuple | None:
        return None if self.background is None else self.background.outcome

    def finish(self) -> tuple | None:
        """Wait for the word search until it settles the hand (its outcome) or the stage's time
        is spent (None); the word search is stopped either way."""
        if self.background is None:  # a vowel-rich hand the word search declined: the move model's ground
            return None
        try:
            self.background.workers = word_search_workers()  # this thread only waits from now on
            self.background.wait(self.end)
        finally:
            self.stop()
        return self.background.outcome

    def stop(self) -> None:
        """Stop the word search (again: harmless)."""
        if self.background is not None:
            self.background.stop()


class BackgroundWordSearch:
    """The word search resumed in a thread of its own, in slices of BACKGROUND_SLICE decisions
    until `end`, a stop, or an outcome (`word_search_outcome`'s, set once); each slice runs
    `workers` root searches at once (the caller may raise it: read between slices)."""

    def __init__(self, words_run, end: float):
        self.workers = 1
        self.outcome: tuple | None = None
        self.error: BaseException | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(words_run, end), name="word-search", daemon=True)
        self._thread.start()

    def _run(self, words_run, end: float) -> None:
        try:
            while not self._stopping.is_set() and search_clock() < end:
                outcome = word_search_outcome(words_run, end, BACKGROUND_SLICE, self.workers)
                if outcome is not None:
                    self.outcome = outcome
                    return
        except BaseException as error:  # handed to the caller's thread by `stop`
            self.error = error

    def wait(self, until: float) -> None:
        """Wait for an outcome, or until `until` (`search_clock` time)."""
        self._thread.join(max(until - search_clock(), 0.0))

    def stop(self) -> None:
        """Stop the search (within a slice) and wait for it; re-raise what it raised."""
        self._stopping.set()
        self._thread.join()
        error, self.error = self.error, None
        if error is not None:
            raise error


def word_search_outcome(words_run, until: float, node_budget: int | None, workers: int = 1) -> tuple | None:
    """The word search resumed until `until` (`workers` root searches at once): (status, grid,
    decisions, proof), or None when it has not settled the hand."""
    status, grid, decisions = run_word_search(words_run, until, 1.0, node_budget, workers)
    if status == "timeout":
        return None
    return status, grid, decisions, WORD_SEARCH if status == "no-grid" else ""


def word_search_run(tiles: TileCounts, lexicon: Lexicon, min_length: int):
    from solver.search.wordsearch import WordSearch

    return WordSearch(tiles, lexicon, min_length)


def nodes_left(max_nodes: int | None, nodes: int) -> int | None:
    """What a node-capped search has left for the word search (None: uncapped)."""
    return None if max_nodes is None else max(max_nodes - nodes, 1)


def run_word_search(
    run, deadline: float, share: float = 1.0, node_budget: int | None = None, workers: int = 1
) -> tuple:
    """`solver.search.wordsearch`'s complete search (`run`, resumed) for `share` of the time
    left, and in a node-capped search (a bot's) for the nodes it has left, so that it stays a
    pure function of its input: a grid, a proof that there is none, or 'timeout'. The grid is the
    kernel's, not checked again here: the kernel lays only words of the list, crossing ones, and
    every tile (tests/search/test_wordsearch.py re-checks each grid with the validator)."""
    now = search_clock()
    budget = None if node_budget is None else run.decisions + node_budget  # the run may resume
    return run.run(now + max(deadline - now, 0.0) * share, budget, workers)
