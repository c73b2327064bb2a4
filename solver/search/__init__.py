"""Grid search: the numba kernels (`kernels`) and their pure-Python references (`reference`),
`solve` / `extend` with their buffers, phases, deadlines and proofs (`solving`), what a solve
optimises (`objectives`), and live play on a grid being built (`board`: PEEL / DUMP rebuilds).

`from solver.search import solve` works as before; the numba-backed modules load on first use,
so importing `solver.search.objectives` or `solver.search.reference` stays light.
"""

from __future__ import annotations

_LAZY = {
    "solve": "solving",
    "extend": "solving",
    "Solution": "solving",
    "warm_kernels": "solving",
    "Board": "board",
    "dump_advice": "board",
}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_LAZY)
