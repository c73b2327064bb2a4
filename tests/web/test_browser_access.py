"""Playing without sight (issue 39, docs/ACCESSIBILITY.md), in a real browser.

A blind player's solo hand: the keyboard alone, and only what a screen reader has (the
accessibility tree by role and name, the announcements log's text; no CSS selector, no pixel):
the first words typed on the grid, the rest laid with the command field, a PEEL, the rebuild
and BANANAS with a grid the validator passes; the end is announced. Then axe-core (through
axe-playwright-python) on every page and state, in English and French: no violations.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser import new_page

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.search import solve

pytestmark = pytest.mark.browser

# 22 tiles: a solo hand of 21 and one PEEL (then the bunch is empty: BANANAS).
PEEL_ONCE_SET = "A3,D1,E5,I2,L1,N2,O2,R2,S2,T2"


def solved(letters: str) -> Grid:
    result = solve(letters, lexicon="en", time_limit=10.0)
    assert result.status == "solved", (letters, result.status)
    return result.grid


class Listener:
    """What a screen reader user hears: the announcements log, read back line by line."""

    def __init__(self, page):
        self.log = page.get_by_role("log")
        self.heard = 0

    def lines(self) -> list[str]:
        return self.log.get_by_role("paragraph").all_inner_texts()

    def wait_for(self, pattern: str) -> str:
        """The first line after those already heard that matches `pattern` (waits for it)."""
        found: list[str] = []

        def heard() -> bool:
            lines = self.lines()
            found[:] = [line for line in lines[self.heard :] if re.search(pattern, line)]
            return bool(found)

        for _ in range(200):
            if heard():
                self.heard = len(self.lines())
                return found[0]
            self.log.page.wait_for_timeout(100)
        raise AssertionError(f"never heard {pattern!r}; heard {self.lines()[self.heard :]}")


def command(page, listener: Listener, text: str, answer: str | None = None) -> str:
    """Type a command in the command field; the answer heard (when one matching `answer` is expected)."""
    field = page.get_by_role("textbox", name="Command")
    field.focus()
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    return listener.wait_for(answer) if answer else ""


def rack_heard(line: str) -> str:
    """The letters of a rack as the `rack` command says them."""
    return "".join(re.search(r" ?: ([A-Z ]+)\.", line).group(1).split())


def lay(page, listener: Listener, grid: Grid, en) -> None:
    """Every word of `grid` with the command field (letters already on the grid are used)."""
    for word in validate(grid, en).words:
        (row, col) = min(word.cells)
        command(page, listener, f"{word.text} {row + 1} {col + 1} {word.direction}", r"Placed|already there")


def test_a_blind_player_plays_a_solo_hand_with_the_keyboard_and_the_announcements(browser, serve, en):
    server = serve(distribution=PEEL_ONCE_SET)
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.get_by_role("textbox", name="Your name").focus()
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")  # Create room
    start = page.get_by_role("button", name="Start")
    start.focus()
    page.keyboard.press("Enter")
    listener = Listener(page)
    held = rack_heard(listener.wait_for(r"Your rack, 21 tiles"))  # the deal is announced
    assert len(held) == 21
    grid = solved(held)
    words = validate(grid, en).words

    # A disabled call is still reachable and says why.
    peel = page.get_by_role("button", name="Peel")
    expect(peel).to_have_accessible_description("Place every tile of your rack first (21 left).")

    # The rack: one Tab stop, the arrows move along it.
    tiles = page.get_by_role("listbox", name="Your rack").get_by_role("option")
    tiles.first.focus()
    page.keyboard.press("ArrowRight")
    expect(tiles.nth(1)).to_be_focused()

    # The first word typed on the grid: the arrows bring the cursor there, and it says where it is.
    board = page.get_by_role("application", name=re.compile("Your grid"))
    board.focus()
    first = words[0]
    (row, col) = min(first.cells)
    down = first.direction == "down"
    page.keyboard.press("ArrowDown")  # the cursor appears at row 1, column 1, going down
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # turns across
    for _ in range(col):
        page.keyboard.press("ArrowRight")
    if down:
        page.keyboard.press("ArrowDown")  # turns down, no step
    direction = "down" if down else "across"
    expect(board).to_have_accessible_description(f"Cursor row {row + 1}, column {col + 1}, {direction}: empty.")
    page.keyboard.type(first.text.lower())
    listener.wait_for(f"Placed {first.text} {direction} from row {row + 1}, column {col + 1}")
    page.keyboard.press("Backspace")  # takes back the tile before the cursor: the word's last letter
    listener.wait_for(f"Picked up {first.text[-1]} at")
    page.keyboard.type(first.text[-1])
    listener.wait_for(f"Placed {first.text[-1]} at")

    # A crossing word typed from its start: the grid's letters are used, not doubled.
    crossing = next((w for w in words[1:] if set(w.cells) & set(first.cells)), None)
    if crossing is not None:
        (cross_row, cross_col) = min(crossing.cells)
        across = crossing.direction == "across"
        page.keyboard.press("Escape")  # no cursor; the next arrow starts again at row 1, column 1
        page.keyboard.press("ArrowDown")
        for _ in range(cross_row):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
        for _ in range(cross_col):
            page.keyboard.press("ArrowRight")
        if not across:
            page.keyboard.press("ArrowDown")
        page.keyboard.type(crossing.text)
        listener.wait_for("Placed")

    # The rest with commands; the grid read back by rows is the solver's grid.
    lay(page, listener, grid, en)
    command(page, listener, "rack", r"Your rack is empty")
    rows = []
    for number in range(1, grid.height + 1):
        line = command(page, listener, f"read row {number}", rf"^Row {number}:")
        rows.append(line)
    assert all(word.text in " ".join(rows) for word in words if word.direction == "across")
    command(page, listener, "check", r"Every word is good")

    # PEEL from the command field (Alt+P): the focus stays there, the new tile is announced.
    expect(peel).to_have_accessible_description("")
    field = page.get_by_role("textbox", name="Command")
    field.focus()
    page.keyboard.press("Alt+P")
    new = listener.wait_for(r"New tiles: [A-Z]\.")
    expect(field).to_be_focused()
    assert "peeled" in " ".join(listener.lines())
    extra = new[-2]

    # The rebuild: every tile back, the solver's grid for all 22, and BANANAS (Alt+B).
    page.get_by_role("button", name="All back to rack").focus()
    page.keyboard.press("Enter")
    listener.wait_for(r"All \d+ tiles back to the rack")
    final = solved(held + extra)
    lay(page, listener, final, en)
    command(page, listener, "words", r"words:")
    field.focus()
    page.keyboard.press("Alt+B")
    ending = listener.wait_for(r"Game over: Ann wins!")
    assert "BANANAS with a valid grid" in ending
    expect(page.get_by_role("heading", level=1, name="Ann wins!")).to_be_focused()
    assert validate(final, en, TileCounts.from_letters(held + extra)).ok
    assert page.errors == []


def test_a_refused_call_and_a_command_that_does_not_fit_are_announced(browser, serve):
    server = serve(distribution=PEEL_ONCE_SET)
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    page.get_by_role("textbox", name="Your name").fill("Bo")
    page.get_by_role("button", name="Create room").press("Enter")
    page.get_by_role("button", name="Start").press("Enter")
    listener = Listener(page)
    held = rack_heard(listener.wait_for(r"Your rack, 21 tiles"))
    too_early = r"BANANAS only once the bunch has fewer tiles than players \(1 left"
    command(page, listener, "bananas", too_early)  # the server's refusal, with its reason
    missing = next(letter for letter in "QXZJKVWYBCFGHMPU" if letter not in held)
    command(page, listener, f"{missing}{held[0]} 1 1 down", rf"Not in your rack: {missing}\.")
    command(page, listener, "frobnicate", r"Unknown command")
    page.get_by_role("button", name="Peel").press("Enter")  # off: says why, keeps the focus
    listener.wait_for(r"Place every tile of your rack first")
    expect(page.get_by_role("button", name="Peel")).to_be_focused()
    assert page.errors == []


# -- axe-core: no violations on any page or state, in both languages ------------------------------

SOLO_SET = "A3,D1,E4,I2,L1,N2,O2,R2,S2,T2"  # 21 tiles: a solo hand with an empty bunch
WORDS = {
    "en": ("Command", "rack", "Your rack, 21 tiles", "Replay", "I'm stuck"),
    "fr": ("Commande", "chevalet", "Votre chevalet, 21 tuiles", "Revoir", "Je suis bloqué"),
}


def violations(page) -> list[str]:
    """axe-core's violations on the page as it is: one line each, with the elements at fault."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {[node['target'] for node in v['nodes']]}" for v in found]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_axe_finds_nothing_on_any_page_in_either_language(browser, serve, language):
    pytest.importorskip("axe_playwright_python")
    server = serve(distribution=SOLO_SET)
    field_name, rack_word, rack_said, replay, stuck = WORDS[language]
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.get_by_role("combobox").first.select_option(language)
    found = {"home": violations(page)}
    page.get_by_role("textbox").first.fill("Ann")
    page.keyboard.press("Enter")
    page.wait_for_selector("#lobby:not([hidden])")
    found["lobby"] = violations(page)
    page.locator("#start").click()
    listener = Listener(page)
    held = rack_heard(listener.wait_for(rack_said))
    page.get_by_role("textbox", name=field_name).fill(f"{held[:3]} 1 1")  # three tiles; most likely not a word: red
    page.keyboard.press("Enter")
    listener.wait_for(r"\.")
    page.wait_for_timeout(300)  # the spellcheck's verdict
    found["table"] = violations(page)
    page.get_by_role("button", name=stuck).click()  # alone and stuck: the hand ends
    page.wait_for_selector("#end:not([hidden])")
    found["end"] = violations(page)
    page.get_by_role("button", name=replay, exact=True).click()
    page.wait_for_selector("#replay-view:not([hidden]) #replay-boards figure")
    moment = page.locator("#replay-clock").text_content()
    assert re.fullmatch(r"(at|à) \d+:\d\d", moment)
    expect(page.get_by_role("slider")).to_have_attribute("aria-valuetext", moment)  # said as the replay's moment
    found["replay"] = violations(page)
    page.goto(server.url + "/solve")
    if language == "fr":
        page.get_by_role("button", name="FR", exact=True).click()
    found["solve"] = violations(page)
    assert {view: lines for view, lines in found.items() if lines} == {}
    assert page.errors == []
