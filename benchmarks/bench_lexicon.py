"""Lexicon load times: cold build (empty cache) and warm load (cache filled), per word list.

    python benchmarks/bench_lexicon.py [--record]

Each load runs in a fresh process so nothing is shared through memory; the warm figure
is the median of five loads.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import date

from results_file import machine, record

LOAD = (
    "import sys, time; from solver.lexicon.loader import load_lexicon; t = time.perf_counter(); "
    "lex = load_lexicon(sys.argv[1]); "
    "print(round((time.perf_counter() - t) * 1000, 2), len(lex), lex.forward.node_count, "
    "len(lex.forward.edge_label), lex.reverse.node_count)"
)


def load_once(name: str, cache: str) -> list[str]:
    env = dict(os.environ, BANANAS_CACHE=cache)
    out = subprocess.run([sys.executable, "-c", LOAD, name], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    lines = [
        f"# lexicon load benchmark, {date.today().isoformat()}",
        "",
        machine(),
        "",
        "| lexicon | words | DAWG nodes | DAWG edges | reversed DAWG nodes | cold build ms | warm load ms (median of 5) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in ("en", "fr"):
        with tempfile.TemporaryDirectory() as cache:
            cold_ms, words, nodes, edges, reverse_nodes = load_once(name, cache)
            warm = [float(load_once(name, cache)[0]) for _ in range(5)]
        lines.append(
            f"| {name} | {words} | {nodes} | {edges} | {reverse_nodes} | {cold_ms} | {statistics.median(warm):.2f} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "lexicon")


if __name__ == "__main__":
    main()
