"""What every benchmark script shares: the provenance line written with every result (machine,
load, commit, Python and package versions), a dated result file, and a progress bar."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from datetime import date
from importlib import metadata
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
REPOSITORY = RESULTS.parents[1]


def commit(tree: Path = REPOSITORY) -> str:
    """The checked-out commit, short, with ' (with uncommitted changes)' when the tree is dirty."""

    def git(*args: str) -> str:
        try:
            run = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True)
        except OSError:  # no git
            return ""
        return run.stdout.strip() if run.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return head + (" (with uncommitted changes)" if dirty else "")


def version(package: str) -> str:
    try:
        return metadata.version(package)  # read without importing the package
    except metadata.PackageNotFoundError:
        return "not installed"


def provenance(*packages: str) -> str:
    """The commit measured and the versions that matter: Python, numba, llvmlite, numpy, and any named."""
    found = [f"{package} {version(package)}" for package in ("numba", "llvmlite", "numpy", *packages)]
    return f"Commit {commit()}; Python {platform.python_version()}, {', '.join(found)}."


def machine(*packages: str) -> str:
    """The line every result file starts with: where, how busy, what code, which versions."""
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return (
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"load average {load} (1, 5, 15 min) at the start. {provenance(*packages)}"
    )


def record(text: str, kind: str) -> Path:
    """Write `text` to benchmarks/results/<today>-<kind>.md."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{date.today().isoformat()}-{kind}.md"
    path.write_text(text)
    print(f"wrote {path}", file=sys.stderr)
    return path


def latest(kind: str) -> Path | None:
    """The most recent recorded result of this kind (file names sort by date)."""
    found = sorted(RESULTS.glob(f"????-??-??-{kind}.md"))
    return found[-1] if found else None


def progress(items, label: str, unit: str):
    """`items` under the command line's progress bar: shown only on a terminal (nothing when piped)."""
    from solver.cli.outputs import progress_bar

    return progress_bar(len(items), label, unit, items=items)
