"""`bananas serve`: the engine protocol endpoint over real WebSocket sockets (solver.web,
whose sessions `solver.protocol.network.drive_session` drives).

Every test starts its own server on 127.0.0.1 port 0 (`BackgroundServer`), bounds every
wait with a timeout, and stops the server when done. Covered: whole games
through a socket (host mode with two bots and a remote player this test plays; seat
mode with this test as the referee, checking the BANANAS grid against exactly the tiles
it dealt), isolation of concurrent sessions, the limits (sessions 1013, idle 1000,
message size 1009, a vanished client) and the `serve` command when the port is taken.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import time
import urllib.request

import numpy as np
import pytest
import websockets
from helpers import CROSS, bananas_script, closed_code, on_engine_socket, request, sweep
from websockets.asyncio.client import connect

from solver.core.grid import Grid, validate
from solver.core.limits import Limits
from solver.core.tiles import ENGLISH, TileCounts, draw

HARD_FIRST = "QJXZVKWYFHBCMPGUDLNRTOIASE"


# -- whole games through a socket ----------------------------------------------------------


@pytest.mark.slow  # a whole hosted game (6 s); the quick tier keeps the seat-less sessions
def test_hosted_game_with_two_bots_and_a_remote_player_ends_with_game_over(en):
    """The test client plays seat 2 naively: on every tiles message it dumps its hardest
    letter while the bunch allows, otherwise says stuck. The realtime clock (x50) keeps
    the bots from finishing before the client can answer."""

    async def scenario(url):
        async with connect(url) as ws:
            replies = await request(ws, {"type": "options", "clock": "realtime", "time_scale": 50})
            assert replies[0]["type"] == "options"
            await ws.send(
                json.dumps(
                    {
                        "type": "start_game",
                        "seed": 12,
                        "players": [{"bot": "easy"}, {"bot": "greedy"}, {"remote": "client"}],
                    }
                )
            )
            hand = TileCounts()
            bunch = 144
            dumps = stucks = 0
            seen = []
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 2))
                except TimeoutError:  # the game waits for us (e.g. a refused dump): pass
                    if not seen:
                        continue  # the game has not started yet (the bots load their word lists)
                    stucks += 1
                    await ws.send(json.dumps({"type": "call", "player": 2, "call": "stuck"}))
                    continue
                seen.append(message)
                kind = message["type"]
                assert kind != "error" or message["code"] == "out_of_order", message
                if kind == "event" and "bunch" in message:
                    bunch = message["bunch"]
                if kind == "tiles":
                    assert message["player"] == 2
                    hand = hand + TileCounts.from_letters(message["tiles"])
                    if bunch >= 2 and dumps < 10:
                        tile = min(hand.letters(), key=HARD_FIRST.index)
                        hand = hand - TileCounts.from_letters(tile)
                        dumps += 1
                        await ws.send(json.dumps({"type": "call", "player": 2, "call": "dump", "tile": tile}))
                    else:
                        stucks += 1
                        await ws.send(json.dumps({"type": "call", "player": 2, "call": "stuck"}))
                if kind == "game_over":
                    return message, seen, dumps, stucks

    over, seen, dumps, stucks = on_engine_socket(scenario)
    assert seen[0]["type"] == "game" and seen[0]["players"] == ["easy", "greedy", "client"]
    split = [m for m in seen if m["type"] == "tiles" and m["reason"] == "split"]
    assert len(split) == 1 and len(split[0]["tiles"]) == 21
    assert dumps >= 1 and stucks >= 1
    assert any(m["type"] == "event" and m["event"] == "dump" and m["player"] == 2 for m in seen)
    assert over["outcome"] in ("win", "shared", "unawarded")
    assert 2 not in over["winners"]
    for winner in over["winners"]:
        report = validate(Grid.from_rows(over["grids"][winner]), en)
        assert report.ok, report.problems()


@pytest.mark.slow  # a whole game over a socket (3 s)
def test_seat_mode_game_over_a_socket_with_the_client_as_referee(en):
    async def scenario(url):
        rng = np.random.default_rng(5)
        bunch = ENGLISH
        dealt = draw(bunch, 21, rng)
        bunch = bunch - dealt
        opponent = draw(bunch, 21, rng)
        bunch = bunch - opponent
        async with connect(url) as ws:
            await request(ws, {"type": "options", "clock": "instant", "bot": "easy", "seed": 5})
            replies = await request(
                ws, {"type": "new_hand", "tiles": dealt.letters(), "bunch": len(bunch), "active": 2}, until="call"
            )
            assert replies[0]["type"] == "ready"
            for _ in range(300):
                call = replies[-1]
                if call["call"] == "peel":
                    mine = draw(bunch, 1, rng)
                    bunch = bunch - mine
                    theirs = draw(bunch, 1, rng)  # the opponent draws on the peel too
                    bunch, opponent = bunch - theirs, opponent + theirs
                    dealt = dealt + mine
                    replies = await request(
                        ws, {"type": "draw", "tiles": mine.letters(), "bunch": len(bunch)}, until="call"
                    )
                elif call["call"] == "dump":
                    back = TileCounts.from_letters(call["tile"])
                    assert dealt.contains(back)
                    dealt, bunch = dealt - back, bunch + back
                    drawn = draw(bunch, 3, rng)
                    bunch, dealt = bunch - drawn, dealt + drawn
                    replies = await request(
                        ws, {"type": "draw", "tiles": drawn.letters(), "bunch": len(bunch)}, until="call"
                    )
                else:
                    assert call["call"] == "bananas" and len(bunch) < 2
                    await request(ws, {"type": "notice", "event": "win", "player": "you"})
                    return Grid.from_rows(call["grid"]), dealt, bunch + opponent
            raise AssertionError("no BANANAS")

    grid, dealt, rest = on_engine_socket(scenario)
    report = validate(grid, en, dealt)
    assert report.ok, report.problems()
    assert dealt + rest == ENGLISH


# -- isolation ------------------------------------------------------------------------------


def test_sessions_in_parallel_threads_do_not_corrupt_each_other():
    """The server's threading without the sockets: hosted games in four threads at once."""
    import threading

    from solver.protocol.session import Session

    failures, results = [], {}

    def play(number: int) -> None:
        try:
            session = Session()
            session.receive(json.dumps({"type": "options", "clock": "instant"}), 0.0)
            for seed in range(3):
                out = session.receive(
                    json.dumps(
                        {
                            "type": "start_game",
                            "seed": 10 * number + seed,
                            "players": [{"bot": "easy:node_budget=30"}, {"bot": "easy:node_budget=30"}],
                        }
                    ),
                    0.0,
                )
                while session.next_wakeup() is not None:  # an instant game runs in slices of work
                    out += session.tick(0.0)
                assert [m for m in out if m["type"] == "game_over"], out[-1]
            results[number] = True
        except Exception as error:  # noqa: BLE001 - collected for the assertion below
            failures.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=play, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert not failures, failures[:3]
    assert len(results) == 4


