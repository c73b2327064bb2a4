"""Issue 34: the quota table `serve --processes N`'s workers share (solver/web/quotas.py): open
counts per process column summed across the columns, a dead process's column zeroed, token
buckets shared, collisions only stricter, and a lock a killed process cannot keep."""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import signal
import time

import pytest

from solver.web import quotas as quotas_module
from solver.web.quotas import QuotaTable, client_counter
from solver.web.rates import SharedRates


def columns(workers: int = 2, slots: int = 1024) -> tuple[QuotaTable, list[QuotaTable]]:
    """The front's handle and one per worker (in one process: the same table, other columns)."""
    front = QuotaTable.create(workers, slots)
    return front, [front.for_column(k) for k in range(workers)]


def test_a_client_holds_at_most_its_quota_summed_over_every_column():
    front, (first, second) = columns()
    assert first.take("rooms", "10.0.0.1", 3) and first.take("rooms", "10.0.0.1", 3)
    assert second.take("rooms", "10.0.0.1", 3)
    assert not first.take("rooms", "10.0.0.1", 3) and not second.take("rooms", "10.0.0.1", 3)
    assert not front.take("rooms", "10.0.0.1", 3)
    assert second.take("rooms", "10.0.0.2", 3)  # another address: its own quota
    assert first.take("sockets", "10.0.0.1", 3)  # another kind: its own quota
    second.give_back("rooms", "10.0.0.1")
    assert first.take("rooms", "10.0.0.1", 3)  # the room another worker gave back
    assert front.held("rooms", "10.0.0.1") == 3
    assert first.take("rooms", "10.0.0.1", math.inf)  # exempt: counted, never refused
    assert front.held("rooms", "10.0.0.1") == 4


def test_zeroing_a_column_releases_what_that_process_held_and_nothing_else():
    front, (first, second) = columns()
    for _ in range(2):
        first.take("rooms", "10.0.0.1", 3)
    second.take("rooms", "10.0.0.1", 3)
    front.zero_column(0)  # the first worker died
    assert front.held("rooms", "10.0.0.1") == 1  # the second's stays
    assert first.take("rooms", "10.0.0.1", 3) and first.take("rooms", "10.0.0.1", 3)
    assert not first.take("rooms", "10.0.0.1", 3)
    first.give_back("rooms", "10.0.0.9")  # nothing held: never below zero
    assert front.held("rooms", "10.0.0.9") == 0


def test_addresses_that_share_a_slot_share_its_quota_stricter_never_looser():
    front, (first, _) = columns(slots=1)  # every entry in one slot
    assert first.take("rooms", "10.0.0.1", 2) and first.take("sockets", "10.0.0.2", 2)
    assert not first.take("rooms", "10.0.0.3", 2)  # a third address, refused: the slot is full
    assert first.take_token("api", "10.0.0.1", 0.001, 1)
    assert not first.take_token("api", "10.0.0.2", 0.001, 1)  # the bucket they share is empty


def test_the_slot_hash_is_keyed_per_table():
    one, two = QuotaTable.create(1), QuotaTable.create(1)
    addresses = [f"10.0.{n // 256}.{n % 256}" for n in range(64)]
    assert [one.slot("rooms", a) for a in addresses] != [two.slot("rooms", a) for a in addresses]
    assert one.slot("rooms", "10.0.0.1") == one.for_column(0).slot("rooms", "10.0.0.1")


