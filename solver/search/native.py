"""How the kernels become machine code: numba's JIT, or a compiled extension for a fast start.

The modules of `solver.search.kernels` decorate their functions with this module's `njit` instead
of numba's. It defers numba: importing the kernels imports no numba. On the first call of a
kernel, the kernels of every module of the package are bound together (they call each other:
a kernel imported by name into another module takes the binding of its own module)

- to numba dispatchers, `numba.njit(cache=True, nogil=True)`: the default, for the library,
  the server (the dispatchers release the GIL), games and tests; or
- when the process asked for it with `prefer_extension()` (the short-lived `bananas solve`,
  `peel` and `dump`) and the extension is built: the entry kernels (`ENTRIES`, the ones
  `solver.search.solving` calls) come from a Python extension compiled ahead of time from the
  same source with numba.pycc. The process then never imports numba nor loads numba's cache,
  which is most of a warm `bananas solve` (numba's import and first-use set-up: ~0.4 s).

The extension lives in a folder named by a key that hashes the kernels' sources (every file of
`solver.search.kernels`), `ENTRIES`,
the Python version, the machine and numpy's version, so a stale one is never loaded: first
solver/search/compiled/<key>/, where the package's build put it (`solver.search.prebuilt`:
compiled at install, so a first run needs no build), else $BANANAS_CACHE/kernels/<key>/, built
on first use. It is built for the generic CPU of the architecture (portable, e.g. inside a
container image). Building it needs a C compiler, Python's headers and setuptools; where any is
missing, or the build fails, the kernels stay on numba's JIT (a `.failed` note beside the
cache's key says why, and stops later runs retrying). BANANAS_PREBUILT=0 ignores the one
built at install (the cache's serves).
BANANAS_FAST_START=0 turns the extension off. One process builds at a time (an flock on
`<key>.lock`); `bind_python` runs the kernels uncompiled meanwhile (solver/cli/warmup.py).
Every call into the extension checks its arguments against `ENTRIES` and falls back to the JIT
on any difference, so a change in what `solving` passes cannot reach compiled code unchecked.

numba's own cache (`cache=True`) checks only the source file of the function it compiles, but a
kernel holds the code of the kernels it calls and the constants it reads from other modules of the
package: `bind_jit` therefore points numba's cache at a folder keyed by the same hash of all the
kernels' sources (`numba_cache_dir`), so an edit to any of them never loads stale machine code.

    python -m solver.search.native      # build the extension now (bananas warm-up does)
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from solver.lexicon.loader import cache_root, cache_unwritable, prebuilt_wanted

EXTENSION = "_bananas_kernels"  # the module name compiled into the extension
FORMAT = 1  # bump to invalidate every built extension


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
ORDERING = Bundle("Ordering", "layout", (Array("f8", 1, True), "float", "float", "float", "float"))
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
        writable=True,
    ),
)  # fmt: skip
SPELLED_WORDS = Bundle(
    "SpelledWords",
    "wordsearch",
    _arrays("i8/2", "i8", "i8", "i8", "i8", "i8", "i8", "f8", "i8", "i8", "i8", writable=True),
)
ENTRIES: dict[str, tuple[str, tuple]] = {
    "search": ("void", (WORKSPACE, GRAPH, ORDERING)),
    "hostable_letters": ("int", (HAND, "int", "int", GRAPH)),
    "word_letter_counts": ("int", (HAND, "int", "int", GRAPH, Array("i1", 2, True))),
    "lay_grid": ("void", (Array("u1", 2, True), "int", "int", WORKSPACE, GRAPH)),
    "word_search": ("int", (WORD_SEARCH_STATE, SPELLED_WORDS, "int", "int")),
}
KERNELS_PACKAGE = "solver.search.kernels"  # every module of it holding kernels is bound with the others

_lock = threading.RLock()
_declared: dict[str, dict[str, LazyKernel]] = {}  # module -> name -> kernel, as decorated
_options: dict[str, bool | None] = {"prefer_extension": None}  # None: when it saves a compile


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
    """`@njit(cache=True, nogil=True)` (or bare `@njit`), as numba's, but bound on first use."""

    def decorate(py_func: Callable) -> LazyKernel:
        kernel = LazyKernel(py_func, options)
        _declared.setdefault(py_func.__module__, {})[py_func.__name__] = kernel
        return kernel

    if len(args) == 1 and callable(args[0]) and not options:
        return decorate(args[0])
    return decorate


