"""Spellevate at a room's table: the server referees a round with the engine.

The lobby (seats, host, bots, reconnect tokens) is the room's (`solver.web.rooms`); this
module is the round, behind the room's table interface (`solver.web.table`). It drives a
`solver.play.spellevate_match.SpellevateMatch` of one round, the engine of `bananas spellevate`:
the lead draw, the deal, each seat's turn, the table clearing and the scores are the match's,
a person's seat is a `RemoteSeat` and their play is judged by the match's `move_error` (its
reason is the page's `error` message, and nothing changes). Bots (`simple`, `planner`) play on
the server, one move per `spellevate_delay` seconds so a person can follow the table. The
match's `journal` holds every input a person made: with the table's setup it rebuilds the
round (`spellevate_match.replay`). A durable room saves both (solver.web.persistence): each
input before the person hears of it, the moves made and the room's log after each move, so a
restarted server takes the round up where it was.

Pages see the public state (whose turn, the table and who played it, every hand's size, the
log) and only their own hand; at the end, scores and counts of the tiles left, never letters.
A person who leaves mid-round hands their seat to a `simple` bot, so the round can end.
"""

from __future__ import annotations

import asyncio
import time

from solver.core.limits import MAX_SHOWN_PLAYS, MAX_SPELLEVATE_PLAY_LETTERS
from solver.lexicon.loader import get_lexicon
from solver.play import spellevate_events as sp
from solver.play.remote import RemoteSeat
from solver.play.spellevate import Play, SpellevateBot, SpellevateError, parse_play, scores
from solver.play.spellevate_bots import beating_plays, make_spellevate_bot, word_index
from solver.play.spellevate_match import SpellevateMatch, replay
from solver.web.persistence import SavedHand
from solver.web.table import RoomError, Seat, TableHandle, TableSetup, log, quote

LOG_KINDS = {sp.PLAY: "sp_play", sp.PASS: "sp_pass", sp.CLEAR: "sp_clear", sp.WIN: "sp_win", sp.LEFT: "sp_left"}


