"""What each numba kernel costs to compile on a cold cache, apart from steady-state solving.

    python benchmarks/bench_compile.py            # a table on stdout
    python benchmarks/bench_compile.py --json
    python benchmarks/bench_compile.py --record    # also write benchmarks/results/<date>-compile.md

In a fresh process with an empty NUMBA_CACHE_DIR it runs the first `solve` and `extend` calls
and the letter-count proof's kernel, recording numba's compile events: per compiled function
its exclusive time (its own compile, callees excluded; numba's library code such as the
argsort quicksort is listed under its own names) and how many specialisations it got. Then a
second fresh process with the cache filled measures the same calls loading from the cache.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import date

from bench_solve import versions
from results_file import machine, record

PROBE = r"""
import json, time
from numba.core import event
from solver.core.grid import Grid
from solver.lexicon.loader import get_lexicon
from solver.search.proofs import word_count_vectors
from solver.search.solving import extend, solve
from solver.core.tiles import TileCounts
lexicon = get_lexicon("en")
recorder = event.RecordingListener()
event.register("numba:compile", recorder)
calls = {}
for name, call in (
    ("solve", lambda: solve("AEEIRSTQUNL", lexicon, time_limit=600)),
    ("extend", lambda: extend(Grid.from_rows(["AT"]), "C", lexicon, time_limit=600)),
    ("proof words", lambda: word_count_vectors(TileCounts.from_letters("CATMAP"), lexicon, 2)),
):
    started, cpu = time.perf_counter(), time.process_time()
    call()
    calls[name] = {"wall_ms": (time.perf_counter() - started) * 1000, "cpu_ms": (time.process_time() - cpu) * 1000}
stack, rows = [], {}
for stamp, ev in recorder.buffer:  # compile events nest: a kernel's compile holds its callees'
    name = ev.data["dispatcher"].py_func.__name__
    if ev.is_start:
        stack.append([name, stamp, 0.0])
        continue
    name, start, children = stack.pop()
    inclusive = stamp - start
    if stack:
        stack[-1][2] += inclusive
    row = rows.setdefault(name, {"exclusive_ms": 0.0, "specialisations": 0})
    row["exclusive_ms"] += (inclusive - children) * 1000
    row["specialisations"] += 1
print(json.dumps({"calls": calls, "kernels": rows}))
"""


def probe(cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--record", action="store_true", help="write the tables to benchmarks/results/")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold, warm = probe(cache), probe(cache)
    if args.json:
        print(json.dumps({"cold": cold, "warm": warm}, indent=1))
        return
    lines = [f"# kernel compile benchmark, {date.today().isoformat()}", "", machine(), versions(), ""]
    lines += ["| call | cold wall ms | cold cpu ms | cached wall ms |", "|---|---|---|---|"]
    for name, cost in cold["calls"].items():
        lines.append(
            f"| {name} | {cost['wall_ms']:.0f} | {cost['cpu_ms']:.0f} | {warm['calls'][name]['wall_ms']:.0f} |"
        )
    lines += ["", "| compiled function (cold) | exclusive wall ms | specialisations |", "|---|---|---|"]
    kernels = sorted(cold["kernels"].items(), key=lambda item: -item[1]["exclusive_ms"])
    for name, row in kernels:
        lines.append(f"| {name} | {row['exclusive_ms']:.0f} | {row['specialisations']} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "compile")


if __name__ == "__main__":
    main()
