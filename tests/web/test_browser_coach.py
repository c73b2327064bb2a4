"""The coach in a real browser: a solo hand where the person asks for a hint and sees it on
the board, the end screen's review (their grid beside the best grid their tiles allowed, which
the validator passes), and the replay's timeline, whose grid changes as it is scrubbed. A
phone that joins the room after the hand sees the same end screen.

One server and one hand for the whole file (CI time). Screenshots: BANANAS_SCREENSHOTS=1
writes them into docs/screenshots/ (coach-hint, coach-hint-phone, coach-replay, coach-phone).
"""

from __future__ import annotations

import re

import pytest
from test_browser import build, mini_rows, new_page, place, rack, solved, wait_for_tiles

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts

pytestmark = pytest.mark.browser

ONE_HAND_SET = "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"  # 21 tiles: a solo hand with an empty bunch


def scrub(page, key: str) -> list[list[str] | None]:
    """Move the replay's timeline with the keyboard; every player's grid it then shows."""
    page.focus("#replay-range")
    page.keyboard.press(key)
    return [mini_rows(figure) for figure in page.locator("#replay-boards figure").all()]


def test_a_solo_hand_with_a_hint_a_review_and_a_replay(browser, serve, shots, en):
    server = serve(distribution=ONE_HAND_SET)
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.fill("#name", "Ana")
    page.click("#create")
    page.wait_for_selector("#lobby:not([hidden])")
    link = page.input_value("#room-link")
    page.click("#start")
    wait_for_tiles(page, 21)
    held = rack(page)

    # A first word, then a hint: its text, and its tiles drawn on empty cells of the board.
    grid = solved(held)
    word = validate(grid, en).words[0]
    top, left = min(word.cells)
    for row, col in word.cells:
        place(page, grid.cells()[(row, col)], row - top, col - left - 2, "tap")
    assert page.is_visible("#hint") and page.is_enabled("#hint")
    assert page.inner_text("#hint") == "Hint (5 left)"  # the room's default, 5 a hand
    page.click("#hint")
    page.wait_for_selector("#hint-text:not([hidden])")
    page.wait_for_function("document.querySelector('#hint').innerText === 'Hint (4 left)'")
    page.wait_for_selector("#board-layer .tile.hinted")
    assert page.inner_text("#hint-text").startswith("Hint:")
    page.screenshot(path=str(shots / "coach-hint.png"))
    page.set_viewport_size({"width": 390, "height": 844})  # the same hint on a phone's screen
    page.click("#center")  # fits the grid and the hint
    page.screenshot(path=str(shots / "coach-hint-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 800})

    # The whole grid, BANANAS, and the review: the best grid these tiles allowed.
    page.click("#recall")
    built = build(page, held, "tap")
    page.click("#bananas")
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_selector("#review .review-best .mini")
    best = mini_rows(page.locator("#review .review-best").first)
    assert best is not None and validate(Grid.from_rows(best), en, TileCounts.from_letters(held)).ok
    assert mini_rows(page.locator("#review .review-mine").first) == built.to_json()
    assert "hints: 1" in page.inner_text("#review .review-stats")
    assert page.inner_text("#review .review-mine figcaption") == "Your grid"  # her own, not "Their grid"
    assert re.search(r"· Time \d+:\d\d · \d+ words$", page.inner_text("#end-reason"))  # a clock, as m:ss

    # The replay: the final grids at first; back to the deal (nothing laid); a step on shows a grid.
    page.click("#replay")
    page.wait_for_selector("#replay-view:not([hidden]) #replay-boards figure")
    assert mini_rows(page.locator("#replay-boards figure").first) == built.to_json()
    assert scrub(page, "Home") == [None]
    first = scrub(page, "ArrowRight")
    assert first[0] is not None and first[0] != built.to_json()
    page.evaluate("window.scrollTo(0, 0)")  # a full-page picture of a scrolled page draws its sticky bar mid-way
    page.screenshot(path=str(shots / "coach-replay.png"), full_page=True)
    assert page.errors == []

    # A phone joins the room after the hand: the same end screen, review and replay.
    phone = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link)
    phone.fill("#join-name", "Pia")
    phone.tap("#join-button")
    phone.wait_for_selector("#end:not([hidden]) #review .review-best .mini")
    phone.tap("#replay")
    phone.wait_for_selector("#replay-view:not([hidden]) #replay-boards figure")
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(shots / "coach-phone.png"), full_page=True)
    assert phone.errors == []