def prefer_extension(prefer: bool | None = True) -> None:
    """Take the entry kernels from the compiled extension when it is built (True), from numba's
    JIT (False: a server whose searches run in threads side by side, which the JIT's kernels
    allow by releasing the GIL and the extension's do not), or (None, the default) from the
    extension only when numba has not compiled the kernels into its cache yet: a library
    user's first call then starts at once instead of compiling for tens of seconds, and once
    numba's cache is warm (`bananas warm-up`, a server's start) the JIT serves. This process
    only; call before the first kernel runs."""
    _options["prefer_extension"] = prefer


def resolve(module_name: str, name: str) -> Callable:
    """The callable bound to kernel `name` of `module_name`, binding the kernels on first use."""
    with _lock:
        module = sys.modules[module_name]
        if isinstance(getattr(module, name), LazyKernel):
            extension = _load_extension() if name in ENTRIES and _extension_wanted() else None
            if extension is not None:
                for entry in ENTRIES:
                    setattr(entry_module(entry), entry, _checked(entry, getattr(extension, entry)))
                _share_bindings()
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
    from numba.core import event

    class CompileTime(event.Listener):
        # Compiles nest (a kernel's callees) and numba serializes them: count the outermost.
        def on_start(self, ev: event.Event) -> None:
            if _compiling["depth"] == 0:
                _compiling["since"] = time.perf_counter()
            _compiling["depth"] += 1

        def on_end(self, ev: event.Event) -> None:
            _compiling["depth"] -= 1
            if _compiling["depth"] == 0:
                _compiling["seconds"] += time.perf_counter() - _compiling["since"]

    event.register("numba:compile", CompileTime())


_numba_hooks: list[Callable[[], None]] = [_count_compile_time]  # run once, when the kernels first need numba


def when_numba_is_needed(hook: Callable[[], None]) -> None:
    """Call `hook` once, just before the kernels are first bound to numba (so a caller can,
    say, watch numba's compile events without importing numba itself beforehand)."""
    _numba_hooks.append(hook)


def bind_jit(replace: tuple[str, ...] = ()) -> None:
    """Bind every kernel not bound yet (and the `replace` ones) to numba, with numba's cache in
    `numba_cache_dir()`."""
    import numba

    with _lock:
        while _numba_hooks:
            _numba_hooks.pop(0)()
        config: Any = numba.config  # its settings are set from the environment at import
        unkeyed = config.CACHE_DIR
        cache_dir = numba_cache_dir()
        config.CACHE_DIR = str(cache_dir)  # read as each dispatcher is made, below
        # numba falls back to a __pycache__ beside the source when its cache folder cannot be
        # written: inside an installed package, where an uninstall leaves it behind. Never.
        caching = _writable(cache_dir)
        try:
            for module in kernel_modules():
                for name, kernel in _declared.get(module.__name__, {}).items():
                    if isinstance(getattr(module, name), LazyKernel) or name in replace:
                        options = kernel.options if caching else {**kernel.options, "cache": False}
                        setattr(module, name, numba.njit(**options)(kernel.py_func))
        finally:
            config.CACHE_DIR = unkeyed
        _share_bindings()


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


def bind_python() -> None:
    """Bind every kernel to its pure-Python function: the same code run by the interpreter (as
    under NUMBA_DISABLE_JIT, so the same results), some 50-100x slower than compiled. For a
    first run, while the compiled kernels build in another process."""
    with _lock:
        for module in kernel_modules():
            for name, kernel in _declared.get(module.__name__, {}).items():
                setattr(module, name, kernel.py_func)
        _share_bindings()


def unbind() -> None:
    """Make every kernel unbound again: the next call binds them afresh (to the extension, if
    it is built by then)."""
    with _lock:
        for module in kernel_modules():
            for name, kernel in _declared.get(module.__name__, {}).items():
                setattr(module, name, kernel)
        _share_bindings()


def fast_start_enabled() -> bool:
    """False when BANANAS_FAST_START=0 (or numba's JIT is disabled): the extension is neither
    built nor used, the kernels run on numba's JIT."""
    jit_disabled = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
    return os.environ.get("BANANAS_FAST_START", "1") != "0" and not jit_disabled


