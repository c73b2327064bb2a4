"""`RemoteSeat`, the one seat adapter for a person or a program playing from outside: its
live grid and rack follow deals, grids and a DUMP that races a grid; the hand sees only the
grid it adopted; its deals and draws are told to the outside, counted."""

from __future__ import annotations

import pytest

from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.play.remote import RemoteSeat, TilesNotHeld
from solver.play.rules import Rules


def test_the_live_rack_and_grid_follow_deals_grids_and_a_dump_that_races_a_grid():
    person = RemoteSeat("ana")
    person.start(TileCounts.from_letters("CATS"), Rules(), 0)
    person.show({(0, 0): "C", (0, 1): "A", (0, 2): "T"})
    person.receive(TileCounts.from_letters("Q"))
    assert person.rack().letters() == "QS" and person.board()[1] == Grid.from_rows(["CAT"])
    person.give_back("T")  # the dumped tile was on the live grid (a grid update raced the dump)
    tiles, cells = person.snapshot()
    assert tiles.letters() == "ACQS" and cells == {(0, 0): "C", (0, 1): "A"}
    assert person.rack().letters() == "QS" and person.board()[1] == Grid.from_rows(["CA"])
    person.give_back("Q")
    assert person.rack().letters() == "S"
    with pytest.raises(TilesNotHeld):
        person.show({(0, 0): "Q"})  # a tile it does not hold: nothing changes
    assert person.board()[1] == Grid.from_rows(["CA"])


def test_the_hand_sees_the_adopted_grid_only():
    person = RemoteSeat("ana")
    person.start(TileCounts.from_letters("CATS"), Rules(), 0)
    person.show_grid(Grid.from_rows(["CAT"]))
    assert person.current_grid() is None  # not taken in yet
    assert person.adopt() == (True, Grid.from_rows(["CAT"]))
    assert person.current_grid() == Grid.from_rows(["CAT"])
    assert person.adopt() == (False, Grid.from_rows(["CAT"]))  # nothing new


def test_deals_and_draws_are_told_and_counted():
    told = []
    person = RemoteSeat("bot-client", on_tiles=lambda tiles, reason: told.append((tiles.letters(), reason)))
    person.start(TileCounts.from_letters("AB"), Rules(), 0)
    person.receive(TileCounts.from_letters("C"))
    assert told == [("AB", "split"), ("C", "draw")]
    assert person.sent == 2 and person.to_answer
    person.answered = person.sent
    assert not person.to_answer
    person.start(TileCounts(), Rules(), 0)  # out of the hand: nothing told, nothing to answer
    assert told == [("AB", "split"), ("C", "draw")] and not person.to_answer
