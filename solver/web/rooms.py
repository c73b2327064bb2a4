"""Rooms of the browser game: seats, the host's lobby, and the hand the server referees.

A room is up to `max_seats` seats, people and bots. The server is the referee: it runs the
same engine as `bananas play` (`solver.play.game.Round`) on the wall clock, seats each person
as a `Person` (the engine's Bot interface, whose calls come from the page) and our bots by
preset. Every message from a page is checked before anything changes; a person only ever
receives their own tiles (others' appear as counts), and the seat a connection acts for is
the one its join bound it to, never a field of a message.

A room plays Bananagrams (`Game`, below) or, when created with the variant `spellevate`, the
turn-based Spellevate (`solver.web.spellevate_room`): the lobby here is shared by both.

Threads: the engine's work (bots thinking, calls) runs in worker threads under the room's
asyncio lock, so the event loop keeps serving pages. A person's grid updates only take that
person's own small lock, so spellcheck answers while a bot thinks.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from solver.core.grid import Grid, GridError, validate
from solver.core.tiles import DISTRIBUTIONS, TileCounts, TileError, load_distribution
from solver.play.game import Decision, Round, RuleError, Rules, TableView, grid_tiles
from solver.web.config import WebConfig

if TYPE_CHECKING:
    from solver.play.bots import GreedyBot, SolverBot  # imported lazily: numba-backed
    from solver.web.spellevate_room import SpellevateGame

LANGUAGES = ("en", "fr")
VARIANTS = ("classic", "three-letter", "smoothie", "spellevate")  # spellevate: the other game (spellevate_room)
MAX_NAME = 24
MAX_COORD = 200  # grid cells a page may use, in each direction from the origin
MAX_SEQ = 2**53 - 1  # a grid update's number, echoed in its check: exact in JavaScript
MAX_QUOTED = 40  # characters of a page's value quoted back in an error
Cell = tuple[int, int]


class RoomError(Exception):
    """A message that cannot be acted on: the page gets `code` and `message`, nothing changes."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def clean_name(value) -> str:
    if not isinstance(value, str):
        raise RoomError("bad_value", "a name is a string")
    name = "".join(ch for ch in unicodedata.normalize("NFC", value) if unicodedata.category(ch)[0] != "C")
    name = " ".join(name.split())[:MAX_NAME].rstrip()
    if not name:
        raise RoomError("bad_value", "please enter a name")
    return name


def quote(value) -> str:
    """A page's value, for an error message: short, whatever it was sent."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTED else text[: MAX_QUOTED - 3] + "..."


def same_token(token: str | None, given) -> bool:
    """Whether a page's reconnect token is this seat's (compared in constant time)."""
    if token is None or not isinstance(given, str) or not given.isascii():
        return False
    return secrets.compare_digest(token, given)


def numbered_name(name: str, number: int) -> str:
    suffix = f" {number}"
    return name[: MAX_NAME - len(suffix)].rstrip() + suffix


def parse_cells(value, limit: int) -> dict[Cell, str]:
    """A page's grid: a list of [row, col, letter]; every field checked."""
    if not isinstance(value, list) or len(value) > limit:
        raise RoomError("bad_grid", f"a grid is a list of at most {limit} [row, col, letter] cells")
    cells: dict[Cell, str] = {}
    for item in value:
        if not (isinstance(item, list) and len(item) == 3):
            raise RoomError("bad_grid", "each cell is [row, col, letter]")
        row, col, letter = item
        if not all(isinstance(n, int) and not isinstance(n, bool) and abs(n) <= MAX_COORD for n in (row, col)):
            raise RoomError("bad_grid", f"cell coordinates are integers within +-{MAX_COORD}")
        if not (isinstance(letter, str) and len(letter) == 1 and "A" <= letter <= "Z"):
            raise RoomError("bad_letters", "a tile is one letter A-Z")
        if (row, col) in cells:
            raise RoomError("bad_grid", "two tiles on one cell")
        cells[(row, col)] = letter
    return cells


def cells_tiles(cells: dict[Cell, str]) -> TileCounts:
    return TileCounts.from_letters("".join(cells.values()))


