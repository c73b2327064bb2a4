"""How the kernels become machine code: numba's JIT, or the compiled library for a fast start.

The modules of `solver.search.kernels` decorate their functions with this module's `njit` instead
of numba's. It defers numba: importing the kernels imports no numba. On the first call of a
kernel, the kernels of every module of the package are bound together (they call each other:
a kernel imported by name into another module takes the binding of its own module)

- to numba dispatchers, `numba.njit(cache=True, nogil=True)`, with numba's cache in a folder of
  the project's cache keyed by every kernel source (`numba_cache_dir`: numba's own cache checks
  only the file of the function it compiles, but a kernel holds the code of those it calls);
  or
- for the entry kernels (`ENTRIES`, the ones `solver.search.solving`, `proofs` and `wordsearch`
  call), to the compiled library (`solver.search.library`: one C-ABI library built ahead of
  time, called through ctypes by `LibraryEntry`) when the process prefers it
  (`prefer_library`): the CLI's commands, and, by default, a process whose numba cache is cold.
  Such a process never imports numba nor loads numba's cache, which is most of a warm
  `bananas solve` (numba's import and first-use set-up: ~0.4 s) and all of a cold one (tens of
  seconds of compiling). Every call into the library checks its arguments against `ENTRIES`
  and moves the kernel to the JIT on any difference, so a change in what the callers pass
  cannot reach compiled code unchecked.

BANANAS_FAST_START=0 turns the library off. numba's cache is never written inside the
package: where its folder cannot be written, the kernels compile uncached.
"""

from __future__ import annotations

import array
import contextlib
import ctypes
import errno
import functools
import hashlib
import importlib
import operator
import os
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from solver.lexicon.loader import cache_root, cache_unwritable
from solver.search import library, numba_internals


@dataclass(frozen=True)
class Array:
    """A C-contiguous array argument: dtype code, dimensions, and whether the kernel writes it
    (a read-only parameter takes writable arrays too; the lexicon's arrays are read-only maps)."""

    dtype: str
    ndim: int
    writable: bool


@dataclass(frozen=True)
class Bundle:
    """A `typing.NamedTuple` argument: the class's name, the module of `solver.search.kernels`
    that defines it, and its fields."""

    name: str
    module: str
    fields: tuple


def _arrays(*specs: str, writable: bool) -> tuple[Array, ...]:
    """'i8' or 'i8/2' (two dimensions) -> Array."""
    return tuple(Array(spec.split("/")[0], int(spec.split("/")[1]) if "/" in spec else 1, writable) for spec in specs)


# The bundles and entry kernels `solver.search.solving`, `proofs` and `wordsearch` call, with the exact types
# they pass ("int" = int64, "float" = float64). tests/search/test_native.py checks this table against
# the signatures numba's JIT compiles from real calls.
GRAPH = Bundle("Graph", "layout", _arrays("i4", "u1", "i4", "i4", "i4", "i4", "i4", "i4", writable=False))
ORDERING = Bundle("Ordering", "layout", (Array("f8", 1, True), "float", "float", "float", "float", "float"))
WORKSPACE = Bundle(
    "Workspace",
    "layout",
    _arrays(
        "u1", "i4", "i8", "i8", "i8/2", "i8/2", "f8", "i8", "u1", "i8/2", "i8", "i8", "i8",  # grid .. rng
        "i8/2", "i8/2", "f8", "i8", "i8", "i8/2", "f8", "u1",  # the scratch buffers
        writable=True,
    ),
)  # fmt: skip
HAND = Array("i8", 1, True)
WORD_SEARCH_STATE = Bundle(
    "WordSearchState",
    "wordsearch",
    _arrays(
        "i8", "i8", "i8/2", "i8", "i8", "i8", "i8/2",  # board .. undo
        "i8/2", "i8/2", "i8/2", "i8/2", "i8/2", "i8", "i8", "i8", "i8/2", "i8", "i8", "i8",  # item_cell .. mark
        "f8/2", "f8", "i8/2", "f8", "f8/3", "f8/2", "i8",  # item_share .. weight_row
        writable=True,
    ),
)  # fmt: skip
SPELLED_WORDS = Bundle(
    "SpelledWords",
    "wordsearch",
    _arrays(
        "i8/2", "i8", "i8", "i8", "i8", "i8", "i8", "f8", "i8", "i8", "i8",  # letters .. hard_order
        "i8", "i8", "f8", "i8", "i8", "f8/2", "i8", "i8", "i8/2",  # occ_rest .. tally
        "i8", "i8", "i8", "f8", "i8", "i8", "i8", "f8/2",  # letter_groups .. by_group_start, banned, charge
        writable=True,
    ),
)  # fmt: skip
ENTRIES: dict[str, tuple[str, tuple]] = {
    "search": ("void", (WORKSPACE, GRAPH, ORDERING)),
    "hostable_letters": ("int", (HAND, "int", "int", GRAPH)),
    "word_letter_counts": ("int", (HAND, "int", "int", GRAPH, Array("i1", 2, True))),
    "lay_grid": ("void", (Array("u1", 2, True), "int", "int", WORKSPACE, GRAPH)),
    "word_search": ("int", (WORD_SEARCH_STATE, SPELLED_WORDS, "int", "int")),
    "lightest_weights": ("int", _arrays("i8/2", "f8", "f8", "f8", "f8", writable=True)),
}
KERNELS_PACKAGE = "solver.search.kernels"  # every module of it holding kernels is bound with the others

