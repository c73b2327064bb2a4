"""The compiled kernels: one C-ABI library holding every entry kernel, built ahead of time.

numba's JIT compiles the search kernels on first use (tens of seconds) and caches them; a
short-lived process (`bananas solve`, a library user's first call) cannot wait for that. So the
entry kernels (`native.ENTRIES`: the ones `solving`, `proofs` and `wordsearch` call) are also
compiled once into a plain shared library - C calling convention, numba's runtime (`nrt.cpp`)
linked in for the kernels' allocations, no Python API - that `ctypes` calls:

- `solver.search.bare` calls its `search` on buffers it maps itself: the plain `bananas solve
  HAND` without importing numpy or numba;
- `solver.search.native` calls every entry on numpy arrays when the process prefers it to the
  JIT (`native.prefer_library`): the CLI's commands, and a library user's first call while
  numba's cache is cold.

Both go through the same file, built from the same sources by `library_build.build`:

1. numba compiles each entry with the exact signature `native.ENTRIES` declares
   (`numba.pycc.compiler.ModuleCompiler`: numba's ahead-of-time lowering, kept for its object
   output; no Python extension is made), for the generic CPU of the architecture (the file
   may move to another machine of the same kind, e.g. inside a container image);
2. the C compiler compiles numba's runtime, a constructor that starts it and the packed twins,
   and links them all (`-Bsymbolic`: the library's own runtime, whatever else the process has loaded);
   and each entry's packed twin (`PACKED_SUFFIX`: the arguments as one buffer of words,
   what `native` and `bare` call);
3. **the library proves itself**: a fixed set of hands (`library_build.SELF_CHECK_HANDS`) is solved once with
   the JIT and once with the new library; unless every grid, status and node count agree and
   every entry was called, the build fails and nothing is installed;
4. it is moved into place with its layout file (`LAYOUT`), written last: what `bare` must know
   of the kernels (array shapes, state slots, status codes, the first pass's settings), the
   calling convention the kernels were lowered with (`CALLING_CONVENTION`, checked against
   numba's lowering at build time and against this module's text at load), the numba and
   numpy it was built with, and the key.

The key hashes what the machine code depends on: every file of `solver.search.kernels`, the
modules in `SOURCES`, this `FORMAT`, the Python version, the machine, numba's and numpy's
versions (read from their installed metadata without importing them). A library whose layout
file names another key or another convention is never loaded.

Where it lives: solver/search/compiled/<key>/ when the package's build made it
(`solver.search.prebuilt`; ignored with BANANAS_PREBUILT=0), else $BANANAS_CACHE/kernels/<key>/,
built by `bananas warm-up` or a first run's background build (one process at a time: an flock
on `<key>.lock`; a failed build leaves `<key>.failed` saying why, and the JIT serves). Building
needs a C and C++ compiler and setuptools (numba drives the compiler through it).
BANANAS_FAST_START=0 (or NUMBA_DISABLE_JIT=1) turns the library off: every kernel runs on the JIT.

`solver.search.library_build` builds it; this module finds it (and imports no numpy).

    python -m solver.search.library_build      # build it into the cache now (bananas warm-up does)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from solver.lexicon.files import cache_root, prebuilt_wanted

FORMAT = 2  # bump to invalidate every built library
LIBRARY = "_bananas_kernels.so"
LAYOUT = "_bananas_kernels.json"
# Beside the kernels, the modules whose code decides what the library computes, how it is
# called and what its layout file says.
SOURCES = ("solving.py", "plans.py", "bare.py", "native.py", "library.py", "library_build.py", "numba_internals.py")
# How `bare` and `native` call an entry, as numba 0.59-0.68 lower it: the build checks numba
# still does (`verify_calling_convention`) and stamps the layout file with this text; a library
# stamped otherwise is never called.
CALLING_CONVENTION = (
    "numba-cpu/1: int32 status(void *result, void *exception, arguments...); an array as meminfo, parent, "
    "nitems, itemsize, data, shape[ndim], strides[ndim] (64-bit words); a tuple as its fields; int64; double; "
    "packed/1: int32 NAME_packed(void *result, void *exception, const int64 *words), the same arguments "
    "as consecutive 64-bit words (a double as its bits)"
)
# Each entry's packed twin, a C function the build generates (`library_build.packed_source`):
# it takes the flattened arguments as one buffer of words and calls the entry with them, so a
# call through ctypes converts three arguments, not the hundreds of a workspace's arrays.
PACKED_SUFFIX = "_packed"
ARRAY_FIELDS = ("meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides")


def enabled() -> bool:
    """False when BANANAS_FAST_START=0, or numba's JIT is disabled (the kernels then run as
    Python, as asked): every kernel runs on the JIT, no library is built or loaded."""
    jit_disabled = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
    return os.environ.get("BANANAS_FAST_START", "1") != "0" and not jit_disabled


def installed_version(package: str) -> str:
    """`package`'s version from its installed metadata folder, without importing it (numpy's
    import alone is 0.15 s of a 0.3 s `bananas solve`); '?' when it has none."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return "?"
    folder = Path(spec.origin).parent.parent
    found = sorted(path.name for path in folder.glob(f"{package}-*.dist-info"))
    return found[-1][len(package) + 1 : -len(".dist-info")] if found else "?"


