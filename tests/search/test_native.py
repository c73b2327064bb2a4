"""solver.search.native: kernels bound on first use, and the argument check that keeps the
compiled library from ever running on arrays it was not compiled for (the library itself:
test_library.py)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.search import native
from solver.search.kernels import layout, movesearch, spelling
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
    # all but layout and wordslots (no kernels)
    assert modules == "crosschecks exact movegen movesearch resumable spelling weights wordbounds wordsearch"


@pytest.mark.skipif(JIT_DISABLED, reason="binds numba dispatchers")
def test_a_kernel_imported_into_another_module_takes_its_own_module_s_binding():
    script = (
        "import numpy as np\nfrom solver.search.kernels import crosschecks, movesearch\n"
        "from solver.search import native\n"
        "def same():\n    return movesearch.cross_mask is crosschecks.cross_mask\n"
        "print(same())\n"
        "movesearch.mix_hash(5, np.uint8(3))\n"
        "print(same(), type(movesearch.cross_mask).__name__)"
    )
    expected = ["True", "True", "CPUDispatcher"]
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
        "lightest_weights": (np.ones((3, 2), dtype=np.int64), np.ones(3), np.full(2, 2.0), np.ones(2), np.zeros(2)),
    }


@pytest.mark.skipif(JIT_DISABLED, reason="reads the signatures numba compiled")
def test_entries_are_the_signatures_the_jit_compiles(en):
    solve("CATMAP", en, time_limit=60)
    extend(Grid.from_rows(["AT"]), "C", en, time_limit=60)
    assert word_count_vectors(TileCounts.from_letters("CATMAP"), en, 2) is not None
    assert WordSearch(TileCounts.from_letters("CATMAP"), en, 2).run(time.perf_counter() + 60)[0] == "solved"
    for name, (result, arguments) in native.ENTRIES.items():
        compiled = getattr(native.entry_module(name), name).signatures
        assert native.numba_signature(result, arguments).args in compiled, name


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
    arguments[0] = arguments[0].astype(np.int32)  # not what the "library" was compiled for
    expected = spelling.hostable_letters.py_func(*arguments)  # the pure-Python kernel
    assert checked(*arguments) == expected and len(calls) == 1


def searched(run: _Run, call) -> tuple:
    """What a first-pass search on `run`'s set-up leaves: status, nodes and grid."""
    run.state[layout.ST_NODE_LIMIT] = 3_000
    call()
    return run.state[layout.ST_STATUS], run.nodes, run.grid()


@pytest.mark.skipif(JIT_DISABLED, reason="numba's compiled overloads")
def test_a_bound_call_runs_the_jit_s_machine_code_for_those_very_arguments(en):
    """`bound_call` resolves a kernel's call once for its arguments' identities: on the JIT, the
    overload compiled for their types, searching as the dispatcher does; the same call for the
    same objects; the dispatcher itself for types it has no overload for."""
    with native.bound_to_jit(), _borrowed_workspace(21) as space:
        tiles = TileCounts.from_letters("AEEIRSTQUNLDOG")
        run = _Run(space, tiles, en, 2, 0, 700, None)
        arguments = (space, run.graph, run.ordering)
        through_dispatcher = searched(run, lambda: movesearch.search(*arguments))
        run = _Run(space, tiles, en, 2, 0, 700, None)
        bound = native.bound_call(movesearch.search, arguments)
        assert bound.func is not movesearch.search and native.bound_call(movesearch.search, arguments) is bound
        assert searched(run, bound) == through_dispatcher and through_dispatcher[0] == layout.SOLVED
        writable_graph = run.graph._replace(child=run.graph.child.copy())  # typed apart: not read-only
        assert native.bound_call(movesearch.search, (space, writable_graph, run.ordering)).func is movesearch.search


# -- compile once ----------------------------------------------------------------------------


def literal_or_none(argument: ast.expr, module) -> str | None:
    """How numba types an argument at a call between kernels: a literal (a Python int or bool
    written out or named by a module global) gets a literal type of its own value, so its repr;
    anything else None."""
    if isinstance(argument, ast.UnaryOp) and isinstance(argument.op, ast.USub):
        inner = literal_or_none(argument.operand, module)
        return None if inner is None else f"-{inner}"
    if isinstance(argument, ast.Constant) and isinstance(argument.value, (bool, int)):
        return repr(argument.value)
    if isinstance(argument, ast.Name) and type(getattr(module, argument.id, None)) in (bool, int):
        return repr(getattr(module, argument.id))
    return None


def test_no_kernel_is_compiled_again_for_each_literal_it_is_called_with():
    """numba compiles a kernel called from another once per literal value an argument takes
    (Literal[int](-1), Literal[bool](True), ...) and once more for a plain int64 there: the word
    search's `_ws_add_item` was compiled four times, 10 s of every cold start. So at each
    argument position of a kernel, calls pass either one literal value only, or no literal."""
    kernels = {name for module in native.kernel_modules() for name in native._declared.get(module.__name__, {})}
    seen: dict[tuple[str, int], set[str | None]] = {}
    where: dict[tuple[str, int], list[str]] = {}
    for module in native.kernel_modules():
        tree = ast.parse(Path(module.__file__).read_text())
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in kernels):
                continue
            for position, argument in enumerate(call.args):
                key = (call.func.id, position)
                seen.setdefault(key, set()).add(literal_or_none(argument, module))
                where.setdefault(key, []).append(f"{module.__name__}:{call.lineno}")
    twice = {key: sorted(map(str, kinds)) for key, kinds in seen.items() if len(kinds) > 1 and kinds != {None}}
    assert not twice, {key: (kinds, where[key]) for key, kinds in twice.items()}
    assert len(seen) > 100  # the calls between kernels were found


# The kernels besides the entries that allocate arrays of their own, so need numba's runtime:
# `_expand` (an argsort of -scores) and `_walk_spelled_words` (its walk's stacks).
ALLOCATING = {"_expand", "_walk_spelled_words"}


def test_kernels_that_allocate_nothing_skip_numba_reference_counting():
    """A kernel compiled with numba's runtime increfs every array it is passed at each call and
    decrefs it on return, each array of a NamedTuple bundle too (the word search's state holds
    23, its words 17): perf put NRT_incref / NRT_decref at a third of the word search's time.
    So every kernel that allocates nothing is compiled with `_nrt=False` (numba refuses to
    compile one that allocates without its runtime, so the flag cannot be wrong the other way).
    The entries keep it: some allocate, and the library compiles them with it anyway."""
    counted = {
        name
        for module in native.kernel_modules()
        for name, kernel in native._declared.get(module.__name__, {}).items()
        if kernel.options.get("_nrt", True) and name not in native.ENTRIES
    }
    assert counted == ALLOCATING
