"""solver.search.native: kernels bound on first use, the compiled fast-start extension, and the
argument check that keeps the extension from ever running on arrays it was not compiled for."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.core.grid import Grid, validate
from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.search import native
from solver.search.kernels import movesearch, spelling
from solver.search.proofs import word_count_vectors
from solver.search.solving import _borrowed_workspace, _Run, extend, solve
from solver.search.wordsearch import WordSearch

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def run_python(script: str, **env: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=dict(os.environ, **env), timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result


# -- binding ---------------------------------------------------------------------------------


def test_importing_the_kernels_imports_no_numba():
    script = (
        "import sys\nfrom solver.search.kernels import movesearch\nimport solver.search.solving\n"
        "print('numba' in sys.modules, type(movesearch.search).__name__)"
    )
    assert run_python(script).stdout.split() == ["False", "LazyKernel"]


@pytest.mark.skipif(JIT_DISABLED, reason="binds numba dispatchers")
def test_the_first_call_binds_every_kernel_to_numba():
    script = (
        "import numpy as np\nfrom solver.search.kernels import movesearch\nfrom solver.search import native\n"
        "movesearch.mix_hash(5, np.uint8(3))\n"
        "modules = native.kernel_modules()\n"
        "kinds = {type(getattr(m, name)).__name__ for m in modules for name in native._declared.get(m.__name__, {})}\n"
        "print(sorted(kinds))\n"
        "print(' '.join(sorted(m.__name__.rsplit('.', 1)[1] for m in modules if m.__name__ in native._declared)))"
    )
    bound, modules = run_python(script).stdout.strip().splitlines()
    assert bound == "['CPUDispatcher']"
    assert modules == "crosschecks exact movegen movesearch resumable spelling wordsearch"  # all but layout


@pytest.mark.skipif(JIT_DISABLED, reason="binds numba dispatchers")
def test_a_kernel_imported_into_another_module_takes_its_own_module_s_binding():
    script = (
        "import numpy as np\nfrom solver.search.kernels import crosschecks, movesearch\n"
        "from solver.search import native\n"
        "def same():\n    return movesearch.cross_mask is crosschecks.cross_mask\n"
        "print(same())\n"
        "movesearch.mix_hash(5, np.uint8(3))\n"
        "print(same(), type(movesearch.cross_mask).__name__)\n"
        "native.bind_python()\n"
        "print(same(), type(movesearch.cross_mask).__name__)\n"
        "native.unbind()\n"
        "print(same(), type(movesearch.cross_mask).__name__)"
    )
    expected = ["True", "True", "CPUDispatcher", "True", "function", "True", "LazyKernel"]
    assert run_python(script).stdout.split() == expected


def test_numba_s_cache_folder_follows_every_kernel_source(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    first = native.numba_cache_dir()
    assert first.parent == tmp_path / "numba"
    sources = native.kernel_sources()
    assert {path.stem for path in sources} >= {"layout", "movegen", "movesearch", "wordsearch"}
    edited = tmp_path / "layout.py"  # a constant changed in a module no kernel of it is defined in
    edited.write_bytes(next(path for path in sources if path.stem == "layout").read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(
        native, "kernel_sources", lambda: [edited if path.stem == "layout" else path for path in sources]
    )
    assert native.numba_cache_dir() != first and native.numba_cache_dir().parent == first.parent


def entry_arguments(en) -> dict[str, tuple]:
    """The arguments solving.py and proofs.py pass to each entry kernel, from a real run."""
    with _borrowed_workspace(21) as space:
        run = _Run(space, TileCounts.from_letters("CATMAP"), en, 2, 0, 100, None)
        hand = space.hand.copy()
    searching = WordSearch(TileCounts.from_letters("CATMAP"), en, 2)
    return {
        "search": (space, run.graph, run.ordering),
        "hostable_letters": (hand, 2, 5_000_000, run.graph),
        "word_letter_counts": (hand, 2, 10_000, run.graph, np.zeros((64, 26), dtype=np.int8)),
        "lay_grid": (Grid.from_rows(["AT"]).to_array(), 3, 4, space, run.graph),
        "word_search": (searching.search, searching.words, searching.hard, 100),
    }


@pytest.mark.skipif(JIT_DISABLED, reason="reads the signatures numba compiled")
def test_entries_are_the_signatures_the_jit_compiles(en):
    solve("CATMAP", en, time_limit=60)
    extend(Grid.from_rows(["AT"]), "C", en, time_limit=60)
    assert word_count_vectors(TileCounts.from_letters("CATMAP"), en, 2) is not None
    assert WordSearch(TileCounts.from_letters("CATMAP"), en, 2).run(time.perf_counter() + 60)[0] == "solved"
    for name, (result, arguments) in native.ENTRIES.items():
        compiled = getattr(native.entry_module(name), name).signatures
        assert native._numba_signature(result, arguments).args in compiled, name


def test_argument_check_accepts_what_solving_passes(en):
    for name, arguments in entry_arguments(en).items():
        assert native.argument_problem(name, arguments) == "", name


def test_argument_check_names_the_first_difference(en):
    space, graph, order = entry_arguments(en)["search"]

    def problem(*arguments) -> str:
        return native.argument_problem("search", arguments)

    wrong_dtype = space._replace(cross=space.cross.astype(np.int64))
    assert problem(wrong_dtype, graph, order).startswith("argument 0: Workspace field 1 is array(i8, 1")
    strided = space._replace(grid=np.zeros(2 * len(space.grid), dtype=np.uint8)[::2])
    assert "Workspace field 0 is array(u1, 1, contiguous=False" in problem(strided, graph, order)
    state = space.state.copy()
    state.flags.writeable = False  # the kernel writes its state: compiled code must not get this
    assert problem(space._replace(state=state), graph, order).startswith("argument 0: Workspace field 3 ")
    writable_lexicon = graph._replace(child=graph.child.copy())  # read-only parameters take writable arrays
    assert problem(space, writable_lexicon, order) == ""
    assert problem(space, tuple(graph), order) == "argument 1 is tuple, compiled for Graph"
    assert problem(space, graph, order._replace(noise=1)).startswith("argument 2: Ordering field 4 is int")
    assert problem(space, graph) == "2 arguments, compiled for 3"
    hand, _, budget, _ = entry_arguments(en)["hostable_letters"]
    assert native.argument_problem("hostable_letters", (hand, True, budget, graph)).startswith("argument 1 is bool")


def test_a_mismatched_call_goes_to_the_jit_instead(en, monkeypatch):
    calls = []
    checked = native._checked("hostable_letters", lambda *arguments: calls.append(arguments) or 7)
    arguments = list(entry_arguments(en)["hostable_letters"])
    assert checked(*arguments) == 7 and len(calls) == 1
    monkeypatch.setattr(spelling, "hostable_letters", spelling.hostable_letters)  # put the current binding back after
    arguments[0] = arguments[0].astype(np.int32)  # not what the "extension" was compiled for
    expected = spelling.hostable_letters.py_func(*arguments)  # the pure-Python kernel
    assert checked(*arguments) == expected and len(calls) == 1


# -- building and using the extension --------------------------------------------------------

HANDS_SCRIPT = """
import json, sys
import numpy as np
from solver.core.grid import Grid
from solver.core.tiles import ENGLISH, draw
from solver.search import native
native.prefer_extension({prefer})
from solver.search.solving import extend, solve
out = []
rng = np.random.default_rng(7)
for size in [11] * 40 + [15] * 40 + [21] * 40 + [40] * 3:
    result = solve(draw(ENGLISH, size, rng), "en", time_limit=60, max_nodes=3000)
    out.append([result.status, result.grid.rows if result.grid else None, result.nodes])
