"""A Spellevate match drives itself and is rebuilt exactly from its journal
(`solver.play.spellevate_match`).

A driver plays matches of two bots and a remote seat the way a room or the protocol does: the
person's moves come in when it is their turn - legal plays, passes, refused plays - and now and
then the person leaves. The rebuilt match, from the same seats, the same seed and the journal
alone, must make the very same moves: every event, with every hand after it.
"""

from __future__ import annotations

import random

import pytest

from solver.play import spellevate_events as sp
from solver.play.remote import RemoteSeat
from solver.play.spellevate import Play, SpellevateError
from solver.play.spellevate_bots import beating_plays, make_spellevate_bot, word_index
from solver.play.spellevate_match import SpellevateMatch, replay

PERSON = 1  # the remote seat's index
ROUNDS = 2


def traced_match(seed: int, en) -> tuple[SpellevateMatch, list]:
    """A new match of two bots and a remote seat, and the trace its observer fills: after
    every event, the event, the moves made and every hand."""
    trace: list = []
    seats = [make_spellevate_bot("planner", en), RemoteSeat("ana"), make_spellevate_bot("simple", en)]
    match = SpellevateMatch(seats, seed, en, rounds=ROUNDS, observer=lambda event: observe(event))

    def observe(event: sp.SpellevateEvent) -> None:
        dealt = match._current.hands if match._current is not None else []  # none yet at the lead draw
        hands = tuple(hand.letters() for hand in dealt)
        trace.append((dict(event), match.steps, hands))

    return match, trace


def person_move(match: SpellevateMatch, rng: random.Random, index) -> Play | None:
    """A legal move for the person, drawn from `rng`: a play that beats the table, or a pass."""
    hand, table = match.hand(PERSON), match.state.table
    if table is None:
        return Play(rng.choice(hand.letters()))
    plays = beating_plays(index, hand, table, match.min_length)
    return Play(rng.choice(plays)) if plays and rng.random() < 0.7 else None


def drive(match: SpellevateMatch, seed: int, index) -> None:
    """Play the match to its end as a room would, the person's moves drawn from `seed`."""
    rng = random.Random(seed)
    match.start()
    for _ in range(2000):
        match.play_bots()
        if match.over:
            return
        if rng.random() < 0.3:  # a refused move changes nothing and is not an input
            with pytest.raises(SpellevateError):
                match.move(PERSON, Play("QQQQ"))
        if rng.random() < 0.02:
            match.leave(PERSON)
            continue
        match.move(PERSON, person_move(match, rng, index))
    raise AssertionError("the driven match did not end")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_match_replays_exactly_from_its_journal(seed, en):
    index = word_index(en)
    match, trace = traced_match(seed, en)
    drive(match, seed, index)
    assert match.journal and all(entry["input"] in ("move", "leave") for entry in match.journal)
    assert len(match.results) == ROUNDS

    rebuilt, rebuilt_trace = traced_match(seed, en)
    replay(rebuilt, match.journal)
    rebuilt.play_bots()  # after the last input, the bots play on as the original's did
    assert rebuilt_trace == trace
    assert rebuilt.journal == match.journal
    assert rebuilt.winners == match.winners and rebuilt.totals == match.totals


def test_a_replay_stops_where_the_journal_stops(en):
    index = word_index(en)
    match, _ = traced_match(5, en)
    drive(match, 5, index)
    moves = [entry for entry in match.journal if entry["input"] == "move"]
    assert len(moves) >= 2
    part = match.journal[: match.journal.index(moves[1])]
    rebuilt, rebuilt_trace = traced_match(5, en)
    replay(rebuilt, part)
    assert rebuilt.steps == part[-1]["step"] + 1  # the last input made, nothing after it
    assert rebuilt.log == match.log[: len(rebuilt.log)]


def test_a_person_who_leaves_is_played_by_a_stand_in_to_the_end(en):
    seats = [make_spellevate_bot("simple", en), RemoteSeat("ana"), make_spellevate_bot("simple", en)]
    match = SpellevateMatch(seats, 3, en)
    match.start()
    match.play_bots()
    assert not match.over and match.state.turn == PERSON  # the match waits on the person
    assert match.leave(PERSON) == [sp.Left(event=sp.LEFT, player=PERSON)]
    assert match.is_bot(PERSON) and match.bot_to_move
    match.play_bots()
    assert match.over and match.journal == [{"input": "leave", "step": match.journal[0]["step"], "seat": PERSON}]
    assert match.leave(PERSON) == []  # after the end, a leave changes nothing


def test_the_match_refuses_a_move_out_of_turn_or_for_a_bot(en):
    seats = [RemoteSeat("ana"), RemoteSeat("bo"), make_spellevate_bot("simple", en)]
    match = SpellevateMatch(seats, 1, en, leader=0)
    told: list[str] = []
    seats[0].on_tiles = lambda tiles, reason: told.append(tiles.letters())
    match.start()
    assert told == [match.hand(0).letters()]  # the remote seat is told its deal
    assert match.state.turn == 0 and match.log[0]["event"] == sp.DEAL  # a given leader: no lead draw
    with pytest.raises(SpellevateError) as refused:
        match.move(1, None)
    assert refused.value.args[0].code == "not_your_turn"
    with pytest.raises(SpellevateError, match="is a bot"):
        match.move(2, None)
    assert match.journal == [] and match.steps == 0