class SpellevateTable:
    """One round at a room's table: the engine's `SpellevateMatch`, and what pages see."""

    messages = frozenset({"play", "pass"})
    durable = True  # its round is saved as it goes and resumes after a restart

    def __init__(self, setup: TableSetup, handle: TableHandle, resume: SavedHand | None = None):
        self.handle = handle
        self.seats: list[Seat] = list(setup.seats)
        self.delay = setup.bot_delay
        # The last round's winner leads the next; the room's first round draws for the lead
        leader = self.seats.index(setup.last_winner) if setup.last_winner in self.seats else None
        self.lexicon = get_lexicon(setup.language)
        self.index = word_index(self.lexicon)  # built once per process: the legal plays shown to persons
        self.min_length = setup.variant.min_length
        players: list[SpellevateBot | RemoteSeat] = [self.player(seat) for seat in self.seats]
        try:
            self.match = SpellevateMatch(
                players, setup.seed, self.lexicon, tiles=setup.distribution, min_length=self.min_length, leader=leader
            )
            if resume is None:
                self.match.start()
            else:
                self.take_up(resume)
        except SpellevateError as error:  # too few players, or a tile set the rules cannot play (--distribution)
            raise RoomError("bad_start", str(error)) from None
        self.match.on_input = lambda entry: handle.record_input(len(self.match.journal) - 1, dict(entry))
        clock = resume.progress.get("clock", 0.0) if resume is not None else 0.0
        self.started = time.monotonic() - clock
        self.final: dict | None = None
        self.lock = asyncio.Lock()
        self.poke = asyncio.Event()
        self.sent_held: dict[int, tuple] = {}  # connection id -> the private message last sent
        draw = self.match.lead_draw
        letters = " ".join("/".join(group) for group in draw["draws"]) if draw else ""  # "": the last winner leads
        self.opening = [
            {"t": 0.0, "kind": "sp_lead", "who": self.seats[self.match.state.leader].name, "letters": letters}
        ]
        self.log: list[dict] = []
        if resume is not None:  # the log as it was shown: the saved entries' times, the rest now
            shown = resume.progress.get("log", [])
            entries = self.opening + self.log_entries(self.match.log)
            self.log = [{**entry, "t": before["t"]} for entry, before in zip(entries, shown)] + entries[len(shown) :]
            self.opening = []

    def take_up(self, saved: SavedHand) -> None:
        """A saved round, as it was: every input made again after the same moves, the bots'
        moves that followed played up to the moves saved."""
        replay(self.match, saved.journal)  # type: ignore[arg-type]
        while self.match.steps < saved.progress.get("steps", 0) and self.match.bot_to_move:
            self.match.bot_move()

    def player(self, seat: Seat) -> SpellevateBot | RemoteSeat:
        """The match's player at a room's seat: its bot, or a person's `RemoteSeat`."""
        if seat.kind != "bot":
            return RemoteSeat(seat.name)
        assert seat.spec is not None  # a bot seat always names its preset
        return make_spellevate_bot(seat.spec, self.lexicon, self.min_length)

    def index_of(self, seat: Seat) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is seat), None)

    def seated(self, seat: Seat) -> bool:
        return self.index_of(seat) is not None

    def progress(self) -> dict:
        """What a durable room saves besides the inputs: the moves made, the room's log, the clock."""
        return {"steps": self.match.steps, "log": self.log, "clock": time.monotonic() - self.started}

    def hand_log(self) -> str | None:
        return None  # no review or replay for Spellevate (yet): the room says so

    def reviewer(self) -> None:
        return None

    def clock(self) -> float:
        return round(time.monotonic() - self.started, 1)

    def name(self, index: int) -> str:
        return self.seats[index].name

    @property
    def over(self) -> bool:
        return self.match.over

    # -- what pages see ----------------------------------------------------------------------
    def table(self) -> dict:
        state = self.match.state
        return {
            "type": "spellevate",
            "players": [
                {
                    "seat": index,
                    "name": seat.name,
                    "kind": "bot" if self.match.is_bot(index) else "person",
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
        state = self.match.state
        hand = self.match.hand(index)
        your_turn = not state.over and state.turn == index and not self.match.is_bot(index)
        plays: list[str] = []
        if your_turn:
            if state.table is None:
                words = self.index.formable(hand, self.min_length).all_words()
                plays = words[:MAX_SHOWN_PLAYS] + sorted(set(hand.letters()))
            else:
                plays = beating_plays(self.index, hand, state.table, self.min_length)[:MAX_SHOWN_PLAYS]
        return {"type": "hand", "letters": hand.letters(), "your_turn": your_turn, "plays": plays}

    def log_entries(self, events: list[sp.SpellevateEvent]) -> list[dict]:
        """The room log's entries for a move's or a leave's events."""
        entries = []
        for event in events:
            if event["event"] == sp.LEAD_DRAW or event["event"] == sp.DEAL:
                continue  # the opening's (`sp_lead`)
            entry = {"t": self.clock(), "kind": LOG_KINDS[event["event"]], "who": self.name(event["player"])}
            if event["event"] == sp.PLAY:
                entry.update(letters=event["letters"], left=event["left"])
            entries.append(entry)
        return entries

    def end_message(self) -> dict:
        state = self.match.state
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
            if index is not None and not self.match.is_bot(index):
                private = self.private(index)
                key = (private["letters"], private["your_turn"], tuple(private["plays"]))
                if self.sent_held.get(id(connection)) != key:
                    self.sent_held[id(connection)] = key
                    connection.send(private)
        handle.record_progress(self.progress())
        winner = self.match.state.winner
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
        if index is not None and not self.match.is_bot(index):
            private = self.private(index)
            self.sent_held[id(connection)] = (private["letters"], private["your_turn"], tuple(private["plays"]))
            connection.send(private)
        if self.final is not None:
            connection.send(self.final)

    # -- moves ---------------------------------------------------------------------------------
    async def person_move(self, seat: Seat, message: dict, passing: bool) -> None:
        """A person's play (`letters`: a word or one letter from their hand) or pass."""
        index = self.index_of(seat)
        if index is None or self.match.is_bot(index):
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
            if self.over:
                raise RoomError("out_of_order", "the round is over")
            turn = self.match.state.turn
            if turn != index:
                raise RoomError("not_your_turn", f"it is {self.name(turn)}'s turn")
            error = self.match.move_error(index, play)
            if error is not None:  # the engine's reason, its code for the page to translate
                raise RoomError(
                    "bad_play", error.replace("the hand", "your hand"), {"reason": error.code, **error.params}
                )
            events = self.match.move(index, play)
            await self.handle.committed()  # the move saved before anyone hears of it
            self.publish(self.log_entries(events))

    async def leave(self, seat: Seat) -> None:
        """A person left mid-round: a stand-in bot plays their hand to the end (the match's)."""
        index = self.index_of(seat)
        assert index is not None  # the room asks only for a seat dealt in
        async with self.lock:
            events = self.match.leave(index)
            await self.handle.committed()
            if events:
                self.publish(self.log_entries(events))

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
        match = self.match
        while not self.over and not self.handle.closed:
            if not match.bot_to_move:
                self.poke.clear()
                await self.poke.wait()  # a person's move, or their leaving, pokes
                continue
            turn = match.state.turn
            await asyncio.sleep(delay)
            await self.move_bot(turn)

    async def move_bot(self, turn: int) -> None:
        """The bot at `turn` moves, if it is still its turn (its choice in a worker thread)."""
        match = self.match
        async with self.lock:
            if not match.bot_to_move or match.state.turn != turn:
                return
            play = await asyncio.to_thread(match.bot_choice)
            self.publish(self.log_entries(match.make_bot_move(play)))  # an illegal move is a bug: it surfaces
