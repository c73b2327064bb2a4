"""A fuzz of every protocol message type with hostile values (issue 15).

For each message type and each of its fields, a list of hostile values (huge, tiny, NaN and
infinities, wrong kinds, long strings, pathological whitespace, paths, odd Unicode) is sent
to sessions in each state that matters (fresh, in a seat hand, in a hosted game with a
remote player), network and local. Every message must get an answer (a reply echoing its
id), never the `internal` code, within a time bound, and every reply must be strict JSON
(no NaN or Infinity) within the reply size bound. The same runs once through each transport:
`run_stdio` and the WebSocket server.

Deterministic (no randomness), and cheap: the bots are node-capped and games instant.
"""

from __future__ import annotations

import asyncio
import io
import json
import time

import pytest
from helpers import CHEAP_BOT, CROSS, strict_json, sweep
from websockets.asyncio.client import connect

from solver.core.limits import NETWORK
from solver.protocol.session import HANDLERS, Session, encode
from solver.protocol.stdio import run_stdio
from solver.web import BackgroundServer

TIME_BOUND = 10.0  # seconds per message: a bot decision is bounded at about 5 s (docs/SECURITY.md)

# Raw JSON tokens (not expressible as Python values that json.dumps would write strictly).
NAN, INF, NEG_INF = "NaN", "Infinity", "-Infinity"

HOSTILE = [
    None,
    True,
    False,
    0,
    -1,
    2**31,
    2**63,
    10**30,
    -(10**30),
    1.5,
    5e-324,
    1e-300,
    1e308,
    NAN,
    INF,
    NEG_INF,
    "",
    " " * 5000,
    "\t\n\r " * 1000,
    "A1" + " " * 800 + "B" + " " * 800 + "!",
    ",".join(f"{chr(65 + i % 26)}{i + 1}" for i in range(200)),
    "A99999999999999999999",
    "9" * 5000,
    "x" * 20_000,
    "Z9",
    "/etc/passwd",
    "../../../../etc/passwd",
    "en\u0000",
    "\u202e\u200bCAT\ufeff",
    "\ud800",  # a lone surrogate (JSON escape)
    "ſ",
    [],
    [1, [2, [3]]],
    ["CAT", 5],
    {},
    {"bot": "hard"},
    [{"bot": "hard:node_budget=1000000"}] * 3,
    [{"remote": "x" * 1000}],
    [{"bot": CHEAP_BOT}, {"remote": "me"}],
]

# The fields each message type reads (and `id`, which every message may carry).
FIELDS = {
    "hello": ["id"],
    "options": ["lexicon", "distribution", "min_length", "bot", "seed", "variant", "clock", "time_scale"],
    "check": ["grid", "tiles", "lexicon", "min_length"],
    "hint": ["grid", "hand", "lexicon", "min_length", "player"],
    "quit": ["id"],
    "new_hand": ["tiles", "bunch", "active"],
    "draw": ["tiles", "bunch", "active", "reason"],
    "table": ["bunch", "active"],
    "notice": ["event", "player", "bunch", "call", "tile", "seen"],
    "grid": ["player"],
    "start_game": ["players", "seed"],
    "call": ["player", "call", "tile", "grid", "seen"],
    "spellevate_info": ["id"],
    "spellevate_seat": ["tiles", "players", "seat", "leader", "bot", "sets", "hands"],
    "spellevate_start": ["players", "seed", "rounds", "sets"],
    "spellevate_move": ["player", "play", "pass"],
    "spellevate_hand": ["player"],
}
# A valid message of each type, which the hostile value of one field is put into.
BASE = {
    "hello": {},
    "options": {"clock": "instant", "bot": CHEAP_BOT},
    "check": {"grid": CROSS, "tiles": "CATMP"},
    "hint": {"grid": CROSS, "hand": "S"},
    "quit": {},
    "new_hand": {"tiles": "QQZXJAE", "bunch": 50, "active": 2},
    "draw": {"tiles": "E", "bunch": 49},
    "table": {"bunch": 40, "active": 2},
    "notice": {"event": "refused", "player": "you"},
    "grid": {},
    "start_game": {"players": [{"bot": CHEAP_BOT}, {"remote": "me"}], "seed": 1},
    "call": {"player": 1, "call": "stuck"},
    "spellevate_info": {},
    "spellevate_seat": {"tiles": "AEHRTZ", "players": 3, "seat": 1, "leader": 0, "hands": [6, 6, 6], "bot": "simple"},
    "spellevate_start": {"players": [{"bot": "simple"}, {"remote": "me"}, {"bot": "simple"}], "seed": 1},
    "spellevate_move": {"player": 0, "play": "BE"},
    "spellevate_hand": {},
}


def test_every_message_type_is_covered():
    assert set(FIELDS) == set(HANDLERS) == set(BASE)


def hostile_line(kind: str, field: str, value, number: int) -> str:
    message = {"type": kind, **BASE[kind], "id": number}
    message[field] = value
    line = json.dumps(message, ensure_ascii=False)
    for token in (NAN, INF, NEG_INF):  # raw non-finite numbers, as a hostile client writes them
        line = line.replace(json.dumps(token), token)
    return line


