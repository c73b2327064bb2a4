"""The coach in the rooms: each hand's event log (its format and bounds), who may have it,
hints (refused when the room has none; a legal move on the person's own tiles when it has),
and the end screen's review (every best grid passes the validator).

One server for the module: a 21-tile set deals a solo hand with an empty bunch, so each hand
is one BANANAS long.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from helpers import Page, new_room, run_bounded, start_server

from solver.coach.logs import ROOM_LOG, room_header
from solver.core.grid import Grid, validate
from solver.core.limits import MAX_LOG_BYTES, MAX_LOG_SNAPSHOTS_PER_HAND, MAX_ROOM_LOG_BYTES, SNAPSHOT_MIN_SECONDS
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.search import solve
from solver.web import coaching, hand_log
from solver.web.hand_log import HandLogWriter

ONE_HAND_SET = "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"  # 21 tiles: a solo hand with an empty bunch


@pytest.fixture(scope="module")
def server():
    with start_server(distribution=ONE_HAND_SET) as server:
        yield server


def page_cells(grid: Grid, top: int = 3, left: int = -2) -> list[list]:
    """A grid as a page sends it: its own coordinates, anywhere on the board."""
    return [[row + top, col + left, letter] for (row, col), letter in grid.cells().items()]


def cells_grid(cells) -> dict:
    return {(row, col): letter for row, col, letter in cells}


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# -- a solo hand: hint, review, log ---------------------------------------------------------------


@pytest.fixture(scope="module")
def solo_hand(server):
    """A solo hand: a part-built grid, a hint, the whole grid, BANANAS; then the review and
    the hand's log, and what a page of another room gets when it asks for that hand."""
    room = new_room(server, spellcheck=False)
    other = new_room(server)

    async def scenario():
        async with Page(server, room) as page, Page(server, other) as stranger:
            await page.join("Solo")
            await stranger.join("Eve")
            await page.send({"type": "start"})
            held = (await page.until("tiles"))["held"]
            await page.error({"type": "hand_log"}, "out_of_order")  # not while the hand runs: it holds every tile
            await page.error({"type": "review"}, "out_of_order")  # nor its review
            grid = solve(held, lexicon="en", time_limit=10).grid
            assert grid is not None
            word = validate(grid, get_lexicon("en")).words[0]  # a start: one word of the grid
            start = page_cells(Grid.from_cells({cell: grid.cells()[cell] for cell in word.cells}))
            await page.send({"type": "grid", "cells": start})
            await page.send({"type": "hint"})
            hint = (await page.until("hint"))["hint"]
            await page.send({"type": "grid", "cells": page_cells(grid)})
            await page.send({"type": "call", "call": "bananas"})
            end = await page.until("end")
            await page.send({"type": "review"})  # the page asks when it shows the end
            review = await page.until("review", timeout=60)
            await page.send({"type": "hand_log"})
            log = await page.until("hand_log")
            await stranger.error({"type": "hand_log", "hand": 1}, "no_log")  # another room's hand
            await stranger.error({"type": "review", "hand": 1}, "no_review")
            await page.error({"type": "review", "hand": True}, "bad_value")
            return held, start, hint, end, review, log

    return run_bounded(scenario, timeout=120)


def test_a_hint_is_a_legal_move_on_the_persons_own_tiles(solo_hand):
    held, start, hint, _, _, _ = solo_hand
    assert hint is not None and hint["kind"] in ("word", "hook", "move") and hint["text"]
    cells = cells_grid(start)
    for row, col in hint["lift"]:
        assert (row, col) in cells  # the tiles to pick up are on the grid
        del cells[(row, col)]
    rack = TileCounts.from_letters(held) - TileCounts.from_letters("".join(cells.values()))
    laid = "".join(letter for _, _, letter in hint["cells"])
    assert rack.contains(TileCounts.from_letters(laid))  # tiles the person holds, not on the grid
    for row, col, letter in hint["cells"]:
        assert (row, col) not in cells  # on empty cells, in the page's coordinates
        cells[(row, col)] = letter
    assert hint["word"] in {word.text for word in validate(Grid.from_cells(cells), get_lexicon("en")).words}
    assert validate(Grid.from_cells(cells), get_lexicon("en")).ok  # words and one piece, whatever is left in the rack