def concurrent_clients(bots: list[str], clients: int = 8):
    """`clients` sockets at once, each: hello, check, options, a hosted bots-only game,
    options again; each must see only its own replies. Then one client alone with the
    same seed must see the same result."""

    async def client(url, number):
        async with connect(url) as ws:
            hello = await request(ws, {"type": "hello", "id": f"c{number}"})
            assert hello == [dict(hello[0], id=f"c{number}")] and hello[0]["type"] == "hello"
            # a per-client grid: even clients send a valid one, odd clients an invalid one
            grid = CROSS if number % 2 == 0 else ["CAT", ".X.", ".P."]
            check = await request(ws, {"type": "check", "grid": grid, "id": number})
            assert check[0]["id"] == number and check[0]["valid"] is (number % 2 == 0)
            await request(ws, {"type": "options", "clock": "instant", "seed": number})
            game = await request(
                ws,
                {"type": "start_game", "seed": 100 + number, "players": [{"bot": bot} for bot in bots]},
                until="game_over",
            )
            assert game[0]["type"] == "game" and game[0]["seed"] == 100 + number
            assert all(m["type"] in ("game", "event", "game_over") for m in game), game
            # its own options, untouched by the others
            options = await request(ws, {"type": "options", "id": number})
            assert options[0]["options"]["seed"] == number and options[0]["id"] == number
            return game[-1]

    async def scenario(url):
        return await asyncio.gather(*(client(url, number) for number in range(clients)))

    results = on_engine_socket(scenario)
    assert len(results) == clients and all(r["type"] == "game_over" for r in results)

    # the same seeds alone give the same results: nothing leaked between sessions
    async def alone(url):
        return await client(url, 3)

    assert on_engine_socket(alone) == results[3]


