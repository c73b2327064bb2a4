"""Fixtures of the web tests (the servers and page sockets they use are in tests/helpers.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def word_lists():
    """Load the word lists once, before any server's first game needs them (a cold cache
    builds them: seconds that no single wait should have to cover)."""
    from solver.lexicon.loader import get_lexicon

    get_lexicon("en")
    get_lexicon("en", 50)  # the easy bot's vocabulary