def test_the_end_counts_the_hint_and_the_review_gives_valid_best_grids(solo_hand):
    held, _, _, end, review, _ = solo_hand
    assert end["boards"][0]["hints"] == 1
    assert review["hand"] == 1
    (player,) = review["review"]["players"]
    assert player["hints"] == 1 and player["grid"] == end["boards"][0]["grid"]
    best = Grid.from_rows(player["best"]["grid"])
    assert validate(best, get_lexicon("en"), TileCounts.from_letters(held)).ok


def test_a_hands_review_is_worked_out_once_however_many_pages_ask(solo_hand, monkeypatch):
    """A review is seconds of search, worked out when a page asks: pages asking at once share
    one search, a later ask gets the same message, and it is the review the room sent."""
    *_, review, message = solo_hand
    searches = []
    real = coaching.review_of
    monkeypatch.setattr(coaching, "review_of", lambda *args: searches.append(args) or real(*args))
    reviewer = coaching.HandReviewer(1, message["log"], get_lexicon("en"), coaching.common_words("en"))

    async def pages() -> list[dict]:
        return [*await asyncio.gather(reviewer.message(), reviewer.message()), await reviewer.message()]

    first, second, later = asyncio.run(pages())
    assert len(searches) == 1 and first is second is later
    assert first == review


def test_the_hand_log_is_a_room_log_with_snapshots_hints_and_grids(solo_hand):
    held, start, _, end, _, message = solo_hand
    assert message["hand"] == 1
    lines = lines_of(message["log"])
    header = lines[0]
    assert header["event"] == "header" and header["format"] == ROOM_LOG
    assert header["names"] == ["Solo"] and header["bots"] == [None] and header["players"] == 1
    assert header["hints"] is True and header["lang"] == "en" and header["room_hand"] == 1
    assert all(line["hand"] == 1 for line in lines[1:])
    kinds = [line["event"] for line in lines[1:]]
    assert kinds[0] == "split" and kinds[-1] == "grids" and {"hint", "bananas", "end"} <= set(kinds)
    assert TileCounts.from_letters(lines[1]["hands"][0]) == TileCounts.from_letters(held)
    snapshots = [line for line in lines if line["event"] == "snapshot"]
    assert snapshots[0]["grid"] == Grid.from_cells(cells_grid(start)).to_json()  # the first grid, at once
    assert snapshots[-1]["grid"] == end["boards"][0]["grid"]  # the grid BANANAS was called on, at the call
    times = [line["t"] for line in snapshots]
    assert all(b - a >= SNAPSHOT_MIN_SECONDS for a, b in zip(times, times[1:-1], strict=False))
    assert lines[-1]["grids"] == [end["boards"][0]["grid"]]


def test_a_rotten_banana_is_reviewed_with_its_bad_words_and_the_nearest_valid_grid(server):
    room = new_room(server, spellcheck=False)

    async def scenario():
        async with Page(server, room) as page:
            await page.join("Rot")
            await page.send({"type": "start"})
            held = (await page.until("tiles"))["held"]
            row = [[0, col, letter] for col, letter in enumerate(held)]  # one long non-word
            await page.send({"type": "grid", "cells": row})
            await page.send({"type": "call", "call": "bananas"})
            await page.until("end")
            await page.send({"type": "review"})  # the page asks when it shows the end
            return held, await page.until("review", timeout=60)

    held, review = run_bounded(scenario, timeout=120)
    (player,) = review["review"]["players"]
    assert not player["valid"] and player["rotten"]["invalid"] == [held]
    nearest = player["rotten"]["nearest"]
    assert validate(Grid.from_rows(nearest["grid"]), get_lexicon("en"), TileCounts.from_letters(held)).ok
    assert 0 < nearest["tiles_moved"] <= len(held)


def test_hints_are_refused_where_the_room_has_none():
    async def scenario():
        async with Page(server, room) as ana, Page(server, room) as ben:
            await ana.join("Ana")
            await ben.join("Ben")
            await ana.send({"type": "start"})
            table = await ana.until("table")
            assert table["hints"] is False
            refusal = await ana.error({"type": "hint"}, "hints_off")
            assert "hints" in refusal["message"]
            await ben.error({"type": "hand_log", "hand": "1"}, "bad_value")
            await ben.send({"type": "leave"})
            await ana.send({"type": "leave"})  # the last one out ends the hand
            await ana.until("bye")

    with start_server() as server:  # the whole set: two people are dealt in
        room = new_room(server, hints=False)
        run_bounded(scenario)