_lock = threading.RLock()
_declared: dict[str, dict[str, LazyKernel]] = {}  # module -> name -> kernel, as decorated
_options: dict[str, bool | None] = {"prefer_library": None}  # None: when it saves a compile


# -- the lazy decorator ----------------------------------------------------------------------


class LazyKernel:
    """A kernel before binding: the first call binds its module's kernels, then runs."""

    __name__: str  # set by functools.update_wrapper

    def __init__(self, py_func: Callable, options: dict):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.options = options

    def __call__(self, *args):
        return resolve(self.py_func.__module__, self.__name__)(*args)

    def __repr__(self) -> str:
        return f"<kernel {self.__name__} (not compiled yet)>"


def njit(*args, **options):
    """`@njit(cache=True, nogil=True)` (or bare `@njit`), as numba's, but bound on first use.
    A kernel that allocates nothing adds `_nrt=False` (docs/ARCHITECTURE.md: numba's reference
    counting of every array passed, at every call); the library's entries (ENTRIES) keep it."""

    def decorate(py_func: Callable) -> LazyKernel:
        kernel = LazyKernel(py_func, options)
        _declared.setdefault(py_func.__module__, {})[py_func.__name__] = kernel
        return kernel

    if len(args) == 1 and callable(args[0]) and not options:
        return decorate(args[0])
    return decorate


def prefer_library(prefer: bool | None = True) -> None:
    """Take the entry kernels from the compiled library when it is built (True), from numba's
    JIT (False: a long-lived process, whose JIT kernels are compiled for this very CPU where the
    library's are for the architecture's generic one), or (None, the default) from the library
    only when numba has not compiled the kernels into its cache yet: a library user's first
    call then starts at once instead of compiling for tens of seconds, and once numba's cache
    is warm (`bananas warm-up`, a server's start) the JIT serves. This process only; call
    before the first kernel runs."""
    _options["prefer_library"] = prefer


def resolve(module_name: str, name: str) -> Callable:
    """The callable bound to kernel `name` of `module_name`, binding the kernels on first use."""
    with _lock:
        module = sys.modules[module_name]
        if isinstance(getattr(module, name), LazyKernel):
            entries = _load_library() if name in ENTRIES and _library_wanted() else None
            if entries is not None:
                _bind_entries(entries)
            else:
                bind_jit()
        return getattr(module, name)


def kernel_modules() -> list[ModuleType]:
    """Every module of `solver.search.kernels`, imported (none imports numba)."""
    from solver.search import kernels

    names = [path.stem for path in kernels.sources() if path.stem != "__init__"]
    return [importlib.import_module(f"{KERNELS_PACKAGE}.{name}") for name in names]


def entry_module(name: str) -> ModuleType:
    """The module of `solver.search.kernels` that defines entry kernel `name`."""
    for module in kernel_modules():
        if name in _declared.get(module.__name__, {}):
            return module
    raise KeyError(f"no kernel module defines {name}")


def _share_bindings() -> None:
    """Give every kernel imported by name into another kernel module its own module's binding
    (numba reads a caller's globals when it compiles the caller)."""
    modules = kernel_modules()
    homes = {
        kernel.py_func: (module, name)
        for module in modules
        for name, kernel in _declared.get(module.__name__, {}).items()
    }
    for module in modules:
        for attribute, value in list(vars(module).items()):
            if not callable(value) or isinstance(value, type):
                continue
            home = homes.get(getattr(value, "py_func", value))
            if home is not None and home[0] is not module:
                setattr(module, attribute, getattr(*home))


