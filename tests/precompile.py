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


def compile_part(part: str) -> None:
    from solver.lexicon.loader import get_lexicon
    from solver.search import solving

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


def run_parts(timeout: float = 900.0) -> list[str]:
    """Compile both halves side by side; the parts that failed (their own tracebacks are on
    stderr) or ran past `timeout` seconds (stopped)."""
    import subprocess

    runs = [(part, subprocess.Popen([sys.executable, __file__, part])) for part in PARTS]
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
    compile_part(sys.argv[1])
