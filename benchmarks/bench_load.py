"""Load on `bananas serve`: N rooms of scripted people and bots, for a bounded time, loopback only.

    python benchmarks/bench_load.py [--rooms 10,100] [--seconds 90] [--people 2] [--bots 2]
                                    [--bot medium] [--servers 1] [--processes 1] [--rss-every 0]
                                    [--db none,file] [--reviews] [--record]

The server runs in a process of its own (`bananas serve` on a free loopback port, quotas per
client raised: every simulated person comes from 127.0.0.1). Each room is created over HTTP;
its people join over WebSocket, the host seats the bots and starts, and each person sends a
grid a second (two or three of their tiles in a row, alternately, so each is a change) and
times the `check` that answers it. The people's sockets are not compressed (nor are the
server's), and they read only the messages they act on: the `table` and `log` messages, most
of the bytes, are counted and dropped unread (a measuring tool's clients, lean: the load
generator shares the server's cores). When a hand ends the host starts another (with --reviews
after asking for the hand's review, as its page would on the end screen: the server works a
review out only when a page asks). Meanwhile a sampler loads the home page four times a
second. After set-up, for `--seconds`:

    server CPU (user + system, % of one core), its CPU per check answered (ms: less swayed by
    the machine's other load than the latencies), the load generator's own CPU (% of one core),
    what the pages were sent (KiB/s of message text: the sockets are not compressed), RSS at
    the end (MiB), grid -> check latency p50 / p99 / max (ms), page GET p99 (ms), checks
    answered, errors, rooms set up, refusals

A request the server sheds (503 or 429, room creation or a room's socket during set-up) is
retried after its Retry-After, a room creation that times out after a second (at most
SETUP_SECONDS in all per room); each refusal is counted and reported, and a room never set up
is reported, not fatal.

The load generator shares the machine's cores with the server (say so when quoting figures).
`--rss-every S` also prints the server's RSS every S seconds (memory over time);
`--tracemalloc` makes the server print, at the end, what its heap grew by and where.
`--servers N` runs N servers (`serve --room-prefix sK`, docs/SECURITY.md "Several servers")
and creates the rooms on each in turn, as a proxy in front of them would; CPU and RSS are then
the servers' sums (CPU in % of one core: 200% is both cores). `--processes N` runs each server
as `serve --processes N` (a front and N workers, solver/web/processes.py): CPU and RSS are then
summed over each server's process tree.
`--py-spy PATH --profile-seconds S` samples every server process (the front and its workers) with
py-spy (`pip install py-spy`; PATH its binary) for S seconds once the measure starts, and prints
where their CPU goes: per process, the functions holding the most samples themselves (self) and
the project's functions by the share of samples they are on the stack (inclusive), and each
worker's samples by what they serve (PROFILE_GROUPS: reviews, the database writer, the bots'
moves, table messages, people's grids, the rest); the collapsed stacks are kept in --profile-dir.
--record writes benchmarks/results/<date>-load.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from results_file import machine, record
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

TICKS = os.sysconf("SC_CLK_TCK")
SETUP_SECONDS = 300.0  # a room's set-up, refusals retried, before it is given up (and reported)
MAX_RETRY_AFTER = 30.0
OPEN_SECONDS = 120.0  # a busy server's handshakes queue behind its rooms' messages: wait, then fail

# The server process. With --tracemalloc, SIGUSR1 takes a snapshot: the first is the
# baseline, each later one prints what grew since, by allocation site, to the server's stderr.
SERVER = """
import signal, sys, tracemalloc
if {trace}:
    tracemalloc.start(1)
    snapshots = []

    def grown(*_):
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        if snapshots:
            print("-- grown since the first snapshot (top 12, by line):", file=sys.stderr)
            for stat in snapshot.compare_to(snapshots[0], "lineno")[:12]:
                print(stat, file=sys.stderr)
        snapshots[:] = snapshots[:1] or [snapshot]

    signal.signal(signal.SIGUSR1, grown)
from solver.cli import main
main()
"""


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)  # grid -> check, seconds
    page_gets: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hands: int = 0
    reviews_asked: int = 0  # --reviews: ended hands whose review the host's page asked for
    reviews: int = 0  # and the reviews answered
    refusals: dict[str, int] = field(default_factory=dict)  # "POST /api/rooms 503" -> times, retried
    rooms_set_up: int = 0
    profiles: list[tuple[int, str]] = field(default_factory=list)  # (pid, collapsed stacks file)
    own_cpu: float = 0.0  # the load generator's CPU through the measure, a share of one core
    page_bytes: int = 0  # the messages' text the pages were sent while measuring (uncompressed: no deflate)

    def refused(self, what: str, status: int | str) -> None:
        key = f"{what} {status}"
        self.refusals[key] = self.refusals.get(key, 0) + 1


def retry_after(headers, fallback: float = 1.0) -> float:
    """The seconds a refusal's Retry-After asks for (a number of seconds; else `fallback`), capped."""
    try:
        return min(MAX_RETRY_AFTER, max(0.1, float(headers.get("Retry-After", fallback))))
    except (TypeError, ValueError):
        return fallback