@sweep("clients", 4, 8)
def test_concurrent_sessions_are_isolated(clients):
    concurrent_clients(["greedy", "greedy"], clients)  # the greedy bot does not use the solver's search


def test_concurrent_sessions_with_solver_bots_are_isolated():
    concurrent_clients(["easy:node_budget=30", "easy"])


# -- limits ---------------------------------------------------------------------------------


def test_max_sessions_closes_the_extra_connection_with_1013_and_frees_slots():
    async def scenario(url):
        first = await connect(url)
        second = await connect(url)
        try:
            for ws in (first, second):
                assert (await request(ws, {"type": "hello"}))[0]["type"] == "hello"
            third = await connect(url)
            assert await closed_code(third) == 1013
            assert third.close_reason == "too many sessions" or third.close_code == 1013
            # the first two are unaffected
            assert (await request(first, {"type": "hello", "id": 1}))[0]["id"] == 1
        finally:
            await first.close()
        # a slot is free again
        async with connect(url) as fourth:
            assert (await request(fourth, {"type": "hello", "id": 4}))[0]["id"] == 4
        await second.close()

    on_engine_socket(scenario, Limits(max_sessions=2))


def test_an_idle_client_is_closed_with_1000_while_another_keeps_talking():
    async def scenario(url):
        async with connect(url) as busy, connect(url) as silent:
            talked: list[int] = []

            async def keep_talking():
                # 1.8 s of traffic at least, longer than the idle timeout: talking resets the clock
                for turn in range(6):
                    await asyncio.sleep(0.3)
                    assert (await request(busy, {"type": "hello"}))[0]["type"] == "hello"
                    talked.append(turn)

            async def wait_for_close():
                code = await closed_code(silent, timeout=5)
                return code, len(talked)

            _, (code, talked_before) = await asyncio.gather(keep_talking(), wait_for_close())
            assert (await request(busy, {"type": "hello", "id": "after"}))[0]["id"] == "after"
            return code, talked_before

    code, talked_before = on_engine_socket(scenario, Limits(idle_timeout=1))
    assert code == 1000
    assert talked_before < 6  # closed while the other still talked: talking elsewhere does not keep it alive


def test_oversized_message_closes_that_connection_with_1009_and_others_keep_going():
    async def scenario(url):
        async with connect(url) as other, connect(url, max_size=None) as big:
            assert (await request(other, {"type": "hello"}))[0]["type"] == "hello"
            # just under the limit is fine
            fits = json.dumps({"type": "hello", "pad": "x" * 900})
            assert len(fits) < 1024
            await big.send(fits)
            assert json.loads(await asyncio.wait_for(big.recv(), 10))["type"] == "hello"
            await big.send(json.dumps({"type": "hello", "pad": "x" * 2000}))
            code = await closed_code(big)
            assert (await request(other, {"type": "hello", "id": "still"}))[0]["id"] == "still"
        async with connect(url) as fresh:
            assert (await request(fresh, {"type": "hello"}))[0]["type"] == "hello"
        return code

    assert on_engine_socket(scenario, Limits(max_message_bytes=1024)) == 1009


