"""`bananas serve --processes N` (solver/web/processes.py): a front hands each connection to
the worker process holding its room; everything else goes to the workers in turn.

One server of two workers for the module (a real `bananas serve` process, as a user runs it);
different client addresses are different loopback addresses (127.0.0.2, ...).
"""

from __future__ import annotations

import asyncio
import http.client as http_client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import Page, closed_code, new_room, run_bounded
from helpers import request as engine_request
from websockets.asyncio.client import connect

START = "from solver.cli import main; main()"


class Served:
    def __init__(self, *options: str):
        if "--db" not in options:  # not the session's default file, which another test process may hold
            options = (*options, "--db", "none")
        command = [sys.executable, "-c", START, "serve", "--port", "0", "--processes", "2", *options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline() if self.process.stdout else ""
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not found:
            self.process.kill()
            raise AssertionError(f"the server did not start: {line!r} {self.process.stderr.read()!r}")
        assert "2 worker processes" in line
        self.url, self.port = found.group(0), int(found.group(1))

    def workers(self) -> list[int]:
        """The worker processes (multiprocessing's spawned children; not its resource tracker)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return [int(pid) for pid in children if "spawn_main" in cmdline(int(pid))]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def cmdline(pid: int) -> str:
    """A process's command line; "" once it is gone (a worker just killed is listed a moment longer)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except FileNotFoundError:
        return ""


@pytest.fixture(scope="module")
def server():
    served = Served()
    yield served
    served.stop()


def request(server, method: str, path: str, *, body: bytes | None = None, headers=None, source="127.0.0.1"):
    """status, headers, body of one request from the loopback address `source` (refused: 0)."""
    connection = http_client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    except (ConnectionError, http_client.RemoteDisconnected):
        return 0, {}, ""
    finally:
        connection.close()


def test_rooms_spread_over_the_workers_and_each_is_reached_through_the_front(server):
    rooms = [new_room(server) for _ in range(4)]
    prefixes = [room.split("-", 1)[0] for room in rooms]
    assert sorted(set(prefixes)) == ["w1", "w2"] and prefixes.count("w1") == 2  # in turn
    for room in rooms:
        status, headers, body = request(server, "GET", f"/r/{room}")
        assert status == 200
        assert headers.get("connection") == "close"  # routing is per connection
        assert request(server, "GET", f"/r/{room}/qr.svg")[0] == 200
    for prefix in ("w1", "w2"):
        assert request(server, "GET", f"/r/{prefix}-nosuchroomnosuchroom")[0] == 404

    async def join_one_room_on_each_worker() -> list[dict]:  # over their sockets, through the front
        welcomes = []
        for room in rooms[:2]:
            async with Page(server, room) as page:
                welcomes.append(await page.join("ana"))
        return welcomes

    assert [welcome["room"] for welcome in run_bounded(join_one_room_on_each_worker)] == rooms[:2]


def test_a_cross_site_request_through_the_front_is_refused_by_its_worker(server):
    status, _, _ = request(server, "POST", "/api/rooms", body=b"{}", headers={"Origin": "http://evil.example"})
    assert status == 403
    assert request(server, "GET", "/", headers={"Host": "evil.example"})[0] == 400


def test_half_open_request_heads_at_the_front_do_not_stop_page_loads(server):
    held = []
    try:
        for _ in range(40):  # more than one address may hold (MAX_HTTP_CONNECTIONS_PER_CLIENT)
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=("127.0.0.2", 0))
            sock.sendall(b"GET / HT")  # a head that never ends
            held.append(sock)
        assert request(server, "GET", "/", source="127.0.0.2")[0] == 503  # that address is at its cap
        started = time.monotonic()
        status, _, body = request(server, "GET", "/", source="127.0.0.3")
        assert status == 200 and "/static/app.js" in body and time.monotonic() - started < 5
    finally:
        for sock in held:
            sock.close()


def test_a_request_head_past_the_limit_is_refused(server):
    from solver.web.processes import MAX_HEAD_BYTES

    with socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.4", 0)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nX-Long: " + b"a" * MAX_HEAD_BYTES)
        assert sock.recv(100).startswith(b"HTTP/1.1 431")


def test_a_whole_request_head_past_the_limit_is_answered_431_and_not_reset(server):
    """Issue 34: as a single server answers it (tests/web/test_public_server.py)."""
    from solver.web.processes import MAX_HEAD_BYTES

    assert request(server, "GET", "/", headers={"X-Long": "a" * (MAX_HEAD_BYTES + 6000)})[0] == 431
    assert request(server, "GET", "/", headers={"X-Long": "a" * (MAX_HEAD_BYTES - 1000)})[0] == 200


def test_a_body_past_the_limit_is_answered_413_and_not_reset(server):
    """Issue 34: the worker answers 413 under `connection: close` while the client is still
    sending; it lingers, reading what comes, so the client reads the 413 rather than a reset."""
    headers = {"Content-Type": "application/json"}
    status, _, body = request(server, "POST", "/api/solve", body=b" " * 10_000_000, headers=headers)
    assert status == 413 and json.loads(body)["code"] == "too_large"


