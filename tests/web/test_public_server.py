"""`bananas serve` facing the internet: the probes of issue 25, each a test (loopback only).

Who may connect (Origin and Host checks), how much one client address may take (rooms,
engine sessions, sockets, half-open requests), what keeps a room open (play, not refused or
repeated messages), and the connection budgets (sockets and plain requests apart, a few
sockets per seat). Different client addresses are different loopback addresses
(127.0.0.2, 127.0.0.3, ...): Linux answers the whole of 127/8.
"""

from __future__ import annotations

import asyncio
import http.client as http_client
import json
import socket
import time

import pytest
import websockets
from helpers import Page, closed_code, http, new_room, request, run_bounded, start_server
from websockets.asyncio.client import connect

from solver.core.grid import validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.search import solve
from solver.search.solving import warm_kernels

EVIL = "http://evil.example"


def ws_url(server, path: str) -> str:
    return server.url.replace("http://", "ws://") + path


def origin_of(server) -> str:
    return server.url  # http://127.0.0.1:PORT


def raw_http(server, method: str, path: str, *, body: bytes | None = None, headers=None, source="127.0.0.1"):
    """One request from the loopback address `source` -> status, body (a refused connection: 0)."""
    port = int(server.url.rsplit(":", 1)[1])
    connection = http_client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    except (ConnectionError, http_client.RemoteDisconnected):
        return 0, ""
    finally:
        connection.close()


def create_from(server, source: str, **settings) -> tuple[int, dict]:
    status, body = raw_http(
        server,
        "POST",
        "/api/rooms",
        body=json.dumps({"language": "en", **settings}).encode(),
        headers={"Content-Type": "application/json"},
        source=source,
    )
    return status, json.loads(body) if body.startswith("{") else {}


async def refused_upgrade(url: str, **options) -> int:
    """The HTTP status that refused a WebSocket upgrade."""
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with connect(url, **options):
            pass
    return refused.value.response.status_code


# -- who may connect ---------------------------------------------------------------------------------


