"""One `bananas serve` on every core: a front process that hands connections to workers.

Why. One server's event loop is its queue: at 250 rooms on two cores, a page's grid waited
256 ms (p99) for its check on one process, 58 ms with two servers behind a proxy
(benchmarks/results/2026-12-02-load.md). Rooms are independent, so `serve --processes N`
runs N worker processes, each a whole server holding its own rooms, whose ids start with the
worker's prefix (`w1-...`, `w2-...`: `WebConfig.room_prefix`, as several servers behind a
proxy do, docs/SECURITY.md).

The front owns the listening socket and does one thing with a connection: it reads its
request head (the first bytes, up to the blank line), picks the worker, and hands the
connection itself over - its file descriptor and the bytes already read, over a Unix socket
(SCM_RIGHTS). From then on the worker and the client talk directly: no byte of a game goes
through the front, and the worker sees the client's own address (its quotas, its logs).
The worker is the one a `/r/<prefix>-...` path names (a room's page, QR code and socket);
anything else (the home page, `POST /api/rooms`, `/engine`, `/solve`, `/static`) goes to
the next worker in turn, so rooms and engine sessions spread evenly.

Routing is per connection, so workers answer every plain HTTP request with
`connection: close`: a kept-alive connection held by one worker must not carry the next
request for another worker's room. (Behind a reverse proxy each request is a connection of
its own anyway.) A connection still sending its head draws on the front's own budget of
plain connections (in all, and per client with the workers' as below), and
is closed when its head takes longer than `header_timeout` or grows past `MAX_HEAD_BYTES`.

The totals (`max_rooms`, the engine's `max_sessions`) are shared out among the workers. The
quotas per client address hold across them: the front creates one `QuotaTable` in shared
memory (solver.web.quotas) before it starts the workers and gives each its handle (in its
`WebConfig`), so a client holds at most each quota in all, whatever N. The front counts in
the table's last column the connections still sending their heads and gives each back just
before its hand-over, after which its worker counts it (a client at the edge of its quota is
never counted twice). Only the solve API's queues per address (solver.protocol.fair) are each
worker's: a queue belongs to its process.

Supervision. A worker that dies is started again by the front (it reloads its rooms from the
room database, `--db`, and takes up their hands); the other workers never stop. Before that
the front zeroes the dead worker's column of the quota table: what it held is released,
whatever killed it (the rooms it reloads are not charged to their creators again). While it
starts, its rooms' connections are answered 503 and the rest go to the live workers. A
worker that keeps dying (RESTARTS_BEFORE_BACKOFF deaths within RESTART_WINDOW_SECONDS) is
reported and started again only after a growing pause, up to MAX_RESTART_PAUSE_SECONDS.

Health. A worker can be alive and not answer (stopped with SIGSTOP, stuck in a long call): the
front would go on handing it connections nobody serves. So every HEALTH_INTERVAL_SECONDS the
front sends each worker a PING on its channel, which the worker answers with PONG from its
event loop; a worker not heard from for HEALTH_TIMEOUT_SECONDS is routed to no more (new page
loads go to the others, its rooms' connections are answered 503 as while it restarts) until
it answers again. Only the connections it already holds wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import re
import signal
import socket
import time
from dataclasses import replace

from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from solver.core.limits import MAX_HTTP_CONNECTIONS, MAX_HTTP_CONNECTIONS_PER_CLIENT, MAX_ROOM_PREFIX_CHARS
from solver.web.config import WebConfig
from solver.web.health import Metrics, labelled_by_worker, peer_allowed
from solver.web.quotas import QuotaTable, client_counter
from solver.web.uvicorn_runner import (
    END_OF_HEAD,
    HEAD_TOO_LARGE,
    LINGER_SECONDS,
    MAX_HEAD_BYTES,  # what the front reads of a connection before handing it over, as a worker allows
    SERVICE_UNAVAILABLE,
    make_server,
)

READY = b"ready"
PING, PONG = b"ping", b"pong"  # the front's health check on a worker's channel, and its answer
METRICS = b"metrics"  # the front asks a worker for its /metrics text; the answer starts with it
METRICS_PATH = re.compile(rb"^GET /metrics[ ?]")
METRICS_SECONDS = 2.0  # what a worker gets to answer; one that does not is left out
MAX_CHANNEL_MESSAGE = 1 << 20
HEALTH_INTERVAL_SECONDS = 1.0
HEALTH_TIMEOUT_SECONDS = 3.0
ROOM_PATH = re.compile(rb"^[A-Z]+ /r/([a-z0-9]+)-")
ACCEPT_RETRY_SECONDS = 0.1  # after a failed accept (out of file descriptors): breathe, then go on
WORKER_START_SECONDS = 120.0  # a worker imports the engine and loads the word lists first
RESTART_WINDOW_SECONDS = 60.0
RESTARTS_BEFORE_BACKOFF = 3
MAX_RESTART_PAUSE_SECONDS = 30.0
log = logging.getLogger("bananas.web")


class WorkerError(RuntimeError):
    """A worker process did not start, or stopped while serving."""


def worker_prefixes(base: str | None, processes: int) -> list[str]:
    """The room-id prefix of each worker: `base` (default "w") and its number."""
    prefixes = [f"{base or 'w'}{number}" for number in range(1, processes + 1)]
    longest = MAX_ROOM_PREFIX_CHARS - len(str(processes))
    if len(prefixes[-1]) > MAX_ROOM_PREFIX_CHARS:
        raise ValueError(f"with {processes} processes a room prefix is at most {longest} characters")
    return prefixes


def worker_config(config: WebConfig, prefix: str, processes: int, quotas: QuotaTable) -> WebConfig:
    """A worker's settings: its room prefix, its share of the server's totals, and its handle
    on the quotas' shared table (the quotas per client are the server's, held across the workers)."""
    sessions = math.ceil(config.engine.max_sessions / processes)
    return replace(
        config,
        room_prefix=prefix,
        quotas=quotas,
        max_rooms=math.ceil(config.max_rooms / processes),
        engine=replace(config.engine, max_sessions=sessions),
    )


class ClosingConnections:
    """ASGI middleware: `connection: close` on every plain HTTP response (routing is per
    connection, so each request must come on a connection of its own)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_closing(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, send_closing)


