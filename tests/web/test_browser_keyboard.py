"""The keyboard and screen-reader details of a solo hand, in a real browser: the focus after
Create room and after Start, the cursor's description after a typed letter, the command field's
answer under the field for a word laid, `peel` and `bananas`, and the hidden reasons of the calls
that cannot be made, each a sentence of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser import new_page
from test_browser_access import PEEL_ONCE_SET, Listener, command, lay, rack_heard, solved

from solver.core.grid import validate

pytestmark = pytest.mark.browser


def focused(page) -> str:
    """The focused element, as `tag#section` of the view it is in (`body` when none)."""
    return page.evaluate(
        "() => { const e = document.activeElement; const v = e.closest('.view');"
        " return e === document.body ? 'body' : `${e.tagName.toLowerCase()}#${v ? v.id : ''}`; }"
    )


def type_first_letter(page, held: str, en):
    """A grid for `held`, and its first word's first letter typed at row 1, column 1 from the
    keyboard: the cursor's description says the cell before and after. (grid, word, board)."""
    grid = solved(held)
    first = validate(grid, en).words[0]
    board = page.get_by_role("application", name=re.compile("Your grid"))
    board.focus()
    page.keyboard.press("ArrowRight")  # the cursor at row 1, column 1, across
    expect(board).to_have_accessible_description("Cursor row 1, column 1, across: empty.")
    page.keyboard.type(first.text[0])
    expect(board).to_have_accessible_description("Cursor row 1, column 2, across: empty.")
    return grid, first, board


def test_focus_cursor_command_answers_and_reasons_for_a_keyboard_player(browser, serve, en):
    server = serve(distribution=PEEL_ONCE_SET)
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.get_by_role("textbox", name="Your name").focus()
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")  # Create room
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    assert focused(page) == "h1#lobby"  # not dropped on the body
    page.get_by_role("button", name="Start").focus()
    page.keyboard.press("Enter")
    listener = Listener(page)
    held = rack_heard(listener.wait_for(r"Your rack, 21 tiles"))
    assert focused(page) == "h1#table"

    # The calls that cannot be made say why, each reason a sentence (read one after the other).
    reasons = page.eval_on_selector_all("[id$='-why']", "els => els.map(e => e.textContent).filter(Boolean)")
    assert len(reasons) >= 2 and all(reason.endswith(".") for reason in reasons), reasons
    assert re.search(r"\.\s+\S", page.evaluate("document.getElementById('peel-why').parentElement.innerText"))

    # A typed letter: the cursor moves on, and its description says the cell it is on now.
    grid, first, board = type_first_letter(page, held, en)
    listener.wait_for(f"Placed {first.text[0]} at row 1, column 1")
    page.keyboard.press("Backspace")
    listener.wait_for(f"Picked up {first.text[0]} at row 1, column 1")
    expect(board).to_have_accessible_description("Cursor row 1, column 1, across: empty.")

    # A word laid from the command field: its answer under the field too, not only in the log.
    answer = page.locator("#command-answer")
    (row, col) = min(first.cells)
    command(page, listener, f"{first.text} {row + 1} {col + 1} {first.direction}", "Placed")
    expect(answer).to_have_text(re.compile(rf"^Placed {first.text}"))
    lay(page, listener, grid, en)
    command(page, listener, "peel", r"New tiles")
    expect(answer).to_have_text(re.compile(r"peel|New tiles", re.IGNORECASE))
    extra = rack_heard(command(page, listener, "rack", r"Your rack"))
    page.get_by_role("button", name="All back to rack").focus()
    page.keyboard.press("Enter")
    listener.wait_for(r"All \d+ tiles back to the rack")
    lay(page, listener, solved(held + extra), en)
    command(page, listener, "bananas", r"Game over: Ann wins!")
    assert page.errors == []


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 360, "height": 740}])
def test_a_word_laid_by_command_far_from_the_view_is_brought_into_it(browser, serve, viewport, en):
    """The view pans to a word laid from the command field, as it follows the cursor: a player
    who types `CAT 40 40 across` sees it, and a sighted helper beside them does too."""
    server = serve(distribution=PEEL_ONCE_SET)
    page = new_page(browser, viewport=viewport)
    page.goto(server.url + "/")
    page.get_by_role("textbox", name="Your name").focus()
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Start").click()
    listener = Listener(page)
    held = rack_heard(listener.wait_for(r"Your rack, 21 tiles"))
    word = validate(solved(held), en).words[0]
    step = (0, 1) if word.direction == "across" else (1, 0)
    for row, col in [(40, 45), (-30, -25)]:  # spoken rows and columns: far below right, far above left
        command(page, listener, f"{word.text} {row} {col} {word.direction}", "Placed")
        laid = {f"{row - 1 + i * step[0]},{col - 1 + i * step[1]}" for i in range(len(word.text))}
        shown = page.evaluate(
            """() => { const view = document.getElementById('board').getBoundingClientRect();
            return [...document.querySelectorAll('#board-layer .tile')].filter(t => {
              const r = t.getBoundingClientRect();
              return r.left >= view.left && r.right <= view.right && r.top >= view.top && r.bottom <= view.bottom;
            }).map(t => t.dataset.row + ',' + t.dataset.col); }"""
        )
        assert laid <= set(shown), (laid, shown)
        page.get_by_role("button", name="All back to rack").click()
        listener.wait_for(r"All \d+ tiles back to the rack")
    assert page.errors == []