def test_a_token_bucket_is_shared_by_every_column_and_refills(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(quotas_module.time, "monotonic", lambda: now[0])
    _, (first, second) = columns()
    rate = SharedRates(first, "api", rate=2.0, burst=4), SharedRates(second, "api", rate=2.0, burst=4)
    assert [rate[n % 2].take("10.0.0.1") for n in range(6)] == [True] * 4 + [False] * 2
    assert rate[0].take("10.0.0.2")  # another address: a full burst of its own
    now[0] += 0.5  # one token back
    assert rate[1].take("10.0.0.1") and not rate[0].take("10.0.0.1")
    now[0] += 60
    assert [rate[0].take("10.0.0.1") for _ in range(5)] == [True] * 4 + [False]  # never past the burst


def test_the_counter_the_server_uses_keeps_its_total_per_process_and_the_clients_across():
    _, (first, second) = columns()
    mine, theirs = client_counter(first, "sessions", 2, 3), client_counter(second, "sessions", 2, 3)
    assert mine.take("a") and mine.take("a") and not mine.take("b")  # this process's total: 2
    assert theirs.take("a") and not theirs.take("a")  # the client's 3, over both processes
    assert theirs.take("b") and theirs.open == 2
    mine.give_back("a")
    assert theirs.open == 2 and mine.open == 1 and first.held("sessions", "a") == 2
    assert type(client_counter(None, "sessions", 2, 3)).__name__ == "ClientCounter"  # one process: in memory


def take_in_a_child(table: QuotaTable, times: int, die_holding_the_lock: bool) -> None:
    for _ in range(times):
        assert table.take("rooms", "10.0.0.1", 100)
    if die_holding_the_lock:
        with table.lock:
            os.kill(os.getpid(), signal.SIGKILL)


def test_another_process_counts_in_its_column_and_its_death_leaves_no_lock_held():
    front, workers = columns()
    spawn = multiprocessing.get_context("spawn")
    child = spawn.Process(target=take_in_a_child, args=(workers[1], 3, True))
    child.start()
    child.join(timeout=120)
    assert child.exitcode == -signal.SIGKILL
    started = time.monotonic()
    assert front.held("rooms", "10.0.0.1") == 3  # its counts, read past the lock it died holding
    assert time.monotonic() - started < 1
    front.zero_column(1)  # as the front does before starting it again
    assert front.held("rooms", "10.0.0.1") == 0


def hold_the_lock(table: QuotaTable, holding, seconds: float) -> None:
    with table.lock:
        holding.set()
        time.sleep(seconds)


def test_a_process_holding_the_lock_keeps_the_others_waiting():
    front, workers = columns()
    spawn = multiprocessing.get_context("spawn")
    holding = spawn.Event()
    child = spawn.Process(target=hold_the_lock, args=(workers[0], holding, 1.0))
    child.start()
    try:
        assert holding.wait(120)
        started = time.monotonic()
        assert front.take("rooms", "10.0.0.1", 3)
        assert time.monotonic() - started > 0.5  # it waited for the child's lock
    finally:
        child.join(timeout=30)


def test_a_table_is_passed_to_a_process_at_its_start_only():
    with pytest.raises(TypeError):
        pickle.dumps(QuotaTable.create(1))


def test_a_take_costs_microseconds():
    _, (first, _) = columns(slots=quotas_module.SLOTS)
    started = time.perf_counter()
    for n in range(2000):
        first.take("connections", f"10.0.{n % 256}.1", math.inf)
        first.give_back("connections", f"10.0.{n % 256}.1")
    per_pair = (time.perf_counter() - started) / 2000
    assert per_pair < 1e-3, per_pair  # ~15 us a pair on the 2-core machine; a ceiling that catches a slow path


@pytest.mark.parametrize("shared", [False, True])
def test_the_room_creation_rate_holds_over_every_worker(shared):
    """`Rooms` counts each address's new rooms a minute in one rate limit: this process's, or
    the table's, where two workers' rooms draw on the same rate."""
    from solver.web.config import WebConfig
    from solver.web.lobby import Rooms
    from solver.web.rooms import ClientQuota

    tables = columns()[1] if shared else [None, None]
    workers = [Rooms(WebConfig(room_creations_per_minute=2, quotas=table)) for table in tables]
    lobby = workers if shared else workers[:1]  # without a table, one process's rooms
    for rooms in (lobby * 2)[:2]:
        rooms.create("en", True, "classic", client="10.0.0.1")
    with pytest.raises(ClientQuota) as refused:
        lobby[-1].create("en", True, "classic", client="10.0.0.1")
    assert refused.value.code == "rate_limited"
    assert lobby[0].create("en", True, "classic", client="10.0.0.2")  # another address: its own rate
