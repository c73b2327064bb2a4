"""What every benchmark script shares: the provenance line (machine, commit, versions, load)
written with every result, and writing a dated result file."""

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
    """The checked-out commit, short, with ' + uncommitted changes' when the tree is dirty."""

    def git(*args: str) -> str:
        run = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True)
        return run.stdout.strip() if run.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD") or "unknown (not a git checkout)"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return head + (" + uncommitted changes" if dirty else "")


def version(package: str) -> str:
    try:
        return metadata.version(package)  # read without importing the package
    except metadata.PackageNotFoundError:
        return "not installed"


def machine() -> str:
    """The line every result file starts with: where, what code, which versions, how busy."""
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return (
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"load average {load} (1, 5, 15 min) at the start. Commit {commit()}. "
        f"Python {platform.python_version()}, numba {version('numba')}, llvmlite {version('llvmlite')}, "
        f"numpy {version('numpy')}, marisa-trie {version('marisa-trie')}."
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
