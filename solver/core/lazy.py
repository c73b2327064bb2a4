"""Names a package exports but loads on first use, so that importing the package stays light
(`import solver` imports neither numpy nor numba; `bananas --help` imports no command)."""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # `typing` costs some 15 ms of import; the plain `bananas solve` needs none of it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def lazy_exports(package: str, defined_in: dict[str, str]) -> Callable[[str], Any]:
    """A module-level `__getattr__` for `package`: `defined_in` maps each exported name to the
    module that defines it, imported when the name is first asked for; any other name raises
    AttributeError as for an ordinary module."""

    def __getattr__(name: str) -> Any:
        if name in defined_in:
            return getattr(import_module(defined_in[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
