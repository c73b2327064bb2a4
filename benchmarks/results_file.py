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
