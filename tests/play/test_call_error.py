"""`Round.call_error`: the one judge of PEEL, DUMP, BANANAS and "stuck" (RULES.md), whose
refusal every front-end passes on; a refused external call changes nothing."""

from __future__ import annotations

import pytest

from solver.core.grid import Grid
from solver.core.tiles import TileCounts
from solver.play.game import Decision, Round, Rules, TableView

# Two players of 21 tiles and three more in the bunch: every premise can be put to the test.
TILES = TileCounts.from_letters("AEIOU" * 3 + "BCDFGHLMNPRST" * 2 + "EEAS")
assert len(TILES) == 2 * 21 + 3


class Remote:
    """A player whose calls come from outside (`external_call`), like a page or a remote client."""

    speed = 1.0

    def __init__(self, name: str):
        self.name = name
        self.tiles = TileCounts()
        self.grid: Grid | None = None

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        self.tiles, self.grid = tiles, None

    def receive(self, tiles: TileCounts) -> None:
        self.tiles = self.tiles + tiles

    def give_back(self, tile: str) -> None:
        self.tiles = self.tiles - TileCounts.from_letters(tile)
        if self.grid is not None and not (self.tiles.contains(self.grid.tiles())):
            self.grid = None

    def decide(self, view: TableView) -> Decision:
        return Decision("remote")

    def holding(self) -> TileCounts:
        return self.tiles

    def current_grid(self) -> Grid | None:
        return self.grid

    def lay_everything(self) -> None:
        """Every tile on the grid, one row (the premises look at tiles, not at words)."""
        self.grid = Grid.from_rows([self.tiles.letters()])


def started(variant: str = "classic", players: int = 2) -> tuple[Round, list[Remote]]:
    bots = [Remote(f"p{index}") for index in range(players)]
    hand = Round(Rules(distribution=TILES, variant=variant), bots, seed=3)
    hand.start()
    return hand, bots


def refusal_code(hand: Round, seat: int, decision: Decision) -> str | None:
    refusal = hand.call_error(seat, decision)
    return None if refusal is None else refusal.code


def test_peel_needs_an_empty_hand_then_a_tile_per_player():
    hand, (first, _) = started()
    refusal = hand.call_error(0, Decision("peel"))
    assert refusal is not None and refusal.code == "rack_not_empty" and refusal.params == {"left": 21}
    first.lay_everything()
    assert hand.call_error(0, Decision("peel")) is None
    assert hand.external_call(0, Decision("peel"), 1.0) is None
    assert len(hand.bunch) == 1  # both drew one
    first.lay_everything()
    refusal = hand.call_error(0, Decision("peel"))
    assert refusal is not None and refusal.code == "bunch_too_small" and refusal.params == {"bunch": 1, "active": 2}


def test_dump_needs_a_tile_of_the_hand_and_three_in_the_bunch():
    hand, (first, _) = started()
    absent = next(letter for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if first.tiles[letter] == 0)
    refusal = hand.call_error(0, Decision("dump", tile=absent))
    assert refusal is not None and refusal.code == "not_your_tile" and refusal.params == {"tile": absent}
    first.lay_everything()  # a tile on the grid is not in the hand any more
    on_grid = first.tiles.letters()[0]
    assert refusal_code(hand, 0, Decision("dump", tile=on_grid)) == "not_your_tile"
    first.grid = None
    assert hand.external_call(0, Decision("dump", tile=on_grid), 1.0) is None
    assert len(hand.bunch) == 1 and len(first.tiles) == 23
    assert refusal_code(hand, 0, Decision("dump", tile=first.tiles.letters()[0])) == "bunch_too_small"


def test_bananas_only_once_the_bunch_is_below_the_players():
    hand, (first, _) = started()
    first.lay_everything()
    refusal = hand.call_error(0, Decision("bananas", grid=first.grid))
    assert refusal is not None and refusal.code == "bananas_too_early"
    assert refusal.params == {"bunch": 3, "active": 2}
    hand.external_call(0, Decision("peel"), 1.0)  # the bunch goes to 1
    first.lay_everything()
    assert hand.call_error(0, Decision("bananas", grid=first.grid)) is None  # inspection decides, not the premise


def test_smoothie_has_no_peel_and_no_dump():
    hand, (first, _) = started("smoothie")
    first.lay_everything()
    assert refusal_code(hand, 0, Decision("peel")) == "no_peel"
    assert refusal_code(hand, 0, Decision("dump", tile=first.tiles.letters()[0])) == "no_dump"
    assert hand.call_error(0, Decision("bananas", grid=first.grid)) is None  # no bunch to empty


def test_out_of_the_hand_and_after_the_hand():
    hand, _ = started()
    hand.leave(1, 1.0)
    assert refusal_code(hand, 1, Decision("wait")) == "out_of_hand"
    assert refusal_code(hand, 1, Decision("peel")) == "out_of_hand"
    assert hand.call_error(0, Decision("wait")) is None  # stuck is always allowed to a player still in
    hand.leave(0, 2.0)
    assert hand.result is not None
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
