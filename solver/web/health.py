"""What an operator watches, and what the server refuses when it is overloaded.

- `GET /healthz`: 200 while the process serves at all (its event loop answers).
- `GET /readyz`: 200 when it takes new work, 503 while it sheds load (below), its room
  database cannot be written, or its solver kernels are still compiling (numba's JIT, in the
  background: meanwhile solves run on the compiled library, `native.library_until_jit`); a
  load balancer sends new rooms elsewhere meanwhile.
- `GET /metrics`: Prometheus' text format, written by the prometheus-client library: rooms,
  seats, room sockets, engine sessions, the worker pool's queue, API latency by route,
  refusals by code, event-loop lag, database writes. Served to loopback peers only, or to the
  networks of `--metrics-allow` (the TCP peer decides, not a proxy header: a proxy in front
  should not pass /metrics on).

Load shedding. One server's event loop is its queue: when the CPU is contended everything
waits in it, and the games in progress slow down with the new work. So a `LoopWatch` measures
how late the loop wakes up (every LAG_PROBE_SECONDS) and the server is `overloaded` while the
lag is sustained - the median of the last LAG_WINDOW_SECONDS passes SHED_LAG_SECONDS, over at
least MIN_LAG_SAMPLES probes: one long stall (a compile holding the GIL, a GC pause) is not
overload, a loop late at every turn is - or the worker pool has more than SHED_WAITING_JOBS waiting:
then new rooms, new engine sessions and API solves are refused with 503 and `Retry-After`
(RETRY_AFTER_SECONDS), and the games in progress keep the loop.

Pauses. Python's cycle collector stops the whole process while it walks every tracked object of
a generation: on a worker holding 250 rooms, a full collection of the heap (the word lists' and
numba's objects loaded at start-up, then the rooms') took 60-220 ms, and those stalls were the
slowest checks at 500 rooms. `settle_collector` (at `bananas serve`'s start-up, once the
start-up's objects are loaded) freezes them out of every later collection and lets the young
generation grow larger before it is collected, so fewer short-lived objects are promoted and full
collections come less often: the worst pauses fell to 15-50 ms
(benchmarks/results/2026-12-06-load-500.md).
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

# The cycle collector's thresholds in a server (Python's default: 700, 10, 10): a young
# generation of 20,000 tracked objects, and 50 and 100 collections before the next generation's.
SERVER_GC_THRESHOLDS = (20_000, 50, 100)

LAG_PROBE_SECONDS = 0.1
LAG_WINDOW_SECONDS = 5.0  # the lag that counts: the worst of the last few seconds
SHED_LAG_SECONDS = 0.25
MIN_LAG_SAMPLES = 5
SHED_WAITING_JOBS = 32
RETRY_AFTER_SECONDS = 5


class LoopWatch:
    """How late the event loop wakes up: the worst of the last LAG_WINDOW_SECONDS."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.samples: list[tuple[float, float]] = []  # (when, lag seconds)

    async def run(self) -> None:
        while True:
            expected = self.clock() + LAG_PROBE_SECONDS
            await asyncio.sleep(LAG_PROBE_SECONDS)
            self.record(max(0.0, self.clock() - expected))

    def record(self, lag: float) -> None:
        now = self.clock()
        self.samples = [(when, value) for when, value in self.samples if now - when <= LAG_WINDOW_SECONDS]
        self.samples.append((now, lag))

    def recent(self) -> list[float]:
        now = self.clock()
        return [value for when, value in self.samples if now - when <= LAG_WINDOW_SECONDS]

    def lag(self) -> float:
        """The worst lag of the window (the metric)."""
        return max(self.recent(), default=0.0)

    def sustained_lag(self) -> float:
        """The median lag of the window, 0 below MIN_LAG_SAMPLES probes (what sheds)."""
        recent = sorted(self.recent())
        return recent[len(recent) // 2] if recent and len(recent) >= MIN_LAG_SAMPLES else 0.0


@dataclass
class Load:
    """The figures shedding and /readyz decide on, read when asked."""

    watch: LoopWatch
    waiting_jobs: Callable[[], int]
    database_failed: Callable[[], str | None]
    kernels_compiling: Callable[[], bool] = lambda: False  # the solver's kernels are not on the JIT yet

    def overloaded(self) -> str:
        """Why the server sheds new work now ('' when it does not)."""
        lag, waiting = self.watch.sustained_lag(), self.waiting_jobs()
        if lag > SHED_LAG_SECONDS:
            return f"the server is overloaded (its event loop runs {lag:.2f} s late)"
        if waiting > SHED_WAITING_JOBS:
            return f"the server is overloaded ({waiting} solver jobs waiting)"
        return ""


def shed_response(why: str) -> JSONResponse:
    return JSONResponse(
        {"code": "overloaded", "message": f"{why}: try again in a moment"},
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


class Metrics:
    """The server's Prometheus metrics, in a registry of its own (one per app: tests make many).
    `Metrics.latest` is the process's newest: what a `--processes` worker reports to the front."""

    latest: Metrics | None = None

    def __init__(self, gauges: Callable[[], dict[str, tuple[str, float]]]):
        Metrics.latest = self
        self.registry = CollectorRegistry(auto_describe=True)
        self.api_seconds = Histogram(
            "bananas_api_seconds",
            "Seconds from a solve API request to its answer, by route",
            ["route"],
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10),
            registry=self.registry,
        )
        self.refusals = Counter(
            "bananas_refusals_total", "Requests refused, by code (busy, rate_limited, overloaded, ...)", ["code"],
            registry=self.registry,
        )  # fmt: skip
        self.registry.register(_Gauges(gauges))

    def exposition(self) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)


