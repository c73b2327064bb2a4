"""The bare solve: `bananas solve HAND` without importing numpy, numba or marisa-trie.

A warm `bananas solve` of 21 tiles spent most of its time importing (numpy alone ~0.15 s on
the benchmark machine, half the whole process); the search itself takes milliseconds. So the
plain command - one hand of 2 to `layout["up_to"]` letters, default options - first tries this
path: the move model's first pass (the small hands' first pass of `solving.engine_plan('any')`) run by the very `search`
kernel the other paths run, compiled ahead of time into a plain shared library (C calling
convention, numba's runtime for its allocations, no Python API) that `ctypes` calls on buffers
this module maps itself:

- the word graph: the lexicon cache's `.npy` files (`solver.lexicon.files` says where),
  memory-mapped, their header parsed by `_map_npy`;
- the workspace: one anonymous memory map per array of `kernels.layout.Workspace` (zeroed pages).

`build` makes the library and its layout file together (with numba and numpy: at install time
or in a first run's background build, `solver.search.native`). The layout file records what
this module must know of the kernels and the solver - array types and shapes per board size,
state slots, frame columns, status codes, the first pass's settings, the move ordering - so no
number is written twice, and a key over the sources it was built from (every file of
`solver.search.kernels`, `solving` and this module): a library built from other sources is
never used.

Only a grid found by the first pass is answered here (most hands: the first pass is where
`solve` ends for about 98% of 21-tile hands); anything else - no library, a word list whose
cache is not built yet, no grid in the first pass - returns None and the caller runs the full
solver (which repeats the first pass, a few milliseconds, and goes on). tests/search/test_bare.py
checks that both paths give the same grid and node count.

Arguments, as numba's CPU calling convention lowers them (`numba.core.callconv`): the kernel
returns an int32 status and takes a pointer for its return value and one for exception
details, then every argument flattened: a NamedTuple as its fields in order; an array as
(meminfo, parent, item count, item size, data pointer, shape..., strides...); an int as an
int64; a float as a double.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import math
import mmap
import os
import re
import sys
from pathlib import Path

from solver.lexicon.files import arrays_dir, arrays_key, cache_root, prebuilt_wanted

FORMAT = 1  # bump to invalidate every built library
LIBRARY = "_bananas_bare.so"
LAYOUT = "_bananas_bare.json"
SYMBOL = "search"
# Beside the kernels, the modules whose code decides what the library computes and what the
# layout file says.
SOURCES = ("solving.py", "bare.py")
# How this module calls the kernel (`BareSolver.solve`), as numba 0.59-0.68 lower it: the build
# checks numba still does (`_verify_calling_convention`) and stamps the layout file with this
# text; a library stamped otherwise is never called.
CALLING_CONVENTION = (
    "numba-cpu/1: int32 status(void *result, void *exception, arguments...); an array as meminfo, parent, "
    "nitems, itemsize, data, shape[ndim], strides[ndim] (64-bit words); a tuple as its fields; int64; double"
)
ARRAY_FIELDS = ("meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides")
_FORMATS = {"i1": "b", "u1": "B", "i4": "i", "i8": "q", "f8": "d"}  # numpy dtype -> memoryview format


def key() -> str:
    """What a library is built for: its sources (every kernel module's: a kernel holds the code
    of those it calls; then `SOURCES`), this format, the Python and the machine."""
    from solver.search import kernels  # the package alone: no kernel module, no numpy

    machine = os.uname().machine if hasattr(os, "uname") else sys.platform  # `platform`: 9 ms of import
    digest = hashlib.sha256(f"{FORMAT}|{sys.version}|{machine}".encode())
    kernels.add_files(digest, [*kernels.sources(), *(Path(__file__).with_name(name) for name in SOURCES)])
    return digest.hexdigest()[:24]


def cache_dir() -> Path:
    """$BANANAS_CACHE/bare/<key>: where a first run's background build puts the library."""
    return cache_root() / "bare" / key()


def prebuilt_dir() -> Path:
    """solver/search/compiled/bare/<key>: where the package's build puts it (solver.search.prebuilt)."""
    return Path(__file__).with_name("compiled") / "bare" / key()