def _extension_wanted() -> bool:
    prefer = _options["prefer_extension"]
    if prefer is None:
        prefer = not jit_cache_warm()
    return prefer and fast_start_enabled()


def jit_cache_warm() -> bool:
    """Whether numba's cache holds this copy of the search kernel compiled: its index file, in
    the folder numba names after the kernels' folder (`numba.core.caching`: the folder's name
    and a SHA-1 of its absolute path; each checkout or install has its own)."""
    from solver.search import kernels

    folder = os.path.dirname(os.path.abspath(kernels.__file__))
    subpath = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    try:
        return any((numba_cache_dir() / subpath).glob("movesearch.search-*.nbi"))
    except OSError:
        return False


# -- calling the extension -------------------------------------------------------------------


def argument_problem(name: str, args: tuple) -> str:
    """'' when `args` match what the extension's `name` was compiled for, else the first
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
    """`compiled` behind an argument check; on a mismatch the kernel moves to numba's JIT."""

    def call(*args):
        if argument_problem(name, args):
            bind_jit(replace=(name,))
            return getattr(entry_module(name), name)(*args)
        return compiled(*args)

    call.__name__ = call.__qualname__ = name
    call.py_func = _declared[entry_module(name).__name__][name].py_func  # type: ignore[attr-defined]  # numba's dispatcher attribute
    return call


# -- where the extension lives -----------------------------------------------------------------


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


def extension_key() -> str:
    """Hashes everything the compiled code depends on: the kernels' sources, `ENTRIES`, the
    Python version, the machine and numpy's version (an extension built against another numpy
    must not be loaded)."""
    digest = hashlib.sha256(sources_key().encode())
    digest.update(repr((ENTRIES, FORMAT, sys.version, platform.machine(), np.__version__)).encode())
    return digest.hexdigest()[:24]


# Where the package's build put the extension (solver.search.prebuilt): <key>/ as in the cache.
PREBUILT_ROOT = Path(__file__).with_name("compiled")


def prebuilt_extension_dir() -> Path:
    """solver/search/compiled/<key>: the extension built when the package was installed."""
    return PREBUILT_ROOT / extension_key()


def cache_extension_dir() -> Path:
    """$BANANAS_CACHE/kernels/<key>: the extension a first run builds (and its lock and note)."""
    return cache_root() / "kernels" / extension_key()


def extension_dir() -> Path:
    """Where the extension is loaded from: the one built at install when it matches this
    Python, numpy and kernels' source (and BANANAS_PREBUILT is not 0), else the cache's."""
    prebuilt = prebuilt_extension_dir()
    if prebuilt_wanted() and _built_in(prebuilt) is not None:
        return prebuilt
    return cache_extension_dir()


