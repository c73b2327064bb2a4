"""The web server's settings and limits (every one configurable from `bananas serve`)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.core.limits import MAX_ROOM_PREFIX_CHARS, NETWORK, SOCKETS_PER_SEAT, Limits
from solver.play.presets import preset_names
from solver.play.variants import BANANAGRAMS

if TYPE_CHECKING:
    from solver.web.quotas import QuotaTable


def default_bots() -> dict[str, str]:
    """Every Bananagrams preset of the catalogue, under its own name."""
    return {name: name for name in preset_names(BANANAGRAMS)}


def offered_bots(extra: dict[str, str] | None, only: bool = False) -> dict[str, str]:
    """The presets `bananas serve` offers: the catalogue's and `extra` (`--bot`; one of the same
    name replaces the catalogue's), or `extra` alone when `only` (`--only-bots`)."""
    if only and not extra:
        raise ValueError("--only-bots needs at least one --bot NAME=SPEC")
    return dict(extra or {}) if only else {**default_bots(), **(extra or {})}


@dataclass
class WebConfig:
    """Rooms, seats and messages of the browser game, and the engine endpoint's limits."""

    max_rooms: int = 100
    max_seats: int = 4  # the online game's tables seat up to four
    max_message_bytes: int = 16 * 1024  # one message from a page
    messages_per_second: float = 20.0  # sustained rate per connection ...
    message_burst: int = 60  # ... and the burst allowed above it
    # The clock those rates read (seconds): a test's own makes time pass without waiting.
    message_clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)
    write_timeout: float = 10.0  # seconds one write to a page may block before it is dropped
    header_timeout: float = 10.0  # seconds a connection may take to send a request head, or a body
    room_idle_seconds: float = 1800.0  # a room where no person has acted for this long is closed
    absent_seconds: float = 60.0  # a person disconnected for this long has left the table
    public_url: str | None = None  # base of room links and QR codes (default: the address the page used)
    distribution: str | None = None  # a tile set for every room ('A13,B3,...'); default: the language's
    seed: int | None = None  # rooms' deals from this seed (reproducible); default: random
    bots: dict[str, str] = field(default_factory=default_bots)  # Bananagrams preset shown in the page -> bot spec
    spellevate_delay: float = 1.0  # seconds before each bot move in Spellevate, so a person can follow
    engine: Limits = NETWORK  # the engine endpoint (/engine): one network Session per connection
    # Who may connect (docs/SECURITY.md): the Host names answered besides IP literals, localhost and
    # public_url's host ("*": any), and the origins allowed besides the server's own ("*": any).
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    # Behind a reverse proxy: the header naming the client's address, believed only from these peers.
    proxy_header: str | None = None
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    metrics_allow: tuple[str, ...] = ()  # networks served /metrics besides loopback (solver.web.health)
    # What one client address may take.
    rooms_per_client: int = 10  # rooms it created that are open at once
    room_creations_per_minute: int = 20  # rooms it may create a minute (bursts of as many)
    engine_sessions_per_client: int = 16  # of engine.max_sessions
    engine_messages_per_second: float = 50.0  # the engine sessions' messages one address may send ...
    engine_message_burst: int = 200  # ... and the burst above it: faster ones are read later
    sockets_per_client: int = 64  # WebSockets, rooms' and engine's together
    join_seconds: float = 30.0  # a room socket that has not joined within this is closed (1008)
    unjoined_room_seconds: float = 60.0  # a room nobody has joined closes this long after its creation
    # Several servers behind one proxy: this server's room ids start with "<room_prefix>-", so the
    # proxy sends /r/<room_prefix>-... to it (docs/SECURITY.md, "Several servers").
    room_prefix: str | None = None
    # Durable rooms (solver.web.persistence): the SQLite file rooms and hands are saved to as they
    # happen, so a restarted server resumes them; None keeps them in memory only.
    db: str | None = None
    # `serve --processes N`: the table every worker counts the quotas per client in, so that they
    # hold across the workers (solver.web.quotas); None (one process): each counter in memory.
    quotas: QuotaTable | None = field(default=None, compare=False, repr=False)
    # The server owns its process (`bananas serve`): at start-up it tunes the cycle collector for
    # a long-lived server (`solver.web.health.settle_collector`). Off for a server embedded in
    # another program (the tests' in-process servers): the collector is the whole process's.
    owns_process: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.max_seats <= 8:
            raise ValueError("seats per room must be between 1 and 8")
        if self.max_rooms < 1 or self.max_message_bytes < 256 or min(self.message_burst, self.engine_message_burst) < 1:
            raise ValueError("rooms, message size (>= 256 bytes) and burst must be positive")
        timeouts = (self.room_idle_seconds, self.absent_seconds, self.write_timeout, self.header_timeout)
        if min(self.messages_per_second, self.engine_messages_per_second) <= 0 or min(timeouts) <= 0:
            raise ValueError("rates and timeouts must be positive")
        if not 0 <= self.spellevate_delay <= 60:
            raise ValueError("the Spellevate bot delay is between 0 and 60 seconds")
        if not self.bots:
            raise ValueError("the page needs at least one bot preset")
        quotas = (self.rooms_per_client, self.room_creations_per_minute, self.engine_sessions_per_client)
        if min(quotas) < 1 or self.sockets_per_client < 1:
            raise ValueError("the quotas per client must be positive")
        if min(self.join_seconds, self.unjoined_room_seconds) <= 0:
            raise ValueError("timeouts must be positive")
        prefix = self.room_prefix
        if prefix is not None and not re.fullmatch(f"[a-z0-9]{{1,{MAX_ROOM_PREFIX_CHARS}}}", prefix):
            limit = MAX_ROOM_PREFIX_CHARS
            raise ValueError(f"a room prefix is 1 to {limit} lower-case letters and digits, not {prefix!r}")
        for origin in self.allowed_origins:
            if origin != "*" and not origin.startswith(("http://", "https://")):
                raise ValueError(f"an allowed origin is scheme://host[:port], not {origin!r}")

    @property
    def max_sockets(self) -> int:
        """The WebSocket budget, apart from plain requests': every seat of every room a couple
        of sockets, and every engine session."""
        return self.max_rooms * self.max_seats * SOCKETS_PER_SEAT + self.engine.max_sessions

    def presets(self, game: str) -> dict[str, str]:
        """The bots a room of `game` offers: preset shown in the page -> bot spec
        (Bananagrams: `bots`, set by `bananas serve --bot`; other games: the catalogue's)."""
        return self.bots if game == BANANAGRAMS else {name: name for name in preset_names(game)}


class ClientCounter:
    """Open things (connections, sessions) counted in all and per client address: `take`
    says whether one more fits under both caps; `give_back` returns it."""

    def __init__(self, total: float, per_client: int):
        self.total = total
        self.per_client = per_client
        self.open = 0
        self.by_client: dict[str, int] = {}

    def take(self, client: str, exempt: bool = False) -> bool:
        held = self.by_client.get(client, 0)
        if self.open >= self.total or (held >= self.per_client and not exempt):
            return False
        self.open += 1
        self.by_client[client] = held + 1
        return True

    def give_back(self, client: str) -> None:
        self.open -= 1
        held = self.by_client.pop(client, 1) - 1
        if held > 0:
            self.by_client[client] = held