def enabled() -> bool:
    """False when BANANAS_BARE=0 or BANANAS_FAST_START=0 (every solve takes the full path), or
    when numba's JIT is disabled (the kernels then run as Python, as asked)."""
    jit_disabled = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
    off = "0" in (os.environ.get("BANANAS_BARE", "1"), os.environ.get("BANANAS_FAST_START", "1"))
    return not (jit_disabled or off)


def find() -> tuple[Path, dict] | None:
    """(library, layout) built from these sources: the package's own (built at install; not
    with BANANAS_PREBUILT=0), else the cache's; None when neither is."""
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


# -- buffers -----------------------------------------------------------------------------------


class Buffer:
    """A C-contiguous array in a memory map, as the kernel sees a numpy array."""

    def __init__(self, memory: mmap.mmap, offset: int, dtype: str, shape: tuple[int, ...]):
        self.memory = memory  # held: the address below is valid while the map lives
        self.itemsize = int(dtype[1:])
        self.shape = shape
        self.size = 1
        for extent in shape:
            self.size *= extent
        self.bytes = memoryview(memory)[offset : offset + self.size * self.itemsize]
        self.items = self.bytes.cast(_FORMATS[dtype])  # type: ignore[call-overload]  # a format from the table
        self.address = ctypes.addressof(ctypes.c_char.from_buffer(memory, offset))

    def fill(self, value: int) -> None:
        self.bytes[:] = value.to_bytes(self.itemsize, sys.byteorder, signed=True) * self.size

    def arguments(self) -> list[int]:
        """The array's flattened fields (no meminfo, no parent: the kernel does not own it)."""
        strides: list[int] = []
        stride = self.itemsize
        for extent in reversed(self.shape):
            strides.insert(0, stride)
            stride *= extent
        return [0, 0, self.size, self.itemsize, self.address, *self.shape, *strides]


_NPY_HEADER = re.compile(rb"'descr': '[<|](\w\d)', 'fortran_order': False, 'shape': \((\d+),\)")


def _map_npy(path: Path) -> Buffer:
    """A one-dimensional `.npy` file, mapped copy-on-write (ctypes wants a writable buffer; the
    kernel never writes the graph)."""
    with open(path, "rb") as file:
        memory = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)
    length_bytes = 2 if memory[6] == 1 else 4  # format version 1: a 2-byte header length
    header_end = 8 + length_bytes + int.from_bytes(memory[8 : 8 + length_bytes], "little")
    match = _NPY_HEADER.search(memory[:header_end]) if memory[:6] == b"\x93NUMPY" else None
    if match is None:
        raise ValueError(f"{path}: not a one-dimensional little-endian .npy array")
    return Buffer(memory, header_end, match.group(1).decode(), (int(match.group(2)),))


def _zeroed(dtype: str, shape: list[int]) -> Buffer:
    size = int(dtype[1:])
    for extent in shape:
        size *= extent
    return Buffer(mmap.mmap(-1, max(size, 1)), 0, dtype, tuple(shape))


# -- the search --------------------------------------------------------------------------------


