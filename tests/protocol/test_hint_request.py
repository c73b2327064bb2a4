"""The protocol's `hint` request: any time for a grid and a hand, or for a hosted remote
player on its own tiles (docs/PROTOCOL.md)."""

from __future__ import annotations

from helpers import error_code, host_session, of_type, send

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.protocol.session import Session

CROSS = [".M.", "CAT", ".P."]


def test_a_hint_for_a_grid_and_a_hand_needs_no_game(en):
    [reply] = of_type(send(Session(), {"type": "hint", "grid": CROSS, "hand": "S", "id": 7}), "hint")
    assert reply["id"] == 7
    move = reply["hint"]
    assert move["kind"] == "hook" and not move["lift"]
    cells = Grid.from_rows(CROSS).cells()
    for row, col, letter in move["cells"]:
        cells[(row, col)] = letter
    assert validate(Grid.from_cells(cells), en, TileCounts.from_letters("CATMPS")).ok


def test_a_hint_without_a_grid_lays_a_first_word():
    [reply] = of_type(send(Session(), {"type": "hint", "hand": "CATS"}), "hint")
    assert reply["hint"]["kind"] == "word" and reply["hint"]["cells"][0][:2] == [0, 0]


def test_no_hint_is_null():
    assert of_type(send(Session(), {"type": "hint", "grid": CROSS, "hand": ""}), "hint")[0]["hint"] is None


def test_bad_hint_requests_are_refused():
    session = Session(allow_paths=False)
    assert error_code(send(session, {"type": "hint", "grid": CROSS})) == "missing_field"
    assert error_code(send(session, {"type": "hint", "grid": ["C4T"], "hand": "S"})) == "bad_grid"
    assert error_code(send(session, {"type": "hint", "grid": CROSS, "hand": "S1"})) == "bad_letters"
    assert error_code(send(session, {"type": "hint", "grid": CROSS, "hand": "S", "min_length": 4})) == "bad_value"
    assert error_code(send(session, {"type": "hint", "player": 0})) == "out_of_order"  # no hosted game


def test_a_hosted_remote_player_gets_a_hint_on_its_own_tiles(en):
    session = host_session(bot="greedy")
    replies = send(session, {"type": "start_game", "players": [{"bot": "greedy"}, {"remote": "alice"}], "seed": 5})
    tiles = TileCounts.from_letters("".join(m["tiles"] for m in of_type(replies, "tiles") if m["player"] == 1))
    replies = send(session, {"type": "hint", "player": 1})
    [reply] = of_type(replies, "hint")
    assert reply["player"] == 1 and reply["hint"]["kind"] == "word"
    laid = TileCounts.from_letters("".join(letter for *_, letter in reply["hint"]["cells"]))
    assert tiles.contains(laid)
    assert error_code(send(session, {"type": "hint", "player": 0})) == "bad_value"  # a bot's seat
    assert error_code(send(session, {"type": "hint", "player": 1, "grid": ["ZZZZZ"]})) == "not_your_tile"
