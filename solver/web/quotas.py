"""The per-address quotas of `serve --processes N`, held across its workers: one table in shared memory.

Why. Each worker of `serve --processes N` (solver.web.processes) is a whole server; had each
counted a client's rooms, sessions, sockets and request rates on its own, a client could hold
N times each quota. So the front creates one `QuotaTable` before it starts the workers and
hands it to each (in its `WebConfig`, `quotas`), restarted workers too; every per-address
quota of the server then counts in it, and a client holds at most each quota in all,
whatever N. A single-process server keeps its in-memory counters (solver.web.config).

Layout. A client's entry of one quota kind ("rooms", "sockets", ...) is a slot, picked by a
keyed hash of the kind and the address; the table has SLOTS of them. Two things live in a slot:
- open counts (rooms open, sessions, sockets, connections), one column per process: each
  process changes only its own column, and `take` checks the sum of the columns. When the
  front starts a dead worker again it zeroes that worker's column first (`zero_column`), so
  what a killed worker held is released, whatever killed it. The front has a column of its
  own (the last), for the connections still sending their heads.
- a token bucket (room creations a minute, the solve API's requests a second), shared by
  every process: its tokens and the time they were counted at (`time.monotonic`, one clock
  for every process of the machine).

Collisions. Two entries whose hashes meet share a slot, so their counts and tokens add up:
a limit only gets stricter for them, never looser. With SLOTS = 2^18, a few thousand active
entries share a slot with another at a rate of about 1 in 100. The hash is keyed with a secret
drawn when the front starts, so nobody can choose an address that shares a victim's slot.

Locking. Every change reads and writes a few cells under one lock, held for microseconds:
a POSIX record lock on the table's file (`fcntl.lockf`), which the kernel releases when the
process holding it dies (a SIGKILLed worker cannot leave the others locked out), plus a
thread lock (record locks are per process). The table is an anonymous file in memory
(`memfd`), mapped by each process; its descriptor goes to a worker at its start, as
multiprocessing passes the worker's channel, so nothing is left on a disk.
"""

from __future__ import annotations

import fcntl
import hashlib
import math
import mmap
import os
import secrets
import tempfile
import threading
import time
from multiprocessing import context as multiprocessing_context
from multiprocessing.reduction import DupFd

from solver.web.config import ClientCounter

SLOTS = 1 << 18  # entries' slots: collisions make a limit stricter (module docstring)
COUNT_BYTES = 4  # an open count: a C int
BUCKET_CELLS = 2  # a token bucket: its tokens and when they were counted (0: never used, full)


