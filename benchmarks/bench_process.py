"""Whole process: a warm `bananas solve` against another solver's whole process, side by side.

    python benchmarks/bench_process.py [--against "CMD ARGS"] [--hands N] [--runs N] [--record]

Each run is one fresh process per hand, for bananas, (with --against) the other command and
bananas with its bare path off (BANANAS_BARE=0, the full solver: what `bananas solve` costs
when the numpy-free first pass cannot answer), alternating hand by hand, so all see the same
machine load. The other command gets the hand as its last argument, or wherever `{hand}` stands in it, e.g.

    --against "/tmp/peers/watson/target/release/watson --fresh --quiet --dict WORDS.txt"

(the Rust peer of docs: build it outside the repo, give it our own `en` list as WORDS.txt:
`python benchmarks/bench_process.py --write-words WORDS.txt`). Without --against, the figure
is set beside this project's previous recorded one (the latest `*-process.md`, else the warm
solve of the latest `*-startup.md`).

bananas runs as its console script does (`from solver.cli.plain import run; run()`, PYTHONPATH at
this checkout), warm: the word-list arrays and the compiled library are built first, in a
temporary BANANAS_CACHE (or the caches of the environment with --use-caches). Bytecode is
written and reused (PYTHONPYCACHEPREFIX in the temporary folder): an installed package has its
`.pyc` files, so a PYTHONDONTWRITEBYTECODE in the environment would only measure Python's
compiler. Each cell is the median wall time and the median CPU time (user + system, children
included) over runs x hands. The ratio is bananas / other: the target is <= 0.8.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from results_file import REPOSITORY, latest, machine, record

FIXED_HAND = "AEEIRSTQUNLDOGCABHMPR"  # the start-up benchmark's hand
RUN_MAIN = "import sys; from solver.cli.plain import run; sys.argv[0] = 'bananas'; run()"  # the console script
TARGET_RATIO = 0.8
PREVIOUS = re.compile(r"bananas whole process: (?P<wall>[\d.]+) s \((?P<cpu>[\d.]+) s\)")
PREVIOUS_STARTUP = re.compile(r"\| warm: solve [A-Z]+ \| (?P<wall>[\d.]+) s \((?P<cpu>[\d.]+) s\) \|")


def seeded_hands(count: int, size: int, seed: int) -> list[str]:
    """The start-up benchmark's hand (at 21 tiles), then seeded draws from the 144-tile bag."""
    import numpy as np

    from solver.core.tiles import ENGLISH, draw

    rng = np.random.default_rng([seed, size])
    fixed = [FIXED_HAND] if size == len(FIXED_HAND) else []
    return [*fixed, *(draw(ENGLISH, size, rng).letters() for _ in range(count))][:count]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s of the process and its children) of one process; stdout discarded."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    errors = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{shlex.join(command)} failed:\n{errors[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def other_command(template: str, hand: str) -> list[str]:
    words = shlex.split(template)
    return [word.replace("{hand}", hand) for word in words] if "{hand}" in template else [*words, hand]


def bananas_env(scratch: Path, use_caches: bool, installed: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(scratch / "pycache"))
    if not installed:  # this checkout, not the package installed in --python's environment
        env["PYTHONPATH"] = str(REPOSITORY)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not use_caches:
        env.update(BANANAS_CACHE=str(scratch / "bananas"), NUMBA_CACHE_DIR=str(scratch / "numba"))
    return env


def warm_up(python: str, env: dict[str, str], hands: list[str]) -> None:
    """Build what a first run builds (word-list arrays, the compiled library), and the bytecode."""
    for hand in hands[:1]:
        timed([python, "-c", RUN_MAIN, "solve", hand], env)
    wait = "from solver.search import library; library.wait_for_build()"
    subprocess.run([python, "-c", wait], env=env, check=True)
    for hand in hands:
        timed([python, "-c", RUN_MAIN, "solve", hand], env)


def measure(python: str, hands: list[str], runs: int, against: str | None, env: dict[str, str]) -> dict[str, list]:
    """Wall and CPU samples: bananas as a user runs it, the other command, and bananas with the
    bare path off (BANANAS_BARE=0: every hand on the full solver, numpy and all)."""
    samples: dict[str, list] = {"bananas": [], "other": [], "full": []}
    full_env = dict(env, BANANAS_BARE="0")
    if against:
        for hand in hands:  # the other program's first run too (its files into the page cache)
            timed(other_command(against, hand), dict(os.environ))
    for run in range(runs):
        for hand in hands:
            samples["bananas"].append(timed([python, "-c", RUN_MAIN, "solve", hand], env))
            if against:
                samples["other"].append(timed(other_command(against, hand), dict(os.environ)))
            samples["full"].append(timed([python, "-c", RUN_MAIN, "solve", hand], full_env))
        print(f"run {run + 1}/{runs} done", file=sys.stderr)
    return samples


def medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def previous_figure() -> tuple[str, float, float] | None:
    """(file name, wall, CPU) of this project's previous recorded whole-process figure."""
    for kind, pattern in (("process", PREVIOUS), ("startup", PREVIOUS_STARTUP)):
        path = latest(kind)
        found = pattern.search(path.read_text()) if path else None
        if path and found:
            return path.name, float(found["wall"]), float(found["cpu"])
    return None


def markdown(samples: dict[str, list], hands: list[str], args, header: str, load_after: str) -> str:
    wall, cpu = medians(samples["bananas"])
    lines = [
        f"# whole-process benchmark, {date.today().isoformat()}",
        "",
        header,
        f"Load average at the end: {load_after}.",
        "",
        f"Hands ({len(hands)}, {len(hands[0])} tiles): {', '.join(hands)}. {args.runs} runs, alternating "
        "bananas and the other command hand by hand; medians over runs x hands of wall time (CPU time, "
        "user + system, in brackets).",
        f"bananas: {'the package installed for ' + args.python if args.python else 'this checkout (PYTHONPATH)'}.",
        "",
        "| command | wall | CPU |",
        "|---|---|---|",
        f"| bananas solve (warm) | {wall:.3f} s | {cpu:.3f} s |",
        "| bananas solve, bare path off (BANANAS_BARE=0: the full solver) | {:.3f} s | {:.3f} s |".format(
            *medians(samples["full"])
        ),
    ]
    summary = [f"- bananas whole process: {wall:.3f} s ({cpu:.3f} s)"]
    if samples["other"]:
        other_wall, other_cpu = medians(samples["other"])
        ratio, cpu_ratio = wall / other_wall, cpu / other_cpu
        lines.append(f"| `{args.against} HAND` | {other_wall:.3f} s | {other_cpu:.3f} s |")
        lines.append(f"| ratio bananas / other | {ratio:.2f} | {cpu_ratio:.2f} |")
        paired = [b[0] / o[0] for b, o in zip(samples["bananas"], samples["other"], strict=True)]
        verdict = "met" if ratio <= TARGET_RATIO else "missed"
        summary.append(
            f"- against `{args.against}`: {other_wall:.3f} s ({other_cpu:.3f} s); ratio {ratio:.2f} wall, "
            f"{cpu_ratio:.2f} CPU (median of paired runs {statistics.median(paired):.2f}); "
            f"target <= {TARGET_RATIO}: {verdict}"
        )
    previous = previous_figure()
    if previous:
        name, old_wall, old_cpu = previous
        lines.append(f"| previous recorded ({name}) | {old_wall:.3f} s | {old_cpu:.3f} s |")
        summary.append(f"- previous recorded figure ({name}): {old_wall:.3f} s ({old_cpu:.3f} s)")
    return "\n".join([*lines, "", "## Summary", "", *summary]) + "\n"


def write_words(path: Path) -> None:
    """Our `en` list, one upper-case word a line: the word list to give the other solver."""
    from solver.lexicon.files import source_path
    from solver.lexicon.loader import read_words

    words, _ = read_words(source_path("en")[1])
    path.write_text("".join(word.upper() + "\n" for word in words))
    print(f"wrote {len(words)} words to {path}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", help="the command to compare with (the hand is appended, or replaces {hand})")
    parser.add_argument("--hands", type=int, default=5, help="the start-up hand, then seeded draws")
    parser.add_argument("--size", type=int, default=21)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--use-caches", action="store_true", help="the environment's caches, not a fresh one")
    parser.add_argument("--jit", action="store_true", help="bananas on numba's JIT (BANANAS_FAST_START=0)")
    parser.add_argument("--write-words", type=Path, metavar="FILE", help="write the en word list and exit")
    parser.add_argument(
        "--python",
        help="the interpreter of an environment where bananas is installed (e.g. a clean venv): "
        "that install runs, not this checkout",
    )
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/<date>-process.md")
    args = parser.parse_args()
    sys.path.insert(0, str(REPOSITORY))
    if args.write_words:
        write_words(args.write_words)
        return
    hands = seeded_hands(args.hands, args.size, args.seed)
    header = machine()
    with tempfile.TemporaryDirectory() as scratch:
        env = bananas_env(Path(scratch), args.use_caches, installed=args.python is not None)
        if args.jit:  # no library to build (the smallest setting, in the tests)
            env["BANANAS_FAST_START"] = "0"
        python = args.python or sys.executable
        warm_up(python, env, hands)
        samples = measure(python, hands, args.runs, args.against, env)
    load_after = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    text = markdown(samples, hands, args, header, load_after)
    print(text)
    if args.record:
        record(text, "process")


if __name__ == "__main__":
    main()
