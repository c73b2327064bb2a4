"""The engine protocol (`solver.protocol.session`): the sans-IO `Session`, `run_stdio` and the
`bananas engine` command.

1. The conversation: hello, check without a game, seat mode (this file plays the
   front-end referee: it owns the bunch, deals from the English set with a seeded
   generator and checks the bot's BANANAS grid against exactly the tiles it dealt),
   the realtime clock driven with a fake `now`, and host mode (bots only; a bot and a
   remote player this file plays).
2. Bad input: every kind of malformed or ill-timed message gets an error with the right
   code, and the session keeps working (a `hello` afterwards is answered).
3. A seeded fuzz of >= 10,000 random and mutated messages against fresh and mid-game
   sessions of both modes: every reply is a dict with a "type", `Session` never raises,
   every `receive` returns within a time bound.
4. `run_stdio` over in-memory streams, and the real `bananas engine` over pipes.

The contract under test (module docstring of solver/protocol/session.py): "a bad message gets
an error and changes nothing, so a session survives anything a client sends"; "replies
echo the request's id". The "contract" section pins the gaps these tests once found.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time

import numpy as np
import pytest
from helpers import bananas_script, error_code, of_type, send, tiles

from solver.core.grid import Grid, validate
from solver.core.tiles import ENGLISH, TileCounts, draw
from solver.play.bots import make_bot
from solver.play.game import Rules, TableView
from solver.protocol import session as protocol
from solver.protocol.session import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Session,
)
from solver.protocol.stdio import run_stdio

CROSS = [".M.", "CAT", ".P."]  # CAT across, MAP down through its A
CHEAP_BOT = "easy:node_budget=30"


# -- helpers ---------------------------------------------------------------------------


def drain(session: Session, now: float = 0.0, limit: int = 20_000, step: float = 1e-6) -> tuple[list[dict], float]:
    """Tick at each wakeup until nothing is scheduled. A real driver's clock moves on
    between ticks, so each tick is a hair after the wakeup (the engine also tolerates a
    tick exactly at the wakeup: `test_host_realtime_tick_at_next_wakeup_makes_progress`)."""
    out: list[dict] = []
    for _ in range(limit):
        wakeup = session.next_wakeup()
        if wakeup is None:
            return out, now
        now = max(now, wakeup) + step
        out += session.tick(now)
    raise AssertionError("the session never went quiet")


def assert_still_serving(session: Session) -> None:
    replies = send(session, {"type": "hello", "id": "alive"})
    assert of_type(replies, "hello") and of_type(replies, "hello")[0]["id"] == "alive"


def seat_session(bot: str = CHEAP_BOT, clock: str = "instant", **options) -> Session:
    session = Session()
    replies = send(session, {"type": "options", "clock": clock, "bot": bot, **options})
    assert of_type(replies, "options"), replies
    return session


def host_session(clock: str = "instant", **options) -> Session:
    session = Session()
    assert of_type(send(session, {"type": "options", "clock": clock, **options}), "options")
    return session


# -- hello and check ---------------------------------------------------------------------


def test_hello_reports_version_lexicons_variants_bots_modes_and_echoes_ids():
    session = Session()
    reply = send(session, {"type": "hello", "id": "h-1"})
    assert len(reply) == 1
    hello = reply[0]
    assert hello["type"] == "hello" and hello["id"] == "h-1"
    assert hello["protocol"] == PROTOCOL_VERSION == 1
    assert {"en", "fr"} <= set(hello["lexicons"])
    assert set(hello["variants"]) == {"classic", "smoothie", "solo"}
    assert {"easy", "medium", "hard", "greedy"} <= set(hello["bots"])
    assert set(hello["modes"]) == {"seat", "host"}
    assert set(hello["clocks"]) == {"realtime", "instant"}
    assert hello["max_message_bytes"] == MAX_MESSAGE_BYTES
    # every bot the engine advertises can be made
    for bot in hello["bots"]:
        make_bot(bot)
    # integer ids too, on ordinary replies and on errors
    assert send(session, {"type": "hello", "id": 42})[0]["id"] == 42
    error = send(session, {"type": "draw", "tiles": "A", "id": 7})
    assert error == [{"type": "error", "code": "out_of_order", "message": error[0]["message"], "id": 7}]
    assert send(session, {"type": "nonsense", "id": "x"})[0]["id"] == "x"
    # no id, no id in the reply
    assert "id" not in send(session, {"type": "hello"})[0]


def test_check_valid_grid_without_a_game(en):
    grid_tiles = Grid.from_rows(CROSS).tiles()  # the grid's real letters: C A T M P
    assert grid_tiles == tiles("CATMP")
    reply = send(Session(), {"type": "check", "grid": CROSS, "tiles": grid_tiles.letters(), "id": 1})
    assert len(reply) == 1
    check = reply[0]
    assert check["type"] == "check" and check["id"] == 1
    assert check["valid"] is True
    assert sorted(check["words"]) == ["CAT", "MAP"]
    assert check["invalid_words"] == [] and check["problems"] == []
    assert check["missing"] == "" and check["extra"] == ""
    # the text notation works too, and so does leaving the tiles out
    assert send(Session(), {"type": "check", "grid": ".M.\nCAT\n.P.\n"})[0]["valid"] is True


def test_check_reports_an_invalid_word_with_its_cells():
    check = send(Session(), {"type": "check", "grid": ["CAT", ".X.", ".P."]})[0]
    assert check["valid"] is False
    assert check["invalid_words"] == [{"word": "AXP", "direction": "down", "cells": [[0, 1], [1, 1], [2, 1]]}]
    assert any("AXP" in problem for problem in check["problems"])


def test_check_reports_a_disconnected_grid():
    check = send(Session(), {"type": "check", "grid": ["CAT", "...", "DOG"]})[0]
    assert check["valid"] is False
    assert check["components"] == 2
    assert sorted(map(len, check["component_cells"])) == [3, 3]
    assert any("not connected" in problem for problem in check["problems"])


def test_check_reports_missing_and_extra_tiles():
    session = Session()
    # CATMAP has one A too many for the cross (the A is shared by CAT and MAP)
    missing = send(session, {"type": "check", "grid": CROSS, "tiles": "CATMAP"})[0]
    assert missing["valid"] is False and missing["missing"] == "A" and missing["extra"] == ""
    extra = send(session, {"type": "check", "grid": CROSS, "tiles": "CATM"})[0]
    assert extra["valid"] is False and extra["extra"] == "P" and extra["missing"] == ""
    both = send(session, {"type": "check", "grid": CROSS, "tiles": "CATMZ"})[0]
    assert both["missing"] == "Z" and both["extra"] == "P"


def test_check_honours_min_length_and_lexicon_fields():
    session = Session()
    assert send(session, {"type": "check", "grid": ["AT"], "min_length": 2})[0]["valid"] is True
    assert send(session, {"type": "check", "grid": ["AT"], "min_length": 3})[0]["valid"] is False
    assert send(session, {"type": "check", "grid": ["CHAT"], "lexicon": "fr"})[0]["valid"] is True


# -- seat mode: this test is the front-end referee --------------------------------------


def test_seat_instant_new_hand_replies_ready_then_a_peel_call():
    rng = np.random.default_rng(11)
    hand = draw(ENGLISH, 21, rng)
    session = seat_session("easy")
    replies = send(session, {"type": "new_hand", "tiles": hand.letters(), "bunch": 60, "active": 4, "id": "n"})
    assert [reply["type"] for reply in replies] == ["ready", "call"]
    assert replies[0] == {"type": "ready", "tiles": hand.letters(), "id": "n"}
    assert replies[1] == {"type": "call", "call": "peel", "seen": 0}
    grid = send(session, {"type": "grid"})[0]
    assert grid["hand"] == "" and Grid.from_rows(grid["grid"]).tiles() == hand
    assert session.next_wakeup() is None


class Referee:
    """A front-end refereeing a two-player table: our bot (through the protocol) and a
    simulated opponent who only ever draws (on peels) and sometimes peels too."""

    def __init__(self, bot: str, seed: int):
        self.rng = np.random.default_rng(seed)
        self.bunch = ENGLISH
        self.dealt = self.deal(21)  # every tile the bot holds, as far as the referee knows
        self.opponent = self.deal(21)
        self.session = seat_session(bot, seed=seed)
        self.calls: list[str] = []

    def deal(self, count: int) -> TileCounts:
        drawn = draw(self.bunch, count, self.rng)
        self.bunch = self.bunch - drawn
        return drawn

    def the_call(self, replies: list[dict]) -> dict:
        calls = [reply for reply in replies if reply["type"] in ("call", "stuck")]
        assert len(calls) == 1, replies
        self.calls.append(calls[0].get("call", "stuck"))
        return calls[0]

    def play(self, lexicon, max_steps: int = 400) -> dict:
        replies = send(
            self.session, {"type": "new_hand", "tiles": self.dealt.letters(), "bunch": len(self.bunch), "active": 2}
        )
        assert replies[0]["type"] == "ready"
        for step in range(max_steps):
            call = self.the_call(replies)
            if call["type"] == "stuck":
                return call
            hand = tiles(send(self.session, {"type": "grid"})[0]["hand"])
            # the ledger never drifts: the bot holds what the referee dealt (less a tile it dumps)
            assert self.session.seat.bot.holding() == self.dealt - tiles(call.get("tile") or "")
            if call["call"] == "peel":
                assert hand == TileCounts(), "PEEL with tiles in hand"
                assert len(self.bunch) >= 2, "PEEL with fewer bunch tiles than players"
                mine = self.deal(1)
                if step % 3 == 1 and len(self.bunch) >= 3:  # the opponent peeled at the same moment
                    assert of_type(
                        send(
                            self.session, {"type": "notice", "event": "peel", "player": 1, "bunch": len(self.bunch) - 2}
                        ),
                        "ok",
                    )
                    mine = mine + self.deal(1)
                    self.opponent = self.opponent + self.deal(1)
                self.opponent = self.opponent + self.deal(1)
                self.dealt = self.dealt + mine
                if step % 5 == 0:
                    assert of_type(send(self.session, {"type": "table", "bunch": len(self.bunch), "active": 2}), "ok")
                replies = send(self.session, {"type": "draw", "tiles": mine.letters(), "bunch": len(self.bunch)})
                assert of_type(replies, "ok")
            elif call["call"] == "dump":
                returned = tiles(call["tile"])
                assert len(returned) == 1
                assert len(self.bunch) + 1 >= 3, "DUMP with fewer than 3 tiles to draw"
                assert self.dealt.contains(returned), "dumped a tile it was never dealt"
                self.dealt = self.dealt - returned
                self.bunch = self.bunch + returned
                drawn = self.deal(3)
                self.dealt = self.dealt + drawn
                replies = send(self.session, {"type": "draw", "tiles": drawn.letters(), "bunch": len(self.bunch)})
            else:
                assert call["call"] == "bananas"
                assert len(self.bunch) < 2, "BANANAS before the bunch ran out"
                report = validate(Grid.from_rows(call["grid"]), lexicon, self.dealt)
                assert report.ok, report.problems()
                assert of_type(send(self.session, {"type": "notice", "event": "win", "player": "you"}), "ok")
                return call
        raise AssertionError(f"no BANANAS after {max_steps} calls: {self.calls}")


@pytest.mark.parametrize("bot, seed", [("easy", 3), ("greedy", 1), ("medium", 5)])
def test_seat_full_game_as_referee_ends_with_a_valid_bananas(en, bot, seed):
    referee = Referee(bot, seed)
    final = referee.play(en)
    assert final["type"] == "call" and final["call"] == "bananas"
    assert referee.calls.count("peel") >= 20
    # the whole 144-tile set is accounted for: bunch + opponent + bot
    assert referee.bunch + referee.opponent + referee.dealt == ENGLISH
    # after the end, options can change again and a new hand starts
    assert of_type(send(referee.session, {"type": "options", "clock": "instant"}), "options")
    assert of_type(send(referee.session, {"type": "new_hand", "tiles": "CATMP", "bunch": 0, "active": 1}), "ready")


def test_seat_dump_returns_a_tile_from_the_hand_and_play_continues_after_drawing_three():
    session = seat_session("easy")
    hand = tiles("QQZXJAE")  # no easy word uses two Qs, a Z, an X and a J with two vowels
    replies = send(session, {"type": "new_hand", "tiles": hand.letters(), "bunch": 80, "active": 2})
    dump = of_type(replies, "call")[0]
    assert dump["call"] == "dump"
    assert hand.contains(tiles(dump["tile"])) and len(dump["tile"]) == 1
    assert dump["tile"] == "Q"  # the easy preset dumps the hardest letter
    held = hand - tiles(dump["tile"])
    assert session.seat.bot.holding() == held  # given back on the call
    replies = send(session, {"type": "draw", "tiles": "EIO", "bunch": 78})
    assert of_type(replies, "ok")[0]["hand"] != ""  # still unplaced tiles
    follow_up = [reply for reply in replies if reply["type"] in ("call", "stuck")]
    assert len(follow_up) == 1  # it keeps playing: another call (or stuck)
    assert session.seat.bot.holding() == held + tiles("EIO") - (
        tiles(follow_up[0]["tile"]) if follow_up[0].get("call") == "dump" else TileCounts()
    )


def test_seat_stuck_when_it_cannot_finish_and_cannot_dump():
    session = seat_session("easy")
    replies = send(session, {"type": "new_hand", "tiles": "QQZXJAE", "bunch": 1, "active": 2})
    assert of_type(replies, "stuck") and not of_type(replies, "call")
    assert tiles(of_type(replies, "stuck")[0]["hand"]).contains(tiles("QQ"))
    # a table update that changes nothing leaves it stuck; it still answers
    assert of_type(send(session, {"type": "table", "bunch": 1}), "ok")


def test_seat_realtime_calls_are_not_emitted_before_their_due_time():
    session = seat_session("easy", clock="realtime", time_scale=1000)
    replies = send(session, {"type": "new_hand", "tiles": "CATMP", "bunch": 60, "active": 4}, now=0.0)
    assert [reply["type"] for reply in replies] == ["ready"]
    due = session.next_wakeup()
    assert due is not None and 0 < due < 1.0  # a few simulated seconds / 1000
    assert session.tick(now=due / 2) == []
    assert session.tick(now=due * 0.999) == []
    assert session.tick(now=due) == [{"type": "call", "call": "peel", "seen": 0}]
    assert session.next_wakeup() is None
    assert session.tick(now=due + 10) == []


def test_seat_realtime_a_draw_before_the_call_lands_replaces_the_planned_call():
    session = seat_session("easy", clock="realtime", time_scale=1000)
    send(session, {"type": "new_hand", "tiles": "CATMP", "bunch": 60, "active": 4}, now=0.0)
    first_due = session.next_wakeup()
    replies = send(session, {"type": "draw", "tiles": "S", "bunch": 59}, now=first_due / 2)
    assert of_type(replies, "ok") and not of_type(replies, "call")
    second_due = session.next_wakeup()
    assert second_due > first_due / 2
    if second_due > first_due:
        assert session.tick(now=first_due) == []  # the first plan is void
    assert session.tick(now=second_due * 0.999) == []
    assert session.tick(now=second_due) == [{"type": "call", "call": "peel", "seen": 1}]
    assert Grid.from_rows(send(session, {"type": "grid"}, now=second_due)[0]["grid"]).tiles() == tiles("CATMPS")


# -- host mode: the engine referees --------------------------------------------------------


def tracked_hand(replies: list[dict], player: int, start: TileCounts | None = None) -> TileCounts:
    held = start or TileCounts()
    for reply in replies:
        if reply["type"] == "tiles" and reply["player"] == player:
            held = held + tiles(reply["tiles"])
    return held


@pytest.mark.parametrize("bots, seed", [(["easy", "greedy"], 1), (["greedy", "greedy"], 2), (["easy", "medium"], 7)])
def test_host_instant_two_bots_play_to_game_over_with_a_valid_winning_grid(en, bots, seed):
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"bot": bot} for bot in bots], "seed": seed})
    out, _ = drain(session)
    replies += out
    assert replies[0] == {"type": "game", "players": bots, "seed": seed}
    events = of_type(replies, "event")
    assert events[0]["event"] == "split"
    assert [event["t"] for event in events] == sorted(event["t"] for event in events)
    assert not of_type(replies, "tiles")  # no remote players: nobody's private tiles are sent
    assert not of_type(replies, "error")
    game_over = of_type(replies, "game_over")
    assert len(game_over) == 1 and replies[-1]["type"] == "game_over"
    over = game_over[0]
    assert over["outcome"] in ("win", "shared", "unawarded")
    for winner in over["winners"]:
        grid = Grid.from_rows(over["grids"][winner])
        report = validate(grid, en, session.host.round.seats[winner].held)
        assert report.ok, report.problems()
    session.host.round.check_invariant()
    assert session.next_wakeup() is None
    # the finished game frees the session: options and a new game are accepted
    assert of_type(send(session, {"type": "options", "seed": 9}), "options")


def test_host_instant_one_bot_one_remote_split_dump_stuck_game_over(en):
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 4})
    assert replies[0] == {"type": "game", "players": ["me", "easy"], "seed": 4}
    split = of_type(replies, "tiles")
    assert split[0]["player"] == 0 and split[0]["reason"] == "split" and len(split[0]["tiles"]) == 21
    hand = tracked_hand(replies, 0)
    assert hand == session.host.round.seats[0].held
    # the public split event tells hand sizes, not letters
    split_event = of_type(replies, "event")[0]
    assert split_event["event"] == "split" and split_event["hands"] == [21, 21]

    # a dump of a tile it does not hold: not_your_tile, no dump happens
    absent = next(letter for letter in "QZXJKVWYFHBCMPGUDLNRTOIASE" if hand[letter] == 0)

    def own_dumps() -> int:  # the bot may dump meanwhile
        return sum(event["event"] == "dump" and event["player"] == 0 for event in session.host.round.events)

    dumps_before = own_dumps()
    replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": absent, "id": "d0"})
    assert replies[0] == {"type": "error", "code": "not_your_tile", "message": replies[0]["message"], "id": "d0"}
    assert own_dumps() == dumps_before
    assert not [r for r in replies if r["type"] == "event" and r["event"] == "dump" and r["player"] == 0]
    hand = tracked_hand(replies, 0, hand)
    assert hand == session.host.round.seats[0].held  # only peel draws changed it

    # two tiles at once, a lower-case letter, an empty tile: refused too
    for tile in (hand.letters()[:2], "", "?"):
        assert error_code(send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile})) in (
            "not_your_tile",
            "bad_letters",
        )
    hand = session.host.round.seats[0].held

    # a valid dump: one tile back, three drawn, sent as a tiles message
    tile = hand.letters()[0]
    bunch_before = len(session.host.round.bunch)
    replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile.lower()})
    assert of_type(replies, "ok")
    dumped = [r for r in replies if r["type"] == "tiles" and len(r["tiles"]) == 3]
    assert len(dumped) == 1 and dumped[0]["player"] == 0
    dump_event = [r for r in replies if r["type"] == "event" and r["event"] == "dump"]
    assert dump_event and dump_event[-1]["player"] == 0 and dump_event[-1]["drawn"] == 3
    assert "returned" not in dump_event[-1]  # public: which tile went back is private
    hand = tracked_hand(replies, 0, hand - tiles(tile))
    assert hand == session.host.round.seats[0].held
    assert len(session.host.round.bunch) <= bunch_before - 2

    # stuck: public stuck event for the remote player
    replies = send(session, {"type": "call", "player": 0, "call": "stuck"})
    stuck = [r for r in replies if r["type"] == "event" and r["event"] == "stuck" and r["player"] == 0]
    assert stuck and of_type(replies, "ok")
    hand = tracked_hand(replies, 0, hand)

    # the bot plays on; the game ends (each PEEL of the bot hands the remote a tile and so
    # a new decision: it says stuck again, until the bot wins or is stuck too)
    out, _ = drain(session)
    for _ in range(100):
        if of_type(replies + out, "game_over"):
            break
        out += send(session, {"type": "call", "player": 0, "call": "stuck"})
        out += drain(session)[0]
    replies += out
    hand = tracked_hand(out, 0, hand)
    assert hand == session.host.round.seats[0].held  # every tile the remote got was announced to it
    over = of_type(replies, "game_over")
    assert len(over) == 1
    for winner in over[0]["winners"]:
        assert winner == 1
        assert validate(Grid.from_rows(over[0]["grids"][1]), en, session.host.round.seats[1].held).ok
    session.host.round.check_invariant()
    # calls for the bot's seat are refused
    assert error_code(send(session, {"type": "call", "player": 1, "call": "peel"})) == "bad_value"


def test_host_remote_bananas_with_a_wrong_grid_goes_rotten_then_the_bot_finishes(en):
    """Realtime clock with a fake `now` held at 0: the bot's first call is seconds of
    simulated time away, so the remote player dumps the bunch down first."""
    session = host_session(clock="realtime", time_scale=1000)
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 3}, now=0.0)
    hand = tracked_hand(replies, 0)
    dumps = 0
    while len(session.host.round.bunch) >= 2:
        tile = hand.letters()[dumps % len(hand)]
        replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile}, now=0.0)
        assert of_type(replies, "ok"), replies
        hand = tracked_hand(replies, 0, hand - tiles(tile))
        dumps += 1
        assert dumps <= 60
    assert hand == session.host.round.seats[0].held and len(hand) == 21 + 2 * dumps
    session.host.round.check_invariant()

    replies = send(session, {"type": "call", "player": 0, "call": "bananas", "grid": ["ZZZ"]}, now=0.0)
    rotten = [r for r in replies if r["type"] == "event" and r["event"] == "rotten"]
    assert len(rotten) == 1 and rotten[0]["player"] == 0 and rotten[0]["problems"]
    assert rotten[0]["bunch"] == 144 - 21  # every tile of the rotten hand is back in the bunch
    assert error_code(send(session, {"type": "call", "player": 0, "call": "stuck"}, now=0.0)) == "out_of_order"

    out, _ = drain(session)
    over = of_type(out, "game_over")
    assert len(over) == 1 and over[0]["outcome"] == "win" and over[0]["winners"] == [1]
    assert over[0]["grids"][0] is None
    assert validate(Grid.from_rows(over[0]["grids"][1]), en, session.host.round.seats[1].held).ok
    session.host.round.check_invariant()


def test_host_instant_remote_bananas_with_an_invalid_grid_goes_rotten():
    """Instant clock, with a bot that is stuck from the start (no search budget, never
    dumps), so the remote player can dump the bunch down and call BANANAS itself."""
    session = host_session()
    replies = send(
        session,
        {
            "type": "start_game",
            "seed": 3,
            "players": [{"remote": "me"}, {"bot": "easy:dump_policy=never,node_budget=1"}],
        },
    )
    seen = list(replies)
    hand = tracked_hand(replies, 0)
    bunch = of_type(replies, "event")[0]["bunch"]
    while bunch >= 2:
        tile = hand.letters()[-1]
        replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile})
        seen += replies
        dump = [r for r in replies if r["type"] == "event" and r["event"] == "dump"]
        assert len(dump) == 1 and dump[0]["bunch"] == bunch - 2, replies
        bunch = dump[0]["bunch"]
        hand = tracked_hand(replies, 0, hand - tiles(tile))
    assert hand == session.host.round.seats[0].held
    # The bot's stuck mark lands once its (failed) work is done, as the clock moves on.
    assert [r for r in seen if r["type"] == "event" and r["event"] == "stuck" and r["player"] == 1]
    # BANANAS with a grid that is not its tiles (and not even words)
    replies = send(session, {"type": "call", "player": 0, "call": "bananas", "grid": ["QXZ", "J.."]})
    kinds = [(r["type"], r.get("event")) for r in replies]
    assert ("event", "bananas") in kinds and ("event", "rotten") in kinds
    rotten = [r for r in replies if r.get("event") == "rotten"][0]
    assert rotten["player"] == 0 and any("not a word" in p for p in rotten["problems"])
    # the stuck bot alone cannot finish: the hand ends unawarded
    out, _ = drain(session)
    over = of_type(replies + out, "game_over")
    assert len(over) == 1 and over[0]["outcome"] == "unawarded" and over[0]["winners"] == []
    session.host.round.check_invariant()


def test_host_remote_stuck_with_stuck_bots_ends_the_game():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "a"}, {"remote": "b"}], "seed": 1}, now=0.0)
    _, now = drain(session)  # the deal's first moment: the clock starts once the deal is out
    assert session.next_wakeup() is None  # only the remote players can move
    replies = send(session, {"type": "call", "player": 0, "call": "stuck"}, now=now + 0.1)
    assert not of_type(replies, "game_over")
    replies = send(session, {"type": "call", "player": 1, "call": "stuck"}, now=now + 0.2)
    over = of_type(replies, "game_over")
    assert over and over[0]["outcome"] == "unawarded"
    session.host.round.check_invariant()


def test_host_realtime_events_wait_for_the_wall_clock():
    session = host_session(clock="realtime", time_scale=100)
    replies = send(
        session, {"type": "start_game", "players": [{"bot": "greedy"}, {"bot": "greedy"}], "seed": 2}, now=0.0
    )
    assert [r["event"] for r in of_type(replies, "event")] == ["split"]
    wakeup = session.next_wakeup()
    assert wakeup is not None and wakeup > 0
    assert session.tick(now=wakeup * 0.99) == []
    # a running game refuses options, new games and seat hands
    assert error_code(send(session, {"type": "options", "seed": 1}, now=0.0)) == "out_of_order"
    assert error_code(send(session, {"type": "start_game", "players": [{"bot": "greedy"}]}, now=0.0)) == "out_of_order"
    assert error_code(send(session, {"type": "new_hand", "tiles": "CAT"}, now=0.0)) == "out_of_order"
    out, _ = drain(session)
    assert of_type(out, "game_over")


# -- contract gaps these tests found (now fixed; kept as regression tests) ------------------


def test_host_realtime_tick_at_next_wakeup_makes_progress():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"bot": "easy"}], "seed": 3}, now=0.0)
    for _ in range(400):
        wakeup = session.next_wakeup()
        if wakeup is None:
            break
        events_before = len(session.host.round.events)
        queue_before = list(session.host.round.queue)
        session.tick(wakeup)
        assert len(session.host.round.events) > events_before or session.host.round.queue != queue_before, (
            f"tick({wakeup!r}) at next_wakeup() did nothing"
        )
    assert session.host.round.result is not None


def test_start_game_reply_echoes_the_id():
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"bot": "greedy"}], "seed": 1, "id": "g"})
    assert of_type(replies, "game")[0].get("id") == "g"


def test_call_after_game_over_is_out_of_order():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "a"}, {"remote": "b"}], "seed": 1}, now=0.0)
    send(session, {"type": "call", "player": 0, "call": "stuck"})
    assert of_type(send(session, {"type": "call", "player": 1, "call": "stuck"}), "game_over")
    assert (
        error_code(
            send(
                session,
                {"type": "call", "player": 0, "call": "dump", "tile": session.host.round.seats[0].held.letters()[0]},
            )
        )
        == "out_of_order"
    )


def complete_grid_for(letters: TileCounts) -> Grid | None:
    bot = make_bot("hard")
    bot.start(letters, Rules(), 0)
    decision = bot.decide(TableView(bunch=100, active=2, rules=Rules()))
    return bot.current_grid() if decision.action == "peel" else None


def test_remote_player_with_every_tile_placed_can_peel(en):
    for seed in range(10):
        session = host_session(clock="realtime", time_scale=1000)
        replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": seed})
        hand = tracked_hand(replies, 0)
        grid = complete_grid_for(hand)
        if grid is not None:
            break
    assert grid is not None and validate(grid, en, hand).ok
    replies = send(session, {"type": "call", "player": 0, "call": "peel", "grid": grid.to_json()})
    peels = [r for r in replies if r["type"] == "event" and r["event"] == "peel" and r["player"] == 0]
    assert peels, replies


def test_remote_call_the_rules_refuse_gets_an_error():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 3})
    replies = send(session, {"type": "call", "player": 0, "call": "bananas", "grid": CROSS})
    assert error_code(replies) == "out_of_order", replies


def test_remote_early_bananas_does_not_break_later_dumps():
    session = host_session(clock="realtime", time_scale=1000)
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 3})
    hand = tracked_hand(replies, 0)
    send(session, {"type": "call", "player": 0, "call": "bananas", "grid": ["ZZZZZZZZZ"]})
    replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": hand.letters()[0]})
    assert error_code(replies) is None, replies
    assert [r for r in replies if r["type"] == "tiles" and len(r["tiles"]) == 3]


def test_failed_new_hand_leaves_the_session_working():
    session = seat_session("easy")
    assert error_code(send(session, {"type": "options", "seed": -1})) == "bad_value"  # refused up front
    send(session, {"type": "new_hand", "tiles": "CATMP", "bunch": 10})
    for message in ({"type": "draw", "tiles": "S", "bunch": 9}, {"type": "table", "bunch": 8}, {"type": "grid"}):
        send(session, message)
    assert_still_serving(session)


def test_refused_draw_changes_nothing():
    session = seat_session("easy")
    send(session, {"type": "new_hand", "tiles": "CATMP", "bunch": 10})
    before = send(session, {"type": "grid"})[0]
    assert error_code(send(session, {"type": "draw", "tiles": "E" * 1200, "bunch": 9})) == "bad_value"
    assert send(session, {"type": "grid"})[0] == before


def test_start_game_with_a_bot_that_cannot_start_is_refused_and_the_session_survives():
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"bot": "easy:level=7"}, {"bot": "greedy"}]})
    assert error_code(replies) == "bad_value"
    assert_still_serving(session)


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


# -- bad input ---------------------------------------------------------------------------------

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


# -- fuzz ----------------------------------------------------------------------------------

FUZZ_MESSAGES = 6_000  # the systematic sweep of every field is tests/test_fuzz_protocol.py
FUZZ_TIME_BOUND = 2.0  # seconds per receive

TEMPLATES = [
    {"type": "hello", "id": 1},
    {
        "type": "options",
        "clock": "instant",
        "bot": CHEAP_BOT,
        "seed": 3,
        "min_length": 2,
        "lexicon": "en",
        "variant": "classic",
        "time_scale": 50,
    },
    {"type": "options", "bot": "greedy", "clock": "realtime"},
    {"type": "check", "grid": CROSS, "tiles": "CATMP", "min_length": 2, "id": "c"},
    {"type": "check", "grid": "CAT\n.A.\n.B.", "lexicon": "en"},
    {"type": "new_hand", "tiles": "AEIRSTLNOCATE", "bunch": 40, "active": 2},
    {"type": "draw", "tiles": "E", "bunch": 30},
    {"type": "table", "bunch": 20, "active": 3},
    {"type": "notice", "event": "peel", "player": 1, "bunch": 19},
    {"type": "notice", "event": "rotten", "player": "you"},
    {"type": "grid"},
    {"type": "grid", "player": 0},
    {"type": "start_game", "players": [{"bot": CHEAP_BOT}, {"remote": "x"}], "seed": 5},
    {"type": "start_game", "players": [{"bot": CHEAP_BOT}, {"bot": "greedy"}, {"remote": "y"}], "seed": 6},
    {"type": "call", "player": 0, "call": "dump", "tile": "E"},
    {"type": "call", "player": 0, "call": "bananas", "grid": ["CAT"]},
    {"type": "call", "player": 0, "call": "stuck"},
    {"type": "call", "player": 0, "call": "peel"},
    {"type": "call", "player": 1, "call": "dump", "tile": "A"},
    {"type": "quit"},
]
TYPES = sorted(protocol.HANDLERS) + ["", "HELLO", "error", "ok", "event", "game_over", "tiles"]


def random_text(rng: random.Random, size: int = 12) -> str:
    alphabet = rng.choice(
        [
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "abcdefghijklmnopqrstuvwxyz.",
            'ÉéßſıÆ漢字\u200b\n\t"\\',
            "AEIOU.",
            "0123456789-+eE.",
            '{}[]:," ',
        ]
    )
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, size)))


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(12 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, 2, 3, -1, -(2**31), 2**31, 2**63, 10**30, -(10**30), 10_000, 10_001])
    if kind == 3:
        return rng.randint(-5, 150)
    if kind == 4:
        return rng.choice([0.0, 0.5, -0.0, 1e-300, 1e300, 2.0, float("nan"), float("inf"), -float("inf")])
    if kind in (5, 6, 7):
        return random_text(rng, rng.choice([3, 12, 40]))
    if kind in (8, 9):
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {random_text(rng, 6): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def swap_kind(rng: random.Random, value):
    """A value of another JSON kind than `value`."""
    options = [None, True, 0, -1, 1.5, "", "X", [], [value], {}, {"v": value}, 10**20]
    return rng.choice([option for option in options if type(option) is not type(value)])


def mutate(rng: random.Random, message: dict) -> dict:
    message = json.loads(json.dumps(message))
    for _ in range(rng.randint(1, 3)):
        keys = list(message)
        action = rng.randrange(7)
        if action == 0 and keys:
            message.pop(rng.choice(keys))
        elif action == 1 and keys:
            key = rng.choice(keys)
            message[key] = swap_kind(rng, message[key])
        elif action == 2 and keys:
            message[rng.choice(keys)] = random_value(rng)
        elif action == 3:
            message[
                rng.choice(
                    [
                        "id",
                        "tiles",
                        "grid",
                        "player",
                        "bunch",
                        "active",
                        "seed",
                        "call",
                        "tile",
                        "event",
                        "players",
                        random_text(rng, 5),
                    ]
                )
            ] = random_value(rng)
        elif action == 4:
            message["type"] = rng.choice(TYPES)
        elif action == 5 and isinstance(message.get("players"), list):
            message["players"] = [
                rng.choice([{"bot": "greedy"}, {"remote": random_text(rng)}, {"bot": CHEAP_BOT}, random_value(rng)])
                for _ in range(rng.randint(0, 9))
            ]
        elif action == 6 and "tiles" in message:
            message["tiles"] = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(0, 40)))
    return message


def fuzz_line(rng: random.Random):
    kind = rng.randrange(10)
    template = rng.choice(TEMPLATES)
    if kind <= 4:
        return json.dumps(mutate(rng, template))
    if kind == 5:
        return json.dumps(random_value(rng))
    if kind == 6:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    if kind == 7:
        line = json.dumps(template)
        return line[: rng.randrange(len(line))]
    if kind == 8:
        return json.dumps(template)
    # a valid message with bytes flipped
    raw = bytearray(json.dumps(template).encode())
    for _ in range(rng.randint(1, 4)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    return bytes(raw)


def fuzz_sessions(rng: random.Random) -> list[Session]:
    """Fresh, mid-seat-hand and mid-hosted-game sessions (both clocks)."""
    fresh = Session()
    seat = seat_session(CHEAP_BOT, seed=rng.randrange(1000))
    send(
        seat,
        {
            "type": "new_hand",
            "tiles": draw(ENGLISH, 21, np.random.default_rng(rng.randrange(1000))).letters(),
            "bunch": 60,
            "active": 3,
        },
    )
    seat_realtime = seat_session("greedy", clock="realtime", time_scale=20)
    send(seat_realtime, {"type": "new_hand", "tiles": "AEIRSTLNOCATE", "bunch": 30, "active": 2})
    host_remote = host_session()
    send(
        host_remote,
        {
            "type": "start_game",
            "players": [{"remote": "a"}, {"bot": CHEAP_BOT}, {"remote": "b"}],
            "seed": rng.randrange(1000),
        },
    )
    host_realtime = host_session(clock="realtime", time_scale=50)
    send(
        host_realtime,
        {"type": "start_game", "players": [{"bot": CHEAP_BOT}, {"remote": "r"}], "seed": rng.randrange(1000)},
    )
    return [fresh, seat, seat_realtime, host_remote, host_realtime]


def fuzz_flow(rng: random.Random) -> list:
    """A plausible conversation (seat or host), each message mutated with some chance:
    reaches the states single random messages rarely do."""
    seed = rng.choice([0, 1, 7, 99, -1, 2**40])
    letters = "".join(rng.choice("AEIOURSTLNCDMPBGHQZXJ") for _ in range(rng.randint(1, 25)))
    if rng.random() < 0.5:
        flow = [
            {
                "type": "options",
                "clock": rng.choice(["instant", "realtime"]),
                "time_scale": 100,
                "bot": rng.choice([CHEAP_BOT, "greedy"]),
                "seed": seed,
            },
            {"type": "new_hand", "tiles": letters, "bunch": rng.randint(0, 80), "active": rng.randint(1, 4)},
            {"type": "draw", "tiles": rng.choice(["E", "QZ", "AEI"]), "bunch": rng.randint(0, 80)},
            {"type": "table", "bunch": rng.randint(0, 80), "active": rng.randint(1, 4)},
            {
                "type": "notice",
                "event": rng.choice(["peel", "dump", "bananas", "rotten", "valid", "win", "end"]),
                "player": rng.choice([1, "you"]),
            },
            {"type": "grid"},
            {"type": "draw", "tiles": "S", "bunch": 0},
            {"type": "options", "seed": seed},
        ]
    else:
        players = [
            rng.choice([{"bot": "greedy"}, {"bot": CHEAP_BOT}, {"bot": CHEAP_BOT}, {"remote": "r"}])
            for _ in range(rng.randint(1, 3))
        ]
        if rng.random() < 0.8:  # a whole bots-only game per flow would dominate the run time
            players.insert(rng.randrange(len(players) + 1), {"remote": "me"})
        flow = [
            {"type": "options", "clock": rng.choice(["instant", "realtime"]), "time_scale": 1000, "seed": seed},
            {"type": "start_game", "players": players, "seed": rng.choice([seed, 3])},
        ]
        for _ in range(rng.randint(1, 6)):
            player = rng.randrange(len(players) + 1)
            flow.append(
                rng.choice(
                    [
                        {"type": "call", "player": player, "call": "dump", "tile": rng.choice(letters + "E")},
                        {"type": "call", "player": player, "call": "stuck"},
                        {"type": "call", "player": player, "call": "peel"},
                        {
                            "type": "call",
                            "player": player,
                            "call": "bananas",
                            "grid": rng.choice([CROSS, ["ZZ"], "CAT"]),
                        },
                        {"type": "grid", "player": player},
                    ]
                )
            )
    return [json.dumps(mutate(rng, message)) if rng.random() < 0.25 else json.dumps(message) for message in flow]


def run_fuzz(seed: int, messages: int) -> dict:
    """`messages` lines at a pool of sessions; returns the slowest receive and every
    failure as (seed, index, session, line, error) so that it can be replayed."""
    rng = random.Random(seed)
    sessions = fuzz_sessions(rng)
    now = 0.0
    worst = (0.0, None)
    failures = []
    queue: list = []
    which = 0
    for index in range(messages):
        if index and index % 1000 == 0:
            sessions = fuzz_sessions(rng)
            queue = []
        if queue:
            line = queue.pop(0)
        elif rng.random() < 0.1:
            which = rng.randrange(len(sessions))
            if rng.random() < 0.5:
                sessions[which] = Session()
            queue = fuzz_flow(rng)
            line = queue.pop(0)
        else:
            which = rng.randrange(len(sessions))
            line = fuzz_line(rng)
        session = sessions[which]
        now += rng.random() * 0.2
        started = time.perf_counter()
        try:
            replies = session.receive(line, now)
            if rng.random() < 0.2:
                replies = replies + session.tick(now + rng.random())
        except Exception as error:  # noqa: BLE001 - the contract is "never raises"
            failures.append(
                (
                    seed,
                    index,
                    which,
                    line if isinstance(line, bytes) else line[:300],
                    f"{type(error).__name__}: {error}",
                )
            )
            sessions[which] = Session()
            queue = []
            continue
        elapsed = time.perf_counter() - started
        if elapsed > worst[0]:
            worst = (elapsed, line if isinstance(line, bytes) else line[:200])
        for reply in replies:
            if not (isinstance(reply, dict) and isinstance(reply.get("type"), str)):
                failures.append((seed, index, which, line, f"bad reply {reply!r}"))
            else:
                try:
                    json.dumps(reply)
                except (TypeError, ValueError) as error:
                    failures.append((seed, index, which, line, f"unserialisable reply {reply!r}: {error}"))
    return {"worst": worst, "failures": failures}


@pytest.fixture(scope="module")
def fuzz_results():
    # warm the kernels and lexicons first: the bound is about steady-state work
    Referee("easy", 0).session.receive(json.dumps({"type": "new_hand", "tiles": "CATMP"}), 0.0)
    started = time.perf_counter()
    results = [run_fuzz(seed, FUZZ_MESSAGES // 3) for seed in (1, 2, 3)]
    return {
        "seconds": time.perf_counter() - started,
        "worst": max(result["worst"] for result in results),
        "failures": [failure for result in results for failure in result["failures"]],
    }


@pytest.mark.slow
def test_fuzz_sessions_never_raise_and_answer_fast(fuzz_results, capsys):
    worst, failures = fuzz_results["worst"], fuzz_results["failures"]
    with capsys.disabled():
        print(
            f"\nfuzz: {FUZZ_MESSAGES} messages in {fuzz_results['seconds']:.1f} s, slowest receive "
            f"{worst[0] * 1000:.1f} ms ({worst[1]!r:.100}); {len(failures)} failures"
        )
    assert not failures, "\n".join(map(repr, failures[:20]))
    assert worst[0] < FUZZ_TIME_BOUND, worst


# -- run_stdio and `bananas engine` ---------------------------------------------------------


def test_run_stdio_answers_each_line_and_stops_at_quit():
    lines = [
        json.dumps({"type": "hello", "id": 1}),
        "",  # blank lines are skipped
        json.dumps({"type": "check", "grid": CROSS, "tiles": "CATMP", "id": 2}),
        "not json",
        json.dumps({"type": "options", "clock": "instant", "bot": "easy"}),
        json.dumps({"type": "new_hand", "tiles": "CATMP", "bunch": 40, "active": 2, "id": 3}),
        json.dumps({"type": "quit", "id": 4}),
        json.dumps({"type": "hello", "id": "after quit"}),
    ]
    stdout = io.StringIO()
    run_stdio(io.StringIO("\n".join(lines) + "\n"), stdout)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert all(isinstance(reply, dict) and "type" in reply for reply in replies)
    assert [reply["type"] for reply in replies] == ["hello", "check", "error", "options", "ready", "call", "bye"]
    assert replies[0]["id"] == 1 and replies[1]["id"] == 2 and replies[1]["valid"] is True
    assert replies[2]["code"] == "bad_json"
    assert replies[5] == {"type": "call", "call": "peel", "seen": 0}
    assert replies[-1] == {"type": "bye", "id": 4}
    # compact JSON, one object per line
    assert all(" " not in line or '"' in line for line in stdout.getvalue().splitlines())


def test_run_stdio_stops_at_end_of_input_without_quit():
    stdout = io.StringIO()
    run_stdio(io.StringIO(json.dumps({"type": "hello"}) + "\n"), stdout)
    assert [json.loads(line)["type"] for line in stdout.getvalue().splitlines()] == ["hello"]


DIRECT_ENGINE = [sys.executable, "-c", "from solver.cli.engine import engine; engine()"]
SCRIPT = (
    json.dumps({"type": "hello", "id": 1})
    + "\n"
    + json.dumps({"type": "check", "grid": CROSS, "tiles": "CATMP", "id": 2})
    + "\n"
)


def run_engine(command: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, env=dict(os.environ))


def check_engine_transcript(done: subprocess.CompletedProcess, quit_sent: bool) -> None:
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    expected = ["hello", "check"] + (["bye"] if quit_sent else [])
    assert [reply["type"] for reply in replies] == expected
    assert replies[0]["protocol"] == 1 and replies[1]["valid"] is True
    assert "Traceback" not in done.stderr


def test_bananas_engine_console_script_over_pipes():
    command = [bananas_script(), "engine"]
    check_engine_transcript(run_engine(command, SCRIPT + json.dumps({"type": "quit"}) + "\n"), quit_sent=True)
    check_engine_transcript(run_engine(command, SCRIPT), quit_sent=False)  # EOF without quit


def test_engine_command_over_pipes_quit_and_eof():
    check_engine_transcript(run_engine(DIRECT_ENGINE, SCRIPT + json.dumps({"type": "quit"}) + "\n"), quit_sent=True)
    check_engine_transcript(run_engine(DIRECT_ENGINE, SCRIPT), quit_sent=False)


class EngineProcess:
    """`bananas engine` in a child process, read with select() and a deadline (a
    blocking readline would hang the test run if the engine never answers)."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            env=dict(os.environ),
        )
        self.pending = b""

    def write(self, *messages: dict) -> None:
        """All the messages in one write (as a client that pipelines requests does)."""
        self.process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.process.stdin.flush()

    def read(self, timeout: float = 20.0) -> dict | None:
        import select

        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            readable, _, _ = select.select([self.process.stdout], [], [], left)
            if readable:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    return None
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> int | None:
        try:
            self.process.stdin.close()
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            return None
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.process.stderr.close()


def test_engine_process_realtime_call_lands_on_the_clock_not_on_input():
    """A real pipe: the realtime call comes from the select() timeout, with no input."""
    engine = EngineProcess(DIRECT_ENGINE)
    try:
        engine.write({"type": "options", "bot": "easy", "time_scale": 1000})
        assert engine.read()["type"] == "options"
        engine.write({"type": "new_hand", "tiles": "CATMP", "bunch": 40, "active": 2})
        assert engine.read()["type"] == "ready"
        assert engine.read() == {"type": "call", "call": "peel", "seen": 0}
        engine.write({"type": "quit"})
        assert engine.read()["type"] == "bye"
    finally:
        assert engine.close() == 0


def test_engine_process_answers_lines_that_arrive_together():
    engine = EngineProcess(DIRECT_ENGINE)
    try:
        engine.write({"type": "hello", "id": 1}, {"type": "hello", "id": 2})
        first, second = engine.read(), engine.read(timeout=5.0)
        assert first and first["id"] == 1
        assert second and second["id"] == 2, "the second line was not answered"
    finally:
        engine.close()
