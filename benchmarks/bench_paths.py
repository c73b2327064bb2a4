"""Every way a hand reaches the kernels, side by side in one run: the batch command and the Python
API, each on the compiled library and on numba's JIT, (optionally) a bot's solve and the server's
/api/solve, and another solver.

    python benchmarks/bench_paths.py [--sizes 11:200,21:200,40:30,144:20] [--chunk 10]
                                     [--against "WATSON --fresh --quiet --dict WORDS.txt"]
                                     [--old-tree DIR] [--every-path] [--record [NAME]]

Each path is one long-lived process fed the same seeded hands in chunks, the paths taking turns
chunk by chunk (so all see the same machine load); each hand's own time is read back:

- `batch`: `bananas solve - --json` as a user runs it (the library: KernelPrep prefers it), its
  `elapsed_ms`;
- `batch-jit`: the same with BANANAS_FAST_START=0 (numba's JIT, its cache warm);
- `api`: `solver.solve(hand)` in a process whose numba cache is empty (a fresh install: the
  library), the call's wall time;
- `api-jit`: the same with numba's cache warm (the JIT);
- `bot` (with --every-path): a bot's full solve of its hand in the API's process set-up
  (`solver.play.bots.BOT_SEARCH`'s passes, four times the default node budget), the call's time;
- `server` (with --every-path): `bananas serve --db none`, each hand POSTed to /api/solve on one
  kept-alive connection, the request's time as its client sees it;
- `old-batch`, `old-batch-jit`, `old-api`, `old-api-jit` (and `old-bot`, `old-server`), with
  --old-tree (a checkout of an earlier commit with its caches built): the same paths on its
  code, for before/after in the same run;
- `peer` (with --against): the other command on the chunk's hands, its own per-hand ms.

The hands' grids are checked by the validator. Per size: the median ms of each path, the ratio of
each to `batch-jit` (below 1: faster than the JIT) and the peer's median over each path's; for
the API paths also the median CPU ms of a call (`time.process_time`: what other processes on a
shared machine take from a path's wall time, they do not add to its CPU time).
Steady state only: each process loads and compiles before its first hand (not timed), which
bench_startup and bench_process measure. --record writes benchmarks/results/<date>-NAME.md
(default NAME: paths).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_file import REPOSITORY, machine, record

PEER_LINE = re.compile(r"\b(?P<outcome>solved|FAILED) in (?P<ms>[\d.]+) ms")
SIZES = "11:200,15:100,21:200,40:30,144:20"
TIME_LIMIT = 1.0
KEEP_ALIVE_SECONDS = 4.0  # under uvicorn's 5 s: a connection idle longer is opened anew before the clock
RUN_MAIN = "import sys; from solver.cli import main; sys.argv[0] = 'bananas'; main()"
# The API path: one hand a line in, one JSON line out (the call's wall ms, the result).
API_WORKER = """
import json, sys, time
from solver import solve
from solver.lexicon.loader import get_lexicon
lexicon = get_lexicon("en")
solve("AEEIRSTQUNL", lexicon)  # the first call's load, not timed
print("ready", flush=True)
options = {"time_limit": float(sys.argv[1])}
if sys.argv[2] == "bot":  # a bot's full solve of its hand: its passes, four times its node budget
    from solver.play.bots import BOT_SEARCH, BotSettings
    options |= {"plan": BOT_SEARCH, "max_nodes": 4 * BotSettings().node_budget}
for line in sys.stdin:
    started, cpu = time.perf_counter(), time.process_time()
    result = solve(line.strip(), lexicon, **options)
    took, cpu = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
    print(json.dumps({"ms": took, "cpu": cpu, "status": result.status, "tiles": result.tiles.letters(),
                      "grid": result.grid.rows if result.grid else None, "numba": "numba" in sys.modules}), flush=True)
