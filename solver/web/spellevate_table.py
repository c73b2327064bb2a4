"""Spellevate at a room's table: the server referees a round with the engine.

The lobby (seats, host, bots, reconnect tokens) is the room's (`solver.web.rooms`); this
module is the round, behind the room's table interface (`solver.web.table`). It runs
`solver.play.spellevate.SpellevateRound`, the referee of `bananas spellevate`: the deal, the lead,
each seat's turn, the table clearing and the scores are the engine's, and a person's play is
checked by the engine's own `move_error` (its reason is the page's `error` message, and
nothing changes). Bots (`simple`, `planner`) play on the server, one move per
`spellevate_delay` seconds so a person can follow the table.

Pages see the public state (whose turn, the table and who played it, every hand's size, the
log) and only their own hand; at the end, scores and counts of the tiles left, never letters.
A person who leaves mid-round hands their seat to a `simple` bot, so the round can end.
"""

from __future__ import annotations

import asyncio
import time

import numpy as np

from solver.core.limits import MAX_SHOWN_PLAYS, MAX_SPELLEVATE_PLAY_LETTERS
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.play.spellevate import (
    Play,
    SpellevateBot,
    SpellevateError,
    SpellevateRound,
    check_table,
    deal,
    first_leader,
    parse_play,
    scores,
)
from solver.play.spellevate_bots import beating_plays, make_spellevate_bot, word_index
from solver.web.table import RoomError, Seat, TableHandle, TableSetup, log, quote

STAND_IN = "simple"  # the bot that finishes the round for a person who left


def check_players(players: int, tiles: TileCounts) -> None:
    try:
        check_table(players, tiles)
    except SpellevateError as error:
        raise RoomError("bad_start", str(error)) from None


