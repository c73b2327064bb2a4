"""A hand is rebuilt exactly from its inputs (`Hand.journal`, `solver.play.hand.replay`).

A driver plays a hand of two bots and a remote seat the way a room does: the seat's live
grid changes between the hand's events (the hand takes it in at its own moments), and its
calls come in - allowed, refused, a DUMP, a PEEL, a BANANAS too early. The rebuilt hand, from
the same seed, the same specs and the journal alone, must pass through the very same
states: every event, with the bunch and every player's tiles after it, and end the same way.
"""

from __future__ import annotations

import random

import pytest

from solver.core.grid import Grid
from solver.play.bots import make_bot
from solver.play.hand import Hand, replay
from solver.play.remote import RemoteSeat
from solver.play.rules import Decision, Rules

SPECS = ["easy", "medium:speed=0.5"]
PERSON = 2  # the remote seat's index


def traced_hand(seed: int) -> tuple[Hand, RemoteSeat, list]:
    """A new hand of the two bots and a remote seat, and the trace its observer fills: after
    every event, the event, the events processed, the bunch and every seat's tiles."""
    person = RemoteSeat("ana")
    trace: list = []
    hand = Hand(Rules(), [make_bot(spec) for spec in SPECS] + [person], seed, observer=lambda event: observe(event))

    def observe(event: dict) -> None:
        seats = tuple((seat.held.letters(), seat.active, seat.waiting) for seat in hand.seats)
        trace.append((event, hand.steps, hand.bunch.letters(), seats))

    return hand, person, trace


def row_of(letters: str) -> Grid | None:
    return Grid.from_rows([letters]) if letters else None


def drive(hand: Hand, person: RemoteSeat, seed: int) -> None:
    """Play the hand to its end as a room would, the person's moves drawn from `seed`."""
    rng = random.Random(seed)
    hand.start()
    for _ in range(400):
        if hand.over:
            return
        held = hand.seats[PERSON].held.letters()
        move = rng.random()
        if move < 0.4:  # the page moves tiles: a row of some of them (the words do not matter here)
            person.show_grid(row_of(held[: rng.randrange(len(held) + 1)]))
        elif move < 0.55:
            call = rng.choice(["peel", "dump", "stuck", "bananas"])
            grid = row_of(held) if call == "peel" else person.board()[1]
            tile = rng.choice(person.rack().letters() or held) if call == "dump" else None
            decision = Decision("wait" if call == "stuck" else call, tile=tile, grid=grid)
            hand.external_call(PERSON, decision, hand.clock + rng.random(), settle=rng.random() < 0.5)
        due = hand.next_due()
        if due is None:  # only the person can act: stuck, or leave now and then
            if rng.random() < 0.2:
                hand.leave(PERSON, hand.clock + 1.0)
            else:
                hand.external_call(PERSON, Decision("wait", grid=person.board()[1]), hand.clock + 1.0)
        elif not hand.over:
            hand.advance(due)
    raise AssertionError("the driven hand did not end")


@pytest.mark.parametrize("seed", [1, 3, 6])  # seeds whose hands hold a refused call and an honoured one
def test_a_hand_replays_exactly_from_its_journal(seed):
    hand, person, trace = traced_hand(seed)
    drive(hand, person, seed)
    journal = hand.journal
    assert {entry["input"] for entry in journal} >= {"grid", "call"}  # the driver's moves reached the hand
    assert any(entry["input"] == "call" and entry["refusal"] is not None for entry in journal)
    assert any(entry["input"] == "call" and entry["refusal"] is None for entry in journal)

    rebuilt, _, rebuilt_trace = traced_hand(seed)
    replay(rebuilt, journal)
    assert rebuilt_trace == trace  # every state, event by event
    assert rebuilt.journal == journal
    assert rebuilt.over and hand.over
    assert rebuilt.public_view() == hand.public_view()  # every seat, and the ending


def test_a_hand_saved_mid_way_rebuilds_to_the_same_state():
    """What a durable room stores - the journal so far and the events processed - rebuilds
    the hand as it was at that moment."""
    seed = 4
    hand, person, trace = traced_hand(seed)
    drive(hand, person, seed)
    steps = trace[len(trace) // 2][1]
    journal = [entry for entry in hand.journal if entry["step"] < steps]  # the inputs so far
    rebuilt, _, rebuilt_trace = traced_hand(seed)
    replay(rebuilt, journal, steps=steps)
    assert not rebuilt.over and rebuilt.steps == steps and rebuilt.journal == journal
    assert rebuilt_trace == trace[: len(rebuilt_trace)]
    assert len(rebuilt_trace) >= sum(entry[1] < steps for entry in trace)  # every event before that moment


def test_a_journal_that_is_not_the_hands_is_refused():
    """A journal edited, or from another hand, cannot be replayed into a hand that differs."""
    hand, person, _ = traced_hand(5)
    drive(hand, person, 5)
    call = next(i for i, entry in enumerate(hand.journal) if entry["input"] == "call" and entry["refusal"] is None)
    forged = [dict(entry) for entry in hand.journal]
    forged[call]["refusal"] = "bunch_too_small"
    with pytest.raises(ValueError, match="judged otherwise"):
        replay(traced_hand(5)[0], forged)
    with pytest.raises(ValueError):
        replay(traced_hand(6)[0], hand.journal)