def test_metrics_through_the_front_are_every_workers_labelled_by_worker(server):
    """Issue 34: /metrics reaches the front, which asks each worker for its figures."""
    for _ in range(2):  # one on each worker, in turn
        new_room(server)
    status, headers, text = request(server, "GET", "/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain")
    rooms = {
        line.split("{")[1].split("}")[0]: float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("bananas_rooms{")
    }
    assert set(rooms) == {'worker="w1"', 'worker="w2"'}
    assert sum(rooms.values()) >= 2 and min(rooms.values()) >= 1
    assert text.count("# TYPE bananas_rooms gauge") == 1


def test_the_api_rate_per_address_holds_across_the_workers(server):
    """Issue 34. Requests go to the workers in turn: a burst counted by each worker alone would let twice
    API_REQUEST_BURST through. Sent all at once, so that few tokens come back meanwhile."""
    from solver.core.limits import API_REQUEST_BURST, API_REQUESTS_PER_SECOND

    body, headers = b'{"grid": "CAT"}', {"Content-Type": "application/json"}

    def check(source: str) -> int:
        return request(server, "POST", "/api/check", body=body, headers=headers, source=source)[0]

    started = time.monotonic()
    with ThreadPoolExecutor(2 * API_REQUEST_BURST) as threads:
        statuses = list(threads.map(check, ["127.0.0.6"] * (2 * API_REQUEST_BURST)))
    refilled = API_REQUESTS_PER_SECOND * (time.monotonic() - started)  # tokens back meanwhile
    admitted = len(statuses) - statuses.count(429)  # 200, or 503 if the loaded machine sheds load
    assert set(statuses) <= {200, 429, 503}, statuses
    assert API_REQUEST_BURST <= admitted <= API_REQUEST_BURST + refilled + 1, (statuses, refilled)
    assert check("127.0.0.7") == 200  # another address: its own rate


def test_sigterm_stops_the_front_and_its_workers(server):
    workers = server.workers()
    assert len(workers) == 2
    server.stop()
    assert server.process.returncode == 0
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_a_worker_that_dies_is_started_again_and_its_room_comes_back(tmp_path):
    """The front starts a dead worker again; it reloads its rooms from the database (with
    their tokens) while the other worker never stops, and the person's hand is where it was:
    their tiles, and the grid their page was last answered for (laid, then the worker killed
    while nothing else happened at the table)."""
    served = Served("--db", str(tmp_path / "rooms.sqlite3"))

    async def open_room() -> tuple[str, str, str, list]:
        room = new_room(served)
        async with Page(served, room) as ana:
            token = (await ana.join("ana"))["token"]
            await ana.send({"type": "start"})
            tiles = await ana.until(lambda m: m["type"] == "tiles" and m["held"])
            cells = [[4, 7 + col, letter] for col, letter in enumerate(tiles["held"][:3])]
            await ana.send({"type": "grid", "cells": cells, "seq": 1})
            await ana.until(lambda m: m["type"] == "check" and m["seq"] == 1)
            return room, token, tiles["held"], cells

    async def rejoin(room: str, token: str) -> dict:
        async with Page(served, room) as ana:
            await ana.join("ana", token)
            return await ana.until(lambda m: m["type"] == "tiles")

    try:
        room, token, held, cells = run_bounded(open_room)
        number = int(room.split("-", 1)[0][1:])  # w1-..., w2-...: the workers start in that order
        victim = sorted(served.workers())[number - 1]
        other = [pid for pid in served.workers() if pid != victim]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 90
        while victim in served.workers() or len(served.workers()) < 2 or request(served, "GET", f"/r/{room}")[0] != 200:
            assert served.process.poll() is None, served.process.stderr.read()
            assert time.monotonic() < deadline, "the worker was not started again"
            time.sleep(0.3)
        assert set(other) <= set(served.workers())  # the other worker never stopped
        again = run_bounded(lambda: rejoin(room, token))
        assert sorted(again["held"]) == sorted(held)  # the solo hand, where it was
        assert again["cells"] == cells  # the grid as the page laid it, in its own coordinates
    finally:
        served.stop()
    assert "worker bananas-" in served.process.stderr.read()  # the death is reported