def start_server(
    max_rooms: int, trace: bool = False, prefix: str | None = None, processes: int = 1, db: str = "none", port: int = 0
) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-c", SERVER.format(trace=trace), "serve", "--port", str(port), "--db", db]
    command += ["--room-prefix", prefix] if prefix else []
    command += ["--processes", str(processes)] if processes > 1 else []
    command += ["--max-rooms", str(max_rooms), "--rooms-per-client", str(max_rooms)]
    command += ["--room-creations", str(max_rooms * 4), "--sockets-per-client", str(max_rooms * 8)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline() if server.stdout else ""
    found = re.search(r"http://[\d.]+:\d+", line)
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, found.group(0)


def process_tree(pid: int) -> list[int]:
    """`pid` and every process under it (a server's workers)."""
    tree, index = [pid], 0
    while index < len(tree):
        try:
            with open(f"/proc/{tree[index]}/task/{tree[index]}/children") as children:
                tree += [int(child) for child in children.read().split()]
        except OSError:
            pass
        index += 1
    return tree


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def post_room(base: str, figures: Figures) -> str | None:
    """A new room's id; a shed request (503, 429) is retried after its Retry-After, for up to
    SETUP_SECONDS (None then: the room is not set up)."""
    deadline = time.monotonic() + SETUP_SECONDS
    while True:
        request = urllib.request.Request(
            base + "/api/rooms", data=b'{"language":"en"}', headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())["id"]
        except urllib.error.HTTPError as error:
            if error.code not in (429, 503):
                raise
            figures.refused("POST /api/rooms", error.code)
            wait = retry_after(error.headers)
        except (TimeoutError, urllib.error.URLError, ConnectionError) as error:  # no answer in time: again
            figures.refused("POST /api/rooms", type(getattr(error, "reason", error)).__name__)
            wait = 1.0
        if time.monotonic() + wait > deadline:
            return None
        time.sleep(wait)


def get_page(base: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(base + "/", timeout=30) as response:
        response.read()
    return time.perf_counter() - started


class Person:
    """One scripted page: joins, then sends a grid a second and times each check."""

    def __init__(self, url: str, name: str, figures: Figures, measuring: asyncio.Event, reviews: bool = False):
        self.url, self.name, self.figures, self.measuring = url, name, figures, measuring
        self.reviews = reviews  # a host asks for each ended hand's review, as the page does on its end screen
        self.held: list[str] = []
        self.sent: dict[int, float] = {}
        self.seq = 0
        self.phase = "lobby"
        self.restarted = False  # the host started the next hand after this one's end
        self.joined = asyncio.Event()

    async def connect(self):
        """The room's socket; a refused handshake (503, 429) retried after its Retry-After, for up
        to SETUP_SECONDS."""
        deadline = time.monotonic() + SETUP_SECONDS
        while True:
            try:
                return await connect(self.url, max_size=2**22, open_timeout=OPEN_SECONDS, compression=None)
            except InvalidStatus as error:
                status = error.response.status_code
                if status not in (429, 503) or time.monotonic() > deadline:
                    raise
                self.figures.refused("room socket", status)
                await asyncio.sleep(retry_after(error.response.headers))

    async def run(self, host_of: list[str] | None, stop: asyncio.Event, table: list[Person]) -> None:
        async with await self.connect() as ws:
            await ws.send(json.dumps({"type": "join", "name": self.name}))
            reader = asyncio.create_task(self.read(ws, host_of is not None))
            if host_of is not None:  # once every person of the room has a seat: a person joining later only watches
                joined = asyncio.gather(*(person.joined.wait() for person in table))
                await asyncio.wait_for(joined, OPEN_SECONDS)
                for preset in host_of:
                    await ws.send(json.dumps({"type": "add_bot", "preset": preset}))
                await ws.send(json.dumps({"type": "start"}))
            try:
                while not stop.is_set():
                    await asyncio.sleep(1.0)
                    if len(self.held) >= 3 and self.phase == "playing":
                        self.seq += 1
                        width = 2 + self.seq % 2
                        cells = [[0, col, letter] for col, letter in enumerate(self.held[:width])]
                        self.sent[self.seq] = time.perf_counter()
                        await ws.send(json.dumps({"type": "grid", "seq": self.seq, "cells": cells}))
            finally:
                reader.cancel()

    async def read(self, ws, is_host: bool) -> None:
        async for text in ws:
            if self.measuring.is_set():
                self.figures.page_bytes += len(text)
            if text.startswith(UNREAD):  # the others' grids and the calls' log: a page's to show, not ours
                continue
            message = json.loads(text)
            kind = message["type"]
            if kind == "welcome":
                self.joined.set()
            elif kind == "tiles":
                self.held = message["held"]
            elif kind == "room":
                self.phase = message["phase"]
                if self.phase == "playing":
                    self.restarted = False
                if is_host and self.phase == "ended" and not self.restarted:
                    self.restarted = True
                    self.figures.hands += 1
                    if self.reviews:
                        self.figures.reviews_asked += 1
                        await ws.send(json.dumps({"type": "review"}))
                    await ws.send(json.dumps({"type": "again"}))
                    await ws.send(json.dumps({"type": "start"}))
            elif kind == "review":
                self.figures.reviews += 1
            elif kind == "check" and message.get("seq") in self.sent:
                took = time.perf_counter() - self.sent.pop(message["seq"])
                if self.measuring.is_set():
                    self.figures.latencies.append(took)
            elif kind == "error" and self.measuring.is_set():
                self.figures.errors.append(message.get("code", "?"))
                if os.environ.get("BENCH_LOAD_VERBOSE"):
                    print(self.name, message, file=sys.stderr)


# The messages a scripted person does not read, by the start of their text (the server writes
# "type" first, without spaces): the table (every grid of the room) and the log, most of the
# bytes a page is sent. Read, they would cost the load generator the CPU the server is short of.
UNREAD = ('{"type":"table",', '{"type":"log",')


def start_profiles(
    py_spy: str, pids: list[int], seconds: float, folder: str
) -> list[tuple[int, subprocess.Popen, str]]:
    """py-spy recording each of `pids` for `seconds` (collapsed stacks, idle threads left out)."""
    profiles = []
    for pid in pids:
        path = f"{folder}/profile-{pid}.txt"
        command = [py_spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--format", "raw"]
        command += ["--output", path, "--rate", "50", "--nonblocking"]
        profiles.append((pid, subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), path))
    return profiles


def frame_name(frame: str) -> str:
    """'function (path/to/file.py:12)' -> 'function (file.py)', the project's path kept from solver/."""
    found = re.match(r"(?P<function>.*?) \((?P<path>[^:]*)(:\d+)?\)$", frame.strip())
    if not found:
        return frame.strip()
    path = found["path"]
    path = path[path.index("solver/") :] if "solver/" in path else os.path.basename(path)
    return f"{found['function']} ({path})"


def profile_summary(path: str, top: int = 15) -> list[str]:
    """The collapsed stacks at `path`: samples, the top functions by self samples, and the
    project's functions (solver/) by inclusive samples, each as a share of the samples."""
    self_counts: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return ["(no profile)"]
    for line in lines:
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [frame_name(frame) for frame in stack.split(";")]
        total += count
        self_counts[frames[-1]] = self_counts.get(frames[-1], 0) + count
        for name in set(frames):
            if "(solver/" in name:
                inclusive[name] = inclusive.get(name, 0) + count
    if not total:
        return ["(no samples)"]
    out = [f"{total} samples (busy threads only)", "", "self:"]
    out += [f"- {count / total:.1%} {name}" for name, count in sorted(self_counts.items(), key=lambda x: -x[1])[:top]]
    out += ["", "the project's functions, inclusive:"]
    out += [f"- {count / total:.1%} {name}" for name, count in sorted(inclusive.items(), key=lambda x: -x[1])[:top]]
    return out


# A worker's samples by what they serve: each stack in the first group one of whose frames it holds.
PROFILE_GROUPS = [
    ("the coach's review of an ended hand", ("review_of",)),
    ("the SQLite writer thread (durable rooms)", ("RoomStore._write_queued",)),
    ("the bots' moves (engine steps)", ("Hand.advance", "Hand.external_call", "Hand.leave", "Hand.start")),
    ("table messages to the pages", ("broadcast_table", "show_building", "publish")),
    ("people's grids (update_grid: parse, check, save)", ("update_grid",)),
    ("other room messages (join, start, lobby)", ("Room.handle",)),
    ("sockets, frames, the event loop, the rest", ("",)),
]
PROFILE_ACROSS = [("JSON encoding", "JSONEncoder"), ("permessage-deflate", "PerMessageDeflate")]


def profile_groups(path: str) -> list[str]:
    """The collapsed stacks at `path` by PROFILE_GROUPS (and PROFILE_ACROSS, across the groups),
    each a share of the samples."""
    counts = dict.fromkeys([name for name, _ in PROFILE_GROUPS + PROFILE_ACROSS], 0)
    total = 0
    with contextlib.suppress(OSError), open(path) as lines:
        for line in lines:
            stack, _, count_text = line.rstrip().rpartition(" ")
            if not stack or not count_text.isdigit():
                continue
            total += int(count_text)
            counts[next(name for name, keys in PROFILE_GROUPS if any(key in stack for key in keys))] += int(count_text)
            for name, key in PROFILE_ACROSS:
                counts[name] += int(count_text) if key in stack else 0
    if not total:
        return []
    shares = [f"- {counts[name] / total:.1%} {name}" for name, _ in PROFILE_GROUPS]
    return [
        "by what it serves:",
        *shares,
        *(f"- (across those: {counts[n] / total:.1%} {n})" for n, _ in PROFILE_ACROSS),
    ]


async def load(
    bases: list[str],
    rooms: int,
    people: int,
    bots: list[str],
    seconds: float,
    pids: list[int],
    rss_every: float,
    trace: bool,
    profiling: tuple[str, float, str] | None = None,
    reviews: bool = False,
):
    """Rooms created on each server in turn (what a proxy in front of them does), then measured
    for `seconds`: the figures, the servers' CPU (a share of one core, summed), RSS (MiB, summed)
    and RSS over time."""
    figures, stop, measuring = Figures(), asyncio.Event(), asyncio.Event()
    tasks = []
    for number in range(rooms):
        base = bases[number % len(bases)]
        room = await asyncio.to_thread(post_room, base, figures)
        if room is None:
            continue
        figures.rooms_set_up += 1
        url = base.replace("http://", "ws://") + f"/r/{room}/ws"
        table = [Person(url, f"P{number}-{index}", figures, measuring, reviews) for index in range(people)]
        for index, person in enumerate(table):
            tasks.append(asyncio.create_task(person.run(bots if index == 0 else None, stop, table)))
            await asyncio.sleep(0.002)
        await asyncio.sleep(1.0 / max(1, rooms) * 0.5)  # spread the rooms' seconds
    await asyncio.sleep(3.0)  # every hand dealt
    measuring.set()
    cpu_before, started = sum(map(cpu_seconds, pids)), time.monotonic()
    own_before = time.process_time()
    profiles = start_profiles(*profiling[:1], pids, *profiling[1:]) if profiling else []
    if trace:
        for pid in pids:
            os.kill(pid, signal.SIGUSR1)  # the baseline snapshot
    rss_trace = []
    next_rss = started
    while (now := time.monotonic()) - started < seconds:
        try:
            figures.page_gets.append(await asyncio.to_thread(get_page, bases[len(figures.page_gets) % len(bases)]))
        except urllib.error.HTTPError as error:  # a refusal is a figure too
            figures.errors.append(f"GET {error.code}")
        except OSError as error:  # a timeout too
            figures.errors.append(f"GET {type(error).__name__}")
        if rss_every and now >= next_rss:
            rss_trace.append((round(now - started), sum(map(rss_mib, pids))))
            next_rss += rss_every
        await asyncio.sleep(0.25)
    elapsed = time.monotonic() - started
    cpu = (sum(map(cpu_seconds, pids)) - cpu_before) / elapsed
    figures.own_cpu = (time.process_time() - own_before) / elapsed
    rss = sum(map(rss_mib, pids))
    if trace:
        for pid in pids:
            os.kill(pid, signal.SIGUSR1)  # what grew, printed by each server
        await asyncio.sleep(min(30.0, 5.0 + rooms / 5))
    for _, profiler, _ in profiles:
        await asyncio.to_thread(profiler.wait, 120)
    figures.profiles = [(pid, path) for pid, _, path in profiles]
    stop.set()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    figures.errors += [type(result).__name__ for result in done if isinstance(result, BaseException)]
    return figures, cpu, rss, rss_trace


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", default="10,100", help="comma-separated room counts, one run each")
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--bots", type=int, default=2)
    parser.add_argument("--bot", default="medium")
    parser.add_argument("--servers", type=int, default=1, help="servers behind the load generator (--room-prefix)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes of each server (--processes)")
    parser.add_argument("--rss-every", type=float, default=0.0)
    parser.add_argument("--tracemalloc", action="store_true", help="print what the server's heap grew by")
    parser.add_argument(
        "--db",
        default="none",
        help="the servers' room database: 'none' (memory only) or 'file' (a new SQLite file per run: the cost of "
        "durable rooms); 'none,file' runs each room count both ways, one after the other (side by side)",
    )
    parser.add_argument("--port", type=int, default=0, help="the first server's port (0: any free one)")
    parser.add_argument("--py-spy", help="py-spy's binary: profile every server process (--profile-seconds)")
    parser.add_argument("--profile-seconds", type=float, default=30.0)
    parser.add_argument("--profile-dir", default="", help="where the collapsed stacks go (default: a temporary folder)")
    parser.add_argument(
        "--reviews",
        action="store_true",
        help="each room's host asks for every ended hand's review, as the page does on its end screen "
        "(the coach's searches: seconds a hand); 'hands ended' then also says how many were answered",
    )
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    header = machine("uvicorn", "websockets", "starlette")
    rows = []
    traces = []
    runs = [(int(n), kind) for n in args.rooms.split(",") for kind in args.db.split(",")]
    for rooms, db_kind in runs:
        prefixes = [f"s{k + 1}" for k in range(args.servers)] if args.servers > 1 else [None]
        folder = tempfile.mkdtemp(prefix="bench-load-")
        db = "none" if db_kind == "none" else f"{folder}/rooms.sqlite3"
        started = [
            start_server(rooms + 10, args.tracemalloc, prefix, args.processes, db, args.port + k if args.port else 0)
            for k, prefix in enumerate(prefixes)
        ]
        try:
            time.sleep(1.0)
            pids = [pid for server, _ in started for pid in process_tree(server.pid)]
            figures, cpu, rss, trace = asyncio.run(
                load(
                    [base for _, base in started],
                    rooms,
                    args.people,
                    [args.bot] * args.bots,
                    args.seconds,
                    pids,
                    args.rss_every,
                    args.tracemalloc,
                    (args.py_spy, args.profile_seconds, args.profile_dir or folder) if args.py_spy else None,
                    args.reviews,
                )
            )
        finally:
            for server, _ in started:
                server.terminate()
            for server, _ in started:
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
        ms = [value * 1000 for value in figures.latencies]
        gets = [value * 1000 for value in figures.page_gets]
        errors = ", ".join(f"{code} x{figures.errors.count(code)}" for code in sorted(set(figures.errors))) or "none"
        refusals = ", ".join(f"{what} x{count}" for what, count in sorted(figures.refusals.items())) or "none"
        hands = f"{figures.hands}" + (
            f" ({figures.reviews} of {figures.reviews_asked} reviews)" if args.reviews else ""
        )
        rows.append(
            f"| {rooms} | {args.servers} x {args.processes} | {db_kind} | {args.seconds:g} | {cpu:.0%} "
            f"| {cpu * args.seconds * 1000 / max(1, len(ms)):.2f} | {figures.own_cpu:.0%} "
            f"| {figures.page_bytes / args.seconds / 1024:.0f} | {rss:.0f} | "
            f"{percentile(ms, 0.5):.1f} / {percentile(ms, 0.99):.1f} / {max(ms, default=float('nan')):.0f} | "
            f"{percentile(gets, 0.99):.1f} | {len(ms)} | {hands} | {errors} | {figures.rooms_set_up} "
            f"| {refusals} |"
        )
        if trace:
            traces.append(f"{rooms} rooms, RSS MiB over time: " + ", ".join(f"{t} s {m:.0f}" for t, m in trace))
        for pid, path in figures.profiles:
            role = "server" if len(pids) == 1 else "front" if pid == pids[0] else "worker"
            traces += ["", f"### py-spy, {rooms} rooms, db {db_kind}: process {pid} ({role}), {path}", ""]
            traces += profile_summary(path)
            traces += ["", *profile_groups(path)] if role != "front" else []
        print(rows[-1], file=sys.stderr)
    load_now = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    table = [
        f"Rooms of {args.people} scripted people (a grid a second each) and {args.bots} {args.bot} bots; "
        f"load average at the end {load_now}.",
        "",
        "| rooms | servers x processes | db | seconds | server CPU | server CPU ms a check | load generator CPU "
        "| to the pages KiB/s | RSS MiB | grid -> check p50 / p99 / max ms | page GET p99 ms "
        "| checks | hands ended | errors | rooms set up | refused (retried after Retry-After) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        *traces,
    ]
    text = "\n".join([header, "", *table]) + "\n"
    print(text)
    if args.record:
        record(text, "load")


if __name__ == "__main__":
    main()
