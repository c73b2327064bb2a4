"""solver.protocol.fair: the worker pool serves clients in turn (issue 34). Jobs here block on
events, so the order is the pool's, not the scheduler's."""

from __future__ import annotations

import threading

import pytest

from solver.protocol.fair import FairPool, QueueFull

WAIT = 10.0  # seconds: only a broken pool waits this long


def blocker(gate: threading.Event, started: threading.Event | None = None):
    def job():
        if started is not None:
            started.set()
        assert gate.wait(WAIT)
        return "blocked"

    return job


def recorder(order: list[str], name: str):
    def job():
        order.append(name)
        return name

    return job


@pytest.fixture
def gate():
    event = threading.Event()
    yield event
    event.set()  # whatever the test did, no thread stays blocked


def test_a_flooding_client_leaves_a_thread_to_the_others(gate):
    pool = FairPool(workers=2, per_client_queued=8)
    flood = [pool.submit("flood", blocker(gate), cost=5.0) for _ in range(8)]
    quiet = pool.submit("quiet", lambda: "answered", cost=0.1)
    assert quiet.result(timeout=WAIT) == "answered"  # while every flood job is still held
    assert sum(job.running() for job in flood) == 1
    assert pool.depths() == {"waiting": 7, "running": 1}
    gate.set()
    assert [job.result(timeout=WAIT) for job in flood] == ["blocked"] * 8
    pool.shutdown()


def test_a_small_job_goes_before_a_costly_clients_backlog(gate):
    pool = FairPool(workers=1, per_client_queued=8)
    started = threading.Event()
    pool.submit("other", blocker(gate, started))
    assert started.wait(WAIT)
    order: list[str] = []
    jobs = [pool.submit("costly", recorder(order, f"costly{n}"), cost=5.0) for n in range(3)]
    jobs.append(pool.submit("small", recorder(order, "small"), cost=0.1))
    gate.set()
    for job in jobs:
        job.result(timeout=WAIT)
    assert order == ["costly0", "small", "costly1", "costly2"]
    pool.shutdown()


def test_urgent_jobs_go_first_and_are_not_bounded_by_the_queue(gate):
    pool = FairPool(workers=1, per_client_queued=1)
    started = threading.Event()
    pool.submit("api", blocker(gate, started))
    assert started.wait(WAIT)
    order: list[str] = []
    solve = pool.submit("api-2", recorder(order, "solve"), cost=0.1)
    with pytest.raises(QueueFull):
        pool.submit("api-2", recorder(order, "refused"))
    bots = [pool.submit("bot", recorder(order, f"bot{n}"), urgent=True) for n in range(2)]
    gate.set()
    for job in [solve, *bots]:
        job.result(timeout=WAIT)
    assert order == ["bot0", "bot1", "solve"]
    pool.shutdown()


def test_a_cancelled_job_never_runs_and_errors_reach_the_caller(gate):
    pool = FairPool(workers=1, per_client_queued=4)
    started = threading.Event()
    pool.submit("a", blocker(gate, started))
    assert started.wait(WAIT)
    order: list[str] = []
    cancelled = pool.submit("b", recorder(order, "cancelled"))
    assert cancelled.cancel()
    failing = pool.submit("c", lambda: 1 / 0)
    gate.set()
    with pytest.raises(ZeroDivisionError):
        failing.result(timeout=WAIT)
    assert order == []
    assert pool.executor("d").submit(lambda x: x * 2, 21).result(timeout=WAIT) == 42
    pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit("e", lambda: None)
