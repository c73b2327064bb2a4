"""`bananas serve` from empty caches, then after `bananas warm-up`: when it answers a first solve
and when /readyz says it is ready (its kernels on numba's JIT).

    python benchmarks/bench_serve_start.py [--port 0] [--ready-within 900] [--record]

Both runs use a new BANANAS_CACHE and NUMBA_CACHE_DIR (temporary folders; the compiled library
comes with the checkout or install, as after `pip install`). Each run: the server started; as
soon as it prints its address, one POST /api/solve of a 21-tile hand (its grid checked by the
validator) and a GET /readyz; then /readyz polled every 0.5 s until 200 (or --ready-within
seconds). Between the two runs `bananas warm-up --lexicon en` fills the caches, timed.
--record writes benchmarks/results/<date>-serve-start.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlsplit

from results_file import REPOSITORY, machine, record

RUN_MAIN = "import sys; from solver.cli import main; sys.argv[0] = 'bananas'; main()"
HAND = "AEEIRSTQUNLDOGCABHMPR"


def request(url: str, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
    try:
        headers = {"Content-Type": "application/json", "Origin": url}
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def serve_once(env: dict, port: int, ready_within: float) -> dict:
    started = time.perf_counter()
    command = [sys.executable, "-c", RUN_MAIN, "serve", "--port", str(port), "--db", "none"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        found = re.search(r"http://[\d.]+:\d+", server.stdout.readline() if server.stdout else "")
        if not found:
            raise SystemExit("the server did not start")
        url, listening = found.group(0), time.perf_counter() - started
        asked = time.perf_counter()
        status, text = request(url, "POST", "/api/solve", {"tiles": HAND})
        answered = time.perf_counter() - asked
        reply = json.loads(text)
        check_grid(reply)
        readyz_after_solve = request(url, "GET", "/readyz")
        ready = None
        while time.perf_counter() - started < ready_within:
            if request(url, "GET", "/readyz")[0] == 200:
                ready = time.perf_counter() - started
                break
            time.sleep(0.5)
        return {
            "listening_s": listening,
            "first_solve_s": answered,
            "first_solve_status": f"{status} {reply.get('status')}",
            "elapsed_ms": reply.get("elapsed_ms"),
            "readyz_after_first_solve": f"{readyz_after_solve[0]} {readyz_after_solve[1].strip()}",
            "ready_s": ready,
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()


def check_grid(reply: dict) -> None:
    from solver.core.grid import Grid, validate
    from solver.core.tiles import TileCounts
    from solver.lexicon.loader import get_lexicon

    if reply.get("grid"):
        grid = Grid.from_rows(reply["grid"])
        if not validate(grid, get_lexicon("en"), TileCounts.from_letters(reply["tiles"])).ok:
            raise SystemExit(f"INVALID GRID {reply}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ready-within", type=float, default=900.0)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine()
    with tempfile.TemporaryDirectory() as folder:
        env = dict(
            os.environ,
            PYTHONPATH=str(REPOSITORY),
            BANANAS_CACHE=f"{folder}/cache",
            NUMBA_CACHE_DIR=f"{folder}/numba",
        )
        cold = serve_once(env, args.port, args.ready_within)
        print("cold", cold, file=sys.stderr)
        started = time.perf_counter()
        warm_up = subprocess.run(
            [sys.executable, "-c", RUN_MAIN, "warm-up", "--lexicon", "en"], capture_output=True, text=True, env=env
        )
        warm_up_s = time.perf_counter() - started
        numba_line = next((line for line in warm_up.stdout.splitlines() if line.startswith("numba kernels")), "")
        warm = serve_once(env, args.port, args.ready_within)
        print("after warm-up", warm, file=sys.stderr)
    lines = [
        "# `bananas serve`: empty caches, then after `bananas warm-up`",
        "",
        header,
        f"Hand {HAND} (POST /api/solve, the default time limit). The library from the checkout; new "
        "BANANAS_CACHE and NUMBA_CACHE_DIR.",
        "",
        "| run | listening s | first solve answered s (its elapsed_ms) | /readyz right after it | /readyz 200 at s |",
        "|---|---|---|---|---|",
    ]
    for name, run in (("empty caches", cold), ("after warm-up", warm)):
        ready = f"{run['ready_s']:.1f}" if run["ready_s"] is not None else f"not within {args.ready_within:g}"
        lines.append(
            f"| {name} | {run['listening_s']:.2f} | {run['first_solve_s']:.3f} ({run['first_solve_status']}, "
            f"{run['elapsed_ms']} ms) | {run['readyz_after_first_solve']} | {ready} |"
        )
    lines += [
        "",
        f"`bananas warm-up --lexicon en` between them: {warm_up_s:.1f} s (exit {warm_up.returncode}): {numba_line}",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        record(text, "serve-start")


if __name__ == "__main__":
    main()
