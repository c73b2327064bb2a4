"""Issue 34: no client can slow down another's solve. One address keeps connections busy with the
costliest solves the API allows; another address's small solves are still answered at once
(its own queue, a thread the flooder may not take: solver.protocol.fair). And what an operator
watches: /healthz, /readyz, /metrics, and the refusals of an overloaded server (solver.web.health)."""

from __future__ import annotations

import http.client
import json
import threading
import time
from types import SimpleNamespace
from urllib.parse import urlsplit

import numpy as np
import pytest

from solver.core.grid import Grid, validate
from solver.core.limits import MAX_API_SECONDS, MAX_API_TILES
from solver.core.tiles import ALPHABET, ENGLISH, TileCounts, draw
from solver.lexicon.loader import get_lexicon
from solver.web import BackgroundServer, WebConfig, health
from solver.web.health import metrics_allowed


def solve_from(url: str, source: str, body: dict, timeout: float = 60.0) -> tuple[int, dict, float]:
    """POST /api/solve from the loopback address `source`: status, reply, seconds taken."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout, source_address=(source, 0))
    started = time.monotonic()
    try:
        connection.request("POST", "/api/solve", json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read()), time.monotonic() - started
    finally:
        connection.close()


@pytest.mark.slow  # ~12 s (the server's stop waits for the flood); quick: tests/protocol/test_fair.py
def test_a_flooding_address_does_not_slow_down_another_addresses_small_solves():
    rng = np.random.default_rng(34)
    # Twelve of every letter: no grid within the limit, so each runs its whole 5 s.
    costly = {"tiles": (ALPHABET * 12)[:MAX_API_TILES], "time_limit": MAX_API_SECONDS}
    small = "ACTDOG"
    with BackgroundServer(WebConfig()) as server:
        assert solve_from(server.url, "127.0.0.1", {"tiles": small}, timeout=600)[0] == 200  # kernels warm
        flood = [
            threading.Thread(target=solve_from, args=(server.url, "127.0.0.2", dict(costly, seed=n)), daemon=True)
            for n in range(2)  # one running, one waiting: the flooder's share of the pool is full
        ]
        for thread in flood:
            thread.start()
        pool_holds(server.url, 2)  # the flood holds the pool: its two jobs taken in
        answers = [solve_from(server.url, "127.0.0.3", {"tiles": draw(ENGLISH, 7, rng).letters()}) for _ in range(3)]
        for status, reply, seconds in answers:
            assert status == 200 and seconds < 3.0, (status, reply, seconds)  # 5 s behind one costly solve
            if reply["status"] == "solved":
                grid = Grid.from_rows(reply["grid"])
                assert validate(grid, get_lexicon("en"), TileCounts.from_letters(reply["tiles"])).ok
        assert any(thread.is_alive() for thread in flood)  # the flood was still being served


# -- health, metrics and load shedding (solver.web.health) ------------------------------------


def get(url: str, path: str, source: str = "127.0.0.1") -> tuple[int, dict, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


def figures_of(url: str) -> dict[str, float]:
    """The gauges and counters /metrics says now."""
    text = get(url, "/metrics")[2]
    return {line.split()[0]: float(line.split()[1]) for line in text.splitlines() if line and line[0] != "#"}


def pool_holds(url: str, jobs: int, seconds: float = 60.0) -> None:
    """Wait until the solver's pool holds `jobs` jobs, running or waiting (/metrics)."""
    deadline = time.monotonic() + seconds
    while True:
        figures = figures_of(url)
        if figures["bananas_pool_running"] + figures["bananas_pool_waiting"] >= jobs:
            return
        assert time.monotonic() < deadline, figures
        time.sleep(0.02)  # (between two looks at the pool, not an order of events)