def test_a_cross_site_origin_cannot_open_a_room_socket_or_an_engine_session():
    with start_server() as server:
        room = new_room(server)

        async def scenario():
            for path in (f"/r/{room}/ws", "/engine", "/"):
                assert await refused_upgrade(ws_url(server, path), origin=EVIL) == 403, path
                assert await refused_upgrade(ws_url(server, path), origin="null") == 403, path
            # the page's own origin, and a client that sends none (not a browser), are served
            async with Page(server, room) as page:  # no Origin
                await page.join("Ana")
            async with connect(ws_url(server, f"/r/{room}/ws"), origin=origin_of(server)) as ws:
                await ws.send(json.dumps({"type": "join", "name": "Ben"}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
            async with connect(server.engine_url, origin=origin_of(server)) as ws:
                assert (await request(ws, {"type": "hello", "id": 1}))[0]["type"] == "hello"

        run_bounded(scenario)


def test_a_cross_site_text_plain_post_creates_no_room():
    with start_server() as server:
        status, body = raw_http(
            server,
            "POST",
            "/api/rooms",
            body=b'{"language":"en"}',
            headers={"Content-Type": "text/plain", "Origin": EVIL},
        )
        assert status == 403 and json.loads(body)["code"] == "bad_origin"
        assert len(rooms_of(server)) == 0
        # the page's own POST (same origin) creates one
        status, body = raw_http(
            server,
            "POST",
            "/api/rooms",
            body=b'{"language":"en"}',
            headers={"Content-Type": "application/json", "Origin": origin_of(server)},
        )
        assert status == 201, body


def rooms_of(server) -> dict:
    return server.app.state.rooms.rooms


def test_a_foreign_host_header_is_refused_dns_rebinding():
    with start_server() as server:
        room = new_room(server)
        port = server.url.rsplit(":", 1)[1]
        for method, path in (("GET", "/"), ("GET", f"/r/{room}"), ("GET", f"/r/{room}/qr.svg"), ("POST", "/api/rooms")):
            status, body = raw_http(server, method, path, body=b"{}", headers={"Host": f"evil.example:{port}"})
            assert status == 400 and "bad_host" in body, (method, path, status)

        upgrade = {
            "Host": f"rebound.example:{port}",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        }
        for path in (f"/r/{room}/ws", "/engine"):
            assert raw_http(server, "GET", path, headers=upgrade)[0] == 403, path
        assert raw_http(server, "GET", "/engine", headers={**upgrade, "Host": f"127.0.0.1:{port}"})[0] == 101
        # the names the server answers to: its address, localhost; room links follow the checked Host
        status, body = raw_http(server, "POST", "/api/rooms", body=b"{}", headers={"Host": f"localhost:{port}"})
        assert status == 201 and json.loads(body)["url"].startswith(f"http://localhost:{port}/r/")


def test_allowed_hosts_origins_and_the_public_url_are_answered():
    public = "https://bananas.example.org"
    with start_server(
        allowed_hosts=("games.lan",), allowed_origins=("https://friend.example",), public_url=public
    ) as s:
        port = s.url.rsplit(":", 1)[1]
        for host in (f"games.lan:{port}", "bananas.example.org"):
            status, body = raw_http(s, "POST", "/api/rooms", body=b"{}", headers={"Host": host, "Origin": public})
            assert status == 201 and json.loads(body)["url"].startswith(public + "/r/"), (host, body)
        status, _ = raw_http(s, "POST", "/api/rooms", body=b"{}", headers={"Origin": "https://friend.example"})
        assert status == 201
        status, _ = raw_http(s, "POST", "/api/rooms", body=b"{}", headers={"Origin": "https://foe.example"})
        assert status == 403


# -- how much one client may take ---------------------------------------------------------------------


def test_one_client_creating_rooms_in_a_loop_cannot_lock_others_out():
    with start_server(max_rooms=100) as server:
        answers = [create_from(server, "127.0.0.2")[0] for _ in range(100)]
        assert answers.count(201) < 20 and answers[-1] == 429  # its own quota, far below the server's
        status, created = create_from(server, "127.0.0.3")
        assert status == 201

        async def scenario():
            url = ws_url(server, f"/r/{created['id']}/ws")
            async with connect(url, local_addr=("127.0.0.3", 0)) as ws:
                await ws.send(json.dumps({"type": "join", "name": "Other"}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"

        run_bounded(scenario)


def test_one_client_filling_its_engine_sessions_leaves_others_theirs():
    with start_server(engine_sessions_per_client=3) as server:

        async def scenario():
            mine = [await connect(server.engine_url, local_addr=("127.0.0.2", 0)) for _ in range(3)]
            async with connect(server.engine_url, local_addr=("127.0.0.2", 0)) as extra:
                assert await closed_code(extra) == 1013
            async with connect(server.engine_url, local_addr=("127.0.0.3", 0)) as other:
                assert (await request(other, {"type": "hello", "id": 1}))[0]["type"] == "hello"
            for ws in mine:
                await ws.close()

        run_bounded(scenario)


def test_the_forwarded_address_counts_only_from_a_trusted_proxy():
    with start_server(rooms_per_client=2, proxy_header="x-forwarded-for") as server:
        statuses = [
            raw_http(server, "POST", "/api/rooms", body=b"{}", headers={"X-Forwarded-For": "203.0.113.9"})[0]
            for _ in range(3)
        ]
        assert statuses == [201, 201, 429]
        other = raw_http(server, "POST", "/api/rooms", body=b"{}", headers={"X-Forwarded-For": "198.51.100.7"})
        assert other[0] == 201  # the proxy (127.0.0.1) is trusted: each forwarded client has its own quota
        # from an address that is not the proxy, the header is ignored: the peer's own address counts
        for _ in range(2):
            raw_http(
                server, "POST", "/api/rooms", body=b"{}", headers={"X-Forwarded-For": "1.2.3.4"}, source="127.0.0.5"
            )
        spoofed = raw_http(
            server, "POST", "/api/rooms", body=b"{}", headers={"X-Forwarded-For": "5.6.7.8"}, source="127.0.0.5"
        )
        assert spoofed[0] == 429


def half_open(server, source: str, count: int) -> list[socket.socket]:
    port = int(server.url.rsplit(":", 1)[1])
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        sock.sendall(b"G")  # a request head that never ends
        held.append(sock)
    return held


def test_half_open_request_heads_of_one_client_do_not_stop_page_loads():
    with start_server() as server:
        held = half_open(server, "127.0.0.2", 80)
        try:
            started = time.monotonic()
            status, body = raw_http(server, "GET", "/", source="127.0.0.3")
            assert status == 200 and "/static/app.js" in body
            assert time.monotonic() - started < 5
            assert create_from(server, "127.0.0.3")[0] == 201
        finally:
            for sock in held:
                sock.close()


def test_a_request_head_past_the_limit_is_answered_431_as_behind_the_front():
    """Issue 34: a single server refuses the heads `serve --processes`' front refuses
    (tests/web/test_processes.py), sent whole or in pieces, and the client reads the answer."""
    from solver.web.uvicorn_runner import MAX_HEAD_BYTES

    with start_server() as server:
        assert raw_http(server, "GET", "/", headers={"X-Long": "a" * (MAX_HEAD_BYTES + 6000)})[0] == 431
        assert raw_http(server, "GET", "/", headers={"X-Long": "a" * (MAX_HEAD_BYTES - 1000)})[0] == 200
        port = int(server.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nX-Long: " + b"a" * MAX_HEAD_BYTES)  # no end in sight
            assert sock.recv(100).startswith(b"HTTP/1.1 431")


def test_a_body_past_the_limit_is_answered_413_and_not_reset():
    """Issue 34: a 10 MB body to the solve API gets its 413, read by a client that sends the
    whole body before it reads (as the workers of `serve --processes` answer it too)."""
    with start_server() as server:
        headers = {"Content-Type": "application/json"}
        status, body = raw_http(server, "POST", "/api/solve", body=b" " * 10_000_000, headers=headers)
        assert status == 413 and json.loads(body)["code"] == "too_large"


def test_websockets_the_server_closes_leave_no_connection_behind():
    """Issue 34: only a plain request's refusal lingers (uvicorn_runner.linger); a WebSocket the
    server closes is closed outright, its protocol told, so its server forgets it."""
    with start_server(engine_sessions_per_client=1) as server:

        async def scenario():
            async with connect(server.engine_url) as first:
                assert (await request(first, {"type": "hello", "id": 1}))[0]["type"] == "hello"
                async with connect(server.engine_url) as extra:
                    assert await closed_code(extra) == 1013

        run_bounded(scenario)
        deadline = time.monotonic() + 10
        while server.server.server_state.connections:
            assert time.monotonic() < deadline, server.server.server_state.connections
            time.sleep(0.05)


def test_idle_room_sockets_do_not_take_the_plain_request_slots(monkeypatch):
    import solver.web.uvicorn_runner as runner

    monkeypatch.setattr(runner, "MAX_HTTP_CONNECTIONS", 8)
    with start_server() as server:
        room = new_room(server)

        async def scenario():
            url = ws_url(server, f"/r/{room}/ws")
            sockets = [await connect(url, local_addr=(f"127.0.0.{2 + i % 5}", 0)) for i in range(20)]
            status, body = await asyncio.to_thread(raw_http, server, "GET", "/")
            assert status == 200
            for ws in sockets:
                await ws.close()

        run_bounded(scenario)


def test_one_client_has_a_bounded_number_of_sockets():
    with start_server(sockets_per_client=6) as server:
        room = new_room(server)

        async def scenario():
            url = ws_url(server, f"/r/{room}/ws")
            mine = [await connect(url, local_addr=("127.0.0.2", 0)) for _ in range(6)]
            async with connect(url, local_addr=("127.0.0.2", 0)) as extra:
                assert await closed_code(extra) == 1013
            async with Page(server, room) as page:  # another address: served
                await page.join("Ana")
            for ws in mine:
                await ws.close()

        run_bounded(scenario)


def test_sockets_that_never_join_time_out():
    with start_server(join_seconds=0.5) as server:
        room = new_room(server)

        async def scenario():
            async with connect(ws_url(server, f"/r/{room}/ws")) as idle:
                started = time.monotonic()
                assert await closed_code(idle) == 1008
                assert time.monotonic() - started < 5

        run_bounded(scenario)


def test_one_seat_on_many_sockets_keeps_only_a_few_and_its_broadcasts_stay_bounded():
    from solver.core.limits import MAX_SEAT_CONNECTIONS

    with start_server() as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as first:
                token = (await first.join("Ana"))["token"]
                pages = []
                for _ in range(10):
                    page = Page(server, room)
                    await page.__aenter__()
                    await page.join("Ana", token=token)
                    pages.append(page)
                # the oldest sockets were closed (a page reloading replaces its old socket)
                assert await closed_code(first.ws) == 4409
                seat = next(s for s in rooms_of(server)[room].seats if s.token == token)
                assert len(seat.connections) == MAX_SEAT_CONNECTIONS
                for page in pages:
                    await page.ws.close()

        run_bounded(scenario)


# -- what keeps a room open ---------------------------------------------------------------------------


async def closes_within(page: Page, seconds: float) -> bool:
    """Whether the room says `closed` (or the socket closes) within `seconds`."""
    try:
        return any(m["type"] == "closed" for m in await page.quiet(seconds))
    except websockets.ConnectionClosed:
        return True  # the server closed it (the `closed` message may be lost with the socket)


def test_refused_messages_do_not_keep_a_room_alive():
    with start_server(room_idle_seconds=1.5) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Ana")
                started = time.monotonic()
                while time.monotonic() - started < 6:
                    await page.send({"type": "grid", "seq": 1, "cells": []})  # refused: no game
                    if await closes_within(page, 0.4):
                        return time.monotonic() - started
                return None

        elapsed = run_bounded(scenario)
        assert elapsed is not None and elapsed < 3


def test_reading_a_hands_log_again_and_again_is_not_play():
    """Issue 34: a `hand_log` request every 8 s kept a room open for ever."""
    warm_kernels(get_lexicon("en"))  # the grid below is found at once: the room's idle clock runs
    with start_server(room_idle_seconds=2.0, distribution="A3,D1,E4,I2,L1,N2,O2,R2,S2,T2") as server:
        room = new_room(server, spellcheck=False)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Ana")
                await page.send({"type": "start"})
                held = (await page.until("tiles"))["held"]
                grid = solve(held, lexicon="en", time_limit=10).grid
                assert grid is not None and validate(grid, get_lexicon("en"), TileCounts.from_letters(held)).ok
                cells = [[row, col, letter] for (row, col), letter in grid.cells().items()]
                await page.send({"type": "grid", "cells": cells})
                await page.send({"type": "call", "call": "bananas"})
                await page.until("end")
                started = time.monotonic()
                while time.monotonic() - started < 8:
                    try:
                        await page.send({"type": "hand_log"})  # answered, but nothing is played
                    except websockets.ConnectionClosed:
                        return time.monotonic() - started
                    if await closes_within(page, 0.4):
                        return time.monotonic() - started
                return None

        elapsed = run_bounded(scenario, timeout=120)
        assert elapsed is not None and elapsed < 4.5


def test_the_same_grid_sent_again_is_not_play():
    with start_server(room_idle_seconds=1.5, distribution="A3,D1,E4,I2,L1,N2,O2,R2,S2,T2") as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Ana")
                await page.send({"type": "start"})
                held = (await page.until("tiles"))["held"]
                grid = {"type": "grid", "seq": 1, "cells": [[0, 0, held[0]]]}
                started = time.monotonic()
                while time.monotonic() - started < 6:
                    await page.send(grid)  # accepted, but nothing changes
                    if await closes_within(page, 0.4):
                        return time.monotonic() - started
                return None

        elapsed = run_bounded(scenario)
        assert elapsed is not None and elapsed < 3.5


def test_a_room_nobody_joined_closes_sooner_than_a_played_one():
    with start_server(room_idle_seconds=30.0, absent_seconds=30.0, unjoined_room_seconds=0.5) as server:
        room = new_room(server)
        time.sleep(2.0)
        assert http(f"{server.url}/r/{room}")[0] == 404


def test_several_servers_behind_one_proxy_each_holds_the_rooms_its_prefix_names():
    """`serve --room-prefix`: each server's room ids start with its name, so a proxy that reads
    the name from /r/NAME-... (docs/SECURITY.md, "Several servers") reaches the room's server; the
    other server does not know the room. Room creation may land on either."""
    with start_server(room_prefix="s1") as first, start_server(room_prefix="s2") as second:
        servers = {"s1": first, "s2": second}

        def proxied(room: str):  # what the proxy's rule does: the id's prefix names the server
            return servers[room.split("-", 1)[0]]

        rooms = [new_room(first), new_room(second), new_room(first)]
        assert [room.split("-", 1)[0] for room in rooms] == ["s1", "s2", "s1"]
        assert all(len(room.split("-", 1)[1]) >= 16 for room in rooms)  # still 96 random bits
        for room in rooms:
            other = second if proxied(room) is first else first
            assert http(f"{proxied(room).url}/r/{room}")[0] == 200
            assert http(f"{other.url}/r/{room}")[0] == 404

        async def scenario():
            async with Page(proxied(rooms[1]), rooms[1]) as page:
                await page.send({"type": "join", "name": "ana"})
                return await page.until("welcome")

        assert run_bounded(scenario)["type"] == "welcome"


@pytest.mark.parametrize("prefix", ["", "S1", "s-1", "a" * 17, "é1"])
def test_a_bad_room_prefix_is_refused_when_the_server_starts(prefix):
    from solver.web import WebConfig

    with pytest.raises(ValueError, match="room prefix"):
        WebConfig(room_prefix=prefix)


def test_a_refusal_to_a_client_already_gone_closes_without_an_error():
    """A refused request whose client has gone: the FIN cannot be sent (ENOTCONN), so the
    connection closes at once and the served protocol is told, rather than the error reaching
    the ASGI app's log (seen once under load)."""
    import errno

    from solver.web.uvicorn_runner import linger

    class GoneTransport(asyncio.Transport):
        def __init__(self):
            super().__init__()
            self.protocol = None
            self.closed = False

        def set_protocol(self, protocol):
            self.protocol = protocol

        def resume_reading(self):
            pass

        def can_write_eof(self):
            return True

        def write_eof(self):
            raise OSError(errno.ENOTCONN, "Transport endpoint is not connected")

        def close(self):
            self.closed = True
            self.protocol.connection_lost(None)

    class Served(asyncio.Protocol):
        lost = False

        def connection_lost(self, exc):
            self.lost = True

    async def scenario():
        transport, served = GoneTransport(), Served()
        linger(transport, served)
        return transport.closed, served.lost

    assert asyncio.run(scenario()) == (True, True)