class Person:
    """A person's seat in the engine (its Bot interface). The page builds the grid and sends
    it; the engine deals tiles here. A lock keeps the tiles and the grid consistent between
    the engine's thread and the grid updates: the grid always uses tiles the person holds."""

    speed = 1.0

    def __init__(self, name: str):
        self.name = name
        self.lock = threading.Lock()
        self.tiles = TileCounts()
        self.cells: dict[Cell, str] = {}
        self.bananas_cells: dict[Cell, str] = {}  # the grid shown at this person's last BANANAS

    # -- the engine's side
    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        with self.lock:
            self.tiles, self.cells = tiles, {}

    def receive(self, tiles: TileCounts) -> None:
        with self.lock:
            self.tiles = self.tiles + tiles

    def give_back(self, tile: str) -> None:
        with self.lock:
            returned = TileCounts.from_letters(tile)
            if not (self.tiles - cells_tiles(self.cells)).contains(returned):
                # A grid update raced the dump: the tile leaves the grid (the page resyncs).
                cell = next(cell for cell, letter in self.cells.items() if letter == tile)
                del self.cells[cell]
            self.tiles = self.tiles - returned

    def decide(self, view: TableView) -> Decision:
        return Decision("remote")  # a person decides on their own time

    def holding(self) -> TileCounts:
        return self.tiles

    def current_grid(self) -> Grid | None:
        with self.lock:
            return Grid.from_cells(self.cells) if self.cells else None

    # -- the page's side
    def set_cells(self, cells: dict[Cell, str]) -> None:
        with self.lock:
            if not self.tiles.contains(cells_tiles(cells)):
                raise RoomError("not_your_tile", "the grid holds tiles you do not have")
            self.cells = cells

    def rack(self) -> TileCounts:
        with self.lock:
            return self.tiles - cells_tiles(self.cells)

    def snapshot(self) -> tuple[TileCounts, dict[Cell, str]]:
        with self.lock:
            return self.tiles, dict(self.cells)


@dataclass
class Seat:
    kind: str  # person | bot
    name: str
    token: str | None = None  # a person's reconnect token
    spec: str | None = None  # a bot's spec
    preset: str | None = None
    connections: set = field(default_factory=set)
    gone_since: float | None = None  # when the last connection closed

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or bool(self.connections)


