"""The public counts of a table add up to the tile set at every step: the bunch, and each
player's tiles in the rack and on the grid (a rotten banana's tiles are back in the bunch)."""

from __future__ import annotations

import asyncio
import json

from test_fuzz_rooms import FakePage, config, deliver

from solver.core.grid import validate
from solver.core.tiles import TileCounts, parse_distribution
from solver.lexicon.loader import get_lexicon
from solver.search.solving import solve
from solver.web.lobby import Rooms

# 66 tiles: three hands of 21 and a bunch of 3, so after one PEEL the bunch is empty and BANANAS may be called.
SET = "A9,E12,I7,O7,U3,R5,S5,T5,N5,L4,D4"


def held(page: FakePage) -> str:
    return next(m for m in reversed(page.received) if m["type"] == "tiles")["held"]


def last_table(page: FakePage) -> dict:
    return next(m for m in reversed(page.received) if m["type"] == "table")


def counted(table: dict) -> int:
    return table["bunch"] + sum(player["tiles_left"] + player["on_grid"] for player in table["players"])


async def lay_grid(room, page: FakePage, letters: str) -> None:
    """The person lays a solver's grid of `letters` (validated first)."""
    found = solve(TileCounts.from_letters(letters), get_lexicon("en"), seed=0, time_limit=10.0)
    assert found.grid is not None and validate(found.grid, get_lexicon("en"), TileCounts.from_letters(letters)).ok
    cells = [[row, col, letter] for (row, col), letter in sorted(found.grid.cells().items())]
    await deliver(room, page, json.dumps({"type": "grid", "cells": cells}))


def test_after_a_peel_and_a_rotten_banana_the_counts_still_add_up_to_the_set():
    """Bob PEELs, then Ann calls BANANAS without laying her new tile: she is rotten, her tiles go
    back to the bunch, and no page counts them twice."""

    async def scenario():
        room = Rooms(config(distribution=SET)).create("en", True, "classic")
        pages = {name: FakePage(name) for name in ("Ann", "Bob", "Cid")}
        for name, page in pages.items():
            room.connections[page] = None
            await deliver(room, page, json.dumps({"type": "join", "name": name}))
        await deliver(room, pages["Ann"], json.dumps({"type": "start"}))
        total = len(parse_distribution(SET))
        assert counted(last_table(pages["Cid"])) == total
        ann_dealt = held(pages["Ann"])
        await lay_grid(room, pages["Bob"], held(pages["Bob"]))
        await deliver(room, pages["Bob"], json.dumps({"type": "call", "call": "peel"}))
        assert len(held(pages["Ann"])) == len(ann_dealt) + 1
        assert counted(last_table(pages["Cid"])) == total
        await lay_grid(room, pages["Ann"], ann_dealt)  # the new tile stays in the rack
        await deliver(room, pages["Ann"], json.dumps({"type": "call", "call": "bananas"}))
        for page in pages.values():
            table = last_table(page)
            ann = table["players"][0]
            assert ann["status"] == "rotten" and not ann["active"], ann
            assert counted(table) == total, (page.name, table)
        room.close("done")

    asyncio.run(scenario())