"""


class Worker:
    """A long-lived process answering one hand a line with one JSON line."""

    def __init__(self, name: str, command: list[str], env: dict, time_key: str, ready_line: bool, tree: str):
        self.name, self.time_key = name, time_key
        # In `tree` (`python -c` puts the working folder first on sys.path, before PYTHONPATH).
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=dict(env, PYTHONPATH=tree),
            cwd=tree,
        )
        if ready_line:
            line = self.process.stdout.readline()
            if line.strip() != "ready":
                raise SystemExit(f"{name}: did not start ({line!r})")
        self.numba: set[bool] = set()

    def solve(self, hands: list[str]) -> list[tuple[float, dict]]:
        self.process.stdin.write("".join(hand + "\n" for hand in hands))
        self.process.stdin.flush()
        found = []
        for _ in hands:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"{self.name}: ended early")
            answer = json.loads(line)
            if "numba" in answer:
                self.numba.add(answer["numba"])
            found.append((float(answer[self.time_key]), answer))
        return found

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


class ServerWorker:
    """`bananas serve` in `tree`, each hand POSTed to /api/solve on one kept-alive connection; the
    time is the request's as its client sees it (HTTP, the server's thread hand-off and all)."""

    def __init__(self, name: str, env: dict, tree: str):
        self.name, self.numba = name, set()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        # Behind a "proxy" (this process): each request names a client address of its own, as many
        # clients would, so the per-address API rate (2 a second) never refuses the benchmark.
        command = [sys.executable, "-c", RUN_MAIN, "serve", "--port", str(self.port), "--db", "none"]
        command += ["--proxy-header", "X-Forwarded-For"]
        self.requests = 0
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env, PYTHONPATH=tree), cwd=tree
        )
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # /readyz: 200 once its kernels are ready
            try:
                if self._request("GET", "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            raise SystemExit(f"{name}: not ready after 300 s")
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        self.last_used = time.monotonic()

    def _request(self, method: str, path: str) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            connection.request(method, path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def solve(self, hands: list[str]) -> list[tuple[float, dict]]:
        found = []
        if time.monotonic() - self.last_used > KEEP_ALIVE_SECONDS:  # the server closes an idle connection
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        for hand in hands:
            body = json.dumps({"tiles": hand, "time_limit": TIME_LIMIT})
            started = time.perf_counter()
            self.requests += 1
            client = f"10.{self.requests >> 16 & 255}.{self.requests >> 8 & 255}.{self.requests & 255}"
            headers = {"Content-Type": "application/json", "X-Forwarded-For": client}
            self.connection.request("POST", "/api/solve", body, headers)
            response = self.connection.getresponse()
            answer = json.loads(response.read())
            took = (time.perf_counter() - started) * 1000
            if response.status != 200:
                raise SystemExit(f"{self.name}: {response.status} {answer}")
            found.append((took, answer))
        self.last_used = time.monotonic()
        return found

    def close(self) -> None:
        self.connection.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def peer_times(command: str, hands: list[str]) -> tuple[list[float], float]:
    """The other command's own ms per hand, and the CPU ms its process took (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([*shlex.split(command), *hands], capture_output=True, text=True, timeout=60 + 60 * len(hands))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = [float(m["ms"]) for m in map(PEER_LINE.search, run.stdout.splitlines()) if m]
    if len(found) != len(hands):
        raise SystemExit(f"{command}: {len(found)} result lines for {len(hands)} hands")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return found, cpu


def peer_load_cpu(command: str, runs: int = 5) -> float:
    """The CPU ms of the other command's process on a two-tile hand: its word list's load and
    start, taken off each chunk's CPU to estimate the CPU a hand takes (a loaded machine slows a
    long solve's wall time far more than its CPU time)."""
    return statistics.median(peer_times(command, ["AT"])[1] for _ in range(runs))


