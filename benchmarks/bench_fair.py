"""Fair service (issue 34): one address floods the solve API, how fast are the others served?

    python benchmarks/bench_fair.py [--seconds 30] [--flood 8] [--record]

For each mode - fair queues on (the default) and off (BANANAS_FAIR_QUEUES=0: first come, first
served, as before) - a `bananas serve` starts on a free loopback port and, for `--seconds`:

- a flooder at 127.0.0.2 keeps `--flood` connections busy with the costliest solve the API
  allows (288 tiles, twelve of every letter: no grid within its 5 s, so each runs 5 s), at the
  API's allowed rate (2 a second, bursts of 12; a refused request waits 1 s);
- a quiet client at 127.0.0.3 asks for a small solve (a 7-tile hand) every 0.6 s;
- an engine bot at 127.0.0.4 (`/engine`, a medium bot on the instant clock) is dealt a new
  21-tile hand every 0.5 s and answers it.

Printed per mode: the quiet client's small solves (answered, refused, p50 / p99 / max seconds)
and the bot's `new_hand` -> first reply (p50 / p99 / max seconds). The target: small solves
answered within 1 s (p99), bot calls under 0.5 s, while the flood goes on. The load generator
shares the machine's cores with the server (say so when quoting figures).
--record writes benchmarks/results/<date>-fair.md.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from results_file import machine, record
from websockets.asyncio.client import connect

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
COSTLY = {"tiles": (ALPHABET * 12)[:288], "time_limit": 5.0}
VOWELS, CONSONANTS = "AEIOU", "BCDFGHLMNPRST"


def start_server(fair: bool) -> tuple[subprocess.Popen, int]:
    env = dict(os.environ, BANANAS_FAIR_QUEUES="1" if fair else "0")
    command = [sys.executable, "-c", "from solver.cli import main; main()", "serve", "--port", "0", "--db", "none"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    line = server.stdout.readline() if server.stdout else ""
    found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, int(found.group(1))


def post(port: int, source: str, body: dict, timeout: float = 60.0) -> tuple[int, float]:
    """POST /api/solve from `source`: (status, seconds); status 0 when the connection failed."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    started = time.monotonic()
    try:
        connection.request("POST", "/api/solve", json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    except OSError:
        return 0, time.monotonic() - started
    finally:
        connection.close()


async def flood(port: int, until: float) -> None:
    while time.monotonic() < until:
        status, _ = await asyncio.to_thread(post, port, "127.0.0.2", COSTLY)
        if status != 200:
            await asyncio.sleep(1.0)  # refused (rate, busy): as a client that backs off


async def quiet(port: int, until: float, rng: np.random.Generator) -> tuple[list[float], int]:
    seconds, refused = [], 0
    while time.monotonic() < until:
        hand = "".join(rng.choice(list(VOWELS), 3)) + "".join(rng.choice(list(CONSONANTS), 4))
        status, took = await asyncio.to_thread(post, port, "127.0.0.3", {"tiles": hand})
        if status == 200:
            seconds.append(took)
        else:
            refused += 1
        await asyncio.sleep(max(0.0, 0.6 - took))  # under the API rate per address (2 a second)
    return seconds, refused


async def engine_bot(port: int, until: float, rng: np.random.Generator) -> list[float]:
    seconds = []
    async with connect(f"ws://127.0.0.1:{port}/engine") as ws:
        await ws.send(json.dumps({"type": "options", "clock": "instant", "bot": "medium"}))
        await ws.recv()
        while time.monotonic() < until:
            hand = "".join(rng.choice(list(VOWELS), 7)) + "".join(rng.choice(list(CONSONANTS), 14))
            started = time.monotonic()
            await ws.send(json.dumps({"type": "new_hand", "tiles": hand, "bunch": 50, "active": 2}))
            await ws.recv()
            seconds.append(time.monotonic() - started)
            while True:  # whatever else the bot says about this hand
                try:
                    await asyncio.wait_for(ws.recv(), 0.05)
                except TimeoutError:
                    break
            await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - started)))
    return seconds


def spread(values: list[float]) -> str:
    if not values:
        return "- / - / -"
    p50, p99 = np.percentile(values, [50, 99])
    return f"{p50:.3f} / {p99:.3f} / {max(values):.3f}"


async def run(port: int, seconds: float, flooders: int) -> tuple[list[float], int, list[float]]:
    rng = np.random.default_rng(34)
    # A thread per connection (the requests block): the flood must not starve the others' client side.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=flooders + 8))
    await asyncio.to_thread(post, port, "127.0.0.1", {"tiles": "CATDOG"}, 600.0)  # kernels warm
    until = time.monotonic() + seconds
    floods = [asyncio.create_task(flood(port, until)) for _ in range(flooders)]
    await asyncio.sleep(0.5)  # the flood holds the pool first
    (small, refused), bot = await asyncio.gather(quiet(port, until, rng), engine_bot(port, until, rng))
    for task in floods:
        task.cancel()
    return small, refused, bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--flood", type=int, default=8, help="the flooder's connections")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine("uvicorn", "websockets", "starlette")
    rows = []
    for fair in (True, False):
        server, port = start_server(fair)
        try:
            small, refused, bot = asyncio.run(run(port, args.seconds, args.flood))
        finally:
            server.terminate()
            server.wait(timeout=30)
        rows.append(
            f"| {'on' if fair else 'off'} | {len(small)} | {refused} | {spread(small)} | {len(bot)} | {spread(bot)} |"
        )
        print(rows[-1], file=sys.stderr)
    table = [
        f"One flooder ({args.flood} connections of 288-tile, 5 s solves) for {args.seconds:g} s; "
        f"load average at the end {', '.join(f'{v:.1f}' for v in os.getloadavg())}.",
        "",
        "| fair queues | small solves answered | refused | small solve p50 / p99 / max s | bot calls "
        "| bot new_hand -> reply p50 / p99 / max s |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    text = "\n".join([f"# Fair service (benchmarks/bench_fair.py), {time.strftime('%Y-%m-%d')}", "", header, "",
                      f"    python benchmarks/bench_fair.py --seconds {args.seconds:g} --flood {args.flood}", "", *table])  # fmt: skip
    print(text)
    if args.record:
        record(text + "\n", "fair")


if __name__ == "__main__":
    main()
