"""Who may reach `bananas serve`: the Host and Origin checks, the client's address, and the
WebSocket budget (docs/SECURITY.md).

- **Host.** A request must name a host the server answers to: an IP literal, `localhost`,
  the host of `--public-url`, the name it listens on, or one given by `--allow-host`
  (`*`: any). A DNS-rebinding page reaches the server under its own name, which is none
  of these: 400 `bad_host` (a WebSocket upgrade: 403).
- **Origin.** WebSocket upgrades and state-changing requests (every method but GET, HEAD and
  OPTIONS) that carry an Origin must come from the server's own origin (the Host they
  name), `--public-url`'s, or one given by `--allow-origin` (`*`: any); any other, `null`
  included, is 403 `bad_origin`. A request without an Origin is not a browser's cross-site
  request (browsers send one on every upgrade and every POST), so engine clients, scripts
  and tests are served.
- **The client's address** is the peer's, or, from a trusted proxy (`--trusted-proxy`) and
  with `--proxy-header` set, the last address that header names (the one the proxy saw).
  It is kept in the scope (`client_of`) for the quotas per client.
- **WebSockets** draw on a budget of their own (`WebConfig.max_sockets`, and
  `sockets_per_client` per address), apart from plain requests': past it an upgrade is
  accepted and closed with 1013 (try again later).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from solver.web.config import WebConfig
from solver.web.quotas import client_counter

CLIENT = "bananas.client"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def client_of(scope: Scope) -> str:
    """The client address the gate found for this request."""
    return scope.get(CLIENT) or ""


def split_host(value: str) -> tuple[str, int | None] | None:
    """'Name:8765' -> ('name', 8765); '[::1]:80' -> ('::1', 80); None when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if not name or (port and not port.isdigit()) or len(port) > 5:
        return None
    return name.rstrip("."), int(port) if port else None


def is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Gate:
    """ASGI middleware: the Host and Origin checks, the client's address, the socket budget."""

    def __init__(self, app: ASGIApp, config: WebConfig):
        self.app = app
        self.config = config
        public = urlsplit(config.public_url) if config.public_url else None
        self.any_host = "*" in config.allowed_hosts
        self.hosts = {"localhost", *(name.lower().rstrip(".") for name in config.allowed_hosts)}
        self.any_origin = "*" in config.allowed_origins
        self.origins = {origin.lower().rstrip("/") for origin in config.allowed_origins}
        if public is not None and public.hostname:
            self.hosts.add(public.hostname.lower())
            self.origins.add(f"{public.scheme}://{public.netloc}".lower())
        self.trusted = frozenset(config.trusted_proxies)
        self.sockets = client_counter(config.quotas, "sockets", config.max_sockets, config.sockets_per_client)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        scope[CLIENT] = self.client_address(scope, headers)
        host = headers.get("host", "")
        websocket = scope["type"] == "websocket"
        if not self.host_allowed(host):
            await refuse(scope, receive, send, 400, "bad_host", "this server does not answer to that host name")
        elif (websocket or scope.get("method") not in SAFE_METHODS) and not self.origin_allowed(
            headers.get("origin"), host
        ):
            await refuse(scope, receive, send, 403, "bad_origin", "requests from another site are not accepted")
        elif websocket:
            await self.within_socket_budget(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def client_address(self, scope: Scope, headers: Headers) -> str:
        peer = scope["client"][0] if scope.get("client") else ""
        if self.config.proxy_header and peer in self.trusted:
            forwarded = headers.get(self.config.proxy_header, "").split(",")[-1].strip()
            if forwarded:
                return forwarded[:64]
        return peer

    def host_allowed(self, host: str) -> bool:
        parsed = split_host(host)
        if parsed is None:
            return False
        name = parsed[0]
        return self.any_host or is_ip_literal(name) or name in self.hosts

    def origin_allowed(self, origin: str | None, host: str) -> bool:
        if origin is None:
            return True  # not a browser's cross-site request (see the module docstring)
        origin = origin.strip().lower().rstrip("/")
        if self.any_origin or origin in self.origins:
            return True
        parts = urlsplit(origin)
        ours = split_host(host)
        if parts.scheme not in ("http", "https") or not parts.hostname or ours is None:
            return False
        try:
            origin_port = parts.port or DEFAULT_PORTS[parts.scheme]
        except ValueError:
            return False
        return (parts.hostname, origin_port) == (ours[0], ours[1] or DEFAULT_PORTS[parts.scheme])

    async def within_socket_budget(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_of(scope)
        if not self.sockets.take(client, exempt=False):
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013, "reason": "too many sockets: try again later"})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets.give_back(client)


async def refuse(scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})  # before the accept: HTTP 403
        return
    await JSONResponse({"code": code, "message": message}, status_code=status)(scope, receive, send)