result = extend(Grid.from_rows(["CAT", "..."]), "SMAP", "en", time_limit=60, max_nodes=3000)
out.append([result.status, result.grid.rows if result.grid else None, result.nodes])
from solver.search.kernels import movesearch
print(json.dumps({{"results": out, "numba": "numba" in sys.modules, "search": type(movesearch.search).__name__}}))
"""


@pytest.fixture(scope="module")
def built_extension(tmp_path_factory):
    """The extension in a private cache: a copy of the one an editable install built into the
    checkout (solver/search/compiled/<key>/, as CI's is) when it is current, else built there
    (tens of seconds: compile and link). The environment to run with."""
    cache = tmp_path_factory.mktemp("native-cache")
    env = dict(os.environ, BANANAS_CACHE=str(cache), BANANAS_FAST_START="1", BANANAS_PREBUILT="0")
    prebuilt = native.PREBUILT_ROOT / native.extension_key()
    if native._built_in(prebuilt) is not None:
        shutil.copytree(prebuilt, cache / "kernels" / prebuilt.name)
        return env
    problem = native.build_blocker()
    if problem:
        pytest.skip(f"cannot build the extension here: {problem}")
    build = subprocess.run([sys.executable, "-m", "solver.search.native"], capture_output=True, text=True, env=env)
    assert build.returncode == 0, build.stderr
    return env


@pytest.mark.slow
@pytest.mark.skipif(JIT_DISABLED, reason="compares the extension with numba's JIT")
def test_the_extension_solves_exactly_like_the_jit_without_numba(built_extension):
    through = {}
    for prefer in (True, False):
        script = HANDS_SCRIPT.format(prefer=prefer)
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=built_extension)
        assert result.returncode == 0, result.stderr
        through[prefer] = json.loads(result.stdout)
    assert through[True]["numba"] is False and through[True]["search"] == "function"
    assert through[False]["numba"] is True and through[False]["search"] == "CPUDispatcher"
    assert through[True]["results"] == through[False]["results"]
    statuses = [status for status, _, _ in through[True]["results"]]
    assert statuses.count("solved") > 100


@pytest.mark.slow
@pytest.mark.skipif(JIT_DISABLED, reason="the CLI's fast path")
def test_bananas_solve_on_the_extension_imports_no_numba(built_extension, en):
    script = (
        "import sys\nfrom solver.cli import main\ntry:\n    main(['solve', 'AEEIRSTQUNLDOGCABHMPR'])\n"
        "except SystemExit as exit:\n    print(exit.code, 'numba' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=built_extension)
    assert result.returncode == 0, result.stderr
    *grid, summary, outcome = result.stdout.splitlines()
    assert outcome == "0 False" and summary.startswith("# solved: 21 tiles")
    assert validate(Grid.parse("\n".join(grid)), en, TileCounts.from_letters("AEEIRSTQUNLDOGCABHMPR")).ok


# -- the extension built at install (solver.search.prebuilt) -----------------------------------


@pytest.fixture
def prebuilt(tmp_path, monkeypatch):
    """An empty package folder for the extension and a private cache; BANANAS_PREBUILT on."""
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BANANAS_PREBUILT", "1")
    monkeypatch.setattr(native, "PREBUILT_ROOT", tmp_path / "compiled")
    return tmp_path / "compiled"


def fake_extension(directory):
    directory.mkdir(parents=True)
    native.extension_file(directory).write_bytes(b"")


def test_the_extension_built_at_install_comes_first(prebuilt, monkeypatch):
    assert native.extension_dir() == native.cache_extension_dir() and native.extension_state() == "missing"
    fake_extension(prebuilt / native.extension_key())
    assert native.extension_dir() == prebuilt / native.extension_key() and native.extension_state() == "built"
    assert native.build_lock().parent == native.cache_extension_dir().parent  # builds stay in the cache
    monkeypatch.setenv("BANANAS_PREBUILT", "0")
    assert native.extension_dir() == native.cache_extension_dir()


def test_a_stale_extension_built_at_install_is_ignored(prebuilt, monkeypatch, tmp_path):
    fake_extension(prebuilt / native.extension_key())
    numpy_version = native.np.__version__
    monkeypatch.setattr(native.np, "__version__", "0.0.1")  # the run time's numpy is not the build's
    assert native.extension_dir() == native.cache_extension_dir() and native.extension_state() == "missing"
    monkeypatch.setattr(native.np, "__version__", numpy_version)
    assert native.extension_dir() == prebuilt / native.extension_key()
    sources = native.kernel_sources()
    source = tmp_path / sources[-1].name
    source.write_bytes(sources[-1].read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(
        native, "kernel_sources", lambda: [*sources[:-1], source]
    )  # the kernels changed since the install
    assert native.extension_dir() == native.cache_extension_dir()


@pytest.mark.slow
@pytest.mark.skipif(JIT_DISABLED, reason="the CLI's fast path")
def test_a_first_solve_uses_the_extension_built_at_install(built_extension, tmp_path):
    """Empty cache, the extension in the package: no build starts, numba is never imported."""
    (built,) = [path for path in (Path(built_extension["BANANAS_CACHE"]) / "kernels").iterdir() if path.is_dir()]
    shutil.copytree(built, tmp_path / "compiled" / built.name)
    script = (
        "import sys\nfrom pathlib import Path\nfrom solver.search import native\n"
        f"native.PREBUILT_ROOT = Path({str(tmp_path / 'compiled')!r})\n"
        "from solver.cli import main\ntry:\n    main(['solve', 'AEEIRSTQUNLDOGCABHMPR'])\n"
        "except SystemExit as exit:\n    print(exit.code, 'numba' in sys.modules, native.extension_dir().parent.name)"
    )
    env = dict(built_extension, BANANAS_CACHE=str(tmp_path / "cache"), BANANAS_PREBUILT="1")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    *grid, summary, outcome = result.stdout.splitlines()
    assert outcome == "0 False compiled" and summary.startswith("# solved: 21 tiles")
    assert not (tmp_path / "cache" / "kernels").exists()  # no build was started


def test_a_failed_build_is_noted_once_and_the_jit_serves(tmp_path, monkeypatch):
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setattr(native, "build_blocker", lambda: "no C compiler (test)")
    assert native.extension_state() == "missing"
    assert native.build_extension() == "no C compiler (test)"
    assert native.extension_state() == "failed"
    assert native.failure_note().read_text() == "no C compiler (test)\n"
    assert native._load_extension() is None
    # warm-up retries it, says why it failed, and goes on with numba's kernels
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    words = tmp_path / "mini.txt"
    words.write_text("cat\nact\n")
    result = CliRunner().invoke(main, ["warm-up", "--lexicon", str(words)])
    assert result.exit_code == 0, result.output
    assert "fast-start extension: not built (no C compiler (test)); the solver runs on numba's JIT" in result.stdout
    assert "bare solve library: not built (no C compiler (test)); plain solves take the full path" in result.stdout
    assert "numba kernels: " in result.stdout


def test_fast_start_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("BANANAS_FAST_START", "0")
    assert not native.fast_start_enabled()
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    assert native.fast_start_enabled() == (not JIT_DISABLED)


def test_extension_key_follows_the_kernels_source(tmp_path, monkeypatch):
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    first = native.extension_dir()
    sources = native.kernel_sources()
    source = tmp_path / sources[-1].name
    source.write_bytes(sources[-1].read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(native, "kernel_sources", lambda: [*sources[:-1], source])
    assert native.extension_dir() != first and native.extension_dir().parent == first.parent


def test_a_build_process_that_dies_leaves_a_note_and_the_jit_serves(tmp_path, monkeypatch, en):
    from solver.cli import warmup

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    dying = [sys.executable, "-c", "raise SystemExit(3)"]
    monkeypatch.setattr(warmup, "start_extension_build", lambda: subprocess.Popen(dying))
    try:
        prep = warmup.KernelPrep()
        assert prep.builder is not None
        prep.ready(en, include_extend=False)
    finally:
        native.prefer_extension(False)  # this process's other tests run on the JIT
    assert native.extension_state() == "failed"
    assert native.failure_note().read_text() == "the build process exited with code 3\n"
    assert solve("CATMAP", en, time_limit=60).solved


# -- a first run: uncompiled while the build goes on ---------------------------------------------


@pytest.fixture
def fresh_binding():
    """Kernels unbound before and after (the next call binds numba's JIT again), extension off."""
    native.unbind()
    yield
    native.prefer_extension(False)
    native.unbind()


def test_the_python_kernels_find_the_same_grids_as_the_compiled_ones(en, fresh_binding):
    rng = np.random.default_rng(11)
    hands = [draw(ENGLISH, size, rng) for size in (11, 15, 21) for _ in range(3)]
    compiled = [solve(hand, en, time_limit=60, max_nodes=300) for hand in hands]
    native.bind_python()
    declared = native._declared[movesearch.__name__]["search"]
    assert type(movesearch.search).__name__ == "function" and movesearch.search is declared.py_func
    interpreted = [solve(hand, en, time_limit=60, max_nodes=300) for hand in hands]
    for hand, fast, slow in zip(hands, compiled, interpreted, strict=True):
        assert (slow.status, slow.nodes) == (fast.status, fast.nodes)
        assert (slow.grid.rows if slow.grid else None) == (fast.grid.rows if fast.grid else None)
        assert slow.grid is None or validate(slow.grid, en, hand).ok


def sleeper(seconds: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds})"])


def test_a_first_solve_runs_uncompiled_while_the_build_goes_on(tmp_path, monkeypatch, en, fresh_binding):
    from solver.cli import grids, warmup

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    if not native.fast_start_enabled():
        pytest.skip("no fast start under NUMBA_DISABLE_JIT")
    builder = sleeper(60)  # a build that is still going
    monkeypatch.setattr(warmup, "start_extension_build", lambda: builder)
    try:
        prep = warmup.KernelPrep()
        solve_hand = grids.make_solver(en, 2, 10.0, "any", None, prep)
        hand = TileCounts.from_letters("AEEIRSTQUNLDOGCABHMPR")
        result = solve_hand(hand)
        assert prep.interpreted and type(movesearch.search).__name__ == "function"
        assert result.solved and validate(result.grid, en, hand).ok
        assert not prep.compiled(wait=False)  # the build is not done: stays uncompiled
    finally:
        builder.kill()
        builder.wait()
    assert prep.compiled(wait=False) and not prep.interpreted  # done (here: died): numba's JIT serves
    assert native.extension_state() == "failed"  # the killed build is noted, not retried
    assert solve_hand(hand).solved


def test_a_hand_too_slow_uncompiled_waits_for_the_compiled_kernels(tmp_path, monkeypatch, en, fresh_binding):
    from solver.cli import grids, warmup

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    if not native.fast_start_enabled():
        pytest.skip("no fast start under NUMBA_DISABLE_JIT")
    monkeypatch.setattr(warmup, "start_extension_build", lambda: sleeper(1))
    monkeypatch.setattr(grids, "INTERPRETED_SECONDS", 0.0)  # every uncompiled attempt times out
    prep = warmup.KernelPrep()
    solve_hand = grids.make_solver(en, 2, 10.0, "any", None, prep)
    hand = TileCounts.from_letters("AEEIRSTQUNLDOGCABHMPR")
    result = solve_hand(hand)
    assert not prep.interpreted and type(movesearch.search).__name__ == "CPUDispatcher"  # waited, then numba's JIT
    assert result.solved and validate(result.grid, en, hand).ok


def test_one_build_at_a_time(tmp_path, monkeypatch):
    from solver.cli import warmup

    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    if not native.fast_start_enabled():
        pytest.skip("no fast start under NUMBA_DISABLE_JIT")
    lock = native.build_lock()
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import fcntl, sys, time\nf = open({str(lock)!r}, 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\n"
         "print('held', flush=True)\ntime.sleep(60)"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        assert native.build_in_progress()
        monkeypatch.setattr(warmup, "start_extension_build", lambda: pytest.fail("a second build was started"))
        prep = warmup.KernelPrep()
        assert prep.builder is None and prep.building()
    finally:
        holder.kill()
        holder.wait()
    assert not native.build_in_progress() and not prep.building()
    native.wait_for_build()  # returns at once


@pytest.mark.slow
@pytest.mark.skipif(JIT_DISABLED, reason="the CLI's fast path")
def test_a_cold_bananas_solve_answers_before_its_build_ends(tmp_path, en):
    """Empty cache: `bananas solve` prints a valid grid from the uncompiled kernels while the
    extension builds in a background process that outlives it; the next run uses the build."""
    if native.build_blocker():
        pytest.skip(f"cannot build the extension here: {native.build_blocker()}")
    env = dict(os.environ, BANANAS_CACHE=str(tmp_path), BANANAS_FAST_START="1")
    hand = "AEEIRSTQUNLDOGCABHMPR"
    command = [sys.executable, "-c", "from solver.cli import main; main()", "solve", hand]
    first = subprocess.run(command, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    *grid, summary = first.stdout.splitlines()
    assert summary.startswith("# solved: 21 tiles")
    assert validate(Grid.parse("\n".join(grid)), en, TileCounts.from_letters(hand)).ok
    wait = "from solver.search import native; native.wait_for_build(); print(native.extension_state())"
    assert run_python(wait, **env).stdout.strip() == "built"  # the background build went on, and finished
    second = subprocess.run(command, capture_output=True, text=True, env=env)
    assert second.returncode == 0 and second.stdout == first.stdout.replace(summary, second.stdout.splitlines()[-1])