_compiling = {"seconds": 0.0, "depth": 0, "since": 0.0}  # numba's compile time in this process
_setting_up = {"seconds": 0.0}  # other once-a-process set-up inside a search (`one_time_setup`)


def search_clock() -> float:
    """The clock a search's deadline runs on: `time.perf_counter()` less the seconds numba has
    spent compiling kernels in this process and the seconds of other once-a-process set-up
    (`one_time_setup`: SciPy's import for the letter-count proof), so a first call's compile
    or import never counts against its caller's deadline (they are reported apart:
    `compile_seconds`, `setup_seconds`). A load from numba's cache is no compile and counts as
    search time (milliseconds)."""
    return time.perf_counter() - _compiling["seconds"] - _setting_up["seconds"]


def compile_seconds() -> float:
    """Wall seconds numba has spent compiling kernels in this process."""
    return _compiling["seconds"]


def setup_seconds() -> float:
    """Wall seconds of once-a-process set-up spent inside searches (`one_time_setup`)."""
    return _setting_up["seconds"]


@contextlib.contextmanager
def one_time_setup() -> Iterator[None]:
    """Leave the time inside out of `search_clock`, as a compile is: for work a process does
    once whatever the search (the first import of SciPy's LP solver: 0.5-1 s), which would
    otherwise make the first `solve --time-limit 0.05` that reaches it report 600 ms. Not for
    kernels (numba's compile is counted on its own) nor for anything a search repeats."""
    started = time.perf_counter()
    try:
        yield
    finally:
        _setting_up["seconds"] += time.perf_counter() - started


def _count_compile_time() -> None:
    # Compiles nest (a kernel's callees) and numba serializes them: count the outermost. A
    # compile in the background (`library_until_jit`) delays no search: not counted.
    def on_start(ev) -> None:
        if getattr(_background, "compiling", False):
            return
        if _compiling["depth"] == 0:
            _compiling["since"] = time.perf_counter()
        _compiling["depth"] += 1

    def on_end(ev) -> None:
        if getattr(_background, "compiling", False):
            return
        _compiling["depth"] -= 1
        if _compiling["depth"] == 0:
            _compiling["seconds"] += time.perf_counter() - _compiling["since"]

    numba_internals.listen_to_compiles(on_start, on_end)


_numba_hooks: list[Callable[[], None]] = [_count_compile_time]  # run once, when the kernels first need numba


def when_numba_is_needed(hook: Callable[[], None]) -> None:
    """Call `hook` once, just before the kernels are first bound to numba (so a caller can,
    say, watch numba's compile events without importing numba itself beforehand)."""
    _numba_hooks.append(hook)


def bind_jit(replace: tuple[str, ...] = ()) -> None:
    """Bind every kernel not bound yet (and the `replace` ones) to numba, with numba's cache in
    `numba_cache_dir()`."""
    with _lock:
        wanted = [
            (module, name)
            for module in kernel_modules()
            for name in _declared.get(module.__name__, {})
            if isinstance(getattr(module, name), LazyKernel) or name in replace
        ]
        for (module, name), dispatcher in zip(wanted, _dispatchers(wanted), strict=True):
            setattr(module, name, dispatcher)
        _share_bindings()


def _dispatchers(kernels: list[tuple[ModuleType, str]]) -> list[Callable]:
    """New numba dispatchers of `kernels` (module, name), caching in `numba_cache_dir()`
    (uncached where it cannot be written)."""
    with _lock:
        while _numba_hooks:
            _numba_hooks.pop(0)()
        cache_dir = numba_cache_dir()
        # numba falls back to a __pycache__ beside the source when its cache folder cannot be
        # written: inside an installed package, where an uninstall leaves it behind. Never.
        caching = _writable(cache_dir)
        made = []
        for module, name in kernels:
            kernel = _declared[module.__name__][name]
            options = kernel.options if caching else {**kernel.options, "cache": False}
            made.append(numba_internals.dispatcher(kernel.py_func, options, cache_dir))
        return made


