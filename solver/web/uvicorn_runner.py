"""Running the web app with uvicorn: on a socket we bind ourselves (so a taken port is one
clear error), from the command line or in a background thread (tests, embedding)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import threading
import time

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from solver.core.limits import MAX_HTTP_CONNECTIONS, MAX_HTTP_CONNECTIONS_PER_CLIENT
from solver.web.app import create_app
from solver.web.config import ClientCounter, WebConfig
from solver.web.quotas import client_counter

SERVICE_UNAVAILABLE = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 27\r\n"
    b"connection: close\r\n\r\ntoo many connections: later"
)
HEAD_TOO_LARGE = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
MAX_HEAD_BYTES = 64 * 1024  # a request head (request line and headers) past this is answered 431
END_OF_HEAD = b"\r\n\r\n"
# What a client still sending a refused request gets to finish before its connection is closed
# (`linger`): a close with unread bytes sends a reset, and the client loses the answer.
LINGER_SECONDS = 5.0
READ_AHEAD = 8  # a WebSocket's frames read before its app takes them: past this, reading pauses


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (OSError when the address is taken or not ours)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


class BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection that has not sent a whole request
    head within `header_timeout` seconds (uvicorn bounds only keep-alive idleness, so a client
    that sends half a request line would hold its connection forever), and drawing on a budget
    of plain HTTP connections, in all and per peer address: a WebSocket leaves it when it
    upgrades (sockets have their own, `solver.web.gate`), so neither idle sockets nor one
    client's half-sent heads can stop page loads. A connection over budget gets 503."""

    header_timeout = 10.0
    header_timer: asyncio.TimerHandle | None = None
    budget = ClientCounter(MAX_HTTP_CONNECTIONS, MAX_HTTP_CONNECTIONS_PER_CLIENT)  # one per server
    trusted_peers: frozenset[str] = frozenset()  # proxies: every client comes through them
    counted: str | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        no_delay(transport)
        super().connection_made(LingeringTransport(transport, self))  # type: ignore[arg-type]  # a Transport's face
        peer = self.client[0] if self.client else ""
        if not self.budget.take(peer, exempt=peer in self.trusted_peers):
            transport.write(SERVICE_UNAVAILABLE)
            transport.close()
            return
        self.counted = peer
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and head_too_large(self.conn.trailing_data[0] + data):
            self.transport.write(HEAD_TOO_LARGE)  # as `serve --processes`' front answers it
            linger(self.transport, self)
            return
        super().data_received(data)

    def still_sending(self) -> bool:
        """Whether the client is still sending the body of the request being answered (not
        after a WebSocket upgrade: h11 still expects that request's end, and never will)."""
        return self.conn.their_state is h11.SEND_BODY and self.transport.get_protocol() is self

    def handle_websocket_upgrade(self, event) -> None:
        self._leave_budget()
        super().handle_websocket_upgrade(event)

    def _leave_budget(self) -> None:
        if self.counted is not None:
            self.budget.give_back(self.counted)
            self.counted = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_header_timer()  # the next request on a kept-alive connection, too

    def connection_lost(self, exc: Exception | None) -> None:
        self._leave_budget()
        if self.header_timer is not None:
            self.header_timer.cancel()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        self.header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _headers_too_slow(self) -> None:
        upgraded = self.transport.get_protocol() is not self  # a WebSocket now: its own limits
        waiting = self.cycle is None or self.cycle.response_complete
        if not upgraded and waiting and not self.transport.is_closing():
            self.transport.close()