@pytest.mark.slow  # waits out a worker's silence: ~7 s
def test_a_worker_that_stops_answering_is_routed_around_until_it_answers_again():
    """Issue 33: a worker that is alive but does not answer (SIGSTOP) gets no new connections
    within a few seconds of its health checks going unanswered; its rooms are answered 503
    meanwhile, and it is routed to again once it answers."""
    from solver.web.processes import HEALTH_INTERVAL_SECONDS, HEALTH_TIMEOUT_SECONDS

    served = Served()
    try:
        rooms = [new_room(served) for _ in range(2)]
        stopped_room = next(room for room in rooms if room.startswith("w1-"))
        victim = sorted(served.workers())[0]  # w1: the workers start in order
        os.kill(victim, signal.SIGSTOP)
        try:
            time.sleep(HEALTH_TIMEOUT_SECONDS + 2 * HEALTH_INTERVAL_SECONDS)
            started = time.monotonic()
            for _ in range(6):  # in turn, these would alternate between the two workers
                assert request(served, "GET", "/")[0] == 200
            assert time.monotonic() - started < 5
            assert request(served, "GET", f"/r/{stopped_room}")[0] == 503
        finally:
            os.kill(victim, signal.SIGCONT)
        deadline = time.monotonic() + 10
        while request(served, "GET", f"/r/{stopped_room}")[0] != 200:
            assert time.monotonic() < deadline, "the worker was not routed to again"
            time.sleep(0.3)
        assert {new_room(served).split("-", 1)[0] for _ in range(2)} == {"w1", "w2"}
    finally:
        served.stop()
    errors = served.process.stderr.read()
    assert "worker 1 has not answered" in errors and "worker 1 answers again" in errors


# -- issue 34: the quotas per client address hold across the workers (solver/web/quotas.py) ----


def create_room_from(served, source: str) -> tuple[int, str]:
    """Status and room id (or "") of POST /api/rooms from `source`."""
    status, _, body = request(served, "POST", "/api/rooms", body=b"{}", source=source)
    return status, json.loads(body)["id"] if status == 201 else ""


async def room_socket(served, room: str, source: str, name: str | None = None):
    """A room socket from `source`, joined as `name` (a joined socket is not closed as idle)."""
    ws = await connect(f"ws://127.0.0.1:{served.port}/r/{room}/ws", local_addr=(source, 0))
    if name is not None:
        await ws.send(json.dumps({"type": "join", "name": name}))
        while json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] != "welcome":
            pass
    return ws


def kill_and_wait_for_restart(served, prefix: str, room: str) -> None:
    """SIGKILL the worker `prefix` (w1, w2: started in that order), and wait until it serves `room` again."""
    victim = sorted(served.workers())[int(prefix[1:]) - 1]
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 120
    while victim in served.workers() or len(served.workers()) < 2 or request(served, "GET", f"/r/{room}")[0] != 200:
        assert served.process.poll() is None, served.process.stderr.read()
        assert time.monotonic() < deadline, "the worker was not started again"
        time.sleep(0.3)


def test_quotas_per_address_hold_across_the_workers_and_a_killed_workers_are_released(tmp_path):
    """One address's rooms, engine sessions and sockets are counted over both workers (each
    alone would allow its own quota); when a worker is killed, what it held is released (its
    sockets); its rooms come back from --db, not charged to their creator again (a restart
    never locks anyone out of creating rooms)."""
    quotas = ("--rooms-per-client", "3", "--sessions-per-client", "2", "--sockets-per-client", "3")
    served = Served("--db", str(tmp_path / "rooms.sqlite3"), *quotas)
    creator, player, engine_client = "127.0.0.11", "127.0.0.12", "127.0.0.13"

    async def engine_sessions() -> None:
        url = f"ws://127.0.0.1:{served.port}/engine"
        mine = [await connect(url, local_addr=(engine_client, 0)) for _ in range(2)]  # on w1 and w2, in turn
        for ws in mine:
            assert (await engine_request(ws, {"type": "hello", "id": 1}))[0]["type"] == "hello"
        async with connect(url, local_addr=(engine_client, 0)) as extra:
            assert await closed_code(extra) == 1013  # 2 in all
        for ws in mine:
            await ws.close()

    async def sockets_then_a_killed_worker(rooms: list[str]) -> None:
        held = [await room_socket(served, room, player, f"p{n}") for n, room in enumerate(rooms)]
        prefixes = [room.split("-")[0] for room in rooms]  # two rooms on one worker, one on the other
        lone = next(room for room, prefix in zip(rooms, prefixes, strict=True) if prefixes.count(prefix) == 1)
        other = next(room for room in rooms if room.split("-")[0] != lone.split("-")[0])
        assert await closed_code(await room_socket(served, lone, player)) == 1013  # 3 in all; its worker holds 1
        await asyncio.to_thread(kill_and_wait_for_restart, served, lone.split("-")[0], lone)
        again = await room_socket(served, other, player, "late")  # the dead worker's socket is released
        assert await closed_code(await room_socket(served, other, player)) == 1013  # the living one's 2 count
        for ws in [*held, again]:
            await ws.close()

    try:
        created = [create_room_from(served, creator) for _ in range(5)]
        assert [status for status, _ in created] == [201, 201, 201, 429, 429]  # 3 in all, over w1 and w2
        rooms = [room for _, room in created[:3]]
        assert {room.split("-")[0] for room in rooms} == {"w1", "w2"}
        assert create_room_from(served, "127.0.0.14")[0] == 201  # another address: its own quota
        run_bounded(engine_sessions)
        run_bounded(lambda: sockets_then_a_killed_worker(rooms), timeout=240)
        assert create_room_from(served, creator)[0] == 201  # the killed worker's room came back, uncharged
    finally:
        served.stop()
