"""Issue 37, "fail quietly, never fail": a cache that cannot be written (a read-only home, a
BANANAS_CACHE that names a file, a full disk) costs a warning line, never a solve; and numba's
cache never lands inside the package (numba's own fallback is a __pycache__ beside the source,
which an uninstall leaves behind to shadow the next install)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import without_build_notices

import solver
from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import load_lexicon
from solver.search import native

PACKAGE = Path(solver.__file__).parent
CONSOLE_SCRIPT = "import sys; from solver.cli.plain import run; sys.argv[0] = 'bananas'; run()"


def numba_files_in_package() -> set[Path]:
    return set(PACKAGE.rglob("*.nbi")) | set(PACKAGE.rglob("*.nbc"))


# A process compiling on a cold cache (~17 s); quick: test_kernels_bind_uncached_when_numba_cannot_write_its_cache.
@pytest.mark.slow
def test_a_cache_that_cannot_be_written_costs_one_warning_not_the_solve(tmp_path):
    words = tmp_path / "mini.txt"
    words.write_text("cat\ncats\nact\ndog\ndogs\ngod\ntog\n")
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache folder should be")
    before = numba_files_in_package()
    # The fast path on, as a user has it (the suite turns it off): the library built at install.
    env = dict(os.environ, BANANAS_CACHE=str(not_a_folder), BANANAS_FAST_START="1", BANANAS_PREBUILT="1")
    env.pop("NUMBA_CACHE_DIR", None)
    run = subprocess.run(
        [sys.executable, "-c", CONSOLE_SCRIPT, "solve", "--lexicon", str(words), "CATSDOG"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if not line.startswith("#")]
    grid = Grid.from_rows(rows)
    assert validate(grid, load_lexicon(str(words)), TileCounts.from_letters("CATSDOG")).ok
    warnings = without_build_notices(run.stderr).splitlines()  # the kernels compile uncached
    assert len(warnings) == 1 and warnings[0].startswith("bananas: warning: cannot write the cache"), run.stderr
    assert numba_files_in_package() <= before  # nothing written into the package instead


def options_of_bound_kernels(cache_dir: Path, monkeypatch) -> list[dict]:
    """The options `bind_jit` gives numba.njit for each kernel when numba's cache is `cache_dir`
    (numba itself stubbed: nothing compiles; the kernels are unbound again afterwards)."""
    import numba

    made: list[dict] = []

    def recording_njit(**options):
        made.append(options)
        return lambda py_func: py_func

    monkeypatch.setattr(native, "numba_cache_dir", lambda: cache_dir)
    monkeypatch.setattr(numba, "njit", recording_njit)
    names = tuple(name for kernels in native._declared.values() for name in kernels)
    try:
        native.bind_jit(replace=names)
    finally:
        monkeypatch.undo()
        native.bind_jit(replace=names)  # the real dispatchers again (from numba's cache)
    assert made
    return made


def test_kernels_bind_uncached_when_numba_cannot_write_its_cache(tmp_path, monkeypatch):
    """Else numba would cache in the package's __pycache__."""
    blocked = tmp_path / "cache"
    blocked.write_text("")
    assert all(options["cache"] is False for options in options_of_bound_kernels(blocked / "numba", monkeypatch))


def test_kernels_keep_their_cache_when_it_can_be_written(tmp_path, monkeypatch):
    assert all(options["cache"] is True for options in options_of_bound_kernels(tmp_path / "numba", monkeypatch))
