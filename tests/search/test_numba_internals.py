"""solver.search.numba_internals: each numba internal the project relies on, checked against the
installed numba, a test per item of the module's list. A numba release that changes one fails here
first, with the item's name, rather than in a cold start or a library build."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from solver.search import native, numba_internals
from solver.search.library import ARRAY_FIELDS

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
pytestmark = pytest.mark.skipif(JIT_DISABLED, reason="numba's compiler itself")

# A module of one cached kernel, compiled in one process and loaded in the next.
KERNEL_MODULE = """
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x
"""
COMPILE_TWICE = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import probe
from solver.search import numba_internals
events = []
listener = numba_internals.listen_to_compiles(lambda ev: events.append("start"), lambda ev: events.append("end"))
kernel = numba_internals.dispatcher(probe.twice.py_func, {"cache": True}, Path(sys.argv[2]))
assert kernel(21) == 42
numba_internals.stop_listening(listener)
print(len(events), len(numba_internals.cache_index_glob(Path(sys.argv[2]), probe.__file__, "twice")))
"""


def test_cache_dir_at_dispatcher_creation_file_names_and_compile_events(tmp_path):
    """`dispatcher` caches where it is told (numba.config.CACHE_DIR read as it is made), the index
    file is where `cache_index_glob` looks, a compile raises "numba:compile" events and a load
    from the cache none."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "probe.py").write_text(textwrap.dedent(KERNEL_MODULE))
    cache = tmp_path / "cache"

    def run() -> list[int]:
        command = [sys.executable, "-c", COMPILE_TWICE, str(source), str(cache)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        return [int(word) for word in result.stdout.split()]

    compiled_events, index_files = run()
    assert compiled_events >= 2 and index_files == 1  # a compile: start and end, the index written
    assert run() == [0, 1]  # loaded from the cache: no compile event


def test_the_calling_convention_and_array_fields_are_what_the_library_speaks():
    assert numba_internals.array_fields() == ARRAY_FIELDS
    for result, arguments in native.ENTRIES.values():
        signature = native.numba_signature(result, arguments)
        returns, words = numba_internals.lowered_arguments(signature)
        assert returns == "i32"
        assert words[:2] == ["word", "word"] and set(words[2:]) <= {"word", "double"}
        assert len(words) - 2 == len(native._flat_kinds(arguments))


def test_ahead_of_time_compiler_toolchain_and_runtime_are_there():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from numba.pycc.compiler import ExportEntry, ModuleCompiler

    assert callable(ModuleCompiler.write_native_object) and ExportEntry is not None
    toolchain = numba_internals.toolchain()
    assert callable(toolchain.compile_objects) and callable(toolchain.link_shared)
    runtime, include = numba_internals.runtime_source()
    assert runtime.is_file() and (include / "core" / "runtime" / "nrt.h").is_file()
    assert numba_internals.compiler_works() in ("", "no working C compiler")


def test_compiled_entry_is_the_overload_compiled_for_exactly_those_types(tmp_path):
    """`compiled_entry`: a dispatcher's `typeof_pyval`, `overloads` keyed by argument types and an
    overload's `entry_point`, which answers as the dispatcher does; None before a compile, for other
    types and for anything but a dispatcher."""
    import numpy as np

    def scaled_total(values, scale):
        return values.sum() * scale

    kernel = numba_internals.dispatcher(scaled_total, {"cache": False}, tmp_path)
    values = np.arange(4, dtype=np.int64)
    assert numba_internals.compiled_entry(kernel, (values, 2)) is None  # nothing compiled yet
    assert kernel(values, 2) == 12
    entry = numba_internals.compiled_entry(kernel, (values, 3))
    assert entry is not None and entry is not kernel and entry(values, 3) == 18
    assert numba_internals.compiled_entry(kernel, (values.astype(np.float64), 2)) is None
    assert numba_internals.compiled_entry(scaled_total, (values, 2)) is None
