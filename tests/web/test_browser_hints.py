"""A hint in a real browser, on a desktop and on a phone: the tiles it says to pick up are marked
by stripes and an arrow (not by colour alone, and unlike an invalid tile), and its text and marks
go once the grid changes."""

from __future__ import annotations

import pytest
from test_browser import new_page, place, wait_for_tiles

pytestmark = pytest.mark.browser

ONE_HAND_SET = "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"  # 21 tiles: a solo hand with an empty bunch
MARKS = """tiles => tiles.map(tile => ({
  letter: tile.dataset.letter,
  lift: tile.classList.contains("lift"),
  bad: tile.classList.contains("bad"),
  stripes: getComputedStyle(tile).backgroundImage,
  arrow: getComputedStyle(tile, "::after").content,
}))"""


@pytest.mark.parametrize(
    ("viewport", "gesture"), [({"width": 1280, "height": 800}, "tap"), ({"width": 390, "height": 844}, "touch")]
)
def test_the_tiles_to_pick_up_are_marked_apart_and_the_hint_goes_when_the_grid_changes(
    browser, serve, shots, viewport, gesture
):
    server = serve(distribution=ONE_HAND_SET)
    phone = gesture == "touch"
    page = new_page(browser, viewport=viewport, is_mobile=phone, has_touch=phone)
    page.goto(server.url + "/")
    page.fill("#name", "Ana")
    page.click("#create")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#start")
    wait_for_tiles(page, 21)

    # NR is no word: the server marks both tiles invalid, and the hint lifts at least one.
    place(page, "N", 0, 0, gesture)
    place(page, "R", 0, 1, gesture)
    page.wait_for_selector("#board-layer .tile.bad")
    page.click("#hint")
    page.wait_for_selector("#hint-text:not([hidden])")
    page.wait_for_selector("#board-layer .tile.placed.lift")
    page.screenshot(path=str(shots / f"hint-lift-{viewport['width']}.png"))
    marks = page.eval_on_selector_all("#board-layer .tile.placed", MARKS)
    lifted = [mark for mark in marks if mark["lift"]]
    assert lifted
    for mark in lifted:
        assert "repeating-linear-gradient" in mark["stripes"], mark
        assert mark["arrow"] == '"\u2191"', mark
    for mark in marks:
        if not mark["lift"]:  # an invalid tile alone: plain, no stripes, no arrow
            assert mark["stripes"] == "none" and mark["arrow"] in ("none", "normal"), mark

    # Any change of the grid: the hint's words and marks go, as they were for the grid before.
    place(page, "E", 1, 0, gesture)
    page.wait_for_selector("#hint-text", state="hidden")
    assert page.locator("#board-layer .tile.lift").count() == 0
    assert page.locator("#board-layer .tile.hinted").count() == 0
    assert page.errors == []
