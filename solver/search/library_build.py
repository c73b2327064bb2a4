"""Building the compiled library (`solver.search.library` says what it is and where it lives):
compile, link, prove, install. Imported by what builds (`prebuilt`, `bananas warm-up`, a first
run's child process), never by a solve.

    python -m solver.search.library_build      # build it into the cache now (bananas warm-up does)
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solver.search import numba_internals
from solver.search.library import (
    ARRAY_FIELDS,
    CALLING_CONVENTION,
    LAYOUT,
    LIBRARY,
    PACKED_SUFFIX,
    build_lock,
    cache_dir,
    failure_note,
    find,
    holding,
    installed_version,
    key,
    note_failure,
)

# The self-check's hands: small and 21-tile grids, proofs, the word search's hands (every
# entry kernel is reached: `self_check` checks it).
SELF_CHECK_HANDS = ("CATMAP", "AEEIRSTQUNLDOGCABHMPR", "QQQ", "CDEENNOOQQRSSTV", "AAEEIIOOUURSTLNMDCPBGHFW")
SELF_CHECK_ADDED = "EEL"  # a PEEL's worth of tiles added to each solved grid (`extend`)
# Hands for the complete word search (`wordsearch.WordSearch`), each under a node budget.
SELF_CHECK_WORD_SEARCH = ("CATDOG", "CDDFGIJMNNNOQTTTTUVWY", "BCDEFIKKLNNNNNPRRRSST")


class CannotBuild(RuntimeError):
    """What the library's build needs is missing here (`build_blocker`)."""


def build_blocker() -> str:
    """Why the library cannot be built here ('' when it can): a C compiler and setuptools
    (numba drives the compiler through it) are needed."""
    import importlib.util

    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed"
    return numba_internals.compiler_works()


def build_into_cache() -> str:
    """Build the library into the cache unless one is found; '' when there is one, else why not
    (also written to the failure note). A second caller waits for the first's build."""
    with holding(build_lock(), wait=True):
        if find() is not None:
            return ""
        try:
            build(cache_dir())
            problem = ""
        except CannotBuild as error:
            problem = str(error)
        except Exception as error:  # the JIT still serves: say why and move on
            problem = f"{type(error).__name__}: {error}".strip()
    if problem:
        note_failure(problem)
    else:
        failure_note().unlink(missing_ok=True)
    return problem


# -- building ----------------------------------------------------------------------------------


