"""`Hand.call_error`: the one judge of PEEL, DUMP, BANANAS and "stuck" (RULES.md), whose
refusal every front-end passes on; a refused external call changes nothing."""

from __future__ import annotations

import pytest

from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.play.hand import Hand
from solver.play.remote import RemoteSeat
from solver.play.rules import Decision, Rules

# Two players of 21 tiles and three more in the bunch: every premise can be put to the test.
TILES = TileCounts.from_letters("AEIOU" * 3 + "BCDFGHLMNPRST" * 2 + "EEAS")
assert len(TILES) == 2 * 21 + 3


def lay_everything(hand: Hand, seat: int) -> Grid:
    """Every tile of the seat on its grid, one row (the premises look at tiles, not at words)."""
    grid = Grid.from_rows([hand.seats[seat].held.letters()])
    hand.show(seat, grid)
    return grid


def started(variant: str = "classic", players: int = 2) -> tuple[Hand, list[RemoteSeat]]:
    bots = [RemoteSeat(f"p{index}") for index in range(players)]
    hand = Hand(Rules(distribution=TILES, variant=variant), bots, seed=3)
    hand.start()
    return hand, bots


def refusal_code(hand: Hand, seat: int, decision: Decision) -> str | None:
    refusal = hand.call_error(seat, decision)
    return None if refusal is None else refusal.code


def test_peel_needs_an_empty_hand_then_a_tile_per_player():
    hand, (first, _) = started()
    refusal = hand.call_error(0, Decision("peel"))
    assert refusal is not None and refusal.code == "rack_not_empty" and refusal.params == {"left": 21}
    lay_everything(hand, 0)
    assert hand.call_error(0, Decision("peel")) is None
    assert hand.external_call(0, Decision("peel"), 1.0) is None
    assert len(hand.bunch) == 1  # both drew one
    lay_everything(hand, 0)
    refusal = hand.call_error(0, Decision("peel"))
    assert refusal is not None and refusal.code == "bunch_too_small" and refusal.params == {"bunch": 1, "active": 2}


def test_dump_needs_a_tile_of_the_hand_and_three_in_the_bunch():
    hand, (first, _) = started()
    absent = next(letter for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if first.tiles[letter] == 0)
    refusal = hand.call_error(0, Decision("dump", tile=absent))
    assert refusal is not None and refusal.code == "not_your_tile" and refusal.params == {"tile": absent}
    lay_everything(hand, 0)  # a tile on the grid is not in the hand any more
    on_grid = first.tiles.letters()[0]
    assert refusal_code(hand, 0, Decision("dump", tile=on_grid)) == "not_your_tile"
    hand.show(0, None)
    assert hand.external_call(0, Decision("dump", tile=on_grid), 1.0) is None
    assert len(hand.bunch) == 1 and len(first.tiles) == 23
    assert refusal_code(hand, 0, Decision("dump", tile=first.tiles.letters()[0])) == "bunch_too_small"


def test_bananas_only_once_the_bunch_is_below_the_players():
    hand, (first, _) = started()
    grid = lay_everything(hand, 0)
    refusal = hand.call_error(0, Decision("bananas", grid=grid))
    assert refusal is not None and refusal.code == "bananas_too_early"
    assert refusal.params == {"bunch": 3, "active": 2}
    hand.external_call(0, Decision("peel"), 1.0)  # the bunch goes to 1
    grid = lay_everything(hand, 0)
    assert hand.call_error(0, Decision("bananas", grid=grid)) is None  # inspection decides, not the premise


def test_smoothie_has_no_peel_and_no_dump():
    hand, (first, _) = started("smoothie")
    grid = lay_everything(hand, 0)
    assert refusal_code(hand, 0, Decision("peel")) == "no_peel"
    assert refusal_code(hand, 0, Decision("dump", tile=first.tiles.letters()[0])) == "no_dump"
    assert hand.call_error(0, Decision("bananas", grid=grid)) is None  # no bunch to empty


def test_out_of_the_hand_and_after_the_hand():
    hand, _ = started()
    hand.leave(1, 1.0)
    assert refusal_code(hand, 1, Decision("wait")) == "out_of_hand"
    assert refusal_code(hand, 1, Decision("peel")) == "out_of_hand"
    assert hand.call_error(0, Decision("wait")) is None  # stuck is always allowed to a player still in
    hand.leave(0, 2.0)
    assert hand.over
    assert refusal_code(hand, 0, Decision("wait")) == "hand_over"


@pytest.mark.parametrize("decision", [Decision("peel"), Decision("dump", tile="Z"), Decision("bananas")])
def test_a_refused_external_call_changes_nothing(decision):
    hand, _ = started()  # a full hand (no PEEL), no Z in the set (no DUMP of it), a big bunch (no BANANAS)
    before = (len(hand.events), hand.bunch, [seat.held for seat in hand.seats], [seat.refused for seat in hand.seats])
    refusal = hand.external_call(0, decision, 0.0)
    assert refusal is not None
    after = (len(hand.events), hand.bunch, [seat.held for seat in hand.seats], [seat.refused for seat in hand.seats])
    assert after == before


def test_an_unknown_call_is_a_bug_not_a_refusal():
    hand, _ = started()
    with pytest.raises(ValueError):
        hand.call_error(0, Decision("remote"))


def table_codes(hand: Hand) -> dict:
    refusals = {call: hand.table_refusal(call) for call in ("peel", "dump", "bananas")}
    return {call: refusal.code if refusal is not None else None for call, refusal in refusals.items()}


def test_the_tables_verdict_is_call_errors_for_a_player_whose_own_premises_hold():
    """`table_refusal` (what a page shows before a call) says what `call_error` says of a call
    whose player has placed every tile and names a tile of their hand: the bunch, the variant
    and the end decide."""
    hand, (first, _) = started()
    assert table_codes(hand) == {"peel": None, "dump": None, "bananas": "bananas_too_early"}
    lay_everything(hand, 0)
    assert hand.external_call(0, Decision("peel"), 1.0) is None  # the bunch: 3 -> 1
    assert table_codes(hand) == {"peel": "bunch_too_small", "dump": "bunch_too_small", "bananas": None}
    lay_everything(hand, 0)
    for call in ("peel", "bananas"):
        assert refusal_code(hand, 0, Decision(call, grid=first.current_grid())) == table_codes(hand)[call]
    hand.show(0, None)
    assert refusal_code(hand, 0, Decision("dump", tile=first.tiles.letters()[0])) == table_codes(hand)["dump"]
    smoothie, _ = started("smoothie")
    assert table_codes(smoothie) == {"peel": "no_peel", "dump": "no_dump", "bananas": None}
    hand.leave(1, 2.0)
    hand.leave(0, 3.0)
    assert set(table_codes(hand).values()) == {"hand_over"}
