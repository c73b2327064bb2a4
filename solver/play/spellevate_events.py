"""Spellevate's event vocabulary: every kind of event a match logs, defined once.

A Spellevate match (`solver.play.spellevate_match.SpellevateMatch`) records what happens as
events: JSON objects with the kind `event` and the fields that kind names below. The same
objects are what every reader takes in: the command line's round log and JSON lines, the
protocol's `spellevate_event` messages and a room's log. A reader names a kind by its
constant here and a field by the TypedDict's key, and narrows `SpellevateEvent` by the kind,
so mypy follows a renamed field everywhere.

Players are seat indexes; letters are upper case. Every event is public: a hand's letters
never appear in one (a deal gives the hand sizes).
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

LEAD_DRAW: Final = "lead_draw"
DEAL: Final = "deal"
PLAY: Final = "play"
PASS: Final = "pass"
CLEAR: Final = "clear"
WIN: Final = "win"
LEFT: Final = "left"


class LeadDraw(TypedDict):
    """Each player drew a tile, ties redrew: every draw in order, and who leads."""

    event: Literal["lead_draw"]
    draws: list[list[str]]
    leader: int


class Deal(TypedDict):
    """A round dealt: its number (from 1), who leads it, each hand's size."""

    event: Literal["deal"]
    round: int
    leader: int
    hands: list[int]


class Played(TypedDict):
    """Letters laid on the table, and the tiles the player has left."""

    event: Literal["play"]
    player: int
    letters: str
    left: int


class Passed(TypedDict):
    event: Literal["pass"]
    player: int


class Cleared(TypedDict):
    """Every other player passed in turn: `player` clears the table and leads."""

    event: Literal["clear"]
    player: int


class Won(TypedDict):
    """`player` went out: the round's scores, seat by seat (they sum to zero)."""

    event: Literal["win"]
    player: int
    scores: list[int]


class Left(TypedDict):
    """A player left the match: a stand-in bot plays their hand to the end."""

    event: Literal["left"]
    player: int


SpellevateEvent = LeadDraw | Deal | Played | Passed | Cleared | Won | Left
MoveEvent = Played | Passed | Cleared | Won  # what a move causes (`RoundState.apply`)

KINDS: dict[str, type] = {
    LEAD_DRAW: LeadDraw,
    DEAL: Deal,
    PLAY: Played,
    PASS: Passed,
    CLEAR: Cleared,
    WIN: Won,
    LEFT: Left,
}
