"""The "Solve my tiles" page (/solve) in a real browser, on a phone: a person taps a 21-letter
hand on the letter pad, reads the grid, adds a PEEL's tile and reads "N tiles moved"; a reload
shows the same grid; Check marks a bad word in red. Every grid the page shows is re-checked
with the validator. Screenshots (BANANAS_SCREENSHOTS=1): docs/screenshots/solve-phone.png.
"""

from __future__ import annotations

import re

import pytest
from test_browser import new_page

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.web import solve_api

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
HAND = "AEEIRSTQUNLDOGCABHMPR"  # 21 tiles


def shown_grid(page) -> Grid:
    """The grid the page shows, read from the address (the page's own record of it), and
    checked against the picture: one square per letter."""
    query = page.evaluate("location.search")
    rows = re.search(r"grid=([A-Z.\-]+)", query).group(1).split("-")
    grid = Grid.from_rows(rows)
    assert page.locator("#picture svg rect.grid-tile").count() == len(grid.cells())
    return grid


@pytest.fixture
def server(serve, monkeypatch):
    monkeypatch.setattr(solve_api, "API_REQUEST_BURST", 1000)
    return serve()


def test_a_person_taps_a_hand_solves_it_and_peels_a_tile_on_a_phone(browser, server, shots, en):
    page = new_page(browser, **PHONE)
    page.goto(server.url + "/")
    page.tap("a[href='/solve']")
    page.wait_for_selector("#pad .pad-letter")
    for letter in HAND:
        page.tap(f"#pad button[data-key={letter}]")
    assert page.input_value("#tiles") == HAND and "21" in page.text_content("#tile-count")
    page.tap("#solve")
    page.wait_for_selector("#picture svg")
    assert page.text_content("#status").startswith("Solved: 21 tiles")
    words = page.eval_on_selector_all("#words li", "items => items.map(i => i.textContent)")
    grid = shown_grid(page)
    assert validate(grid, en, TileCounts.from_letters(HAND)).ok
    assert sorted(words) == sorted(word.text for word in validate(grid, en).words)

    page.tap("[data-tab=peel]")
    page.tap("#pad button[data-key=Z]")
    page.tap("#peel")
    page.wait_for_function("document.querySelector('#moved').dataset.moved !== undefined")
    moved = page.text_content("#moved")
    count = int(page.get_attribute("#moved", "data-moved"))
    assert moved == ("No tile moved" if count == 0 else "1 tile moved" if count == 1 else f"{count} tiles moved")
    peeled = shown_grid(page)
    assert validate(peeled, en, TileCounts.from_letters(HAND + "Z")).ok
    assert page.locator("#picture rect.grid-tile.new").count() == 1
    assert page.locator("#picture rect.grid-tile.moved").count() == count
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "solve-phone.png"), full_page=True)

    page.reload()  # the address holds the state: the same grid again
    page.wait_for_selector("#picture svg")
    assert shown_grid(page) == peeled and page.input_value("#tiles") == "".join(sorted(HAND + "Z"))
    assert page.errors == []


def test_check_shows_every_bad_word_in_red_in_french(browser, server):
    page = new_page(browser, **PHONE)
    page.goto(server.url + "/solve?lang=fr&view=check")
    page.wait_for_selector("#check-grid")
    assert page.text_content("h1") == "Résoudre mes tuiles"
    page.fill("#check-grid", "CHAT\nA...\nXYZW")
    page.tap("#check")
    page.wait_for_selector("#check-picture svg")
    assert page.text_content("#check-status") == "Pas valide :"
    bad = page.eval_on_selector_all("#check-words li.bad", "items => items.map(i => i.textContent)")
    assert sorted(bad) == ["CAX", "XYZW"]
    assert page.locator("#check-picture rect.invalid").count() == 2
    assert page.errors == []


def test_common_words_only_and_french_has_no_such_choice(browser, server):
    page = new_page(browser, **PHONE)
    page.goto(server.url + "/solve?tiles=CATMAPRISE&words=common")
    page.wait_for_selector("#picture svg")
    assert page.input_value("#vocabulary") == "common"
    common = solve_api.get_lexicon("en@50")
    words = page.eval_on_selector_all("#words li", "items => items.map(i => i.textContent)")
    assert words and all(word in common for word in words)
    page.select_option("#lexicon", "fr")
    assert page.is_disabled("#vocabulary") and page.input_value("#vocabulary") == "all"
    assert "words=" not in page.evaluate("location.search")
    assert page.errors == []


def test_what_the_solve_page_used_to_pass_over_in_silence(browser, server):
    """Issue 40: a grid typed without its padding dots, empty or digit-only letters, a 300-letter
    paste and "1 tiles"; and the French page checks French words, with problems in French."""
    page = new_page(browser, **PHONE)
    page.goto(server.url + "/solve")
    page.wait_for_selector("#tiles")
    page.fill("#tiles", "1234")
    page.tap("#solve")
    assert page.text_content("#solve-message") == "Type some letters first (A to Z)."
    page.fill("#tiles", "Q")
    assert page.text_content("#tile-count") == "1 tile"
    page.fill("#tiles", "E" * 300)  # the field takes 288: the count says so
    assert page.text_content("#tile-count") == "288 tiles: at most 288 letters are taken"
    page.goto(server.url + "/solve?view=check")
    page.fill("#check-grid", "CAT\nA\nT")  # short rows, no dots: the page pads them
    page.tap("#check")
    page.wait_for_selector("#check-picture svg")
    assert page.text_content("#check-status").startswith("Valid")
    page.tap("button[data-ui=fr]")
    assert page.input_value("#lexicon") == "fr"  # the word list follows the page's language
    page.fill("#check-grid", "TOI\n...\nTOI")  # two parts: said in French
    page.tap("#check")
    page.wait_for_function("document.querySelector('#check-problems').textContent.includes('morceaux')")
    assert page.errors == []
