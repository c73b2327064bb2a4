"""Issue 15: no message, file or argument can freeze, crash or read past the engine.

One regression test per finding of the hostile-client run (numbered as in the issue), then
the minor ones. Time bounds here are generous ceilings far above the expected figures (the
findings took 4 to 30 s or never ended), so that a loaded machine does not fail them.
Finding 9's command-line inputs are tests/cli/test_hostile_files.py. The broad sweeps over
every message type and every command are tests/protocol/test_fuzz_protocol.py and
tests/cli/test_fuzz_cli.py.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import math
import os
import socket
import struct
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner
from helpers import CROSS, error_code, on_engine_socket, send
from websockets.asyncio.client import connect

from solver.cli import main as cli
from solver.core.limits import BOT_SPEEDS, MAX_GRID_CELLS, NETWORK, TIME_SCALES, Limits
from solver.lexicon.loader import get_lexicon
from solver.protocol.session import Session, encode
from solver.protocol.stdio import lines_of, run_stdio
from solver.search.solving import warm_kernels


async def ask(ws, message: dict, timeout: float = 30.0) -> dict:
    await ws.send(json.dumps(message))
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


# -- 1. a backtracking regular expression froze every session ------------------------------


def test_1_pathological_distribution_is_refused_at_once():
    line = json.dumps({"type": "options", "distribution": "A1" + " " * 800 + "B" + " " * 800 + "!"})
    started = time.perf_counter()
    assert error_code(send(Session(allow_paths=False), line)) == "bad_value"
    assert error_code(send(Session(allow_paths=True), line)) == "bad_value"
    assert time.perf_counter() - started < 1.0  # was 7.4 s, holding the GIL


# -- 2. a tiny time scale or bot speed overflowed the realtime wait --------------------------


@pytest.mark.parametrize(
    "options",
    [{"time_scale": 1e-300}, {"time_scale": 5e-324}, {"bot": "medium:speed=1e-320"}, {"bot": "easy:speed=1e300"}],
)
def test_2_speeds_and_time_scales_outside_sane_ranges_are_refused(options):
    assert error_code(send(Session(), {"type": "options", **options})) == "bad_value"
    players = [{"bot": options.get("bot", "greedy")}, {"remote": "r"}]
    if "bot" in options:
        assert error_code(send(Session(), {"type": "start_game", "players": players})) == "bad_value"


def test_2_the_slowest_allowed_settings_give_a_finite_bounded_wakeup():
    session = Session()
    slowest = f"easy:speed={BOT_SPEEDS[0]}"
    send(session, {"type": "options", "bot": slowest, "time_scale": TIME_SCALES[0], "clock": "realtime"})
    send(session, {"type": "new_hand", "tiles": "QQZXJ", "bunch": 50, "active": 2})
    wakeup = session.next_wakeup()
    assert wakeup is not None and math.isfinite(wakeup) and wakeup <= 3600.0


def test_2_the_stdio_engine_survives_the_slowest_settings():
    """The engine process waits on a bot call due in an hour, answers a hello meanwhile and quits."""
    engine = subprocess.Popen(
        [sys.executable, "-c", "from solver.cli.engine import engine; engine()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    lines = [
        {"type": "options", "bot": f"easy:speed={BOT_SPEEDS[0]}", "time_scale": TIME_SCALES[0]},
        {"type": "new_hand", "tiles": "CATMP", "bunch": 40, "active": 2},
        {"type": "hello", "id": "alive"},
        {"type": "quit"},
    ]
    out, err = engine.communicate("".join(json.dumps(line) + "\n" for line in lines), timeout=60)
    assert engine.returncode == 0 and "Traceback" not in err, err
    replies = [json.loads(line) for line in out.splitlines()]
    assert [reply["type"] for reply in replies] == ["options", "ready", "hello", "bye"]


# -- 3. non-finite numbers reached clients as invalid JSON ----------------------------------


def test_3_replies_are_strict_json_and_a_non_finite_value_becomes_an_internal_error():
    with pytest.raises(ValueError):
        json.dumps({"t": math.inf}, allow_nan=False)
    text = encode({"type": "event", "t": math.inf, "id": 4})
    reply = json.loads(text)  # parses strictly: no Infinity in it
    assert "Infinity" not in text and reply["type"] == "error" and reply["code"] == "internal" and reply["id"] == 4


def test_3_a_hosted_game_at_the_extreme_settings_sends_only_finite_times():
    session = Session(allow_paths=False)
    send(session, {"type": "options", "clock": "realtime", "time_scale": TIME_SCALES[1]})
    slowest = f"easy:speed={BOT_SPEEDS[0]},node_budget=30"
    replies = send(session, {"type": "start_game", "players": [{"bot": "greedy"}, {"bot": slowest}], "seed": 1})
    now = 0.0
    for _ in range(200):
        wakeup = session.next_wakeup()
        if wakeup is None:
            break
        now = max(now, wakeup) + 1e-6
        replies += session.tick(now)
    for reply in replies:
        json.loads(encode(reply))
        assert all(math.isfinite(reply[key]) for key in ("t",) if key in reply)


# -- 4. the server read files in its working directory from the network ----------------------


def test_4_a_network_session_never_touches_the_filesystem(tmp_path, monkeypatch):
    """By construction: network sessions read specs through NetworkSpecs, which calls nothing
    that can open or stat a file. Checked with a tripwire on every open and stat, after the
    shipped lexicons and kernels are loaded (memoised, as on a running server)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Z9").write_text("TOPSECRET\n")
    (tmp_path / "words.txt").write_text("hunter\nswordfish\n")
    warm = Session()
    send(warm, {"type": "options", "clock": "instant", "bot": "easy:node_budget=30"})
    send(warm, {"type": "new_hand", "tiles": "CATMP", "bunch": 10, "active": 2})
    send(warm, {"type": "check", "grid": CROSS, "lexicon": "fr"})

    touched: list[str] = []
    real_stat, real_open, real_os_open = os.stat, io.open, os.open

    def tripwire(real):
        def wrapper(path, *args, **kwargs):
            touched.append(str(path))
            return real(path, *args, **kwargs)

        return wrapper

    hostile_specs = [
        "Z9",
        "./Z9",
        str(tmp_path / "Z9"),
        "words.txt",
        str(tmp_path / "words.txt"),
        "/etc/passwd",
        "../" * 40 + "etc/passwd",
        "x" * 5000,
        "A1,B2,/etc",
        "\x00",
        "en\x00",
        "~/.bashrc",
    ]
    session = Session(allow_paths=False)
    monkeypatch.setattr(os, "stat", tripwire(real_stat))
    monkeypatch.setattr(os, "lstat", tripwire(os.lstat))
    monkeypatch.setattr(io, "open", tripwire(real_open))
    monkeypatch.setattr(os, "open", tripwire(real_os_open))
    monkeypatch.setattr("builtins.open", tripwire(real_open))
    replies = []
    for spec in hostile_specs:
        replies += send(session, {"type": "options", "distribution": spec, "clock": "instant"})
        replies += send(session, {"type": "options", "lexicon": spec})
        replies += send(session, {"type": "check", "grid": CROSS, "lexicon": spec})
    monkeypatch.undo()
    assert touched == [], touched[:5]
    text = json.dumps(replies)
    assert "TOPSECRET" not in text and "swordfish" not in text and "root:" not in text
    options = [reply for reply in replies if reply["type"] == "options"]
    assert [reply["options"]["distribution"] for reply in options] == ["Z9"]  # inline: nine Z tiles
    assert all(reply["code"] == "bad_value" for reply in replies if reply["type"] == "error")


