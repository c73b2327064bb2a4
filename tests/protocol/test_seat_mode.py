"""Seat mode of the engine protocol: this file plays the front-end referee. It owns the bunch,
deals from the English set with a seeded generator and checks the bot's BANANAS grid against
exactly the tiles it dealt; the realtime clock is driven with a fake `now`. (Which state a call
was made on, `seen`, and refusals: tests/protocol/test_stale_calls.py.)
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import (
    assert_still_serving,
    error_code,
    of_type,
    seat_session,
    send,
    tiles,
)

from solver.core.grid import Grid, validate
from solver.core.tiles import ENGLISH, TileCounts, draw


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


# -- regressions: contract gaps these tests once found ------------------------------------


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
