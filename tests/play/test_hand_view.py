"""A hand's public state (`Hand.public_seats`): what its drivers read instead of its seat state."""

from __future__ import annotations

from solver.play import events
from solver.play.bots import make_bot
from solver.play.hand import Hand
from solver.play.remote import RemoteSeat
from solver.play.rules import Decision, Rules

PERSON = 2


def seat_events(hand: Hand, kind: str, player: int) -> int:
    return sum(1 for event in hand.events if event["event"] == kind and event.get("player") == player)


def test_each_seat_shows_its_tiles_calls_and_the_winner_at_the_end():
    dealt = Hand(Rules(), [make_bot("easy"), make_bot("medium")], seed=3)
    dealt.start()
    seats = dealt.public_seats()
    assert [seat.status for seat in seats] == ["playing", "playing"]
    assert [seat.held for seat in seats] == [21, 21] and not any(seat.winner for seat in seats)
    hand = Hand(Rules(), [make_bot("easy"), make_bot("medium")], seed=3)
    result = hand.play()
    seats = hand.public_seats()
    for index, seat in enumerate(seats):
        assert seat.peels == seat_events(hand, events.PEEL, index)
        assert seat.dumps == seat_events(hand, events.DUMP, index)
        assert seat.winner == (index in result.winners and result.outcome in ("win", "shared"))
        assert seat.placed == (hand.table_grid(index).tile_count if seat.active else 0)
    assert sum(seat.peels for seat in seats) > 0  # the counts were exercised
    assert any(seat.winner for seat in seats) == (result.outcome in ("win", "shared"))


def test_a_player_who_is_stuck_or_gone_shows_it():
    person = RemoteSeat("ana")
    hand = Hand(Rules(), [make_bot("easy"), make_bot("easy"), person], seed=5)
    hand.start()
    assert hand.external_call(PERSON, Decision("wait"), 0.5) is None
    assert hand.public_seats()[PERSON].status == "stuck" and hand.public_seats()[PERSON].waiting
    hand.leave(PERSON, 1.0)
    gone = hand.public_seats()[PERSON]
    assert gone.status == "left" and not gone.active and gone.placed == 0 and not gone.building
