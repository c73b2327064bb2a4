"""Reading the fields of a protocol message: each value is checked for kind and range, and
bounded, before anything in the session changes (a bad message changes nothing)."""

from __future__ import annotations

import math

from solver.core.grid import Grid, GridError
from solver.core.limits import MAX_GAME_TILES, MAX_GRID_CELLS, MAX_MESSAGE_BYTES, MAX_SEED
from solver.core.tiles import TileCounts, TileError

ERROR_CODES = {
    "bad_json": "the line is not a JSON object (over WebSocket: not a text frame)",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes (or the reply would be too large)",
    "unknown_type": "no such message type",
    "missing_field": "a required field is missing",
    "bad_value": "a field has a value of the wrong kind or out of range",
    "bad_letters": "tiles must be letters A-Z",
    "bad_grid": "the grid is malformed",
    "out_of_order": "the message does not fit the session's state",
    "not_your_tile": "the tile is not in that player's hand",
    "illegal_play": "Spellevate: the play breaks the rules (not a word, not later, ...)",
    "stale": "the call was made before the player saw its latest tiles: dropped, call again",
    "internal": "the engine failed on this message (a bug: please report it); the session goes on",
}


class ProtocolError(Exception):
    """A message the session cannot act on: the client gets `code` and `message` (and, for a
    call the rules refuse, `reason`: the engine's refusal code, `solver.play.refusals.Refusal`)."""

    def __init__(self, code: str, message: str, reason: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


def need(message: dict, name: str, kind: type | tuple = str):
    """The field `name`, which must be there and of `kind` (a bool is not an int)."""
    if name not in message:
        raise ProtocolError("missing_field", f"'{message.get('type')}' needs the field '{name}'")
    value = message[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ProtocolError("bad_value", f"field '{name}' has the wrong kind of value")
    return value


def optional(message: dict, name: str, kind: type | tuple = str, default=None):
    return need(message, name, kind) if name in message else default


def integer(message: dict, name: str, low: int, high: int, default: int | None = None) -> int | None:
    """An integer field within [low, high] (None or `default` when absent)."""
    value = optional(message, name, int, default)
    if value is not None and not low <= value <= high:
        raise ProtocolError("bad_value", f"'{name}' must be between {low} and {high}")
    return value


def seed(message: dict, default: int) -> int:
    value = integer(message, "seed", 0, MAX_SEED, default)
    return default if value is None else value


def number(message: dict, name: str, low: float, high: float, default: float) -> float:
    """A finite number field within [low, high]."""
    value = optional(message, name, (int, float), default)
    if not (math.isfinite(value) and low <= value <= high):
        raise ProtocolError("bad_value", f"'{name}' must be a number between {low:g} and {high:g}")
    return float(value)


def tiles(value, field_name: str = "tiles", limit: int = MAX_GAME_TILES) -> TileCounts:
    """Tiles given as a string of letters (at most `limit`)."""
    if not isinstance(value, str):
        raise ProtocolError("bad_value", f"field '{field_name}' must be a string of letters")
    if len(value) > limit:
        raise ProtocolError("bad_value", f"at most {limit} tiles at once")
    try:
        return TileCounts.from_letters(value)
    except TileError as error:
        raise ProtocolError("bad_letters", str(error)) from None


def grid(value) -> Grid:
    """A grid as a list of row strings or the text notation, of at most MAX_GRID_CELLS cells
    and MAX_GAME_TILES letters (the replies that echo or describe it stay small)."""
    if isinstance(value, str):
        rows = value.splitlines()
    elif isinstance(value, list) and all(isinstance(row, str) for row in value):
        rows = value
    else:
        raise ProtocolError("bad_grid", "a grid is a list of row strings or the text notation")
    if len(rows) * max((len(row) for row in rows), default=0) > MAX_GRID_CELLS:
        raise ProtocolError("bad_grid", f"a grid has at most {MAX_GRID_CELLS} cells (rows x columns)")
    try:
        parsed = Grid.parse(value) if isinstance(value, str) else Grid.from_rows(rows)
    except GridError as error:
        raise ProtocolError("bad_grid", str(error)) from None
    if sum(len(row) - row.count(".") for row in parsed.rows) > MAX_GAME_TILES:
        raise ProtocolError("bad_grid", f"a grid holds at most {MAX_GAME_TILES} tiles")
    return parsed
