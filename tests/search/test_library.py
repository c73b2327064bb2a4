"""solver.search.library: one compiled library of every entry kernel. It answers exactly as
numba's JIT does (and proves it before it is installed), is found only when built from these
sources with this numba and numpy and the calling convention the callers speak, comes from the
install before the cache, and a build that cannot happen or dies leaves the JIT serving."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.search import library, library_build, native
from solver.search.solving import solve

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def run_python(script: str, env: dict) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


def fast_env(cache: Path, **more: str) -> dict:
    return dict(os.environ, BANANAS_CACHE=str(cache), BANANAS_FAST_START="1", BANANAS_PREBUILT="0", **more)


# -- what the library computes -------------------------------------------------------------------

HANDS_SCRIPT = """
import json, sys
import numpy as np
from solver.core.grid import Grid
from solver.core.tiles import ENGLISH, draw
from solver.search import native
native.prefer_library({prefer})
from solver.search.solving import extend, solve
out = []
rng = np.random.default_rng(7)
for size in [11] * 40 + [15] * 40 + [21] * 40 + [40] * 3 + [21] * 2:
    result = solve(draw(ENGLISH, size, rng), "en", time_limit=60, max_nodes=3000)
    out.append([result.status, result.grid.rows if result.grid else None, result.nodes])
for hand in ["CDEENNOOQQRSSTV", "QQQ"]:  # proofs
    result = solve(hand, "en", time_limit=60, max_nodes=3000)
    out.append([result.status, result.proof, result.nodes])
