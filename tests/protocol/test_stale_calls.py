"""Which state a call was made on (`seen`), stale calls and refusals (the example referee
that plays by these rules is tests/project/test_examples.py).

1. Seat mode in a `Session`: calls and stuck carry `seen`; a table or draw makes the bot decide
   again; a refused call is not repeated on the same state; a refused DUMP's tile comes back;
   no PEEL or BANANAS while a DUMP is unanswered.
2. Host mode: a remote call made before the player's latest tiles is stale, dropped without
   a penalty.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import of_type, send

from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.protocol.session import Session

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "seat_referee.py"
ENGINE = f"{sys.executable} -c 'from solver.cli.engine import engine; engine()'"


# -- 1. seat mode: seen, stale calls and refusals --------------------------------------------------


def seat(tiles: str = "CATMP", bunch: int = 40, active: int = 2, bot: str = "easy", **options) -> Session:
    session = Session()
    assert of_type(send(session, {"type": "options", "clock": "instant", "bot": bot, **options}), "options")
    replies = send(session, {"type": "new_hand", "tiles": tiles, "bunch": bunch, "active": active})
    session.first = replies  # type: ignore[attr-defined]
    return session


def held_by_engine(session: Session) -> TileCounts:
    shown = send(session, {"type": "grid"})[0]
    on_grid = Grid.from_rows(shown["grid"]).tiles() if shown["grid"] else TileCounts()
    return on_grid + TileCounts.from_letters(shown["hand"])


def test_calls_and_stuck_carry_the_count_of_draw_and_table_messages():
    session = seat()
    assert of_type(session.first, "call") == [{"type": "call", "call": "peel", "seen": 0}]
    replies = send(session, {"type": "table", "bunch": 30, "active": 2})
    assert of_type(replies, "call") == [{"type": "call", "call": "peel", "seen": 1}]  # decided again
    replies = send(session, {"type": "draw", "tiles": "S", "bunch": 28, "reason": "peel"})
    assert of_type(replies, "call")[0]["seen"] == 2
    stuck = seat("QQZXJ", bunch=1)
    assert of_type(stuck.first, "stuck") and of_type(stuck.first, "stuck")[0]["seen"] == 0


def test_a_refused_call_is_not_made_again_on_the_same_state():
    session = seat()
    replies = send(session, {"type": "notice", "event": "refused", "call": "peel", "seen": 0})
    assert not of_type(replies, "call") and of_type(replies, "stuck")[0]["seen"] == 0
    # the table changes: it may call again
    assert of_type(send(session, {"type": "table", "bunch": 40}), "call")[0]["seen"] == 1


def test_a_refusal_that_tells_the_table_lets_the_bot_decide_on_it():
    session = seat()
    replies = send(session, {"type": "notice", "event": "refused", "call": "peel", "bunch": 1, "active": 2})
    assert of_type(replies, "call")[0]["call"] == "bananas"  # the bunch is below the players: done


def test_a_refused_dump_gives_its_tile_back():
    session = seat("QQZXJAE", bunch=50)
    dump = of_type(session.first, "call")[0]
    assert dump["call"] == "dump"
    dealt = TileCounts.from_letters("QQZXJAE")
    assert held_by_engine(session) == dealt - TileCounts.from_letters(dump["tile"])  # out of the hand
    send(session, {"type": "notice", "event": "refused", "call": "dump", "tile": dump["tile"], "seen": 0})
    assert held_by_engine(session) == dealt  # back


def test_a_stale_dump_refused_after_the_bot_moved_on_gives_its_tile_back_too():
    session = seat("QQZXJAE", bunch=50)
    dump = of_type(session.first, "call")[0]
    replies = send(session, {"type": "draw", "tiles": "E", "bunch": 48, "reason": "peel"})  # crossed the dump
    later = of_type(replies, "call")
    assert all(call["seen"] == 1 for call in later)
    out = TileCounts.from_letters("".join(call.get("tile", "") for call in [dump, *later]))
    dealt = TileCounts.from_letters("QQZXJAEE")
    assert held_by_engine(session) == dealt - out
    send(session, {"type": "notice", "event": "refused", "call": "dump", "tile": dump["tile"], "seen": 0})
    assert held_by_engine(session) == dealt - out + TileCounts.from_letters(dump["tile"])


def test_no_peel_while_a_dump_is_unanswered():
    """The dumped tile is out of the hand, but until the referee answers, the hand is not known
    to be empty: the bot holds its PEEL until the DUMP's three tiles (or its refusal) arrive."""
    session = seat("QCATMP", bunch=50, bot="easy")
    first = of_type(session.first, "call")[0]
    if first["call"] != "dump":
        pytest.skip("this bot placed the Q")
    replies = send(session, {"type": "table", "bunch": 49})  # state changed: it decides again
    assert not [call for call in of_type(replies, "call") if call["call"] in ("peel", "bananas")]
    replies = send(session, {"type": "draw", "tiles": "EIS", "bunch": 47, "reason": "dump"})
    assert of_type(replies, "call")  # answered: it plays on


def test_a_refusal_naming_no_call_of_the_bot_is_out_of_order():
    session = seat()
    replies = send(session, {"type": "notice", "event": "refused", "call": "dump", "tile": "Z"})
    assert replies[0]["type"] == "error" and replies[0]["code"] == "out_of_order"


# -- 2. host mode: stale remote calls -----------------------------------------------------------------


def hosted() -> tuple[Session, list[dict]]:
    session = Session()
    send(session, {"type": "options", "clock": "realtime", "time_scale": 1})
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "greedy"}], "seed": 5})
    return session, replies


def test_a_remote_call_made_before_the_latest_tiles_is_stale_and_changes_nothing():
    session, replies = hosted()
    seen = len(of_type(replies, "tiles"))
    assert seen == 1  # the split
    hand = of_type(replies, "tiles")[0]["tiles"]
    seat = session.host.round.seats[0]
    session.host.round.give(0, TileCounts.from_letters("E"))  # a PEEL's tile, sent as the call crossed it
    events = len(session.host.round.events)
    reply = send(session, {"type": "call", "player": 0, "call": "dump", "tile": hand[0], "seen": seen})
    assert of_type(reply, "error")[0]["code"] == "stale"
    assert len(session.host.round.events) == events and seat.refused == 0
    reply = send(session, {"type": "call", "player": 0, "call": "dump", "tile": hand[0], "seen": seen + 1})
    assert of_type(reply, "ok")
    assert send(session, {"type": "call", "player": 0, "call": "stuck", "seen": 99})[0]["code"] == "bad_value"


def test_remote_calls_without_seen_are_judged_on_the_current_state():
    session, replies = hosted()
    hand = of_type(replies, "tiles")[0]["tiles"]
    assert of_type(send(session, {"type": "call", "player": 0, "call": "dump", "tile": hand[0]}), "ok")
