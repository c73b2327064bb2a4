"""The page shows what the server says a call may do (the `table` message's `calls`): it judges
only its own rack and chosen tile, never the bunch. The server's verdict is rewritten on its way
to the page here, so a page that judged the bunch itself would show another answer."""

from __future__ import annotations

import json

import pytest
from test_browser import create_room, new_page, wait_for_tiles

pytestmark = pytest.mark.browser

REFUSED = {"code": "bunch_too_small", "params": {"bunch": 77}}  # a verdict no bunch rule would give


def rewrite_calls(page, calls: dict) -> None:
    """Every `table` message the server sends this page reaches it with `calls` replaced."""

    def route(socket) -> None:
        server = socket.connect_to_server()

        def from_server(message) -> None:
            data = json.loads(message) if isinstance(message, str) else None
            if isinstance(data, dict) and data.get("type") == "table":
                data["calls"] = {**data["calls"], **calls}
                message = json.dumps(data)
            socket.send(message)

        server.on_message(from_server)

    page.route_web_socket("**/ws", route)


def test_a_call_the_server_refuses_is_disabled_with_the_servers_reason(browser, serve, shots):
    server = serve()
    for viewport in ({"width": 1280, "height": 800}, {"width": 360, "height": 740}):
        page = new_page(browser, viewport=viewport)
        rewrite_calls(page, {"dump": REFUSED})
        create_room(page, server, "Ann")
        page.click("#start")
        wait_for_tiles(page, 21)
        page.click("#rack .tile >> nth=0")  # a tile chosen: the page's own premise of a DUMP holds
        page.wait_for_selector("#dump[aria-disabled=true]")
        assert page.text_content("#dump-why") == "Not enough tiles in the bunch for that (77 left)."
        assert page.get_attribute("#peel", "aria-disabled") == "true"  # (the rack is not empty: the page's own)
        page.click("#dump", force=True)  # pressed all the same: the reason is said, nothing is sent
        page.wait_for_selector("#toast:has-text('77 left')")
        assert page.locator("#rack .tile").count() == 21
        page.screenshot(path=shots / f"calls-refused-{viewport['width']}.png")
        assert page.errors == []
        page.context.close()
