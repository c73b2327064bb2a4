"""Bad input to the engine protocol: every kind of malformed or ill-timed message, fresh and
mid-game in both modes, gets an error with the right code and changes nothing, so the session
keeps working (a `hello` afterwards is answered); error replies echo the request's id. Then
the field checks these tests once found missing (bot speeds, sizes in bytes, letters, lexicon
names, file contents, huge hands).

The contract under test (module docstring of solver/protocol/session.py): "a bad message gets
an error and changes nothing, so a session survives anything a client sends"; "replies
echo the request's id".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import (
    CROSS,
    assert_still_serving,
    error_code,
    host_session,
    of_type,
    seat_session,
    send,
)

from solver.protocol.session import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    Session,
)

# -- regressions: contract gaps these tests once found ------------------------------------


def test_bot_speed_nan_is_refused():
    assert error_code(send(Session(), {"type": "options", "bot": "easy:speed=nan"})) == "bad_value"


def test_too_large_counts_utf8_bytes():
    line = json.dumps({"type": "hello", "pad": "é" * (MAX_MESSAGE_BYTES // 2 + 100)}, ensure_ascii=False)
    assert len(line) < MAX_MESSAGE_BYTES < len(line.encode())
    assert error_code(send(Session(), line)) == "too_large"


def test_non_ascii_letters_are_not_tiles():
    assert error_code(send(Session(), {"type": "check", "grid": ["IS"], "tiles": "\u0131\u017f"})) == "bad_letters"


def test_lexicon_must_be_a_shipped_name(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter\nswordfish\n")
    # Network sessions (the WebSocket server) get shipped names only; a local engine may read files.
    replies = send(Session(allow_paths=False), {"type": "check", "grid": ["SWORDFISH"], "lexicon": str(secret)})
    assert error_code(replies) == "bad_value", replies
    assert of_type(send(Session(), {"type": "check", "grid": ["SWORDFISH"], "lexicon": str(secret)}), "check")


def test_distribution_file_contents_are_not_echoed(tmp_path):
    secret = tmp_path / "dist.txt"
    secret.write_text("TOPSECRET-TOKEN-1234\n")
    replies = send(Session(allow_paths=False), {"type": "options", "distribution": str(secret)})
    assert error_code(replies) == "bad_value"
    assert "TOPSECRET" not in json.dumps(replies)


def test_greedy_bot_on_a_huge_hand_answers_quickly():
    script = (
        "import json, random\n"
        "from solver.protocol.session import Session\n"
        "s = Session()\n"
        "s.receive(json.dumps({'type': 'options', 'clock': 'instant', 'bot': 'greedy'}), 0.0)\n"
        "r = random.Random(0)\n"
        "letters = ''.join(r.choice('AEIOUSTRNLCDMPBGH') for _ in range(999))\n"
        "print(s.receive(json.dumps({'type': 'new_hand', 'tiles': letters, 'bunch': 50}), 0.0)[0]['type'])\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=6, env=dict(os.environ)
        )
    except subprocess.TimeoutExpired:
        pytest.fail("receive() did not return within 6 s (including start-up)")
    assert done.returncode == 0, done.stderr


DEEP = "[" * 30_000 + "]" * 30_000  # under the size limit, over the recursion limit


BAD_LINES = [
    # (label, line or message, expected code)
    ("not json", "this is not json", "bad_json"),
    ("truncated", '{"type": "hel', "bad_json"),
    ("empty line", "", "bad_json"),
    ("blank line", "   ", "bad_json"),
    ("list", "[1, 2, 3]", "bad_json"),
    ("number", "42", "bad_json"),
    ("string", '"hello"', "bad_json"),
    ("null", "null", "bad_json"),
    ("true", "true", "bad_json"),
    ("trailing garbage", '{"type": "hello"} x', "bad_json"),
    ("nul byte", '{"type": "hello"}\x00', "bad_json"),
    ("deep list", DEEP, "bad_json"),
    ("deep inside an object", '{"type": "hello", "x": ' + "[" * 25_000 + "]" * 25_000 + "}", "bad_json"),
    ("invalid utf-8", b'{"type": "hello", "x": "\xff\xfe"}', "bad_json"),
    ("invalid utf-8 only", b"\xc3\x28\xa0\xa1", "bad_json"),
    ("too many digits", '{"type": "new_hand", "tiles": "CAT", "bunch": ' + "9" * 5000 + "}", "bad_json"),
    ("too large", json.dumps({"type": "hello", "pad": "x" * MAX_MESSAGE_BYTES}), "too_large"),
    ("too large bytes", json.dumps({"type": "hello", "pad": "x" * MAX_MESSAGE_BYTES}).encode(), "too_large"),
    ("no type", {"id": 1}, "unknown_type"),
    ("unknown type", {"type": "frobnicate"}, "unknown_type"),
    ("type is a number", {"type": 5}, "unknown_type"),
    ("type is a list", {"type": ["hello"]}, "unknown_type"),
    ("type is null", {"type": None}, "unknown_type"),
    ("check without grid", {"type": "check"}, "missing_field"),
    ("new_hand without tiles", {"type": "new_hand", "bunch": 3}, "missing_field"),
    ("start_game without players", {"type": "start_game"}, "missing_field"),
    ("notice without event", {"type": "notice"}, "out_of_order"),  # no hand yet comes first
    ("tiles as number (check)", {"type": "check", "grid": CROSS, "tiles": 5}, "bad_value"),
    ("tiles as number (new_hand)", {"type": "new_hand", "tiles": 12345}, "bad_value"),
    ("tiles as list", {"type": "new_hand", "tiles": ["C", "A", "T"]}, "bad_value"),
    ("grid as dict", {"type": "check", "grid": {"rows": CROSS}}, "bad_value"),
    ("grid as number", {"type": "check", "grid": 7}, "bad_value"),
    ("grid rows not strings", {"type": "check", "grid": [1, 2]}, "bad_grid"),
    ("grid empty", {"type": "check", "grid": []}, "bad_grid"),
    ("grid ragged", {"type": "check", "grid": ["CAT", "A"]}, "bad_grid"),
    ("grid digits", {"type": "check", "grid": ["C4T"]}, "bad_grid"),
    ("grid accents", {"type": "check", "grid": ["CAFÉ"]}, "bad_grid"),
    ("grid lone surrogate", '{"type": "check", "grid": ["\\ud800"]}', "bad_grid"),
    ("letters outside A-Z", {"type": "check", "grid": CROSS, "tiles": "CAT7"}, "bad_letters"),
    ("accented tile", {"type": "new_hand", "tiles": "CAFÉ"}, "bad_letters"),
    ("punctuation tile", {"type": "new_hand", "tiles": "CA-T"}, "bad_letters"),
    ("empty hand", {"type": "new_hand", "tiles": ""}, "bad_value"),
    ("negative bunch", {"type": "new_hand", "tiles": "CAT", "bunch": -1}, "bad_value"),
    ("zero active", {"type": "new_hand", "tiles": "CAT", "active": 0}, "bad_value"),
    ("huge bunch", {"type": "new_hand", "tiles": "CAT", "bunch": 10**30}, "bad_value"),
    ("bunch is a float", {"type": "new_hand", "tiles": "CAT", "bunch": 3.0}, "bad_value"),
    ("bunch is a bool", {"type": "new_hand", "tiles": "CAT", "bunch": True}, "bad_value"),
    ("bunch is a string", {"type": "new_hand", "tiles": "CAT", "bunch": "3"}, "bad_value"),
    ("min_length is a bool", {"type": "options", "min_length": True}, "bad_value"),
    ("min_length 4", {"type": "options", "min_length": 4}, "bad_value"),
    ("check min_length 1", {"type": "check", "grid": CROSS, "min_length": 1}, "bad_value"),
    ("seed is a bool", {"type": "options", "seed": False}, "bad_value"),
    ("seed is a string", {"type": "options", "seed": "1"}, "bad_value"),
    ("start_game seed is a bool", {"type": "start_game", "players": [{"bot": "greedy"}], "seed": True}, "bad_value"),
    ("start_game negative seed", {"type": "start_game", "players": [{"bot": "greedy"}], "seed": -3}, "bad_value"),
    ("time_scale zero", {"type": "options", "time_scale": 0}, "bad_value"),
    ("time_scale negative", {"type": "options", "time_scale": -2.5}, "bad_value"),
    ("time_scale NaN", '{"type": "options", "time_scale": NaN}', "bad_value"),
    ("time_scale Infinity", '{"type": "options", "time_scale": Infinity}', "bad_value"),
    ("time_scale 1e400", '{"type": "options", "time_scale": 1e400}', "bad_value"),
    ("time_scale a bool", {"type": "options", "time_scale": True}, "bad_value"),
    ("unknown clock", {"type": "options", "clock": "fast"}, "bad_value"),
    ("unknown variant", {"type": "options", "variant": "speed"}, "bad_value"),
    ("unknown lexicon", {"type": "options", "lexicon": "klingon"}, "bad_value"),
    ("unknown bot", {"type": "options", "bot": "grandmaster"}, "bad_value"),
    ("bad bot setting", {"type": "options", "bot": "easy:speed=fast"}, "bad_value"),
    ("bad distribution", {"type": "options", "distribution": "A-1,B2"}, "bad_value"),
    ("players not a list", {"type": "start_game", "players": {"bot": "greedy"}}, "bad_value"),
    ("no players", {"type": "start_game", "players": []}, "bad_value"),
    ("nine players", {"type": "start_game", "players": [{"bot": "greedy"}] * 9}, "bad_value"),
    ("player spec not a dict", {"type": "start_game", "players": ["greedy"]}, "bad_value"),
    ("player spec bot not a str", {"type": "start_game", "players": [{"bot": 3}]}, "bad_value"),
    ("unknown bot seat", {"type": "start_game", "players": [{"bot": "nobody"}]}, "bad_value"),
    # events out of order (a fresh session has neither a hand nor a game)
    ("draw before new_hand", {"type": "draw", "tiles": "A"}, "out_of_order"),
    ("table before new_hand", {"type": "table", "bunch": 3}, "out_of_order"),
    ("notice before new_hand", {"type": "notice", "event": "peel"}, "out_of_order"),
    ("grid before new_hand", {"type": "grid"}, "out_of_order"),
    ("call without a game", {"type": "call", "player": 0, "call": "peel"}, "out_of_order"),
    ("grid of a player without a game", {"type": "grid", "player": 0}, "out_of_order"),
]


@pytest.mark.parametrize("label, message, code", BAD_LINES, ids=[case[0] for case in BAD_LINES])
def test_bad_input_gets_the_right_error_and_the_session_keeps_working(label, message, code):
    session = Session()
    replies = send(session, message)
    assert len(replies) == 1 and replies[0]["type"] == "error", replies
    assert replies[0]["code"] == code, replies
    assert replies[0]["code"] in ERROR_CODES
    assert isinstance(replies[0]["message"], str) and replies[0]["message"]
    assert_still_serving(session)


def test_error_replies_echo_the_id_even_for_malformed_fields():
    session = Session()
    for message in (
        {"type": "check", "grid": 5, "id": "a"},
        {"type": "frob", "id": "a"},
        {"type": "draw", "tiles": "A", "id": "a"},
    ):
        assert send(session, message)[0]["id"] == "a"
    # a non-scalar id is not echoed
    assert "id" not in send(session, {"type": "hello", "id": {"x": 1}})[0]


@pytest.fixture
def seat_in_hand() -> Session:
    session = seat_session("easy")
    assert of_type(send(session, {"type": "new_hand", "tiles": "QQZXJAE", "bunch": 50, "active": 2}), "call")
    return session


SEAT_BAD = [
    ("options during a hand", {"type": "options", "bot": "greedy"}, "out_of_order"),
    ("draw tiles as number", {"type": "draw", "tiles": 3}, "bad_value"),
    ("draw without tiles", {"type": "draw"}, "missing_field"),
    ("draw bad letters", {"type": "draw", "tiles": "É"}, "bad_letters"),
    ("draw negative bunch", {"type": "draw", "tiles": "A", "bunch": -5}, "bad_value"),
    ("table active a bool", {"type": "table", "active": True}, "bad_value"),
    ("table active a string", {"type": "table", "active": "2"}, "bad_value"),
    ("notice without event", {"type": "notice"}, "missing_field"),
    ("notice unknown event", {"type": "notice", "event": "explode"}, "bad_value"),
    ("notice event a number", {"type": "notice", "event": 3}, "bad_value"),
    ("grid of a hosted player", {"type": "grid", "player": 0}, "out_of_order"),
    ("call in seat mode", {"type": "call", "player": 0, "call": "peel"}, "out_of_order"),
]


@pytest.mark.parametrize("label, message, code", SEAT_BAD, ids=[case[0] for case in SEAT_BAD])
def test_bad_input_mid_seat_hand(seat_in_hand, label, message, code):
    before = send(seat_in_hand, {"type": "grid"})[0]
    replies = send(seat_in_hand, message)
    assert error_code(replies) == code, replies
    assert send(seat_in_hand, {"type": "grid"})[0] == before  # nothing changed
    assert_still_serving(seat_in_hand)


@pytest.fixture
def hosted_with_remote() -> Session:
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "greedy"}], "seed": 5})
    return session


HOST_BAD = [
    ("start_game while a game runs", {"type": "start_game", "players": [{"bot": "greedy"}]}, "out_of_order"),
    ("options during a game", {"type": "options", "seed": 3}, "out_of_order"),
    ("new_hand during a game", {"type": "new_hand", "tiles": "CAT"}, "out_of_order"),
    ("call for a bot seat", {"type": "call", "player": 1, "call": "peel"}, "bad_value"),
    ("call for no such player", {"type": "call", "player": 2, "call": "peel"}, "bad_value"),
    ("call for a negative player", {"type": "call", "player": -1, "call": "peel"}, "bad_value"),
    ("player as string", {"type": "call", "player": "0", "call": "peel"}, "bad_value"),
    ("player as bool", {"type": "call", "player": False, "call": "stuck"}, "bad_value"),
    ("player as float", {"type": "call", "player": 0.0, "call": "stuck"}, "bad_value"),
    ("call without player", {"type": "call", "call": "stuck"}, "missing_field"),
    ("call without call", {"type": "call", "player": 0}, "missing_field"),
    ("unknown call", {"type": "call", "player": 0, "call": "split"}, "bad_value"),
    ("call is a list", {"type": "call", "player": 0, "call": ["stuck"]}, "bad_value"),
    ("dump without tile", {"type": "call", "player": 0, "call": "dump"}, "missing_field"),
    ("dump tile a number", {"type": "call", "player": 0, "call": "dump", "tile": 1}, "bad_value"),
    ("dump tile not a letter", {"type": "call", "player": 0, "call": "dump", "tile": "1"}, "bad_letters"),
    ("bananas without grid", {"type": "call", "player": 0, "call": "bananas"}, "missing_field"),
    ("bananas grid a dict", {"type": "call", "player": 0, "call": "bananas", "grid": {"a": 1}}, "bad_value"),
    ("bananas grid malformed", {"type": "call", "player": 0, "call": "bananas", "grid": ["AB", "C"]}, "bad_grid"),
    ("grid player as string", {"type": "grid", "player": "me"}, "bad_value"),
]


@pytest.mark.parametrize("label, message, code", HOST_BAD, ids=[case[0] for case in HOST_BAD])
def test_bad_input_mid_hosted_game(hosted_with_remote, label, message, code):
    session = hosted_with_remote
    events_before = len(session.host.round.events)
    held_before = session.host.round.seats[0].held
    replies = send(session, message)
    assert error_code(replies) == code, replies
    assert len(session.host.round.events) == events_before and session.host.round.seats[0].held == held_before
    assert_still_serving(session)
    assert of_type(send(session, {"type": "grid", "player": 0}), "grid")