result = extend(Grid.from_rows(["CAT", "..."]), "SMAP", "en", time_limit=60, max_nodes=3000)
out.append([result.status, result.grid.rows if result.grid else None, result.nodes])
from solver.search.kernels import movesearch
print(json.dumps({{"results": out, "numba": "numba" in sys.modules, "search": type(movesearch.search).__name__}}))
"""


@pytest.mark.slow
def test_the_library_solves_exactly_like_the_jit_without_numba(library_cache):
    through = {}
    for prefer in (True, False):
        result = run_python(HANDS_SCRIPT.format(prefer=prefer), fast_env(library_cache))
        through[prefer] = json.loads(result.stdout)
    assert through[True]["numba"] is False and through[True]["search"] == "function"
    assert through[False]["numba"] is True and through[False]["search"] == "CPUDispatcher"
    assert through[True]["results"] == through[False]["results"]
    statuses = [status for status, _, _ in through[True]["results"]]
    assert statuses.count("solved") > 100 and statuses.count("no-grid") >= 2


@pytest.mark.slow
def test_bananas_solve_on_the_library_imports_no_numba(library_cache, en):
    script = (
        "import sys\nfrom solver.cli import main\ntry:\n    main(['solve', 'AEEIRSTQUNLDOGCABHMPR'])\n"
        "except SystemExit as exit:\n    print(exit.code, 'numba' in sys.modules)"
    )
    result = run_python(script, fast_env(library_cache))
    *grid, summary, outcome = result.stdout.splitlines()
    assert outcome == "0 False" and summary.startswith("# solved: 21 tiles")
    assert validate(Grid.parse("\n".join(grid)), en, TileCounts.from_letters("AEEIRSTQUNLDOGCABHMPR")).ok


@pytest.mark.slow
def test_the_api_s_first_call_on_a_cold_numba_cache_is_answered_at_once(library_cache, tmp_path, en):
    """Issue 37: `solve("AACMPT", time_limit=1.0)` on a fresh install returned 'timeout' (the
    JIT's compile counted against it). With the library and numba's cache empty, it is solved
    within its limit, and numba is never imported."""
    script = (
        "import sys, time\nfrom solver import solve\nstarted = time.perf_counter()\n"
        "result = solve('AACMPT', time_limit=1.0)\n"
        "print(result.status, round(time.perf_counter() - started, 2), 'numba' in sys.modules)"
    )
    env = fast_env(library_cache, NUMBA_CACHE_DIR=str(tmp_path / "empty-numba-cache"))
    status, seconds, numba_loaded = run_python(script, env).stdout.split()
    assert status == "solved" and numba_loaded == "False"
    assert float(seconds) < 30  # the word list's load, no compile (a compile alone is ~25 s)


@pytest.mark.slow  # the JIT compiles every entry kernel (~20 s); every install runs the self-check
def test_the_self_check_refuses_a_library_that_answers_otherwise(built_library, monkeypatch, en):
    entries = native.library_entries

    def without_lay_grid(path):
        found = entries(path)
        found["lay_grid"] = lambda *arguments: None  # extend's base grid never laid
        return found

    monkeypatch.setattr(native, "library_entries", without_lay_grid)
    with pytest.raises(RuntimeError, match="differ from the JIT's"):
        library_build.self_check(built_library / library.LIBRARY)


@pytest.mark.slow  # the JIT compiles every entry kernel (~20 s); every install runs the self-check
def test_the_self_check_wants_every_entry_called(built_library):
    before = native.entry_module("search").search
    with pytest.raises(RuntimeError, match="never called hostable_letters, lay_grid, search$"):
        library_build.self_check(built_library / library.LIBRARY, hands=())  # only the word search runs
    library_build.self_check(built_library / library.LIBRARY)
    assert native.entry_module("search").search is before  # the bindings put back


# -- calling it ----------------------------------------------------------------------------------


def test_a_packed_call_answers_as_the_flat_one_and_checks_a_bundle_once(built_library, en):
    """Each entry's packed twin takes the arguments as one buffer of words; the entry checks and
    flattens a bundle once, and a bundle with a field of another type is refused, never served
    from that memo."""
    import ctypes

    import numpy as np

    from solver.search.kernels import layout
    from solver.search.solving import _graph

    entries = native.library_entries(built_library / library.LIBRARY)
    graph = _graph(en)
    hand = TileCounts.from_letters("QQQAEST").counts.copy()
    packed = entries["hostable_letters"](hand, 2, 5_000_000, graph)
    flat_function = ctypes.CDLL(str(built_library / library.LIBRARY)).hostable_letters
    flat_function.restype = ctypes.c_int32
    flat_function.argtypes = [
        ctypes.c_void_p,
        ctypes.c_void_p,
        *native._flat_kinds(native.ENTRIES["hostable_letters"][1]),
    ]
    words: list[int] = []
    native._flatten((hand, 2, 5_000_000, graph), native.ENTRIES["hostable_letters"][1], words)
    result, error = ctypes.c_int64(0), ctypes.c_void_p()
    assert flat_function(ctypes.byref(result), ctypes.byref(error), *words) == 0
    assert packed == result.value > 0
    entry = entries["hostable_letters"]
    assert len(entry._bundles) == 2  # the graph, by identity and by fields
    entry(hand, 2, 5_000_000, layout.graph_of(en.forward, en.reverse))  # a new bundle of the same arrays
    assert len(entry._bundles) == 3
    wrong = graph._replace(child=graph.child.astype(np.int64))
    with pytest.raises(native.ArgumentMismatch, match="Graph field 0"):
        entry(hand, 2, 5_000_000, wrong)
    with pytest.raises(native.ArgumentMismatch, match="argument 1 is bool"):
        entry(hand, True, 5_000_000, graph)


def test_a_bound_call_on_the_library_is_its_packed_call_checked_once(built_library, en):
    """`native.bound_call` on a library entry packs and checks the arguments once: the same search
    as the entry's own call; arguments it was not compiled for are left to the entry's checked
    call (which moves the kernel to the JIT)."""
    from solver.search.kernels import layout
    from solver.search.solving import _borrowed_workspace, _Run

    checked = native._checked("search", native.library_entries(built_library / library.LIBRARY)["search"])
    tiles = TileCounts.from_letters("AEEIRSTQUNLDOG")
    found = []
    with _borrowed_workspace(21) as space:
        for call in ("checked", "bound"):
            run = _Run(space, tiles, en, 2, 0, 700, None)
            arguments = (space, run.graph, run.ordering)
            run.state[layout.ST_NODE_LIMIT] = 3_000
            if call == "checked":
                checked(*arguments)
            else:
                bound = native.bound_call(checked, arguments)
                assert bound.func is not checked
                bound()
            found.append((run.state[layout.ST_STATUS], run.nodes, run.grid()))
        wrong = space._replace(cross=space.cross.astype("int64"))
        assert native.bound_call(checked, (wrong, run.graph, run.ordering)).func is checked
    assert found[0] == found[1] and found[0][0] == layout.SOLVED


# -- which library is found ----------------------------------------------------------------------


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """A private cache and an empty package folder; BANANAS_PREBUILT on."""
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BANANAS_PREBUILT", "1")
    monkeypatch.setattr(library, "PREBUILT_ROOT", tmp_path / "compiled")
    return tmp_path


def install(built: Path, folder: Path) -> None:
    shutil.copytree(built, folder)


def test_the_library_built_at_install_comes_first(built_library, folders, monkeypatch):
    assert library.find() is None and library.state() == "missing"
    install(built_library, library.cache_dir())
    assert library.find()[0] == library.cache_dir() / library.LIBRARY and library.state() == "built"
    install(built_library, library.prebuilt_dir())
    assert library.find()[0] == library.prebuilt_dir() / library.LIBRARY
    assert library.build_lock().parent == library.cache_dir().parent  # builds stay in the cache
    monkeypatch.setenv("BANANAS_PREBUILT", "0")
    assert library.find()[0] == library.cache_dir() / library.LIBRARY


def test_a_library_built_for_another_toolchain_or_source_is_not_used(built_library, folders, monkeypatch, tmp_path):
    install(built_library, library.cache_dir())
    first = library.key()
    versions = library.installed_version
    monkeypatch.setattr(
        library, "installed_version", lambda package: "0.0.1" if package == "numba" else versions(package)
    )
    assert library.key() != first and library.find() is None  # another numba: another key
    monkeypatch.setattr(
        library, "installed_version", lambda package: "0.0.1" if package == "numpy" else versions(package)
    )
    assert library.key() != first and library.find() is None
    monkeypatch.setattr(library, "installed_version", versions)
    assert library.key() == first and library.find() is not None
    from solver.search import kernels

    sources = kernels.sources()
    edited = tmp_path / sources[-1].name
    edited.write_bytes(sources[-1].read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(kernels, "sources", lambda: [*sources[:-1], edited])
    assert library.key() != first and library.find() is None  # a kernel changed since the build


def test_the_toolchain_s_versions_are_read_without_importing_it():
    script = (
        "import sys\nfrom solver.search import library\n"
        "print(library.installed_version('numba'), 'numba' in sys.modules)"
    )
    version, imported = run_python(script, dict(os.environ)).stdout.split()
    import numba

    assert version == numba.__version__ and imported == "False"
    assert library.installed_version("no_such_package_here") == "?"


def test_a_layout_of_another_key_or_calling_convention_is_not_used(built_library, folders):
    install(built_library, library.cache_dir())
    path = library.cache_dir() / library.LAYOUT
    layout = json.loads(path.read_text())
    path.write_text(json.dumps(layout | {"key": "k" * 24}))
    assert library.find() is None  # built for another key
    # Built by a numba that lowers the kernels another way: never called (a ctypes call would crash).
    path.write_text(json.dumps(layout | {"calling_convention": "numba-cpu/2: ..."}))
    assert library.find() is None
    path.write_text(json.dumps(layout))
    assert library.find() == (library.cache_dir() / library.LIBRARY, layout)
    assert layout["numba"] and layout["numpy"] and layout["calling_convention"] == library.CALLING_CONVENTION


@pytest.mark.skipif(JIT_DISABLED, reason="lowers signatures with numba")
def test_the_build_refuses_a_calling_convention_it_does_not_speak():
    from numba import types

    for result, arguments in native.ENTRIES.values():
        library_build.verify_calling_convention(native.numba_signature(result, arguments))  # numba as installed
    signature = native.numba_signature(*native.ENTRIES["search"])
    with pytest.raises(RuntimeError, match="calling convention"):
        library_build.verify_calling_convention(types.void(types.int32, *signature.args))  # an int32 it does not pass


# -- builds that cannot happen, die, or overlap --------------------------------------------------


def test_a_failed_build_is_noted_once_and_the_jit_serves(tmp_path, monkeypatch):
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setattr(library_build, "build_blocker", lambda: "no C compiler (test)")
    assert library.state() == "missing"
    assert library_build.build_into_cache() == "no C compiler (test)"
    assert library.state() == "failed" and library.failure_note().read_text() == "no C compiler (test)\n"
    assert native._load_library() is None
    # warm-up retries it, says why it failed, and goes on with numba's kernels
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    words = tmp_path / "mini.txt"
    words.write_text("cat\nact\n")
    result = CliRunner().invoke(main, ["warm-up", "--lexicon", str(words)])
    assert result.exit_code == 0, result.output
    if not JIT_DISABLED:
        assert "compiled kernels: not built (no C compiler (test)); the solver runs on numba's JIT" in result.stdout
    assert "numba kernels: " in result.stdout


def test_fast_start_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("BANANAS_FAST_START", "0")
    assert not library.enabled() and not native.fast_start_enabled()
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    assert library.enabled() == (not JIT_DISABLED)


def sleeper(seconds: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds})"])


def test_a_first_run_without_the_library_solves_on_the_jit_while_it_builds(tmp_path, monkeypatch, en):
    """The build (here: a process still going) is for the next run; this one does not wait."""
    from solver.cli import warmup
    from solver.search.kernels import movesearch

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    if not library.enabled():
        pytest.skip("no library under NUMBA_DISABLE_JIT")
    builder = sleeper(60)
    monkeypatch.setattr(warmup, "start_library_build", lambda: builder)
    try:
        prep = warmup.KernelPrep()
        assert prep.builder is builder
        prep.ready(en, include_extend=False)
        assert builder.poll() is None  # not waited for
        assert type(movesearch.search).__name__ == "CPUDispatcher"
        assert solve("CATMAP", en, time_limit=60).solved
    finally:
        native.prefer_library(False)  # this process's other tests run on the JIT
        builder.kill()
        builder.wait()


def test_one_build_at_a_time(tmp_path, monkeypatch, en):
    from solver.cli import warmup

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    if not library.enabled():
        pytest.skip("no library under NUMBA_DISABLE_JIT")
    lock = library.build_lock()
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import fcntl, sys, time\nf = open({str(lock)!r}, 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\n"
         "print('held', flush=True)\ntime.sleep(60)"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        assert library.build_in_progress()
        monkeypatch.setattr(warmup, "start_library_build", lambda: pytest.fail("a second build was started"))
        prep = warmup.KernelPrep()
        assert prep.builder is None
        prep.ready(en, include_extend=False)  # the other build is not waited for: the JIT serves
    finally:
        native.prefer_library(False)
        holder.kill()
        holder.wait()
    assert not library.build_in_progress()
    library.wait_for_build()  # returns at once
