"""The table's strip of players and the end table, in a real browser at 1280x800 and on phones
(360 and 390 px wide): with four players every name and count is in view, not cut and not
scrolled away; the thumbnails are tall enough to show a grid's shape; a PEEL's notice leaves the
bunch and your own count in view; the end table shows every column without scrolling."""

from __future__ import annotations

import re

import pytest
from test_browser import add_bot, create_room, new_page, wait_for_tiles
from test_browser_words import receive

pytestmark = pytest.mark.browser

# What each item of the strip shows, and whether it lies inside the strip's visible box.
STRIP = """() => {
  const strip = document.getElementById('players').getBoundingClientRect();
  return [...document.querySelectorAll('#players .player')].map(item => {
    const parts = ['.name', '.count'].map(selector => item.querySelector(selector));
    const inside = parts.every(part => { const r = part.getBoundingClientRect();
      return r.width > 0 && r.left >= strip.left - 0.5 && r.right <= strip.right + 0.5 && r.right <= innerWidth + 0.5
        && r.bottom <= innerHeight && part.scrollWidth <= part.clientWidth + 1; });
    const cells = [...item.querySelectorAll('.thumb span')].map(cell => cell.getBoundingClientRect());
    const shown = cells.length && cells[0].height > 0;  // a grid's extent on the thumbnail, as seen
    return { name: parts[0].textContent, count: parts[1].textContent, inside,
             thumb: shown ? Math.max(...cells.map(r => r.bottom)) - Math.min(...cells.map(r => r.top)) : null };
  });
}"""

VIEWPORTS = [
    ({"width": 1280, "height": 800}, False),
    ({"width": 360, "height": 740}, True),
    ({"width": 390, "height": 844}, True),
]


@pytest.mark.parametrize(("viewport", "phone"), VIEWPORTS, ids=["1280", "360", "390"])
def test_four_players_every_name_and_count_in_view(browser, serve, shots, viewport, phone):
    server = serve()
    page = new_page(browser, viewport=viewport, is_mobile=phone, has_touch=phone)
    create_room(page, server, "Annabelle")
    for _ in range(3):
        add_bot(page, "easy")
    page.click("#start")
    wait_for_tiles(page)
    page.wait_for_function("document.querySelectorAll('#players .player').length === 4")
    table = page.evaluate("async () => (await import('/static/state.js')).get('table')")
    for player in table["players"][1:]:  # a grid on every bot's thumbnail, as the table shows one
        player["grid"] = ["WORD.", "#...#", "#...#", "#####"]
    receive(page, {**table, "type": "table"})
    page.screenshot(path=str(shots / f"strip-{viewport['width']}.png"))
    items = page.evaluate(STRIP)
    assert len(items) == 4
    for item in items:
        assert item["inside"], items
        assert item["count"], items
    thumbs = [item["thumb"] for item in items if item["thumb"] is not None]
    assert not phone or not thumbs or all(height >= 16 for height in thumbs), items
    assert phone or all(height >= 24 for height in thumbs), items

    # A PEEL's notice: the bunch and your own count stay in view (not under it).
    receive(page, {"type": "log", "entries": [{"t": 30.0, "kind": "peel", "who": "easy bot 2"}]})
    page.wait_for_selector("#toast:not([hidden])")
    page.screenshot(path=str(shots / f"strip-peel-{viewport['width']}.png"))
    covered = page.evaluate(
        """() => { const toast = document.getElementById('toast').getBoundingClientRect();
        const mine = document.querySelector('#players .player.me').getBoundingClientRect();
        const over = r => !(r.right <= toast.left || r.left >= toast.right
                            || r.bottom <= toast.top || r.top >= toast.bottom);
        return [over(document.querySelector('.bunch').getBoundingClientRect()), over(mine)]; }"""
    )
    assert covered == [False, False]
    assert page.errors == []


END = {
    "type": "end", "outcome": "win", "winners": ["easy bot 2"], "reason": "BANANAS with a valid grid",
    "reason_code": "bananas", "reason_params": {}, "scores": {}, "clock": 300.0,
    "boards": [
        {"seat": index, "name": name, "kind": kind, "status": status, "grid": None, "tiles_left": left,
         "first_grid": 120.5, "tiles_per_minute": 18.1, "peels": 3, "dumps": 1, "hints": 0}
        for index, (name, kind, status, left) in enumerate([
            ("Annabelle", "person", "building", 4), ("easy bot", "bot", "building", 2),
            ("easy bot 2", "bot", "winner", 0), ("easy bot 3", "bot", "rotten", 21)])
    ],
}  # fmt: skip


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_end_table_shows_every_column_on_a_phone(browser, serve, shots, width, language):
    server = serve()
    page = new_page(browser, viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    page.select_option("#language", language)
    create_room(page, server, "Annabelle")
    receive(page, END)
    page.wait_for_selector("#end:not([hidden])")
    page.screenshot(path=str(shots / f"end-{language}-{width}.png"), full_page=True)
    cells = page.evaluate(
        """() => [...document.querySelectorAll('#end-stats th, #end-stats td')].map(cell => {
          const r = cell.getBoundingClientRect();
          return [cell.textContent, r.left >= 0 && r.right <= innerWidth + 0.5]; })"""
    )
    assert len(cells) == 8 * 5
    assert all(inside for _, inside in cells), [text for text, inside in cells if not inside]
    stats = page.evaluate("() => [document.getElementById('end-stats').scrollWidth, innerWidth]")
    assert stats[0] <= stats[1] + 1, stats
    assert page.errors == []


# The table's buttons that are shown but leave the window or cut their own label.
CUT_ACTIONS = """() => [...document.querySelectorAll('.table .actions button')].filter(b => !b.hidden).filter(b => {
  const r = b.getBoundingClientRect();
  return r.left < -0.5 || r.right > innerWidth + 0.5 || b.scrollWidth > b.clientWidth + 1;
}).map(b => b.id)"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_call_button_fits_a_360_phone_in_either_language(browser, serve, language):
    server = serve()
    locale = {"en": "en-US", "fr": "fr-FR"}[language]
    page = new_page(browser, locale=locale, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    page.select_option("#language", language)
    page.fill("#name", "Annabelle")
    page.click("#create")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#start")
    wait_for_tiles(page)
    assert page.evaluate(CUT_ACTIONS) == []
    # French spacing: "Pioche : 44", and "Bananas !" kept on one line (a no-break space).
    shown = {"en": (r"Bunch: \d+ · 0:\d\d", "Bananas!"), "fr": (r"Pioche\u00a0: \d+ · 0:\d\d", "Bananas\u00a0!")}
    bunch, bananas = shown[language]
    assert re.fullmatch(bunch, page.inner_text(".bunch").strip()), page.inner_text(".bunch")
    assert page.text_content("#bananas") == bananas