def no_delay(transport) -> None:
    """Send small writes at once (TCP_NODELAY). uvicorn writes a response's head and body apart,
    and a WebSocket's messages one by one; with Nagle's algorithm on, a write waits for the
    peer's acknowledgement of the one before, which a client delays by up to 40 ms: every
    request after the first on a kept-alive connection took 44 ms. asyncio sets the option
    only on sockets whose protocol number says TCP, and neither a socket bound without one nor
    one handed over by `serve --processes`' front need say so."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # a connection already reset: nothing to tune
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def head_too_large(received: bytes) -> bool:
    """Whether the bytes of a request head received so far pass MAX_HEAD_BYTES, its end unseen."""
    return len(received) >= MAX_HEAD_BYTES and END_OF_HEAD not in received[:MAX_HEAD_BYTES]


class ReadAheadProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, pausing a socket's reads only once READ_AHEAD
    frames wait for the app (uvicorn pauses after every frame: two changes of the event loop's
    epoll set for each message a page sends, and a room's pages send one a second each). It
    resumes, as uvicorn's does, when the app has taken every frame; a flood still waits, and
    what it holds stays bounded: READ_AHEAD frames of at most the message limit."""

    def send_receive_event_to_app(self) -> None:
        if self.read_paused or self.queue.qsize() + 1 >= READ_AHEAD:
            super().send_receive_event_to_app()  # pauses the reads
            return
        self.read_paused = True  # uvicorn's pause is skipped when it reads this
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False


class LingeringTransport:
    """A connection's transport as uvicorn sees it, whose `close` lingers while the client is
    still sending the request just answered (a body refused with 413 under `connection: close`,
    as `serve --processes`' workers answer): closed at once, the unread bytes would make the
    kernel send a reset, and a client that sends its whole body before reading (most do) would
    get the reset instead of the answer."""

    def __init__(self, transport: asyncio.Transport, protocol: BoundedH11Protocol):
        self.transport, self.protocol = transport, protocol
        self.lingering = False

    def __getattr__(self, name: str):
        return getattr(self.transport, name)

    def is_closing(self) -> bool:
        return self.lingering or self.transport.is_closing()

    def close(self) -> None:
        if self.lingering or self.transport.is_closing() or not self.protocol.still_sending():
            self.transport.close()
            return
        self.lingering = True
        linger(self.transport, self.protocol)


def linger(transport: asyncio.Transport, protocol: asyncio.BaseProtocol) -> None:
    """Close `transport` gently: what was written goes out with a FIN after it, then what the
    client still sends is read and dropped until it closes too, or LINGER_SECONDS pass."""
    transport.set_protocol(Draining(transport, protocol))
    transport.resume_reading()
    if transport.can_write_eof():
        try:
            transport.write_eof()
        except OSError:  # the client went first (ENOTCONN): nothing is left to linger for
            transport.close()


class Draining(asyncio.Protocol):
    """A lingering connection's protocol (`linger`): drops what it reads; its loss is told to
    the protocol that served it (budgets, uvicorn's own bookkeeping)."""

    def __init__(self, transport: asyncio.Transport, served: asyncio.BaseProtocol):
        self.served = served
        self.timer = asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)

    def data_received(self, data: bytes) -> None:
        pass

    def eof_received(self) -> bool:
        return False  # the client is done: the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        self.timer.cancel()
        self.served.connection_lost(exc)


class Server(uvicorn.Server):
    """uvicorn, telling the pages before it closes their sockets (`app.state.stopping`):
    uvicorn itself closes a WebSocket with 1012 and nothing more."""

    def __init__(self, config: uvicorn.Config, stopping):
        super().__init__(config)
        self.stopping = stopping
        self.stopped_by: int | None = None  # the first signal that stopped it (SIGINT, SIGTERM)

    def handle_exit(self, sig: int, frame) -> None:
        if self.stopped_by is None:
            self.stopped_by = sig
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.stopping()
        await super().shutdown(sockets)


