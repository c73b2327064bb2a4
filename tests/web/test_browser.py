"""The browser game in a real browser: Playwright for Python driving Debian's chromium.

Each test starts its own `bananas serve` app in a thread (127.0.0.1, a free port) with the
settings it needs: a seed (the same deals every run), cheap and slow bots (so the people's
moves decide the game), and where the rules allow, a small tile set so a game ends after a
few calls. The people play with real gestures: tap-tap, drag and drop, the keyboard, and
touch taps on a phone viewport; where tiles go is computed with `solve`, and every grid a
page shows at the end is re-checked with the validator.

Screenshots: set BANANAS_SCREENSHOTS=1 to write the room, table and end screens into
docs/screenshots/ (the README shows them); otherwise they go to the test's temporary folder.
"""

from __future__ import annotations

import pytest

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts, parse_distribution
from solver.search import solve

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser  # also slow (tests/conftest.py): not in the quick tier

# The longest any page waits for the server: a CI run keeps both cores busy (a spectator's
# first page once took over 20 s); a wait that passes returns at once.
WAIT_MS = 45_000
# Three hands of 21 and six more: a DUMP leaves four, one PEEL leaves one (< 3 players: BANANAS).
SMALL_SET = "A8,B1,C2,D3,E11,G2,H2,I6,L4,M2,N4,O7,P2,R5,S3,T5,U1,Y1"


def new_page(browser, **options):
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


# -- what a person does ---------------------------------------------------------------------


def create_room(page, server, name: str, spellcheck: bool = True, variant: str = "classic", tap: bool = False):
    page.goto(server.url + "/")
    page.fill("#name", name)
    if not spellcheck:
        page.uncheck("#spellcheck")
    page.check(f"input[name=variant][value={variant}]")
    (page.tap if tap else page.click)("#create")
    page.wait_for_selector("#lobby:not([hidden])")
    return page.input_value("#room-link")


def join_room(page, link: str, name: str):
    page.goto(link)
    page.fill("#join-name", name)
    page.click("#join-button")


def add_bot(page, preset: str = "easy"):
    count = page.locator(".seat").count()
    page.select_option("#bot-preset", preset)
    page.click("#add-bot")
    page.wait_for_function(f"document.querySelectorAll('.seat').length > {count}")


def wait_for_tiles(page, count: int | None = None):
    page.wait_for_selector("#table:not([hidden]) #rack .tile")
    if count is not None:
        page.wait_for_function(f"document.querySelectorAll('#rack .tile').length === {count}")


def rack(page) -> str:
    return "".join(page.eval_on_selector_all("#rack .tile", "tiles => tiles.map(t => t.dataset.letter)"))


def placed(page) -> dict[tuple[int, int], str]:
    cells = page.eval_on_selector_all(
        "#board-layer .tile", "tiles => tiles.map(t => [+t.dataset.row, +t.dataset.col, t.dataset.letter])"
    )
    return {(row, col): letter for row, col, letter in cells}


def cell_centre(page, row: int, col: int) -> tuple[float, float]:
    board = page.eval_on_selector(
        "#board",
        "b => { const r = b.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width,"
        " height: r.height, x: +b.dataset.panX, y: +b.dataset.panY, zoom: +b.dataset.zoom, cell: +b.dataset.cell} }",
    )
    size = board["cell"] * board["zoom"]
    return board["left"] + board["x"] + (col + 0.5) * size, board["top"] + board["y"] + (row + 0.5) * size


def fit(page, grid: Grid, touch: bool = False):
    """Zoom out (with the page's own button) until the grid fits the board, and centre it."""
    for _ in range(8):
        board = page.eval_on_selector(
            "#board", "b => [b.clientWidth, b.clientHeight, +b.dataset.zoom, +b.dataset.cell]"
        )
        width, height, zoom, cell = board
        if (grid.width + 1) * cell * zoom < width and (grid.height + 1) * cell * zoom < height - 50:
            break
        (page.tap if touch else page.click)("#zoom-out")
    (page.tap if touch else page.click)("#center")


