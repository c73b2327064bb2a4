"""solver.search.native: kernels bound on first use, the compiled fast-start extension, and the
argument check that keeps the extension from ever running on arrays it was not compiled for."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.search import kernels as K
from solver.search import native
from solver.search.proofs import word_count_vectors
from solver.search.solving import _Run, _workspace, extend, solve

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
        "import sys\nimport solver.search.kernels as K\nimport solver.search.solving\n"
        "print('numba' in sys.modules, type(K.search).__name__)"
    )
    assert run_python(script).stdout.split() == ["False", "LazyKernel"]


@pytest.mark.skipif(JIT_DISABLED, reason="binds numba dispatchers")
def test_the_first_call_binds_every_kernel_to_numba():
    script = (
        "import numpy as np\nimport solver.search.kernels as K\nfrom solver.search import native\n"
        "K.mix_hash(5, np.uint8(3))\n"
        "print(sorted({type(getattr(K, name)).__name__ for name in native._declared[K.__name__]}))"
    )
    assert run_python(script).stdout.strip() == "['CPUDispatcher']"


def entry_arguments(en) -> dict[str, tuple]:
    """The arguments solving.py and proofs.py pass to each entry kernel, from a real run."""
    space = _workspace(21)
    run = _Run(space, TileCounts.from_letters("CATMAP"), en, 2, 0, 100, None)
    hand = space.hand.copy()
    return {
        "search": (space, run.graph, run.ordering),
        "hostable_letters": (hand, 2, 5_000_000, run.graph),
        "word_letter_counts": (hand, 2, 10_000, run.graph, np.zeros((64, 26), dtype=np.int8)),
        "lay_grid": (Grid.from_rows(["AT"]).to_array(), 3, 4, space, run.graph),
    }


@pytest.mark.skipif(JIT_DISABLED, reason="reads the signatures numba compiled")
def test_entries_are_the_signatures_the_jit_compiles(en):
    solve("CATMAP", en, time_limit=60)
    extend(Grid.from_rows(["AT"]), "C", en, time_limit=60)
    assert word_count_vectors(TileCounts.from_letters("CATMAP"), en, 2) is not None
    for name, (result, arguments) in native.ENTRIES.items():
        compiled = getattr(K, name).signatures
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
    monkeypatch.setattr(K, "hostable_letters", K.hostable_letters)  # put the current binding back after
    arguments[0] = arguments[0].astype(np.int32)  # not what the "extension" was compiled for
    expected = K.hostable_letters.py_func(*arguments)  # the pure-Python kernel
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
import solver.search.kernels as K
print(json.dumps({{"results": out, "numba": "numba" in sys.modules, "search": type(K.search).__name__}}))
"""


@pytest.fixture(scope="module")
def built_extension(tmp_path_factory):
    """The extension, built into a private cache (tens of seconds: compile and link)."""
    problem = native.build_blocker()
    if problem:
        pytest.skip(f"cannot build the extension here: {problem}")
    cache = tmp_path_factory.mktemp("native-cache")
    env = dict(os.environ, BANANAS_CACHE=str(cache), BANANAS_FAST_START="1")
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
    assert "numba kernels: " in result.stdout


def test_fast_start_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("BANANAS_FAST_START", "0")
    assert not native.fast_start_enabled()
    monkeypatch.setenv("BANANAS_FAST_START", "1")
    assert native.fast_start_enabled() == (not JIT_DISABLED)


def test_extension_key_follows_the_kernels_source(tmp_path, monkeypatch):
    monkeypatch.setenv("BANANAS_CACHE", str(tmp_path))
    first = native.extension_dir()
    source = tmp_path / "kernels.py"
    source.write_bytes(native._kernels_source().read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(native, "_kernels_source", lambda: source)
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