def fresh(allow_paths: bool) -> Session:
    session = Session(allow_paths=allow_paths)
    session.receive(json.dumps({"type": "options", "clock": "instant", "bot": CHEAP_BOT}), 0.0)
    return session


def in_seat_hand(allow_paths: bool) -> Session:
    session = fresh(allow_paths)
    session.receive(json.dumps({"type": "new_hand", "tiles": "QQZXJAE", "bunch": 50, "active": 2}), 0.0)
    return session


def in_hosted_game(allow_paths: bool) -> Session:
    session = fresh(allow_paths)
    players = [{"bot": CHEAP_BOT}, {"remote": "me"}]
    session.receive(json.dumps({"type": "start_game", "players": players, "seed": 2}), 0.0)
    return session


STATES = {"fresh": fresh, "seat": in_seat_hand, "host": in_hosted_game}


def check_replies(replies: list[dict], line: str, expect_id: int | None) -> list[str]:
    problems = []
    for reply in replies:
        text = encode(reply, NETWORK.max_reply_bytes)
        try:
            parsed = strict_json(text)
        except ValueError as error:
            problems.append(f"{error}: {text[:120]}")
            continue
        if parsed.get("code") == "internal":
            problems.append(f"internal: {parsed['message'][:200]} for {line[:200]}")
    if not replies:
        problems.append(f"no answer to {line[:200]}")
    elif expect_id is not None and not any(reply.get("id") == expect_id for reply in replies):
        problems.append(f"no reply with id {expect_id} to {line[:200]}: {[r['type'] for r in replies]}")
    return problems


def run_fuzz(allow_paths: bool, stride: int = 1) -> tuple[list[str], float, int]:
    problems, slowest, count = [], 0.0, 0
    combination = -1  # every `stride`-th (state, message) is fuzzed, each field with every value
    for state, make in STATES.items():
        for kind, fields in FIELDS.items():
            combination += 1
            if combination % stride:
                continue
            session = make(allow_paths)
            for field in fields:
                for value in HOSTILE:
                    count += 1
                    line = hostile_line(kind, field, value, count)
                    started = time.perf_counter()
                    replies = session.receive(line, 0.0)
                    if session.next_wakeup() is not None:
                        replies += session.tick(0.0)
                    elapsed = time.perf_counter() - started
                    slowest = max(slowest, elapsed)
                    expect_id = count if field != "id" else None  # a hostile id is not echoed
                    problems += [f"{state}: {problem}" for problem in check_replies(replies, line, expect_id)]
                    if elapsed > TIME_BOUND:
                        problems.append(f"{state}: {elapsed:.1f} s for {line[:200]}")
                    if session.closed:  # quit: go on with a session in the same state
                        session = make(allow_paths)
    return problems, slowest, count


@pytest.fixture(scope="module")
def warm():
    in_hosted_game(True)  # the kernels and word lists, loaded once before anything is timed
    in_seat_hand(True)


@pytest.mark.parametrize("allow_paths", [False, True], ids=["network", "local"])
@sweep("stride", 5, 1)  # every 5th (state, message), or all of them
def test_hostile_values_in_every_field_of_every_message(warm, allow_paths, stride, capsys):
    started = time.perf_counter()
    problems, slowest, count = run_fuzz(allow_paths, stride)
    with capsys.disabled():
        print(f"\n{count} hostile messages in {time.perf_counter() - started:.1f} s, slowest {slowest * 1000:.0f} ms")
    assert not problems, "\n".join(problems[:20])


def test_hostile_lines_over_stdio_get_one_strict_json_line_each(warm):
    lines = [
        hostile_line(kind, field, value, 0)
        for kind in ("options", "check", "new_hand")
        for field in FIELDS[kind][:2]
        for value in HOSTILE
    ]
    lines = [line for line in lines if '"quit"' not in line]
    stdout = io.StringIO()
    run_stdio(io.StringIO("\n".join(lines) + "\n"), stdout)
    out = stdout.getvalue().splitlines()
    replies = [strict_json(line) for line in out]
    assert sum(1 for reply in replies if reply.get("id") == 0) >= len(lines)  # an answer per line
    assert not [reply for reply in replies if reply.get("code") == "internal"]


def test_hostile_frames_over_websocket_get_strict_json_answers(warm):
    frames = [
        hostile_line(kind, field, value, index)
        for index, (kind, field, value) in enumerate(
            (kind, field, value)
            for kind in ("options", "check", "start_game", "call")
            for field in FIELDS[kind][:2]
            for value in HOSTILE[::3]
        )
    ]

    async def scenario(url):
        answered = set()
        async with connect(url) as ws:
            for index, frame in enumerate(frames):
                await ws.send(frame)
                while index not in answered:
                    text = await asyncio.wait_for(ws.recv(), 30)
                    reply = strict_json(text)
                    assert reply.get("code") != "internal", reply
                    if isinstance(reply.get("id"), int):
                        answered.add(reply["id"])
        return answered

    with BackgroundServer() as server:
        answered = asyncio.run(asyncio.wait_for(scenario(server.engine_url), 120))
    assert len(answered) == len(frames)
