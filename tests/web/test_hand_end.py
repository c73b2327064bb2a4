"""One truth for the end of a hand (issue 40): the room's end screen (`end`), the review and
the hand's log agree for every player, bots of two paces and a person.

The bug: the end screen credited a slow bot with the tiles of work that had not landed on
the table's clock (36 tiles on the table, 48 on the end screen with "Tiles left 0"), "first
grid" came out three ways (the table's wall clock after each step, the log's PEEL, the
review's snapshots), and the review's tiles a minute was the same for every player. Here a
fast expert bot ends a hand while a slow club bot is still working, and a person builds a
grid a word at a time and then at once (their first grid comes less than a second after
their last snapshot). Every figure is worked out again from the log's lines, by its
definition (solver.coach.record), and every grid is checked by the independent validator.
"""

from __future__ import annotations

import json

import pytest
from helpers import Page, new_room, run_bounded, start_server

from solver.coach import read_log
from solver.coach.logs import replay_tables
from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.search import solve

SET = "A9,B2,C2,D4,E12,F2,G3,H2,I8,L4,M2,N6,O7,P2,R6,S4,T6,U3,Y2"  # 86 tiles: three deals, a few PEELs
BOTS = {"fast": "expert:speed=6", "slow": "club:speed=3"}


def person_grid(held: str) -> list[list]:
    """A grid of every tile the person holds, as a page sends its cells."""
    tiles = TileCounts.from_letters(held)
    found = solve(tiles, lexicon="en", time_limit=10)
    assert found.grid is not None and validate(found.grid, get_lexicon("en"), tiles).ok
    return [[row, col, letter] for (row, col), letter in sorted(found.grid.cells().items())]


@pytest.fixture(scope="module")
def hand():
    """A hand to its end: Ana (a person) with the fast and the slow bot; then the review and
    the log. Ana shows a first word, then her whole grid at once, and her whole grid again
    each time tiles come; she never calls."""
    server = start_server(distribution=SET, bots=BOTS, seed=5)

    async def scenario():
        room = new_room(server, spellcheck=False)
        async with Page(server, room) as ana:
            await ana.join("Ana")
            for preset in ("fast", "slow"):
                await ana.send({"type": "add_bot", "preset": preset})
            await ana.until(lambda m: m["type"] == "room" and len(m["seats"]) == 3)
            await ana.send({"type": "start"})
            shown = ""
            while True:
                message = await ana.until(lambda m: m["type"] in ("tiles", "end"), timeout=120)
                if message["type"] == "end":
                    break
                held = message["held"]
                if held == shown or not message["active"]:
                    continue
                cells = person_grid(held)
                if not shown:  # a first word, then the rest within the second: a first grid not to lose
                    await ana.send({"type": "grid", "cells": cells[:2]})
                await ana.send({"type": "grid", "cells": cells})
                shown = held
            end = message
            tables = [m for m in ana.seen if m["type"] == "table"]
            await ana.send({"type": "review"})  # the page asks when it shows the end
            review = await ana.until("review", timeout=180)
            await ana.send({"type": "hand_log"})
            log = await ana.until("hand_log")
            return end, tables[-1], review["review"], log["log"]

    try:
        return run_bounded(scenario, timeout=300)
    finally:
        server.stop()


def first_empty_rack(log, player: int) -> float | None:
    """The definition, worked out apart: the first line whose grid holds every tile held."""
    for event, _, table in replay_tables(log, log.hands[0]):
        if event.get("player") != player:
            continue
        shown = table.shown[player]
        if event["event"] == "peel":
            return event["t"]
        if event["event"] in ("snapshot", "bananas") and shown is not None and shown.tiles() == table.held[player]:
            return event["t"]
    return None


@pytest.mark.slow  # a whole hand against bots (~15 s); quick: tests/coach/test_record.py
def test_the_end_screen_the_review_and_the_log_agree_for_every_player(hand):
    end, last_table, review, text = hand
    en = get_lexicon("en")
    log = read_log(text)
    lines = log.hands[0].events
    final = {event["event"]: event for event in lines}["end"]
    assert review is not None and end["winners"] == [end["boards"][w]["name"] for w in review["winners"]]
    assert [board["kind"] for board in end["boards"]] == ["person", "bot", "bot"]
    table = list(replay_tables(log, log.hands[0]))[-1][2]  # every tile where the hand left it
    for board, seen, rows in zip(end["boards"], review["players"], log.hands[0].grids, strict=True):
        player = board["seat"]
        held = table.held[player]
        assert seen["player"] == player and seen["tiles"] == held.letters()
        # The grid: one grid everywhere, the one the table last saw.
        assert board["grid"] == seen["grid"] == rows
        if board["kind"] == "bot":  # a bot's landed work: its last snapshot
            assert rows == next(
                e["grid"] for e in reversed(lines) if e["event"] == "snapshot" and e["player"] == player
            )
        grid = Grid.from_rows(rows)
        assert held.contains(grid.tiles())
        report = validate(grid, en)  # the independent validator: words, one piece
        assert report.ok, (board["name"], report.problems())
        # The rack, the first grid, the pace: each by its definition, from the log.
        assert board["tiles_left"] == seen["tiles_left"] == len(held) - grid.tile_count
        assert board["first_grid"] == seen["first_grid_s"] == first_empty_rack(log, player)
        assert last_table["players"][player]["first_grid"] == board["first_grid"]  # the table's, at the end
        finish = next((e["t"] for e in lines if e["event"] == "bananas" and e["player"] == player), final["t"])
        assert board["tiles_per_minute"] == seen["tiles_per_minute"] == round(grid.tile_count * 60 / finish, 1)
        peels = [e["t"] for e in lines if e["event"] == "peel" and e["player"] == player]
        assert board["peels"] == seen["peels"] == len(peels)
        assert not peels or board["first_grid"] <= peels[0]
        assert board["dumps"] == len(seen["dumps"]) and board["hints"] == seen["hints"] == 0
    ana, fast, slow = end["boards"]
    assert end["outcome"] == "win" and end["winners"] == [fast["name"]]
    assert fast["tiles_left"] == 0 and validate(Grid.from_rows(fast["grid"]), en, table.held[1]).ok
    assert slow["tiles_left"] > 0  # the slow bot was still working: what it had not laid is its rack
    assert fast["tiles_per_minute"] > slow["tiles_per_minute"]  # each player's own pace
    assert ana["first_grid"] is not None  # her whole grid, shown less than a second after her first word
    assert json.dumps(end)  # (the message as sent)