class Game:
    """One hand in a room: the engine's `Round` on the wall clock, and what the pages see of it."""

    def __init__(self, room: Room, rules: Rules, seed: int):
        from solver.play.bots import make_bot

        self.room = room
        self.seats = list(room.seats)
        self.players: list[Person | SolverBot | GreedyBot] = []
        for seat in self.seats:
            if seat.kind == "person":
                self.players.append(Person(seat.name))
            else:
                assert seat.spec is not None  # a bot seat always names its preset
                self.players.append(make_bot(seat.spec))
        for player, seat in zip(self.players, self.seats, strict=True):
            player.name = seat.name
        self.rules = rules
        self.seed = seed
        self.events: list[dict] = []  # engine events not yet turned into messages
        self.round = Round(rules, self.players, seed, observer=self.events.append)
        self.round.result = None  # Round.start sets it too; pages may look before the deal
        self.lexicon = self.round.lexicon
        self.log: list[dict] = []
        self.tiles_left = [0] * len(self.seats)
        self.bot_held = [0] * len(self.seats)
        self.status = ["building"] * len(self.seats)
        self.started = time.monotonic()
        self.lock = asyncio.Lock()
        self.poke = asyncio.Event()
        self.final: dict | None = None
        self.sent_held: dict[int, tuple] = {}  # connection id -> (held, active, waiting) last sent

    def clock(self) -> float:
        return time.monotonic() - self.started

    def person(self, index: int) -> Person:
        """The person at seat `index` (the caller has checked that a person sits there)."""
        player = self.players[index]
        assert isinstance(player, Person)
        return player

    def index_of(self, seat: Seat) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is seat), None)

    # -- engine steps (call with the lock held; they run in a worker thread) -------------
    async def step(self, action: Callable[[], object]) -> None:
        await asyncio.to_thread(action)
        self.after_step()

    def after_step(self) -> None:
        hand = self.round
        if hand.result is None and not hand.queue:
            persons_playing = any(
                isinstance(p, Person) and hand.seats[i].active and not hand.seats[i].waiting
                for i, p in enumerate(self.players)
            )
            if not persons_playing:
                hand.result = hand.stalemate()  # nobody can act any more
        working = {seat for _, seat, _, kind, _ in hand.queue if kind == "call"}
        for index, player in enumerate(self.players):
            seat = hand.seats[index]
            if isinstance(player, Person):
                continue
            if not seat.active:
                self.tiles_left[index] = 0
            elif index in working:
                # The bot has decided but its work lands later on the clock: the page sees
                # its rack as of its last call, plus what it drew since.
                self.tiles_left[index] += len(seat.held) - self.bot_held[index]
            else:
                self.tiles_left[index] = len(seat.held - grid_tiles(player))
            self.bot_held[index] = len(seat.held)

    def person_tiles_left(self) -> None:
        for index, player in enumerate(self.players):
            if isinstance(player, Person):
                self.tiles_left[index] = len(player.rack()) if self.round.seats[index].active else 0

    # -- what pages see ----------------------------------------------------------------------
    def drain_events(self) -> list[dict]:
        """Engine events since the last call, as public log entries."""
        entries = []
        while self.events:
            event = self.events.pop(0)
            entry = self.log_entry(event)
            if entry is not None:
                entries.append(entry)
        self.log.extend(entries)
        return entries

    def log_entry(self, event: dict) -> dict | None:
        kind = event["event"]
        who = self.seats[event["player"]].name if "player" in event else None
        entry = {"t": event["t"], "kind": kind, "who": who}
        if kind == "split":
            entry["hand_size"] = len(event["hands"][0]) if event["hands"] else 0
        elif kind == "bananas" and event.get("grid"):
            player = self.players[event["player"]]
            if isinstance(player, Person):
                player.bananas_cells = Grid.from_rows(event["grid"]).cells()
            self.status[event["player"]] = "called"
        elif kind == "rotten":
            entry["problems"] = event.get("problems", [])[:5]
            self.status[event["player"]] = "rotten"
        elif kind == "left":
            self.status[event["player"]] = "left"
        elif kind == "stuck":
            self.status[event["player"]] = "stuck"
        elif kind == "inspection":
            return None  # the end entry says who won
        elif kind == "end":
            entry.update(
                outcome=event["outcome"], winners=[self.seats[i].name for i in event["winners"]], reason=event["reason"]
            )
            for key in ("time", "words"):
                if key in event:
                    entry[key] = event[key]
        if kind in ("peel", "dump"):
            for index, seat in enumerate(self.round.seats):
                if seat.active and self.status[index] == "stuck":
                    self.status[index] = "building"
        if "bunch" in event:
            entry["bunch"] = event["bunch"]
        return entry

    def table(self) -> dict:
        hand = self.round
        self.person_tiles_left()
        players = []
        for index, seat in enumerate(self.seats):
            status = self.status[index]
            if hand.seats[index].active and status == "stuck" and not hand.seats[index].waiting:
                status = self.status[index] = "building"
            players.append(
                {
                    "seat": index,
                    "name": seat.name,
                    "kind": seat.kind,
                    "tiles_left": self.tiles_left[index],
                    "active": hand.seats[index].active,
                    "status": status,
                    "connected": seat.connected,
                }
            )
        return {
            "type": "table",
            "bunch": len(hand.bunch),
            "active": len(hand.active),
            "players": players,
            "variant": self.rules.variant,
            "min_length": self.rules.min_length,
            "peel_and_dump": self.rules.peel_and_dump,
            "clock": round(self.clock(), 1),
            "over": hand.result is not None,
        }

    def private(self, index: int, restore: bool = False) -> dict:
        player = self.person(index)
        tiles, cells = player.snapshot()
        message = {
            "type": "tiles",
            "held": tiles.letters(),
            "active": self.round.seats[index].active,
            "waiting": self.round.seats[index].waiting,
        }
        if restore:
            message["cells"] = [[row, col, letter] for (row, col), letter in sorted(cells.items())]
        return message

    def check(self, cells: dict[Cell, str]) -> dict:
        """The spellcheck of a page's grid, in the page's own coordinates."""
        if not cells:
            return {"valid": True, "invalid_cells": [], "loose_cells": [], "invalid_words": []}
        top = min(row for row, _ in cells)
        left = min(col for _, col in cells)
        report = validate(Grid.from_cells(cells), self.lexicon, None, self.rules.min_length)
        invalid = sorted({(r + top, c + left) for word in report.invalid_words for r, c in word.cells})
        loose = []
        if len(report.components) > 1:
            biggest = max(report.components, key=len)
            loose = sorted((r + top, c + left) for part in report.components if part is not biggest for r, c in part)
        return {
            "valid": report.ok,
            "invalid_cells": [list(cell) for cell in invalid],
            "loose_cells": [list(cell) for cell in loose],
            "invalid_words": sorted({word.text for word in report.invalid_words}),
        }

    def final_boards(self) -> dict:
        result = self.round.result
        assert result is not None  # called once the hand has ended
        boards = []
        for index, (seat, player) in enumerate(zip(self.seats, self.players, strict=True)):
            if isinstance(player, Person):
                cells = player.snapshot()[1] or player.bananas_cells
                grid = Grid.from_cells(cells) if cells else None
            else:
                grid = player.current_grid() if self.round.seats[index].active else None
            board = {"seat": index, "name": seat.name, "kind": seat.kind, "status": self.status[index], "grid": None}
            if grid is not None:
                report = validate(grid, self.lexicon, None, self.rules.min_length)
                board.update(
                    grid=grid.to_json(),
                    valid=report.ok,
                    invalid_cells=sorted({cell for word in report.invalid_words for cell in word.cells}),
                    words=len(report.words),
                )
            if index in result.winners:
                board["status"] = "winner" if result.outcome in ("win", "shared") else "tied"
            boards.append(board)
        return {
            "type": "end",
            "outcome": result.outcome,
            "winners": [self.seats[i].name for i in result.winners],
            "reason": result.reason,
            "scores": result.scores,
            "boards": boards,
            "clock": round(result.clock, 1),
        }


