"""Rate limits: one interface, `RateLimiter.take(client)`, with a local and a cross-process implementation.

A rate is a token bucket: `rate` tokens a second on average, bursts of up to `burst`; a
request, a message or a new room takes a token, and is refused when none is left.

- `TokenBucket`: one bucket (a socket's messages).
- `LocalRates`: a bucket per client address in this process, for at most `capacity`
  addresses; the one heard from least recently is forgotten first (it starts again with a
  full burst).
- `SharedRates`: a bucket per client address in the table the workers of
  `serve --processes N` share (`solver.web.quotas.QuotaTable`), so a client gets one rate in
  all, whatever N.

`rate_limiter` picks the one a server runs with: shared when it has a table. The rooms'
creations a minute, the solve API's requests a second and the engine sessions' messages a
second (`/engine`, read no faster than that: `admit`) are such limits.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Protocol

from solver.web.quotas import QuotaTable

Clock = Callable[[], float]


class RateLimiter(Protocol):
    """A rate per client address."""

    def take(self, client: str) -> bool:
        """A token of `client`'s rate, if one is left (whether it was)."""


class TokenBucket:
    """One rate: `rate` tokens per second on average, bursts of up to `burst`."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """A token, if one is left (whether it was)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class LocalRates:
    """A token bucket per client address in this process, for at most `capacity` addresses
    (the least recently heard from is forgotten first)."""

    def __init__(self, rate: float, burst: int, capacity: int, clock: Clock = time.monotonic):
        self.rate, self.burst, self.capacity, self.clock = rate, burst, capacity, clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, client: str) -> bool:
        bucket = self.buckets.pop(client, None) or TokenBucket(self.rate, self.burst, self.clock)
        self.buckets[client] = bucket
        while len(self.buckets) > self.capacity:
            self.buckets.popitem(last=False)
        return bucket.take()


class SharedRates:
    """A token bucket per client address of `kind`, in the table every process shares."""

    def __init__(self, table: QuotaTable, kind: str, rate: float, burst: int):
        self.table, self.kind, self.rate, self.burst = table, kind, rate, burst

    def take(self, client: str) -> bool:
        return self.table.take_token(self.kind, client, self.rate, self.burst)


async def admit(
    limiter: RateLimiter, client: str, rate: float, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
) -> float:
    """Wait until `client` has a token of `limiter` (`rate` a second), looking again each
    1/`rate` seconds, and take it: a message is read only then, so a client that sends faster
    than its rate is slowed down (its messages wait in its own connection), and none is
    dropped. The seconds waited."""
    waited = 0.0
    while not limiter.take(client):
        await sleep(1 / rate)
        waited += 1 / rate
    return waited


def rate_limiter(table: QuotaTable | None, kind: str, rate: float, burst: int, capacity: int) -> RateLimiter:
    """A rate per client address of `kind`: in the shared table when there is one, else in
    this process for at most `capacity` addresses."""
    if table is None:
        return LocalRates(rate, burst, capacity)
    return SharedRates(table, kind, rate, burst)
