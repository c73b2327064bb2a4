"""Shared fixtures: the shipped lexicons and seeded random generators.

BANANAS_CACHE (the lexicon cache) is pointed at a session temporary folder only when the
environment does not set it already (CI does, to reuse the cache between runs). numba's cache
stays where the commands keep it: NUMBA_CACHE_DIR, else the user's (`numba/` below the
BANANAS_CACHE or ~/.cache/bananas the session started with, `solver.search.native`), not below
the session's folder. An install's build filled it (the library's self-check runs the kernels on
the JIT), so a first quick tier after `pip install -e` loads the kernels instead of compiling
them again for ~70 s of CPU; numba checks each entry against its source, and the tests of a cold
cache give theirs (tests/cli/test_startup.py, tests/project/test_precompile.py).

The compiled library (solver.search.library) is off for the session (BANANAS_FAST_START=0): the
CLI commands run in-process on numba's JIT, like the Python API on a warm cache, and no test
starts a build; tests/search/test_library.py turns it on where it is the subject. What an
install built into the package (solver.search.prebuilt: the library and the en arrays, in the
checkout after `pip install -e .`) is ignored too (BANANAS_PREBUILT=0), so the cold paths stay
cold; test_library.py and test_packaging.py turn it on. Helpers that are not fixtures live in
tests/helpers.py (tests/README.md).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("BANANAS_FAST_START", "0")
os.environ.setdefault("BANANAS_PREBUILT", "0")

if "BANANAS_DATA" not in os.environ:
    # `bananas serve` started by a test saves its rooms here (solver.web.persistence), not in the
    # user's data folder.
    _session_data = tempfile.mkdtemp(prefix="bananas-test-data-")
    os.environ["BANANAS_DATA"] = _session_data
    atexit.register(shutil.rmtree, _session_data, ignore_errors=True)

if "NUMBA_CACHE_DIR" not in os.environ:
    from solver.lexicon.files import cache_root

    os.environ["NUMBA_CACHE_DIR"] = str(cache_root() / "numba")

if "BANANAS_CACHE" not in os.environ:
    # Set at import time, before any test module loads a lexicon; removed at exit.
    _session_cache = tempfile.mkdtemp(prefix="bananas-test-cache-")
    os.environ["BANANAS_CACHE"] = _session_cache
    atexit.register(shutil.rmtree, _session_cache, ignore_errors=True)


@pytest.fixture(scope="session")
def en():
    from solver.lexicon.loader import get_lexicon

    return get_lexicon("en")


@pytest.fixture(scope="session")
def fr():
    from solver.lexicon.loader import get_lexicon

    return get_lexicon("fr")


@pytest.fixture
def make_rng():
    """make_rng(seed) -> a seeded numpy Generator (tests stay reproducible)."""

    def make(seed: int = 0) -> np.random.Generator:
        return np.random.default_rng(seed)

    return make


@pytest.fixture
def grid_file(tmp_path: Path):
    """Write a grid (text or raw bytes) to a file and return its path."""

    def write(text: str | bytes, name: str = "grid.txt") -> str:
        path = tmp_path / name
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return str(path)

    return write


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(items):
    """A browser test is slow too: the quick tier (-m "not slow") never starts a browser,
    whichever file it is in; the full suite and -m browser run them."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


def pytest_sessionstart(session):
    """Under pytest-xdist (-n 2 or more), compile the kernels into numba's cache before the
    workers start, half in each of two processes (tests/precompile.py says why): a cold run
    then compiles each kernel once instead of once per worker, so a third worker on two cores
    costs no third compile. Nothing to do in one process, in a worker, or with the JIT off."""
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2:
        return
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return
    from precompile import PARTS, run_parts

    # Said before the wait (issue 65: no silent minute): on a cold cache this is a minute or more,
    # and the workers' start and collection (xdist's "bringing up nodes") follow it.
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter is not None else print
    started = time.perf_counter()
    say(f"tests/precompile.py: the kernels into numba's cache ({' and '.join(PARTS)} side by side)...")
    for part in run_parts():  # the workers compile what is missing, and the tests report it
        print(f"tests/precompile.py {part} failed; the workers compile it themselves", file=sys.stderr)
    say(f"tests/precompile.py: done in {time.perf_counter() - started:.0f} s; the workers start and collect the tests")
