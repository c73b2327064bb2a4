"""`bananas serve` without a browser: the pages, rooms and limits over real sockets, the
referee's checks on every message, and the engine protocol at /engine.

Each test starts the app in a thread on 127.0.0.1 (a free port) and talks to it with
urllib and the `websockets` client; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import (
    SOCKET_TIMEOUT,
    Page,
    bananas_script,
    closed_code,
    http,
    latest,
    new_room,
    request,
    run_bounded,
    run_cli,
    start_server,
)
from websockets.asyncio.client import connect

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts, parse_distribution
from solver.play.bots import make_bot
from solver.play.hand import Hand
from solver.play.rules import Rules
from solver.search import solve
from solver.web import Limits, WebConfig

ONE_HAND_SET = "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"  # 21 tiles: a solo hand with an empty bunch


# -- pages --------------------------------------------------------------------------------------

STATIC = Path(__file__).resolve().parents[2] / "solver" / "web" / "static"


def page_modules(url: str, entry: str) -> set[str]:
    """Every ES module the page loads from `entry` on, each fetched from the server as JavaScript."""
    seen, waiting = set(), [entry]
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        status, kind, text = http(f"{url}/static/{name}")
        assert status == 200 and "javascript" in kind, (name, status, kind)
        seen.add(name)
        waiting += re.findall(r'^import [^;]*? from "\./([\w-]+\.js)";', text, re.M | re.S)
    return seen


def test_the_page_its_files_a_room_link_and_its_qr_code():
    with start_server() as server:
        status, kind, body = http(server.url + "/")
        assert status == 200 and "text/html" in kind and "/static/app.js" in body
        status, kind, _ = http(f"{server.url}/static/style.css")
        assert status == 200 and "css" in kind, kind
        modules = page_modules(server.url, "app.js")
        assert {"app.js", "state.js", "connection.js", "messages.js", "board.js", "i18n.js"} <= modules
        assert modules == {path.name for path in STATIC.glob("*.js")} - {"solve.js"}  # none left unused
        room = new_room(server)
        assert len(room) >= 16  # 96 random bits
        status, _, body = http(f"{server.url}/r/{room}")
        assert status == 200 and "/static/app.js" in body
        status, kind, svg = http(f"{server.url}/r/{room}/qr.svg")
        assert status == 200 and kind.startswith("image/svg+xml") and svg.startswith("<svg")


def test_a_rooms_page_carries_the_rooms_language_before_any_message():
    """An invitee's join form is in the room's language from the first screen (issue 40)."""
    with start_server() as server:
        room = new_room(server, language="fr")
        status, _, body = http(f"{server.url}/r/{room}")
        assert status == 200 and '<html lang="fr" data-room-language="fr">' in body


def test_the_rooms_creator_sets_the_hints_a_hand_and_nothing_else_is_taken():
    """Issue 40: hints a hand are the room's (3, 5 or 10; 5 by default), said in `room`."""
    with start_server() as server:
        for bad in (4, 0, "5", True, 5.0, None, [5]):
            status, _, body = http(server.url + "/api/rooms", {"hints": True, "hint_count": bad})
            assert status == 400 and json.loads(body)["code"] == "bad_value", (bad, body)
        for count, settings in ((5, {}), (10, {"hint_count": 10}), (3, {"hints": True, "hint_count": 3})):
            room = new_room(server, **settings)

            async def scenario(room=room, count=count):
                async with Page(server, room) as ana:
                    await ana.join("Ana")
                    assert (await ana.until("room"))["hint_count"] == count

            run_bounded(scenario)