def key() -> str:
    """What a library is built for (module docstring)."""
    from solver.search import kernels  # the package alone: no kernel module, no numpy

    machine = os.uname().machine if hasattr(os, "uname") else sys.platform  # `platform`: 9 ms of import
    toolchain = f"numba {installed_version('numba')}, numpy {installed_version('numpy')}"
    digest = hashlib.sha256(f"{FORMAT}|{sys.version}|{machine}|{toolchain}".encode())
    kernels.add_files(digest, [*kernels.sources(), *(Path(__file__).with_name(name) for name in SOURCES)])
    return digest.hexdigest()[:24]


def cache_dir() -> Path:
    """$BANANAS_CACHE/kernels/<key>: where warm-up or a first run's build puts the library."""
    return cache_root() / "kernels" / key()


PREBUILT_ROOT = Path(__file__).with_name("compiled")  # where the package's build puts it


def prebuilt_dir() -> Path:
    """solver/search/compiled/<key>: the library built when the package was installed."""
    return PREBUILT_ROOT / key()


def find() -> tuple[Path, dict] | None:
    """(library, layout) built from these sources: the package's own (not with
    BANANAS_PREBUILT=0), else the cache's; None when neither is."""
    wanted = key()
    for folder in (prebuilt_dir(), cache_dir()) if prebuilt_wanted() else (cache_dir(),):
        try:
            layout = json.loads((folder / LAYOUT).read_text())
        except (OSError, ValueError):
            continue
        convention = layout.get("calling_convention") == CALLING_CONVENTION
        if layout.get("key") == wanted and convention and (folder / LIBRARY).is_file():
            return folder / LIBRARY, layout
    return None


def state() -> str:
    """'built', 'failed' (a build failed here before: `failure_note` says why) or 'missing'."""
    if find() is not None:
        return "built"
    return "failed" if failure_note().is_file() else "missing"


# -- one build at a time ---------------------------------------------------------------------


def build_lock() -> Path:
    """Held (flock) by the process building the cache's library: one build at a time per key."""
    directory = cache_dir()
    return directory.with_name(directory.name + ".lock")


def failure_note() -> Path:
    directory = cache_dir()
    return directory.with_name(directory.name + ".failed")


def note_failure(reason: str) -> None:
    """Record why the library could not be built; later runs use the JIT without retrying."""
    note = failure_note()
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(reason + "\n")


@contextlib.contextmanager
def holding(lock: Path, wait: bool) -> Iterator[bool]:
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


def build_in_progress() -> bool:
    """True while another process builds the library."""
    with holding(build_lock(), wait=False) as free:
        return not free


def wait_for_build() -> None:
    """Return once no process is building the library."""
    with holding(build_lock(), wait=True):
        pass