async def admitted_once_free(url: str, timeout: float = 30.0):
    """A session the server keeps: while its session slots are all taken it closes a new
    connection with 1013 unanswered, so connect again until a `hello` is answered (the server
    has seen a slot freed)."""
    deadline = time.monotonic() + timeout
    while True:
        ws = await connect(url)
        try:
            await request(ws, {"type": "hello"})
            return ws
        except websockets.exceptions.ConnectionClosed:
            assert ws.close_code == 1013 and time.monotonic() < deadline, ws.close_code
            await asyncio.sleep(0.05)  # (a pause between tries, not an order of events)


def test_a_client_that_vanishes_mid_game_does_not_break_the_server():
    async def scenario(url):
        ws = await connect(url)
        await request(ws, {"type": "options", "clock": "realtime", "time_scale": 5})
        replies = await request(
            ws, {"type": "start_game", "players": [{"bot": "easy"}, {"remote": "gone"}], "seed": 2}, until="tiles"
        )
        assert replies[-1]["type"] == "tiles"
        ws.transport.abort()  # no close handshake: the TCP connection just drops
        # the only session slot is free again (once the server has seen the drop) and the next client is served
        async with await admitted_once_free(url) as next_client:
            assert (await request(next_client, {"type": "hello", "id": "next"}))[0]["id"] == "next"
            check = await request(next_client, {"type": "check", "grid": CROSS, "tiles": "CATMP"})
            assert check[0]["valid"] is True

    on_engine_socket(scenario, Limits(max_sessions=1))


def test_bad_frames_get_errors_and_binary_frames_are_refused():
    """Issue 15 (minor): the protocol is text frames; a binary frame, even of valid JSON,
    gets a bad_json error and the session goes on."""

    async def scenario(url):
        async with connect(url) as ws:
            for frame in ("not json", "[]", json.dumps({"type": "nope"}), b"\xff\xfe"):
                await ws.send(frame)
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert reply["type"] == "error"
            await ws.send(json.dumps({"type": "hello", "id": "bin"}).encode())  # a binary frame
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert reply["type"] == "error" and reply["code"] == "bad_json" and "text" in reply["message"]
            assert (await request(ws, {"type": "hello", "id": "text"}))[0]["id"] == "text"
            await ws.send(json.dumps({"type": "quit"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "bye"
            return await closed_code(ws)

    assert on_engine_socket(scenario) == 1000


# -- the serve command ------------------------------------------------------------------------


def test_serve_command_exits_2_with_an_error_line_when_the_port_is_taken():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        done = subprocess.run(
            [bananas_script(), "serve", "--port", str(port), "--db", "none"],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ),
        )
    assert done.returncode == 2, (done.returncode, done.stderr)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and f"127.0.0.1:{port}" in errors[0], done.stderr
    assert "Traceback" not in done.stderr


def test_serve_command_prints_its_urls_serves_the_page_and_the_engine_and_stops_on_sigint():
    import signal

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [bananas_script(), "serve", "--port", str(port), "--db", "none", "--idle-timeout", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and f"ws://127.0.0.1:{port}/engine" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200 and "/static/app.js" in page.read().decode()

        async def talk():
            # A loaded machine may take long to start the server; until it listens, a connection
            # is refused (OSError) or cut during the handshake (WebSocketException): retry.
            deadline = time.monotonic() + 90
            while True:
                try:
                    async with connect(f"ws://127.0.0.1:{port}", open_timeout=30) as ws:
                        return await request(ws, {"type": "hello", "id": 1})
                except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise
                    await asyncio.sleep(0.2)

        assert asyncio.run(asyncio.wait_for(talk(), 120))[0]["id"] == 1
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130  # Ctrl-C's exit code, as every command's (issue 65)
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