class BareSolver:
    """The library, a lexicon's word graph and workspaces: `solve` runs the first pass."""

    def __init__(self, library: Path, layout: dict, lexicon_dir: Path):
        self.layout = layout
        self.graph = [_map_npy(lexicon_dir / f"{name}.npy") for name in layout["graph"]]
        self.ordering = _zeroed("f8", [len(layout["ordering"]["letter"])])
        for index, weight in enumerate(layout["ordering"]["letter"]):
            self.ordering.items[index] = weight
        self.kernel = getattr(ctypes.CDLL(str(library)), SYMBOL)
        self.kernel.restype = ctypes.c_int32
        self.spaces: dict[int, tuple[dict[str, Buffer], list]] = {}

    @classmethod
    def load(cls, lexicon: str = "en") -> BareSolver | None:
        """The solver for a lexicon whose cache is built, when a library is; else None."""
        found = find() if enabled() else None
        if found is None:
            return None
        lexicon_dir = arrays_dir(arrays_key(lexicon))
        if not (lexicon_dir / "skipped").is_file():  # written last: the cache is complete
            return None
        return cls(*found, lexicon_dir)

    def solve(self, counts: list[int]) -> tuple[list[str], int] | None:
        """(grid rows, nodes) when the first pass finds a grid for the 26 letter counts, else None
        (then the full solver decides: a longer search, a proof, or another answer)."""
        tile_count = sum(counts)
        if not 2 <= tile_count <= self.layout["up_to"]:
            return None
        space, arguments = self._space(tile_count)
        side = self._start(space, counts)
        slot, column = self.layout["state"], self.layout["frame"]
        result, error = ctypes.c_void_p(), ctypes.c_void_p()
        if self.kernel(ctypes.byref(result), ctypes.byref(error), *arguments) != 0:
            return None  # an exception in the kernel (it raises none): the full path decides
        state = space["state"].items
        if state[slot["ST_STATUS"]] != self.layout["status"]["SOLVED"]:
            return None
        width = space["frames"].shape[1]
        frame = space["frames"].items[state[slot["ST_DEPTH"]] * width :]
        rmin, rmax, cmin, cmax = (frame[column[name]] for name in ("F_RMIN", "F_RMAX", "F_CMIN", "F_CMAX"))
        cells, text = space["grid"].items, "." + self.layout["alphabet"]
        rows = ["".join(text[cells[r * side + c]] for c in range(cmin, cmax + 1)) for r in range(rmin, rmax + 1)]
        return rows, state[slot["ST_NODES"]]

    def _space(self, tile_count: int) -> tuple[dict[str, Buffer], list]:
        """The workspace for the smallest board size taking `tile_count` tiles (made once), and
        the kernel's flattened arguments over it (the argument types set to match)."""
        size = min(int(size) for size in self.layout["workspaces"] if tile_count <= int(size))
        if size not in self.spaces:
            fields = self.layout["workspaces"][str(size)]
            space = {name: _zeroed(dtype, shape) for name, dtype, shape in fields}
            arguments = [
                value for buffer in [*space.values(), *self.graph, self.ordering] for value in buffer.arguments()
            ]
            scalars = [float(value) for value in self.layout["ordering"]["scalars"]]
            self.spaces[size] = space, arguments + scalars
        space, arguments = self.spaces[size]
        integers = len(arguments) - len(self.layout["ordering"]["scalars"])
        self.kernel.argtypes = (
            [ctypes.c_void_p] * 2 + [ctypes.c_int64] * integers + [ctypes.c_double] * (len(arguments) - integers)
        )
        return space, arguments

    def _start(self, space: dict[str, Buffer], counts: list[int]) -> int:
        """Set the buffers as `solving._Run` does for a first pass from an empty board; the side."""
        slot, column, first = self.layout["state"], self.layout["frame"], self.layout["first_pass"]
        side = math.isqrt(space["grid"].size)  # the board is square
        space["grid"].fill(0)
        space["cross"].fill(self.layout["constants"]["FULL"])
        space["frames"].fill(0)
        state = space["state"].items
        stamp = state[slot["ST_STAMP"]] + 1
        space["state"].fill(0)
        for code, count in enumerate(counts):
            space["hand"].items[code] = count
        # Minimum word length 2: the plain command's default (any option takes the full path).
        settings = {"ST_STAMP": stamp, "ST_SIDE": side, "ST_HAND": sum(counts), "ST_MIN_LEN": 2}
        settings |= {"ST_MAX_BRANCH": first["max_branch"], "ST_GEN_BUDGET": first["gen_budget"]}
        settings |= {"ST_NODE_LIMIT": first["node_limit"]}  # one call: node caps are met exactly
        for name, value in settings.items():
            state[slot[name]] = value
        for name in ("F_RMIN", "F_RMAX", "F_CMIN", "F_CMAX"):
            space["frames"].items[column[name]] = side // 2  # frame 0's box: the centre cell
        space["rng"].items[0] = 0  # no seed
        return side


# -- building ----------------------------------------------------------------------------------


def build_into_cache() -> str:
    """Build the library into the cache unless one is found; '' when there is one, else why not
    (for a first run's background build and `bananas warm-up`; the full path serves meanwhile)."""
    from solver.search import native  # builds only: numpy

    if find() is not None:
        return ""
    blocker = native.build_blocker()  # the same needs as the fast-start extension's
    if blocker:
        return blocker
    try:
        build(cache_dir())
    except Exception as error:  # no compiler, a numba without pycc, ...: the full path serves
        return f"{type(error).__name__}: {error}".strip()
    return ""