def make_server(config: WebConfig, wrap=None) -> uvicorn.Server:
    """uvicorn serving the app of `config` (wrapped in the ASGI middleware `wrap`, if given)."""
    app = create_app(config)
    largest = max(config.max_message_bytes, config.engine.max_message_bytes)
    settings = {
        "header_timeout": config.header_timeout,
        "budget": client_counter(config.quotas, "connections", MAX_HTTP_CONNECTIONS, MAX_HTTP_CONNECTIONS_PER_CLIENT),
        "trusted_peers": frozenset(config.trusted_proxies if config.proxy_header else ()),
    }
    return Server(
        uvicorn.Config(
            app if wrap is None else wrap(app),
            http=type("BoundedH11Protocol", (BoundedH11Protocol,), settings),
            limit_concurrency=None,  # the protocol's budget counts plain connections only
            ws=ReadAheadProtocol,
            ws_max_size=largest,  # each endpoint enforces its own, smaller, limit
            # No permessage-deflate: the messages are small JSON, and compressing each one for
            # each page cost the server more CPU than the bytes it saved were worth.
            ws_per_message_deflate=False,
            h11_max_incomplete_event_size=MAX_HEAD_BYTES,  # BoundedH11Protocol answers 431 first
            lifespan="on",
            log_level="warning",
            access_log=False,
        ),
        app.state.stopping,
    )


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return http_url(host, port)


def http_url(host: str, port: int) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def urls_to_play_at(sock: socket.socket) -> list[str]:
    """Where a browser reaches the server listening on `sock`: its address; for every interface
    (0.0.0.0, ::), which no browser can open, the loopback first, then the machine's addresses
    on its networks (those a phone on the same network opens)."""
    host, port = sock.getsockname()[:2]
    if not ipaddress.ip_address(host).is_unspecified:
        return [url_of(sock)]
    ipv6 = sock.family == socket.AF_INET6
    ipv4 = not ipv6 or not sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)  # dual stack
    hosts = ["127.0.0.1"] * ipv4 + ["::1"] * ipv6
    hosts += network_addresses(socket.AF_INET) * ipv4 + network_addresses(socket.AF_INET6) * ipv6
    return [http_url(name, port) for name in hosts]


def network_addresses(family: socket.AddressFamily) -> list[str]:
    """This machine's addresses of `family` on its networks (not loopback, not link-local, which
    needs an interface's name in a URL): those its host name resolves to, and the one its
    default route leaves from. No lookup leaves the machine but the host name's, no packet is
    sent, and a machine without a network gives none."""
    found: set[str] = set()
    with contextlib.suppress(OSError):  # a host name that does not resolve
        resolved = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
        found |= {str(info[4][0]) for info in resolved}
    found |= set(filter(None, [routed_address(family)]))
    addresses = {ipaddress.ip_address(address.partition("%")[0]) for address in found}
    usable = [a for a in addresses if not (a.is_loopback or a.is_link_local or a.is_unspecified)]
    return [str(address) for address in sorted(usable)]


# Documentation addresses (RFC 5737, RFC 3849): a route to them is the default route's.
ROUTE_PROBES = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}


def routed_address(family: socket.AddressFamily) -> str | None:
    """The address the default route leaves from, or None without one: connecting a UDP
    socket only picks the route, and sends nothing."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((ROUTE_PROBES[family], 9))
            return probe.getsockname()[0]
    except OSError:  # no route: no network, or none of this family
        return None


def serve_forever(sock: socket.socket, config: WebConfig) -> int | None:
    """Serve until SIGINT / SIGTERM (uvicorn's handlers stop it cleanly); the signal that
    stopped it (uvicorn raises it again once it has shut down, but asyncio's runner may have
    swallowed that by then: `bananas serve` exits 130 on Ctrl-C either way)."""
    server = make_server(config)
    server.run(sockets=[sock])
    return server.stopped_by if isinstance(server, Server) else None


class BackgroundServer:
    """The app in a daemon thread on 127.0.0.1 (port 0: any free port); `url`, `stop()`."""

    def __init__(self, config: WebConfig | None = None, host: str = "127.0.0.1", port: int = 0):
        self.config = config or WebConfig()
        self.socket = bind(host, port)
        self.url = url_of(self.socket).rstrip("/")
        self.engine_url = self.url.replace("http://", "ws://", 1) + "/engine"  # the engine protocol
        self.server = make_server(self.config)
        self.app = self.server.config.app
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self, timeout: float = 180.0) -> BackgroundServer:
        """Start serving; RuntimeError if it has not started within `timeout` seconds (a bound
        that only catches a hang: a cold start loads the word lists, which on a loaded
        machine took over 30 s)."""
        if not self.thread.is_alive():
            self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
