"""The `bananas engine` protocol: JSON lines that let other programs seat our bots.

docs/PROTOCOL.md is the reference, with a full example session; docs/SECURITY.md lists
what a session promises whatever it is sent. In short: every message is one JSON object
on one line with a "type"; replies echo the request's "id" when it has one; a bad message
gets {"type": "error", "code": ..., "message": ...} and changes nothing, so a session
survives anything a client sends.

A `Session` is sans-IO: `receive(line, now)` returns the messages to send, `tick(now)`
returns those that fell due (a bot's call lands when its work is done on the wall clock),
and `next_wakeup()` says when to tick next; `encode` turns a message into strict JSON
text. `solver.protocol.stdio` drives one session over stdin/stdout, `solver.protocol.network`
many over WebSocket.

This module is the dispatcher: the messages usable at any time (hello, options, check,
quit) and the session's options and limits. The two ways to play live beside it::

  seat  (`solver.protocol.seat`) the front-end is the referee; the engine plays one bot.
  host  (`solver.protocol.host`) the engine referees a whole game of bots and remote players.
"""

from __future__ import annotations

import json
from dataclasses import replace

from solver import __version__
from solver.core.grid import MIN_WORD_LENGTHS, GridError, validate
from solver.core.limits import (
    BOT_SPEEDS,
    LOCAL,
    MAX_BANANAGRAMS_PLAYERS,
    MAX_GAME_TILES,
    MAX_GRID_CELLS,
    MAX_MESSAGE_BYTES,
    NETWORK,
    TIME_SCALES,
    Limits,
)
from solver.core.tiles import TileError
from solver.lexicon.loader import SHIPPED, LexiconError, get_lexicon
from solver.play.match import MATCH_FORMATS
from solver.play.presets import preset_names
from solver.play.rules import RuleError
from solver.play.variants import ENGINE_VARIANTS
from solver.protocol import fields, spellevate
from solver.protocol.fields import ERROR_CODES, ProtocolError
from solver.protocol.host import HostMode
from solver.protocol.options import CLOCKS, Options
from solver.protocol.seat import SeatMode
from solver.protocol.specs import LocalSpecs, NetworkSpecs

__all__ = ["ERROR_CODES", "MAX_MESSAGE_BYTES", "PROTOCOL_VERSION", "ProtocolError", "Session", "encode"]

PROTOCOL_VERSION = 1
SPELLEVATE_TYPES = ("spellevate_info", "spellevate_seat", "spellevate_start", "spellevate_move", "spellevate_hand")
# Messages that may make a bot think (a search): a server runs them on its worker threads.
HEAVY_TYPES = frozenset(
    {
        "options",
        "new_hand",
        "draw",
        "table",
        "notice",
        "start_game",
        "call",
        "hint",
        "spellevate_seat",
        "spellevate_start",
        "spellevate_move",
    }
)