class QuotaTable:
    """Open counts per process column and token buckets, per (kind, address) slot, shared by
    the processes of one server (module docstring). `column` is this process's."""

    def __init__(self, fd: int, columns: int, column: int, key: bytes, slots: int = SLOTS):
        if not 0 <= column < columns:
            raise ValueError(f"column {column} of {columns}")
        self.fd, self.columns, self.column, self.key, self.slots = fd, columns, column, key, slots
        self.lock = TableLock(fd)
        # Mapped on first use: a handle that is only passed on to a worker maps nothing.
        self.mapped: tuple[memoryview[int], memoryview[float]] | None = None

    @classmethod
    def create(cls, workers: int, slots: int = SLOTS) -> QuotaTable:
        """A zeroed table for `workers` worker columns and the front's (the last column, this handle's)."""
        fd = anonymous_file()
        os.ftruncate(fd, table_bytes(workers + 1, slots))
        return cls(fd, workers + 1, workers, secrets.token_bytes(16), slots)

    def for_column(self, column: int) -> QuotaTable:
        """The handle a worker is given: the same table, its own column."""
        return QuotaTable(self.fd, self.columns, column, self.key, self.slots)

    def __reduce__(self):
        """Passed to a worker process at its start only: the file's descriptor goes with it."""
        if multiprocessing_context.get_spawning_popen() is None:
            raise TypeError("a QuotaTable is passed only to a process being started")
        return attach, (DupFd(self.fd), self.columns, self.column, self.key, self.slots)

    # -- open counts ------------------------------------------------------------------------

    def take(self, kind: str, client: str, most: float) -> bool:
        """One more of `kind` for `client` in this process's column, if the client holds
        fewer than `most` in all the columns together."""
        slot = self.slot(kind, client)
        counts, _ = self.views()
        with self.lock:
            if sum(counts[slot :: self.slots]) >= most:
                return False
            counts[self.column * self.slots + slot] += 1
            return True

    def give_back(self, kind: str, client: str) -> None:
        """One fewer of `kind` for `client` in this process's column."""
        cell = self.column * self.slots + self.slot(kind, client)
        counts, _ = self.views()
        with self.lock:
            counts[cell] = max(0, counts[cell] - 1)

    def held(self, kind: str, client: str) -> int:
        """What `client` holds of `kind` in all the columns (and whatever shares its slot)."""
        slot = self.slot(kind, client)
        counts, _ = self.views()
        with self.lock:
            return sum(counts[slot :: self.slots])

    def zero_column(self, column: int) -> None:
        """Forget what one process held: the front does it before starting a dead worker again."""
        start = column * self.slots
        counts, _ = self.views()
        with self.lock:
            counts[start : start + self.slots] = memoryview(bytes(self.slots * COUNT_BYTES)).cast("i")

    # -- token buckets ----------------------------------------------------------------------

    def take_token(self, kind: str, client: str, rate: float, burst: int) -> bool:
        """A token from `client`'s bucket of `kind` (`rate` a second, up to `burst`), if one is left."""
        cell = self.slot(kind, client) * BUCKET_CELLS
        _, buckets = self.views()
        with self.lock:
            now = time.monotonic()
            tokens, stamp = buckets[cell], buckets[cell + 1]
            tokens = float(burst) if stamp == 0.0 else min(burst, tokens + max(0.0, now - stamp) * rate)
            allowed = tokens >= 1
            buckets[cell] = tokens - 1 if allowed else tokens
            buckets[cell + 1] = max(now, stamp)
            return allowed

    # -- the machinery ------------------------------------------------------------------------

    def slot(self, kind: str, client: str) -> int:
        digest = hashlib.blake2b(f"{kind}\0{client}".encode(), digest_size=8, key=self.key).digest()
        return int.from_bytes(digest, "little") % self.slots

    def views(self) -> tuple[memoryview[int], memoryview[float]]:
        """The counts (C ints, column after column) and the buckets (doubles, slot after slot);
        read and written under `lock` only."""
        if self.mapped is None:
            with self.lock.thread_lock:
                if self.mapped is None:
                    view = memoryview(mmap.mmap(self.fd, table_bytes(self.columns, self.slots)))
                    counts_end = self.columns * self.slots * COUNT_BYTES
                    self.mapped = view[:counts_end].cast("i"), view[counts_end:].cast("d")
        return self.mapped


class TableLock:
    """The table's lock: a POSIX record lock on its file, which the kernel releases when the
    process holding it dies, within a thread lock (record locks are per process)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.thread_lock = threading.Lock()

    def __enter__(self) -> None:
        self.thread_lock.acquire()
        try:
            fcntl.lockf(self.fd, fcntl.LOCK_EX, 1, 0, os.SEEK_SET)
        except BaseException:
            self.thread_lock.release()
            raise

    def __exit__(self, *exc) -> None:
        try:
            fcntl.lockf(self.fd, fcntl.LOCK_UN, 1, 0, os.SEEK_SET)
        finally:
            self.thread_lock.release()


def table_bytes(columns: int, slots: int) -> int:
    return columns * slots * COUNT_BYTES + slots * BUCKET_CELLS * 8


def attach(passed, columns: int, column: int, key: bytes, slots: int) -> QuotaTable:
    """A worker's handle on the front's table (unpickling `QuotaTable.__reduce__`)."""
    return QuotaTable(passed.detach(), columns, column, key, slots)


def anonymous_file() -> int:
    """A file in memory with no name (memfd), or else a temporary file already unlinked."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("bananas-quotas", os.MFD_CLOEXEC)
    with tempfile.TemporaryFile() as file:
        return os.dup(file.fileno())


# -- the counters the server uses, shared when it has a table -------------------------------------


class SharedClientCounter(ClientCounter):
    """`ClientCounter` whose per-client counts are the table's, over every process: the total
    (`open`, against `total`) stays this process's, as `serve --processes` shares the totals out."""

    def __init__(self, total: float, per_client: int, table: QuotaTable, kind: str):
        super().__init__(total, per_client)
        self.table, self.kind = table, kind

    def take(self, client: str, exempt: bool = False) -> bool:
        if self.open >= self.total:
            return False
        if not self.table.take(self.kind, client, math.inf if exempt else self.per_client):
            return False
        self.open += 1
        return True

    def give_back(self, client: str) -> None:
        self.open -= 1
        self.table.give_back(self.kind, client)


def client_counter(table: QuotaTable | None, kind: str, total: float, per_client: int) -> ClientCounter:
    """Open things counted in all and per client: in the shared table when there is one."""
    if table is None:
        return ClientCounter(total, per_client)
    return SharedClientCounter(total, per_client, table, kind)
