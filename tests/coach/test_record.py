"""solver.coach.record: the end of a hand, defined once (issue 40).

A seeded hand between bots of two paces, an expert and a club player, on an 86-tile set: the
expert calls BANANAS while the club bot's work is still under way. That work had not landed
on the table's clock, so it is not laid: the hand's result, the log's `grids` line, the record
and the review all show the grid the table last saw. Every figure of the record is checked
against its definition, worked out here again from the log's lines, and every grid by the
independent validator.
"""

from __future__ import annotations

import json

import pytest

from solver.coach import read_log, review
from solver.coach.logs import log_line, replay_tables, room_header
from solver.coach.record import hand_record
from solver.core.grid import Grid, validate
from solver.core.tiles import parse_distribution
from solver.play.bots import make_bot
from solver.play.hand import Hand
from solver.play.rules import Rules

SET = "A9,B2,C2,D4,E12,F2,G3,H2,I8,L4,M2,N6,O7,P2,R6,S4,T6,U3,Y2"  # 86 tiles: a few minutes' hand
BOTS = ("expert", "club")
SEED = 0


@pytest.fixture(scope="module")
def played():
    """The hand, its result, and its room log read back."""
    hand = Hand(Rules(distribution=parse_distribution(SET)), [make_bot(spec) for spec in BOTS], SEED, snapshots=True)
    result = hand.play()
    header = room_header(SEED, ["Ex", "Cl"], list(BOTS), "classic", "en", tiles=SET)
    lines = [
        header,
        *(log_line(1, event) for event in result.events),
        {"hand": 1, "event": "grids", "grids": result.grids},
    ]
    return hand, result, read_log("".join(json.dumps(line) + "\n" for line in lines))


def last_snapshot(events: list[dict], player: int) -> list[str] | None:
    return next((e["grid"] for e in reversed(events) if e["event"] == "snapshot" and e["player"] == player), None)


def test_work_under_way_when_the_hand_ends_is_not_laid(played):
    hand, result, _ = played
    assert result.outcome == "win" and result.winners == [0]
    slow = hand.seats[1]
    own, seen = slow.bot.current_grid(), hand.table_grid(1)
    assert slow.working and own is not None and seen is not None
    assert own.tile_count > seen.tile_count  # the bot had laid more in its head than the table saw
    assert result.grids[1] == seen.to_json() == last_snapshot(result.events, 1)
    assert result.grids[0] == hand.table_grid(0).to_json() == hand.seats[0].bot.current_grid().to_json()


def first_empty_rack(log, player: int) -> float | None:
    """The definition, worked out apart: the first line whose grid holds every tile held."""
    for event, _, table in replay_tables(log, log.hands[0]):
        if event.get("player") != player:
            continue
        if event["event"] == "peel":
            return event["t"]
        shown = table.shown[player]
        if event["event"] in ("snapshot", "bananas") and shown is not None and shown.tiles() == table.held[player]:
            return event["t"]
    return None


def test_the_record_follows_its_definitions(played, en):
    hand, result, log = played
    record = hand_record(log, log.hands[0])
    assert record.end == log.hands[0].end["t"] == round(result.clock, 3)
    for player in record.players:
        seat = hand.seats[player.player]
        assert player.grid is not None and player.grid.to_json() == result.grids[player.player]
        assert player.tiles == seat.held and player.out is None
        assert seat.held.contains(player.grid.tiles())
        assert player.tiles_left == len(seat.held) - player.grid.tile_count
        assert player.first_grid == first_empty_rack(log, player.player)
        own_peels = [e["t"] for e in result.events if e["event"] == "peel" and e["player"] == player.player]
        assert player.peels == len(own_peels) and (not own_peels or player.first_grid <= own_peels[0])
        assert player.finish == record.end  # the winner's BANANAS ended the hand
        assert player.tiles_per_minute == round(player.grid.tile_count * 60 / player.finish, 1)
        report = validate(player.grid, en)  # the independent validator: words, one piece
        assert report.ok, report.problems()
    winner, slow = record.players
    assert validate(winner.grid, en, winner.tiles).ok and winner.tiles_left == 0
    assert slow.tiles_left > 0  # its rack as the table saw it: not the tiles its unlanded work laid
    assert winner.tiles_per_minute > slow.tiles_per_minute  # each player's own pace


def test_the_review_reads_the_record(played, en):
    _, _, log = played
    record = hand_record(log, log.hands[0])
    reviewed = review(log, lexicon=en).hands[0].players
    for player, seen in zip(record.players, reviewed, strict=True):
        assert seen.grid == player.grid and seen.tiles == player.tiles and seen.tiles_left == player.tiles_left
        assert seen.first_grid_s == player.first_grid and seen.tiles_per_minute == player.tiles_per_minute
        assert seen.peels == player.peels and len(seen.dumps) == player.dumps
        assert seen.best is not None and validate(seen.best.grid, en, seen.tiles).ok
    assert reviewed[1].problems and not reviewed[0].problems  # tiles left in the rack: not a finished grid


def test_a_final_grid_of_every_tile_is_a_first_grid_at_the_finish(en):
    """A log whose snapshots stopped at their bound: the last grid the table saw (the `grids`
    line) holds every tile, so the rack was empty by the end at the latest."""
    header = room_header(1, ["Ana"], [None], "classic", "en")
    lines = [
        header,
        {"hand": 1, "t": 0.0, "event": "split", "hands": ["CATS"], "bunch": 140, "unused": ""},
        {"hand": 1, "t": 9.0, "event": "end", "outcome": "unawarded", "winners": [], "reason": "stalemate"},
        {"hand": 1, "event": "grids", "grids": [["CATS"]]},
    ]
    log = read_log("".join(json.dumps(line) + "\n" for line in lines))
    (player,) = hand_record(log, log.hands[0]).players
    assert player.first_grid == 9.0 and player.tiles_left == 0 and player.tiles_per_minute == round(4 * 60 / 9, 1)
    assert validate(Grid.from_rows(["CATS"]), en, player.tiles).ok
