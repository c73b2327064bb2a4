"""Spellevate in `bananas serve`: whole rounds through the real room socket, the referee's
refusals (which change nothing), reconnecting, leaving, scores and play again.

The server runs in a thread on 127.0.0.1 (tests/helpers.py); bots move with no
delay. Every wait is bounded.
"""

from __future__ import annotations

import asyncio

import pytest
from helpers import Page, latest, new_room, run_bounded, start_server

from solver.core.limits import MAX_SPELLEVATE_PLAY_LETTERS as LONGEST_PLAY
from solver.core.tiles import ENGLISH, TileCounts
from solver.play.spellevate import scores


@pytest.fixture(autouse=True, scope="module")
def word_index_built():
    """Spellevate's word index, built once before any round needs it."""
    from solver.lexicon.loader import get_lexicon
    from solver.play.spellevate_bots import word_index

    word_index(get_lexicon("en"))


@pytest.fixture
def server():
    server = start_server(spellevate_delay=0.0, seed=11)
    yield server
    server.stop()


async def seated(server, names: list[str], bots: list[str]) -> tuple[str, list[Page], list[dict]]:
    """A Spellevate room with these persons (the first hosts) and bots, its round started."""
    room = new_room(server, variant="spellevate")
    pages = [await Page(server, room).__aenter__() for _ in names]
    welcomes = [await page.join(name) for page, name in zip(pages, names, strict=True)]
    for preset in bots:
        await pages[0].send({"type": "add_bot", "preset": preset})
        await pages[0].until(lambda m, n=preset: m["type"] == "room" and any(s["preset"] == n for s in m["seats"]))
    await pages[0].send({"type": "start"})
    return room, pages, welcomes


async def my_turn(page: Page) -> dict:
    """The hand message that says it is this page's turn, or the end of the round."""
    return await page.until(lambda m: m["type"] == "spellevate_end" or (m["type"] == "hand" and m["your_turn"]))


async def play_to_the_end(pages: list[Page]) -> dict:
    """Every person plays the first listed play (or passes when nothing beats the table),
    each page on its own, until the round ends; every page sees the same end."""

    async def one(page: Page) -> dict:
        seen = [m for m in page.seen if m["type"] == "hand"]
        if seen and seen[-1]["your_turn"]:  # already read (if already answered, the referee refuses a repeat)
            await move(page, seen[-1])
        while (message := await my_turn(page))["type"] != "spellevate_end":
            await move(page, message)
        return message

    ends = await asyncio.gather(*(one(page) for page in pages))
    assert all(end == ends[0] for end in ends)
    return ends[0]


async def move(page: Page, hand: dict) -> None:
    """The first listed play, or a pass when nothing beats the table."""
    if hand["plays"]:
        await page.send({"type": "play", "letters": hand["plays"][0]})
    else:
        assert latest(page, "spellevate")["table"] is not None  # a leader always has a play listed
        await page.send({"type": "pass"})


def check_end(end: dict, page: Page) -> None:
    """Scores as RULES.md says, against the last public state the page saw."""
    sizes = [entry["tiles"] for entry in end["scores"]]
    winner = next(entry["seat"] for entry in end["scores"] if entry["name"] == end["winner"])
    assert sizes[winner] == 0
    assert [entry["score"] for entry in end["scores"]] == scores(sizes, winner)
    assert sum(entry["score"] for entry in end["scores"]) == 0
    assert [player["tiles"] for player in latest(page, "spellevate")["players"]] == sizes


def own_tiles_only(page: Page, seat: int) -> None:
    """Every hand a page was sent is its own: as many letters as its seat holds then."""
    public = None
    for message in page.seen:
        if message["type"] == "spellevate":
            public = message
        elif message["type"] == "hand":
            assert public is not None
            assert len(message["letters"]) == public["players"][seat]["tiles"]
        assert "hands" not in message


def test_a_person_plays_a_whole_round_against_two_bots(server):
    async def scenario():
        _, [page], _ = await seated(server, ["Ana"], ["simple", "planner"])
        first = await page.until("hand")
        assert len(first["letters"]) == len(ENGLISH) // 3  # all 144 tiles dealt to three players
        end = await play_to_the_end([page])
        check_end(end, page)
        own_tiles_only(page, 0)
        kinds = {entry["kind"] for message in page.seen if message["type"] == "log" for entry in message["entries"]}
        assert {"sp_lead", "sp_play", "sp_win"} <= kinds
        room = await page.until(lambda m: m["type"] == "room" and m["phase"] != "playing")
        assert room["phase"] == "ended" and room["variant"] == "spellevate"
        assert room["bots"] == ["simple", "planner"]
        await page.__aexit__()

    run_bounded(scenario)


def test_two_persons_and_a_bot_see_only_their_own_tiles(server):
    async def scenario():
        _, pages, _ = await seated(server, ["Ana", "Ben"], ["simple"])
        end = await play_to_the_end(pages)
        for seat, page in enumerate(pages):
            check_end(end, page)
            own_tiles_only(page, seat)
            await page.__aexit__()

    run_bounded(scenario)