def ready_within(url: str, seconds: float = 600.0) -> tuple[int, dict, str]:
    """/readyz once it answers 200 (the kernels on numba's JIT), or its last answer after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        answer = get(url, "/readyz")
        if answer[0] == 200 or time.monotonic() > deadline:
            return answer
        assert answer[2] == "not ready: the solver's kernels are compiling\n", answer
        time.sleep(0.1)


def test_health_readiness_and_metrics_say_what_the_server_holds():
    with BackgroundServer(WebConfig()) as server:
        assert get(server.url, "/healthz")[0] == 200
        assert ready_within(server.url)[:1] == (200,)
        room = post_json(server.url, "/api/rooms", {"name": "ana"})
        assert room[0] == 201
        assert post_json(server.url, "/api/check", {"grid": "CAT"})[0] == 200
        status, headers, _ = get(server.url, "/metrics")
        assert status == 200 and headers["content-type"].startswith("text/plain")
        figures = figures_of(server.url)
        assert figures["bananas_rooms"] == 1 and figures["bananas_rooms_created"] == 1
        assert figures["bananas_pool_waiting"] == 0 and figures["bananas_shedding"] == 0
        assert figures['bananas_api_seconds_count{route="/api/check"}'] == 1
        assert get(server.url, "/metrics", source="127.0.0.2")[0] == 200  # loopback, all of 127/8


def test_metrics_are_for_loopback_and_the_allowed_networks_only():
    def request_from(address: str):
        return SimpleNamespace(client=SimpleNamespace(host=address))

    assert metrics_allowed(request_from("::1"), ())
    assert not metrics_allowed(request_from("10.1.2.3"), ())
    assert metrics_allowed(request_from("10.1.2.3"), ("10.0.0.0/8",))
    assert not metrics_allowed(request_from("192.168.1.1"), ("10.0.0.0/8",))
    assert not metrics_allowed(request_from("not an address"), ("0.0.0.0/0",))


def test_an_overloaded_server_refuses_new_work_with_retry_after_and_keeps_serving(monkeypatch):
    monkeypatch.setattr(health, "SHED_LAG_SECONDS", -1.0)  # any loop counts as late: shedding
    monkeypatch.setattr(health, "MIN_LAG_SAMPLES", 0)
    with BackgroundServer(WebConfig()) as server:
        status, headers, _ = get(server.url, "/readyz")
        assert status == 503
        status, reply = post_json(server.url, "/api/rooms", {"name": "ana"})
        assert (status, reply["code"]) == (503, "overloaded")
        status, reply = post_json(server.url, "/api/solve", {"tiles": "CATDOG"})
        assert (status, reply["code"]) == (503, "overloaded")
        assert get(server.url, "/healthz")[0] == 200  # alive all the same
        assert get(server.url, "/")[0] == 200  # pages and games in progress are served


def post_json(url: str, path: str, body: dict) -> tuple[int, dict]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Origin": url}
        connection.request("POST", path, json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_loop_late_at_every_turn_sheds_one_long_stall_does_not():
    now = [0.0]
    watch = health.LoopWatch(clock=lambda: now[0])
    load = health.Load(watch, waiting_jobs=lambda: 0, database_failed=lambda: None)
    for _ in range(10):  # a steady loop, then one 5 s stall (a compile holding the GIL)
        now[0] += 0.1
        watch.record(0.001)
    now[0] += 5.0
    watch.record(5.0)
    assert watch.lag() == 5.0 and not load.overloaded()
    for _ in range(30):  # then late at every turn
        now[0] += 0.4
        watch.record(0.3)
    assert "event loop" in load.overloaded()
    assert "jobs waiting" in health.Load(health.LoopWatch(), lambda: 33, lambda: None).overloaded()


def test_a_server_that_owns_its_process_freezes_its_start_up_heap_and_tunes_the_collector():
    """`settle_collector`: the start-up's objects are frozen out of later collections (a full
    collection on a busy worker was 60-220 ms, the slowest checks at 500 rooms) and the young
    generation is larger. The collector is restored after, for the tests that follow."""
    import gc

    thresholds = gc.get_threshold()
    try:
        health.settle_collector()
        assert gc.get_freeze_count() > 0 and gc.get_threshold() == health.SERVER_GC_THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@pytest.mark.parametrize("owns_process", [True, False])
def test_only_a_server_that_owns_its_process_settles_the_collector(monkeypatch, owns_process):
    calls = []
    monkeypatch.setattr("solver.web.app.settle_collector", lambda: calls.append(1))
    with BackgroundServer(WebConfig(owns_process=owns_process)) as server:
        assert get(server.url, "/healthz")[0] == 200
    assert calls == ([1] if owns_process else [])  # embedded in a program (tests): its collector is left alone
