"""Bots build where people can see it (issue 40): a casual bot's thumbnail sat empty for two
minutes, then jumped from 0 to 21 tiles. The table now shows a bot's work laid out word by
word, a tile at a time, over the time the referee charges for it (solver.play.layout):
`on_grid` takes several values between 0 and the landed count while the first work is
charged, each thumbnail one connected piece, the table sent at most once a second while it
grows. The fair clock
and the end are unchanged: a hand that ends while the work is under way shows none of it.

The tile set deals 21 each and leaves the bunch empty, so whoever first lays every tile calls
BANANAS: the bot at the end of its first work, unless the person calls first.
"""

from __future__ import annotations

import pytest
from helpers import Page, new_room, run_bounded, start_server

from solver.core.grid import Grid, connected_components
from solver.search import solve

TWO_HANDS_SET = "A4,B1,C2,D2,E6,G1,H1,I4,L2,M1,N3,O4,P1,R3,S2,T3,U2"  # 42 tiles: 21 each, an empty bunch
BOT = {"casual": "casual:speed=2"}  # the casual preset, its first grid in about twenty seconds
SEED = 6  # deals the bot a first grid of four words, laid over about twenty seconds


def bot_views(page: Page) -> list[tuple[float, dict]]:
    """The bot's seat in each table the page saw while the hand ran: (clock, player)."""
    return [(m["clock"], m["players"][1]) for m in page.seen if m["type"] == "table" and not m["over"]]


def one_piece(rows: list[str]) -> bool:
    cells = [(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark != "."]
    return len(connected_components(cells)) == 1


async def seat_bot(page: Page) -> str:
    await page.join("Ana")
    await page.send({"type": "add_bot", "preset": "casual"})
    await page.send({"type": "start"})
    return (await page.until("tiles"))["held"]


@pytest.mark.slow  # a casual bot charged for ~20 s; quick: tests/play/test_layout.py
def test_a_bots_thumbnail_grows_word_by_word_while_its_first_work_is_charged():
    async def scenario(room):
        async with Page(server, room) as ana:
            await seat_bot(ana)
            end = await ana.until("end", timeout=90)
            return bot_views(ana), end

    with start_server(distribution=TWO_HANDS_SET, bots=BOT, seed=SEED) as server:
        views, end = run_bounded(lambda: scenario(new_room(server)), timeout=150)
    board = end["boards"][1]
    assert board["status"] == "winner" and board["tiles_left"] == 0  # the end as before: its landed grid
    landed = Grid.from_rows(board["grid"]).tile_count
    counts = [player["on_grid"] for _, player in views]
    assert counts == sorted(counts) and counts[0] == 0
    between = sorted({count for count in counts if 0 < count < landed})
    assert len(between) >= 10, counts  # a tile a second or so, shown before the work lands
    for _, player in views:
        assert player["on_grid"] + player["tiles_left"] == 21  # the rack shrinks as the grid is laid
        assert player["grid"] is None or one_piece(player["grid"])
    growing = [
        clock for (clock, player), (_, before) in zip(views[1:], views) if player["on_grid"] != before["on_grid"]
    ]
    assert all(b - a >= 0.9 for a, b in zip(growing, growing[1:]))  # at most one table a tick


def test_a_hand_that_ends_while_a_bot_builds_shows_none_of_that_work():
    """The person calls BANANAS once the bot's thumbnail shows tiles: none of them had landed."""

    async def scenario(room):
        async with Page(server, room) as ana:
            held = await seat_bot(ana)
            grid = solve(held, lexicon="en", time_limit=10).grid
            assert grid is not None
            cells = [[row, col, letter] for (row, col), letter in grid.cells().items()]
            await ana.until(lambda m: m["type"] == "table" and m["players"][1]["on_grid"] > 0, timeout=60)
            await ana.send({"type": "grid", "cells": cells})
            await ana.send({"type": "call", "call": "bananas"})
            end = await ana.until("end")
            last = next(m for m in reversed(ana.seen) if m["type"] == "table")
            return held, end, last

    with start_server(distribution=TWO_HANDS_SET, bots=BOT, seed=SEED) as server:
        held, end, last = run_bounded(lambda: scenario(new_room(server)), timeout=150)
    person, bot = end["boards"]
    assert person["status"] == "winner"
    assert bot["grid"] is None and bot["tiles_left"] == len(held)  # work under way is not laid
    assert last["over"] and last["players"][1]["on_grid"] == 0 and last["players"][1]["grid"] is None
