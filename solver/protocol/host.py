"""Host mode: the engine referees a whole game (start_game).

It owns the bunch, seats N bots and M remote players, sends each remote player its tiles
(`tiles`) and everyone the public events (`event`), and takes the remote players' calls
(`call` with "player"). The hand itself is `solver.play.hand.Hand`, each remote player a
`solver.play.remote.RemoteSeat`; this module feeds the hand the remote calls and advances
it on the session's clock, a bounded slice of work per tick.

Which state a remote call was made on: a call may carry `seen`, the number of `tiles`
messages the player had received. A call made before the player's latest tiles arrived is
judged against what the player could have known: it is neither honoured nor held against
the player (no refusal counted, no ROTTEN BANANA); it is dropped with the error `stale`,
and the player calls again.
"""

from __future__ import annotations

import math
import time

from solver.core.limits import MAX_BANANAGRAMS_PLAYERS, MAX_NAME_CHARS, TICK_WORK_SECONDS
from solver.core.tiles import TileCounts
from solver.play.events import HandEvent, public_view
from solver.play.hand import Hand
from solver.play.remote import RemoteSeat, is_remote
from solver.play.rules import Decision
from solver.protocol import fields
from solver.protocol.fields import ProtocolError

CLOCK_TOLERANCE = 1e-6  # seconds: a tick at next_wakeup() must reach the event despite rounding
REMOTE_CALLS = ("peel", "dump", "bananas", "stuck")
NO_GAME = "no hosted game: send start_game first"
REFUSAL_CODES = {"not_your_tile": "not_your_tile"}  # the engine's refusals with a protocol code of their own