class Room:
    def __init__(self, room_id: str, number: int, language: str, spellcheck: bool, variant: str, config: WebConfig):
        self.id = room_id
        self.number = number
        self.language = language
        self.spellcheck = spellcheck
        self.variant = variant
        self.config = config
        self.seats: list[Seat] = []
        self.host: Seat | None = None
        self.phase = "lobby"  # lobby | playing | ended
        self.game: Game | SpellevateGame | None = None
        self.spellevate_leader: Seat | None = None  # the last round's winner leads the next
        self.hands = 0
        self.created = self.last_activity = time.monotonic()
        self.connections: dict = {}  # connection -> Seat (None until joined)
        self.driver: asyncio.Task | None = None
        self.closed = False
        self.lobby_lock = asyncio.Lock()  # seats change one message at a time

    # -- sending ------------------------------------------------------------------------------
    def send(self, connection, message: dict) -> None:
        connection.send(message)

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
            "variant": self.variant,
            "phase": self.phase,
            "max_seats": self.config.max_seats,
            "bots": list(self.bot_presets()),
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
        }

    def broadcast_room(self) -> None:
        for connection, seat in list(self.connections.items()):
            if seat is not None:
                connection.send(self.room_state(seat))

    def broadcast_table(self, entries: list[dict] | None = None) -> None:
        game = self.game
        assert isinstance(game, Game)  # Bananagrams tables are broadcast while its game is on
        table = game.table()
        if entries:
            self.broadcast({"type": "log", "entries": entries})
        self.broadcast(table)
        for connection, seat in list(self.connections.items()):
            index = game.index_of(seat) if seat is not None else None
            if index is not None and isinstance(game.players[index], Person):
                private = game.private(index)
                if game.sent_held.get(id(connection)) != (private["held"], private["active"], private["waiting"]):
                    game.sent_held[id(connection)] = (private["held"], private["active"], private["waiting"])
                    connection.send(private)
        if game.round.result is not None and game.final is None:
            game.poke.set()  # the driver stops, however the hand ended (a leave pokes nothing else)
            game.final = game.final_boards()
            self.phase = "ended"
            self.broadcast(game.final)
            self.broadcast_room()

    # -- the messages -------------------------------------------------------------------------
    async def handle(self, connection, message: dict) -> None:
        kind = message.get("type")
        if kind == "join":
            async with self.lobby_lock:
                await self.join(connection, message)
            return
        seat = self.connections.get(connection)
        if seat is None:
            raise RoomError("out_of_order", "join the room first")
        handler = (
            {
                "add_bot": self.add_bot,
                "remove_bot": self.remove_bot,
                "start": self.start,
                "again": self.again,
                "leave": self.leave,
                "grid": self.update_grid,
                "call": self.call,
                "play": self.spellevate_move,
                "pass": self.spellevate_move,
            }.get(kind)
            if isinstance(kind, str)
            else None
        )
        if handler is None:
            raise RoomError("unknown_type", f"unknown message type {quote(kind)}")
        self.last_activity = time.monotonic()
        if kind in ("grid", "call", "play", "pass"):
            await handler(connection, seat, message)
        else:
            async with self.lobby_lock:
                await handler(connection, seat, message)

    async def join(self, connection, message: dict) -> None:
        if self.connections.get(connection) is not None:
            raise RoomError("out_of_order", "already seated")
        token = message.get("token")
        seat = next((s for s in self.seats if s.kind == "person" and same_token(s.token, token)), None)
        if seat is None:
            name = clean_name(message.get("name"))
            if self.phase == "playing":
                raise RoomError("game_running", "a game is under way in this room: try again when it ends")
            if len(self.seats) >= self.config.max_seats:
                raise RoomError("room_full", f"this room is full: {self.config.max_seats} players are seated")
            seat = Seat("person", self.unique_name(name), token=secrets.token_urlsafe(16))
            self.seats.append(seat)
            if self.host is None:
                self.host = seat
        seat.connections.add(connection)
        seat.gone_since = None
        self.connections[connection] = seat
        self.last_activity = time.monotonic()
        connection.send({"type": "welcome", "token": seat.token, "name": seat.name, "room": self.id})
        self.broadcast_room()
        if self.game is not None and not isinstance(self.game, Game):
            self.game.restore(connection, seat)
        elif self.game is not None:
            game = self.game
            connection.send({"type": "log", "entries": game.log, "reset": True})
            self.broadcast(game.table())  # everyone sees the seat connected again
            index = game.index_of(seat)
            if index is not None and isinstance(game.players[index], Person):
                private = game.private(index, restore=True)
                game.sent_held[id(connection)] = (private["held"], private["active"], private["waiting"])
                connection.send(private)
                if self.spellcheck and self.phase == "playing":
                    connection.send({"type": "check", "seq": None, **game.check(game.person(index).snapshot()[1])})
            if game.final is not None:
                connection.send(game.final)

    def unique_name(self, name: str) -> str:
        taken = {s.name for s in self.seats}
        if name not in taken:
            return name
        # The number must survive the cut to MAX_NAME, or the numbered name is the taken
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

    def bot_presets(self) -> dict[str, str]:
        """The bots this room's game seats: preset shown in the page -> bot spec."""
        if self.variant == "spellevate":
            from solver.web.spellevate_room import SPELLEVATE_BOTS

            return SPELLEVATE_BOTS
        return self.config.bots

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

    def rules(self) -> Rules:
        players = len(self.seats)
        variant = self.variant
        if variant == "smoothie":
            engine_variant = "smoothie"
        elif players == 1:
            engine_variant = "solo"  # one person alone plays solo
        else:
            engine_variant = "classic"
        rules = Rules(
            lexicon=self.language,
            distribution=self.distribution(),
            min_length=3 if variant == "three-letter" else 2,
            variant=engine_variant,
        )
        try:
            rules.check_players(players)
        except RuleError as error:
            raise RoomError("bad_start", str(error)) from None
        return rules

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
        if self.variant == "spellevate":
            await self.start_spellevate()
            return
        rules = self.rules()
        seed = self.next_seed()
        game = await asyncio.to_thread(Game, self, rules, seed)  # loads word lists the first time
        self.begin(game)
        async with game.lock:
            game.started = time.monotonic()
            await game.step(game.round.start)
            self.broadcast_table(game.drain_events())
        self.driver = asyncio.create_task(self.drive(game))

    def begin(self, game) -> None:
        """A new hand (or round) is under way: every page hears of it, with a fresh log."""
        self.hands += 1
        self.game = game
        self.phase = "playing"
        self.broadcast_room()
        self.broadcast({"type": "log", "entries": [], "reset": True})

    async def start_spellevate(self) -> None:
        from solver.play.spellevate import SpellevateError
        from solver.web.spellevate_room import SpellevateGame, check_players

        tiles = self.distribution()
        check_players(len(self.seats), tiles)
        leader = self.seats.index(self.spellevate_leader) if self.spellevate_leader in self.seats else None
        seed = self.next_seed()
        try:
            game = await asyncio.to_thread(SpellevateGame, self, tiles, seed, leader)  # loads word lists the first time
        except SpellevateError as error:  # a tile set the rules cannot play (--distribution)
            raise RoomError("bad_start", str(error)) from None
        self.begin(game)
        async with game.lock:
            game.broadcast(game.opening)
        self.driver = asyncio.create_task(game.drive(self.config.spellevate_delay))

    async def spellevate_move(self, connection, seat: Seat, message: dict) -> None:
        game = self.game
        if not (self.phase == "playing" and game is not None and not isinstance(game, Game)):
            raise RoomError("out_of_order", "no Spellevate round is being played")
        await game.person_move(seat, message, passing=message.get("type") == "pass")

    async def drive(self, game: Game) -> None:
        """Advance the engine as the wall clock reaches its events (bots' calls)."""
        hand = game.round
        while hand.result is None and not self.closed:
            delay = None
            if hand.queue:
                delay = max(0.0, game.started + hand.queue[0][0] - time.monotonic())
            try:
                await asyncio.wait_for(game.poke.wait(), timeout=delay)
            except TimeoutError:
                pass
            game.poke.clear()
            async with game.lock:
                if hand.result is None:
                    await game.step(lambda: hand.advance(game.clock()))
                self.broadcast_table(game.drain_events())

    async def again(self, connection, seat: Seat, message: dict) -> None:
        self.need_host(seat)
        if self.phase != "ended":
            raise RoomError("out_of_order", "the game is not over")
        self.phase = "lobby"
        self.game = None
        self.seats = [s for s in self.seats if s.kind == "bot" or s.connections]
        self.broadcast_room()

    async def leave(self, connection, seat: Seat, message: dict) -> None:
        await self.drop_seat(seat)
        connection.send({"type": "bye"})

    async def drop_seat(self, seat: Seat) -> None:
        """A person leaves: from the lobby their seat goes; in a game they are out of the hand."""
        game = self.game
        if self.phase == "playing" and game is not None and (index := game.index_of(seat)) is not None:
            if not isinstance(game, Game):
                await game.leave(index)  # a bot finishes their Spellevate hand
            else:
                async with game.lock:
                    if game.round.result is None:
                        await game.step(lambda: game.round.leave(index, game.clock()))
                    self.broadcast_table(game.drain_events())
        if seat in self.seats and self.phase != "playing":
            self.seats.remove(seat)
        for connection in list(seat.connections):
            self.connections[connection] = None
        seat.connections.clear()
        seat.gone_since = seat.gone_since or time.monotonic()
        seat.token = None  # gone: the seat cannot be taken back
        if self.host is seat:
            self.host = next((s for s in self.seats if s.kind == "person" and s.token), None)
        self.broadcast_room()

    async def update_grid(self, connection, seat: Seat, message: dict) -> None:
        game, index = self.playing_person(seat)
        person = game.person(index)
        cells = parse_cells(message.get("cells"), len(game.round.rules.distribution))
        seq = message.get("seq")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEQ):
            raise RoomError("bad_value", f"seq is an integer from 0 to {MAX_SEQ}")
        before = game.tiles_left[index]
        person.set_cells(cells)
        if self.spellcheck:
            connection.send({"type": "check", "seq": seq, **game.check(cells)})
        game.person_tiles_left()
        if game.tiles_left[index] != before:
            self.broadcast(game.table())

    def playing_person(self, seat: Seat) -> tuple[Game, int]:
        game = self.game
        if game is not None and not isinstance(game, Game):
            raise RoomError("out_of_order", "this room plays Spellevate: send a play or a pass")
        index = game.index_of(seat) if game is not None else None
        if game is None or self.phase != "playing" or game.round.result is not None:
            raise RoomError("out_of_order", "no game is being played")
        if index is None or not isinstance(game.players[index], Person):
            raise RoomError("out_of_order", "you are not playing in this game")
        if not game.round.seats[index].active:
            raise RoomError("out_of_order", "you are out of this hand")
        return game, index

    async def call(self, connection, seat: Seat, message: dict) -> None:
        game, index = self.playing_person(seat)
        call = message.get("call")
        if call not in ("peel", "dump", "bananas", "stuck"):
            raise RoomError("bad_value", "call is peel, dump, bananas or stuck")
        tile = message.get("tile") if call == "dump" else None
        if call == "dump" and not (isinstance(tile, str) and len(tile) == 1 and "A" <= tile <= "Z"):
            raise RoomError("bad_letters", "dump one tile, a letter A-Z")
        person = game.person(index)
        async with game.lock:
            if game.round.result is not None or not game.round.seats[index].active:
                raise RoomError("out_of_order", "the hand is over for you")
            view = game.round.view()
            rack = person.rack()
            if call == "peel" and not (view.can_peel and len(rack) == 0):
                raise RoomError(
                    "not_now",
                    "PEEL needs an empty rack and a tile in the bunch for every player"
                    if game.rules.peel_and_dump
                    else "no PEEL in this variant",
                )
            if call == "dump":
                assert tile is not None  # a dump's tile was checked above
                if not view.can_dump:
                    raise RoomError(
                        "not_now",
                        "DUMP needs three tiles in the bunch"
                        if game.rules.peel_and_dump
                        else "no DUMP in this variant",
                    )
                if not rack.contains(TileCounts.from_letters(tile)):
                    raise RoomError("not_your_tile", f"there is no {tile} in your rack")
            if call == "bananas":
                if not view.can_bananas:
                    raise RoomError("not_now", "BANANAS only when the bunch has fewer tiles than players")
                if len(rack) or not person.cells:
                    raise RoomError("not_now", "place every tile of your rack before BANANAS")
            decision = Decision("wait" if call == "stuck" else call, tile=tile, grid=person.current_grid())
            await game.step(lambda: game.round.external_call(index, decision, game.clock()))
            self.broadcast_table(game.drain_events())
        game.poke.set()

    # -- connections coming and going --------------------------------------------------------
    def disconnected(self, connection) -> None:
        seat = self.connections.pop(connection, None)
        if seat is not None:
            seat.connections.discard(connection)
            if not seat.connections:
                seat.gone_since = time.monotonic()
            if self.game is not None:
                self.game.sent_held.pop(id(connection), None)
                self.broadcast(self.game.table())
            self.broadcast_room()

    async def sweep(self, now: float) -> None:
        """Persons gone for `absent_seconds` have left the table."""
        for seat in list(self.seats):
            if seat.kind == "person" and not seat.connections and seat.gone_since is not None and seat.token:
                if now - seat.gone_since >= self.config.absent_seconds:
                    async with self.lobby_lock:
                        await self.drop_seat(seat)

    def abandoned(self, now: float) -> str | None:
        """Why this room should close now, if it should."""
        if now - self.last_activity >= self.config.room_idle_seconds:
            return "idle"
        persons = [s for s in self.seats if s.kind == "person" and s.token]
        if not persons and now - self.last_activity >= self.config.absent_seconds:
            return "empty"
        return None

    def close(self, reason: str) -> None:
        self.closed = True
        if self.driver is not None:
            self.driver.cancel()
        message = {"type": "closed", "reason": reason}
        for connection in list(self.connections):
            connection.send(message)
            connection.close()
        self.connections.clear()