def start_workers(args, numba_cold: str) -> list[Worker]:
    here, base = str(REPOSITORY), dict(os.environ)
    batch = [sys.executable, "-c", RUN_MAIN, "solve", "-", "--json", "--time-limit", str(TIME_LIMIT)]
    api = [sys.executable, "-c", API_WORKER, str(TIME_LIMIT), "api"]
    bot = [sys.executable, "-c", API_WORKER, str(TIME_LIMIT), "bot"]
    trees = [("", here)] + ([("old-", args.old_tree)] if args.old_tree else [])
    workers: list = []
    for prefix, tree in trees:
        workers += [
            Worker(f"{prefix}batch", batch, base, "elapsed_ms", False, tree),
            Worker(f"{prefix}batch-jit", batch, dict(base, BANANAS_FAST_START="0"), "elapsed_ms", False, tree),
            Worker(f"{prefix}api", api, dict(base, NUMBA_CACHE_DIR=numba_cold), "ms", True, tree),
            Worker(f"{prefix}api-jit", api, base, "ms", True, tree),
        ]
        if args.every_path:
            workers += [
                Worker(f"{prefix}bot", bot, base, "ms", True, tree),
                ServerWorker(f"{prefix}server", base, tree),
            ]
    return workers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=SIZES, help="SIZE:HANDS,...")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--against", help="another solver's command (the hands appended); prints 'solved in X ms'")
    parser.add_argument("--old-tree", help="a checkout of an earlier commit, its caches built: its batch beside")
    parser.add_argument("--every-path", action="store_true", help="also a bot's solve and bananas serve's /api/solve")
    parser.add_argument(
        "--record", metavar="NAME", nargs="?", const="paths", help="write benchmarks/results/<date>-NAME.md"
    )
    args = parser.parse_args()

    import numpy as np

    from solver.core.grid import Grid, validate
    from solver.core.tiles import ENGLISH, TileCounts, draw
    from solver.lexicon.loader import get_lexicon

    lexicon = get_lexicon("en")
    header = machine()
    with tempfile.TemporaryDirectory() as numba_cold:
        workers = start_workers(args, numba_cold)
        load_cpu = peer_load_cpu(args.against) if args.against else 0.0
        names = [worker.name for worker in workers] + (["peer"] if args.against else [])
        rows = []
        try:
            for item in args.sizes.split(","):
                size, _, count = item.partition(":")
                rng = np.random.default_rng([args.seed, int(size)])
                hands = [draw(ENGLISH, int(size), rng).letters() for _ in range(int(count or 50))]
                times: dict[str, list[float]] = {name: [] for name in names}
                cpu_times: dict[str, list[float]] = {}  # the API paths' CPU ms a call
                peer_cpu: list[float] = []  # per chunk: (its CPU - the load's) / hands
                settled: dict[str, int] = dict.fromkeys(names, 0)
                for first in range(0, len(hands), args.chunk):
                    chunk = hands[first : first + args.chunk]
                    turn = (first // args.chunk) % len(workers)  # who goes first rotates
                    for worker in workers[turn:] + workers[:turn]:
                        for took, answer in worker.solve(chunk):
                            times[worker.name].append(took)
                            if "cpu" in answer:
                                cpu_times.setdefault(worker.name, []).append(float(answer["cpu"]))
                            if answer["grid"] is not None:
                                tiles = TileCounts.from_letters(answer["tiles"])
                                if not validate(Grid.from_rows(answer["grid"]), lexicon, tiles).ok:
                                    raise SystemExit(f"{worker.name}: INVALID GRID for {answer['tiles']}")
                            settled[worker.name] += answer["status"] in ("solved", "no-grid")
                    if args.against:
                        peer, cpu = peer_times(args.against, chunk)
                        times["peer"] += peer
                        settled["peer"] += len(peer)
                        peer_cpu.append(max(cpu - load_cpu, 0.0) / len(chunk))
                medians = {name: statistics.median(values) for name, values in times.items()}
                if peer_cpu:
                    medians["peer-cpu"] = statistics.median(peer_cpu)
                for name, values in cpu_times.items():
                    medians[f"{name} cpu"] = statistics.median(values)
                rows.append((size, len(hands), medians, settled))
                print(size, {name: round(value, 3) for name, value in medians.items()}, file=sys.stderr)
        finally:
            for worker in workers:
                worker.close()
    api_numba = {worker.name: worker.numba for worker in workers if worker.numba}
    args.load_at_end = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    text = markdown(header, rows, names, args, api_numba)
    print(text)
    if args.record:
        record(text, args.record)


def markdown(header: str, rows: list, names: list[str], args, api_numba: dict) -> str:
    lines = [
        f"# Paths to the kernels, side by side ({Path(__file__).name})",
        "",
        header,
        f"Seed {args.seed}, time limit {TIME_LIMIT} s a hand, chunks of {args.chunk} hands, the paths taking turns.",
        "Paths: "
        + ", ".join(names)
        + (f"; old tree {args.old_tree}" if args.old_tree else "")
        + (f"; peer `{args.against}`" if args.against else "")
        + ".",
        f"Load average at the end: {args.load_at_end}. A loaded machine slows a long computation (preempted "
        "again and again) more than a sub-millisecond one: the peer's ratios are larger than on a quiet one.",
        "numba imported by the API workers: " + ", ".join(f"{k}: {sorted(v)}" for k, v in api_numba.items()) + ".",
        "",
        "Median ms a hand (settled hands of the path in brackets):",
        "",
        "| tiles (hands) | " + " | ".join(names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for size, count, medians, settled in rows:
        cells = [f"{medians[name]:.3f} ({settled[name]})" for name in names]
        lines.append(f"| {size} ({count}) | " + " | ".join(cells) + " |")
    cpu_names = [name for name in names if f"{name} cpu" in rows[0][2]] if rows else []
    if cpu_names:
        lines += ["", "Median CPU ms a call of the API paths:", ""]
        lines += ["| tiles | " + " | ".join(cpu_names) + " |", "|---" * (len(cpu_names) + 1) + "|"]
        for size, _, medians, _ in rows:
            lines.append(f"| {size} | " + " | ".join(f"{medians[f'{name} cpu']:.3f}" for name in cpu_names) + " |")
    if "peer" in names:
        lines += [
            "",
            "The peer's CPU ms a hand (median over chunks of its process's CPU, less that of a two-tile run: "
            "the word list's load), against `batch`'s and `api`'s wall medians: the ratio a loaded machine skews least.",
            "",
            "| tiles | peer CPU ms a hand | peer CPU / batch | peer CPU / api |",
            "|---|---|---|---|",
        ]
        for size, _, medians, _ in rows:
            cpu = medians["peer-cpu"]
            lines.append(f"| {size} | {cpu:.1f} | {cpu / medians['batch']:.1f}x | {cpu / medians['api']:.1f}x |")
    lines += [
        "",
        "Ratios: each path's median over `batch-jit`'s (below 1: faster than the JIT), over its JIT's, over its old code's",
    ]
    if "peer" in names:
        lines[-1] += "; `peer /` : the peer's median over the path's (how many times faster than the peer)"
    lines += [""]
    others = [name for name in names if name not in ("batch-jit", "peer")]
    pairs = [(name, f"{name}-jit") for name in names if f"{name}-jit" in names]  # each way against its JIT
    pairs += [(name, f"old-{name}") for name in names if f"old-{name}" in names]  # each path against its old code
    columns = (
        [f"{name} / jit" for name in others]
        + [f"{name} / {jit}" for name, jit in pairs]
        + ([f"peer / {name}" for name in names[:-1]] if "peer" in names else [])
    )
    lines += ["| tiles | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for size, _, medians, _ in rows:
        cells = [f"{medians[name] / medians['batch-jit']:.2f}" for name in others]
        cells += [f"{medians[name] / medians[jit]:.2f}" for name, jit in pairs]
        if "peer" in names:
            cells += [f"{medians['peer'] / medians[name]:.1f}x" for name in names[:-1]]
        lines.append(f"| {size} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