# --- the worker ---------------------------------------------------------------------------

ADOPTING: set[asyncio.Task] = set()  # the worker's handed-over connections being set up


def run_worker(config: WebConfig, channel: socket.socket) -> None:
    """A worker process: a whole server with no listening socket of its own, serving the
    connections the front hands over on `channel`; it says READY once it is serving."""
    os.setpgid(0, 0)  # Ctrl-C at a terminal reaches the front only, which stops the workers in turn
    server = make_server(config, wrap=ClosingConnections)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    channel.setblocking(False)

    async def serve() -> None:
        task = asyncio.ensure_future(server.serve(sockets=[]))
        while not server.started:
            if task.done():
                return await task
            await asyncio.sleep(0.02)
        loop.add_reader(channel, _take_connections, server, channel, loop)
        channel.send(READY)
        await task

    loop.run_until_complete(serve())


def _take_connections(server, channel: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
    while True:
        try:
            head, fds, _flags, _address = socket.recv_fds(channel, MAX_HEAD_BYTES, 1)
        except BlockingIOError:
            return
        if not head and not fds:  # the front has gone: stop as on SIGTERM
            loop.remove_reader(channel)
            server.should_exit = True
            return
        if head == PING and not fds:
            with contextlib.suppress(OSError):  # a front too busy to read: it pings again
                channel.send(PONG)
            continue
        if head == METRICS and not fds:
            metrics = Metrics.latest
            text = generate_latest(metrics.registry) if metrics is not None else b""
            with contextlib.suppress(OSError):  # the front then leaves this worker out
                channel.send(METRICS + text[: MAX_CHANNEL_MESSAGE - len(METRICS)])
            continue
        for fd in fds:
            task = loop.create_task(_adopt(server, socket.socket(fileno=fd), head, loop))
            ADOPTING.add(task)  # a task nothing refers to may be collected before it runs
            task.add_done_callback(ADOPTING.discard)


async def _adopt(server, connection: socket.socket, head: bytes, loop: asyncio.AbstractEventLoop) -> None:
    """Serve a handed-over connection as if this worker had accepted it, the front's bytes first."""

    def protocol():
        made = uvicorn_protocol(server)
        connection_made = made.connection_made

        def made_then_fed(transport) -> None:
            connection_made(transport)
            if not transport.is_closing():  # over this worker's budget: answered 503 already
                made.data_received(head)

        made.connection_made = made_then_fed
        return made

    try:
        await loop.connect_accepted_socket(protocol, connection)
    except OSError:
        connection.close()


def uvicorn_protocol(server):
    """What uvicorn's own listener makes for each accepted connection (uvicorn.Server.startup)."""
    return server.config.http_protocol_class(
        config=server.config, server_state=server.server_state, app_state=server.lifespan.state
    )


# --- the front ----------------------------------------------------------------------------


class Front:
    """Accepts connections, reads their heads, hands each to its worker (module docstring)."""

    def __init__(self, listener: socket.socket, channels: list[socket.socket], prefixes: list[str], config: WebConfig):
        self.listener = listener
        self.channels = channels
        self.worker_of = {prefix.encode(): index for index, prefix in enumerate(prefixes)}
        self.header_timeout = config.header_timeout
        self.budget = client_counter(
            config.quotas, "connections", MAX_HTTP_CONNECTIONS, MAX_HTTP_CONNECTIONS_PER_CLIENT
        )
        self.trusted_peers = frozenset(config.trusted_proxies if config.proxy_header else ())
        self.turn = 0
        self.sending = [asyncio.Lock() for _ in channels]
        self.routing: set[asyncio.Task] = set()
        self.down: set[int] = set()  # workers being started again: not routed to
        self.silent: set[int] = set()  # workers that do not answer the health check: not routed to
        self.heard = [time.monotonic() for _ in channels]  # when each worker last answered
        self.metrics_allow = config.metrics_allow
        self.prefixes = prefixes
        self.metrics_asked: dict[int, asyncio.Future] = {}  # worker -> its /metrics text, awaited

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        self.listener.setblocking(False)
        for channel in self.channels:
            channel.setblocking(False)
        while True:
            try:
                connection, address = await loop.sock_accept(self.listener)
            except OSError:  # e.g. EMFILE: the connections already open are served meanwhile
                await asyncio.sleep(ACCEPT_RETRY_SECONDS)
                continue
            task = loop.create_task(self.route(connection, address[0] if address else ""))
            self.routing.add(task)  # a task nothing refers to may be collected before it ends
            task.add_done_callback(self.routing.discard)

    async def route(self, connection: socket.socket, peer: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            head = await self._head_within_budget(connection, peer, loop)
            if METRICS_PATH.match(head):  # every worker's figures, not the one's a connection reaches
                await self._answer(connection, await self._metrics(peer))
            elif head:
                worker = self._worker(head)
                if self.unavailable(worker):  # its rooms come back with it: try again shortly
                    await self._answer(connection, SERVICE_UNAVAILABLE)
                else:
                    await self._hand_over(worker, connection, head, loop)
        except (TimeoutError, OSError):
            pass
        finally:
            connection.close()

    async def _head_within_budget(self, connection: socket.socket, peer: str, loop) -> bytes:
        """The request head (as `_read_head`), read while the connection counts in the front's
        column of the plain connections' budget; b"" when the client left, or was answered:
        503 over the budget, 431 past MAX_HEAD_BYTES (while still counted, as it may linger).
        Given back before the hand-over: from then on the worker counts it in its own column,
        and a client at its quota's edge must not be counted twice."""
        if not self.budget.take(peer, exempt=peer in self.trusted_peers):
            await self._answer(connection, SERVICE_UNAVAILABLE)
            return b""
        try:
            head = await asyncio.wait_for(self._read_head(connection, loop), self.header_timeout)
            if head is None:
                await self._answer(connection, HEAD_TOO_LARGE, linger=True)
                return b""
            return head
        finally:
            self.budget.give_back(peer)

    async def _read_head(self, connection: socket.socket, loop) -> bytes | None:
        """The bytes up to and past the end of the request head; b"" if the client left, None
        when the head is too large."""
        head = b""
        while END_OF_HEAD not in head:
            if len(head) >= MAX_HEAD_BYTES:
                return None
            chunk = await loop.sock_recv(connection, MAX_HEAD_BYTES - len(head))
            if not chunk:
                return b""
            head += chunk
        return head

    def _worker(self, head: bytes) -> int:
        named = ROOM_PATH.match(head)
        if named and named.group(1) in self.worker_of:
            return self.worker_of[named.group(1)]
        for _ in self.channels:  # the next live worker in turn
            self.turn = (self.turn + 1) % len(self.channels)
            if not self.unavailable(self.turn):
                break
        return self.turn

    def unavailable(self, index: int) -> bool:
        return index in self.down or index in self.silent

    def replace_worker(self, index: int, channel: socket.socket) -> None:
        """A worker started again: its new channel, routed to from now on."""
        channel.setblocking(False)
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.channels[index])
        self.channels[index].close()  # the dead worker's end
        self.channels[index] = channel
        self.heard[index] = time.monotonic()
        self.silent.discard(index)
        self.down.discard(index)
        loop.add_reader(channel, self._hear, index)

    async def check_health(self) -> None:
        """Ping every worker each HEALTH_INTERVAL_SECONDS; stop routing to one that has not
        answered for HEALTH_TIMEOUT_SECONDS (module docstring)."""
        loop = asyncio.get_running_loop()
        for index, channel in enumerate(self.channels):
            loop.add_reader(channel, self._hear, index)
        while True:
            now = time.monotonic()
            for index, channel in enumerate(self.channels):
                if index in self.down:
                    continue
                if now - self.heard[index] > HEALTH_TIMEOUT_SECONDS and index not in self.silent:
                    self.silent.add(index)
                    log.error("worker %d has not answered for %g s: not routed to", index + 1, now - self.heard[index])
                with contextlib.suppress(OSError):  # a full channel: the worker is behind, as the check says
                    channel.send(PING)
            await asyncio.sleep(HEALTH_INTERVAL_SECONDS)

    async def _metrics(self, peer: str) -> bytes:
        """The HTTP response to GET /metrics: each live worker's figures, labelled by worker."""
        if not peer_allowed(peer, self.metrics_allow):
            return _plain(403, b"metrics are served to loopback or --metrics-allow peers only\n")
        loop = asyncio.get_running_loop()
        asked = {}
        for index, channel in enumerate(self.channels):
            if not self.unavailable(index) and index not in self.metrics_asked:
                self.metrics_asked[index] = asked[index] = loop.create_future()
                with contextlib.suppress(OSError):
                    channel.send(METRICS)
        texts = {}
        for index, future in asked.items():
            try:
                texts[self.prefixes[index]] = (await asyncio.wait_for(future, METRICS_SECONDS)).decode()
            except TimeoutError:
                pass
            finally:
                self.metrics_asked.pop(index, None)
        return _plain(200, labelled_by_worker(texts).encode(), CONTENT_TYPE_LATEST)

    def _hear(self, index: int) -> None:
        channel = self.channels[index]
        try:
            answer = channel.recv(MAX_CHANNEL_MESSAGE)
        except BlockingIOError:
            return
        except OSError:
            answer = b""
        if not answer:  # the worker has gone: its restart takes over (_front_until_stopped)
            asyncio.get_running_loop().remove_reader(channel)
            return
        self.heard[index] = time.monotonic()
        if answer.startswith(METRICS) and index in self.metrics_asked:
            _resolve_with(self.metrics_asked[index], answer[len(METRICS) :])
        if index in self.silent:
            self.silent.discard(index)
            log.warning("worker %d answers again: routed to", index + 1)

    async def _hand_over(self, worker: int, connection: socket.socket, head: bytes, loop) -> None:
        channel = self.channels[worker]
        async with self.sending[worker]:
            while True:
                try:
                    socket.send_fds(channel, [head], [connection.fileno()])
                    return
                except BlockingIOError:  # the worker is behind: wait until its channel drains
                    writable = loop.create_future()
                    loop.add_writer(channel, _resolve, writable)
                    try:
                        await writable
                    finally:
                        loop.remove_writer(channel)

    @staticmethod
    async def _answer(connection: socket.socket, response: bytes, linger: bool = False) -> None:
        """Send `response` and close; `linger`: to a client that may still be sending, a FIN
        first, and what it sends meanwhile is read and dropped for up to LINGER_SECONDS (a
        close with unread bytes sends a reset, which would lose it the answer)."""
        loop = asyncio.get_running_loop()
        try:
            connection.setblocking(False)
            await loop.sock_sendall(connection, response)
            if linger:
                connection.shutdown(socket.SHUT_WR)
                await asyncio.wait_for(_drain(connection, loop), LINGER_SECONDS)
        except (OSError, TimeoutError):
            pass
        finally:
            connection.close()


async def _drain(connection: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
    while await loop.sock_recv(connection, MAX_HEAD_BYTES):
        pass


def _plain(status: int, body: bytes, kind: str = "text/plain; charset=utf-8") -> bytes:
    reason = {200: "OK", 403: "Forbidden"}[status]
    head = f"HTTP/1.1 {status} {reason}\r\ncontent-type: {kind}\r\ncontent-length: {len(body)}\r\n"
    head += "connection: close\r\n\r\n"
    return head.encode() + body


def _resolve(future: asyncio.Future) -> None:
    _resolve_with(future, None)


def _resolve_with(future: asyncio.Future, value) -> None:
    if not future.done():
        future.set_result(value)


def serve_processes(listener: socket.socket, config: WebConfig, processes: int, on_ready=None) -> int:
    """Serve on `processes` workers behind a front until SIGINT / SIGTERM, starting again a
    worker that dies (module docstring); the signal that stopped it. WorkerError when a worker
    does not start at first."""
    prefixes = worker_prefixes(config.room_prefix, processes)
    quotas = QuotaTable.create(processes)  # before the workers: each is given a handle at its start
    configs = [worker_config(config, prefix, processes, quotas.for_column(k)) for k, prefix in enumerate(prefixes)]
    started = [start_worker(worker) for worker in configs]
    workers = [process for _, process in started]
    try:
        for channel, worker in started:
            if not worker_ready(channel):
                raise WorkerError(f"the worker process {worker.name} did not start")
        if on_ready is not None:
            on_ready()
        front = Front(listener, [channel for channel, _ in started], prefixes, replace(config, quotas=quotas))
        return asyncio.run(_front_until_stopped(front, workers, configs, quotas))
    finally:
        _stop(workers)


def start_worker(config: WebConfig) -> tuple[socket.socket, multiprocessing.process.BaseProcess]:
    """A worker process serving `config`'s rooms, and the front's end of its channel."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads forked
    front_end, worker_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    worker = context.Process(target=run_worker, args=(config, worker_end), name=f"bananas-{config.room_prefix}")
    worker.start()
    worker_end.close()
    return front_end, worker


def worker_ready(channel: socket.socket) -> bool:
    """Wait (blocking) for a new worker's READY."""
    channel.settimeout(WORKER_START_SECONDS)
    try:
        return channel.recv(len(READY)) == READY
    except OSError:
        return False


async def _front_until_stopped(front: Front, workers: list, configs: list[WebConfig], quotas: QuotaTable) -> int:
    """Route until SIGINT / SIGTERM (returned); a worker that dies meanwhile is started again."""
    loop = asyncio.get_running_loop()
    stopped: asyncio.Future = loop.create_future()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, _resolve_with, stopped, signal_number)
    deaths: list[list[float]] = [[] for _ in workers]

    def watch(index: int) -> None:
        loop.add_reader(workers[index].sentinel, died, index)

    def died(index: int) -> None:
        loop.remove_reader(workers[index].sentinel)
        if not stopped.done():
            front.down.add(index)
            quotas.zero_column(index)  # what it held died with it (its restored rooms are not charged)
            restarting.add(loop.create_task(restart(index)))

    async def restart(index: int) -> None:
        now = time.monotonic()
        deaths[index] = [t for t in deaths[index] if now - t < RESTART_WINDOW_SECONDS] + [now]
        pause = 0.0
        if len(deaths[index]) >= RESTARTS_BEFORE_BACKOFF:
            pause = min(MAX_RESTART_PAUSE_SECONDS, 2.0 ** (len(deaths[index]) - RESTARTS_BEFORE_BACKOFF))
        log.error(
            "worker %s stopped (exit code %s): starting it again%s",
            workers[index].name,
            workers[index].exitcode,
            f" in {pause:g} s ({len(deaths[index])} deaths in a minute)" if pause else "",
        )
        await asyncio.sleep(pause)
        while not stopped.done():
            channel, worker = start_worker(configs[index])
            workers[index] = worker
            if await loop.run_in_executor(None, worker_ready, channel):
                front.replace_worker(index, channel)
                watch(index)
                return
            channel.close()
            log.error("worker %s did not start: trying again", worker.name)
            await asyncio.sleep(min(MAX_RESTART_PAUSE_SECONDS, 2.0))

    restarting: set[asyncio.Task] = set()
    for index in range(len(workers)):
        watch(index)
    serving = asyncio.ensure_future(front.serve())
    checking = asyncio.ensure_future(front.check_health())
    stopping_signal = await stopped
    serving.cancel()
    checking.cancel()
    for task in restarting:
        task.cancel()
    return stopping_signal


def _stop(workers: list) -> None:
    for worker in workers:
        if worker.is_alive():
            worker.terminate()  # SIGTERM: uvicorn's graceful shutdown
    for worker in workers:
        worker.join(timeout=15)
        if worker.is_alive():
            worker.kill()
            worker.join()