def rack_tile(page, letter: str):
    return page.locator(f'#rack .tile[data-letter="{letter}"]').first


def place(page, letter: str, row: int, col: int, gesture: str):
    """One tile from the rack to a cell: tap-tap (mouse clicks), drag (mouse), or touch taps."""
    tile = rack_tile(page, letter)
    if gesture == "tap":
        tile.click()
        page.mouse.click(*cell_centre(page, row, col))
    elif gesture == "touch":
        tile.tap()
        page.touchscreen.tap(*cell_centre(page, row, col))
    else:
        # The rack is redrawn when the server answers: `hover` finds the tile as it is then (a
        # box measured before a redraw can lie over another letter's tile afterwards).
        tile.hover()
        x, y = cell_centre(page, row, col)
        page.mouse.down()
        page.mouse.move(x, y, steps=4)
        page.mouse.up()
    page.wait_for_selector(f'#board-layer .tile[data-row="{row}"][data-col="{col}"][data-letter="{letter}"]')


def solved(letters: str, objective: str = "any", lexicon: str = "en") -> Grid:
    """A grid for the rack: the first one found, or (compact) the smallest box in a second."""
    result = solve(letters, lexicon=lexicon, time_limit=1.0 if objective == "compact" else 10.0, objective=objective)
    assert result.status == "solved", (letters, result.status)
    return result.grid


