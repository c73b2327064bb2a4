"""Fill numba's cache with the search kernels in two processes side by side, before
pytest-xdist's workers start (`pytest_sessionstart` in tests/conftest.py).

Without it, each worker's first test that solves compiles every kernel itself: one compile of
the same ~35 s per worker, side by side in the first minute of a run on a cold cache (the quick
tier's two slowest tests were those compiles). The kernels split into two halves of about the
same cost and little in common (measured cold, 2026-12-04: the solve's and `extend`'s ~17-20 s,
the word search's ~15 s), so each half compiles once, in a process of its own, and the workers
load both from numba's cache. The workers stay cold in-process: their first call goes through
`warm_kernels` as on any warm cache (tests/project/test_precompile.py checks that it then
compiles nothing).

    python tests/precompile.py search|word-search
"""

from __future__ import annotations

import sys

PARTS = ("search", "word-search")


def compile_part(part: str, warm_only: bool = False) -> None:
    from solver.lexicon.loader import get_lexicon
    from solver.search import solving

    if part == "word-search" and not warm_only:
        get_lexicon("fr")  # meanwhile the other half builds en's arrays (once, not twice)
    lexicon = get_lexicon("en")
    if part == "search":
        # Marked warm: the call `solve` and `extend` make to warm_kernels would compile the
        # word search too, which is the other process's half.
        solving._WARM.update({(id(lexicon), "solve"), (id(lexicon), "extend")})
        solving._warm_search(lexicon)
        solving._warm_extend(lexicon)
    elif part == "word-search":
        solving._warm_word_search(lexicon)
    else:
        raise SystemExit(f"unknown part {part!r} (choose from {', '.join(PARTS)})")
    if not warm_only:
        compile_beyond_warm_up(part, lexicon)


def compile_beyond_warm_up(part: str, lexicon) -> None:
    """The kernels no warm-up reaches that the quick tier calls in several workers: the
    no-grid proof's walk (any hand the search gives up on), and the tests' own oracles and
    twins (tests/search/test_exact.py, test_kernels.py)."""
    import numpy as np

    from solver.core.tiles import TileCounts
    from solver.search import solving
    from solver.search.exact import exact_grid
    from solver.search.kernels import crosschecks, layout, movegen

    if part == "search":
        exact_grid(TileCounts.from_letters("CAT"), lexicon, 2, solving.search_clock() + 600.0)
        graph = layout.graph_of(lexicon.forward, lexicon.reverse)
        crosschecks.scan_runs(np.ones((1, 2), dtype=np.int64), graph, 2, np.zeros((6, 5), dtype=np.int64))
    else:
        solving._prove_no_grid(TileCounts.from_letters("CATS"), lexicon, 2)
        movegen.hardest_letter(TileCounts.from_letters("CATS").counts, solving.default_ordering().letter)


def run_parts(timeout: float = 900.0, warm_only: bool = False) -> list[str]:
    """Compile both halves side by side; the parts that failed (their own tracebacks are on
    stderr) or ran past `timeout` seconds (stopped). `warm_only`: only what `warm_kernels`
    compiles (the check that the halves hold all of it)."""
    import subprocess

    flags = ["--warm-only"] if warm_only else []
    runs = [(part, subprocess.Popen([sys.executable, __file__, part, *flags])) for part in PARTS]
    failed = []
    for part, run in runs:
        try:
            if run.wait(timeout=timeout) != 0:
                failed.append(part)
        except subprocess.TimeoutExpired:
            run.kill()
            run.wait()
            failed.append(part)
    return failed


if __name__ == "__main__":
    compile_part(sys.argv[1], warm_only="--warm-only" in sys.argv[2:])