def labelled_by_worker(texts: dict[str, str]) -> str:
    """Several workers' expositions as one: each sample with a `worker` label (sum them in
    Prometheus: `sum without (worker) (bananas_rooms)`), each family described once."""
    from prometheus_client.parser import text_string_to_metric_families  # the front's /metrics only

    families: dict[str, tuple[str, str, list[str]]] = {}
    for worker, text in texts.items():
        for family in text_string_to_metric_families(text):
            _, _, lines = families.setdefault(family.name, (family.type, family.documentation, []))
            for sample in family.samples:
                labels = {**sample.labels, "worker": worker}
                shown = ",".join(f'{key}="{_escaped(value)}"' for key, value in labels.items())
                lines.append(f"{sample.name}{{{shown}}} {_number(sample.value)}")
    out = []
    for name, (kind, documentation, lines) in families.items():
        out += [f"# HELP {name} {_escaped(documentation)}", f"# TYPE {name} {kind}", *lines]
    return "\n".join(out) + "\n"


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if value != value:
        return "NaN"
    if abs(value) == float("inf"):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))


class _Gauges:
    """Figures read from the live server at each scrape: name -> (help, value)."""

    def __init__(self, read: Callable[[], dict[str, tuple[str, float]]]):
        self.read = read

    def collect(self):
        for name, (text, value) in self.read().items():
            yield GaugeMetricFamily(f"bananas_{name}", text, value=value)

    def describe(self):
        return []


def metrics_allowed(request: Request, allowed: tuple[str, ...]) -> bool:
    """A loopback peer, or one in `allowed` (addresses or networks, e.g. 10.0.0.0/8)."""
    return peer_allowed(request.client.host if request.client else "", allowed)


def peer_allowed(peer: str, allowed: tuple[str, ...]) -> bool:
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    return any(address in ipaddress.ip_network(network, strict=False) for network in allowed)


def health_routes(load: Load, metrics: Metrics, allowed: tuple[str, ...]) -> list:
    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok\n")

    async def readyz(request: Request) -> Response:
        failed = load.database_failed()
        why = load.overloaded() or (f"the room database cannot be written: {failed}" if failed else "")
        why = why or ("the solver's kernels are compiling" if load.kernels_compiling() else "")
        return PlainTextResponse(f"not ready: {why}\n" if why else "ready\n", status_code=503 if why else 200)

    async def metrics_page(request: Request) -> Response:
        if not metrics_allowed(request, allowed):
            return PlainTextResponse("metrics are served to loopback or --metrics-allow peers only\n", status_code=403)
        return metrics.exposition()

    return [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", metrics_page)]


def settle_collector() -> None:
    """Collect once, freeze what is left (the start-up's objects, live for the whole process:
    no later collection walks them) and set `SERVER_GC_THRESHOLDS`. Called once, before the
    first room: objects frozen are never collected, so a room's would leak if it closed."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