def test_only_a_joined_page_gets_a_log(server):
    room = new_room(server)

    async def scenario():
        async with Page(server, room) as page:
            await page.error({"type": "hand_log", "hand": 1}, "out_of_order")  # join first
            await page.join("Ana")
            await page.error({"type": "hand_log", "hand": 1}, "no_log")  # no hand played yet

    run_bounded(scenario)


# -- the log's bounds ------------------------------------------------------------------------------


def split(log: HandLogWriter, *hands: str) -> None:
    """A hand's deal, as the engine logs it: what every line of a log follows."""
    log.engine_event(
        {"t": 0.0, "event": "split", "hands": list(hands), "bunch": 144 - len("".join(hands)), "unused": ""}
    )


def test_a_persons_snapshots_wait_for_their_second_and_the_last_is_never_lost():
    log = HandLogWriter(2, room_header(1, ["Ana"], [None], "classic", "en"))
    split(log, "ABCDE")
    log.snapshot(0, 0.0, ["AB"])
    log.snapshot(0, 0.3, ["ABC"])  # too soon: waits
    log.snapshot(0, 0.6, ["ABCD"])  # replaces the one waiting
    log.flush(0.8)
    assert [line["grid"] for line in lines_of(log.text()) if line["event"] == "snapshot"] == [["AB"]]
    log.flush(1.2)
    log.snapshot(0, 1.5, ["ABCD"])  # no change: nothing
    log.snapshot(0, 1.6, ["AB"])  # waits ...
    log.flush(1.7, 0, force=True)  # ... until the person calls
    log.snapshot(0, 1.75, None)  # an emptied board is no snapshot
    log.snapshot(0, 1.8, ["ABC"])  # waits, and the hand ends: the grids line has it
    log.finish([Grid.from_rows(["ABC"])], 2.0)
    snapshots = [line for line in lines_of(log.text()) if line["event"] == "snapshot"]
    assert [(s["t"], s["grid"]) for s in snapshots] == [(0.0, ["AB"]), (1.2, ["ABCD"]), (1.7, ["AB"])]
    assert lines_of(log.text())[0]["room_hand"] == 2  # the room's second hand, the log's only one
    assert all(line["hand"] == 1 for line in lines_of(log.text())[1:])
    log.snapshot(0, 9.0, ["A"])
    assert lines_of(log.text())[-1]["event"] == "grids"  # nothing after the grids


def test_nothing_but_the_grids_follows_the_end_and_the_log_reads_back():
    """Issue 33: a person's waiting snapshot was flushed after the engine's `end`, and the
    review failed ("a snapshot event of hand 1 outside that hand"). It goes before the end."""
    log = HandLogWriter(1, room_header(1, ["Ana", "Ben"], [None, None], "classic", "en"))
    log.engine_event({"t": 0.0, "event": "split", "hands": ["AB", "CD"], "bunch": 140, "unused": ""})
    log.snapshot(0, 0.0, ["A"])
    log.snapshot(0, 0.4, ["AB"])  # too soon: waits ...
    log.engine_event({"t": 0.5, "event": "bananas", "player": 1, "grid": ["CD"]})
    log.engine_event({"t": 0.5, "event": "end", "outcome": "win", "winners": [1], "reason": "BANANAS"})
    log.flush(3.0)  # ... the table's next publish: nothing may follow the end
    log.snapshot(1, 3.0, ["DC"])
    log.hint(0, 3.0)
    log.finish([Grid.from_rows(["AB"]), Grid.from_rows(["CD"])], 0.5)
    events = [line["event"] for line in lines_of(log.text())[1:]]
    assert events == ["split", "snapshot", "bananas", "snapshot", "end", "grids"]
    assert [line["t"] for line in lines_of(log.text())[1:] if line["event"] == "snapshot"] == [0.0, 0.5]