def compile_entries() -> dict[str, Callable]:
    """Dispatchers of every entry kernel (`ENTRIES`), each compiled for the signature it is
    declared with - what solving, proofs and the word search pass - or loaded from numba's
    cache when it holds them; not bound (`use_entries` binds them). Their callees are bound to
    numba first. The compile of a thread marked `in_background` is left out of
    `search_clock`: a search running meanwhile on the library keeps its deadline."""
    with _lock:
        bind_jit()  # the callees (an entry already bound, to the library, stays so)
        modules = [entry_module(name) for name in ENTRIES]
        made = dict(zip(ENTRIES, _dispatchers(list(zip(modules, ENTRIES, strict=True))), strict=True))
    if not jit_disabled():
        for name, dispatcher in made.items():
            dispatcher.compile(numba_signature(*ENTRIES[name]))  # type: ignore[attr-defined]  # a numba dispatcher
    return made


def use_entries(entries: Mapping[str, Callable]) -> None:
    """Bind the entry kernels to `entries` (name -> callable)."""
    with _lock:
        for name, entry in entries.items():
            setattr(entry_module(name), name, entry)
        _share_bindings()


def jit_disabled() -> bool:
    """NUMBA_DISABLE_JIT is set: numba's decorators return the Python functions."""
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


_background = threading.local()  # .compiling: this thread compiles beside the searches


def library_until_jit(ready: threading.Event | None = None) -> threading.Event:
    """For a long-running process (the server): the entry kernels answer from the compiled
    library at once, when one is built, while numba's JIT compiles them (or loads them from its
    cache) in a thread of its own; once every entry is compiled, the entries move to the JIT
    (compiled for this CPU, where the library's code is for the architecture's generic one).
    No call waits for a compile unless no library is found. Returns the event set once the
    entries are on the JIT (or the compile failed: the library keeps serving): `ready`, or a new one."""
    ready = ready or threading.Event()
    with _lock:
        lazy = any(isinstance(getattr(entry_module(name), name), LazyKernel) for name in ENTRIES)
        entries = _load_library() if lazy and fast_start_enabled() else None
        if entries is not None:
            _bind_entries(entries)

    def compile_then_switch() -> None:
        _background.compiling = True
        try:
            use_entries(compile_entries())
        except Exception:  # noqa: BLE001 - the library (or a call's own compile) still serves
            import logging

            logging.getLogger(__name__).exception("compiling the kernels")
        finally:
            ready.set()

    threading.Thread(target=compile_then_switch, name="bananas-jit", daemon=True).start()
    return ready


def entries_on_jit() -> bool:
    """Whether every entry kernel is bound to numba's JIT (a dispatcher, not the library)."""
    return all(type(getattr(entry_module(name), name)).__name__ == "CPUDispatcher" for name in ENTRIES)


def _writable(directory: Path) -> bool:
    """Whether `directory` exists (made now if need be) and can be written; if not, says so
    once (`cache_unwritable`)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not os.access(directory, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(directory))
    except OSError as error:
        cache_unwritable(error)
        return False
    return True


def numba_cache_dir() -> Path:
    """Where numba caches the kernels' machine code: kernels-<key of their sources> below
    NUMBA_CACHE_DIR, or below $BANANAS_CACHE/numba when it is not set."""
    root = os.environ.get("NUMBA_CACHE_DIR") or cache_root() / "numba"
    return Path(root) / f"kernels-{sources_key()}"


def fast_start_enabled() -> bool:
    """False when BANANAS_FAST_START=0 (or numba's JIT is disabled): the library is neither
    built nor used, the kernels run on numba's JIT."""
    return library.enabled()


def _library_wanted() -> bool:
    prefer = _options["prefer_library"]
    if prefer is None:
        prefer = not jit_cache_warm()
    return prefer and fast_start_enabled()


def cache_writable() -> bool:
    """Whether a first run can build the library into the cache (else it says so once, and the
    kernels run on numba's JIT, uncached if need be)."""
    return _writable(library.cache_dir().parent)


def jit_cache_warm() -> bool:
    """Whether numba's cache holds every entry kernel of this copy compiled (`uncached_entries`)."""
    return not uncached_entries()


def uncached_entries() -> list[str]:
    """The entry kernels numba's cache folder (`numba_cache_dir`) has no index file for."""
    return [
        name
        for name in ENTRIES
        if not numba_internals.cache_index_glob(numba_cache_dir(), entry_module(name).__file__ or "", name)
    ]


# -- checking a call into the library -------------------------------------------------------------------


def argument_problem(name: str, args: tuple) -> str:
    """'' when `args` match what the library's `name` was compiled for, else the first
    difference. (Some 20 us for `search`'s workspace, graph and ordering: small beside a call.)"""
    return _problem(args, ENTRIES[name][1], "argument")


def _problem(values: tuple, kinds: tuple, what: str) -> str:
    if len(values) != len(kinds):
        return f"{len(values)} {what}s, compiled for {len(kinds)}"
    for index, (value, kind) in enumerate(zip(values, kinds, strict=True)):
        if kind == "int":
            ok = isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)
        elif kind == "float":
            ok = isinstance(value, float | np.floating)
        elif isinstance(kind, Bundle):
            if type(value) is not bundle_class(kind):
                return f"{what} {index} is {_describe(value)}, compiled for {kind.name}"
            problem = _problem(tuple(value), kind.fields, f"{kind.name} field")
            if problem:
                return f"{what} {index}: {problem}"
            ok = True
        else:
            ok = type(value) is np.ndarray and value.dtype.str[1:] == kind.dtype and value.ndim == kind.ndim
            ok = ok and value.flags.c_contiguous and (value.flags.writeable or not kind.writable)
        if not ok:
            return f"{what} {index} is {_describe(value)}, compiled for {kind}"
    return ""


