"""A room's replay shows what the table showed: every `table` message a page got while a bot
built, played back from the hand's log (the `hand_log` message's frames) at the same clock,
shows the same grids. A bot's work is shown built a tile at a time over the time it is charged
(solver.play.layout); the replay shows it the same way, not empty until the work lands."""

from __future__ import annotations

import pytest
from helpers import Page, new_room, run_bounded, start_server

from solver.coach.logs import read_log
from solver.core.grid import Grid
from solver.web.bananagrams_table import thumbnail

# 44 tiles: two hands of 21 and one PEEL, then the bunch is empty and BANANAS ends the hand.
TWO_HANDS_SET = "A6,E10,I4,L3,N3,O3,R4,S5,T4,U2"
ROUNDING = 0.1  # a table message's clock is rounded to a tenth of a second


def frame_at(frames: list[dict], clock: float) -> dict | None:
    """The replay's frame on screen at `clock`: the last one at or before it."""
    shown = [frame for frame in frames if frame["t"] <= clock]
    return shown[-1] if shown else None


def shapes(grids: list) -> list:
    return [thumbnail(Grid.from_rows(rows) if rows else None, letters=False) for rows in grids]


@pytest.mark.slow  # a whole room hand against a bot (13 s); the replay's frames have quick tests in tests/coach
def test_the_replay_shows_the_grids_the_table_showed_at_each_moment():
    with start_server(distribution=TWO_HANDS_SET, bots={"easy": "medium:speed=4"}) as server:
        room = new_room(server)

        async def scenario():
            async with Page(server, room) as page:
                await page.join("Ann")
                await page.send({"type": "add_bot", "preset": "easy"})
                await page.until(lambda m: m["type"] == "room" and len(m.get("seats", [])) == 2)
                await page.send({"type": "start"})
                await page.until("end", timeout=120)  # the bot builds, PEELs and wins; Ann only watches
                await page.send({"type": "hand_log"})
                return [m for m in page.seen if m["type"] == "table"], await page.until("hand_log")

        tables, log = run_bounded(scenario, timeout=180)

    frames = log["frames"]
    times = [frame["t"] for frame in frames]
    assert times == sorted(times)
    read_log(log["log"].encode())  # the log reads back (its snapshots' `begun` checked)
    building = [t for t in tables if not t["over"] and t["players"][1]["grid"] and t["players"][1]["on_grid"] < 21]
    assert len(building) >= 3  # the bot's first grid was seen part-built, more than once
    compared = 0
    for table in tables:
        if table["over"] or any(abs(t - table["clock"]) <= ROUNDING for t in times):
            continue  # a frame within the clock's rounding: either side may be on screen
        frame = frame_at(frames, table["clock"])
        shown = [player["grid"] for player in table["players"]]
        assert (shapes(frame["grids"]) if frame else [None, None]) == shown, table["clock"]
        compared += 1
    assert compared >= len(building) // 2
