"""A hand's public view (`Hand.public_view`): what its drivers read instead of its own state."""

from __future__ import annotations

import dataclasses

import pytest

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
    seats = dealt.public_view().seats
    assert [seat.status for seat in seats] == ["playing", "playing"]
    assert [seat.held for seat in seats] == [21, 21] and not any(seat.winner for seat in seats)
    hand = Hand(Rules(), [make_bot("easy"), make_bot("medium")], seed=3)
    result = hand.play()
    view = hand.public_view()
    seats = view.seats
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
    assert hand.public_view().seats[PERSON].status == "stuck" and hand.public_view().seats[PERSON].waiting
    hand.leave(PERSON, 1.0)
    gone = hand.public_view().seats[PERSON]
    assert gone.status == "left" and not gone.active and gone.placed == 0 and not gone.building


def test_the_ending_is_the_results_public_part_and_nothing_in_the_view_can_be_changed():
    hand = Hand(Rules(), [make_bot("easy"), make_bot("medium")], seed=3)
    assert hand.public_view().ending is None and not hand.over  # (not started)
    result = hand.play()
    view = hand.public_view()
    ending = view.ending
    assert hand.over and view.over and ending is not None
    assert (ending.outcome, list(ending.winners), ending.reason, ending.reason_code) == (
        result.outcome,
        result.winners,
        result.reason,
        result.reason_code,
    )
    assert [list(grid) if grid is not None else None for grid in ending.grids] == result.grids
    assert ending.sole_winner == result.sole_winner and ending.clock == result.clock
    assert view.bunch == len(hand.bunch) and view.active == tuple(hand.active)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seats[0].peels = 99  # type: ignore[misc]
    with pytest.raises(TypeError):
        ending.scores["time"] = 0  # type: ignore[index]
    with pytest.raises(AttributeError):
        ending.winners.append(0)  # type: ignore[attr-defined]


def last_calls(hand: Hand) -> list:
    return [seat.last_call for seat in hand.public_view().seats]


def test_a_seat_shows_its_last_call_until_tiles_reach_it_or_it_is_stuck():
    person = RemoteSeat("ana")
    hand = Hand(Rules(), [make_bot("easy"), make_bot("easy"), person], seed=5)
    hand.start()
    assert last_calls(hand) == [None, None, None]
    assert hand.external_call(PERSON, Decision("dump", tile=person.rack().letters()[0]), 0.1, settle=False) is None
    assert last_calls(hand)[PERSON] == "dump" and hand.public_view().seats[PERSON].status == "playing"
    assert hand.external_call(PERSON, Decision("wait"), 0.2, settle=False) is None
    assert last_calls(hand)[PERSON] is None and hand.public_view().seats[PERSON].status == "stuck"


def test_a_peel_is_the_peelers_last_call_and_clears_everyone_elses():
    """Seen at each event as it happens: at a PEEL every seat in the hand has drawn a tile,
    so only the peeler shows a last call; at a DUMP the dumper shows it."""
    seen: list[tuple[dict, list]] = []
    hand = Hand(Rules(), [make_bot("easy"), make_bot("medium"), make_bot("easy")], seed=8)
    hand.observer = lambda event: seen.append((event, last_calls(hand)))
    hand.play()
    peels = [(event, calls) for event, calls in seen if event["event"] == events.PEEL]
    dumps = [(event, calls) for event, calls in seen if event["event"] == events.DUMP]
    assert peels, "no PEEL in this hand: another seed"
    for event, calls in peels:
        assert calls == [("peel" if index == event["player"] else None) for index in range(3)]
    for event, calls in dumps:
        assert calls[event["player"]] == "dump"