def bundle_class(bundle: Bundle) -> type[tuple]:
    """The NamedTuple class of a `Bundle`."""
    return getattr(importlib.import_module(f"{KERNELS_PACKAGE}.{bundle.module}"), bundle.name)


def _describe(value: object) -> str:
    if isinstance(value, np.ndarray):
        return (
            f"array({value.dtype.str[1:]}, {value.ndim}, contiguous={value.flags.c_contiguous}, "
            f"writable={value.flags.writeable})"
        )
    return type(value).__name__


def _checked(name: str, compiled: Callable) -> Callable:
    """`compiled` behind an argument check; on a mismatch the kernel moves to numba's JIT. A
    `LibraryEntry` (or a callable marked `checks_arguments`) checks its own arguments, once per
    bundle, and raises `ArgumentMismatch`."""
    checks_itself = isinstance(compiled, LibraryEntry) or getattr(compiled, "checks_arguments", False)

    def call(*args):
        try:
            if not checks_itself and argument_problem(name, args):
                raise ArgumentMismatch(argument_problem(name, args))
            return compiled(*args)
        except ArgumentMismatch:
            bind_jit(replace=(name,))
            return getattr(entry_module(name), name)(*args)

    call.__name__ = call.__qualname__ = name
    call.py_func = _declared[entry_module(name).__name__][name].py_func  # type: ignore[attr-defined]  # numba's dispatcher attribute
    call.library_entry = compiled if isinstance(compiled, LibraryEntry) else None  # type: ignore[attr-defined]  # `bound_call`
    return call


# -- a kernel call resolved once -------------------------------------------------------------

_BOUND: dict[tuple[int, ...], tuple[Callable, tuple, Callable]] = {}  # ids -> (kernel, args, call)


def bound_call(kernel: Callable, args: tuple) -> Callable[[], Any]:
    """`kernel(*args)` as a call of no arguments, resolved once for these very objects (a search's
    workspace, word graph and ordering: the same objects at every search of a process). On numba's
    JIT it is the machine code compiled for their types (`numba_internals.compiled_entry`): the
    dispatcher looks up a bundle of arrays' types at every call, about 5 us (more with the caches
    cold after a kernel call), where a small hand's whole search is 0.1 ms. On the library it is
    the entry's packed arguments (checked once). Otherwise, or not compiled yet, `kernel` itself."""
    key = (id(kernel), *map(id, args))
    found = _BOUND.get(key)
    if found is not None and found[0] is kernel and all(map(operator.is_, found[1], args)):
        return found[2]
    call = _resolved(kernel, args)
    if call is None:  # resolved at a later call, once compiled
        return functools.partial(kernel, *args)
    if len(_BOUND) >= 2 * BUNDLE_MEMO:
        _BOUND.clear()
    _BOUND[key] = (kernel, args, call)
    return call


def _resolved(kernel: Callable, args: tuple) -> Callable[[], Any] | None:
    entry = getattr(kernel, "library_entry", None)
    if isinstance(entry, LibraryEntry):
        try:
            _, packed, address = entry.packed(args)
        except ArgumentMismatch:  # `kernel` itself moves to the JIT at its first call
            return None
        return functools.partial(entry.call_packed, packed, address)
    compiled = numba_internals.compiled_entry(kernel, args)
    return None if compiled is None else functools.partial(compiled, *args)


