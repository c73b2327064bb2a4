"""Fair queues for the solver's worker threads: one client cannot slow down another's game or solve.

Why. The engine sessions (`/engine`) and the solve API (`/api/solve`, ...) share a few worker
threads (`Limits.workers`; the kernels release the GIL). Served first come, first served, one
address sending the costliest solves the API allows, at its allowed rate, would keep every
thread busy for seconds at a time: another address's small solve or an engine bot's call would
wait behind it, or be refused.

How. A job waits in its client's queue (the client is its address), which holds at most
`per_client_queued` jobs. A client runs at most `per_client_running` jobs at once (default:
one thread fewer than the pool has, at least one), so a flooding client always leaves a thread
to the others. Among the clients that may start a job, urgent ones go first (engine sessions:
a bot at someone's table is waiting), then the rest by start-time fair queuing on cost: each
job is stamped with a virtual start, the later of the pool's virtual clock and its client's
last virtual finish, and finishes `cost` later (cost: about the seconds it may run); the
smallest start runs next. A client sending costly jobs waits behind its own, and a quiet
client's small job runs as soon as a thread frees.

`fair=False` serves first come, first served on every thread, as before (the benchmark's
baseline, benchmarks/bench_fair.py; a server started with BANANAS_FAIR_QUEUES=0).
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field


class QueueFull(RuntimeError):
    """The client already has as many jobs waiting as it may."""


@dataclass
class _Job:
    client: str
    start: float  # virtual: where it stands in the fair order
    sequence: int  # ties: first come, first served
    call: Callable[[], object]
    future: Future
    urgent: bool = field(default=False)


class FairPool:
    """A thread pool serving clients in turn (module docstring). `submit` is thread-safe."""

    def __init__(
        self,
        workers: int,
        per_client_queued: int,
        per_client_running: int | None = None,
        name: str = "bananas-engine",
        fair: bool = True,
    ):
        self.workers = workers
        self.per_client_queued = per_client_queued
        self.per_client_running = per_client_running or (max(1, workers - 1) if fair else workers)
        self.fair = fair
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._lock = threading.Lock()
        self._waiting: dict[str, deque[_Job]] = {}
        self._running: Counter[str] = Counter()
        self._last_finish: dict[str, float] = {}
        self._clock = 0.0
        self._busy = 0
        self._sequence = itertools.count()
        self._closed = False

    def submit(self, client: str, call: Callable[[], object], cost: float = 1.0, urgent: bool = False) -> Future:
        """Queue `call()` for `client`; its future. QueueFull when the client's queue is full
        (urgent jobs are not bounded here: their sessions are counted per client already)."""
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the pool is shut down")
            queue = self._waiting.setdefault(client, deque())
            if not urgent and len(queue) >= self.per_client_queued:
                raise QueueFull(f"{len(queue)} requests of yours are waiting already")
            if not self.fair:  # one order for all: arrival
                cost, urgent = 0.0, False
            start = max(self._clock, self._last_finish.get(client, 0.0))
            self._last_finish[client] = start + max(cost, 0.0)
            queue.append(_Job(client, start, next(self._sequence), call, future, urgent))
            ready = self._take_ready()
        self._launch(ready)
        return future

    def executor(self, client: str, urgent: bool = False) -> Executor:
        """An Executor whose jobs are `client`'s (for `loop.run_in_executor`)."""
        return _ClientExecutor(self, client, urgent)

    def depths(self) -> dict[str, int]:
        """Jobs waiting and running, in all: for health checks and metrics."""
        with self._lock:
            return {"waiting": sum(len(queue) for queue in self._waiting.values()), "running": self._busy}

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            dropped = [job for queue in self._waiting.values() for job in queue] if cancel_futures else []
            if cancel_futures:
                self._waiting.clear()
        for job in dropped:
            job.future.cancel()
        self._threads.shutdown(wait=wait, cancel_futures=cancel_futures)

    # -- inside the lock -------------------------------------------------------------------------

    def _take_ready(self) -> list[_Job]:
        """The jobs to start now, one per free thread, in the fair order."""
        ready = []
        while self._busy < self.workers:
            job = self._next()
            if job is None:
                break
            self._waiting[job.client].popleft()
            if not self._waiting[job.client]:
                del self._waiting[job.client]
            self._busy += 1
            self._running[job.client] += 1
            self._clock = max(self._clock, job.start)
            ready.append(job)
        return ready

    def _next(self) -> _Job | None:
        heads = (
            queue[0]
            for client, queue in self._waiting.items()
            if self._running[client] < self.per_client_running or queue[0].urgent
        )
        return min(heads, key=lambda job: (not job.urgent, job.start, job.sequence), default=None)

    def _finished(self, job: _Job) -> list[_Job]:
        self._busy -= 1
        self._running[job.client] -= 1
        if not self._running[job.client]:
            del self._running[job.client]
            if job.client not in self._waiting and self._last_finish.get(job.client, 0.0) <= self._clock:
                del self._last_finish[job.client]  # idle and caught up: forget it
        return [] if self._closed else self._take_ready()

    # -- outside it ------------------------------------------------------------------------------

    def _launch(self, jobs: list[_Job]) -> None:
        for job in jobs:
            self._threads.submit(self._run, job)

    def _run(self, job: _Job) -> None:
        try:
            if job.future.set_running_or_notify_cancel():
                try:
                    job.future.set_result(job.call())
                except BaseException as error:  # the caller's future carries it
                    job.future.set_exception(error)
        finally:
            with self._lock:
                ready = self._finished(job)
            self._launch(ready)


class _ClientExecutor(Executor):
    def __init__(self, pool: FairPool, client: str, urgent: bool):
        self.pool, self.client, self.urgent = pool, client, urgent

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return self.pool.submit(self.client, functools.partial(fn, *args, **kwargs), urgent=self.urgent)
