"""What every benchmark script shares: the machine line and writing a dated result."""

from __future__ import annotations

import os
import platform
import sys
from datetime import date
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> str:
    return (
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}."
    )


def record(text: str, kind: str) -> None:
    """Write `text` to benchmarks/results/<today>-<kind>.md."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{date.today().isoformat()}-{kind}.md"
    path.write_text(text)
    print(f"wrote {path}", file=sys.stderr)


def provenance(*packages: str) -> str:
    """The commit measured and the versions of the packages that matter (numba, and any named)."""
    import subprocess
    from importlib.metadata import PackageNotFoundError, version

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True, cwd=RESULTS.parent
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, cwd=RESULTS.parent).stdout.strip()  # fmt: skip
        commit += " (with uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    found = []
    for package in ("numba", "numpy", *packages):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} (not installed)")
    return f"Commit {commit}; {', '.join(found)}."


def progress(items, label: str, unit: str):
    """`items` under the command line's progress bar: shown only on a terminal (nothing when piped)."""
    from solver.cli.outputs import progress_bar

    return progress_bar(len(items), label, unit, items=items)
