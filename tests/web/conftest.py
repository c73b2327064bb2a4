"""Fixtures of the web tests (the servers and page sockets they use are in tests/helpers.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import start_server

from solver.web import BackgroundServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        missing = "Debian's chromium is not installed (.ci/run installs it: apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(missing)  # CI installs it: a skip there would hide the browser tests
        pytest.skip(missing)
    with pytest.importorskip("playwright.sync_api").sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True, scope="session")
def warm_kernels():
    """The search kernels compiled once, before any server deals a hand with a bot: a table
    compiles them before its deal (solver.web.bananagrams_table), tens of seconds on the
    session's cold numba cache, which no single wait of a test should have to cover, whichever
    test comes first. The servers run in this process."""
    from solver.lexicon.loader import get_lexicon
    from solver.search.solving import warm_kernels

    warm_kernels(get_lexicon("en"))


@pytest.fixture
def serve(warm_kernels):
    servers = []

    def start(**settings) -> BackgroundServer:
        settings.setdefault("seed", 7)
        server = start_server(**settings)  # helpers.SLOW_BOT thinks for minutes: never races the people
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def shots(tmp_path):
    folder = SHOTS if os.environ.get("BANANAS_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(autouse=True, scope="session")
def word_lists():
    """Load the word lists once, before any server's first game needs them (a cold cache
    builds them: seconds that no single wait should have to cover)."""
    from solver.lexicon.loader import get_lexicon

    get_lexicon("en")
    get_lexicon("en", 50)  # the easy bot's vocabulary