class HostMode:
    def __init__(self, session):
        self.session = session
        self.round: Hand | None = None
        self.players: list = []  # the hand's players, seat by seat: bots and RemoteSeats
        self.started = 0.0  # wall time of the start
        self.announced = False

    @property
    def in_game(self) -> bool:
        return self.round is not None and not self.round.over

    @property
    def game(self) -> Hand:
        if self.round is None:
            raise ProtocolError("out_of_order", NO_GAME)
        return self.round

    # -- messages ----------------------------------------------------------------------------
    def on_start_game(self, message: dict, now: float) -> list[dict]:
        session, began = self.session, time.perf_counter()
        if self.in_game:
            raise ProtocolError("out_of_order", "a game is already running")
        if session.seat.in_hand:
            raise ProtocolError("out_of_order", "a seat hand is being played: end it first (notice end)")
        players = fields.need(message, "players", list)
        if not 1 <= len(players) <= MAX_BANANAGRAMS_PLAYERS:
            raise ProtocolError("bad_value", f"a game has 1 to {MAX_BANANAGRAMS_PLAYERS} players")
        seed = fields.seed(message, default=session.options.seed)
        seats = [self.seat_for(spec, index) for index, spec in enumerate(players)]
        hand = Hand(session.options.rules(), seats, seed, observer=self.public_event)
        game = {"type": "game", "players": [getattr(s, "name", "bot") for s in seats], "seed": seed}
        if isinstance(message.get("id"), (str, int)):
            game["id"] = message["id"]
        session.outbox.append(game)
        mark = len(session.outbox)
        try:
            hand.start()
        except (ValueError, AssertionError, OSError) as error:
            del session.outbox[mark - 1 :]  # nothing of a game that could not start
            raise ProtocolError("bad_value", f"the game could not start: {error}") from None
        if any(hasattr(seat, "board") for seat in seats):  # a solver bot: load the kernels before the clock
            from solver.search.solving import warm_kernels

            warm_kernels(hand.lexicon)
        # The clock starts when the deal goes out: the bots' set-up (loading word lists) may
        # take a while, and the players must not find the game already under way.
        self.round, self.started, self.announced = hand, now + (time.perf_counter() - began), False
        self.players = seats
        return []

    def seat_for(self, spec, index: int):
        if isinstance(spec, dict) and isinstance(spec.get("bot"), str):
            return self.session.make_bot(spec["bot"])
        if isinstance(spec, dict) and isinstance(spec.get("remote"), str):
            name = spec["remote"]
            if not 1 <= len(name) <= MAX_NAME_CHARS or not name.isprintable():
                raise ProtocolError("bad_value", f"a player's name is 1 to {MAX_NAME_CHARS} printable characters")
            return RemoteSeat(name, on_tiles=self.tiles_message(index))
        raise ProtocolError("bad_value", 'each player is {"bot": PRESET} or {"remote": NAME}')

    def tiles_message(self, seat: int):
        """How a remote player at `seat` is sent its tiles: a `tiles` message."""

        def send(tiles: TileCounts, reason: str) -> None:
            self.session.outbox.append({"type": "tiles", "player": seat, "tiles": tiles.letters(), "reason": reason})

        return send

    def on_call(self, message: dict, now: float) -> list[dict]:
        remote = self.hosted_player(message)
        hand = self.game
        if not is_remote(remote):
            raise ProtocolError("bad_value", "that seat is a bot")
        call = fields.need(message, "call")
        if call not in REMOTE_CALLS:
            raise ProtocolError("bad_value", "call is peel, dump, bananas or stuck")
        # Every field is checked before anything changes.
        tile = fields.tiles(fields.need(message, "tile"), "tile") if call == "dump" else None
        shows_grid = "grid" in message or call == "bananas"
        grid = fields.grid(fields.need(message, "grid", (list, str))) if shows_grid else None
        seen = fields.optional(message, "seen", int)
        clock = self.hand_clock(now)
        if self.session.options.clock == "realtime":
            # What happened before the call arrived happens first (tiles sent meanwhile make it
            # stale). With the instant clock a message is the remote player's turn: it is judged
            # on what was sent before it, and lands at the next event's time.
            hand.advance(clock)
            self.announce_end()
        if seen is not None and not 0 <= seen <= remote.sent:
            raise ProtocolError("bad_value", f"'seen' must be between 0 and {remote.sent}")
        if seen is not None and seen < remote.sent:
            raise ProtocolError("stale", f"made after {seen} of the player's {remote.sent} tiles messages: call again")
        remote.answered = remote.sent  # its turn is taken, whether the rules allow the call or not
        # The grid the player has built so far (PEEL and DUMP need to know what is in hand):
        # its own once the call is allowed. The rules judge the tile (call_error).
        decision = Decision("wait" if call == "stuck" else call, grid=grid)
        if tile is not None:
            decision.tile = tile.letters()
        # Judged on the state the player saw (a refused call changes nothing, the clock
        # included), then again when it lands (`external_call`: the table may change meanwhile).
        refusal = hand.call_error(message["player"], decision)
        if refusal is None:
            refusal = hand.external_call(message["player"], decision, clock)
            self.announce_end()
        if refusal is not None:
            raise ProtocolError(REFUSAL_CODES.get(refusal.code, "out_of_order"), refusal.message, reason=refusal.code)
        return [{"type": "ok"}]

    def on_grid(self, message: dict, now: float) -> list[dict]:
        grid = self.hosted_player(message).current_grid()
        return [{"type": "grid", "player": message["player"], "grid": grid.to_json() if grid else None}]

    def on_hint(self, message: dict, now: float) -> list[dict]:
        """One move for a remote player (`solver.coach.hint`) on its own tiles: the grid it
        sends, else the one it last showed. It changes nothing in the game."""
        from solver.coach.hints import hint

        remote, hand = self.hosted_player(message), self.game
        if not is_remote(remote):
            raise ProtocolError("bad_value", "that seat is a bot")
        if message["player"] not in hand.active or hand.over:
            raise ProtocolError("out_of_order", "that player is not in a hand")
        rows = message.get("grid")
        grid = fields.grid(rows) if rows is not None else remote.current_grid()
        held = remote.holding()
        if grid is not None and not held.contains(grid.tiles()):
            raise ProtocolError("not_your_tile", "the grid holds tiles that player does not have")
        left = held - (grid.tiles() if grid is not None else TileCounts())
        found = hint(grid, left, hand.lexicon, min_length=hand.rules.min_length)
        return [{"type": "hint", "player": message["player"], "hint": found.to_json() if found is not None else None}]

    def hosted_player(self, message: dict):
        """The player at the message's seat: a bot or a `RemoteSeat`."""
        if self.round is None:
            raise ProtocolError("out_of_order", NO_GAME)
        player = fields.need(message, "player", int)
        if not 0 <= player < len(self.players):
            raise ProtocolError("bad_value", "no such player")
        return self.players[player]

    # -- the clock ---------------------------------------------------------------------------
    def hand_clock(self, now: float) -> float:
        """The game's clock at wall time `now`. Instant: as far as the queue goes, or, with
        remote players, one event at a time: a remote call lands at the next event's moment
        (`tick` does not run the clock past a `tiles` message a remote player has not
        answered: `remote_turn`)."""
        options, hand = self.session.options, self.game
        if options.clock == "instant":
            if not any(is_remote(player) for player in self.players):
                return math.inf
            due = hand.next_due()
            return due if due is not None else hand.clock
        return (now - self.started) * options.time_scale

    def remote_turn(self) -> bool:
        """Instant clock: a remote player still in the hand was sent tiles and has not called
        since (stuck counts). The game waits for it, however fast the bots are: the same seed
        and the same messages give the same game (the bots never finish it before a remote
        player's answer is read)."""
        if self.session.options.clock != "instant" or self.round is None:
            return False
        return any(is_remote(self.players[index]) and self.players[index].to_answer for index in self.round.active)

    def next_wakeup(self) -> float | None:
        due = self.round.next_due() if self.round is not None else None
        if due is None:
            return None
        if self.session.options.clock == "instant":
            return None if self.remote_turn() else 0.0
        return self.started + due / self.session.options.time_scale

    def tick(self, now: float) -> None:
        """Run the events due at `now`, for TICK_WORK_SECONDS at most (then next_wakeup is
        due at once, and other sessions' work gets its turn in between)."""
        if self.round is None or self.round.over:
            return
        # One event at a time: a remote player's turn stops the clock at once.
        self.round.advance(self.hand_clock(now) + CLOCK_TOLERANCE, stop=self.remote_turn, budget=TICK_WORK_SECONDS)
        self.announce_end()

    def public_event(self, event: HandEvent) -> None:
        self.session.outbox.append({"type": "event", **public_view(event)})

    def announce_end(self) -> None:
        """`game_over`, once, when the hand has ended (it decides that itself)."""
        hand = self.game
        ending = hand.public_view().ending
        if ending is not None and not self.announced:
            self.announced = True
            self.session.outbox.append(
                {
                    "type": "game_over",
                    "outcome": ending.outcome,
                    "winners": list(ending.winners),
                    "reason": ending.reason,
                    "grids": [list(grid) if grid is not None else None for grid in ending.grids],
                }
            )