def test_4_the_local_engine_still_reads_files_it_is_named(tmp_path):
    (tmp_path / "set.txt").write_text("# a tiny set\nA30,B30,C30,D30,E30,S30\n")
    session = Session(allow_paths=True)
    replies = send(session, {"type": "options", "distribution": str(tmp_path / "set.txt")})
    assert replies[0]["type"] == "options" and len(session.options.rules().distribution) == 180


# -- 5. internal errors: a long inline distribution, an overflowing count ---------------------


@pytest.mark.parametrize("allow_paths", [False, True], ids=["network", "local"])
@pytest.mark.parametrize(
    "spec",
    [
        ",".join(f"{chr(65 + i % 26)}{i + 1}" for i in range(200)),
        "A99999999999999999999",
        "A" + "9" * 5000,
        " ".join(["A1"] * 3000),
    ],
    ids=["200-entries", "overflow", "5000-digits", "3000-repeats"],
)
def test_5_hostile_counts_are_bad_values_not_internal_errors(spec, allow_paths):
    replies = send(Session(allow_paths=allow_paths), {"type": "options", "distribution": spec})
    assert error_code(replies) == "bad_value", replies


def test_5_over_stdio_too():
    stdout = io.StringIO()
    run_stdio(io.StringIO(json.dumps({"type": "options", "distribution": "A99999999999999999999"}) + "\n"), stdout)
    assert json.loads(stdout.getvalue())["code"] == "bad_value"