# -- calling the library -------------------------------------------------------------------------


def kernel_sources() -> list[Path]:
    """The files of `solver.search.kernels`: what every kernel's machine code depends on."""
    from solver.search import kernels

    return kernels.sources()


def sources_key() -> str:
    """A hash of the kernels' sources, each file's name and bytes."""
    from solver.search import kernels

    digest = hashlib.sha256()
    kernels.add_files(digest, kernel_sources())
    return digest.hexdigest()[:24]


def _flat_kinds(kinds: tuple) -> list[type]:
    """The ctypes of the arguments `kinds` flatten to (`library.CALLING_CONVENTION`)."""
    flat: list[type] = []
    for kind in kinds:
        if isinstance(kind, Bundle):
            flat += _flat_kinds(kind.fields)
        elif kind == "float":
            flat.append(ctypes.c_double)
        else:
            flat += [ctypes.c_int64] * (1 if kind == "int" else 5 + 2 * kind.ndim)
    return flat


def _flatten(values: tuple, kinds: tuple, flat: list) -> None:
    for value, kind in zip(values, kinds, strict=True):
        if isinstance(kind, Bundle):
            _flatten(tuple(value), kind.fields, flat)
        elif kind == "int":
            flat.append(int(value))
        elif kind == "float":
            flat.append(_DOUBLE_WORD.unpack(_DOUBLE.pack(float(value)))[0])
        else:  # no meminfo, no parent: the kernel does not own the array
            flat += [0, 0, value.size, value.itemsize, value.ctypes.data, *value.shape, *value.strides]


_DOUBLE, _DOUBLE_WORD = struct.Struct("=d"), struct.Struct("=q")  # a double passed as its 64-bit word


_TWO_WORDS = bytes(16)  # a call's result word and error pointer, zeroed


class ArgumentMismatch(TypeError):
    """A call into the library with arguments it was not compiled for (`argument_problem`)."""


BUNDLE_MEMO = 8  # bundles, and whole calls, whose words an entry keeps (a search's workspace and graph)


class LibraryEntry:
    """An entry kernel of the compiled library, called through ctypes on numpy arrays as numba
    passes them (`library.CALLING_CONVENTION`), through its packed twin: the arguments go as
    one buffer of 64-bit words, so ctypes converts three arguments instead of hundreds.

    The words are memoised, each memo holding what it was computed from (so no id is reused and
    no array's address changes meanwhile): a whole call's buffer by its arguments' identities
    (a search's workspace, graph and ordering; a proof's reused hand buffer and constants), and a
    bundle's words by its identity and by its fields' (a new Graph of the same arrays); so a
    bundle is checked against `ENTRIES` and flattened once, not at every call, and the kernel only
    reads the buffer (threads share it). Arguments of another type or layout raise
    `ArgumentMismatch` before any call. ctypes releases the GIL during the call, as the JIT's
    `nogil` kernels do."""

    def __init__(self, handle: ctypes.CDLL, name: str):
        self.name = name
        self.result, self.kinds = ENTRIES[name]
        self.function = getattr(handle, name + library.PACKED_SUFFIX)
        self.function.restype = ctypes.c_int32
        self.function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self._bundles: dict[object, tuple[tuple, list[int]]] = {}
        self._calls: dict[tuple, tuple[tuple, array.array, int]] = {}

    def words(self, args: tuple) -> list[int]:
        """The flattened arguments, checked; raises `ArgumentMismatch`."""
        if len(args) != len(self.kinds):
            raise ArgumentMismatch(argument_problem(self.name, args))
        words: list[int] = []
        for value, kind in zip(args, self.kinds, strict=True):
            if isinstance(kind, Bundle):
                found = self._bundles.get(id(value))
                if found is None or found[0] is not value:
                    found = self._bundle(value, kind, args)
                words += found[1]
            elif _problem((value,), (kind,), "argument"):
                raise ArgumentMismatch(argument_problem(self.name, args))
            else:
                _flatten((value,), (kind,), words)
        return words

    def _bundle(self, value: tuple, kind: Bundle, args: tuple) -> tuple[tuple, list[int]]:
        """(value, its words), from the memo of the same fields or checked and flattened now."""
        fields_key = (type(value), *map(id, value))
        found = self._bundles.get(fields_key)
        if found is None:
            if _problem((value,), (kind,), "argument"):
                raise ArgumentMismatch(argument_problem(self.name, args))
            words: list[int] = []
            _flatten((value,), (kind,), words)
            found = (value, words)
        if len(self._bundles) >= 2 * BUNDLE_MEMO:
            self._bundles.clear()
        self._bundles[fields_key] = found
        self._bundles[id(value)] = (value, found[1])
        return self._bundles[id(value)]

    def packed(self, args: tuple) -> tuple[tuple, array.array, int]:
        """(args, the call's arguments as one buffer of words, its address), from the memo of the
        same arguments."""
        key = tuple(map(id, args))
        found = self._calls.get(key)
        if found is not None and all(map(operator.is_, found[0], args)):
            return found
        packed = array.array("q", self.words(args))
        if len(self._calls) >= BUNDLE_MEMO:
            self._calls.clear()
        found = self._calls[key] = (args, packed, packed.buffer_info()[0])
        return found

    def __call__(self, *args):
        args, packed, address = self.packed(args)
        return self.call_packed(packed, address)

    def call_packed(self, packed: array.array, address: int):
        """The kernel on the arguments packed in `packed` (held by the caller while it runs), at `address`."""
        out = array.array("q", _TWO_WORDS)  # the result, then the error pointer: one object, not two
        at = out.buffer_info()[0]
        status = self.function(at, at + 8, address)
        if status != 0:  # the kernels raise nothing: a library at odds with its sources
            raise RuntimeError(f"the compiled {self.name} kernel failed (status {status})")
        return out[0] if self.result == "int" else None


