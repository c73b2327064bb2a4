"""The `bananas engine` protocol: JSON lines that let other programs seat our bots.

docs/PROTOCOL.md is the reference, with a full example session. In short: every
message is one JSON object on one line with a "type"; replies echo the request's "id"
when it has one; a bad message gets {"type": "error", "code": ..., "message": ...} and
changes nothing, so a session survives anything a client sends.

A `Session` is sans-IO: `receive(line, now)` returns the messages to send, `tick(now)`
returns those that fell due (a bot's call lands when its work is done on the wall
clock), and `next_wakeup()` says when to tick next. `solver.protocol.stdio` drives one session
over stdin/stdout; `solver.protocol.server` drives many over WebSocket.

Two ways to play:
  seat  the front-end is the referee: it owns the bunch, deals our bot its tiles
        (new_hand), tells it what it drew (draw) and how the table stands (table), and
        the engine answers with the bot's calls (call: peel / dump / bananas, or stuck).
  host  the engine referees a whole game (start_game): it owns the bunch, seats N bots
        and M remote players, sends each remote player its tiles and everyone the public
        events, and takes the remote players' calls (call with "player").
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from solver import __version__
from solver.core.grid import Grid, GridError, validate
from solver.core.tiles import DISTRIBUTIONS, TileCounts, TileError, load_distribution
from solver.lexicon.loader import SHIPPED, LexiconError, get_lexicon
from solver.play.game import (
    MATCH_FORMATS,
    VARIANTS,
    Decision,
    Hand,
    RuleError,
    Rules,
    TableView,
    grid_tiles,
    measure_work,
    work_seconds,
)

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024
MAX_PLAYERS = 8
MAX_TILES = 288  # a double set: the most tiles a hand, a draw or a distribution may hold
INLINE_DISTRIBUTION = re.compile(r"\s*[A-Za-z]\s*[:=]?\s*\d{1,3}(\s*[,;\s]\s*[A-Za-z]\s*[:=]?\s*\d{1,3})*\s*")
CLOCKS = ("realtime", "instant")
CLOCK_TOLERANCE = 1e-6  # seconds: a tick at next_wakeup() must reach the event despite rounding

ERROR_CODES = {
    "bad_json": "the line is not a JSON object",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes",
    "unknown_type": "no such message type",
    "missing_field": "a required field is missing",
    "bad_value": "a field has a value of the wrong kind or out of range",
    "bad_letters": "tiles must be letters A-Z",
    "bad_grid": "the grid is malformed",
    "out_of_order": "the message does not fit the session's state",
    "not_your_tile": "the tile is not in that player's hand",
    "internal": "the engine failed on this message (a bug: please report it); the session goes on",
}


class ProtocolError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _size_in_bytes(line: str | bytes, limit: int) -> int:
    if isinstance(line, bytes) or len(line) * 4 <= limit:
        return len(line)  # a str of n characters is at most 4n bytes in UTF-8
    return len(line.encode("utf-8", "surrogatepass"))


def _need(message: dict, name: str, kind: type | tuple = str):
    if name not in message:
        raise ProtocolError("missing_field", f"'{message.get('type')}' needs the field '{name}'")
    value = message[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ProtocolError("bad_value", f"field '{name}' has the wrong kind of value")
    return value


def _tiles(value, field_name: str = "tiles") -> TileCounts:
    if not isinstance(value, str):
        raise ProtocolError("bad_value", f"field '{field_name}' must be a string of letters")
    if len(value) > MAX_TILES:
        raise ProtocolError("bad_value", f"at most {MAX_TILES} tiles at once")
    try:
        return TileCounts.from_letters(value)
    except TileError as error:
        raise ProtocolError("bad_letters", str(error)) from None


def _grid(value) -> Grid:
    try:
        if isinstance(value, list) and all(isinstance(row, str) for row in value):
            return Grid.from_rows(value)
        if isinstance(value, str):
            return Grid.parse(value)
    except GridError as error:
        raise ProtocolError("bad_grid", str(error)) from None
    raise ProtocolError("bad_grid", "a grid is a list of row strings or the text notation")


@dataclass
class Options:
    lexicon: str = "en"
    distribution: str | None = None  # None: the lexicon's language default
    min_length: int = 2
    bot: str = "hard"
    seed: int = 0
    variant: str = "classic"
    clock: str = "realtime"
    time_scale: float = 1.0  # simulated seconds per wall second (realtime clock)

    def rules(self) -> Rules:
        language = self.lexicon if self.lexicon in DISTRIBUTIONS else "en"
        distribution = load_distribution(self.distribution) if self.distribution else DISTRIBUTIONS[language]
        return Rules(lexicon=self.lexicon, distribution=distribution, min_length=self.min_length, variant=self.variant)

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class _Pending:
    due: float
    decision: Decision
    version: int


class RemotePlayer:
    """A seat in a hosted game whose calls come over the protocol (the Bot interface)."""

    speed = 1.0

    def __init__(self, name: str, seat: int, outbox: list):
        self.name = name
        self.seat = seat
        self.outbox = outbox
        self.tiles = TileCounts()
        self.grid: Grid | None = None

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        self.tiles, self.grid = tiles, None
        if len(tiles):
            self.outbox.append({"type": "tiles", "player": self.seat, "tiles": tiles.letters(), "reason": "split"})

    def receive(self, tiles: TileCounts) -> None:
        self.tiles = self.tiles + tiles
        self.outbox.append({"type": "tiles", "player": self.seat, "tiles": tiles.letters(), "reason": "draw"})

    def give_back(self, tile: str) -> None:
        self.tiles = self.tiles - TileCounts.from_letters(tile)

    def decide(self, view: TableView) -> Decision:
        return Decision("remote")

    def holding(self) -> TileCounts:
        return self.tiles

    def current_grid(self) -> Grid | None:
        return self.grid


class Session:
    """One client's conversation with the engine (see the module docstring).

    `allow_paths`: whether options and check may name word-list or distribution files on
    the engine's machine (yes for a local `bananas engine`; no for network clients, who
    get the shipped names and inline distributions only)."""

    def __init__(self, allow_paths: bool = True, max_message_bytes: int = MAX_MESSAGE_BYTES):
        self.allow_paths = allow_paths
        self.max_message_bytes = max_message_bytes
        self.later: list[dict] = []  # messages to send after the current reply
        self.options = Options()
        self.rules = self.options.rules()  # the rules of the seat-mode hand in play
        self.outbox: list[dict] = []
        self.closed = False
        # seat mode
        self.bot = None
        self.table = {"bunch": 0, "active": 1}
        self.version = 0
        self.pending: _Pending | None = None
        self.awaiting: str | None = None  # what the bot waits for after a call: draw / verdict
        # host mode
        self.hand: Hand | None = None
        self.hand_started = 0.0
        self.announced = False
        self.spellevate = None  # a Spellevate seat or hosted game (solver.protocol.spellevate)

    # -- the sans-IO surface ------------------------------------------------------------
    def receive(self, line: str | bytes, now: float) -> list[dict]:
        """Handle one incoming line; return what to send (replies, then anything due)."""
        try:
            if _size_in_bytes(line, self.max_message_bytes) > self.max_message_bytes:
                raise ProtocolError("too_large", f"the message is longer than {self.max_message_bytes} bytes")
            try:
                message = json.loads(line)
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise ProtocolError("bad_json", ERROR_CODES["bad_json"]) from None
            if not isinstance(message, dict):
                raise ProtocolError("bad_json", ERROR_CODES["bad_json"])
            kind = message.get("type")
            handler = HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ProtocolError("unknown_type", f"unknown message type {kind!r}")
            replies = handler(self, message, now) or []
            for reply in replies:
                if "id" in message and isinstance(message["id"], (str, int)):
                    reply.setdefault("id", message["id"])
            self.outbox.extend(replies)
        except ProtocolError as error:
            self.outbox.append(self._error(error, line))
        except (TileError, GridError, LexiconError, RuleError, ValueError) as error:
            self.outbox.append(self._error(ProtocolError("bad_value", str(error)), line))
        except Exception as error:  # a bug of ours must not end the session: report it
            self.outbox.append(self._error(ProtocolError("internal", f"{type(error).__name__}: {error}"), line))
        finally:
            self.outbox.extend(self.later)  # the bot's own messages come after the reply
            self.later.clear()
        return self.tick(now)

    def tick(self, now: float) -> list[dict]:
        """Messages due at wall time `now` (bot calls, hosted-game events)."""
        if self.pending is not None and now >= self.pending.due:
            self._emit_call(self.pending)
        if self.hand is not None and self.hand.result is None:
            self.hand.advance(self._hand_clock(now) + CLOCK_TOLERANCE)
            self._after_hand_step()
        out = list(self.outbox)
        self.outbox.clear()  # in place: remote players hold a reference to it
        return out

    def next_wakeup(self) -> float | None:
        """Wall time of the next `tick` that has work (None: only input can wake us)."""
        times = []
        if self.pending is not None:
            times.append(self.pending.due)
        if self.hand is not None and self.hand.result is None and self.hand.queue:
            clock = self.hand.queue[0][0]
            times.append(
                self.hand_started + clock / self.options.time_scale if self.options.clock == "realtime" else 0.0
            )
        return min(times) if times else None

    @staticmethod
    def _error(error: ProtocolError, line) -> dict:
        reply = {"type": "error", "code": error.code, "message": error.message}
        try:
            message = json.loads(line)
            if isinstance(message, dict) and isinstance(message.get("id"), (str, int)):
                reply["id"] = message["id"]
        except (ValueError, UnicodeDecodeError, RecursionError, TypeError):
            pass
        return reply

    # -- messages usable any time ---------------------------------------------------------
    def on_hello(self, message: dict, now: float) -> list[dict]:
        from solver.play.bots import PRESETS

        return [
            {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "engine": "bananas",
                "version": __version__,
                "lexicons": list(SHIPPED),
                "variants": list(VARIANTS),
                "min_lengths": [2, 3],
                "bots": list(PRESETS) + ["greedy"],
                "modes": ["seat", "host"],
                "clocks": list(CLOCKS),
                "match_formats": list(MATCH_FORMATS),
                "max_message_bytes": self.max_message_bytes,
            }
        ]

    def on_options(self, message: dict, now: float) -> list[dict]:
        if self.bot is not None and self.awaiting != "end" or self.hand is not None and self.hand.result is None:
            raise ProtocolError("out_of_order", "options cannot change during a hand")
        updated = Options(**self.options.to_json())
        for name, kind in (
            ("lexicon", str),
            ("distribution", str),
            ("bot", str),
            ("variant", str),
            ("clock", str),
            ("min_length", int),
            ("seed", int),
            ("time_scale", (int, float)),
        ):
            if name in message:
                setattr(updated, name, _need(message, name, kind))
        if not self.allow_paths:
            if updated.lexicon not in SHIPPED:
                raise ProtocolError("bad_value", f"lexicon must be one of {', '.join(SHIPPED)}")
            if (
                updated.distribution
                and updated.distribution not in DISTRIBUTIONS
                and not INLINE_DISTRIBUTION.fullmatch(updated.distribution)
            ):
                raise ProtocolError("bad_value", "distribution must be en, fr or inline ('A13,B3,...')")
        if updated.seed < 0:
            raise ProtocolError("bad_value", "seed must be a non-negative integer")
        if updated.distribution and len(load_distribution(updated.distribution)) > MAX_TILES:
            raise ProtocolError("bad_value", f"a distribution holds at most {MAX_TILES} tiles")
        if updated.clock not in CLOCKS:
            raise ProtocolError("bad_value", f"clock must be one of {', '.join(CLOCKS)}")
        if not (
            isinstance(updated.time_scale, (int, float))
            and 0 < updated.time_scale <= 1e6
            and math.isfinite(updated.time_scale)
        ):
            raise ProtocolError("bad_value", "time_scale must be a positive number")
        updated.rules()  # validates variant, min length and distribution
        get_lexicon(updated.lexicon)  # a missing word list is an error now, not mid-game
        _make_bot(updated.bot)
        self.options = updated
        return [{"type": "options", "options": updated.to_json()}]

    def on_check(self, message: dict, now: float) -> list[dict]:
        """Spellcheck, usable without any game."""
        grid = _grid(_need(message, "grid", (list, str)))
        tiles = _tiles(message["tiles"]) if "tiles" in message else None
        name = message["lexicon"] if isinstance(message.get("lexicon"), str) else self.options.lexicon
        if not self.allow_paths and name not in SHIPPED:
            raise ProtocolError("bad_value", f"lexicon must be one of {', '.join(SHIPPED)}")
        lexicon = get_lexicon(name)
        min_length = message.get("min_length", self.options.min_length)
        if min_length not in (2, 3):
            raise ProtocolError("bad_value", "min_length must be 2 or 3")
        report = validate(grid, lexicon, tiles, min_length)
        return [{"type": "check", **report.to_json()}]

    def on_quit(self, message: dict, now: float) -> list[dict]:
        self.closed = True
        return [{"type": "bye"}]

    # -- seat mode: the front-end referees -------------------------------------------------
    def on_new_hand(self, message: dict, now: float) -> list[dict]:
        if self.hand is not None and self.hand.result is None:
            raise ProtocolError("out_of_order", "a hosted game is running")
        tiles = _tiles(_need(message, "tiles"))
        if len(tiles) == 0:
            raise ProtocolError("bad_value", "a hand needs tiles")
        self._update_table(message)
        rules = self.options.rules()
        bot = _make_bot(self.options.bot)
        bot.start(tiles, rules, self.options.seed)  # may fail: keep the old state then
        self.bot, self.rules = bot, rules
        self.version, self.pending, self.awaiting = 0, None, None
        self._think(now)
        return [{"type": "ready", "tiles": tiles.letters()}]

    def on_draw(self, message: dict, now: float) -> list[dict]:
        self._need_seat()
        if self.awaiting == "end":
            raise ProtocolError("out_of_order", "the hand is over: send new_hand")
        tiles = _tiles(_need(message, "tiles"))
        if len(tiles) + len(self.bot.holding()) > MAX_TILES:
            raise ProtocolError("bad_value", f"a hand holds at most {MAX_TILES} tiles")
        self._update_table(message)
        self.bot.receive(tiles)
        self.version += 1
        self.awaiting = None
        self._think(now)
        return [{"type": "ok", "hand": _hand_of(self.bot).letters()}]

    def on_table(self, message: dict, now: float) -> list[dict]:
        self._need_seat()
        self._update_table(message)
        if self.pending is None and self.awaiting is None:
            self._think(now)
        return [{"type": "ok"}]

    def on_notice(self, message: dict, now: float) -> list[dict]:
        """Another player's PEEL / BANANAS / ROTTEN, or our own inspection's verdict."""
        self._need_seat()
        event = _need(message, "event")
        if event not in ("peel", "dump", "bananas", "rotten", "win", "end", "valid"):
            raise ProtocolError("bad_value", f"unknown notice event {event!r}")
        self._update_table(message)
        if event in ("end", "win") or event == "rotten" and message.get("player") == "you":
            self.pending, self.awaiting = None, "end"
        elif self.pending is None and self.awaiting is None:
            self._think(now)
        return [{"type": "ok"}]

    def on_grid(self, message: dict, now: float) -> list[dict]:
        if "player" in message:
            seat = self._hosted_seat(message)
            grid = seat.bot.current_grid()
            return [{"type": "grid", "player": message["player"], "grid": grid.to_json() if grid else None}]
        self._need_seat()
        grid = self.bot.current_grid()
        return [{"type": "grid", "grid": grid.to_json() if grid else None, "hand": _hand_of(self.bot).letters()}]

    def _need_seat(self) -> None:
        if self.bot is None:
            raise ProtocolError("out_of_order", "no hand yet: send new_hand first")

    def _update_table(self, message: dict) -> None:
        updates = {}
        for name in ("bunch", "active"):
            if name in message:
                value = _need(message, name, int)
                if value < (1 if name == "active" else 0) or value > 10_000:
                    raise ProtocolError("bad_value", f"'{name}' is out of range")
                updates[name] = value
        self.table.update(updates)  # all checked first: a bad message changes nothing

    def _think(self, now: float) -> None:
        """The bot works on its grid; its call lands when the work is done."""
        if self.awaiting == "end":
            return
        view = TableView(self.table["bunch"], self.table["active"], self.rules)
        before = self.bot.current_grid()
        decision = self.bot.decide(view)
        if decision.action == "wait":
            self.pending = None
            self.later.append({"type": "stuck", "hand": _hand_of(self.bot).letters()})
            return
        delay = 0.0
        if self.options.clock == "realtime":
            # The engine's referee measure of the tile work, as in a hosted game.
            shown = decision.grid if decision.grid is not None else self.bot.current_grid()
            delay = work_seconds(decision, self.bot.speed, measure_work(before, shown)) / self.options.time_scale
        self.pending = _Pending(now + delay, decision, self.version)

    def _emit_call(self, pending: _Pending) -> None:
        self.pending = None
        if pending.version != self.version:
            return
        decision = pending.decision
        call = {"type": "call", "call": decision.action}
        if decision.action == "dump":
            self.bot.give_back(decision.tile)
            call["tile"] = decision.tile
        if decision.action == "bananas":
            call["grid"] = decision.grid.to_json() if decision.grid else None
        self.awaiting = "verdict" if decision.action == "bananas" else "draw"
        self.outbox.append(call)

    # -- host mode: the engine referees ---------------------------------------------------
    def on_start_game(self, message: dict, now: float) -> list[dict]:
        if self.hand is not None and self.hand.result is None:
            raise ProtocolError("out_of_order", "a game is already running")
        players = _need(message, "players", list)
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ProtocolError("bad_value", f"a game has 1 to {MAX_PLAYERS} players")
        seats = []
        for index, spec in enumerate(players):
            if isinstance(spec, dict) and isinstance(spec.get("bot"), str):
                seats.append(_make_bot(spec["bot"]))
            elif isinstance(spec, dict) and isinstance(spec.get("remote"), str):
                seats.append(RemotePlayer(spec["remote"], index, self.outbox))
            else:
                raise ProtocolError("bad_value", 'each player is {"bot": PRESET} or {"remote": NAME}')
        seed = message.get("seed", self.options.seed)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ProtocolError("bad_value", "seed must be an integer")
        hand = Hand(self.options.rules(), seats, seed, observer=self._public_event)
        game = {"type": "game", "players": [getattr(s, "name", "bot") for s in seats], "seed": seed}
        if isinstance(message.get("id"), (str, int)):
            game["id"] = message["id"]
        self.outbox.append(game)
        mark = len(self.outbox)
        try:
            hand.start()
        except (ValueError, AssertionError, OSError) as error:
            del self.outbox[mark:]  # nothing of a game that could not start
            raise ProtocolError("bad_value", f"the game could not start: {error}") from None
        self.hand, self.hand_started, self.announced = hand, now, False
        return []

    def on_call(self, message: dict, now: float) -> list[dict]:
        seat = self._hosted_seat(message)
        if not isinstance(seat.bot, RemotePlayer):
            raise ProtocolError("bad_value", "that seat is a bot")
        if self.hand.result is not None:
            raise ProtocolError("out_of_order", "the game is over")
        if not seat.active:
            raise ProtocolError("out_of_order", "that player is out of this hand")
        call = _need(message, "call")
        if call not in ("peel", "dump", "bananas", "stuck"):
            raise ProtocolError("bad_value", "call is peel, dump, bananas or stuck")
        decision = Decision("wait" if call == "stuck" else call)
        # Every field is checked before anything changes.
        tile = _tiles(_need(message, "tile"), "tile") if call == "dump" else None
        grid = _grid(_need(message, "grid", (list, str))) if "grid" in message or call == "bananas" else None
        if grid is not None and call != "bananas" and not seat.held.contains(grid.tiles()):
            raise ProtocolError("not_your_tile", "the grid holds tiles that player does not have")
        if tile is not None:
            shown_tiles = (grid or seat.bot.grid).tiles() if (grid or seat.bot.grid) else TileCounts()
            if len(tile) != 1 or not seat.held.contains(shown_tiles) or not (seat.held - shown_tiles).contains(tile):
                raise ProtocolError("not_your_tile", "dump one tile from that player's hand")
            decision.tile = tile.letters()
        shown = seat.bot.grid
        if grid is not None:
            # The grid the player has built so far: PEEL and DUMP need to know what is in hand.
            seat.bot.grid = decision.grid = grid
        refused_before, events_before = seat.refused, len(self.hand.events)
        self.hand.external_call(message["player"], decision, self._hand_clock(now))
        self._after_hand_step()
        if call != "stuck" and seat.refused > refused_before and len(self.hand.events) == events_before:
            seat.bot.grid = shown  # a refused call changes nothing
            raise ProtocolError("out_of_order", f"the rules do not allow {call.upper()} now")
        return [{"type": "ok"}]

    def _hosted_seat(self, message: dict):
        if self.hand is None:
            raise ProtocolError("out_of_order", "no hosted game: send start_game first")
        player = _need(message, "player", int)
        if not 0 <= player < len(self.hand.seats):
            raise ProtocolError("bad_value", "no such player")
        return self.hand.seats[player]

    def _hand_clock(self, now: float) -> float:
        if self.options.clock == "instant":
            return (
                math.inf
                if not any(isinstance(s.bot, RemotePlayer) for s in self.hand.seats)
                else (self.hand.queue[0][0] if self.hand.queue else self.hand.clock)
            )
        return (now - self.hand_started) * self.options.time_scale

    def _public_event(self, event: dict) -> None:
        self.outbox.append({"type": "event", **public_view(event)})

    def _after_hand_step(self) -> None:
        hand = self.hand
        if (
            hand.result is None
            and not hand.queue
            and not any(isinstance(s.bot, RemotePlayer) and s.active and not s.waiting for s in hand.seats)
        ):
            hand.result = hand.stalemate()
        if hand.result is not None and not self.announced:
            self.announced = True
            result = hand.result
            self.outbox.append(
                {
                    "type": "game_over",
                    "outcome": result.outcome,
                    "winners": result.winners,
                    "reason": result.reason,
                    "grids": result.grids,
                }
            )


def public_view(event: dict) -> dict:
    """An engine log entry as every player may see it: tiles in hands stay private (each
    remote player gets its own through `tiles` messages); grids shown at BANANAS are public."""
    event = dict(event)
    if event["event"] == "split":
        event["hands"] = [len(hand) for hand in event["hands"]]
    elif event["event"] == "peel":
        event["drawn"] = sorted(int(player) for player in event["drawn"])
    elif event["event"] == "dump":
        event.pop("returned", None)
        event["drawn"] = len(event["drawn"])
    elif event["event"] == "stuck":
        event["hand"] = len(event["hand"])
    return event


def _hand_of(bot) -> TileCounts:
    return bot.holding() - grid_tiles(bot)


def _make_bot(spec: str):
    from solver.play.bots import make_bot

    try:
        return make_bot(spec)
    except ValueError as error:
        raise ProtocolError("bad_value", str(error)) from None


HANDLERS = {
    "hello": Session.on_hello,
    "options": Session.on_options,
    "check": Session.on_check,
    "quit": Session.on_quit,
    "new_hand": Session.on_new_hand,
    "draw": Session.on_draw,
    "table": Session.on_table,
    "notice": Session.on_notice,
    "grid": Session.on_grid,
    "start_game": Session.on_start_game,
    "call": Session.on_call,
}


# -- Spellevate: a game of its own, in its own module --------------------------------------
SPELLEVATE_TYPES = ("spellevate_info", "spellevate_seat", "spellevate_start", "spellevate_move", "spellevate_hand")


def _spellevate(session: Session, message: dict, now: float) -> list[dict]:
    from solver.protocol.spellevate import handle  # imported on first use: it imports this module

    return handle(session, message, now)


HANDLERS.update(dict.fromkeys(SPELLEVATE_TYPES, _spellevate))