# -- 6. a client that never reads kept its session slot forever -----------------------------


def masked_text_frame(text: str) -> bytes:
    """One client-to-server WebSocket text frame (RFC 6455: clients mask their frames)."""
    payload, mask = text.encode(), os.urandom(4)
    size = len(payload)
    header = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0x80 | 126]) + struct.pack("!H", size)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def flood_without_reading(port: int, frame: bytes, seconds: float) -> str:
    """A raw WebSocket client with a tiny receive buffer that sends `frame` over and over and
    never reads a reply; returns how it ended."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
        sock.settimeout(seconds)
        sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            f"GET /engine HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        response = b""
        while b"\r\n\r\n" not in response:
            response += sock.recv(1)
        assert b" 101 " in response.split(b"\r\n")[0]
        try:
            while True:
                sock.sendall(frame)
        except TimeoutError:
            return "still open"
        except OSError:
            return "dropped"


def test_6_a_slow_reader_is_dropped_and_its_slot_freed(en):
    """A client sends requests with large replies and never reads: the server's writes
    block, its reply queue fills, and the connection is dropped; with max_sessions=1 the
    next client is served."""
    limits = Limits(max_sessions=1, max_queued_replies=8, write_timeout=1.0, idle_timeout=600)
    grid = ["QQ." * 40, "." * 120] * 2 + ["QQ." * 40]  # 120 invalid words: replies of about 17 KB
    frame = masked_text_frame(json.dumps({"type": "check", "grid": grid}))

    async def scenario(url):
        started = time.monotonic()
        ended = await asyncio.to_thread(flood_without_reading, urlsplit(url).port, frame, 30.0)
        async with connect(url) as fresh:
            reply = await ask(fresh, {"type": "hello", "id": "next"}, timeout=10)
        return ended, reply, time.monotonic() - started

    ended, reply, elapsed = on_engine_socket(scenario, limits, timeout=90.0)
    assert ended == "dropped" and reply["id"] == "next" and elapsed < 30


# -- 7. heavy requests starved cheap ones -----------------------------------------------------


def test_7_a_hello_is_answered_while_heavy_work_fills_the_workers():
    """Two connections keep playing 8-bot instant games on the only worker thread; a third
    connection's hello and check are answered at once, while those games are under way."""
    limits = Limits(workers=1)
    players = [{"bot": "easy:node_budget=2000"}] * 8
    playing = {1: False, 2: False}  # a heavy client's game is asked for and not over
    done = asyncio.Event()

    async def heavy(url, number, started: asyncio.Event):
        async with connect(url) as ws:
            await ask(ws, {"type": "options", "clock": "instant"})
            for seed in range(50):
                playing[number] = True  # from the request until its game_over: the worker owes it work
                await ws.send(json.dumps({"type": "start_game", "players": players, "seed": 10 * seed + number}))
                events = 0
                while (message := json.loads(await asyncio.wait_for(ws.recv(), 120)))["type"] != "game_over":
                    events += message["type"] == "event"
                    if events == 2:
                        started.set()
                playing[number] = False
                if done.is_set():
                    return

    async def cheap(url, first: asyncio.Event, second: asyncio.Event):
        await first.wait()
        await second.wait()
        async with connect(url) as ws:
            began = time.monotonic()
            reply = await ask(ws, {"type": "hello", "id": "quick"})
            busy = dict(playing)
            checked = await ask(ws, {"type": "check", "grid": CROSS})
            waited = time.monotonic() - began
        done.set()
        return reply, checked, waited, busy

    async def scenario(url):
        first, second = asyncio.Event(), asyncio.Event()
        results = await asyncio.gather(heavy(url, 1, first), heavy(url, 2, second), cheap(url, first, second))
        return results[2]

    reply, checked, waited, busy = on_engine_socket(scenario, limits, timeout=240)
    assert reply["id"] == "quick" and checked["valid"] is True
    assert any(busy.values()), busy  # answered while the heavy work went on
    assert waited < 1.0, waited  # was 4 s behind 8 heavy requests