def library_entries(path: Path) -> dict[str, LibraryEntry]:
    """Every entry kernel of the library at `path`."""
    handle = ctypes.CDLL(str(path))
    return {name: LibraryEntry(handle, name) for name in ENTRIES}


def _load_library() -> dict[str, LibraryEntry] | None:
    found = library.find()
    if found is None:
        return None
    try:
        return library_entries(found[0])
    except (OSError, AttributeError):  # a damaged file: the JIT serves; warm-up rebuilds it
        return None


def _bind_entries(entries: Mapping[str, Callable]) -> None:
    for name, entry in entries.items():
        setattr(entry_module(name), name, _checked(name, entry))
    _share_bindings()


@contextlib.contextmanager
def bound_to_jit() -> Iterator[None]:
    """Every kernel on numba's JIT inside (the library's self-check), as before after."""
    with _lock:
        saved = _bindings()
        bind_jit(replace=tuple(ENTRIES))
        try:
            yield
        finally:
            _restore(saved)


@contextlib.contextmanager
def bound_to_library(path: Path) -> Iterator[dict[str, int]]:
    """The entry kernels from the library at `path` inside, counting the calls of each (the
    yielded dict); as before after."""
    with _lock:
        saved = _bindings()
        bind_jit()
        calls: dict[str, int] = {}

        def counted(name: str, entry: LibraryEntry) -> Callable:
            def call(*args):
                calls[name] = calls.get(name, 0) + 1
                return entry(*args)

            call.checks_arguments = True  # type: ignore[attr-defined]  # the entry checks them
            return call

        _bind_entries({name: counted(name, entry) for name, entry in library_entries(path).items()})
        try:
            yield calls
        finally:
            _restore(saved)


def _bindings() -> dict[tuple[str, str], object]:
    return {
        (module.__name__, name): getattr(module, name)
        for module in kernel_modules()
        for name in _declared.get(module.__name__, {})
    }


def _restore(saved: dict[tuple[str, str], object]) -> None:
    for (module_name, name), value in saved.items():
        setattr(sys.modules[module_name], name, value)
    _share_bindings()


def numba_signature(result: str, arguments: tuple):
    """numba's signature of an entry (`ENTRIES`), for the library's build."""
    from numba import from_dtype, types

    def numba_type(kind):
        if kind == "int":
            return types.int64
        if kind == "float":
            return types.float64
        if isinstance(kind, Bundle):
            fields = [numba_type(field) for field in kind.fields]
            return types.BaseTuple.from_types(fields, bundle_class(kind))
        return types.Array(from_dtype(np.dtype(kind.dtype)), kind.ndim, "C", readonly=not kind.writable)

    returns = {"void": types.void, "int": types.int64}[result]
    return returns(*(numba_type(kind) for kind in arguments))
