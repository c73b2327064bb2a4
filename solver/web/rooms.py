"""Rooms of the browser game: seats, the host's lobby, and the table a game is played at.

A room is up to `max_seats` seats, people and bots, and one host who adds bots and starts.
Every message from a page is checked before anything changes, and the seat a connection acts
for is the one its join bound it to, never a field of a message. The lobby messages (join,
add_bot, remove_bot, start, again, leave, sit, sit_answer) are the room's; once the host starts, the game is
a table's (`solver.web.table`): `TABLES` names the table for each game of the variant
catalogue (`solver.play.variants`), and the room passes the table its messages (the table's
`messages`) without knowing what they mean. docs/ROOMS.md documents every message. The
server's open rooms, their creation under its limits and their restoring are `solver.web.lobby`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from dataclasses import asdict

import numpy as np

from solver.core.grid import GridError
from solver.core.limits import (
    MAX_ROOM_HAND_LOGS,
    MAX_ROOM_NAME_CHARS,
    MAX_SEAT_CONNECTIONS,
    MAX_SPECTATORS,
)
from solver.core.tiles import DISTRIBUTIONS, TileCounts, load_distribution
from solver.play.pace import preset_pace
from solver.play.presets import describe
from solver.play.variants import BANANAGRAMS, SPELLEVATE, VARIANTS, WayToPlay
from solver.web.bananagrams_table import BananagramsTable
from solver.web.coaching import replay_frames
from solver.web.config import WebConfig
from solver.web.persistence import RoomStore, SavedHand, keep_table, restored_seat, room_record, setup_record
from solver.web.spellevate_table import SpellevateTable
from solver.web.table import (
    DEFAULT_HINT_COUNT,
    ReviewShelf,
    RoomError,
    Seat,
    Table,
    TableFactory,
    TableHandle,
    TableSetup,
    quote,
)

LANGUAGES = ("en", "fr")
TABLES: dict[str, TableFactory] = {BANANAGRAMS: BananagramsTable, SPELLEVATE: SpellevateTable}
ROOM_VARIANTS = tuple(name for name, variant in VARIANTS.items() if variant.in_rooms)  # the home page's choices
TABLE_MESSAGES = frozenset().union(*(table.messages for table in TABLES.values()))  # type: ignore[attr-defined]
REPLACED = 4409  # the close code of a seat's oldest socket when the seat opens one too many
RESTARTING = 1012  # the close code when the server stops with its rooms saved (WebSocket: service restart)


READ_ONLY_MESSAGES = frozenset({"hand_log", "review"})  # lobby messages that change nothing: no activity, nothing saved


class ClientQuota(RoomError):
    """A client address over its own quota (HTTP 429), not the server over its cap."""


def clean_name(value) -> str:
    if not isinstance(value, str):
        raise RoomError("bad_value", "a name is a string")
    name = "".join(ch for ch in unicodedata.normalize("NFC", value) if unicodedata.category(ch)[0] != "C")
    name = " ".join(name.split())[:MAX_ROOM_NAME_CHARS].rstrip()
    if not name:
        raise RoomError("bad_value", "please enter a name")
    return name


def same_token(token: str | None, given) -> bool:
    """Whether a page's reconnect token is this seat's (compared in constant time)."""
    if token is None or not isinstance(given, str) or not given.isascii():
        return False
    return secrets.compare_digest(token, given)


def numbered_name(name: str, number: int) -> str:
    suffix = f" {number}"
    return name[: MAX_ROOM_NAME_CHARS - len(suffix)].rstrip() + suffix


class Room:
    def __init__(
        self,
        room_id: str,
        number: int,
        language: str,
        spellcheck: bool,
        variant: str,
        config: WebConfig,
        show_letters: bool = False,
        hints: bool = False,
        store: RoomStore | None = None,
        hint_count: int = DEFAULT_HINT_COUNT,
        offensive_words: bool = False,
    ):
        self.id = room_id
        self.store = store  # a durable room's database (solver.web.persistence), None in memory only
        self.number = number
        self.language = language
        self.spellcheck = spellcheck
        self.show_letters = show_letters  # the others' grids with letters while a hand runs
        self.hints = hints  # a Hint button for the players (a solo game has one anyway)
        self.hint_count = hint_count  # hints a person may be shown in a hand (HINT_COUNTS)
        self.offensive_words = offensive_words  # bots, hints and reviews may use slurs and profanity
        self.hand_logs: dict[int, dict] = {}  # hand -> its `hand_log` message, for the last few hands
        self.reviews = ReviewShelf(MAX_ROOM_HAND_LOGS)  # the same hands' reviews, worked out when asked
        self.variant: WayToPlay = VARIANTS[variant]
        self.config = config
        self.seats: list[Seat] = []
        self.spectators: list[Seat] = []  # people who came while a hand ran: they watch, and sit at the next
        self.host: Seat | None = None
        self.phase = "lobby"  # lobby | playing | ended
        self.table: Table | None = None
        self.table_handle: TableHandle | None = None  # the table's way to the pages
        self.last_winner: Seat | None = None  # the last hand's winner (Spellevate: leads the next)
        self.hands = 0
        self.wins: dict[str, int] = {}  # hands won in this room, by seat name
        self.created = self.last_activity = time.monotonic()
        self.connections: dict = {}  # connection -> Seat (None until joined)
        self.closed = False
        self.creator: str | None = None  # the client address that created it (its quota)
        self.charged = True  # counted against the creator's quota (a restored room is not)
        self.ever_joined = False
        self.last_moves: dict[tuple[str, str], dict] = {}  # (seat, message type) -> its last accepted move
        self.lobby_lock = asyncio.Lock()  # seats change one message at a time

    # -- sending ------------------------------------------------------------------------------
    def broadcast(self, message: dict) -> None:
        for connection, seat in list(self.connections.items()):
            if seat is not None:
                connection.send(message)

    def room_state(self, seat: Seat | None) -> dict:
        return {
            "type": "room",
            "id": self.id,
            "language": self.language,
            "spellcheck": self.spellcheck,
            "show_letters": self.show_letters,
            "hints": self.hints,
            "hint_count": self.hint_count,
            "offensive_words": self.offensive_words,
            "hand": self.hands,  # the number of the hand under way or last played
            "wins": self.wins,
            "variant": self.variant.name,
            "game": self.variant.game,  # the kind of table: bananagrams | spellevate
            "min_players": self.variant.min_players,
            "phase": self.phase,
            "max_seats": self.config.max_seats,
            "bots": list(self.bot_presets()),
            "bot_about": self.bot_about(),
            "seats": [
                {
                    "seat": index,
                    "name": s.name,
                    "kind": s.kind,
                    "preset": s.preset,
                    "connected": s.connected,
                    "host": s is self.host,
                    "you": s is seat,
                }
                for index, s in enumerate(self.seats)
            ],
            "you_host": seat is not None and seat is self.host,
            "spectators": [s.name for s in self.spectators],
            "sit_requests": [s.name for s in self.spectators if s.asks_to_sit],  # for the host to answer
            "free_seats": self.free_seats(),
        }

    def preview(self) -> dict:
        """What a room's page shows before its visitor joins (GET /r/{room}, docs/ROOMS.md): who
        sits there and what is played, as the `room` message says it (no tokens, nothing of a hand)."""
        return {
            "language": self.language,
            "variant": self.variant.name,
            "game": self.variant.game,
            "spellcheck": self.spellcheck,
            "hints": self.hints,
            "hint_count": self.hint_count,
            "phase": self.phase,
            "max_seats": self.config.max_seats,
            "seats": [{"name": s.name, "kind": s.kind, "preset": s.preset, "host": s is self.host} for s in self.seats],
            "spectators": len(self.spectators),
        }

    def broadcast_room(self) -> None:
        for connection, seat in list(self.connections.items()):
            if seat is not None:
                connection.send(self.room_state(seat))

    # -- the messages -------------------------------------------------------------------------
    async def handle(self, connection, message: dict) -> None:
        kind = message.get("type")
        if kind == "join":
            async with self.lobby_lock:
                await self.join(connection, message)
            self.save()
            return
        seat = self.connections.get(connection)
        if seat is None:
            raise RoomError("out_of_order", "join the room first")
        if isinstance(kind, str) and kind in TABLE_MESSAGES:
            table = self.table
            if table is None or self.phase != "playing":
                raise RoomError("out_of_order", "no game is being played")
            if kind not in table.messages:
                raise RoomError("out_of_order", f"this room plays {self.variant.title}: {kind} is not one of its moves")
            await table.on_message(connection, seat, message)
            self.played(seat, kind, message)
            return
        handler = (
            {
                "add_bot": self.add_bot,
                "remove_bot": self.remove_bot,
                "start": self.start,
                "again": self.again,
                "leave": self.leave,
                "hand_log": self.send_hand_log,
                "review": self.send_review,
                "sit": self.sit,
                "sit_answer": self.sit_answer,
            }.get(kind)
            if isinstance(kind, str)
            else None
        )
        if handler is None:
            raise RoomError("unknown_type", f"unknown message type {quote(kind)}")
        async with self.lobby_lock:
            await handler(connection, seat, message)
        if kind in READ_ONLY_MESSAGES:  # reading a hand's log again and again is not play
            return
        self.last_activity = time.monotonic()  # accepted: a refused message is not play
        self.save()

    def played(self, seat: Seat, kind: str, message: dict) -> None:
        """An accepted table message is activity unless it repeats the seat's last one of its
        type (`seq` aside): a page resending the same grid is not playing."""
        move = {key: value for key, value in message.items() if key != "seq"}  # (compared, never changed)
        if self.last_moves.get((seat.name, kind)) != move:
            self.last_moves[(seat.name, kind)] = move
            self.last_activity = time.monotonic()

    async def join(self, connection, message: dict) -> None:
        if self.connections.get(connection) is not None:
            raise RoomError("out_of_order", "already seated")
        token = message.get("token")
        people = [s for s in (*self.seats, *self.spectators) if s.kind != "bot"]
        seat = next((s for s in people if same_token(s.token, token)), None)
        if seat is None:
            name = clean_name(message.get("name"))
            if self.phase == "playing":
                # A hand is under way: watch it (every grid in full), and sit down at the next.
                if len(self.spectators) >= MAX_SPECTATORS:
                    raise RoomError("game_running", "a game is under way in this room: try again when it ends")
                seat = Seat("spectator", self.unique_name(name), token=secrets.token_urlsafe(16))
                self.spectators.append(seat)
            else:
                if len(self.seats) >= self.config.max_seats:
                    raise RoomError("room_full", f"this room is full: {self.config.max_seats} players are seated")
                seat = Seat("person", self.unique_name(name), token=secrets.token_urlsafe(16))
                self.seats.append(seat)
            if self.host is None and seat.kind == "person":  # a spectator hosts nothing until seated
                self.host = seat
            self.ever_joined = True
            self.last_activity = time.monotonic()  # a new person; a reconnect is not play
        self.keep_few_sockets(seat)
        seat.connections.add(connection)
        seat.gone_since = None
        self.connections[connection] = seat
        welcome = {"type": "welcome", "token": seat.token, "name": seat.name, "room": self.id}
        connection.send({**welcome, "spectator": seat.kind == "spectator"})
        self.broadcast_room()
        if self.table is not None:
            self.table.restore(connection, seat)

    def keep_few_sockets(self, seat: Seat) -> None:
        """Make room for one more socket of `seat`: past MAX_SEAT_CONNECTIONS its oldest is
        closed (a reloaded page's old socket), so its broadcasts never multiply without bound."""
        mine = [connection for connection, owner in self.connections.items() if owner is seat]
        for oldest in mine[: max(0, len(mine) - MAX_SEAT_CONNECTIONS + 1)]:
            self.connections[oldest] = None
            seat.connections.discard(oldest)
            if self.table is not None:
                self.table.disconnected(oldest)
            oldest.close(REPLACED)

    def unique_name(self, name: str) -> str:
        taken = {s.name for s in (*self.seats, *self.spectators)}
        if name not in taken:
            return name
        # The number must survive the cut to MAX_ROOM_NAME_CHARS, or the numbered name is the taken
        # name again (and this loop never ended): shorten the name, not the number.
        number = 2
        while (numbered := numbered_name(name, number)) in taken:
            number += 1
        return numbered

    def need_host(self, seat: Seat) -> None:
        if seat is not self.host:
            raise RoomError("not_host", "only the host can do that")
        if self.phase == "playing":
            raise RoomError("game_running", "not during a game")

    async def add_bot(self, connection, seat: Seat, message: dict) -> None:
        self.need_host(seat)
        preset = message.get("preset")
        presets = self.bot_presets()
        if not isinstance(preset, str) or preset not in presets:
            raise RoomError("bad_value", f"bot presets: {', '.join(presets)}")
        if len(self.seats) >= self.config.max_seats:
            raise RoomError("room_full", f"this room is full: {self.config.max_seats} players are seated")
        name = self.unique_name(f"{preset} bot")
        self.seats.append(Seat("bot", name, spec=presets[preset], preset=preset))
        self.broadcast_room()

    def bot_about(self) -> dict[str, dict]:
        """What each bot preset of the lobby is like (the catalogue's line for its spec's preset)."""
        game = self.variant.game
        about = {}
        for name, spec in self.bot_presets().items():
            preset = spec.partition(":")[0]
            pace = preset_pace(preset) if game == BANANAGRAMS and spec == preset else None  # measured as shipped
            about[name] = {"summary": describe(game, preset), "pace": asdict(pace) if pace is not None else None}
        return about

    def bot_presets(self) -> dict[str, str]:
        """The bots this room's game seats: preset shown in the page -> bot spec."""
        return self.config.presets(self.variant.game)

    def distribution(self) -> TileCounts:
        loaded = load_distribution(self.config.distribution) if self.config.distribution else None
        return loaded or DISTRIBUTIONS[self.language]

    async def remove_bot(self, connection, seat: Seat, message: dict) -> None:
        self.need_host(seat)
        index = message.get("seat")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.seats):
            raise RoomError("bad_value", "no such seat")
        if self.seats[index].kind != "bot":
            raise RoomError("bad_value", "that seat is not a bot")
        del self.seats[index]
        self.broadcast_room()

    def next_seed(self) -> int:
        if self.config.seed is None:
            return secrets.randbits(62)
        sequence = np.random.SeedSequence([self.config.seed, self.number, self.hands])
        return int(sequence.generate_state(1, dtype=np.uint64)[0] >> np.uint64(2))

    async def start(self, connection, seat: Seat, message: dict) -> None:
        self.need_host(seat)
        # Persons who left the last hand keep their seat until it ends; dealt into this one
        # they would never act, and the hand could never end in a stalemate.
        self.seats = [s for s in self.seats if s.kind == "bot" or s.token is not None]
        setup = TableSetup(
            seats=tuple(self.seats),
            variant=self.variant,
            language=self.language,
            distribution=self.distribution(),
            spellcheck=self.spellcheck,
            seed=self.next_seed(),
            last_winner=self.last_winner,
            bot_delay=self.config.spellevate_delay,
            show_letters=self.show_letters,
            hand=self.hands + 1,
            hints=self.hints,
            hint_count=self.hint_count,
            offensive_words=self.offensive_words,
        )
        handle = TableHandle(self.id, lambda: list(self.connections.items()), self.table_ended, lambda: self.closed)
        # The table judges whether the seats can play (bad_start) and loads word lists the first time.
        table = await asyncio.to_thread(TABLES[self.variant.game], setup, handle)
        self.hands += 1
        self.table, self.table_handle = table, handle
        self.phase = "playing"
        self.keep_hand(setup, table)
        self.broadcast_room()
        self.broadcast({"type": "log", "entries": [], "reset": True})
        await table.start()

    def table_ended(self, winner: Seat | None) -> None:
        """The table's hand is over (called by the table, through its handle)."""
        self.last_winner = winner
        if winner is not None:
            self.wins[winner.name] = self.wins.get(winner.name, 0) + 1
        self.phase = "ended"
        log = self.table.hand_log() if self.table is not None else None
        if log is not None:
            self.hand_logs[self.hands] = {"type": "hand_log", "hand": self.hands, "log": log}
            for old in sorted(self.hand_logs)[:-MAX_ROOM_HAND_LOGS]:
                del self.hand_logs[old]
            self.reviews.put(self.hands, self.table.reviewer() if self.table is not None else None)
        if self.store is not None:
            self.store.end_hand(self.id)
        self.save()
        self.broadcast_room()

    async def send_hand_log(self, connection, seat: Seat, message: dict) -> None:
        """A hand's event log (JSON lines), to a page of this room: for its Replay and its
        Download. Only once the hand is over (it holds every player's tiles)."""
        hand = message.get("hand", self.hands)
        if not isinstance(hand, int) or isinstance(hand, bool):
            raise RoomError("bad_value", "hand is a hand's number")
        if hand == self.hands and self.phase == "playing":
            raise RoomError("out_of_order", "a hand's log is ready when the hand is over")
        reply = self.hand_logs.get(hand)
        if reply is not None and "frames" not in reply:  # the replay's moments, worked out once
            reply["frames"] = await asyncio.to_thread(replay_frames, reply["log"])
        if reply is None:
            raise RoomError(
                "no_log",
                f"no log of hand {quote(hand)}: this room keeps its last {MAX_ROOM_HAND_LOGS}"
                f" Bananagrams hands (Spellevate keeps none)",
            )
        connection.send(reply)

    async def send_review(self, connection, seat: Seat, message: dict) -> None:
        if message.get("hand", self.hands) == self.hands and self.phase == "playing":
            raise RoomError("out_of_order", "a hand's review is made when the hand is over")
        self.reviews.ask(connection, message.get("hand", self.hands))

    async def again(self, connection, seat: Seat, message: dict) -> None:
        self.need_host(seat)
        if self.phase != "ended":
            raise RoomError("out_of_order", "the game is not over")
        self.phase = "lobby"
        self.table = None
        self.seats = [s for s in self.seats if s.kind == "bot" or s.connections]
        for spectator in [s for s in self.spectators if s.connections]:  # those who watched sit down, as seats allow
            if len(self.seats) < self.config.max_seats:
                spectator.kind, spectator.asks_to_sit = "person", False
                self.seats.append(spectator)
        self.spectators = [s for s in self.spectators if s.kind == "spectator" and s.connections]
        if self.host not in self.seats:
            self.host = next((s for s in self.seats if s.kind == "person" and s.token), None)
        self.broadcast_room()

    def free_seats(self) -> int:
        """Seats a spectator could take before the next hand: persons who left the last hand
        lose theirs at the next `start` (or `again`), so they count as free."""
        kept = [s for s in self.seats if s.kind == "bot" or s.token is not None]
        return max(0, self.config.max_seats - len(kept))

    async def sit(self, connection, seat: Seat, message: dict) -> None:
        """A spectator asks the host for a seat (at any time: the host answers between hands)."""
        if seat.kind != "spectator" or seat not in self.spectators:
            raise RoomError("out_of_order", "only a spectator asks to sit")
        seat.asks_to_sit = True
        self.broadcast_room()

    async def sit_answer(self, connection, seat: Seat, message: dict) -> None:
        """The host seats a spectator (`accept` true: now, into a free seat) or says not now."""
        self.need_host(seat)
        name, accept = message.get("name"), message.get("accept")
        if not isinstance(accept, bool):
            raise RoomError("bad_value", "accept is true or false")
        spectator = next((s for s in self.spectators if s.name == name), None)
        if spectator is None:
            raise RoomError("bad_value", f"no spectator named {quote(name)}")
        if accept and self.free_seats() == 0:
            raise RoomError("room_full", f"this room is full: {self.config.max_seats} players are seated")
        spectator.asks_to_sit = False
        if accept:
            # Persons who left the last hand would lose their seats at the next start anyway.
            self.seats = [s for s in self.seats if s.kind == "bot" or s.token is not None]
            self.spectators.remove(spectator)
            spectator.kind = "person"
            self.seats.append(spectator)
            if self.host is None:
                self.host = spectator
        self.broadcast_room()

    async def leave(self, connection, seat: Seat, message: dict) -> None:
        await self.drop_seat(seat)
        connection.send({"type": "bye"})

    async def drop_seat(self, seat: Seat) -> None:
        """A person leaves: from the lobby their seat goes; in a game they are out of the hand."""
        if self.phase == "playing" and self.table is not None and self.table.seated(seat):
            await self.table.leave(seat)
        if seat in self.seats and self.phase != "playing":
            self.seats.remove(seat)
        if seat in self.spectators:
            self.spectators.remove(seat)
        for connection in list(seat.connections):
            self.connections[connection] = None
        seat.connections.clear()
        seat.gone_since = seat.gone_since or time.monotonic()
        seat.token = None  # gone: the seat cannot be taken back
        if self.host is seat:
            self.host = next((s for s in self.seats if s.kind == "person" and s.token), None)
        self.broadcast_room()

    # -- connections coming and going --------------------------------------------------------
    def disconnected(self, connection) -> None:
        seat = self.connections.pop(connection, None)
        if seat is not None:
            seat.connections.discard(connection)
            if not seat.connections:
                seat.gone_since = time.monotonic()
            if self.table is not None:
                self.table.disconnected(connection)
            self.broadcast_room()

    async def sweep(self, now: float) -> None:
        """Persons (and spectators) gone for `absent_seconds` have left the table."""
        for seat in [*self.seats, *self.spectators]:
            if seat.kind != "bot" and not seat.connections and seat.gone_since is not None and seat.token:
                if now - seat.gone_since >= self.config.absent_seconds:
                    async with self.lobby_lock:
                        await self.drop_seat(seat)
                    self.save()

    def abandoned(self, now: float) -> str | None:
        """Why this room should close now, if it should."""
        if now - self.last_activity >= self.config.room_idle_seconds:
            return "idle"
        if not self.ever_joined and now - self.created >= self.config.unjoined_room_seconds:
            return "empty"
        persons = [s for s in self.seats if s.kind == "person" and s.token]
        if not persons and now - self.last_activity >= self.config.absent_seconds:
            return "empty"
        return None

    def close(self, reason: str) -> None:
        self.closed = True
        if self.table_handle is not None:
            self.table_handle.cancel()
        message = {"type": "closed", "reason": reason}
        for connection in list(self.connections):
            connection.send(message)
            connection.close()
        self.connections.clear()

    def suspend(self) -> None:
        """The server stops, and the room is saved: its hand's progress (the clock as it
        stands now), its record; its pages are told to come back (they reconnect with their
        tokens), its table's driver stops."""
        if self.table is not None and self.table_handle is not None and self.phase == "playing":
            self.table_handle.record_progress(self.table.progress())
        self.save()
        if self.table_handle is not None:
            self.table_handle.cancel()
        for connection in list(self.connections):
            connection.send({"type": "restarting"})
            connection.close(RESTARTING)
        self.connections.clear()

    # -- a durable room (solver.web.persistence) ----------------------------------------------
    def save(self) -> None:
        if self.store is not None and not self.closed:
            self.store.save_room(self.id, room_record(self))

    def keep_hand(self, setup: TableSetup, table: Table) -> None:
        """A durable table's hand (or round) is saved as it goes: its setup now, its inputs,
        progress and the persons' live grids as they come."""
        store, handle = self.store, self.table_handle
        if store is None or handle is None or not table.durable:
            return
        store.start_hand(self.id, setup_record(setup), table.progress())
        keep_table(store, self.id, handle)

    @classmethod
    def from_record(cls, record: dict, config: WebConfig, store: RoomStore | None) -> Room:
        """A room as `record` saved it, its people disconnected (their tokens bring them back)."""
        room = cls(
            record["id"],
            record["number"],
            record["language"],
            record["spellcheck"],
            record["variant"],
            config,
            record["show_letters"],
            record["hints"],
            store,
            record.get("hint_count", DEFAULT_HINT_COUNT),  # a room saved before the setting: the old limit
            offensive_words=record.get("offensive_words", False),
        )
        now = time.monotonic()
        room.seats = [restored_seat(entry, now) for entry in record["seats"]]
        room.spectators = [restored_seat(entry, now) for entry in record["spectators"]]
        room.host = room.seats[record["host"]] if record["host"] is not None else None
        room.last_winner = next((s for s in room.seats if s.name == record["last_winner"]), None)
        room.phase, room.hands, room.wins = record["phase"], record["hands"], record["wins"]
        room.creator, room.ever_joined = record["creator"], record["ever_joined"]
        room.last_activity = now - max(0.0, time.time() - record["last_activity"])
        for hand, text in record["hand_logs"].items():
            room.hand_logs[int(hand)] = {"type": "hand_log", "hand": int(hand), "log": text}
        return room

    def table_setup(self, saved: dict) -> TableSetup:
        """The setup of the hand a durable room saved (`setup_record`)."""
        return TableSetup(
            seats=tuple(self.seats[: saved["seats"]]),
            variant=self.variant,
            language=self.language,
            distribution=TileCounts.from_letters(saved["distribution"]),
            spellcheck=self.spellcheck,
            seed=saved["seed"],
            last_winner=self.last_winner,
            bot_delay=self.config.spellevate_delay,
            show_letters=self.show_letters,
            hand=saved["hand"],
            hints=self.hints,
            hint_count=self.hint_count,
            offensive_words=self.offensive_words,
        )

    async def resume(self, saved: SavedHand | None) -> None:
        """Take up the hand (or round) the room was playing when it was saved; without one (its
        inputs were lost) the room comes back to the lobby."""
        if self.phase != "playing":
            return
        factory = TABLES[self.variant.game]
        if saved is None or not factory.durable:  # type: ignore[attr-defined]
            self.phase = "lobby"
            return
        setup = self.table_setup(saved.setup)
        handle = TableHandle(self.id, lambda: list(self.connections.items()), self.table_ended, lambda: self.closed)
        self.table_handle = handle
        if self.store is not None:
            keep_table(self.store, self.id, handle)  # (nothing is written while the hand is rebuilt)
        table = await asyncio.to_thread(factory, setup, handle, saved)  # type: ignore[call-arg]
        self.table = table
        await table.start()

    def has_person(self) -> bool:
        """Whether a person holds a seat (a token to come back with)."""
        return any(seat.kind == "person" and seat.token for seat in self.seats)


__all__ = ["GridError", "Room", "RoomError", "Seat"]
