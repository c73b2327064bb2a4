"""A room's offensive-words option: off by default (bots, hints and reviews never use slurs or
profanity), on when the room's creator asks; the referee accepts a person's such words either way."""

from __future__ import annotations

import json

from helpers import Page, http, new_room, run_bounded, start_server

from solver.core.grid import Grid, validate
from solver.core.tiles import DISTRIBUTIONS, TileCounts
from solver.play.bots import make_bot
from solver.play.variants import VARIANTS
from solver.web.bananagrams_table import table_rules
from solver.web.coaching import common_words
from solver.web.table import Seat, TableSetup


def setup(offensive_words: bool) -> TableSetup:
    seats = (Seat("person", "Ann"), Seat("bot", "beginner bot", spec="beginner"))
    tiles = DISTRIBUTIONS["en"]
    return TableSetup(seats, VARIANTS["classic"], "en", tiles, True, 1, None, 0.0, offensive_words=offensive_words)


def test_the_tables_word_lists_leave_the_offensive_words_out_unless_the_room_allows_them():
    for allowed in (False, True):
        rules = table_rules(setup(allowed))
        assert rules.lexicon == ("en+offensive" if allowed else "en")
        bot = make_bot("beginner")
        bot.start(TileCounts.from_letters("FUCKERS"), rules, seed=0)
        assert ("fuckers" in bot.board.lexicon.trie) == allowed
        assert bot.board.lexicon.name == ("en@50+offensive" if allowed else "en@50")
        assert [common.name for common in common_words("en", allowed)] == [
            "en@35" + "+offensive" * allowed,
            "en@50" + "+offensive" * allowed,
        ]
        assert all(("whore" in common.formable_words("WHORE")) == allowed for common in common_words("en", allowed))
        # The referee's list accepts a person's word either way.
        assert validate(Grid.from_rows(["FUCK"]), bot.board.lexicon).ok


def test_the_room_option_is_off_by_default_said_in_room_and_checked():
    with start_server() as server:
        for bad in ("yes", 1, None):
            status, _, body = http(server.url + "/api/rooms", {"offensive_words": bad})
            assert status == 400 and json.loads(body)["code"] == "bad_value", (bad, body)
        for settings, expected in (({}, False), ({"offensive_words": True}, True)):
            room = new_room(server, **settings)

            async def scenario(room=room, expected=expected):
                async with Page(server, room) as ana:
                    await ana.join("Ana")
                    assert (await ana.until("room"))["offensive_words"] is expected

            run_bounded(scenario)
