"""A hand against a bot played with the keyboard alone, heard as a screen reader user hears it:
every line of the announcements log, in order, from the deal to the end. The room made and the
bot seated with Tab, Enter and the arrows (the lobby says the bot joined); the first word typed
on the grid (the cursor's description follows each letter), a letter taken back with Backspace; the rest laid with the
command field, `peel`, the rebuild and `bananas`. Each line is checked against what was done,
and every line is whole sentences: none glued to the next, no "1 tiles", no "!.".
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser import new_page
from test_browser_access import rack_heard, solved
from test_browser_keyboard import type_first_letter

from solver.core.grid import Grid, validate

pytestmark = pytest.mark.browser

# 44 tiles: two hands of 21 and one PEEL, then the bunch is empty and BANANAS ends the hand.
TWO_HANDS_SET = "A6,E10,I4,L3,N3,O3,R4,S5,T4,U2"

# Every line the announcements log ever shows (it keeps only its last lines), kept in each page.
HEAR_ALL = """window.heard = [];
document.addEventListener('DOMContentLoaded', () => new MutationObserver(records => records.forEach(
  record => record.addedNodes.forEach(node => window.heard.push(node.textContent))))
  .observe(document.getElementById('announcements'), { childList: true }));"""

# What no line says: a count of one in the plural, a sentence glued to the next or doubled
# punctuation, a sentence without its full stop.
GLITCHES = [r"\b1 (tiles|words|letters)\b", r"[a-z][.!?:][A-Z]", r"[.!?][.!?]", r"[^.!?]$"]


class Ear:
    """The announcements, line by line, each matched in order as it comes."""

    def __init__(self, page):
        self.page = page
        self.next = 0

    def lines(self) -> list[str]:
        return self.page.evaluate("window.heard")

    def hear(self, pattern: str) -> str:
        """The next line once it has come; it must match `pattern` (nothing else came first)."""
        self.page.wait_for_function(f"window.heard.length > {self.next}")
        line = self.lines()[self.next]
        assert re.fullmatch(pattern, line), (pattern, self.lines()[self.next :])
        self.next += 1
        return line


def tab_to(page, element_id: str) -> None:
    """Tab until the element has the focus (a person tabbing through the view)."""
    for _ in range(40):
        if page.evaluate("document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def run(page, ear: Ear, text: str, pattern: str) -> str:
    """A command typed in the command field (`/` brings the focus there from the grid) and its
    answer heard; the answer is also shown under the field."""
    if page.evaluate("document.activeElement.id") != "command":
        page.keyboard.press("/")
    expect(page.get_by_role("textbox", name="Command")).to_be_focused()
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    line = ear.hear(pattern)
    expect(page.locator("#command-answer")).to_have_text(line)
    return line


def lay_by_commands(page, ear: Ear, grid: Grid, en) -> None:
    """Every word of `grid` laid with the command field; each says the tiles it laid (from the
    first new one: the grid's letters are used) and, when that changed it, how the grid stands."""
    for word in validate(grid, en).words:
        (row, col) = min(word.cells)
        placed = (  # a word's new tiles, or its one new tile (a word laid beside another's letters)
            rf"Placed ([A-Z]+ {word.direction} from row \d+, column \d+|[A-Z] at row \d+, column \d+)\."
            r"( Not words: [A-Z, ]+\.| Every word is good and the grid is connected\.)?"
        )
        run(page, ear, f"{word.text} {row + 1} {col + 1} {word.direction}", rf"{placed}|{word.text} is already there\.")


def test_a_keyboard_hand_against_a_bot_heard_line_by_line(browser, serve, en):
    server = serve(distribution=TWO_HANDS_SET)
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.context.add_init_script(HEAR_ALL)
    page.goto(server.url + "/")
    page.get_by_role("textbox", name="Your name").focus()
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")  # Create room
    expect(page.get_by_role("heading", level=1, name="Room")).to_be_focused()
    ear = Ear(page)
    tab_to(page, "add-bot")  # the preset first offered: easy
    page.keyboard.press("Enter")
    ear.hear(r"easy bot joined the room\.")  # the lobby says who comes, as a sighted host sees the seat
    expect(page.locator(".seat")).to_have_count(2)
    tab_to(page, "start")
    page.keyboard.press("Enter")
    held = rack_heard(ear.hear(r"Split! 21 tiles each\. Your rack, 21 tiles: [A-Z ]+\."))
    expect(page.get_by_role("heading", level=1, name="Bananagrams table")).to_be_focused()

    # The first word's first letter typed on the grid, then taken back with Backspace.
    grid, first, board = type_first_letter(page, held, en)
    letter = first.text[0]
    ear.hear(rf"Placed {letter} at row 1, column 1\.( Every word is good and the grid is connected\.)?")
    page.keyboard.press("Backspace")
    ear.hear(rf"Picked up {letter} at row 1, column 1\.")
    expect(board).to_have_accessible_description("Cursor row 1, column 1, across: empty.")

    # The grid laid with commands, then `rack`, `peel` and the new tile, each its own sentence.
    lay_by_commands(page, ear, grid, en)
    run(page, ear, "rack", r"Your rack is empty\.")
    new = run(page, ear, "peel", r"Ann peeled: everyone draws a tile\. Bunch: 0 tiles left\. New tiles: ([A-Z])\.")
    extra = new[-2]
    run(page, ear, "rack", rf"Your rack, 1 tile: {extra}\.")
    tab_to(page, "recall")  # All back to rack
    page.keyboard.press("Enter")
    ear.hear(r"All 21 tiles back to the rack\.")
    lay_by_commands(page, ear, solved(held + extra), en)
    # Each player's status is what they did last (Ann's PEEL), as the table's view says.
    run(page, ear, "players", r"Ann: 0 left, 22 placed, peeled; easy bot: 22 left, 0 placed, building\.")
    run(page, ear, "time", r"Clock \d+:\d\d\. Bunch: 0 tiles\.")
    run(page, ear, "bananas", r"Ann: BANANAS! Game over: Ann wins! BANANAS with a valid grid\.")
    expect(page.get_by_role("heading", level=1, name="Ann wins!")).to_be_focused()

    lines = ear.lines()
    assert len(lines) == ear.next, lines[ear.next :]  # nothing said that was not checked
    glitches = [(line, glitch) for line in lines for glitch in GLITCHES if re.search(glitch, line)]
    assert glitches == []
    assert page.errors == []