def test_7_network_sessions_cap_the_bots_search_budget():
    for message in (
        {"type": "options", "bot": "hard:node_budget=1000000"},
        {"type": "start_game", "players": [{"bot": "hard:node_budget=1000000"}]},
    ):
        assert error_code(send(Session(allow_paths=False), message)) == "bad_value"
    assert send(Session(allow_paths=True), {"type": "options", "bot": "hard:node_budget=1000000"})[0]["type"] == (
        "options"
    )


def test_7_an_instant_bots_only_game_runs_in_slices_of_bounded_work(monkeypatch):
    """A whole instant game is not played inside one message: each tick runs a slice of it
    (here the smallest slice, one event at a time) and next_wakeup says more is due."""
    import solver.protocol.host

    monkeypatch.setattr(solver.protocol.host, "TICK_WORK_SECONDS", 0.0)
    session = Session(allow_paths=False)
    send(session, {"type": "options", "clock": "instant"})
    players = [{"bot": "easy:node_budget=400"}] * 4
    replies = send(session, {"type": "start_game", "players": players, "seed": 3})
    assert not any(reply["type"] == "game_over" for reply in replies)
    ticks, slowest = 0, 0.0
    while session.next_wakeup() is not None:
        started = time.perf_counter()
        replies += session.tick(0.0)
        slowest = max(slowest, time.perf_counter() - started)
        ticks += 1
    assert any(reply["type"] == "game_over" for reply in replies)
    assert ticks >= 10 and slowest < 5.0  # a slice is TICK_WORK_SECONDS plus one bot decision


# -- 8. remote players starved in instant-clock hosted games over WebSocket -------------------


@pytest.mark.slow  # a whole game of medium bots; the slices that make room: test_7_an_instant_bots_only_game_...
def test_8_a_remote_player_is_heard_during_an_instant_hosted_game():
    """Issue 41: with the instant clock the bots could finish the game before the host read
    the remote player's answers. Now each `tiles` message is the remote player's turn: the
    game waits for its call. The same seed and the same answers give the same game, whether
    the player answers at once or takes its time (the bots are far faster than either)."""

    async def play(url, delay: float) -> tuple[list[dict], int, int]:
        async with connect(url) as ws:
            await ask(ws, {"type": "options", "clock": "instant"})
            players = [{"bot": "medium"}, {"bot": "medium"}, {"remote": "me"}]
            await ws.send(json.dumps({"type": "start_game", "players": players, "seed": 4}))
            events, sent, answered, heard = [], 0, 0, []
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 120))
                except TimeoutError:
                    raise AssertionError(f"the game stalled; last messages: {heard[-8:]}") from None
                heard.append(message)
                if message["type"] == "event":
                    events.append(message)
                elif message["type"] in ("ok", "stale") or message.get("code") in ("out_of_order", "stale"):
                    answered += 1
                elif message["type"] == "tiles":
                    sent += 1
                    await asyncio.sleep(delay)  # a slow player: the game must not go on without it
                    call = {"type": "call", "player": 2, "call": "stuck", "seen": sent}
                    await ws.send(json.dumps(call))
                elif message["type"] == "game_over":
                    return events, sent, answered

    async def scenario(url):
        return await play(url, 0.0), await play(url, 0.02)

    # The server runs in this process: its kernels compiled first, so that a cold numba cache
    # (a fresh clone's first run: ~60 s of compile on a loaded machine) is not read as a stall.
    warm_kernels(get_lexicon("en"), include_extend=True)
    (events, sent, answered), (slow_events, slow_sent, slow_answered) = on_engine_socket(scenario, timeout=300.0)
    assert sent >= 2 and answered >= sent - 1  # every turn answered (the last may end the game)
    assert (slow_events, slow_sent) == (events, sent)  # the same game, however slow the answers
    assert any(event["event"] == "stuck" and event["player"] == 2 for event in events)


# -- 9. the engine bounds what it reads (the CLI's files: tests/cli/test_hostile_files.py) --


