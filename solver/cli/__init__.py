"""The `bananas` command line: the console script `plain.run`, the click group `main`
(`group`), the commands by concern (`grids`, `play`, `tournaments`, `spellevate`, `coach`,
`engine`, `warmup`).

Importing this package imports nothing else - not click either - so that the console script
can answer the plain `bananas solve HAND` on the bare path (`plain`) before the group and its
dependencies load; `from solver.cli import main` loads the group.
"""

from __future__ import annotations

import os

from solver.core.lazy import lazy_exports

# No command does linear algebra, and OpenBLAS (loaded with numpy) starts a thread per core at
# numpy's import: about 0.1 s of CPU on a warm `bananas solve` of 0.2 s. A user's setting stays.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

_LAZY = {name: "solver.cli.group" for name in ("main", "COMMANDS", "LazyGroup", "command_docstrings")}

__getattr__ = lazy_exports(__name__, _LAZY)

__all__ = list(_LAZY)