class Rooms:
    """Every open room of the server, and the limits on them."""

    def __init__(self, config: WebConfig):
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.created = 0
        if config.distribution:
            try:
                load_distribution(config.distribution)
            except (TileError, OSError, ValueError) as error:
                raise ValueError(f"bad distribution: {error}") from None
        from solver.play.bots import make_bot

        for name, spec in config.bots.items():
            try:
                make_bot(spec)
            except ValueError as error:
                raise ValueError(f"bad bot preset {name}={spec}: {error}") from None

    def create(self, language: str, spellcheck: bool, variant: str) -> Room:
        if language not in LANGUAGES:
            raise RoomError("bad_value", f"language is one of {', '.join(LANGUAGES)}")
        if variant not in VARIANTS:
            raise RoomError("bad_value", f"variant is one of {', '.join(VARIANTS)}")
        if not isinstance(spellcheck, bool):
            raise RoomError("bad_value", "spellcheck is true or false")
        if len(self.rooms) >= self.config.max_rooms:
            raise RoomError("too_many_rooms", f"the server is full ({self.config.max_rooms} rooms): try again later")
        room_id = secrets.token_urlsafe(12)  # 96 random bits: links cannot be guessed
        room = Room(room_id, self.created, language, spellcheck, variant, self.config)
        self.created += 1
        self.rooms[room_id] = room
        return room

    def get(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    async def sweep(self) -> None:
        now = time.monotonic()
        for room_id, room in list(self.rooms.items()):
            await room.sweep(now)
            reason = room.abandoned(now)
            if reason is not None:
                room.close(reason)
                del self.rooms[room_id]

    def close_all(self) -> None:
        for room in self.rooms.values():
            room.close("server stopping")
        self.rooms.clear()


__all__ = ["Game", "GridError", "Person", "Room", "RoomError", "Rooms", "Seat", "parse_cells"]