def test_the_log_is_bounded_in_snapshots_and_bytes(monkeypatch):
    log = HandLogWriter(1, room_header(1, ["Ana", "Ben"], [None, None], "classic", "en"))
    split(log, "AB", "CAT")
    for second in range(MAX_LOG_SNAPSHOTS_PER_HAND + 5):
        log.snapshot(0, float(second), ["AB" if second % 2 else "BA"])
    assert log.snapshots[0] == MAX_LOG_SNAPSHOTS_PER_HAND
    log.snapshot(1, 0.0, ["CAT"])  # another player's bound is their own
    assert log.snapshots[1] == 1

    monkeypatch.setattr(hand_log, "MAX_ROOM_LOG_BYTES", 2000)
    small = HandLogWriter(1, room_header(1, ["Ana"], [None], "classic", "en"))
    split(small, "ABCDEFGHIJ")
    for second in range(100):
        small.snapshot(0, float(second), ["ABCDEFGHIJ"[: 1 + second % 10]])
    assert small.size <= 2000 - 2000 // hand_log.ENGINE_RESERVE  # snapshots stop short of the bound ...
    small.engine_event({"t": 100.0, "event": "bananas", "player": 0, "grid": ["AB"]})
    assert lines_of(small.text())[-1]["event"] == "bananas"  # ... and the engine's events still fit
    small.engine_event({"t": 100.0, "event": "snapshot", "player": 0, "grid": ["AB"]})  # a bot's, too: no room
    assert lines_of(small.text())[-1]["event"] == "bananas"
    assert len(small.text().encode()) <= 2000 and 2000 < MAX_ROOM_LOG_BYTES <= MAX_LOG_BYTES  # what the coach reads


