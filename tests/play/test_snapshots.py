"""The engine's `snapshot` events (Hand(snapshots=True)): each bot's grid as the table sees it
when its work lands, bounded per seat, and nothing else about the hand changes."""

from __future__ import annotations

import pytest

from solver.core.grid import Grid
from solver.play import hand as hand_module
from solver.play.bots import make_bot
from solver.play.hand import play_hand
from solver.play.rules import Rules

BOTS = ("greedy", "easy")
SEED = 4


def hand(snapshots: bool):
    return play_hand(Rules.for_language("en"), [make_bot(spec) for spec in BOTS], SEED, snapshots=snapshots)


@pytest.fixture(scope="module")
def with_and_without():
    return hand(True), hand(False)


def test_snapshots_change_nothing_else(with_and_without):
    logged, plain = with_and_without
    assert [event for event in logged.events if event["event"] != "snapshot"] == plain.events
    assert (logged.outcome, logged.winners, logged.grids) == (plain.outcome, plain.winners, plain.grids)


def test_a_snapshot_is_logged_when_a_seats_grid_changes(with_and_without):
    logged, plain = with_and_without
    assert not any(event["event"] == "snapshot" for event in plain.events)
    shown: dict[int, list[str]] = {}
    count = 0
    for event in logged.events:
        if event["event"] == "snapshot":
            assert event["grid"] != shown.get(event["player"])
            Grid.from_rows(event["grid"])  # the text notation
            shown[event["player"]] = event["grid"]
            count += 1
    assert count > 2 and set(shown) == {0, 1}


def test_snapshots_are_bounded_per_seat(monkeypatch):
    monkeypatch.setattr(hand_module, "MAX_LOG_SNAPSHOTS_PER_HAND", 2)
    logged = hand(True)
    for player in range(len(BOTS)):
        assert sum(event["event"] == "snapshot" and event["player"] == player for event in logged.events) <= 2
