"""Running the web app with uvicorn: on a socket we bind ourselves (so a taken port is one
clear error), from the command line or in a background thread (tests, embedding)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from solver.core.limits import MAX_HTTP_CONNECTIONS
from solver.web.app import create_app
from solver.web.config import WebConfig


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (OSError when the address is taken or not ours)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
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
    that sends half a request line would hold its connection forever)."""

    header_timeout = 10.0
    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_header_timer()  # the next request on a kept-alive connection, too

    def connection_lost(self, exc: Exception | None) -> None:
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


def make_server(config: WebConfig) -> uvicorn.Server:
    app = create_app(config)
    largest = max(config.max_message_bytes, config.engine.max_message_bytes)
    return uvicorn.Server(
        uvicorn.Config(
            app,
            http=type("BoundedH11Protocol", (BoundedH11Protocol,), {"header_timeout": config.header_timeout}),
            limit_concurrency=MAX_HTTP_CONNECTIONS,
            ws="websockets-sansio",
            ws_max_size=largest,  # each endpoint enforces its own, smaller, limit
            lifespan="on",
            log_level="warning",
            access_log=False,
        )
    )


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def serve_forever(sock: socket.socket, config: WebConfig) -> None:
    """Serve until SIGINT / SIGTERM (uvicorn's handlers stop it cleanly)."""
    make_server(config).run(sockets=[sock])


class BackgroundServer:
    """The app in a daemon thread on 127.0.0.1 (port 0: any free port); `url`, `stop()`."""

    def __init__(self, config: WebConfig | None = None, host: str = "127.0.0.1", port: int = 0):
        self.config = config or WebConfig()
        self.socket = bind(host, port)
        self.url = url_of(self.socket).rstrip("/")
        self.engine_url = self.url.replace("http://", "ws://", 1) + "/engine"  # the engine protocol
        self.server = make_server(self.config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self, timeout: float = 30.0) -> BackgroundServer:
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
