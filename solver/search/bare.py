"""The bare solve: `bananas solve HAND` without importing numpy, numba or marisa-trie.

A warm `bananas solve` of 21 tiles spent most of its time importing (numpy alone ~0.15 s on
the benchmark machine, half the whole process); the search itself takes milliseconds. So the
plain command - one hand of 2 to `layout["up_to"]` letters, default options - first tries this
path: the move model's first pass (`solving.engine_plan('any').small_first_pass()`) run by the very `search`
kernel the other paths run, compiled ahead of time into a plain shared library (C calling
convention, numba's runtime for its allocations, no Python API) that `ctypes` calls on buffers
this module maps itself:

- the word graph: the lexicon cache's `.npy` files (`solver.lexicon.files` says where),
  memory-mapped, their header parsed by `_map_npy`;
- the workspace: one anonymous memory map per array of `kernels.layout.Workspace` (zeroed pages).

The library is `solver.search.library`'s, the one every fast path uses; its layout file records
what this module must know of the kernels and the solver - array types and shapes per board
size, state slots, frame columns, status codes, the first pass's settings, the move ordering -
so no number is written twice.

Only a grid found by the first pass is answered here (most hands: the first pass is where
`solve` ends for about 98% of 21-tile hands); anything else - no library, a word list whose
cache is not built yet, no grid in the first pass - returns None and the caller runs the full
solver (which repeats the first pass, a few milliseconds, and goes on). tests/search/test_bare.py
checks that both paths give the same grid and node count.

Arguments are passed as `library.CALLING_CONVENTION` says, packed in one buffer of words.
"""

from __future__ import annotations

import array
import ctypes
import math
import mmap
import os
import re
import sys
from pathlib import Path

from solver.lexicon.files import arrays_dir, arrays_key
from solver.search import library
from solver.search.library import PACKED_SUFFIX

SYMBOL = "search"
_FORMATS = {"i1": "b", "u1": "B", "i4": "i", "i8": "q", "f8": "d"}  # numpy dtype -> memoryview format


def enabled() -> bool:
    """False when BANANAS_BARE=0, or the library is off (`library.enabled`): every solve takes
    the full path."""
    return os.environ.get("BANANAS_BARE", "1") != "0" and library.enabled()


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
        self.kernel = getattr(ctypes.CDLL(str(library)), SYMBOL + PACKED_SUFFIX)  # the words in one buffer
        self.kernel.restype = ctypes.c_int32
        self.kernel.argtypes = [ctypes.c_void_p] * 3
        self.spaces: dict[int, tuple[dict[str, Buffer], array.array]] = {}

    @classmethod
    def load(cls, lexicon: str = "en") -> BareSolver | None:
        """The solver for a lexicon whose cache is built, when a library is; else None."""
        found = library.find() if enabled() else None
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
        if self.kernel(ctypes.byref(result), ctypes.byref(error), arguments.buffer_info()[0]) != 0:
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

    def _space(self, tile_count: int) -> tuple[dict[str, Buffer], array.array]:
        """The workspace for the smallest board size taking `tile_count` tiles (made once), and
        the kernel's flattened arguments over it, packed as 64-bit words (a double as its bits)."""
        size = min(int(size) for size in self.layout["workspaces"] if tile_count <= int(size))
        if size not in self.spaces:
            fields = self.layout["workspaces"][str(size)]
            space = {name: _zeroed(dtype, shape) for name, dtype, shape in fields}
            arguments = [
                value for buffer in [*space.values(), *self.graph, self.ordering] for value in buffer.arguments()
            ]
            scalars = array.array("d", [float(value) for value in self.layout["ordering"]["scalars"]])
            self.spaces[size] = space, array.array("q", arguments + array.array("q", scalars.tobytes()).tolist())
        return self.spaces[size]

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