def build(page, letters: str, gesture: str, touch: bool = False, objective: str = "any", lexicon: str = "en") -> Grid:
    """Lay out a solver grid for the rack with real gestures; the board ends with exactly it."""
    grid = solved(letters, objective, lexicon)
    fit(page, grid, touch)
    top, left = -(grid.height // 2), -(grid.width // 2)
    for (row, col), letter in sorted(grid.cells().items()):
        place(page, letter, row + top, col + left, gesture)
    shown = Grid.from_cells(placed(page))
    assert shown == grid.trimmed()
    assert rack(page) == ""
    return shown


def wait_text(page, selector: str, text: str):
    """Wait until `selector` shows exactly `text` (messages arrive one after another)."""
    page.wait_for_selector(f'{selector}:text-is("{text}")')


def log_text(page) -> str:
    return page.inner_text("#log")


# The rows of the small grid drawn in a figure, read in one step from the grid's own cells and
# the column count the page gave it. Not from the layout: the end screen is drawn again when the
# room's tally arrives, and a figure replaced between two reads has no computed style (one CI run
# read a 17-wide grid as one column).
MINI_ROWS = """figure => {
  const mini = figure.querySelector('.mini');
  if (!mini || !mini.children.length) return null;
  const columns = +mini.style.getPropertyValue('--columns');
  const letters = [...mini.children].map((cell) => cell.textContent || '.');
  const rows = [];
  for (let i = 0; i < letters.length; i += columns) rows.push(letters.slice(i, i + columns).join(''));
  return rows;
}"""


def mini_rows(figure) -> list[str] | None:
    """The rows of the small grid drawn in `figure` (a locator), None when it has none."""
    return figure.evaluate(MINI_ROWS)


def end_boards(page) -> dict[str, Grid | None]:
    """The end screen's final grids, read back from the page in one step."""
    figures = page.eval_on_selector_all(
        "#boards figure", f"figures => figures.map(f => [f.dataset.name, ({MINI_ROWS})(f)])"
    )
    return {name: None if rows is None else Grid.from_rows(rows) for name, rows in figures}


# -- 1. two people and a bot: a whole game ------------------------------------------------------


def test_two_people_and_a_bot_play_a_whole_game_with_peel_dump_and_bananas(browser, serve, shots, en):
    server = serve(distribution=SMALL_SET)
    ana, ben = new_page(browser, viewport={"width": 1100, "height": 860}), new_page(browser)
    link = create_room(ana, server, "Ana")
    join_room(ben, link, "Ben")
    ana.wait_for_selector('.seat:has-text("Ben")')
    add_bot(ana, "easy")
    ben.wait_for_selector('.seat:has-text("easy bot")')
    assert ben.locator("#start").is_hidden()  # only the host starts
    ana.screenshot(path=str(shots / "room.png"))
    ana.click("#start")
    wait_for_tiles(ana, 21)
    wait_for_tiles(ben, 21)
    assert "21 tiles each" in log_text(ana)
    assert ana.inner_text("#bunch") == "6"

    # Ana dumps her hardest letter: one back, three drawn.
    hardest = min(rack(ana), key="QJXZVKWYFHBCMPGUDLNRTOIASE".index)
    rack_tile(ana, hardest).click()
    assert ana.is_enabled("#dump")
    ana.click("#dump")
    wait_for_tiles(ana, 23)
    ben.wait_for_selector('#log li:has-text("Ana dumped")')
    wait_text(ben, "#bunch", "4")

    # Both build: Ana with tap-tap, Ben by dragging.
    build(ana, rack(ana), "tap")
    assert ana.locator("#board-layer .tile.bad").count() == 0
    build(ben, rack(ben), "drag")
    ana.wait_for_selector('#players li[data-name="Ben"][data-left="0"]')
    ana.screenshot(path=str(shots / "table.png"))

    # Ana's rack is empty: PEEL. Everyone draws one; the bunch drops to 1 (< 3 players).
    assert ana.is_enabled("#peel") and ana.is_disabled("#bananas")
    ana.click("#peel")
    ben.wait_for_selector('#log li:has-text("Ana peeled")')
    wait_for_tiles(ana, 1)
    wait_for_tiles(ben, 1)
    assert ana.inner_text("#bunch") == "1"
    assert ana.is_disabled("#peel") and ana.is_disabled("#dump")

    # Both rebuild with the new tile (everything back to the rack first), then BANANAS.
    ana.click("#recall")
    built = build(ana, rack(ana), "tap")
    ben.click("#recall")
    build(ben, rack(ben), "drag")
    ana.wait_for_selector('#players li[data-name="Ben"][data-left="0"]')  # the server has Ben's grid
    assert ana.is_enabled("#bananas")
    ana.click("#bananas")
    for page in (ana, ben):
        page.wait_for_selector("#end:not([hidden])")
        assert page.inner_text("#end-title") == "Ana wins!"
    boards = end_boards(ben)
    assert set(boards) == {"Ana", "Ben", "easy bot"}
    assert boards["Ana"] == built
    report = validate(boards["Ana"], en, TileCounts.from_letters("".join(built.cells().values())))
    assert report.ok, report.problems()
    assert validate(boards["Ben"], en).ok
    assert ben.locator('#boards figure[data-name="Ana"].winner').count() == 1
    # the end screen's figures: Ana won one hand in this room, called one PEEL and one DUMP
    ben.wait_for_function("() => document.querySelector('#end-stats tr.winner td:last-child')?.textContent === '1'")
    row = ben.eval_on_selector("#end-stats tr.winner", "r => [...r.cells].map(c => c.textContent)")
    assert row[0] == "Ana" and row[2] == "0" and row[5:] == ["1", "1", "1"]
    assert float(row[4]) > 0  # her own tiles a minute
    ana.screenshot(path=str(shots / "end.png"), full_page=True)
    assert ana.is_visible("#again") and ben.is_hidden("#again")
    ana.click("#again")
    for page in (ana, ben):
        page.wait_for_selector("#lobby:not([hidden])")
    assert ana.errors == [] and ben.errors == []


# -- 2. spellcheck on and off ---------------------------------------------------------------------


def word_and_misspelling(letters: str, lexicon) -> tuple[str, str]:
    """A word the rack spells, and one more rack letter that makes it a non-word."""
    tiles = TileCounts.from_letters(letters)
    for word in lexicon.formable_words(tiles, 3, limit=200, max_length=5):
        word = word.upper()
        rest = tiles - TileCounts.from_letters(word)
        for letter in sorted(set(rest.letters())):
            if (word + letter).lower() not in lexicon:
                return word, letter
    raise AssertionError(f"no word to misspell in {letters}")


def test_after_a_dump_no_tile_stays_chosen_for_the_next(browser, serve):
    """The page keeps the rack's tiles by letter: after dumping one of two Es, the other E must
    not come back chosen, with Dump ready to throw it too."""
    server = serve(distribution=SMALL_SET)
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    create_room(page, server, "Ana")
    page.click("#start")
    wait_for_tiles(page, 21)
    held = rack(page)
    pair = next(letter for letter in held if held.count(letter) > 1)
    page.locator(f'#rack .tile[data-letter="{pair}"]').first.click()
    playwright_api.expect(page.locator("#rack .tile.selected")).to_have_count(1)
    page.click("#dump")
    wait_for_tiles(page, 23)
    playwright_api.expect(page.locator("#rack .tile.selected")).to_have_count(0)
    playwright_api.expect(page.locator("#dump")).to_have_attribute("aria-disabled", "true")


def test_spellcheck_on_turns_a_misspelled_word_red_and_marks_loose_tiles(browser, serve, en):
    server = serve()
    page = new_page(browser)
    create_room(page, server, "Solo")
    page.click("#start")  # one person alone plays solo
    wait_for_tiles(page, 21)
    word, extra = word_and_misspelling(rack(page), en)

    # the keyboard: click an empty cell, type a word, then one letter too many
    x, y = cell_centre(page, 0, 0)
    page.mouse.click(x, y)
    page.keyboard.type(word.lower())
    page.wait_for_selector(f'#board-layer .tile[data-row="0"][data-col="{len(word) - 1}"]')
    # The server's check of the whole word has come back: the page says its verdict (checks of
    # an earlier grid, a part of the word, are dropped), and marks nothing.
    page.wait_for_function("document.querySelector('#announcements').textContent.includes('Every word is good')")
    assert page.locator("#board-layer .tile.bad").count() == 0
    page.keyboard.type(extra)
    page.wait_for_selector("#board-layer .tile.bad")
    bad = page.eval_on_selector_all("#board-layer .tile.bad", "ts => ts.map(t => +t.dataset.col)")
    assert sorted(bad) == list(range(len(word) + 1))
    page.keyboard.press("Backspace")  # takes the last letter back: the word is good again
    page.wait_for_function("document.querySelectorAll('#board-layer .tile.bad').length === 0")
    assert "".join(letter for _, letter in sorted(placed(page).items())) == word

    # a tile off on its own is marked as disconnected
    place(page, rack(page)[0], 3, 0, "tap")
    page.wait_for_selector('#board-layer .tile.loose[data-row="3"]')
    assert page.locator("#board-layer .tile.loose").count() == 1
    assert page.errors == []


# Two hands of 21 and one more: BANANAS is allowed from the start (the bunch is below 2).
PAIR_SET = "A5,B1,C1,D2,E7,G1,H1,I4,L2,M1,N3,O4,P1,R3,S2,T3,U1,Y1"


def test_spellcheck_off_bananas_on_a_bad_grid_is_a_rotten_banana_and_the_game_goes_on(browser, serve):
    server = serve(distribution=PAIR_SET)
    page = new_page(browser)
    create_room(page, server, "Risky", spellcheck=False)
    add_bot(page, "easy")
    page.click("#start")
    wait_for_tiles(page, 21)
    assert page.inner_text("#bunch") == "1"
    letters = rack(page)
    x, y = cell_centre(page, 0, -10)
    page.mouse.click(x, y)
    page.keyboard.type(letters.lower())  # all 21 tiles in one row: not a word
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 0")
    page.wait_for_timeout(400)
    assert page.locator("#board-layer .tile.bad, #board-layer .tile.loose").count() == 0  # no help
    assert page.is_enabled("#bananas")
    page.click("#bananas")
    page.wait_for_selector('#log li:has-text("rotten banana")')
    page.wait_for_selector("#table-note:not([hidden])")
    assert "out of this hand" in page.inner_text("#table-note")
    wait_text(page, "#bunch", "22")  # the tiles went back into the bunch
    wait_text(page, '#players li[data-name="Risky"] .state', "rotten banana")
    assert page.inner_text('#players li[data-name="easy bot"] .state') == "building"
    assert page.is_hidden("#end") and page.is_disabled("#bananas")
    assert page.errors == []


# -- 3. reload keeps the seat; the fifth person watches ---------------------------------------------


def test_reload_keeps_the_seat_and_the_grid_and_a_fifth_person_watches(browser, serve):
    server = serve()
    ana, ben, cy, dee = (new_page(browser) for _ in range(4))
    link = create_room(ana, server, "Ana")
    join_room(ben, link, "Ben")
    join_room(cy, link, "Cy")
    cy.wait_for_selector("#lobby:not([hidden])")
    add_bot(ana, "easy")
    join_room(dee, link, "Dee")
    dee.wait_for_selector("#join-message:not([hidden])")
    assert "full" in dee.inner_text("#join-message")
    assert ana.locator(".seat").count() == 4 and ana.locator('.seat:has-text("Dee")').count() == 0

    ana.click("#start")
    for page in (ana, ben, cy):
        wait_for_tiles(page, 21)
    letters = rack(ben)
    for col, letter in enumerate(letters[:3]):
        place(ben, letter, 0, col, "tap")
    ana.wait_for_selector('#players li[data-name="Ben"][data-left="18"]')
    grid_before, rack_before = placed(ben), sorted(rack(ben))

    ben.reload()
    wait_for_tiles(ben, 18)
    assert placed(ben) == grid_before
    assert sorted(rack(ben)) == rack_before
    assert ben.inner_text("#players li.me .name") == "Ben"
    assert ana.locator("#players li").count() == 4
    ana.wait_for_selector('#players li[data-name="Ben"] .state:text-is("building")')
    # the game goes on from the reloaded page
    place(ben, rack(ben)[0], 1, 0, "tap")
    ana.wait_for_selector('#players li[data-name="Ben"][data-left="17"]')
    # a fifth person cannot sit down mid-game: they watch every grid until the next hand
    dee.reload()
    dee.fill("#join-name", "Dee")
    dee.click("#join-button")
    dee.wait_for_selector("#watch:not([hidden]) figure")
    assert "you watch every grid" in dee.inner_text("#table-note")
    assert dee.locator("#watch figure").count() == 4 and dee.is_hidden("#rack")
    assert all(page.errors == [] for page in (ana, ben, cy, dee))


# -- 4. a phone ------------------------------------------------------------------------------------------

ONE_HAND_SET = "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"  # 21 tiles: solo with an empty bunch


def test_a_phone_plays_a_solo_game_with_taps_only(browser, serve, shots, en):
    server = serve(distribution=ONE_HAND_SET)
    phone = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(server.url + "/")
    phone.tap("#name")
    phone.keyboard.type("Pia")
    phone.tap("#create")
    phone.wait_for_selector("#lobby:not([hidden])")
    phone.tap("#start")
    wait_for_tiles(phone, 21)
    built = build(phone, rack(phone), "touch", touch=True, objective="compact")  # a small box suits a phone
    phone.wait_for_selector('#players li.me[data-left="0"]')
    phone.screenshot(path=str(shots / "phone.png"))
    assert phone.is_enabled("#bananas")
    phone.tap("#bananas")
    phone.wait_for_selector("#end:not([hidden])")
    assert phone.inner_text("#end-title") == "Pia wins!"
    assert "words" in phone.inner_text("#end-reason")
    final = end_boards(phone)["Pia"]
    assert final == built
    report = validate(final, en, parse_distribution(ONE_HAND_SET))  # every tile of the set, in valid words
    assert report.ok, report.problems()
    assert phone.errors == []


def test_the_french_page_plays_a_french_game(browser, serve, fr):
    """Language fr on the home page: the page speaks French, the room plays with the French
    word list (a French grid wins, checked by the validator against the French lexicon)."""
    server = serve(distribution=ONE_HAND_SET)
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#language", "fr")
    assert page.inner_text("#create") == "Créer une salle"
    assert page.evaluate("document.documentElement.lang") == "fr"
    page.fill("#name", "Zoé")
    page.click("#create")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#start")
    wait_for_tiles(page, 21)
    built = build(page, rack(page), "tap", lexicon="fr")
    page.wait_for_selector('#players li.me[data-left="0"]')
    assert page.inner_text("#players li.me .count").startswith("0 en main")
    page.click("#bananas")
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#end-title") == "Zoé gagne !"
    final = end_boards(page)["Zoé"]
    assert final == built
    report = validate(final, fr, parse_distribution(ONE_HAND_SET))
    assert report.ok, report.problems()
    assert page.errors == []


# -- 6. Spellevate: a person against two bots, on a phone -------------------------------------------


def sp_log_count(page) -> int:
    return page.locator("#sp-log li").count()


def test_a_person_plays_a_whole_spellevate_round_against_two_bots_on_a_phone(browser, serve, shots):
    """The other game of the page: a phone taps tiles into a word and plays it, is refused an
    illegal play, picks listed plays or passes, and sees the scores (they sum to zero)."""
    server = serve(spellevate_delay=0.05)
    phone = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(server.url + "/")
    phone.fill("#name", "Sam")
    phone.tap("input[name=variant][value=spellevate]")
    phone.tap("#create")
    phone.wait_for_selector("#lobby:not([hidden])")
    assert phone.is_disabled("#start") and phone.is_visible("#sp-need")  # a round takes three players
    assert phone.eval_on_selector_all("#bot-preset option", "o => o.map(x => x.value)") == ["simple", "planner"]
    add_bot(phone, "simple")
    add_bot(phone, "planner")
    phone.tap("#start")
    phone.wait_for_selector("#spell:not([hidden]) #sp-hand .tile")
    assert phone.locator("#sp-hand .tile").count() == 48  # all 144 tiles dealt to three players
    moves = {"tapped": 0, "listed": 0, "passed": 0, "refused": 0}
    while True:
        phone.wait_for_function(
            "!document.getElementById('end').hidden || "
            "(document.querySelector('#sp-turn.mine') && !document.getElementById('sp-play').disabled)"
        )
        if phone.is_visible("#end"):
            break
        before = sp_log_count(phone)
        options = phone.locator("#sp-plays .sp-option")
        if moves["refused"] == 0:  # a play the hand cannot make: refused, nothing changes
            phone.fill("#sp-word", "QQQQ")
            phone.tap("#sp-play")
            phone.wait_for_selector("#toast:not([hidden])")
            assert "Not allowed" in phone.inner_text("#toast")
            assert sp_log_count(phone) == before and phone.is_enabled("#sp-play")
            phone.tap("#sp-clear")
            moves["refused"] += 1
        if options.count() and moves["tapped"] == 0 and phone.locator("#sp-table .tile").count():
            word = options.first.inner_text()
            for letter in word:  # tap the tiles in order: the word forms in the box
                phone.locator("#sp-hand .tile:not(.used)", has_text=letter).first.tap()
            assert phone.input_value("#sp-word") == word
            phone.evaluate("document.getElementById('toast').hidden = true")  # the refusal's notice, read above
            phone.screenshot(path=str(shots / "spellevate.png"), full_page=True)
            phone.tap("#sp-play")
            moves["tapped"] += 1
        elif options.count():
            options.first.tap()
            moves["listed"] += 1
        else:
            phone.tap("#sp-pass")
            moves["passed"] += 1
        phone.wait_for_function(f"document.querySelectorAll('#sp-log li').length > {before}")
    assert moves["tapped"] == 1 and moves["refused"] == 1
    assert "wins the round" in phone.inner_text("#end-title")
    rows = phone.locator("#sp-scores tr[data-name]")
    assert rows.count() == 3
    scores = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(3)]
    left = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(3)]
    assert sum(scores) == 0 and sorted(left)[0] == 0 and max(scores) == sum(left)
    assert "goes out and wins the round" in phone.inner_text("#sp-log")
    assert phone.errors == []
