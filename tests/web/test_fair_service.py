"""Issue 34: no client can slow down another's solve. One address keeps connections busy with the
costliest solves the API allows; another address's small solves are still answered at once
(its own queue, a thread the flooder may not take: solver.protocol.fair)."""

from __future__ import annotations

import http.client
import json
import threading
import time
from urllib.parse import urlsplit

import numpy as np
import pytest

from solver.core.grid import Grid, validate
from solver.core.limits import MAX_API_SECONDS, MAX_API_TILES
from solver.core.tiles import ALPHABET, ENGLISH, TileCounts, draw
from solver.lexicon.loader import get_lexicon
from solver.web import BackgroundServer, WebConfig


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
        assert solve_from(server.url, "127.0.0.1", {"tiles": small})[0] == 200  # kernels warm
        flood = [
            threading.Thread(target=solve_from, args=(server.url, "127.0.0.2", dict(costly, seed=n)), daemon=True)
            for n in range(2)  # one running, one waiting: the flooder's share of the pool is full
        ]
        for thread in flood:
            thread.start()
        time.sleep(0.5)  # the flood holds the pool
        answers = [solve_from(server.url, "127.0.0.3", {"tiles": draw(ENGLISH, 7, rng).letters()}) for _ in range(3)]
        for status, reply, seconds in answers:
            assert status == 200 and seconds < 3.0, (status, reply, seconds)  # 5 s behind one costly solve
            if reply["status"] == "solved":
                grid = Grid.from_rows(reply["grid"])
                assert validate(grid, get_lexicon("en"), TileCounts.from_letters(reply["tiles"])).ok
        assert any(thread.is_alive() for thread in flood)  # the flood was still being served
