"""solver.coach.read_log: both log formats, every line checked, one LogError for bad input."""

from __future__ import annotations

import io
import json

import pytest

from solver.coach import LogError, read_log
from solver.coach.logs import replay_tables, room_header
from solver.core.limits import MAX_LOG_BYTES, MAX_LOG_LINE_BYTES


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def joined(lines: list[dict]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def as_room_log(text: str) -> str:
    """The same game as a room's log: names, a person at seat 1, hints on, a hint shown."""
    lines = lines_of(text)
    lines[0] = room_header(lines[0]["seed"], ["ana", "bo"], ["reckless", None], "classic", "en", hints=True)
    lines.insert(2, {"hand": 1, "t": 3.0, "event": "hint", "player": 1})
    return joined([line for line in lines if line["event"] != "match"])


def test_a_play_log_reads_with_its_settings_and_hands(game_log):
    assert game_log.format == "bananas-play-log/1"
    assert game_log.players == 2 and game_log.labels == ["P1 reckless", "P2 easy"]
    assert game_log.bots == ["reckless", "easy"] and game_log.seed == 8
    assert len(game_log.hands) == 1
    hand = game_log.hands[0]
    kinds = [event["event"] for event in hand.events]
    assert kinds[0] == "split" and kinds[-1] == "end"
    assert {"snapshot", "peel", "dump", "rotten", "bananas"} <= set(kinds)
    assert hand.grids is not None and len(hand.grids) == 2


def test_the_replayed_tiles_add_up_to_the_set_after_every_event(game_log):
    distribution = game_log.rules.distribution
    for _, _, table in replay_tables(game_log, game_log.hands[0]):
        total = table.bunch
        for held in table.held:
            total = total + held
        assert total == distribution


def test_a_room_log_reads_too(game_text):
    log = read_log(as_room_log(game_text))
    assert log.format == "bananas-room-log/1"
    assert log.labels == ["P1 ana", "P2 bo"] and log.bots == ["reckless", None]
    assert any(event["event"] == "hint" for event in log.hands[0].events)


def test_every_source_kind_reads_the_same(game_text, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(game_text)
    expected = read_log(game_text).hands[0].events
    for source in (path, str(path), game_text.encode(), io.BytesIO(game_text.encode()), io.StringIO(game_text)):
        assert read_log(source).hands[0].events == expected


def change(text: str, index: int, **fields) -> str:
    lines = lines_of(text)
    lines[index] = {**lines[index], **fields}
    return joined(lines)


def first(text: str, kind: str) -> int:
    return next(index for index, line in enumerate(lines_of(text)) if line.get("event") == kind)


HOSTILE = {
    "empty": lambda text: "",
    "blank lines": lambda text: "\n\n\n",
    "not JSON": lambda text: "hello\n",
    "truncated last line": lambda text: text[: len(text) - 40],
    "truncated before the grids line": lambda text: "".join(text.splitlines(True)[:-2]),
    "only a header": lambda text: text.splitlines(True)[0],
    "foreign format": lambda text: change(text, 0, format="bananas-spellevate/1"),
    "a JSON array": lambda text: "[1, 2, 3]\n" + text,
    "nested garbage": lambda text: text.replace('"unused":""', '"unused":' + "[" * 5000 + "]" * 5000, 1),
    "deep nesting": lambda text: text + "[" * 100_000 + "\n",
    "huge line": lambda text: text.splitlines(True)[0] + '{"x":"' + "A" * (MAX_LOG_LINE_BYTES + 10) + '"}\n',
    "NaN time": lambda text: text.replace('"t":0.0', '"t":NaN', 1),
    "negative time": lambda text: change(text, 1, t=-1),
    "negative player": lambda text: change(text, first(text, "peel"), player=-1),
    "player past the count": lambda text: change(text, first(text, "peel"), player=2),
    "player as a bool": lambda text: change(text, first(text, "peel"), player=True),
    "players out of range": lambda text: change(text, 0, players=9),
    "bots of the wrong length": lambda text: change(text, 0, bots=["hard"]),
    "grid with bad chars": lambda text: change(text, first(text, "snapshot"), grid=["CA7", "..."]),
    "grid ragged": lambda text: change(text, first(text, "snapshot"), grid=["CAT", "."]),
    "grid too big": lambda text: change(text, first(text, "snapshot"), grid=["." * 200] * 200),
    "grid not a list": lambda text: change(text, first(text, "snapshot"), grid={"rows": 1}),
    "tile not of the set": lambda text: change(text, 1, hands=["ÉA", "B"]),
    "lower-case tiles": lambda text: change(text, first(text, "dump"), drawn="abc"),
    "a tile the bunch lacks": lambda text: change(text, 1, hands=["Z" * 21, "A" * 21]),
    "dump of a tile not held": lambda text: change(text, first(text, "dump"), returned="Z"),
    "bunch count wrong": lambda text: change(text, first(text, "peel"), bunch=3),
    "peel draw for a stranger": lambda text: change(text, first(text, "peel"), drawn={"7": "A"}),
    "hand number skipped": lambda text: change(text, 1, hand=2),
    "unknown variant": lambda text: change(text, 0, variant="chess"),
    "seed as text": lambda text: change(text, 0, seed="8"),
    "huge integer": lambda text: text.replace('"seed":8', '"seed":' + "9" * 5000, 1),
    "binary": lambda text: "\xff\xfe\x00",
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_bad_log_raises_one_clear_log_error(case, game_text):
    text = HOSTILE[case](game_text)
    source = text.encode("latin-1") if case == "binary" else text
    with pytest.raises(LogError) as raised:
        read_log(source)
    message = str(raised.value)
    assert message and "\n" not in message and len(message) < 300


def test_a_log_is_read_up_to_its_bound_and_no_further(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"{" + b" " * (MAX_LOG_BYTES + 10))
    with pytest.raises(LogError, match="larger than"):
        read_log(path)


def test_a_missing_file_is_a_log_error(tmp_path):
    with pytest.raises(LogError, match="cannot read"):
        read_log(tmp_path / "missing.jsonl")


def test_log_line_keeps_the_hand_number_and_names_a_stuck_hand_tiles():
    from solver.coach.logs import log_line

    stuck = {"t": 5.0, "event": "stuck", "player": 0, "hand": "QX"}
    assert log_line(2, stuck) == {"hand": 2, "t": 5.0, "event": "stuck", "player": 0, "tiles": "QX"}
    assert stuck["hand"] == "QX"  # the engine's event is left as it was


def test_a_room_log_with_its_own_tiles_replays_them(game_text):
    lines = lines_of(game_text)
    double = "A26,B6,C6,D12,E36,F6,G8,H6,I24,J4,K4,L10,M6,N16,O22,P6,Q4,R18,S12,T18,U12,V6,W6,X4,Y6,Z4"
    lines[0] = room_header(8, ["ana", "bo"], [None, None], "classic", "en", tiles=double)
    with pytest.raises(LogError, match="the bunch holds 246 tiles here"):  # the engine dealt from 144
        read_log(joined(lines))


def as_match_log(text: str) -> str:
    """The same hand twice, as `play --json --match` writes a match: every hand's events, then
    every hand's grids line, then the match line."""
    lines = lines_of(text)
    header, events = lines[0], [line for line in lines[1:] if line["event"] not in ("grids", "match")]
    grids = next(line for line in lines if line["event"] == "grids")
    second = [{**event, "hand": 2} for event in events]
    tail = [grids, {**grids, "hand": 2}, {"event": "match", "format": "best-of-3", "hands": 2}]
    return joined([header, *events, *second, *tail])


def test_a_match_log_has_its_grids_lines_after_the_last_hand(game_text):
    log = read_log(as_match_log(game_text))
    assert [hand.number for hand in log.hands] == [1, 2]
    assert log.hands[0].grids == log.hands[1].grids is not None
    assert log.hands[0].events == [{**event, "hand": 1} for event in log.hands[1].events]
    shortened = "".join(as_match_log(game_text).splitlines(True)[:-2])  # no grids line for hand 2
    with pytest.raises(LogError, match="before hand 2's grids line"):
        read_log(shortened)


def test_a_log_grid_holding_a_letter_the_tile_set_lacks_is_refused_by_name():
    from solver.coach.logs import check_grid
    from solver.core.tiles import TileCounts

    tiles = TileCounts.from_letters("CATS")
    assert check_grid(["CAT", "..S"], tiles).rows == ("CAT", "..S")
    with pytest.raises(LogError, match="a grid holds QZ, not a tile of this game's set"):
        check_grid(["QAZ"], tiles)
