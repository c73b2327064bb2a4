"""All numba code, one module per concept; each module's Python side is named in its docstring.

  `layout`      the move search's bundles (`Graph`, `Ordering`, `Workspace`), their
                constructors and the slots and columns of its arrays (plain Python, no kernel);
  `crosschecks` run scanning (the validator's fast twin) and the cross-check masks;
  `movegen`     move generation: the words from each anchor, scored for ordering;
  `movesearch`  the resumable grid-building search (`search`: apply, undo, expand, rank) and
                `lay_grid`, which starts it from an existing grid (`solver.search.solving`);
  `spelling`    the walk over the words a hand spells (`hostable_letters`,
                `word_letter_counts`: `solver.search.proofs`, `solver.search.wordsearch`);
  `resumable`   the loop head the two complete searches share;
  `wordsearch`  the word search's kernel (`solver.search.wordsearch` is its Python side);
  `exact`       the cell-by-cell search's kernel (`solver.search.exact`).

Every kernel takes flat numpy arrays, or `typing.NamedTuple`s of them (no typed List/Dict,
no globals, no recursion), and is compiled with `cache=True` and `nogil=True` (they touch
no Python objects, so server sessions in worker threads can search on both cores at once).
Each has a pure-Python reference it is tested against: `scan_runs` against
`solver.core.grid.validate`, `generate_moves` against
`solver.search.reference.generate_moves_reference`, and the search through the validator on
its output (and `exhaustive_grid_exists` for its no-grid answers on small hands).

Kernels call kernels of other modules of this package (imported by name), and read their
constants, which numba freezes into the caller's machine code. numba's `cache=True` checks only
the caller's own file, so `solver.search.native` binds the package's kernels together and keys
numba's cache folder and the compiled library (`solver.search.library`) by a hash of every
file here (`sources`): a change to any of them compiles everything afresh.
Nothing here imports numba; `solver.search.native` binds the kernels on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def sources() -> list[Path]:
    """Every source file of the kernels, in a fixed order (what their compiled code depends on)."""
    return sorted(Path(__file__).parent.glob("*.py"))


def add_files(digest: Any, paths: list[Path]) -> None:
    """Feed each file's name, length and bytes to `digest` (a hashlib object): a key changes when
    any file is edited, renamed, added or removed."""
    for path in paths:
        source = path.read_bytes()
        digest.update(f"{path.name}:{len(source)}\n".encode())
        digest.update(source)