def test_a_rooms_page_says_who_sits_there_and_what_is_played_before_joining():
    """Issue 40: the join page names the seated people and bots, the game and the language."""
    with start_server() as server:
        room = new_room(server, language="fr", variant="smoothie")

        def preview() -> dict:
            status, _, body = http(f"{server.url}/r/{room}")
            found = re.search(r'<script type="application/json" id="room-preview">(.*?)</script>', body)
            assert status == 200 and found, body[:300]
            return json.loads(found.group(1))

        assert preview()["seats"] == [] and preview()["variant"] == "smoothie" and preview()["language"] == "fr"

        async def scenario():
            async with Page(server, room) as ana:
                await ana.join("Ana </script><b>x")
                await ana.send({"type": "add_bot", "preset": "easy"})
                await ana.until(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
                seen = preview()  # the name cannot close the script element: it reads back whole
                assert [(s["name"], s["kind"], s["host"]) for s in seen["seats"]] == [
                    ("Ana </script><b>x", "person", True),
                    ("easy bot", "bot", False),
                ]
                assert seen["phase"] == "lobby" and seen["max_seats"] == 4 and "token" not in json.dumps(seen)

        run_bounded(scenario)


def test_a_room_link_that_does_not_exist_gets_a_clear_page_not_a_stack_trace():
    with start_server() as server:
        for path in ("/r/nope", "/r/" + "x" * 300, "/r/nope/qr.svg"):
            status, kind, body = http(server.url + path)
            assert status == 404, path
            assert "Traceback" not in body
        status, kind, body = http(server.url + "/r/nope")
        assert "text/html" in kind and "No such room" in body and 'href="/"' in body
        french = urllib.request.Request(server.url + "/r/nope", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(french, timeout=30)
        page = answer.value.read().decode()
        assert answer.value.code == 404 and '<html lang="fr">' in page and "Créer une salle" in page
        assert "No such room" not in page

        async def scenario():
            async with Page(server, "nope") as page:
                message = await page.until("error")
                assert message["code"] == "no_room"
                return await closed_code(page.ws)

        assert run_bounded(scenario) == 4404


def test_room_creation_rejects_bad_settings_and_the_room_limit_says_so():
    with start_server(max_rooms=2) as server:
        for body in (b"not json", b"[1]", {"variant": "chess"}, {"language": "de"}, {"spellcheck": "yes"}):
            status, _, reply = http(server.url + "/api/rooms", body)
            assert status == 400 and "message" in json.loads(reply), (body, reply)
        new_room(server)
        new_room(server)
        status, _, reply = http(server.url + "/api/rooms", {})
        assert status == 503
        assert json.loads(reply)["code"] == "too_many_rooms" and "try again later" in json.loads(reply)["message"]


def test_slow_or_huge_requests_are_cut_off_and_websockets_are_not():
    """A request head or body that does not arrive within header_timeout ends the
    connection (408 for a body); a body over the message limit gets 413, unread; an open
    WebSocket is not subject to the head's timeout."""

    def seconds_until_closed(port: int, payload: bytes) -> tuple[float, bytes]:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(payload)
            began, answer = time.monotonic(), b""
            while chunk := sock.recv(65536):
                answer += chunk
            return time.monotonic() - began, answer

    async def engine_outlives_the_timeout(url):
        async with connect(url) as ws:
            await asyncio.sleep(1.5)
            return await request(ws, {"type": "hello", "id": 1})

    with start_server(header_timeout=0.5) as server:
        port = urlsplit(server.url).port
        for payload in (b"", b"GET / HTTP/1.1\r\nHost: x\r\n"):  # nothing, half a head
            elapsed, answer = seconds_until_closed(port, payload)
            assert 0.4 < elapsed < 5 and answer == b"", payload
        slow_body = b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"
        elapsed, answer = seconds_until_closed(port, slow_body)
        assert elapsed < 5 and answer.startswith(b"HTTP/1.1 408 ")
        status, _, reply = http(server.url + "/api/rooms", b" " * (WebConfig().max_message_bytes + 1))
        assert status == 413 and json.loads(reply)["code"] == "too_large"
        replies = asyncio.run(asyncio.wait_for(engine_outlives_the_timeout(server.engine_url), SOCKET_TIMEOUT))
        assert replies[0]["type"] == "hello"


def test_every_connection_sends_small_writes_at_once():
    """TCP_NODELAY on the server's side of every connection, a page's or an API client's:
    with Nagle's algorithm on, a response's body waited for the client's delayed
    acknowledgement of its head, and every request after the first on a kept-alive connection
    took 44 ms."""
    import http.client

    with start_server() as server:
        connection = http.client.HTTPConnection("127.0.0.1", urlsplit(server.url).port, timeout=10)
        for _ in range(2):  # the same connection, kept alive
            connection.request("GET", "/healthz")
            assert connection.getresponse().read()
        protocols = list(server.server.server_state.connections)
        assert protocols
        for protocol in protocols:
            sock = protocol.transport.get_extra_info("socket")
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        connection.close()


# -- the referee ------------------------------------------------------------------------------------


def test_malformed_and_forged_messages_get_errors_and_change_nothing():
    with start_server() as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as ana, Page(server, room) as ben:
                await ana.error({"type": "start"}, "out_of_order")  # not joined yet
                await ana.join("Ana")
                await ben.join("Ben")
                await ben.error({"type": "add_bot", "preset": "easy"}, "not_host")
                await ben.error({"type": "start"}, "not_host")
                await ana.error({"type": "add_bot", "preset": "grandmaster"}, "bad_value")
                await ana.send({"type": "add_bot", "preset": "easy"})
                await ana.until(lambda m: m["type"] == "room" and len(m["seats"]) == 3)
                await ana.error({"type": "remove_bot", "seat": 1}, "bad_value")  # Ben is no bot
                await ana.send({"type": "start"})
                for page in (ana, ben):
                    await page.until("tiles")
                await ana.quiet()
                await ben.quiet()
                held = latest(ana, "tiles")["held"]
                bunch = latest(ana, "table")["bunch"]
                ben_held = latest(ben, "tiles")["held"]
                foreign = next(letter for letter in "QZXJKVWY" if letter not in held) * 2
                bad = [
                    ("not json", "bad_json"),
                    ("[]", "bad_json"),
                    (b"\xff\xfe", "bad_json"),
                    ({"type": "teleport"}, "unknown_type"),
                    ({"type": 7}, "unknown_type"),
                    ({"type": "grid", "cells": "ABC"}, "bad_grid"),
                    ({"type": "grid", "cells": [[0, 0, "A", 1]]}, "bad_grid"),
                    ({"type": "grid", "cells": [[0, 10**9, held[0]]]}, "bad_grid"),
                    ({"type": "grid", "cells": [[0, 0, held[0]], [0, 0, held[1]]]}, "bad_grid"),
                    ({"type": "grid", "cells": [[0, 0, "é"]]}, "bad_letters"),
                    ({"type": "grid", "cells": [[0, i, ch] for i, ch in enumerate(foreign)]}, "not_your_tile"),
                    ({"type": "grid", "cells": [[0, i, ch] for i, ch in enumerate(held + held[0])]}, "not_your_tile"),
                    ({"type": "call", "call": "peel"}, "rack_not_empty"),  # a full rack: the engine judges
                    ({"type": "call", "call": "bananas"}, "bananas_too_early"),  # the bunch is big
                    ({"type": "call", "call": "dump", "tile": foreign[0]}, "not_your_tile"),
                    ({"type": "call", "call": "dump", "tile": "AB"}, "bad_letters"),
                    ({"type": "call", "call": "win"}, "bad_value"),
                    ({"type": "again"}, "game_running"),
                    ({"type": "join", "name": "Eve"}, "out_of_order"),
                ]
                for message, code in bad:
                    await ana.error(message, code)
                # a message naming another seat still acts for the sender only
                await ben.send({"type": "call", "call": "dump", "tile": ben_held[0], "player": 0, "seat": 0})
                await ana.until(lambda m: m["type"] == "log" and any(e["kind"] == "dump" for e in m["entries"]))
                await ana.quiet()
                assert latest(ana, "log")["entries"][-1]["who"] == "Ben"
                assert latest(ana, "tiles")["held"] == held  # Ana's tiles: untouched throughout
                assert latest(ana, "table")["bunch"] == bunch - 2
                kinds = [e["kind"] for m in ana.seen if m["type"] == "log" for e in m["entries"]]
                assert kinds == ["split", "dump"]
                await ben.quiet()
                return ana.seen, ben.seen, held

        ana_seen, ben_seen, ana_held = run_bounded(scenario)
        # Nobody is ever sent another player's tiles: `tiles` messages are the owner's alone,
        # and public messages carry counts.
        ana_tiles = [m["held"] for m in ana_seen if m["type"] == "tiles"]
        ben_tiles = [m["held"] for m in ben_seen if m["type"] == "tiles"]
        assert ana_held in ana_tiles and ana_held not in ben_tiles
        for message in ben_seen:
            if message["type"] in ("table", "log", "room"):
                assert ana_held not in json.dumps(message)


@pytest.mark.slow  # waits for a game in progress (~10 s); quick: tests/web/test_room_protocol.py
def test_seat_limit_is_refused_with_a_clear_message_and_a_newcomer_mid_game_watches():
    with start_server(max_seats=2) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as ana, Page(server, room) as ben, Page(server, room) as cy:
                await ana.join("Ana")
                await ben.join("Ana")  # the same name twice is told apart
                assert latest(ben, "welcome")["name"] == "Ana 2"
                reply = await cy.error({"type": "join", "name": "Cy"}, "room_full")
                assert "full" in reply["message"]
                await ana.error({"type": "add_bot", "preset": "easy"}, "room_full")
                await ben.send({"type": "leave"})
                await ben.until("bye")
                await cy.join("Cy")  # the freed seat
                await ana.send({"type": "start"})
                await ana.until("tiles")
                async with Page(server, room) as dee:
                    # a hand is under way: Dee watches it, every grid with its letters, and cannot play
                    await dee.join("Dee")
                    assert latest(dee, "welcome")["spectator"] is True
                    table = await dee.until("table")
                    assert table["letters"] is True and {p["name"] for p in table["players"]} == {"Ana", "Cy"}
                    assert not [m for m in dee.seen if m["type"] == "tiles"]  # nobody's tiles, only counts
                    await dee.error({"type": "call", "call": "stuck"}, "out_of_order")
                    await dee.error({"type": "start"}, "not_host")
                    await ana.until(lambda m: m["type"] == "room" and m["spectators"] == ["Dee"])
                    for page in (ana, cy):
                        await page.send({"type": "call", "call": "stuck"})
                    await dee.until("end")
                    await ana.send({"type": "again"})
                    lobby = await dee.until(lambda m: m["type"] == "room" and m["phase"] == "lobby")
                    assert [seat["name"] for seat in lobby["seats"]] == ["Ana", "Cy"]  # the room seats two
                    assert lobby["spectators"] == ["Dee"]  # ...so Dee waits for a free seat

        run_bounded(scenario)


def test_a_spectator_asks_to_sit_and_the_host_seats_them_when_a_seat_frees_up():
    """Issue 40: the players see who watches; a spectator asks for a seat, the host answers."""
    with start_server(max_seats=2) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as ana, Page(server, room) as cy, Page(server, room) as dee:
                await ana.join("Ana")
                await cy.join("Cy")
                await ana.send({"type": "start"})
                await ana.until("tiles")
                await dee.join("Dee")
                seen = await cy.until(lambda m: m["type"] == "room" and m["spectators"] == ["Dee"])
                assert seen["sit_requests"] == [] and seen["free_seats"] == 0
                await ana.error({"type": "sit"}, "out_of_order")  # a player has a seat
                await dee.send({"type": "sit"})  # asked during the hand: answered between hands
                asked = await ana.until(lambda m: m["type"] == "room" and m["sit_requests"] == ["Dee"])
                assert asked["spectators"] == ["Dee"]
                await ana.error({"type": "sit_answer", "name": "Dee", "accept": True}, "game_running")
                await cy.send({"type": "leave"})  # Cy leaves the hand: the seat is free after it
                await cy.until("bye")
                await ana.send({"type": "call", "call": "stuck"})
                await ana.until(lambda m: m["type"] == "room" and m["phase"] == "ended")
                ended = await dee.until(lambda m: m["type"] == "room" and m["phase"] == "ended")
                assert ended["free_seats"] == 1
                await dee.error({"type": "sit_answer", "name": "Dee", "accept": True}, "not_host")
                await ana.error({"type": "sit_answer", "name": "Zed", "accept": True}, "bad_value")
                await ana.error({"type": "sit_answer", "name": "Dee"}, "bad_value")
                await ana.send({"type": "sit_answer", "name": "Dee", "accept": True})
                seated = await dee.until(lambda m: m["type"] == "room" and m["spectators"] == [])
                assert [(s["name"], s["you"]) for s in seated["seats"]] == [("Ana", False), ("Dee", True)]
                assert seated["sit_requests"] == [] and seated["free_seats"] == 0
                await ana.send({"type": "start"})  # a rematch at once: Dee plays it
                assert len((await dee.until("tiles"))["held"]) == 21

        run_bounded(scenario)


def test_the_host_can_say_not_now_and_a_full_room_refuses_a_seat():
    with start_server(max_seats=1) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as ana, Page(server, room) as dee:
                await ana.join("Ana")
                await ana.send({"type": "start"})
                await ana.until("tiles")
                await dee.join("Dee")
                await dee.send({"type": "sit"})
                await ana.until(lambda m: m["type"] == "room" and m["sit_requests"] == ["Dee"])
                await ana.send({"type": "call", "call": "stuck"})
                await ana.until(lambda m: m["type"] == "room" and m["phase"] == "ended")
                await ana.error({"type": "sit_answer", "name": "Dee", "accept": True}, "room_full")
                await ana.send({"type": "sit_answer", "name": "Dee", "accept": False})
                answered = await dee.until(lambda m: m["type"] == "room" and m["sit_requests"] == [])
                assert answered["spectators"] == ["Dee"]  # still watching; may ask again

        run_bounded(scenario)


def test_message_size_and_rate_limits_answer_with_errors_and_keep_the_connection():
    now = [1000.0]  # the rates' clock: it moves only when the test moves it
    settings = {"max_message_bytes": 1024, "messages_per_second": 4, "message_burst": 4}
    with start_server(**settings, message_clock=lambda: now[0]) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Ana")
                reply = await page.error({"type": "grid", "cells": [], "pad": "x" * 2000}, "too_large")
                assert "1024" in reply["message"]
                for _ in range(12):
                    await page.send({"type": "add_bot", "preset": "easy", "pad": 1})
                got = await page.quiet(0.5)
                limited = [m for m in got if m["type"] == "error" and m["code"] == "rate_limited"]
                assert len(limited) == 1  # one notice, not one per dropped message
                rooms = [m for m in got if m["type"] == "room"]
                # the burst of 4: the join, the message too large, two bots; the rest dropped did nothing
                assert len(rooms[-1]["seats"]) == 3
                now[0] += 1.0  # a second passes: the bucket refills
                await page.send({"type": "remove_bot", "seat": 1})
                await page.until(lambda m: m["type"] == "room")

        run_bounded(scenario)


# -- reconnecting, leaving, closing ---------------------------------------------------------------


def test_a_broadcast_is_encoded_once_for_all_its_pages_and_again_when_sent_later():
    """One message to every page of a room is one JSON text; the same dict changed and sent
    at a later turn of the event loop is encoded afresh (a page never sees stale text)."""
    from solver.web.app import Connection

    class Page:
        def __init__(self):
            self.texts: list[str] = []

        async def send_text(self, text):
            self.texts.append(text)

    async def scenario():
        pages = [Page(), Page()]
        connections = [Connection(page, write_timeout=5) for page in pages]
        message = {"type": "table", "clock": 1.0}
        for connection in connections:
            connection.send(message)
        await asyncio.sleep(0)  # the next turn of the event loop
        message["clock"] = 2.0
        for connection in connections:
            connection.send(message)
            connection.close()
        await asyncio.gather(*(connection.write() for connection in connections))
        return [page.texts for page in pages]

    first, second = asyncio.run(scenario())
    assert [json.loads(text)["clock"] for text in first] == [1.0, 2.0] == [json.loads(text)["clock"] for text in second]
    assert first[0] is second[0] and first[1] is second[1]  # each broadcast encoded once


def test_sockets_are_not_compressed_even_when_the_client_offers_to():
    """The room sockets and the engine's answer without permessage-deflate: their messages
    are small, and compressing each cost the server more CPU than it saved in bytes."""

    async def handshakes(base: str, room: str) -> list[tuple[str, str | None]]:
        answers = []
        for path in (f"/r/{room}/ws", "/engine"):
            async with connect(base + path) as ws:  # the websockets client offers permessage-deflate
                answers.append(
                    (
                        ws.request.headers.get("Sec-WebSocket-Extensions", ""),
                        ws.response.headers.get("Sec-WebSocket-Extensions"),
                    )
                )
        return answers

    with start_server() as server:
        room = new_room(server)
        answers = run_bounded(lambda: handshakes(server.url.replace("http://", "ws://"), room))
    assert [offered.startswith("permessage-deflate") for offered, _ in answers] == [True, True]
    assert [accepted for _, accepted in answers] == [None, None]


def test_a_pages_messages_go_straight_to_its_socket_while_it_takes_writes_else_through_asgi():
    """Under uvicorn's websockets-sansio protocol a message is one text frame written to the
    connection at once; once the connection stops taking writes (its buffer full) the next
    goes through ASGI's send, which waits for it (and drops a page that never reads)."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    from solver.web.app import PROTOCOL, Connection

    class Transport:
        def __init__(self):
            self.written = bytearray()

        def write(self, data: bytes) -> None:
            self.written += data

        def is_closing(self) -> bool:
            return False

    class OpenSocket(WebSocketsSansIOProtocol):
        def __init__(self):  # the state uvicorn's send reads, of an open connection
            self.conn = ServerProtocol(state=State.OPEN)
            self.transport = Transport()  # type: ignore[assignment]
            self.writable = asyncio.Event()
            self.writable.set()
            self.disconnected = self.close_sent = False
            self.handshake_complete, self.initial_response = True, None

    class Page:  # ASGI's side of the same socket
        def __init__(self, protocol):
            self.scope = {PROTOCOL: protocol}
            self.texts: list[str] = []

        async def send_text(self, text):
            self.texts.append(text)

        async def close(self, code):
            pass

    async def scenario():
        protocol = OpenSocket()
        page = Page(protocol)
        connection = Connection(page, write_timeout=5)
        writer = asyncio.create_task(connection.write())
        connection.send({"type": "check", "seq": 1})
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        protocol.writable.clear()  # the buffer past its high-water mark
        connection.send({"type": "check", "seq": 2})
        connection.close()
        await writer
        return bytes(protocol.transport.written), page.texts

    written, through_asgi = asyncio.run(scenario())
    first = b'{"type":"check","seq":1}'
    assert written == bytes([0x81, len(first)]) + first  # one unmasked text frame, as the server sends
    assert through_asgi == ['{"type":"check","seq":2}']


def test_a_sockets_reads_pause_only_once_read_ahead_frames_wait_for_the_app():
    """uvicorn pauses a WebSocket's reads after every frame; the server's protocol reads up to
    READ_AHEAD frames ahead of its app, then pauses: a flood still waits, bounded."""
    from solver.web.uvicorn_runner import READ_AHEAD, ReadAheadProtocol

    class Transport:
        paused = 0

        def pause_reading(self) -> None:
            self.paused += 1

    protocol = ReadAheadProtocol.__new__(ReadAheadProtocol)  # the state a frame's arrival reads
    protocol.queue, protocol.transport = asyncio.Queue(), Transport()  # type: ignore[assignment]
    protocol.read_paused, protocol.close_sent, protocol.curr_msg_data_type = False, False, "text"
    pauses = []
    for _ in range(READ_AHEAD + 2):
        protocol.frames = [b'{"type":"grid"}']
        protocol.send_receive_event_to_app()
        pauses.append(protocol.transport.paused)
    assert pauses == [0] * (READ_AHEAD - 1) + [1, 1, 1]
    assert protocol.queue.qsize() == READ_AHEAD + 2 and protocol.read_paused


def test_a_page_that_does_not_read_is_dropped_after_the_write_timeout():
    """A blocked write to one page ends in an abort of its connection, within the timeout,
    so neither the room's broadcasts nor the page's slot wait on it."""
    from solver.web.app import TRANSPORT, Connection

    class Transport:
        aborted = False

        def abort(self):
            self.aborted = True

    class NeverReads:
        def __init__(self):
            self.scope = {TRANSPORT: Transport()}

        async def send_text(self, text):
            await asyncio.Event().wait()  # the TCP window stays shut

    async def scenario():
        page = NeverReads()
        connection = Connection(page, write_timeout=0.2)
        connection.send({"type": "state"})
        started = time.monotonic()
        await asyncio.wait_for(connection.write(), 5)
        return page.scope[TRANSPORT].aborted, connection.closing, time.monotonic() - started

    aborted, closing, elapsed = asyncio.run(scenario())
    assert aborted and closing and 0.2 <= elapsed < 10  # the bound only catches a hang


def test_a_reconnect_token_restores_the_seat_and_grid_and_a_long_absence_is_leaving():
    with start_server(absent_seconds=1.0) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as ana:
                welcome = await ana.join("Ana")
                async with Page(server, room) as ben:
                    await ben.join("Ben")
                    await ana.send({"type": "start"})
                    held = (await ana.until("tiles"))["held"]
                    await ana.send({"type": "grid", "seq": 1, "cells": [[0, 0, held[0]], [0, 1, held[1]]]})
                    await ana.until("check")
                # Ana's page reloads: a new socket with her token
                async with Page(server, room) as again:
                    back = await again.join("someone else", token=welcome["token"])
                    assert back["name"] == "Ana" and back["token"] == welcome["token"]
                    restored = await again.until("tiles")
                    assert restored["held"] == held
                    assert restored["cells"] == [[0, 0, held[0]], [0, 1, held[1]]]
                    # Ben's socket closed: after `absent_seconds` he has left, his tiles back in the bunch
                    left = await again.until(
                        lambda m: m["type"] == "log" and any(e["kind"] == "left" for e in m["entries"]), 10
                    )
                    assert left["entries"][-1]["who"] == "Ben"
                    table = await again.until("table")
                    assert table["bunch"] == 144 - 42 + 21 and table["active"] == 1
                    assert [p["status"] for p in table["players"]] == ["building", "left"]

        run_bounded(scenario)


def test_idle_rooms_close_and_their_link_then_shows_the_missing_room_page():
    with start_server(room_idle_seconds=1.0) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Ana")
                closed = await page.until("closed", timeout=10)
                assert closed["reason"] == "idle"

        run_bounded(scenario)
        assert http(f"{server.url}/r/{room}")[0] == 404


def test_a_solo_game_over_the_socket_ends_with_the_grid_checked():
    with start_server(distribution=ONE_HAND_SET) as server:
        room = new_room(server, spellcheck=True)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Solo")
                await page.send({"type": "start"})
                held = (await page.until("tiles"))["held"]
                grid = solve(held, lexicon="en", time_limit=10).grid
                cells = [[row, col, letter] for (row, col), letter in grid.cells().items()]
                await page.send({"type": "grid", "seq": 5, "cells": cells})
                check = await page.until("check")
                assert check["seq"] == 5 and check["valid"] and check["invalid_cells"] == []
                await page.send({"type": "call", "call": "bananas"})
                return await page.until("end"), held

        end, held = run_bounded(scenario)
        assert end["outcome"] == "win" and end["winners"] == ["Solo"]
        assert end["scores"]["objective"] == "time" and end["scores"]["words"] >= 1
        board = end["boards"][0]
        assert board["status"] == "winner" and board["valid"]
        assert validate(Grid.from_rows(board["grid"]), _lexicon(), TileCounts.from_letters(held)).ok


def _lexicon():
    from solver.lexicon.loader import get_lexicon

    return get_lexicon("en")


def test_hand_leave_returns_the_tiles_and_the_last_leaver_ends_the_hand():
    rules = Rules(distribution=parse_distribution("A13,B3,C3,D6,E18,F3,G4,H3,I12,L5,M3,N8,O11,P3,R9,S6,T9,U6"))
    hand = Hand(rules, [make_bot("greedy"), make_bot("greedy")], seed=4)
    hand.start()
    bunch = len(hand.bunch)
    assert hand.leave(0, 0.0) is None
    assert not hand.seats[0].active and len(hand.bunch) == bunch + 21
    assert hand.events[-1]["event"] == "left" and hand.events[-1]["player"] == 0
    hand.check_invariant()
    ending = hand.leave(1, 0.0)
    assert ending is not None and ending.outcome == "unawarded" and ending.reason == "every player left"
    assert ending == hand.public_view().ending


# -- the engine protocol endpoint ------------------------------------------------------------------


def engine(scenario, limits: Limits = Limits(), path: str = "/engine"):
    with start_server(engine=limits) as server:
        url = server.url.replace("http://", "ws://") + path
        return run_bounded(lambda: scenario(url))


def test_engine_protocol_at_engine_and_at_the_root_for_older_clients():
    async def hosted_game(url):
        async with connect(url) as ws:
            hello = await request(ws, {"type": "hello", "id": 1})
            assert hello[0]["protocol"] == 1 and hello[0]["id"] == 1
            await request(ws, {"type": "options", "clock": "instant"})
            replies = await request(
                ws,
                {"type": "start_game", "seed": 9, "players": [{"bot": "easy:node_budget=30"}, {"bot": "greedy"}]},
                until="game_over",
            )
            check = await request(ws, {"type": "check", "grid": [".M.", "CAT", ".P."]})
            assert check[0]["valid"] is True
            bad = await request(ws, {"type": "options", "lexicon": "/etc/passwd"})
            assert bad[0]["type"] == "error"  # network clients cannot name files
            return replies[-1]

    first = engine(hosted_game)
    assert first["type"] == "game_over"
    assert engine(hosted_game, path="/") == first  # the same seed, the same game


# -- the command ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--distribution", "A2,%"], "distribution"),
        (["--bot", "kid=easy:speed=-1"], "bot preset"),
        (["--bot", "nonsense"], "NAME=SPEC"),
        (["--only-bots"], "--only-bots needs at least one --bot"),
    ],
)
def test_serve_rejects_bad_settings_with_one_error_line(arguments, message):
    done = subprocess.run(
        [bananas_script(), "serve", "--port", "0", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_serve_bot_adds_a_preset_to_the_built_in_ones_and_only_bots_keeps_it_alone():
    from solver.cli.engine import serve
    from solver.web.config import default_bots, offered_bots

    def offered(*arguments: str) -> dict[str, str]:
        params = serve.make_context("serve", list(arguments)).params
        return offered_bots(params["bots"], params["only_bots"])

    assert offered() == default_bots()
    added = offered("--bot", "fast=hard:speed=20")
    assert added == {**default_bots(), "fast": "hard:speed=20"} and "medium" in added
    assert offered("--bot", "medium=easy:speed=3")["medium"] == "easy:speed=3"  # one of the same name replaces it
    assert offered("--only-bots", "--bot", "fast=hard:speed=20") == {"fast": "hard:speed=20"}
    with start_server(bots=added) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as ana:
                await ana.join("Ana")
                assert {"fast", "medium"} <= set((await ana.until("room"))["bots"])
                await ana.send({"type": "add_bot", "preset": "medium"})
                seated = await ana.until(lambda message: message["type"] == "room" and len(message["seats"]) == 2)
                assert seated["seats"][1]["preset"] == "medium"

        run_bounded(scenario)


def fake_host_addresses(monkeypatch, resolved: list[str], routed: str | None) -> None:
    """The machine's host name resolves to `resolved`; its default route leaves from `routed`."""
    import solver.web.uvicorn_runner as runner

    def getaddrinfo(name, port, family=0, kind=0, *more):
        assert name == socket.gethostname()
        return [(family, kind, 6, "", (address, 0)) for address in resolved]

    monkeypatch.setattr(runner.socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(runner, "routed_address", lambda family: routed)


def test_a_server_on_every_interface_is_played_at_the_loopback_and_the_networks(monkeypatch):
    """Issue 38: `--host 0.0.0.0` named http://0.0.0.0:PORT, which no browser opens. Loopback
    and link-local addresses, and repeats, are left out; the route's address counts too."""
    from solver.web.uvicorn_runner import bind, urls_to_play_at

    fake_host_addresses(monkeypatch, ["192.168.1.20", "127.0.1.1", "192.168.1.20", "169.254.3.4"], "10.1.2.3")
    with bind("0.0.0.0", 0) as sock:
        port = sock.getsockname()[1]
        assert urls_to_play_at(sock) == [f"http://{host}:{port}/" for host in ("127.0.0.1", "10.1.2.3", "192.168.1.20")]
    fake_host_addresses(monkeypatch, [], None)  # no network at all
    with bind("0.0.0.0", 0) as sock:
        assert urls_to_play_at(sock) == [f"http://127.0.0.1:{sock.getsockname()[1]}/"]
    with bind("127.0.0.1", 0) as sock:  # an address of its own: that one
        assert urls_to_play_at(sock) == [f"http://127.0.0.1:{sock.getsockname()[1]}/"]


def test_serve_on_every_interface_says_where_to_play_and_how_links_reach_other_devices(monkeypatch):
    fake_host_addresses(monkeypatch, ["192.168.1.20"], None)
    monkeypatch.setattr("solver.web.uvicorn_runner.serve_forever", lambda sock, config: sock.close())
    lines = run_cli("serve", "--host", "0.0.0.0", "--port", "0", "--db", "none").stdout.splitlines()
    port = re.search(r":(\d+)/", lines[0]).group(1)
    assert lines[0].startswith(f"bananas: play at http://127.0.0.1:{port}/ or http://192.168.1.20:{port}/  (")
    assert f"engine protocol: ws://ADDRESS:{port}/engine" in lines[0] and "0.0.0.0" not in lines[0]
    assert lines[1].endswith(f"open it at a network address above, or give --public-url http://NAME:{port}")
    public = ("--public-url", "http://games.example:8765")
    lines = run_cli("serve", "--host", "0.0.0.0", "--port", "0", "--db", "none", *public).stdout.splitlines()
    assert len(lines) == 1  # the links are the public URL's: nothing to explain


def test_serve_s_rates_reach_the_rooms_and_the_engine_endpoint(monkeypatch):
    """`--rate` and `--engine-rate` are the config the server runs with (bursts: 3x and 4x)."""
    seen = []
    serve = lambda sock, config: (seen.append(config), sock.close())  # noqa: E731
    monkeypatch.setattr("solver.web.uvicorn_runner.serve_forever", serve)
    run_cli("serve", "--port", "0", "--db", "none", "--rate", "5", "--engine-rate", "7.5")
    config = seen[0]
    assert (config.messages_per_second, config.message_burst) == (5.0, 15)
    assert (config.engine_messages_per_second, config.engine_message_burst) == (7.5, 30)
    assert config.owns_process  # its own process: it tunes the cycle collector (test_fair_service.py)
    result = run_cli("serve", "--port", "0", "--db", "none", "--engine-rate", "0")
    assert result.exit_code == 2 and "--engine-rate" in result.output
