"""Moving many tiles at once, in a real browser: a box dragged around a word and the word dragged
away, tiles Shift+clicked and moved with the arrows, a move onto other tiles refused and said, a
tile dropped on another swapping the two (and a rack tile dropped on a grid tile taking its
place), the same by keyboard alone, and by touch on a phone. Each move goes to the server as
one grid message holding the whole grid."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from test_browser import cell_centre, new_page, placed, rack
from test_browser_access import PEEL_ONCE_SET, Listener, command, rack_heard, violations

from solver.core.limits import MAX_PAGE_COORD

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


class SentGrids:
    """The grid messages the page sends, each as {(row, col): letter}."""

    def __init__(self, page):
        self.page = page
        self.grids: list[dict[tuple[int, int], str]] = []
        page.on("websocket", lambda socket: socket.on("framesent", self.take))

    def take(self, payload) -> None:
        message = json.loads(payload)
        if message.get("type") == "grid":
            self.grids.append({(row, col): letter for row, col, letter in message["cells"]})

    def wait_for(self, count: int) -> dict[tuple[int, int], str]:
        """The `count`th grid sent (waits for it); exactly `count` sent so far."""
        for _ in range(200):
            if len(self.grids) >= count:
                break
            self.page.wait_for_timeout(50)
        assert len(self.grids) == count, self.grids
        return self.grids[-1]


def seated(browser, serve, device: dict):
    """A solo hand started: the page, what it sends, what it says, and the rack dealt."""
    server = serve(distribution=PEEL_ONCE_SET)
    page = new_page(browser, **device)
    sent = SentGrids(page)
    page.goto(server.url + "/")
    page.fill("#name", "Ann")
    page.click("#create")
    page.click("#start")
    listener = Listener(page)
    held = rack_heard(listener.wait_for(r"Your rack, 21 tiles"))
    return page, sent, listener, held


def lay_rows(page, listener: Listener, held: str) -> dict[tuple[int, int], str]:
    """Four tiles across from row 1, column 1 and three across from row 3, column 1 (the command
    field lays any letters; the spellcheck may mark them red)."""
    command(page, listener, f"{held[:4]} 1 1 across", "Placed")
    command(page, listener, f"{held[4:7]} 3 1 across", "Placed")
    grid = placed(page)
    assert set(grid) == {(0, 0), (0, 1), (0, 2), (0, 3), (2, 0), (2, 1), (2, 2)}
    return grid


def grouped(page) -> set[tuple[int, int]]:
    cells = page.eval_on_selector_all(
        "#board-layer .tile.grouped", "ts => ts.map(t => [+t.dataset.row, +t.dataset.col])"
    )
    return {(row, col) for row, col in cells}


def moved(grid: dict, cells, dr: int, dc: int) -> dict:
    """`grid` with `cells` moved by (dr, dc)."""
    rest = {cell: letter for cell, letter in grid.items() if cell not in cells}
    return rest | {(row + dr, col + dc): grid[(row, col)] for row, col in cells}


def drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


def test_a_box_dragged_around_a_word_then_the_word_dragged_away_in_one_grid_message(browser, serve, shots):
    page, sent, listener, held = seated(browser, serve, DESKTOP)
    grid = lay_rows(page, listener, held)
    count = len(sent.grids)
    word = held[:4]

    # A box from the empty cell above-left of the word to its last letter: the word is chosen.
    drag(page, cell_centre(page, -1, -1), cell_centre(page, 0, 3))
    listener.wait_for(rf"Selected 4 tiles: {word}\.")
    assert grouped(page) == {(0, 0), (0, 1), (0, 2), (0, 3)}

    # Dragged by its second letter four rows down: where it would land shows as it moves.
    page.mouse.move(*cell_centre(page, 0, 1))
    page.mouse.down()
    page.mouse.move(*cell_centre(page, 4, 1), steps=6)
    expect(page.locator("#board-layer .tile.landing")).to_have_count(4)
    expect(page.locator("#board-layer .tile.landing.refused")).to_have_count(0)
    page.screenshot(path=str(shots / "move-drag-desktop.png"))
    page.mouse.up()
    listener.wait_for(rf"Moved {word} 4 rows down, now from row 5, column 1\.")
    grid = moved(grid, [(0, 0), (0, 1), (0, 2), (0, 3)], 4, 0)
    assert placed(page) == grid
    assert sent.wait_for(count + 1) == grid  # one message, the whole grid
    assert grouped(page) == {(4, 0), (4, 1), (4, 2), (4, 3)}  # the group moved with its tiles

    # Two rows up it would cover the second row of tiles: refused, said, nothing moves.
    page.mouse.move(*cell_centre(page, 4, 0))
    page.mouse.down()
    page.mouse.move(*cell_centre(page, 2, 0), steps=6)
    expect(page.locator("#board-layer .tile.landing.refused")).to_have_count(4)
    page.screenshot(path=str(shots / "move-refused-desktop.png"))
    page.mouse.up()
    listener.wait_for(rf"Cannot move there: {grid[(2, 0)]} at row 3, column 1 is in the way\.")
    expect(page.locator("#toast")).to_have_text(re.compile("Cannot move there"))
    assert placed(page) == grid

    # Select mode pressed and a group chosen: axe finds nothing.
    page.get_by_role("button", name="Select tiles").click()
    expect(page.get_by_role("button", name="Select tiles")).to_have_attribute("aria-pressed", "true")
    assert violations(page) == []

    # One row up lands (the refusal sent nothing: the next message is this move's).
    drag(page, cell_centre(page, 4, 2), cell_centre(page, 3, 2))
    listener.wait_for(rf"Moved {word} 1 row up, now from row 4, column 1\.")
    grid = moved(grid, [(4, 0), (4, 1), (4, 2), (4, 3)], -1, 0)
    assert sent.wait_for(count + 2) == grid == placed(page)

    # The middle button pans the board (the left one draws boxes); the group stays chosen.
    pan = page.eval_on_selector("#board", "b => [+b.dataset.panX, +b.dataset.panY]")
    page.mouse.move(*cell_centre(page, -2, 6))
    page.mouse.down(button="middle")
    page.mouse.move(*cell_centre(page, -3, 5), steps=6)
    page.mouse.up(button="middle")
    assert page.eval_on_selector("#board", "b => [+b.dataset.panX, +b.dataset.panY]") != pan
    assert placed(page) == grid and len(grouped(page)) == 4

    # The group dropped on the rack: its tiles go back to it.
    before = rack(page)
    page.mouse.move(*cell_centre(page, 3, 0))
    page.mouse.down()
    box = page.locator("#rack").bounding_box()
    page.mouse.move(box["x"] + box["width"] - 20, box["y"] + box["height"] / 2, steps=6)
    page.mouse.up()
    listener.wait_for(rf"Picked up {word} across from row 4, column 1\.")
    assert sorted(rack(page)) == sorted(before + word)
    grid = {cell: letter for cell, letter in grid.items() if cell[0] != 3}
    assert sent.wait_for(count + 3) == grid == placed(page)
    assert page.errors == []


def test_shift_clicked_tiles_move_with_the_arrows_and_a_tile_dropped_on_another_swaps(browser, serve, shots):
    page, sent, listener, held = seated(browser, serve, DESKTOP)
    grid = lay_rows(page, listener, held)
    count = len(sent.grids)

    # Shift+click the last two tiles of the first row: they are chosen, the rest is not.
    page.keyboard.down("Shift")
    page.mouse.click(*cell_centre(page, 0, 2))
    listener.wait_for(rf"Selected 1 tile: {grid[(0, 2)]}\.")
    page.mouse.click(*cell_centre(page, 0, 3))
    page.keyboard.up("Shift")
    pair = grid[(0, 2)] + grid[(0, 3)]
    listener.wait_for(rf"Selected 2 tiles: {pair}\.")
    assert grouped(page) == {(0, 2), (0, 3)}
    page.screenshot(path=str(shots / "move-selected-desktop.png"))

    # The arrows move them, one message a move; onto the second row's tiles, refused.
    page.keyboard.press("ArrowRight")
    listener.wait_for(rf"Moved {pair} 1 column right, now from row 1, column 4\.")
    grid = moved(grid, [(0, 2), (0, 3)], 0, 1)
    assert sent.wait_for(count + 1) == grid == placed(page)
    for row in (0, 1):
        page.keyboard.press("ArrowDown")
        listener.wait_for(rf"Moved {pair} 1 row down, now from row {row + 2}, column 4\.")
        grid = moved(grid, [(row, 3), (row, 4)], 1, 0)
        assert sent.wait_for(count + 2 + row) == grid == placed(page)
    page.keyboard.press("ArrowLeft")
    listener.wait_for(rf"Cannot move there: {grid[(2, 2)]} at row 3, column 3 is in the way\.")
    assert placed(page) == grid
    page.keyboard.press("Escape")
    listener.wait_for(r"No tiles selected\.")
    assert grouped(page) == set()

    # A tile dropped on another: the two swap, said as a swap.
    first, second = grid[(0, 0)], grid[(0, 1)]
    drag(page, cell_centre(page, 0, 0), cell_centre(page, 0, 1))
    listener.wait_for(rf"Swapped {first}, now at row 1, column 2, and {second}, now at row 1, column 1\.")
    grid = grid | {(0, 0): second, (0, 1): first}
    assert sent.wait_for(count + 4) == grid == placed(page)

    # A rack tile dropped on a grid tile takes its place; that one goes back to the rack.
    letter = rack(page)[0]
    page.locator("#rack .tile").first.hover()
    page.mouse.down()
    page.mouse.move(*cell_centre(page, 2, 0), steps=6)
    page.mouse.up()
    expect(page.locator('#board-layer .tile[data-row="2"][data-col="0"]')).to_have_attribute("data-letter", letter)
    assert sorted(rack(page)) == sorted(rack_after := held[7:].replace(letter, "", 1) + grid[(2, 0)])
    grid = grid | {(2, 0): letter}
    assert sent.wait_for(count + 5) == grid == placed(page), rack_after

    # Three tiles alone on the grid's last row: a move past it is refused, one back up lands.
    page.get_by_role("button", name="All back to rack").click()
    listener.wait_for(r"All \d+ tiles back to the rack")
    edge = MAX_PAGE_COORD
    command(page, listener, f"{rack(page)[:3]} {edge + 1} 1 across", "Placed")
    page.get_by_role("button", name="Centre").click()
    drag(page, cell_centre(page, edge, -1), cell_centre(page, edge, 2))
    listener.wait_for(r"Selected 3 tiles")
    drag(page, cell_centre(page, edge, 1), cell_centre(page, edge + 1, 1))
    listener.wait_for(r"Cannot move there: that is past the edge of the grid\.")
    drag(page, cell_centre(page, edge, 1), cell_centre(page, edge - 1, 1))
    listener.wait_for(rf"Moved \w+ 1 row up, now from row {edge}, column 1\.")
    assert page.errors == []


def test_the_keyboard_alone_chooses_moves_swaps_and_lets_go(browser, serve):
    page, sent, listener, held = seated(browser, serve, DESKTOP)
    grid = lay_rows(page, listener, held)
    count = len(sent.grids)
    word = held[:4]
    board = page.get_by_role("application", name=re.compile("Your grid"))
    board.focus()
    page.keyboard.press("ArrowRight")  # the cursor at row 1, column 1, across

    # Space: the word under the cursor; the arrows move it, the cursor riding along.
    page.keyboard.press("Space")
    listener.wait_for(rf"Selected 4 tiles: {word}\.")
    page.keyboard.press("ArrowDown")
    listener.wait_for(rf"Moved {word} 1 row down, now from row 2, column 1\.")
    grid = moved(grid, [(0, 0), (0, 1), (0, 2), (0, 3)], 1, 0)
    assert sent.wait_for(count + 1) == grid == placed(page)
    expect(board).to_have_accessible_description(f"Cursor row 2, column 1, across: {grid[(1, 0)]}.")
    page.keyboard.press("ArrowDown")  # onto the second row's tiles
    listener.wait_for(rf"Cannot move there: {grid[(2, 0)]} at row 3, column 1 is in the way\.")
    page.keyboard.press("Escape")
    listener.wait_for(r"No tiles selected\.")

    # Shift+arrows stretch a box from the cursor.
    for _ in range(3):
        page.keyboard.press("Shift+ArrowRight")
    listener.wait_for(rf"Selected 4 tiles: {word}\.")
    expect(board).to_have_accessible_description(f"Cursor row 2, column 4, across: {grid[(1, 3)]}.")
    page.keyboard.press("Escape")
    listener.wait_for(r"No tiles selected\.")

    # Shift+Space: one tile; an arrow onto its neighbour swaps the two.
    last, before = grid[(1, 3)], grid[(1, 2)]
    page.keyboard.press("Shift+Space")
    listener.wait_for(rf"Selected 1 tile: {last}\.")
    page.keyboard.press("ArrowLeft")
    listener.wait_for(rf"Swapped {last}, now at row 2, column 3, and {before}, now at row 2, column 4\.")
    grid = grid | {(1, 2): last, (1, 3): before}
    assert sent.wait_for(count + 2) == grid == placed(page)

    # Delete: the chosen tile back to the rack.
    page.keyboard.press("Delete")
    listener.wait_for(rf"Picked up {last} at row 2, column 3\.")
    del grid[(1, 2)]
    assert sent.wait_for(count + 3) == grid == placed(page)

    # Enter lays the rack's selected tile at the cursor; the tile there goes back to the rack.
    page.keyboard.press("ArrowLeft")  # the cursor onto row 2, column 2
    letter = next(letter for letter in rack(page) if letter != grid[(1, 1)])
    option = page.get_by_role("listbox", name="Your rack").get_by_role("option", name=letter, exact=True).first
    option.focus()
    page.keyboard.press("Enter")
    expect(option).to_have_attribute("aria-selected", "true")
    board.focus()
    page.keyboard.press("Enter")
    listener.wait_for(rf"Placed {letter} at row 2, column 2\. Picked up {grid[(1, 1)]} at row 2, column 2\.")
    grid = grid | {(1, 1): letter}
    assert sent.wait_for(count + 4) == grid == placed(page)
    assert page.errors == []


class Finger:
    """One finger on a touch screen (Chrome's touch events: the page sees touch pointers)."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)

    def touch(self, kind: str, at: tuple[float, float] | None = None) -> None:
        points = [{"x": at[0], "y": at[1]}] if at else []
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def press_and_move(self, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
        self.touch("touchStart", start)
        for step in range(1, steps + 1):
            self.touch(
                "touchMove",
                (start[0] + (end[0] - start[0]) * step / steps, start[1] + (end[1] - start[1]) * step / steps),
            )

    def lift(self) -> None:
        self.touch("touchEnd")

    def two_move(self, starts: list[tuple[float, float]], by: tuple[float, float], steps: int = 6) -> None:
        """Two fingers down at `starts`, moved together by `by`, lifted."""
        self.cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(starts)]},
        )
        for step in range(1, steps + 1):
            self.cdp.send(
                "Input.dispatchTouchEvent",
                {
                    "type": "touchMove",
                    "touchPoints": [
                        {"x": x + by[0] * step / steps, "y": y + by[1] * step / steps, "id": i}
                        for i, (x, y) in enumerate(starts)
                    ],
                },
            )
        self.lift()


