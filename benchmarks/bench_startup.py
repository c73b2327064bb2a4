"""Start-up: whole-process times of the `bananas` command, warm (caches filled) and cold (empty
BANANAS_CACHE and NUMBA_CACHE_DIR), and where the time goes.

    python benchmarks/bench_startup.py [--quick] [--baseline CHECKOUT] [--record]

--record writes benchmarks/results/<date>-startup.md and puts its summary into the README.

Every figure is a fresh process, `python -c "from solver.cli.plain import run; run()" ARGS` with
PYTHONPATH at the checkout measured (the console script does the same; a pyenv shim in front
of it would add its own ~0.15 s). With --baseline (e.g. a checkout of main before a change),
the same cases run for it too, interleaved run by run, so both see the same machine load. Each
cell is the median wall time, and the median CPU time (user + system, child processes
included) in brackets: on a busy machine CPU time is the steadier figure.

Cases: `bananas solve` of a 21-tile hand (the default fast start, and on numba's JIT with
BANANAS_FAST_START=0), `bananas --help`, `bananas words`; cold, `bananas solve` of the same hand
and of a hard one, with nothing built at install (BANANAS_PREBUILT=0: a first run on numba's
JIT that starts building the compiled library, `solver.search.library`, for the next run; the
benchmark waits for that build before the next case, and reports how long it went on;
bench_coldstart.py measures a first run after an install that built it).
The breakdown (this checkout only) times the imports, numba's first-use set-up, each kernel's
cold compile and cache load, and the compiled library's build.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from results_file import REPOSITORY, commit, machine, record

HAND = "AEEIRSTQUNLDOGCABHMPR"
HARD_HAND = "BEFFHHJLLLNNPPRRSSTTY"  # 0.6 s compiled
RUN_MAIN = "import sys; from solver.cli.plain import run; sys.argv[0] = 'bananas'; run()"  # the console script
WARM_CASES = {
    f"solve {HAND}": ([ "solve", HAND], {}),
    f"solve {HAND}, numba JIT (BANANAS_FAST_START=0)": (["solve", HAND], {"BANANAS_FAST_START": "0"}),
    "--help": (["--help"], {}),
    "words AEIRST --limit 5": (["words", "AEIRST", "--limit", "5"], {}),
}  # fmt: skip
COLD_CASES = {
    f"solve {HAND}": (["solve", HAND], {}),
    f"solve {HARD_HAND} (a hard hand)": (["solve", HARD_HAND], {}),
    f"solve {HAND}, numba JIT (BANANAS_FAST_START=0)": (["solve", HAND], {"BANANAS_FAST_START": "0"}),
    "words AEIRST --limit 5 (builds the en word-list arrays)": (["words", "AEIRST", "--limit", "5"], {}),
    "words AEIRST --limit 5 --lexicon fr (builds the fr arrays)": (
        ["words", "AEIRST", "--limit", "5", "--lexicon", "fr"],
        {},
    ),
}


def timed_run(checkout: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s of the process and its children) of one `bananas ARGS` process."""
    full_env = dict(os.environ, PYTHONPATH=str(checkout), **env)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", RUN_MAIN, *args],
        env=full_env,
        cwd=tempfile.gettempdir(),  # not the checkout: its folder must not shadow PYTHONPATH
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    errors = process.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"bananas {' '.join(args)} failed in {checkout}:\n{errors}")
    return wall, usage.ru_utime + usage.ru_stime


WAIT_FOR_BUILD = "from solver.search import library; library.wait_for_build()"


def build_finished(checkout: Path, env: dict[str, str]) -> float:
    """Wait until no process builds the compiled library in these caches (a build a command
    interrupted goes on in the background); the seconds waited."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", WAIT_FOR_BUILD], env=dict(os.environ, PYTHONPATH=str(checkout), **env))
    return time.perf_counter() - started


def cell(samples: list[tuple[float, float]]) -> str:
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    return f"{wall:.2f} s" if cpu != cpu else f"{wall:.2f} s ({cpu:.2f} s)"  # NaN: no CPU figure


def measure(checkouts: dict[str, Path], warm_runs: int, cold_runs: int) -> dict[str, dict[str, list]]:
    results: dict[str, dict[str, list]] = {label: {} for label in checkouts}
    with tempfile.TemporaryDirectory() as warm_cache:
        caches = {"BANANAS_CACHE": f"{warm_cache}/bananas", "NUMBA_CACHE_DIR": f"{warm_cache}/numba"}
        for checkout in checkouts.values():  # fill the caches (builds everything once)
            for args, env in WARM_CASES.values():
                timed_run(checkout, args, {**caches, **env})
                build_finished(checkout, caches)
        for _ in range(warm_runs):
            for label, checkout in checkouts.items():
                for case, (args, env) in WARM_CASES.items():
                    sample = timed_run(checkout, args, {**caches, **env})
                    results[label].setdefault(f"warm: {case}", []).append(sample)
    for _ in range(cold_runs):
        for label, checkout in checkouts.items():
            for case, (args, env) in COLD_CASES.items():
                with tempfile.TemporaryDirectory() as cold_cache:
                    caches = {"BANANAS_CACHE": f"{cold_cache}/bananas", "NUMBA_CACHE_DIR": f"{cold_cache}/numba"}
                    sample = timed_run(checkout, args, {**caches, "BANANAS_PREBUILT": "0", **env})
                    background = build_finished(checkout, caches)  # before the caches go
                results[label].setdefault(f"cold: {case}", []).append(sample)
                if args[0] == "solve" and not env:
                    results[label].setdefault(f"cold: {case}: its library build, going on after it", []).append(
                        (background, float("nan"))
                    )
                print(f"cold {label}: {case}: {sample[0]:.1f} s (+{background:.1f} s of build after)", file=sys.stderr)
    return results


# -- where the time goes (this checkout) -------------------------------------------------------

IMPORTS = """
import time, json, sys
marks = {}
def mark(name, started):
    marks[name] = time.perf_counter() - started