def build(directory: Path, progress: Callable[[str], None] | None = None) -> None:
    """Compile the library, prove it (`self_check`) and install it with its layout file into
    `directory` (numba, numpy and a C compiler needed: some 20 s, a minute and more under load).
    Raises on failure; the caller decides whether that matters. `progress` is given a line
    before each long step (the package's build prints them: no silent minute)."""
    say = progress or (lambda line: None)
    if (directory / LIBRARY).is_file() and (directory / LAYOUT).is_file():  # the layout is written last
        # Built before under the same key (the same sources and toolchain): a second editable
        # install (`pip install -e '.[docs]'` after '.[test]') need not compile it again.
        say(f"bananas: the compiled kernels are built already: {directory}")
        return
    blocker = build_blocker()
    if blocker:
        raise CannotBuild(blocker)
    import numba

    from solver.search import native, solving
    from solver.search.kernels import layout as kernel_layout

    native.bind_jit()  # the entries' callees compile through their dispatchers
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=directory.parent, prefix=".build-"))
    try:
        say(f"bananas: compiling {len(native.ENTRIES)} entry kernels with numba, then linking them...")
        _compile_and_link(staging)
        toolchain = {"numba": numba.__version__, "numpy": installed_version("numpy")}
        written = {**layout(kernel_layout, solving), "calling_convention": CALLING_CONVENTION, **toolchain}
        (staging / LAYOUT).write_text(json.dumps(written, indent=1))
        say(f"bananas: checking the library against the JIT on {len(SELF_CHECK_HANDS)} hands...")
        self_check(staging / LIBRARY)
        directory.mkdir(parents=True, exist_ok=True)
        for name in (LIBRARY, LAYOUT):  # the layout last: `find` reads it first
            os.replace(staging / name, directory / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _compile_and_link(work: Path) -> None:
    from solver.search import native

    entries = []
    for name, (result, arguments) in native.ENTRIES.items():
        signature = native.numba_signature(result, arguments)
        verify_calling_convention(signature)
        entries.append((name, signature, getattr(native.entry_module(name), name).py_func))
    numba_internals.write_entries_object(entries, work / "kernels.o")
    # numba's runtime (the kernels' allocations), set up when the library loads.
    (work / "start.c").write_text(
        "void NRT_MemSys_init(void);\n"
        "__attribute__((constructor)) static void bananas_kernels_start(void) { NRT_MemSys_init(); }\n"
    )
    (work / "packed.c").write_text(packed_source())
    runtime, include = numba_internals.runtime_source()
    toolchain = numba_internals.toolchain()
    objects = toolchain.compile_objects(
        [str(runtime), str(work / "start.c"), str(work / "packed.c")],
        str(work),
        include_dirs=[str(include)],
        extra_cflags=["-fPIC"],
    )
    toolchain.link_shared(str(work / LIBRARY), [str(work / "kernels.o"), *objects], extra_ldflags=["-Wl,-Bsymbolic"])


def packed_source() -> str:
    """C source of every entry's packed twin (`library.PACKED_SUFFIX`): `NAME_packed(result,
    exception, words)` calls `NAME(result, exception, words[0], words[1], ...)`, a double
    argument read from its word's bits."""
    import ctypes

    from solver.search import native

    lines = [
        "#include <stdint.h>",
        "#include <string.h>",
        "static double bananas_double(int64_t word) { double value; memcpy(&value, &word, 8); return value; }",
    ]
    for name, (_, arguments) in native.ENTRIES.items():
        kinds = native._flat_kinds(arguments)
        types = ", ".join("double" if kind is ctypes.c_double else "int64_t" for kind in kinds)
        values = ", ".join(
            f"bananas_double(w[{index}])" if kind is ctypes.c_double else f"w[{index}]"
            for index, kind in enumerate(kinds)
        )
        lines += [
            f"int32_t {name}(void *, void *, {types});",
            f"int32_t {name}{PACKED_SUFFIX}(void *result, void *exception, const int64_t *w) "
            f"{{ return {name}(result, exception, {values}); }}",
        ]
    return "\n".join(lines) + "\n"


def verify_calling_convention(signature) -> None:
    """Raise unless numba lowers `signature` the way `bare` and `native` call it
    (CALLING_CONVENTION): a numba that changed its array model or argument packing builds no
    library (the JIT serves) instead of one that a ctypes call would crash."""
    from numba.core import types

    def words(kind) -> list[str]:
        if isinstance(kind, types.Array):
            return ["word"] * (5 + 2 * kind.ndim)
        if isinstance(kind, types.BaseTuple):
            return [word for field in kind.types for word in words(field)]  # type: ignore[attr-defined]
        return {types.int64: ["word"], types.float64: ["double"]}.get(kind, [str(kind)])

    returns, found = numba_internals.lowered_arguments(signature)
    expected = ["word", "word", *(word for kind in signature.args for word in words(kind))]
    if returns != "i32" or found != expected or numba_internals.array_fields() != ARRAY_FIELDS:
        raise RuntimeError(
            f"numba's calling convention changed ({returns} {found}); the library needs {CALLING_CONVENTION}"
        )


def self_check(library: Path, hands: tuple[str, ...] = SELF_CHECK_HANDS) -> None:
    """Raise unless the library at `library` answers as numba's JIT does (status, grid, node
    count) for `hands` solved, each solved grid extended by `SELF_CHECK_ADDED` and the word
    search's hands, with every entry kernel called: a library that would answer otherwise is
    never installed. (About a second.)"""
    from solver.core.tiles import TileCounts
    from solver.lexicon.loader import get_lexicon
    from solver.search import native
    from solver.search.solving import extend, solve
    from solver.search.wordsearch import word_search_grid

    lexicon = get_lexicon("en")

    def answers() -> list[Any]:
        found = []
        for hand in hands:
            solved = solve(hand, lexicon, time_limit=600.0, max_nodes=2_000_000)
            found.append(solved)
            if solved.grid is not None:
                found.append(extend(solved.grid, SELF_CHECK_ADDED, lexicon, time_limit=600.0, max_nodes=2_000_000))
        answers = [(answer.status, answer.grid and answer.grid.to_json(), answer.nodes) for answer in found]
        for hand in SELF_CHECK_WORD_SEARCH:
            deadline = native.search_clock() + 600.0
            status, grid, decisions = word_search_grid(TileCounts.of(hand), lexicon, 2, deadline, node_budget=20_000)
            answers.append((status, grid and grid.to_json(), decisions))
        return answers

    with native.bound_to_jit():
        expected = answers()
    with native.bound_to_library(library) as calls:
        found = answers()
    if found != expected:
        raise RuntimeError(f"the library's answers differ from the JIT's: {found} against {expected}")
    missed = sorted(name for name in native.ENTRIES if not calls.get(name))
    if missed:
        raise RuntimeError(f"the self-check never called {', '.join(missed)}")


def layout(kernels, solving) -> dict:
    """What `bare.BareSolver` needs to know, read from the modules themselves (`kernels`: the
    kernels' `layout` module)."""
    from types import SimpleNamespace

    from solver.core.tiles import ALPHABET
    from solver.lexicon.dawg import ARRAY_NAMES

    def graph_files(prefix: str) -> SimpleNamespace:
        return SimpleNamespace(**{name: f"{prefix}.{name}" for name in ARRAY_NAMES})

    up_to = solving.EXHAUSTIVE_UP_TO
    sizes = sorted({solving.workspace_size(count) for count in range(2, up_to + 1)})
    first = solving.engine_plan("any").small_first_pass()
    ordering = solving.default_ordering()
    names = vars(kernels)
    return {
        "key": key(),
        "up_to": up_to,
        "graph": list(kernels.graph_of(graph_files("forward"), graph_files("reverse"))),
        "workspaces": {
            str(size): [
                [field, array.dtype.str[1:], list(array.shape)]
                for field, array in zip(kernels.Workspace._fields, solving.new_workspace(size), strict=True)
            ]
            for size in sizes
        },
        "state": {name: value for name, value in names.items() if name.startswith("ST_")},
        "frame": {name: value for name, value in names.items() if name.startswith("F_")},
        "status": {name: names[name] for name in ("RUNNING", "SOLVED", "EXHAUSTED", "PAUSED")},
        "constants": {"FULL": kernels.FULL},
        "first_pass": {"max_branch": first.max_branch, "gen_budget": first.gen_budget, "node_limit": first.node_limit},
        "ordering": {"letter": [float(weight) for weight in ordering.letter], "scalars": list(ordering[1:])},
        "alphabet": ALPHABET,
    }


def main() -> int:
    """Build the library into the cache now (retrying a build that failed before); exit 0 when
    it is there."""
    failure_note().unlink(missing_ok=True)
    reason = build_into_cache()
    found = find()
    print(f"not built: {reason}" if reason else f"built {found[0] if found else cache_dir()}", file=sys.stderr)
    return 1 if reason else 0


if __name__ == "__main__":
    # Run as a script this file is `__main__`, a second copy: the kernels register with the
    # imported modules, so that copy does the work.
    from solver.search.library_build import main as imported_main

    sys.exit(imported_main())