def test_illegal_plays_are_refused_with_the_referees_reason_and_change_nothing(server):
    async def scenario():
        _, pages, _ = await seated(server, ["Ana", "Ben"], ["simple"])
        for page in pages:  # the bot moves at once: then the round waits for a person
            await page.until("hand")
            await page.quiet(0.3)
        turn = latest(pages[0], "spellevate")["turn"]
        assert turn in (0, 1)
        mover, other = pages[turn], pages[1 - turn]
        hand = latest(mover, "hand")
        assert hand["your_turn"] and hand["plays"]
        table = latest(mover, "spellevate")
        held = TileCounts.from_letters(hand["letters"])
        missing = next(letter for letter in "ZQXJKVWY" + "ABCDEFGHIJKLMNOPRSTU" if held.counts[ord(letter) - 65] == 0)
        refusals = [
            ({"type": "play", "letters": missing}, "bad_play", "not in your hand"),
            ({"type": "play", "letters": "QZXVJ"}, "bad_play", None),
            (
                {"type": "play", "letters": "A" * (LONGEST_PLAY + 1)},
                "bad_play",
                f"at most {LONGEST_PLAY}",
            ),
            ({"type": "play", "letters": "C4T"}, "bad_play", "letters A-Z"),
            ({"type": "play", "letters": ["CAT"]}, "bad_play", None),
            ({"type": "play"}, "bad_play", None),
            ({"type": "grid", "cells": []}, "out_of_order", "Spellevate"),
        ]
        if table["table"] is None:
            refusals.append(({"type": "pass"}, "bad_play", "leader cannot pass"))
        else:
            length = len(table["table"])
            refusals.append(({"type": "play", "letters": hand["letters"][: length + 1]}, "bad_play", None))
        for message, code, words in refusals:
            reply = await mover.error(message, code)
            assert words is None or words in reply["message"], reply
        await other.error({"type": "play", "letters": other_letter(other)}, "not_your_turn")
        await other.error({"type": "pass"}, "not_your_turn")
        for page in pages:  # nothing changed: no new state, no hand, no log
            assert not [m for m in await page.quiet(0.3) if m["type"] in ("spellevate", "hand", "log")]
        assert latest(mover, "spellevate") == table
        await mover.send({"type": "play", "letters": hand["plays"][0]})
        after = await mover.until("spellevate")
        assert after["players"][turn]["tiles"] == table["players"][turn]["tiles"] - len(hand["plays"][0])
        for page in pages:
            await page.__aexit__()

    run_bounded(scenario)


def other_letter(page: Page) -> str:
    return latest(page, "hand")["letters"][0]


def test_reconnecting_keeps_the_seat_and_the_hand(server):
    async def scenario():
        room, [page], [welcome] = await seated(server, ["Ana"], ["simple", "simple"])
        hand = await page.until("hand")
        await page.__aexit__()
        async with Page(server, room) as again:
            back = await again.join("Someone else", token=welcome["token"])
            assert back["name"] == "Ana"
            restored = await again.until("hand")
            log = next(m for m in again.seen if m["type"] == "log")
            assert log["reset"] and log["entries"][0]["kind"] == "sp_lead"
            state = latest(again, "spellevate")
            assert state["players"][0]["tiles"] == len(restored["letters"])
            if not state["players"][0]["tiles"] < len(hand["letters"]):
                assert restored["letters"] == hand["letters"]
            end = await play_to_the_end([again])
            check_end(end, again)

    run_bounded(scenario)


def test_play_again_the_winner_leads_and_a_person_who_leaves_is_replaced(server):
    async def scenario():
        _, pages, _ = await seated(server, ["Ana", "Ben"], ["simple"])
        end = await play_to_the_end(pages)
        await pages[0].send({"type": "again"})
        await pages[1].until(lambda m: m["type"] == "room" and m["phase"] == "lobby")
        await pages[0].send({"type": "start"})
        lead = await pages[1].until(lambda m: m["type"] == "log" and any(e["kind"] == "sp_lead" for e in m["entries"]))
        assert lead["entries"][0]["who"] == end["winner"] and lead["entries"][0]["letters"] == ""
        await pages[1].send({"type": "leave"})
        await pages[1].until("bye")
        left = await pages[0].until(lambda m: m["type"] == "log" and any(e["kind"] == "sp_left" for e in m["entries"]))
        assert left["entries"][0]["who"] == "Ben"
        check_end(await play_to_the_end([pages[0]]), pages[0])
        for page in pages:
            await page.__aexit__()

    run_bounded(scenario)


def test_a_round_needs_three_players_and_spellevate_bots(server):
    async def scenario():
        room = new_room(server, variant="spellevate")
        async with Page(server, room) as page:
            await page.join("Ana")
            await page.error({"type": "add_bot", "preset": "easy"}, "bad_value")
            await page.send({"type": "add_bot", "preset": "planner"})
            await page.until(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
            reply = await page.error({"type": "start"}, "bad_start")
            assert "3 or more players" in reply["message"]
            await page.error({"type": "play", "letters": "A"}, "out_of_order")
        room = new_room(server)  # a Bananagrams room: no Spellevate moves
        async with Page(server, room) as page:
            await page.join("Ana")
            await page.error({"type": "pass"}, "out_of_order")

    run_bounded(scenario)