def build(directory: Path) -> None:
    """Compile the library and write its layout file into `directory` (numba, numpy and a C
    compiler needed: some 10 s). Raises on failure; the caller decides whether that matters."""
    import tempfile
    import warnings

    import numba
    from numba.pycc.compiler import ExportEntry, ModuleCompiler

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is "pending deprecation"; the full path stays
        from numba.pycc.platform import Toolchain

    from solver.search import native, solving
    from solver.search.kernels import layout as kernel_layout
    from solver.search.kernels import movesearch

    native.bind_jit()  # the entry's callees compile through their dispatchers
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory, prefix=".build-") as staging:
        work = Path(staging)
        result, arguments = native.ENTRIES[SYMBOL]
        signature = native._numba_signature(result, arguments)
        _verify_calling_convention(signature)
        entry = ExportEntry(SYMBOL, signature, movesearch.search.py_func)
        ModuleCompiler([entry], "bananas_bare", use_nrt=True, cpu_name="").write_native_object(
            str(work / "search.o"), wrap=False
        )
        # numba's runtime (the kernel's allocations), set up when the library loads.
        (work / "start.c").write_text(
            "void NRT_MemSys_init(void);\n"
            "__attribute__((constructor)) static void bananas_bare_start(void) { NRT_MemSys_init(); }\n"
        )
        runtime = Path(numba.__file__).parent
        toolchain = Toolchain()
        objects = toolchain.compile_objects(
            [str(runtime / "core" / "runtime" / "nrt.cpp"), str(work / "start.c")],
            str(work),
            include_dirs=[str(runtime)],
            extra_cflags=["-fPIC"],
        )
        toolchain.link_shared(str(work / LIBRARY), [str(work / "search.o"), *objects])
        stamp = {"calling_convention": CALLING_CONVENTION, "numba": numba.__version__}
        (work / LAYOUT).write_text(json.dumps({**layout(kernel_layout, solving), **stamp}, indent=1))
        for name in (LIBRARY, LAYOUT):  # the layout last: `find` reads it first
            os.replace(work / name, directory / name)


def _verify_calling_convention(signature) -> None:
    """Raise unless numba lowers `signature` the way `BareSolver` calls it (CALLING_CONVENTION):
    a numba that changed its array model or argument packing builds no library (the full
    path serves) instead of one that a ctypes call would crash."""
    from numba.core import types
    from numba.core.datamodel import default_manager
    from numba.core.registry import cpu_target

    def words(kind) -> list[str]:
        if isinstance(kind, types.Array):
            return ["word"] * (5 + 2 * kind.ndim)
        if isinstance(kind, types.BaseTuple):
            return [word for field in kind.types for word in words(field)]  # type: ignore[attr-defined]
        return {types.int64: ["word"], types.float64: ["double"]}.get(kind, [str(kind)])

    def lowered(llvm_type) -> str:
        text = str(llvm_type)
        return "word" if text in ("i64", "ptr") or text.endswith("*") else text

    function = cpu_target.target_context.call_conv.get_function_type(signature.return_type, signature.args)
    expected = ["word", "word", *(word for kind in signature.args for word in words(kind))]
    found = [lowered(argument) for argument in function.args]
    fields = default_manager.lookup(types.Array(types.int64, 1, "C"))._fields
    if str(function.return_type) != "i32" or found != expected or tuple(fields) != ARRAY_FIELDS:
        raise RuntimeError(f"numba's calling convention changed ({function}); the library needs {CALLING_CONVENTION}")


def layout(kernels, solving) -> dict:
    """What `BareSolver` needs to know, read from the modules themselves (`kernels`: the
    kernels' `layout` module)."""
    from types import SimpleNamespace

    from solver.core.tiles import ALPHABET
    from solver.lexicon.dawg import ARRAY_NAMES

    def graph_files(prefix: str) -> SimpleNamespace:
        return SimpleNamespace(**{name: f"{prefix}.{name}" for name in ARRAY_NAMES})

    up_to = solving.EXHAUSTIVE_UP_TO
    sizes = sorted({solving.workspace_size(count) for count in range(2, up_to + 1)})
    first = solving.engine_plan("any").small_hands[0]
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