def _built_in(directory: Path) -> Path | None:
    candidates = (directory / f"{EXTENSION}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return next((path for path in candidates if path.is_file()), None)


def extension_file(directory: Path | None = None) -> Path:
    """The built extension in `directory` (any suffix this Python imports), or where it would be."""
    directory = directory or extension_dir()
    return _built_in(directory) or directory / f"{EXTENSION}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def build_lock(directory: Path | None = None) -> Path:
    """Held (flock) by the process building the extension: one build at a time per key."""
    directory = directory or cache_extension_dir()
    return directory.with_name(directory.name + ".lock")


@contextlib.contextmanager
def _holding(lock: Path, wait: bool) -> Iterator[bool]:
    """Hold the exclusive lock on `lock` (waiting for it when `wait`); yields False when it is
    held elsewhere and not waited for. Where flock is missing, every caller holds it."""
    try:
        import fcntl
    except ImportError:  # not POSIX: concurrent builds stay safe, only wasteful
        yield True
        return
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def cache_writable() -> bool:
    """Whether a first run can build the extension into the cache (else it says so once, and
    the kernels run on numba's JIT, uncached if need be)."""
    return _writable(cache_extension_dir().parent)


def build_in_progress() -> bool:
    """True while another process builds the extension."""
    with _holding(build_lock(), wait=False) as free:
        return not free


def wait_for_build() -> None:
    """Return once no process is building the extension."""
    with _holding(build_lock(), wait=True):
        pass


def failure_note(directory: Path | None = None) -> Path:
    directory = directory or cache_extension_dir()
    return directory.with_name(directory.name + ".failed")


def extension_state() -> str:
    """'built', 'failed' (a build failed here before: see the note) or 'missing'."""
    if extension_file().is_file():
        return "built"
    return "failed" if failure_note().is_file() else "missing"


def _load_extension():
    path = extension_file()
    if not path.is_file():
        return None
    try:
        spec = importlib.util.spec_from_file_location(EXTENSION, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:  # a damaged file: the JIT serves; warm-up rebuilds it
        return None
    return module


# -- building it -----------------------------------------------------------------------------


def build_blocker() -> str:
    """Why the extension cannot be built here ('' when it can): a C compiler, Python's headers
    and setuptools (numba.pycc drives the compiler through it) are needed."""
    import sysconfig

    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "Python's C headers (Python.h) are not installed"
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba.pycc is "pending deprecation"; the JIT is the fallback
            from numba.pycc.platform import external_compiler_works

        if not external_compiler_works():
            return "no working C compiler"
    except Exception as error:  # numba.pycc missing or broken in this numba version
        return f"numba.pycc is unavailable: {error}"
    return ""


def _numba_signature(result: str, arguments: tuple):
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


def build_extension() -> str:
    """Compile the entry kernels into the cache's extension (seconds to tens of seconds: the
    kernels are compiled, then linked by the C compiler). Returns '' when built, else why not
    (also written to the failure note). One build at a time: a second caller waits for the
    first's result."""
    directory = cache_extension_dir()
    with _holding(build_lock(directory), wait=True):
        problem = build_extension_into(directory)  # at once when the lock's holder built it
    if problem:
        note_failure(problem)
    else:
        failure_note(directory).unlink(missing_ok=True)
    return problem


def build_extension_into(directory: Path) -> str:
    """Compile the extension into `directory` (a <key> folder: the cache's, or the package's
    at install, see solver.search.prebuilt) unless it is there already. Returns '' when built,
    else why not."""
    if _built_in(directory) is not None:
        return ""
    problem = build_blocker()
    if not problem:
        try:
            _compile_into(directory)
        except Exception as error:  # the JIT still serves: say why and move on
            problem = f"{type(error).__name__}: {error}".strip()
    return problem


def note_failure(reason: str) -> None:
    """Record why the extension could not be built; later runs use the JIT without retrying."""
    note = failure_note()
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(reason + "\n")


def _compile_into(directory: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is "pending deprecation"; the JIT is the fallback
        from numba.pycc import CC

    class Compiler(CC):
        """numba's AOT compiler, with its C support code (about 3 s of C compiler) compiled in a
        thread while the kernels compile, instead of after them."""

        def start_support_code(self, build_dir: str) -> None:
            import concurrent.futures  # builds only

            pool = concurrent.futures.ThreadPoolExecutor(1)
            self._support = pool.submit(super()._compile_mixins, build_dir)
            pool.shutdown(wait=False)  # the task runs on; `_compile_mixins` waits for it

        def _compile_mixins(self, build_dir: str) -> list[str]:
            return self._support.result()

    bind_jit()  # pycc compiles the entries' callees through their dispatchers
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=directory.parent, prefix=".build-"))
    try:
        compiler = Compiler(EXTENSION, source_module=entry_module("search"))  # (output_dir is set below)
        support = tempfile.mkdtemp(dir=staging, prefix="support-")
        compiler.start_support_code(support)
        compiler.output_dir = str(staging)
        compiler.target_cpu = ""  # generic for the architecture: the file may move to another machine
        for name, (result, arguments) in ENTRIES.items():
            compiler.export(name, _numba_signature(result, arguments))(getattr(entry_module(name), name).py_func)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler.compile()
        shutil.rmtree(support)  # object files, linked in by now
        try:
            staging.rename(directory)
        except OSError:
            if not extension_file(directory).is_file():
                raise
    finally:  # another process won the race, or the build failed: no half-built folder stays
        shutil.rmtree(staging, ignore_errors=True)


def main() -> int:
    """Build the extension now (retrying a build that failed before); exit 0 when it is built."""
    failure_note().unlink(missing_ok=True)
    reason = build_extension()
    print(f"not built: {reason}" if reason else f"built {extension_file(cache_extension_dir())}", file=sys.stderr)
    return 1 if reason else 0


if __name__ == "__main__":
    # Run as a script this file is `__main__`, a second copy: the kernels register with the
    # imported `solver.search.native`, so that copy does the work.
    from solver.search.native import main as imported_main

    sys.exit(imported_main())
