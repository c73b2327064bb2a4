"""The engine's event vocabulary: every kind of event a hand logs, defined once.

A hand (`solver.play.hand.Hand.log`) records what happens as events: JSON objects with the
game clock `t` (simulated seconds since the split), the kind `event`, and the fields that
kind names below. The same objects are what every reader takes in: the game logs
(`solver.coach.logs` checks them line by line, the coach's reviews and replays read them),
a room's table (`solver.web.bananagrams_table`), the engine protocol's public events
(`public_view`) and the command line's log writers. A reader names a kind by its constant
here and reads a field off an event typed as `HandEvent` (or a log's `LogLine`), narrowed to
its kind by `event["event"] == KIND`, so mypy follows a renamed field everywhere
(`tests/project/test_architecture.py` fails on a reader outside `solver/play` that takes an
event untyped); a new kind is added in one place: its TypedDict, its constant and `KINDS`.

Tiles are letters (`"AEQ"`), grids are lists of rows in the notation of `solver.core.grid`,
players are seat indexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, overload

SPLIT: Literal["split"] = "split"
PEEL: Literal["peel"] = "peel"
DUMP: Literal["dump"] = "dump"
STUCK: Literal["stuck"] = "stuck"
BANANAS: Literal["bananas"] = "bananas"
INSPECTION: Literal["inspection"] = "inspection"
ROTTEN: Literal["rotten"] = "rotten"
LEFT: Literal["left"] = "left"
SNAPSHOT: Literal["snapshot"] = "snapshot"
END: Literal["end"] = "end"
# Lines of a game log around a hand's events (solver.coach.logs), not events of the hand:
HINT: Literal["hint"] = "hint"  # a room's person was shown a hint
GRIDS: Literal["grids"] = "grids"  # every player's final grid, after the end


Outcome = Literal["win", "shared", "unawarded", "replay"]  # how a hand ended (`End.outcome`)


class Event(TypedDict):
    t: float  # the game clock, simulated seconds since the split


class Split(Event):
    event: Literal["split"]
    hands: list[str]  # each seat's dealt tiles
    bunch: int  # tiles left in the bunch
    unused: str  # tiles the variant sets aside


class Peel(Event):
    event: Literal["peel"]
    player: int  # who called PEEL
    drawn: dict[str, str]  # seat (as text) -> the tile it drew
    bunch: int


class Dump(Event):
    event: Literal["dump"]
    player: int
    returned: str  # the tile put back
    drawn: str  # the three drawn
    bunch: int


class Stuck(Event):
    event: Literal["stuck"]
    player: int
    hand: str  # the tiles not on the player's grid


class Bananas(Event):
    event: Literal["bananas"]
    player: int
    grid: list[str] | None  # the grid shown for inspection


class Inspection(Event):
    event: Literal["inspection"]
    player: int
    valid: bool


class Rotten(Event):
    event: Literal["rotten"]
    player: int
    problems: list[str]  # what the inspection found
    faults: NotRequired[list[dict]]  # the same by code (solver.core.grid.Report.faults), for a page's own words
    bunch: int  # the player's tiles went back in


class Left(Event):
    event: Literal["left"]
    player: int
    bunch: int


class _BotWork(TypedDict, total=False):  # (NotRequired is not seen through this module's string annotations)
    begun: float  # a bot's work that made the grid: when it began (a room shows it build from then)


class Snapshot(Event, _BotWork):
    event: Literal["snapshot"]
    player: int
    grid: list[str]  # the player's grid as the table sees it


class _EndKind(Event):
    event: Literal["end"]


class End(_EndKind, total=False):
    # (t and event always; the rest as below, the variant's scores only when it keeps them)
    outcome: Outcome
    winners: list[int]
    reason: str  # in English; the code and its params are the HandResult's
    time: float  # solo: the hand's clock at the win
    words: int  # solo: the words of the winning grid
    objective: str  # solo: what the score counts (time or fewest-words)
    score: float  # solo: the objective's figure, lower is better


HandEvent = Split | Peel | Dump | Stuck | Bananas | Inspection | Rotten | Left | Snapshot | End


# A game log's lines (solver.coach.logs): the events as `log_line` writes them - a `stuck`
# names its tiles as `tiles` - and the lines around them.
class StuckLine(Event):
    event: Literal["stuck"]
    player: int
    tiles: str  # the tiles not on the player's grid (the event's `hand`)


class HintLine(Event):
    event: Literal["hint"]
    player: int  # the person shown a hint


LogLine = Split | Peel | Dump | StuckLine | Bananas | Inspection | Rotten | Left | Snapshot | End | HintLine

KINDS: dict[str, type] = {
    SPLIT: Split,
    PEEL: Peel,
    DUMP: Dump,
    STUCK: Stuck,
    BANANAS: Bananas,
    INSPECTION: Inspection,
    ROTTEN: Rotten,
    LEFT: Left,
    SNAPSHOT: Snapshot,
    END: End,
}


def kind_of(event: Mapping[str, Any]) -> str:
    """The kind of an event (or of a log line): its `event` field. (To read the kind's own
    fields, compare `event["event"]` itself with the kind's constant: mypy then narrows the
    event to its kind's TypedDict.)"""
    return event["event"]


def time_of(event: HandEvent | LogLine) -> float:
    """When an event happened: the game clock, simulated seconds since the split."""
    return event["t"]


def player_of(event: HandEvent | LogLine) -> int | None:
    """The seat an event is about (None for a split or an end)."""
    return event.get("player")  # type: ignore[return-value]  # (every kind's `player` is an int)


def fields_of(kind: str) -> frozenset[str]:
    """The fields an event of `kind` always carries (KeyError for an unknown kind)."""
    return frozenset(KINDS[kind].__required_keys__)  # type: ignore[attr-defined]  # (a TypedDict's)


@overload
def make(kind: Literal["split"], t: float, **fields: Any) -> Split: ...
@overload
def make(kind: Literal["peel"], t: float, **fields: Any) -> Peel: ...
@overload
def make(kind: Literal["dump"], t: float, **fields: Any) -> Dump: ...
@overload
def make(kind: Literal["stuck"], t: float, **fields: Any) -> Stuck: ...
@overload
def make(kind: Literal["bananas"], t: float, **fields: Any) -> Bananas: ...
@overload
def make(kind: Literal["inspection"], t: float, **fields: Any) -> Inspection: ...
@overload
def make(kind: Literal["rotten"], t: float, **fields: Any) -> Rotten: ...
@overload
def make(kind: Literal["left"], t: float, **fields: Any) -> Left: ...
@overload
def make(kind: Literal["snapshot"], t: float, **fields: Any) -> Snapshot: ...
@overload
def make(kind: Literal["end"], t: float, **fields: Any) -> End: ...
@overload
def make(kind: str, t: float, **fields: Any) -> dict[str, Any]: ...
def make(kind: str, t: float, **fields: Any) -> Any:
    """An event of `kind` at clock `t`, typed as its kind's TypedDict: ValueError if a field
    its kind requires is missing (so a new field is added here first, and every reader learns
    of it). A kind known only at run time gives a plain dict."""
    event: dict[str, Any] = {"t": round(t, 3), "event": kind, **fields}
    missing = fields_of(kind) - event.keys()
    if missing:
        raise ValueError(f"a {kind} event without {', '.join(sorted(missing))}")
    return event


def public_view(event: HandEvent) -> dict:
    """An event as every player may see it: tiles in hands stay private (each player gets
    their own by other means); grids shown at BANANAS are public."""
    public: dict[str, Any] = dict(event)
    kind = kind_of(event)
    if kind == SPLIT:
        public["hands"] = [len(hand) for hand in public["hands"]]
    elif kind == PEEL:
        public["drawn"] = sorted(int(player) for player in public["drawn"])
    elif kind == DUMP:
        public.pop("returned", None)
        public["drawn"] = len(public["drawn"])
    elif kind == STUCK:
        public["hand"] = len(public["hand"])
    return public
