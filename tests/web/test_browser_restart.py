"""A server restart as a person at the table lives it, in a real browser: the grid they laid
comes back, the clock stands still while the page is disconnected and goes on from where it
was (not from the hand's last event), and tiles laid while the server was down are kept and
said to be restored (docs/ROOMS.md, *Reconnecting*).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess

import pytest
from helpers import bananas_script, http
from test_browser import create_room, new_page, place, placed, rack, wait_for_tiles, wait_text

from solver.lexicon.loader import get_lexicon

pytestmark = pytest.mark.browser


class Served:
    """`bananas serve` as a real process on a fixed port (the page reconnects to it)."""

    def __init__(self, port: int, db) -> None:
        command = [bananas_script(), "serve", "--port", str(port), "--db", str(db), "--processes", "1"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline() if self.process.stdout else ""
        assert "play at" in line, (line, self.process.stderr.read() if self.process.poll() is not None else "")
        self.url = f"http://127.0.0.1:{port}"
        while http(self.url + "/")[0] != 200:  # up once its rooms are restored
            assert self.process.poll() is None, self.process.stderr.read()

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def clock_seconds(page) -> int:
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", page.inner_text("#clock").strip()).groups()
    return int(minutes) * 60 + int(seconds)


def test_a_killed_server_gives_the_grid_back_and_the_page_its_own_newer_tiles(browser, tmp_path):
    port, db = free_port(), tmp_path / "rooms.sqlite3"
    server = Served(port, db)
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    try:
        create_room(page, server, "Ann")
        page.click("#start")
        wait_for_tiles(page, 21)
        letters = rack(page)
        lexicon = get_lexicon("en")
        first, second = next((a, b) for a in letters for b in letters.replace(a, "", 1) if a + b not in lexicon)
        place(page, first, 0, 0, "tap")
        place(page, second, 0, 1, "tap")
        page.wait_for_selector("#board-layer .tile.bad >> nth=1")  # the server's check: the grid it holds
        page.wait_for_function("document.querySelector('#clock').textContent >= '0:02'")
        before = clock_seconds(page)

        server.kill()
        wait_text(page, "#connection", "Connection lost: reconnecting…")
        stopped = clock_seconds(page)
        page.wait_for_timeout(2500)  # what the test checks is that nothing moves meanwhile
        assert clock_seconds(page) == stopped  # the clock stands still while disconnected
        third = rack(page)[0]
        place(page, third, 2, 0, "tap")  # laid while the server is down

        server = Served(port, db)
        wait_text(page, "#toast", "The server restarted: your last tile was restored.")
        page.wait_for_function("document.querySelector('#connection').textContent === ''")
        assert placed(page) == {(0, 0): first, (0, 1): second, (2, 0): third}
        assert clock_seconds(page) >= before - 1  # at most a second of the clock lost, never a rewind to 0:00
        page.wait_for_selector("#board-layer .tile.loose")  # the server's check of the grid the page sent again

        page.reload()  # a fresh page: the grid is the server's, and the server has all three
        wait_for_tiles(page)
        page.wait_for_function("document.querySelectorAll('#board-layer .tile').length === 3")
        assert placed(page) == {(0, 0): first, (0, 1): second, (2, 0): third}
        assert page.errors == []
    finally:
        page.close()
        server.kill()
