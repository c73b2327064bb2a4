"""The one rate limiter (solver/web/rates.py) as `/engine` uses it: a client's messages are read
no faster than its rate, none dropped (`admit`), in this process (`LocalRates`) or in the table
the workers of `serve --processes N` share (`SharedRates`); and the server reads every engine
message through it."""

from __future__ import annotations

import asyncio
import json

import pytest
from helpers import request, run_bounded, start_server
from websockets.asyncio.client import connect

from solver.web import app as app_module
from solver.web import quotas as quotas_module
from solver.web.quotas import QuotaTable
from solver.web.rates import LocalRates, SharedRates, admit


class Clock:
    """A clock that moves only when the waiting is done on it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def admitted(limiter, client: str, rate: float, clock: Clock, messages: int) -> list[float]:
    """The seconds each of `messages` messages waited, one after the other."""

    async def run() -> list[float]:
        return [await admit(limiter, client, rate, clock.sleep) for _ in range(messages)]

    return asyncio.run(run())


def test_a_burst_is_read_at_once_then_one_message_a_token():
    clock = Clock()
    limiter = LocalRates(rate=4.0, burst=2, capacity=8, clock=clock)
    assert admitted(limiter, "10.0.0.1", 4.0, clock, 5) == [0.0, 0.0, 0.25, 0.25, 0.25]
    assert admitted(limiter, "10.0.0.2", 4.0, clock, 2) == [0.0, 0.0]  # another address: its own burst
    clock.now += 10  # idle: the burst is back, no more
    assert admitted(limiter, "10.0.0.1", 4.0, clock, 3) == [0.0, 0.0, 0.25]


def test_the_workers_share_one_rate_per_address(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(quotas_module.time, "monotonic", clock)
    front = QuotaTable.create(2, 1024)
    first, second = (SharedRates(front.for_column(k), "engine_messages", rate=2.0, burst=3) for k in range(2))
    assert admitted(first, "10.0.0.1", 2.0, clock, 2) == [0.0, 0.0]
    assert admitted(second, "10.0.0.1", 2.0, clock, 3) == [0.0, 0.5, 0.5]  # the third of the burst, then 2 a second
    assert admitted(second, "10.0.0.2", 2.0, clock, 1) == [0.0]


def test_every_engine_message_is_read_through_the_clients_rate(monkeypatch):
    """`/engine` passes each message on only once `admit` has given it the client's token,
    with the configured rate; the answers all come, in order."""
    seen: list[tuple[object, str, float]] = []

    async def recording(limiter, client: str, rate: float, sleep=asyncio.sleep) -> float:
        seen.append((limiter, client, rate))
        return await admit(limiter, client, rate, sleep)

    monkeypatch.setattr(app_module, "admit", recording)

    async def session(url: str) -> list[dict]:
        async with connect(url) as ws:
            for index in range(3):
                await ws.send(json.dumps({"type": "hello", "id": index}))
            return [json.loads(await asyncio.wait_for(ws.recv(), 30)) for _ in range(3)] + await request(
                ws, {"type": "hello", "id": 3}
            )

    with start_server(engine_messages_per_second=1000.0, engine_message_burst=2) as server:
        replies = run_bounded(lambda: session(server.url.replace("http://", "ws://") + "/engine"))
    assert [reply["id"] for reply in replies] == [0, 1, 2, 3]
    assert len(seen) == 4 and {(client, rate) for _, client, rate in seen} == {("127.0.0.1", 1000.0)}
    limiter = seen[0][0]
    assert isinstance(limiter, LocalRates) and (limiter.rate, limiter.burst) == (1000.0, 2)


@pytest.mark.parametrize("field", ["engine_messages_per_second", "engine_message_burst"])
def test_an_engine_rate_must_be_positive(field):
    from solver.web import WebConfig

    with pytest.raises(ValueError):
        WebConfig(**{field: 0})
