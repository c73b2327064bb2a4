"""tests/precompile.py: its two halves, compiled into a numba cache without the entry kernels,
are every kernel `warm_kernels` needs (else a run under pytest-xdist compiles the rest once per
worker again). Python calls only the entry kernels (`native.ENTRIES`); their callees compile
with them, so a cache without the entries is, for this check, an empty one, and costs a
tenth of its compile (139 s of a slow tier beside the other tests, 2026-12-05)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import cache_without
from precompile import run_parts

from solver.search.native import ENTRIES

# In a fresh process on the cache the halves filled: the watch must see a compile of a new
# function (it works), then none in warm_kernels.
AFTERWARDS = """
from numba import njit
from solver.cli.warmup import CompileWatch
from solver.lexicon.loader import get_lexicon
from solver.search.solving import warm_kernels

with CompileWatch() as control:
    njit(lambda x: x + 1)(1)
lexicon = get_lexicon("en")
with CompileWatch() as watch:
    warm_kernels(lexicon, include_extend=True)
print(control.compiled, watch.compiled)
"""


# Slow: the entries' compiles in two processes. It checks the test set-up, not the product
# (every -n run of the quick tier uses the halves; this says they are complete).
@pytest.mark.slow
def test_the_two_halves_leave_nothing_for_warm_kernels_to_compile(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache_without(tmp_path, *ENTRIES)))
    assert run_parts(warm_only=True) == []
    result = subprocess.run([sys.executable, "-c", AFTERWARDS], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False"]
