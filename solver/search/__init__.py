"""Grid search: the numba kernels (`kernels`) and their pure-Python references (`reference`),
`solve` / `extend` with their buffers, phases, deadlines and proofs (`solving`), what a solve
optimises (`objectives`), and live play on a grid being built (`board`: PEEL / DUMP rebuilds).

`from solver.search import solve` works as before; the numba-backed modules load on first use,
so importing `solver.search.objectives` or `solver.search.reference` stays light.
"""

from __future__ import annotations

from solver.core.lazy import lazy_exports

_LAZY = {
    "solve": "solver.search.solving",
    "extend": "solver.search.solving",
    "Solution": "solver.search.solving",
    "warm_kernels": "solver.search.solving",
    "Board": "solver.search.board",
    "dump_advice": "solver.search.board",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = list(_LAZY)
