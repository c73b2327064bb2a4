"""Seat mode: the front-end is the referee and the engine plays one bot seat.

The referee deals the bot its tiles (new_hand), tells it what it drew (draw) and how the
table stands (table, notice); the bot answers with calls (peel, dump, bananas) or stuck.

Which state a call was made on: the bot counts the `draw` and `table` messages it has
processed since new_hand (`seen`), and every call and stuck carries that count. The
referee honours a call only if `seen` equals the number of such messages it has sent this
seat; otherwise the call is stale and it drops it, answering notice refused (the bot
decides again on what it now knows). A dropped or refused DUMP gives its tile back to the
bot's hand. docs/PROTOCOL.md states the rule for referees.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from solver.core.limits import MAX_GAME_TILES, MAX_REMEMBERED_CALLS, MAX_TABLE_COUNT, MAX_WAIT_SECONDS
from solver.core.tiles import TileCounts
from solver.play.cost import measure_work, work_seconds
from solver.play.rules import Decision, TableView, grid_tiles
from solver.protocol import fields
from solver.protocol.fields import ProtocolError

NOTICE_EVENTS = ("peel", "dump", "bananas", "rotten", "valid", "win", "end", "refused")
CALLS = ("peel", "dump", "bananas")


@dataclass
class PendingCall:
    due: float  # wall time when the bot's work is done (realtime clock)
    decision: Decision
    seen: int


@dataclass
class MadeCall:
    seen: int
    action: str
    tile: str | None


class SeatMode:
    def __init__(self, session):
        self.session = session
        self.bot = None
        self.rules = None
        self.table = {"bunch": 0, "active": 1}
        self.seen = 0  # draw and table messages processed since new_hand
        self.pending: PendingCall | None = None  # the call the bot is working towards
        self.answer_due = False  # a call was made: the bot waits for the referee's answer
        self.holding = False  # the bot would PEEL or BANANAS, but a DUMP of its is unanswered
        self.over = False  # the hand ended (win, end, our rotten banana)
        self.dumps_in_flight: list[str] = []  # tiles of DUMP calls the referee has not answered
        self.made: deque[MadeCall] = deque(maxlen=MAX_REMEMBERED_CALLS)
        self.refused: set[str] = set()  # calls refused on the current state: not made again

    @property
    def in_hand(self) -> bool:
        return self.bot is not None and not self.over

    # -- messages ----------------------------------------------------------------------------
    def on_new_hand(self, message: dict, now: float) -> list[dict]:
        if self.session.host.in_game:
            raise ProtocolError("out_of_order", "a hosted game is running")
        tiles = fields.tiles(fields.need(message, "tiles"))
        if len(tiles) == 0:
            raise ProtocolError("bad_value", "a hand needs tiles")
        table = self.read_table(message)
        rules = self.session.options.rules()
        bot = self.session.make_bot(self.session.options.bot)
        bot.start(tiles, rules, self.session.options.seed)  # may fail: keep the old state then
        self.bot, self.rules, self.table = bot, rules, {**self.table, **table}
        self.seen, self.pending, self.answer_due, self.holding, self.over = 0, None, False, False, False
        self.dumps_in_flight, self.refused = [], set()
        self.made.clear()
        self.think(now)
        return [{"type": "ready", "tiles": tiles.letters()}]

    def on_draw(self, message: dict, now: float) -> list[dict]:
        self.need_hand()
        tiles = fields.tiles(fields.need(message, "tiles"))
        reason = fields.optional(message, "reason")
        if reason not in (None, "peel", "dump"):
            raise ProtocolError("bad_value", "a draw's reason is peel or dump")
        if len(tiles) + len(self.bot.holding()) + len(self.dumps_in_flight) > MAX_GAME_TILES:
            raise ProtocolError("bad_value", f"a hand holds at most {MAX_GAME_TILES} tiles")
        self.table.update(self.read_table(message))
        if self.dumps_in_flight and reason != "peel":
            self.dumps_in_flight.pop(0)  # the three tiles of our DUMP (a draw without reason: the oldest)
        self.bot.receive(tiles)
        self.new_state(now)
        return [{"type": "ok", "hand": self.hand().letters()}]

    def on_table(self, message: dict, now: float) -> list[dict]:
        self.need_seat()
        self.table.update(self.read_table(message))
        if not self.over:
            self.new_state(now)
        return [{"type": "ok"}]

    def on_notice(self, message: dict, now: float) -> list[dict]:
        """Another player's PEEL / BANANAS / ROTTEN, the verdict on our call, or a refusal."""
        self.need_seat()
        event = fields.need(message, "event")
        if event not in NOTICE_EVENTS:
            raise ProtocolError("bad_value", f"unknown notice event {str(event)[:20]!r}")
        player = message.get("player")
        if "player" in message and player != "you" and not (isinstance(player, int) and not isinstance(player, bool)):
            raise ProtocolError("bad_value", "'player' is a player number or \"you\"")
        if isinstance(player, int) and not 0 <= player <= MAX_TABLE_COUNT:
            raise ProtocolError("bad_value", "'player' is out of range")
        table = self.read_table(message)
        refused = self.refused_call(message) if event == "refused" else None
        self.table.update(table)
        if event in ("end", "win") or event == "rotten" and player == "you":
            self.pending, self.answer_due, self.over = None, False, True
        elif refused is not None:
            self.take_refusal(refused, now)
        elif self.pending is None and not self.answer_due and not self.holding:
            self.think(now)
        return [{"type": "ok"}]

    def on_grid(self, message: dict, now: float) -> list[dict]:
        self.need_seat()
        grid = self.bot.current_grid()
        return [{"type": "grid", "grid": grid.to_json() if grid else None, "hand": self.hand().letters()}]

    # -- state -------------------------------------------------------------------------------
    def need_seat(self) -> None:
        if self.bot is None:
            raise ProtocolError("out_of_order", "no hand yet: send new_hand first")

    def need_hand(self) -> None:
        self.need_seat()
        if self.over:
            raise ProtocolError("out_of_order", "the hand is over: send new_hand")

    @staticmethod
    def read_table(message: dict) -> dict:
        """The 'bunch' and 'active' fields, all checked before anything changes."""
        updates = {}
        for name, low in (("bunch", 0), ("active", 1)):
            value = fields.integer(message, name, low, MAX_TABLE_COUNT)
            if value is not None:
                updates[name] = value
        return updates

    def hand(self) -> TileCounts:
        return self.bot.holding() - grid_tiles(self.bot)

    def new_state(self, now: float) -> None:
        """A draw or a table message: any call made before is stale for the referee."""
        self.seen += 1
        self.refused.clear()
        self.answer_due = False
        self.think(now)

    def refused_call(self, message: dict) -> MadeCall:
        """The call a notice refused names: the latest the bot made that matches its fields."""
        action = fields.optional(message, "call")
        if action is not None and action not in CALLS:
            raise ProtocolError("bad_value", "the refused call is peel, dump or bananas")
        tile = fields.optional(message, "tile")
        seen = fields.integer(message, "seen", 0, 2**31)
        for made in reversed(self.made):
            if (action or made.action) == made.action and (seen is None or seen == made.seen):
                if tile is None or (made.tile or "").upper() == tile.upper():
                    return made
        raise ProtocolError("out_of_order", "the bot made no such call")

    def take_refusal(self, made: MadeCall, now: float) -> None:
        self.made.remove(made)
        if made.action == "dump" and made.tile in self.dumps_in_flight:
            self.dumps_in_flight.remove(made.tile)
            self.bot.receive(TileCounts.from_letters(made.tile))  # the tile comes back to the hand
        if made.seen == self.seen:
            self.refused.add(made.action)
        if made.seen == self.seen or self.holding and not self.dumps_in_flight:
            self.answer_due = False
            self.think(now)

    # -- the bot ------------------------------------------------------------------------------
    def think(self, now: float) -> None:
        """The bot works on its grid; its call lands when the work is done."""
        if self.over:
            return
        self.pending, self.holding = None, False
        view = TableView(self.table["bunch"], self.table["active"], self.rules)
        before = self.bot.current_grid()
        decision = self.bot.decide(view)
        if decision.action in ("peel", "bananas") and self.dumps_in_flight:
            self.holding = True  # its hand is not known to be empty until the DUMP is answered
            return
        if decision.action in self.refused:
            decision.action = "wait"  # refused on this very state: wait for the table to change
        if decision.action == "wait":
            self.session.later.append({"type": "stuck", "hand": self.hand().letters(), "seen": self.seen})
            return
        delay = 0.0
        if self.session.options.clock == "realtime":
            # The engine's referee measure of the tile work, as in a hosted game.
            shown = decision.grid if decision.grid is not None else self.bot.current_grid()
            work = work_seconds(decision, self.bot.speed, measure_work(before, shown))
            delay = min(work / self.session.options.time_scale, MAX_WAIT_SECONDS)
        self.pending = PendingCall(now + delay, decision, self.seen)

    def next_wakeup(self) -> float | None:
        return self.pending.due if self.pending is not None else None

    def tick(self, now: float) -> None:
        if self.pending is not None and now >= self.pending.due:
            self.emit_call(self.pending)

    def emit_call(self, pending: PendingCall) -> None:
        self.pending = None
        if pending.seen != self.seen:
            return
        decision = pending.decision
        call = {"type": "call", "call": decision.action, "seen": self.seen}
        if decision.action == "dump" and decision.tile:
            self.bot.give_back(decision.tile)
            self.dumps_in_flight.append(decision.tile)
            call["tile"] = decision.tile
        if decision.action == "bananas":
            call["grid"] = decision.grid.to_json() if decision.grid else None
        self.made.append(MadeCall(self.seen, decision.action, decision.tile))
        self.answer_due = True
        self.session.outbox.append(call)
