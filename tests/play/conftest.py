"""Fixtures of the game engine's tests."""

from __future__ import annotations

import pytest

from solver.play import hand as hand_module


@pytest.fixture
def no_jitter(monkeypatch):
    """Equal work lands at the very same simulated moment (calls that cannot be ordered)."""
    monkeypatch.setattr(hand_module, "JITTER", 0.0)