def test_on_a_phone_select_mode_taps_tiles_a_finger_moves_them_and_boxes_them(browser, serve, shots):
    page, sent, listener, held = seated(browser, serve, PHONE)
    grid = lay_rows(page, listener, held)
    count = len(sent.grids)
    word = held[:4]
    finger = Finger(page)

    # Select mode on: taps choose tiles; a finger on one of them drags them all.
    select = page.get_by_role("button", name="Select tiles")
    select.tap()
    expect(select).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#toast")).to_have_text(re.compile("^Select mode"))
    for col in range(4):
        page.touchscreen.tap(*cell_centre(page, 0, col))
    listener.wait_for(rf"Selected 4 tiles: {word}\.")
    finger.press_and_move(cell_centre(page, 0, 1), cell_centre(page, 3, 1))
    expect(page.locator("#board-layer .tile.landing")).to_have_count(4)
    page.screenshot(path=str(shots / "move-drag-phone.png"))
    finger.lift()
    listener.wait_for(rf"Moved {word} 3 rows down, now from row 4, column 1\.")
    grid = moved(grid, [(0, 0), (0, 1), (0, 2), (0, 3)], 3, 0)
    assert sent.wait_for(count + 1) == grid == placed(page)

    # A box drawn with a finger on empty space chooses both rows; a tap takes one tile out.
    finger.press_and_move(cell_centre(page, 1, -1), cell_centre(page, 3, 3))
    finger.lift()
    listener.wait_for(r"Selected 7 tiles")
    page.touchscreen.tap(*cell_centre(page, 3, 3))
    listener.wait_for(r"Selected 6 tiles")
    assert grouped(page) == {(2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2)}
    page.screenshot(path=str(shots / "move-selected-phone.png"))
    finger.press_and_move(cell_centre(page, 2, 0), cell_centre(page, 2, 1))  # onto the tile left out
    expect(page.locator("#board-layer .tile.landing.refused")).to_have_count(6)
    finger.lift()
    listener.wait_for(rf"Cannot move there: {grid[(3, 3)]} at row 4, column 4 is in the way\.")
    assert placed(page) == grid

    # Select mode off: a finger's drag on empty space pans the board (the chosen tiles stay chosen).
    select.click()
    expect(select).to_have_attribute("aria-pressed", "false")
    pan = page.eval_on_selector("#board", "b => [+b.dataset.panX, +b.dataset.panY]")
    finger.press_and_move(cell_centre(page, 0, 5), cell_centre(page, -1, 4))
    finger.lift()
    assert page.eval_on_selector("#board", "b => [+b.dataset.panX, +b.dataset.panY]") != pan
    assert placed(page) == grid and len(grouped(page)) == 6
    pan = page.eval_on_selector("#board", "b => [+b.dataset.panX, +b.dataset.panY]")
    finger.two_move([cell_centre(page, -2, -2), cell_centre(page, -2, 2)], (0, -40))  # two fingers pan too
    assert page.eval_on_selector("#board", "b => [+b.dataset.panX, +b.dataset.panY]") != pan
    assert page.errors == []
