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
    """The arguments solving.py passes to each entry kernel, from a real run's buffers."""
    space = _workspace(21)
    run = _Run(space, TileCounts.from_letters("CATMAP"), en, 2, 0, 100, None)
    f, r = en.forward, en.reverse
    search = (space.grid, space.cross, run.hand, run.state, space.frames, space.moves, space.scores, space.order,
              space.letters, space.undo, space.tt_keys, space.tt_stamps, run.weights, run.rng_state, run.noise,
              f.child, f.terminal, f.next_mask, f.end_mask, f.reach, f.below_mask, r.child, r.end_mask)  # fmt: skip
    hostable = (run.hand, 2, 5_000_000, f.child, f.terminal, f.next_mask)
    lay = (Grid.from_rows(["AT"]).to_array(), 3, 4, space.grid, space.cross, run.state, space.frames,
           f.child, f.terminal, f.next_mask, f.end_mask, r.child, r.end_mask)  # fmt: skip
    return {"search": search, "hostable_letters": hostable, "lay_grid": lay}


@pytest.mark.skipif(JIT_DISABLED, reason="reads the signatures numba compiled")
def test_entries_are_the_signatures_the_jit_compiles(en):
    solve("CATMAP", en, time_limit=60)
    extend(Grid.from_rows(["AT"]), "C", en, time_limit=60)
    for name, (result, arguments) in native.ENTRIES.items():
        compiled = getattr(K, name).signatures
        assert native._numba_signature(result, arguments).args in compiled, name


def test_argument_check_accepts_what_solving_passes(en):
    for name, arguments in entry_arguments(en).items():
        assert native.argument_problem(name, arguments) == "", name


def test_argument_check_names_the_first_difference(en):
    arguments = list(entry_arguments(en)["search"])
    wrong_dtype = arguments.copy()
    wrong_dtype[1] = wrong_dtype[1].astype(np.int64)
    assert native.argument_problem("search", tuple(wrong_dtype)).startswith("argument 1 is array(i8, 1")
    strided = arguments.copy()
    strided[0] = np.zeros(2 * len(arguments[0]), dtype=np.uint8)[::2]
    assert "argument 0 is array(u1, 1, contiguous=False)" in native.argument_problem("search", tuple(strided))
    read_only = arguments.copy()
    read_only[3] = arguments[3].copy()
    read_only[3].flags.writeable = False  # the kernel writes its state: compiled code must not get this
    assert native.argument_problem("search", tuple(read_only)).startswith("argument 3 ")
    writable_lexicon = arguments.copy()
    writable_lexicon[15] = arguments[15].copy()  # a read-only parameter takes a writable array too
    assert native.argument_problem("search", tuple(writable_lexicon)) == ""
    assert native.argument_problem("search", tuple(arguments[:-1])) == "22 arguments, compiled for 23"
    hostable = list(entry_arguments(en)["hostable_letters"])
    hostable[1] = True
    assert native.argument_problem("hostable_letters", tuple(hostable)).startswith("argument 1 is bool")
    hostable[1] = 2.0
    assert native.argument_problem("hostable_letters", tuple(hostable)).startswith("argument 1 is float")


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