@pytest.mark.slow  # ~25 s; the race itself, deterministically: test_nothing_but_the_grids_follows_the_end...
def test_every_hand_gets_its_review_when_grids_come_up_to_the_last_moment():
    """Issue 33: a person's grid waiting for its second was written after the hand's `end`,
    and the review failed (no review on 153 of 540 hands under load). A fast bot ends each
    hand while the person's grid keeps changing faster than a snapshot a second: every hand
    gets its review."""
    tiles = "A6,E8,I4,O4,R4,S4,T4,N4,L3,D2,U2,C2"  # 47 tiles: two deals of 21, a few PEELs
    server = start_server(distribution=tiles, bots={"fast": "hard:speed=20"})

    async def hand(ana: Page, first: bool) -> dict:
        if not first:
            await ana.send({"type": "again"})
            await ana.until(lambda m: m["type"] == "room" and m["phase"] == "lobby")
        await ana.send({"type": "start"})
        since = len(ana.seen)
        held = (await ana.until(lambda m: m["type"] == "tiles" and len(m["held"]) == 21))["held"]
        moves = [[[0, col, letter]] for col, letter in enumerate(held)]
        while not any(m["type"] == "end" for m in ana.seen[since:]):
            for cells in moves:  # a tile moved ten times a second (the page's rate allows 20) until the bot's BANANAS
                await ana.send({"type": "grid", "cells": cells})
                await ana.quiet(0.1)
        await ana.send({"type": "review"})  # the page asks when it shows the end
        return await ana.until("review", timeout=60)

    async def hands(count: int) -> list[dict]:
        room = new_room(server)
        async with Page(server, room) as ana:
            await ana.join("ana")
            await ana.send({"type": "add_bot", "preset": "fast"})
            await ana.until(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
            return [await hand(ana, number == 0) for number in range(count)]

    try:
        reviews = run_bounded(lambda: hands(3), timeout=240)
    finally:
        server.stop()
    assert len(reviews) == 3 and all(message["review"] is not None for message in reviews)


def cells_of(letters: str) -> list[list]:
    """A valid grid of every tile, as a page sends its cells."""
    result = solve(TileCounts.from_letters(letters), time_limit=10)
    assert result.solved and validate(result.grid, get_lexicon("en"), TileCounts.from_letters(letters)).ok
    return [[row, col, letter] for (row, col), letter in sorted(result.grid.cells().items())]


def test_hints_come_in_common_words_first_twenty_seconds_apart_and_as_many_as_the_room_says(monkeypatch):
    """Issue 40: hints unlimited and instant (56 in a hand, LOOIE, KAAMA) taught nothing. The
    room's creator chooses how many a hand (here 3: `hint_count`)."""
    import solver.web.bananagrams_table as table

    common = get_lexicon("en", 50)

    async def scenario(room):
        async with Page(server, room) as page:
            await page.join("Solo")
            await page.send({"type": "start"})
            assert (await page.until("tiles"))["hints_left"] == 3
            await page.send({"type": "hint"})
            reply = await page.until("hint")
            first = reply["hint"]
            assert first is not None and first["word"] in common  # a word people know
            assert reply["hints_left"] == 2
            refusal = await page.error({"type": "hint"}, "hint_cooldown")
            assert 0 < refusal["params"]["seconds"] <= 20
            monkeypatch.setattr(table, "HINT_COOLDOWN_SECONDS", 0.0)
            for left in (1, 0):
                await page.send({"type": "hint"})
                reply = await page.until("hint")
                assert reply["hint"] is not None and reply["hints_left"] == left
            refusal = await page.error({"type": "hint"}, "hint_limit")
            assert refusal["params"] == {"count": 3} and "3 hints" in refusal["message"]

    with start_server() as server:
        run_bounded(lambda: scenario(new_room(server, hint_count=3)))


TWO_HANDS_SET = "A4,B1,C2,D2,E6,G1,H1,I4,L2,M1,N3,O4,P1,R3,S2,T3,U2"  # 42 tiles


def test_the_end_the_log_and_the_review_credit_a_bot_with_what_the_table_saw():
    """Issue 40: the end screen showed a bot's grid with work it had not laid (36 tiles seen,
    48 shown, "tiles left 0"), and the review's tiles a minute came out the same for everyone.
    A person calls BANANAS while a slow bot is still on its first grid: the bot laid nothing
    the table saw, and the end, the log's grids and the review all say so."""

    async def scenario(room):
        async with Page(server, room) as ana:
            await ana.join("Ana")
            await ana.send({"type": "add_bot", "preset": "easy"})  # SLOW_BOT: minutes a grid
            await ana.send({"type": "start"})
            held = (await ana.until("tiles"))["held"]
            grid = solve(held, lexicon="en", time_limit=10).grid
            await ana.send({"type": "grid", "cells": page_cells(grid)})
            await ana.send({"type": "call", "call": "bananas"})
            end = await ana.until("end")
            await ana.send({"type": "review"})  # the page asks when it shows the end
            review = (await ana.until("review", timeout=60))["review"]
            await ana.send({"type": "hand_log"})
            log = lines_of((await ana.until("hand_log"))["log"])
            return held, end, review, log

    with start_server(distribution=TWO_HANDS_SET) as server:  # 21 each, an empty bunch: BANANAS at once
        held, end, review, log = run_bounded(lambda: scenario(new_room(server)), timeout=120)
    person, bot = end["boards"]
    assert person["tiles_left"] == 0 and person["status"] == "winner"
    assert bot["grid"] is None and bot["tiles_left"] == len(held)  # nothing of its work had landed
    grids = next(line["grids"] for line in log if line.get("event") == "grids")
    assert grids == [person["grid"], bot["grid"]]  # the log's last word is the end screen's
    rates = [player["tiles_per_minute"] for player in review["players"]]
    assert rates[0] is not None and rates[1] is None  # each player's own, from what they laid
    assert review["players"][1]["first_grid_s"] is None and bot["first_grid"] is None


@pytest.mark.slow  # two room hands against a bot (5 s each)
@pytest.mark.parametrize(
    "tiles",
    [TWO_HANDS_SET, TWO_HANDS_SET.replace("E6", "E7").replace("S2", "S3")],
)  # bunch 0; 2
def test_a_bots_first_grid_is_one_moment_on_the_end_screen_and_in_the_review(tiles):
    """Issue 40: "first grid" disagreed three ways (end table 4:50, the log 2:10, the review
    2:11). A quick bot builds (PEELs when the bunch allows) and calls BANANAS while the person
    holds their tiles."""

    async def scenario(room):
        async with Page(server, room) as ana:
            await ana.join("Ana")
            await ana.send({"type": "add_bot", "preset": "easy"})
            await ana.send({"type": "start"})
            end = await ana.until("end", timeout=90)
            await ana.send({"type": "review"})  # the page asks when it shows the end
            review = (await ana.until("review", timeout=60))["review"]
            return end, review

    with start_server(distribution=tiles, bots={"easy": "medium:speed=8"}) as server:
        end, review = run_bounded(lambda: scenario(new_room(server)), timeout=180)
    person, bot = end["boards"]
    assert bot["status"] == "winner" and bot["tiles_left"] == 0 and person["tiles_left"] in (21, 22)
    seen, reviewed = bot["first_grid"], review["players"][1]["first_grid_s"]
    assert seen is not None and reviewed is not None and abs(seen - reviewed) <= 0.1, (seen, reviewed)
    assert person["first_grid"] is None and review["players"][0]["first_grid_s"] is None
    rates = [player["tiles_per_minute"] for player in review["players"]]
    assert rates[0] is None and rates[1] > 0  # each player's own