class SpellevateTable:
    """One round at a room's table: the engine's `SpellevateRound`, the bots at its seats, and what
    pages see."""

    messages = frozenset({"play", "pass"})
    durable = False  # a round is not saved: its room comes back to the lobby

    def __init__(self, setup: TableSetup, handle: TableHandle):
        self.handle = handle
        self.seats: list[Seat] = list(setup.seats)
        tiles = setup.distribution
        check_players(len(self.seats), tiles)
        self.delay = setup.bot_delay
        # The last round's winner leads the next
        leader = self.seats.index(setup.last_winner) if setup.last_winner in self.seats else None
        self.lexicon = get_lexicon(setup.language)
        self.index = word_index(self.lexicon)  # built once per process: the legal plays shown to persons
        self.min_length = setup.variant.min_length
        rng = np.random.default_rng(setup.seed)
        draws: list[list[str]] = []
        try:
            if leader is None:  # the room's first round: each player draws a tile, the latest letter leads
                leader, draws = first_leader(len(self.seats), tiles, rng)
            hands = deal(len(self.seats), tiles, rng, first=leader)
            self.round = SpellevateRound(hands, leader, self.lexicon, self.min_length)
        except SpellevateError as error:  # a tile set the rules cannot play (--distribution)
            raise RoomError("bad_start", str(error)) from None
        self.bots: dict[int, SpellevateBot] = {}
        for index, seat in enumerate(self.seats):
            if seat.kind == "bot":
                assert seat.spec is not None  # a bot seat always names its preset
                self.bots[index] = make_spellevate_bot(seat.spec, self.lexicon, self.min_length)
        for index, bot in self.bots.items():
            bot.begin(self.round.view(index))
        self.started = time.monotonic()
        self.log: list[dict] = []
        self.final: dict | None = None
        self.lock = asyncio.Lock()
        self.poke = asyncio.Event()
        self.sent_held: dict[int, tuple] = {}  # connection id -> the private message last sent
        draw = " ".join("/".join(letters) for letters in draws)  # empty when the last winner leads
        self.opening = [{"t": 0.0, "kind": "sp_lead", "who": self.seats[leader].name, "letters": draw}]

    def index_of(self, seat: Seat) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is seat), None)

    def seated(self, seat: Seat) -> bool:
        return self.index_of(seat) is not None

    def progress(self) -> dict:
        """Nothing: a Spellevate round is not saved (`durable` is False)."""
        return {}

    def hand_log(self) -> str | None:
        return None  # no review or replay for Spellevate (yet): the room says so

    def clock(self) -> float:
        return round(time.monotonic() - self.started, 1)

    def name(self, index: int) -> str:
        return self.seats[index].name

    @property
    def over(self) -> bool:
        return self.round.state.over

    # -- what pages see ----------------------------------------------------------------------
    def table(self) -> dict:
        state = self.round.state
        return {
            "type": "spellevate",
            "players": [
                {
                    "seat": index,
                    "name": seat.name,
                    "kind": "bot" if index in self.bots else "person",
                    "tiles": state.sizes[index],
                    "connected": seat.connected,
                }
                for index, seat in enumerate(self.seats)
            ],
            "turn": state.turn,
            "table": state.table.letters if state.table is not None else None,
            "table_by": state.last_player if state.table is not None else None,
            "min_length": self.min_length,
            "over": state.over,
        }

    def private(self, index: int) -> dict:
        """A person's own hand, and when it is their turn the plays they may make."""
        state = self.round.state
        hand = self.round.hands[index]
        your_turn = not state.over and state.turn == index and index not in self.bots
        plays: list[str] = []
        if your_turn:
            if state.table is None:
                words = self.index.formable(hand, self.min_length).all_words()
                plays = words[:MAX_SHOWN_PLAYS] + sorted(set(hand.letters()))
            else:
                plays = beating_plays(self.index, hand, state.table, self.min_length)[:MAX_SHOWN_PLAYS]
        return {"type": "hand", "letters": hand.letters(), "your_turn": your_turn, "plays": plays}

    def log_entry(self, event: dict) -> dict | None:
        kind = event["event"]
        entry = {"t": self.clock(), "kind": f"sp_{kind}", "who": self.name(event["player"])}
        if kind == "play":
            entry.update(letters=event["letters"], left=event["left"])
        return entry

    def end_message(self) -> dict:
        state = self.round.state
        assert state.winner is not None  # called once the round is over
        result = scores(state.sizes, state.winner)
        return {
            "type": "spellevate_end",
            "winner": self.name(state.winner),
            "scores": [
                {"seat": index, "name": seat.name, "score": result[index], "tiles": state.sizes[index]}
                for index, seat in enumerate(self.seats)
            ],
        }

    def publish(self, entries: list[dict]) -> None:
        """The log's new entries, the public state, and each person their own hand if it changed."""
        handle = self.handle
        self.log.extend(entries)
        if entries:
            handle.broadcast({"type": "log", "entries": entries})
        handle.broadcast(self.table())
        for connection, seat in handle.pages():
            index = self.index_of(seat)
            if index is not None and index not in self.bots:
                private = self.private(index)
                key = (private["letters"], private["your_turn"], tuple(private["plays"]))
                if self.sent_held.get(id(connection)) != key:
                    self.sent_held[id(connection)] = key
                    connection.send(private)
        winner = self.round.state.winner
        if winner is not None and self.final is None:
            self.final = self.end_message()
            handle.broadcast(self.final)
            handle.ended(self.seats[winner])  # the winner leads the next round
        self.poke.set()

    # -- the table interface -------------------------------------------------------------------
    async def start(self) -> None:
        async with self.lock:
            self.publish(self.opening)
        self.handle.spawn(self.drive(self.delay))

    async def on_message(self, connection, seat: Seat, message: dict) -> None:
        await self.person_move(seat, message, passing=message["type"] == "pass")

    def disconnected(self, connection) -> None:
        self.sent_held.pop(id(connection), None)
        self.handle.broadcast(self.table())

    def restore(self, connection, seat: Seat) -> None:
        """A page (re)joining mid-round or after it: the log, the table, its hand, the end."""
        connection.send({"type": "log", "entries": self.log, "reset": True})
        self.handle.broadcast(self.table())  # everyone sees the seat connected again
        index = self.index_of(seat)
        if index is not None and index not in self.bots:
            private = self.private(index)
            self.sent_held[id(connection)] = (private["letters"], private["your_turn"], tuple(private["plays"]))
            connection.send(private)
        if self.final is not None:
            connection.send(self.final)

    # -- moves ---------------------------------------------------------------------------------
    async def person_move(self, seat: Seat, message: dict, passing: bool) -> None:
        """A person's play (`letters`: a word or one letter from their hand) or pass."""
        index = self.index_of(seat)
        if index is None or index in self.bots:
            raise RoomError("out_of_order", "you are not playing in this round")
        play: Play | None = None
        if not passing:
            letters = message.get("letters")
            if not isinstance(letters, str) or len(letters) > MAX_SPELLEVATE_PLAY_LETTERS:
                raise RoomError(
                    "bad_play",
                    f"a play is a string of at most {MAX_SPELLEVATE_PLAY_LETTERS} letters, not {quote(letters)}",
                )
            try:
                play = parse_play(letters)
            except SpellevateError:
                reason = f"{quote(letters)} is not a play: type letters A-Z (a word or one letter)"
                raise RoomError("bad_play", reason) from None
        async with self.lock:
            state = self.round.state
            if state.over:
                raise RoomError("out_of_order", "the round is over")
            if state.turn != index:
                raise RoomError("not_your_turn", f"it is {self.name(state.turn)}'s turn")
            error = self.round.move_error(index, play)
            if error is not None:  # the engine's reason, its code for the page to translate
                raise RoomError(
                    "bad_play", error.replace("the hand", "your hand"), {"reason": error.code, **error.params}
                )
            events = self.round.move(index, play)
            self.publish([entry for event in events if (entry := self.log_entry(event)) is not None])

    async def leave(self, seat: Seat) -> None:
        """A person left mid-round: a `simple` bot plays their hand to the end."""
        index = self.index_of(seat)
        assert index is not None  # the room asks only for a seat dealt in
        async with self.lock:
            if self.over or index in self.bots:
                return
            bot = make_spellevate_bot(STAND_IN, self.lexicon, self.min_length)
            bot.begin(self.round.view(index))
            self.bots[index] = bot
            self.publish([{"t": self.clock(), "kind": "sp_left", "who": self.name(index)}])

    async def drive(self, delay: float) -> None:
        """The bots' moves: whenever it is a bot's turn, it plays after `delay` seconds."""
        try:
            await self.bot_moves(delay)
        except Exception:  # a bot's bug must be seen, not end the task silently
            log.exception("Spellevate room %s", self.handle.room_id)
            failed = {"type": "error", "code": "internal", "message": "a bot failed: the round cannot go on"}
            self.handle.broadcast(failed)
            raise

    async def bot_moves(self, delay: float) -> None:
        while not self.over and not self.handle.closed:
            turn = self.round.state.turn
            if turn not in self.bots:
                self.poke.clear()
                await self.poke.wait()  # a person's move, or their leaving, pokes
                continue
            await asyncio.sleep(delay)
            async with self.lock:
                if self.over or self.round.state.turn != turn or turn not in self.bots:
                    continue
                bot = self.bots[turn]
                play = await asyncio.to_thread(bot.choose, self.round.view(turn))
                events = self.round.move(turn, play)  # a bot's illegal move is a bug: it surfaces
                self.publish([entry for event in events if (entry := self.log_entry(event)) is not None])