t = time.perf_counter(); import numpy; mark("numpy", t)
t = time.perf_counter(); import click; mark("click", t)
t = time.perf_counter(); import solver.cli.grids; mark("solver.cli.grids (with the lexicon loader, marisa-trie)", t)
t = time.perf_counter(); import solver.search.solving; mark("solver.search.solving (kernels not bound)", t)
t = time.perf_counter(); import numba; mark("numba (numpy already imported)", t)
t = time.perf_counter(); numba.core.registry.cpu_target.target_context.refresh()
mark("numba's first-use set-up (its typing and lowering registries)", t)
print(json.dumps(marks))
"""

KERNELS = """
import json, time
from numba.core import event
from solver.lexicon.loader import get_lexicon
from solver.core.grid import Grid
from solver.search.solving import solve, extend
lexicon = get_lexicon("en")
stack, own = [], {}
class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"].py_func.__qualname__, time.process_time(), 0.0])
    def on_end(self, ev):
        name, started, inner = stack.pop()
        total = time.process_time() - started
        own[name] = own.get(name, 0.0) + total - inner
        if stack:
            stack[-1][2] += total
event.register("numba:compile", Listener())
marks = {}
t = time.perf_counter(); solve("CATMAP", lexicon); marks["solve (hostable_letters, search)"] = time.perf_counter() - t
t = time.perf_counter(); extend(Grid.from_rows(["AT"]), "C", lexicon)
marks["extend (lay_grid)"] = time.perf_counter() - t
print(json.dumps({"first_calls": marks, "compile_cpu_by_function": own}))
"""


def python_json(script: str, env: dict[str, str]) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", script],
        env=dict(os.environ, PYTHONPATH=str(REPOSITORY), **env),
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        raise SystemExit(run.stderr)
    return json.loads(run.stdout.splitlines()[-1])


def breakdown(runs: int) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {"BANANAS_CACHE": f"{cache}/bananas", "NUMBA_CACHE_DIR": f"{cache}/numba"}
        imports = [python_json(IMPORTS, env) for _ in range(runs)]
        python_json("from solver.lexicon.loader import get_lexicon; get_lexicon('en'); print('{}')", env)
        cold = python_json(KERNELS, env)  # empty numba cache: compiles
        warm = [python_json(KERNELS, env)["first_calls"] for _ in range(runs)]  # loads from the cache
        started = time.perf_counter()
        build = subprocess.run(
            [sys.executable, "-m", "solver.search.library_build"],
            env=dict(os.environ, PYTHONPATH=str(REPOSITORY), **env),
            capture_output=True,
            text=True,
        )
        library_s = time.perf_counter() - started
    return {
        "imports": {name: statistics.median(run[name] for run in imports) for name in imports[0]},
        "cold_first_calls": cold["first_calls"],
        "warm_first_calls": {name: statistics.median(run[name] for run in warm) for name in warm[0]},
        "compile_cpu_by_function": dict(sorted(cold["compile_cpu_by_function"].items(), key=lambda kv: -kv[1])),
        "library_build_s": library_s if build.returncode == 0 else None,
        "library_build_note": build.stderr.strip().splitlines()[-1] if build.stderr.strip() else "",
    }


# -- the report ------------------------------------------------------------------------------------


def markdown(results: dict, checkouts: dict[str, Path], details: dict, args, header: str) -> tuple[str, list[str]]:
    labels = list(checkouts)
    lines = [
        f"# start-up benchmark, {date.today().isoformat()}",
        "",
        header,
        "",
        f"Warm figures: median of {args.warm_runs} runs; cold: median of {args.cold_runs}. Each cell: median wall "
        "time (median CPU time, user + system, child processes included).",
        "",
        "| case | " + " | ".join(f"{label} ({commit(checkouts[label])})" for label in labels) + " |",
        "|---|" + "---|" * len(labels),
    ]
    for case in results[labels[0]]:
        row = [cell(results[label][case]) if case in results[label] else "-" for label in labels]
        lines.append(f"| {case} | " + " | ".join(row) + " |")
    this = results["this"]
    summary = [
        f"- warm `bananas solve` of a 21-tile hand, whole process: {cell(this[f'warm: solve {HAND}'])}; "
        f"on numba's JIT: {cell(this[f'warm: solve {HAND}, numba JIT (BANANAS_FAST_START=0)'])}",
        f"- `bananas --help`: {cell(this['warm: --help'])}",
        f"- cold first `bananas solve`, nothing built at install (empty caches; on numba's JIT, the compiled "
        f"library building on for the next run for "
        f"{cell(this[f'cold: solve {HAND}: its library build, going on after it'])}): "
        f"{cell(this[f'cold: solve {HAND}'])}; a hard hand: {cell(this[f'cold: solve {HARD_HAND} (a hard hand)'])}; "
        f"with the library off (BANANAS_FAST_START=0): "
        f"{cell(this[f'cold: solve {HAND}, numba JIT (BANANAS_FAST_START=0)'])}",
        f"- cold `bananas words` (builds the word-list arrays): "
        f"en {cell(this['cold: words AEIRST --limit 5 (builds the en word-list arrays)'])}, "
        f"fr {cell(this['cold: words AEIRST --limit 5 --lexicon fr (builds the fr arrays)'])}",
    ]
    if "baseline" in results:
        base = results["baseline"]
        summary.append(
            f"- before ({commit(checkouts['baseline'])}): warm solve {cell(base[f'warm: solve {HAND}'])}, "
            f"--help {cell(base['warm: --help'])}, cold solve {cell(base[f'cold: solve {HAND}'])}, cold words "
            f"en {cell(base['cold: words AEIRST --limit 5 (builds the en word-list arrays)'])}, "
            f"fr {cell(base['cold: words AEIRST --limit 5 --lexicon fr (builds the fr arrays)'])}"
        )
    if details:
        lines += ["", "## Where the time goes (this checkout)", "", "Imports, in a fresh process (median):", ""]
        lines += [f"- {name}: {seconds * 1000:.0f} ms" for name, seconds in details["imports"].items()]
        lines += ["", "First calls in a fresh process, numba JIT (wall):", ""]
        for name, seconds in details["cold_first_calls"].items():
            warm = details["warm_first_calls"][name]
            lines.append(f"- {name}: {seconds:.1f} s with an empty numba cache, {warm * 1000:.0f} ms from the cache")
        lines += ["", "Cold compile CPU by function (own time, callees' compiles excluded; top 12):", ""]
        top = list(details["compile_cpu_by_function"].items())[:12]
        lines += [f"- {name}: {seconds:.2f} s" for name, seconds in top]
        build = details["library_build_s"]
        note = f"{build:.1f} s" if build is not None else f"not built ({details['library_build_note']})"
        lines += ["", f"Compiled library build, self-check included (numba's cache holding the callees): {note}."]
    lines += ["", "## Summary (README)", "", *summary]
    return "\n".join(lines) + "\n", summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="5 warm runs, 1 cold run, no breakdown")
    parser.add_argument("--warm-runs", type=int, default=10)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout to measure alongside (e.g. main)")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/<date>-startup.md")
    args = parser.parse_args()
    if args.quick:
        args.warm_runs, args.cold_runs = 5, 1
    header = machine()  # the load at the start, the commit measured
    checkouts = {"this": REPOSITORY}
    if args.baseline:
        checkouts["baseline"] = args.baseline.resolve()
    results = measure(checkouts, args.warm_runs, args.cold_runs)
    details = {} if args.quick else breakdown(max(3, args.warm_runs // 2))
    text, summary = markdown(results, checkouts, details, args, header)
    print(text)
    if args.record:
        update_readme(record(text, "startup"), summary)


README_BLOCK = re.compile(r"(<!-- startup:begin[^\n]*-->\n)(.*?)(<!-- startup:end -->)", re.S)
RESULT_LINK = re.compile(r"benchmarks/results/\d{4}-\d{2}-\d{2}-startup\.md")


def update_readme(result: Path, summary: list[str]) -> None:
    """Put this run's summary into the README's start-up block, and name its result file."""
    readme = REPOSITORY / "README.md"
    text = README_BLOCK.sub(lambda m: m.group(1) + "\n".join(summary) + "\n" + m.group(3), readme.read_text())
    readme.write_text(RESULT_LINK.sub(f"benchmarks/results/{result.name}", text))
    print(f"updated {readme}", file=sys.stderr)


if __name__ == "__main__":
    main()