def test_9_the_engine_bounds_a_line_without_end(tmp_path):
    assert list(lines_of(io.BytesIO(b"x" * 10))) == [b"x" * 10]  # in-memory streams pass through
    path = tmp_path / "input"
    path.write_bytes(b"x" * 300_000 + b"\n" + b'{"type":"hello"}\n')
    with open(path, "rb") as stream:
        lines = list(lines_of(stream, max_line_bytes=1000))
    assert [len(line) for line in lines] == [1001, 17]


def test_9_the_engine_process_on_dev_zero_answers_too_large_once_and_holds_no_memory():
    zero = open("/dev/zero", "rb")  # noqa: SIM115 - closed below
    engine = subprocess.Popen(
        [sys.executable, "-c", "from solver.cli.engine import engine; engine()"],
        stdin=zero,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    try:
        first = json.loads(engine.stdout.readline())
        time.sleep(1.0)  # reading zeros meanwhile
        with open(f"/proc/{engine.pid}/status") as status:
            rss_kb = int(next(line for line in status if line.startswith("VmRSS")).split()[1])
        assert engine.poll() is None
    finally:
        engine.kill()
        engine.wait()
        zero.close()
        engine.stdout.close()
        engine.stderr.close()
    assert first["type"] == "error" and first["code"] == "too_large"
    assert rss_kb < 400_000  # the numba and numpy imports; not the gigabytes of zeros read


# -- 10. reply amplification -------------------------------------------------------------------


def test_10_big_grids_are_refused_and_replies_stay_small():
    text = "\n".join(["AB" * 120] * 255)  # the 240 x 255 grid of the finding, in text form: under 64 KB
    assert len(json.dumps({"type": "check", "grid": text})) < 65536
    assert error_code(send(Session(allow_paths=False), {"type": "check", "grid": text})) == "bad_grid"
    # the worst grid within the bounds: MAX_GRID_CELLS cells, as many letters as allowed
    side = int(math.isqrt(MAX_GRID_CELLS))
    rows = [("Q." * side)[:side] if row % 2 == 0 else "." * side for row in range(side)]
    replies = send(Session(allow_paths=False), {"type": "check", "grid": rows})
    assert error_code(replies) in (None, "bad_grid")
    assert max(len(encode(reply)) for reply in replies) < NETWORK.max_reply_bytes
    assert len(encode({"type": "check", "pad": "x" * (NETWORK.max_reply_bytes + 1), "id": 1})) < 1000


# -- minor ---------------------------------------------------------------------------------------


def test_minor_check_lexicon_must_be_a_string():
    assert error_code(send(Session(), {"type": "check", "grid": CROSS, "lexicon": 5})) == "bad_value"


@pytest.mark.parametrize("player", [-1, 10**12, 1.5, True, "me", None, [1]])
def test_minor_notice_player_is_validated(player):
    session = Session()
    send(session, {"type": "options", "clock": "instant", "bot": "easy:node_budget=30"})
    send(session, {"type": "new_hand", "tiles": "QQZXJAE", "bunch": 50, "active": 2})
    assert error_code(send(session, {"type": "notice", "event": "peel", "player": player})) == "bad_value"
    assert send(session, {"type": "notice", "event": "peel", "player": 1})[0]["type"] == "ok"


def test_minor_start_game_during_a_seat_hand_is_out_of_order():
    session = Session()
    send(session, {"type": "options", "clock": "instant", "bot": "easy:node_budget=30"})
    send(session, {"type": "new_hand", "tiles": "QQZXJAE", "bunch": 50, "active": 2})
    assert error_code(send(session, {"type": "start_game", "players": [{"bot": "greedy"}]})) == "out_of_order"
    send(session, {"type": "notice", "event": "end"})
    assert send(session, {"type": "start_game", "players": [{"bot": "greedy"}]})[0]["type"] == "game"


def test_minor_seeds_are_non_negative_everywhere():
    assert CliRunner().invoke(cli, ["solve", "CAT", "--seed", "-1"]).exit_code == 2
    assert CliRunner().invoke(cli, ["play", "--seed", "-5"]).exit_code == 2
    for message in (
        {"type": "options", "seed": -1},
        {"type": "start_game", "players": [{"bot": "greedy"}], "seed": -1},
    ):
        assert error_code(send(Session(), message)) == "bad_value"
    assert error_code(send(Session(), {"type": "options", "seed": 2**64})) == "bad_value"
