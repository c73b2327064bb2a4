"""Fixtures of the coach's tests: the seeded bot game of tests/golden (a DUMP, a rotten banana,
snapshots), read once, and its review, computed once."""

from __future__ import annotations

from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GAME_LOG = GOLDEN / "coach-game.jsonl"


@pytest.fixture(scope="session")
def game_text() -> str:
    return GAME_LOG.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def game_log(game_text):
    from solver.coach import read_log

    return read_log(game_text)


@pytest.fixture(scope="session")
def game_review(game_log, en):
    from solver.coach import review

    return review(game_log, lexicon=en)
