"""Cold start of an installed `bananas`: a fresh virtual environment, `pip install` of a clean
clone of this checkout, then each hand's first `bananas solve` with empty caches.

    python benchmarks/bench_coldstart.py [--venv DIR] [--runs N] [--hands H1,H2,...] [--record]

The install is timed as a user would run it (`pip install SOURCE`, build isolation, empty
NUMBA_CACHE_DIR; the package's build compiles the kernels' library and the en word-list
arrays, setup.py); `--venv` reuses an environment already installed instead. The clone has no
artifact an editable install left in the checkout, so nothing is reused. Every solve is a
fresh process with an empty BANANAS_CACHE and NUMBA_CACHE_DIR, run from an empty folder;
each line gives the median wall time (and CPU time, children included), the load average
beside it, the solve's own summary line, and whether it left anything built in the cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_file import REPOSITORY, machine, record

HANDS = {
    "easy 21 tiles": "AEEIRSTQUNLDOGCABHMPR",
    "hard 11 tiles (issue 24)": "BEFJLQSTUVW",
    "vowel-poor 21 tiles, solved": "ABLMNNNPRRRSSSSSTTTUZ",
    "vowel-poor 21 tiles, no-grid proof": "ABCHJLLLMMNNRSSSSTTTV",
    "vowel-poor 21 tiles, slow proof": "DDDEFNNNORRRRRRSSSTTT",
}
TARGET_SECONDS = 3.0


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """(wall s, CPU s with children, the last line of stdout) of one process."""
    before = os.times()
    started = time.perf_counter()
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    lines = result.stdout.strip().splitlines() or [f"exit {result.returncode}: {result.stderr.strip()[-200:]}"]
    return wall, cpu, lines[-1]


def install(venv: Path, scratch: Path) -> str:
    """A clean clone of this checkout's HEAD, installed into a new venv; the figure's line."""
    source = scratch / "source"
    subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(source)], check=True)
    head = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "HEAD"], capture_output=True, text=True)
    subprocess.run(["git", "-C", str(source), "checkout", "-q", head.stdout.strip()], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = cold_env(scratch / "install-caches")
    at = load()
    wall, cpu, _ = timed([str(venv / "bin" / "pip"), "install", "--quiet", str(source)], env, scratch)
    return f"- install (`pip install` of a clean clone, build isolation, empty caches): {wall:.1f} s ({cpu:.1f} s CPU), load {at}"


def cold_env(caches: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "BANANAS_FAST_START")}
    env.update(BANANAS_CACHE=str(caches / "bananas"), NUMBA_CACHE_DIR=str(caches / "numba"))
    return env


def cold_solves(
    venv: Path, hand: str, runs: int, scratch: Path
) -> tuple[list[float], list[float], str, str, list[str]]:
    walls, cpus, loads, built = [], [], [], []
    summary = ""
    for run in range(runs):
        caches = scratch / f"caches-{hand}-{run}"
        elsewhere = scratch / f"cwd-{hand}-{run}"
        elsewhere.mkdir()
        loads.append(load())
        wall, cpu, summary = timed([str(venv / "bin" / "bananas"), "solve", hand], cold_env(caches), elsewhere)
        walls.append(wall)
        cpus.append(cpu)
        built += sorted(path.name for path in (caches / "bananas").glob("*") if not path.name.startswith("."))
    return walls, cpus, summary, "/".join(loads), sorted(set(built))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="an environment with bananas installed already (skips the install)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hands", help="comma-separated hands instead of the default five")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/<date>-coldstart.md")
    args = parser.parse_args()
    hands = {hand: hand for hand in args.hands.split(",")} if args.hands else {v: k for k, v in HANDS.items()}
    lines = [machine(), ""]
    with tempfile.TemporaryDirectory(prefix="bananas-coldstart-") as scratch_name:
        scratch = Path(scratch_name)
        venv = args.venv or scratch / "venv"
        if args.venv is None:
            lines.append(install(venv, scratch))
            print(lines[-1], file=sys.stderr, flush=True)
        for hand, label in hands.items():
            walls, cpus, summary, loads, built = cold_solves(venv, hand, args.runs, scratch)
            verdict = "within" if statistics.median(walls) <= TARGET_SECONDS else "OVER"
            lines.append(
                f"- cold first `bananas solve {hand}` ({label}): {statistics.median(walls):.2f} s "
                f"({statistics.median(cpus):.2f} s CPU), max {max(walls):.2f} s, {verdict} {TARGET_SECONDS:.0f} s; "
                f"load {loads}; `{summary}`; left in the cache: {', '.join(built) or 'nothing'}"
            )
            print(lines[-1], file=sys.stderr, flush=True)
    text = "\n".join(["# cold start of an installed bananas", "", *lines, ""])
    if args.record:
        record(text, "coldstart")
    else:
        print(text)


if __name__ == "__main__":
    main()