class Session:
    """One client's conversation with the engine (see the module docstring).

    `allow_paths`: whether options and check may name word-list or distribution files on
    the engine's machine (yes for a local `bananas engine`; no for network clients, who get
    the shipped names and inline distributions only, through a reader that cannot open
    files). `limits` defaults to the local or the network limits accordingly."""

    def __init__(self, allow_paths: bool = True, max_message_bytes: int | None = None, limits: Limits | None = None):
        self.specs = LocalSpecs if allow_paths else NetworkSpecs
        self.limits = limits or (LOCAL if allow_paths else NETWORK)
        if max_message_bytes is not None:
            self.limits = replace(self.limits, max_message_bytes=max_message_bytes)
        self.later: list[dict] = []  # messages to send after the current reply (a bot's own)
        self.outbox: list[dict] = []
        self.options = Options()
        self.closed = False
        self.seat = SeatMode(self)
        self.host = HostMode(self)
        self.spellevate: spellevate.SeatTable | spellevate.HostedTable | None = None  # a Spellevate seat or hosted game

    @property
    def allow_paths(self) -> bool:
        """Whether this session may name files on the engine's machine (a local `bananas engine`: yes; a
        network client: no).
        """
        return self.specs.allows_paths

    @property
    def max_message_bytes(self) -> int:
        """The longest message accepted, in bytes of UTF-8 (`hello` says it; 65,536 by default)."""
        return self.limits.max_message_bytes

    # -- the sans-IO surface ------------------------------------------------------------------
    def receive(self, line: str | bytes, now: float) -> list[dict]:
        """Handle one incoming line (a JSON object, str or UTF-8 bytes) at wall time `now` (seconds,
        the driver's monotonic clock); return what to send (replies, then anything due). Never
        raises on a bad message: it is answered with an `error` and changes nothing."""
        message = None
        try:
            message = self.parse(line)
            kind = message.get("type")
            handler = self.handler(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
            replies = handler(message, now) or []
            for reply in replies:
                if isinstance(message.get("id"), (str, int)):
                    reply.setdefault("id", message["id"])
            self.outbox.extend(replies)
        except ProtocolError as error:
            self.outbox.append(error_reply(error.code, error.message, message, error.reason))
        except (TileError, GridError, LexiconError, RuleError, ValueError) as error:
            self.outbox.append(error_reply("bad_value", str(error), message))
        except Exception as error:  # a bug of ours must not end the session: report it
            self.outbox.append(error_reply("internal", f"{type(error).__name__}: {error}", message))
        finally:
            self.outbox.extend(self.later)  # the bot's own messages come after the reply
            self.later.clear()
        return self.tick(now)

    def parse(self, line: str | bytes) -> dict:
        """One line as a JSON object: ProtocolError `too_large` beyond `max_message_bytes`, `bad_json` when it
        is not JSON or not an object.
        """
        limit = self.limits.max_message_bytes
        if _size_in_bytes(line, limit) > limit:
            raise ProtocolError("too_large", f"the message is longer than {limit} bytes")
        try:
            message = json.loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise ProtocolError("bad_json", ERROR_CODES["bad_json"]) from None
        if not isinstance(message, dict):
            raise ProtocolError("bad_json", ERROR_CODES["bad_json"])
        return message

    def handler(self, kind: str):
        """The method for a message type: the dispatcher's own, or seat or host mode's."""
        entry = HANDLERS.get(kind)
        if entry is None:
            return None
        owner, name = entry
        return getattr(self if owner == "session" else getattr(self, owner), name)

    def tick(self, now: float) -> list[dict]:
        """Messages due at wall time `now` (bot calls, hosted-game events)."""
        try:
            self.seat.tick(now)
            self.host.tick(now)
        except Exception as error:  # noqa: BLE001 - a bug of ours must not end the session
            self.outbox.append(error_reply("internal", f"{type(error).__name__}: {error}"))
            self.host.round = None  # the game cannot go on from a state we do not trust
        out = list(self.outbox)
        self.outbox.clear()  # in place: remote players hold a reference to it
        return out

    def next_wakeup(self) -> float | None:
        """Wall time of the next `tick` that has work (None: only input can wake us)."""
        times = [t for t in (self.seat.next_wakeup(), self.host.next_wakeup()) if t is not None]
        return min(times) if times else None

    def is_heavy(self, line: str | bytes) -> bool:
        """Whether handling `line` may make a bot think (a server runs those on worker
        threads); hello, check, grid, quit and malformed lines are answered at once."""
        try:
            kind = self.parse(line).get("type")
        except ProtocolError:
            return False
        return kind in HEAVY_TYPES

    def make_bot(self, spec: str):
        """A bot from a preset spec, within this session's bounds on speed and search work."""
        from solver.play.bots import make_bot

        try:
            bot = make_bot(spec)
        except ValueError as error:
            raise ProtocolError("bad_value", str(error)) from None
        if not BOT_SPEEDS[0] <= bot.speed <= BOT_SPEEDS[1]:
            raise ProtocolError("bad_value", f"a bot's speed is between {BOT_SPEEDS[0]} and {BOT_SPEEDS[1]}")
        budget = getattr(getattr(bot, "settings", None), "node_budget", 0)
        if self.limits.max_node_budget is not None and budget > self.limits.max_node_budget:
            raise ProtocolError("bad_value", f"node_budget is at most {self.limits.max_node_budget} here")
        return bot

    # -- messages usable any time --------------------------------------------------------------
    def on_hello(self, message: dict, now: float) -> list[dict]:
        """The `hello` reply: the protocol version and everything the engine offers (lexicons, variants, bots,
        modes, clocks, limits).
        """
        return [
            {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "engine": "bananas",
                "version": __version__,
                "lexicons": list(SHIPPED),
                "variants": list(ENGINE_VARIANTS),
                "min_lengths": list(MIN_WORD_LENGTHS),
                "bots": list(preset_names()),
                "modes": ["seat", "host"],
                "clocks": list(CLOCKS),
                "match_formats": list(MATCH_FORMATS),
                "max_message_bytes": self.limits.max_message_bytes,
                "max_tiles": MAX_GAME_TILES,
                "max_grid_cells": MAX_GRID_CELLS,
                "max_players": MAX_BANANAGRAMS_PLAYERS,
            }
        ]

    def on_options(self, message: dict, now: float) -> list[dict]:
        """Change any of the options (checked all together before any changes) and reply with them all;
        ProtocolError `out_of_order` during a hand, `bad_value` for a bad value.
        """
        if self.seat.in_hand or self.host.in_game:
            raise ProtocolError("out_of_order", "options cannot change during a hand")
        updated = replace(self.options)
        if "lexicon" in message:
            updated.lexicon = self.specs.lexicon(fields.need(message, "lexicon"))
        if "distribution" in message:
            spec = fields.need(message, "distribution", (str, type(None)))
            updated.distribution, updated.tiles = spec, (self.specs.distribution(spec) if spec is not None else None)
        for name in ("bot", "variant", "clock"):
            if name in message:
                setattr(updated, name, fields.need(message, name))
        updated.min_length = fields.optional(message, "min_length", int, updated.min_length)
        updated.seed = fields.seed(message, default=updated.seed)
        updated.time_scale = fields.number(message, "time_scale", *TIME_SCALES, default=updated.time_scale)
        if updated.clock not in CLOCKS:
            raise ProtocolError("bad_value", f"clock must be one of {', '.join(CLOCKS)}")
        updated.rules()  # validates the variant, the minimum length and the distribution
        self.make_bot(updated.bot)
        self.options = updated
        return [{"type": "options", "options": updated.to_json()}]

    def on_check(self, message: dict, now: float) -> list[dict]:
        """Spellcheck, usable without any game."""
        grid = fields.grid(fields.need(message, "grid", (list, str)))
        tiles = fields.tiles(message["tiles"]) if "tiles" in message else None
        name = self.specs.lexicon(fields.optional(message, "lexicon", str, self.options.lexicon))
        min_length = fields.optional(message, "min_length", int, self.options.min_length)
        if min_length not in MIN_WORD_LENGTHS:
            raise ProtocolError("bad_value", "min_length must be 2 or 3")
        report = validate(grid, get_lexicon(name), tiles, min_length)
        return [{"type": "check", **report.to_json()}]

    def on_hint(self, message: dict, now: float) -> list[dict]:
        """One move for a grid and a hand (`solver.coach.hint`), usable without any game; with
        "player", for a remote player of the hosted game, on its own tiles."""
        if "player" in message:
            return self.host.on_hint(message, now)
        from solver.coach.hints import hint

        rows = message.get("grid")
        grid = fields.grid(rows) if rows is not None else None
        hand = fields.tiles(fields.need(message, "hand"), "hand")
        name = self.specs.lexicon(fields.optional(message, "lexicon", str, self.options.lexicon))
        min_length = fields.optional(message, "min_length", int, self.options.min_length)
        if min_length not in MIN_WORD_LENGTHS:
            raise ProtocolError("bad_value", "min_length must be 2 or 3")
        found = hint(grid, hand, get_lexicon(name), min_length=min_length)
        return [{"type": "hint", "hint": found.to_json() if found is not None else None}]

    def on_grid(self, message: dict, now: float) -> list[dict]:
        """A hosted player's grid (with "player"), or the seat bot's."""
        mode = self.host if "player" in message else self.seat
        return mode.on_grid(message, now)

    def on_quit(self, message: dict, now: float) -> list[dict]:
        """Say `bye` and close the session (the driver then ends the connection)."""
        self.closed = True
        return [{"type": "bye"}]

    def on_spellevate(self, message: dict, now: float) -> list[dict]:
        """Spellevate, a game of its own, in its own module."""
        replies, followups, self.spellevate = spellevate.handle(self.spellevate, self.options, message)
        self.later.extend(followups)  # after the reply: a bot's move, the public events
        return replies


# type -> (who handles it: the session, its seat or its host mode; the method)
HANDLERS = {
    "hello": ("session", "on_hello"),
    "options": ("session", "on_options"),
    "check": ("session", "on_check"),
    "quit": ("session", "on_quit"),
    "grid": ("session", "on_grid"),
    "hint": ("session", "on_hint"),
    "new_hand": ("seat", "on_new_hand"),
    "draw": ("seat", "on_draw"),
    "table": ("seat", "on_table"),
    "notice": ("seat", "on_notice"),
    "start_game": ("host", "on_start_game"),
    "call": ("host", "on_call"),
    **dict.fromkeys(SPELLEVATE_TYPES, ("session", "on_spellevate")),
}


def error_reply(code: str, message: str, request: dict | None = None, reason: str | None = None) -> dict:
    """The `error` message for `code` (PROTOCOL.md's table) and `message` (cut to 500 characters), with the
    refusal `reason` if any and the request's `id` if it carried one.
    """
    reply = {"type": "error", "code": code, "message": message[:500]}
    if reason is not None:
        reply["reason"] = reason
    if isinstance(request, dict) and isinstance(request.get("id"), (str, int)):
        reply["id"] = request["id"]
    return reply


def encode(message: dict, max_bytes: int = NETWORK.max_reply_bytes) -> str:
    """One message as strict JSON text (no NaN or Infinity, which JSON.parse rejects), of at
    most `max_bytes`: a reply that cannot be sent as it is becomes an error saying why."""
    try:
        text = json.dumps(message, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:  # a bug of ours: report it, never send bad JSON
        request = {"id": message.get("id")} if isinstance(message, dict) else None
        return encode(error_reply("internal", f"unencodable reply: {error}", request), max_bytes)
    if _size_in_bytes(text, max_bytes) > max_bytes:
        request = {"id": message.get("id")} if isinstance(message, dict) else None
        reason = f"the {message.get('type')!s:.20} reply would be longer than {max_bytes} bytes"
        return json.dumps(error_reply("too_large", reason, request), separators=(",", ":"))
    return text


def _size_in_bytes(line: str | bytes, limit: int) -> int:
    if isinstance(line, bytes) or len(line) * 4 <= limit:
        return len(line)  # a str of n characters is at most 4n bytes in UTF-8
    return len(line.encode("utf-8", "surrogatepass"))
