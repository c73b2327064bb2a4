"""What the page says, in a real browser, word for word: a bot's name in the page's language in
the calls log and the announcements, numbers written as the language writes them, and each
announcement a sentence of its own (no "wins!." and no "Partie terminée:" without its space).

The server's messages are fed to the page's own handler (`messages.receive`, what the socket
calls), so each text is the page's as a player would get it."""

from __future__ import annotations

import pytest
from test_browser import create_room, new_page

pytestmark = pytest.mark.browser

BOT_END = {
    "type": "end",
    "outcome": "win",
    "winners": ["expert bot"],
    "reason": "BANANAS with a valid grid",
    "reason_code": "bananas",
    "reason_params": {},
    "scores": {},
    "clock": 80.0,
    "boards": [
        {"seat": 0, "name": "Ana", "kind": "person", "status": "building", "grid": None, "tiles_left": 1,
         "first_grid": None, "tiles_per_minute": None, "peels": 0, "dumps": 0, "hints": 0},
        {"seat": 1, "name": "expert bot", "kind": "bot", "status": "winner", "grid": ["CAT"], "tiles_left": 0,
         "first_grid": 40.2, "tiles_per_minute": 18.1, "peels": 1, "dumps": 0, "hints": 0, "valid": True,
         "invalid_cells": [], "words": ["CAT"]},
    ],
}  # fmt: skip


def receive(page, *messages: dict) -> None:
    page.evaluate("async (messages) => { const m = await import('/static/messages.js'); messages.forEach(m.receive); }",
                  list(messages))  # fmt: skip


def announcements(page) -> list[str]:
    page.wait_for_timeout(300)  # the announcements of one moment are batched (120 ms)
    return page.eval_on_selector_all("#announcements p", "items => items.map(item => item.textContent)")


@pytest.mark.parametrize(
    ("language", "bot", "said_end", "pace"),
    [
        ("fr", "robot expert", "Partie terminée : robot expert gagne ! BANANAS avec une grille valide.", "18,1"),
        ("en", "expert bot", "Game over: expert bot wins! BANANAS with a valid grid.", "18.1"),
    ],
)
def test_bot_names_numbers_and_sentences_in_the_pages_language(browser, serve, language, bot, said_end, pace):
    server = serve()
    page = new_page(browser, locale=f"{language}-FR" if language == "fr" else "en-US")
    page.goto(server.url + "/")
    page.select_option("#language", language)
    create_room(page, server, "Ana")
    receive(page, {"type": "log", "entries": [{"t": 61.0, "kind": "split", "hand_size": 21}]})
    receive(page, {"type": "log", "entries": [{"t": 75.0, "kind": "peel", "who": "expert bot"}]})
    receive(page, {"type": "log", "entries": [{"t": 79.0, "kind": "bananas", "who": "expert bot"}]})
    log = page.eval_on_selector_all("#log li", "items => items.map(item => item.textContent)")
    assert bot in log[0] and bot in log[1] and all("expert bot" not in line for line in log if language == "fr")
    said = announcements(page)
    assert any(line.startswith(f"{bot} ") or f" {bot} " in line for line in said), said
    assert all(line.rstrip().endswith((".", "!", "?")) for line in said), said

    receive(page, BOT_END)
    page.wait_for_selector("#end:not([hidden])")
    cells = page.eval_on_selector_all("#end-stats tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert [bot, pace] == [cells[2][0], cells[2][4]], cells
    ending = announcements(page)[-1]
    assert ending == said_end
    assert "!." not in ending and "terminée:" not in ending
    assert page.errors == []
