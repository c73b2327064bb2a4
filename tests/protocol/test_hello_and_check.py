"""The engine protocol without a game (`solver.protocol.session`): `hello` reports the
version, lexicons, variants, bots and modes and echoes ids; `check` judges a grid (invalid
words with their cells, disconnected grids, missing and extra tiles, min_length, lexicon).
"""

from __future__ import annotations

from helpers import (
    CROSS,
    send,
    tiles,
)

from solver.core.grid import Grid
from solver.play.bots import make_bot
from solver.protocol.session import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Session,
)


def test_hello_reports_version_lexicons_variants_bots_modes_and_echoes_ids():
    session = Session()
    reply = send(session, {"type": "hello", "id": "h-1"})
    assert len(reply) == 1
    hello = reply[0]
    assert hello["type"] == "hello" and hello["id"] == "h-1"
    assert hello["protocol"] == PROTOCOL_VERSION == 1
    assert {"en", "fr"} <= set(hello["lexicons"])
    assert set(hello["variants"]) == {"classic", "smoothie", "solo"}
    assert {"easy", "medium", "hard", "greedy"} <= set(hello["bots"])
    assert set(hello["modes"]) == {"seat", "host"}
    assert set(hello["clocks"]) == {"realtime", "instant"}
    assert hello["max_message_bytes"] == MAX_MESSAGE_BYTES
    # every bot the engine advertises can be made
    for bot in hello["bots"]:
        make_bot(bot)
    # integer ids too, on ordinary replies and on errors
    assert send(session, {"type": "hello", "id": 42})[0]["id"] == 42
    error = send(session, {"type": "draw", "tiles": "A", "id": 7})
    assert error == [{"type": "error", "code": "out_of_order", "message": error[0]["message"], "id": 7}]
    assert send(session, {"type": "nonsense", "id": "x"})[0]["id"] == "x"
    # no id, no id in the reply
    assert "id" not in send(session, {"type": "hello"})[0]


def test_check_valid_grid_without_a_game(en):
    grid_tiles = Grid.from_rows(CROSS).tiles()  # the grid's real letters: C A T M P
    assert grid_tiles == tiles("CATMP")
    reply = send(Session(), {"type": "check", "grid": CROSS, "tiles": grid_tiles.letters(), "id": 1})
    assert len(reply) == 1
    check = reply[0]
    assert check["type"] == "check" and check["id"] == 1
    assert check["valid"] is True
    assert sorted(check["words"]) == ["CAT", "MAP"]
    assert check["invalid_words"] == [] and check["problems"] == []
    assert check["missing"] == "" and check["extra"] == ""
    # the text notation works too, and so does leaving the tiles out
    assert send(Session(), {"type": "check", "grid": ".M.\nCAT\n.P.\n"})[0]["valid"] is True


def test_check_reports_an_invalid_word_with_its_cells():
    check = send(Session(), {"type": "check", "grid": ["CAT", ".X.", ".P."]})[0]
    assert check["valid"] is False
    assert check["invalid_words"] == [{"word": "AXP", "direction": "down", "cells": [[0, 1], [1, 1], [2, 1]]}]
    assert any("AXP" in problem for problem in check["problems"])


def test_check_reports_a_disconnected_grid():
    check = send(Session(), {"type": "check", "grid": ["CAT", "...", "DOG"]})[0]
    assert check["valid"] is False
    assert check["components"] == 2
    assert sorted(map(len, check["component_cells"])) == [3, 3]
    assert any("not connected" in problem for problem in check["problems"])


def test_check_reports_missing_and_extra_tiles():
    session = Session()
    # CATMAP has one A too many for the cross (the A is shared by CAT and MAP)
    missing = send(session, {"type": "check", "grid": CROSS, "tiles": "CATMAP"})[0]
    assert missing["valid"] is False and missing["missing"] == "A" and missing["extra"] == ""
    extra = send(session, {"type": "check", "grid": CROSS, "tiles": "CATM"})[0]
    assert extra["valid"] is False and extra["extra"] == "P" and extra["missing"] == ""
    both = send(session, {"type": "check", "grid": CROSS, "tiles": "CATMZ"})[0]
    assert both["missing"] == "Z" and both["extra"] == "P"


def test_check_honours_min_length_and_lexicon_fields():
    session = Session()
    assert send(session, {"type": "check", "grid": ["AT"], "min_length": 2})[0]["valid"] is True
    assert send(session, {"type": "check", "grid": ["AT"], "min_length": 3})[0]["valid"] is False
    assert send(session, {"type": "check", "grid": ["CHAT"], "lexicon": "fr"})[0]["valid"] is True
