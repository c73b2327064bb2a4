"""The boundary between a room and the game played at its table.

A room (`solver.web.rooms`) owns the lobby: seats, the host, reconnect tokens, sockets. What
happens once the host presses Start is a table's: `BananagramsTable`
(`solver.web.bananagrams_table`) or `SpellevateTable` (`solver.web.spellevate_table`), chosen
by the variant's `game` (`solver.play.variants`). The room knows a table only by the
`Table` interface below and hands it a `TableHandle`, never itself: a table can send to the
room's pages and say its hand is over, nothing more.

Adding a kind of table: a class with this interface in a module of its own, and one entry in
`solver.web.rooms.TABLES`. Adding a table message: its name in the table's `messages` and
its case in the table's `on_message` (and a line in docs/ROOMS.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.core.limits import MAX_QUOTED_CHARS
from solver.core.tiles import TileCounts
from solver.play.variants import WayToPlay
from solver.web.coaching import HandReviewer

HINT_COUNTS = (3, 5, 10)  # the hints a person may be shown in a hand, as a room's creator chooses
DEFAULT_HINT_COUNT = 5

log = logging.getLogger("bananas.web")


class RoomError(Exception):
    """A message that cannot be acted on: the page gets `code`, `message` (and `params`, the
    values a translation of `code` names); nothing changes."""

    def __init__(self, code: str, message: str, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}

    def reply(self) -> dict:
        reply: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.params:
            reply["params"] = self.params
        return reply


def quote(value) -> str:
    """A page's value, for an error message: short, whatever it was sent."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTED_CHARS else text[: MAX_QUOTED_CHARS - 3] + "..."


@dataclass
class Seat:
    """A place at the room's table: a person (with a reconnect token) or a bot (a spec)."""

    kind: str  # person | bot | spectator (came while a hand ran: watches, sits at the next)
    name: str
    token: str | None = None  # a person's reconnect token
    spec: str | None = None  # a bot's spec
    preset: str | None = None
    connections: set = field(default_factory=set)
    gone_since: float | None = None  # when the last connection closed
    asks_to_sit: bool = False  # a spectator who asked the host for a seat (`sit`)

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or bool(self.connections)


@dataclass(frozen=True)
class TableSetup:
    """Everything a table is started with: who sits where, and the room's settings."""

    seats: tuple[Seat, ...]
    variant: WayToPlay
    language: str
    distribution: TileCounts
    spellcheck: bool
    seed: int
    last_winner: Seat | None  # the previous hand's winner (Spellevate: they lead)
    bot_delay: float  # seconds before a turn-based bot's move, so a person can follow
    show_letters: bool = False  # the others' grids with their letters while the hand runs (else shapes)
    hand: int = 1  # the room's number for this hand (its log's `hand`)
    hints: bool = False  # the room allows hints (a table may allow them anyway: solo)
    hint_count: int = DEFAULT_HINT_COUNT  # hints a person may be shown in a hand (one of HINT_COUNTS)
    offensive_words: bool = False  # bots, hints and reviews may use slurs and profanity too (else never)


class Commit(Future):
    """A durable room's write (solver.web.persistence): done once it is committed, with the
    others of its batch (or the store has failed). `wait()` is its awaitable on the event
    loop, made once for all its waiters."""

    def __init__(self) -> None:
        super().__init__()
        self.waited: asyncio.Future | None = None

    async def wait(self) -> None:
        if self.waited is None:
            self.waited = asyncio.wrap_future(self)
        await asyncio.shield(self.waited)  # a waiter cancelled leaves the others waiting


class TableHandle:
    """What a table may do to its room: send to the pages, start its driver task, and say
    that its hand is over. Built by the room; a table never sees the room itself."""

    def __init__(
        self,
        room_id: str,
        pages: Callable[[], list[tuple[Any, Seat | None]]],
        ended: Callable[[Seat | None], None],
        is_closed: Callable[[], bool],
    ):
        self.room_id = room_id
        self._pages = pages
        self._ended = ended
        self._is_closed = is_closed
        self.tasks: list[asyncio.Task] = []
        # A durable room's store (solver.web.persistence.keep_table), as the table may use it
        # through `record_*`: each returns the write's Commit (done once committed), None for
        # a room kept in memory only.
        self.store_input: Callable[[int, dict], Commit | None] = lambda seq, entry: None
        self.store_progress: Callable[[dict], Commit | None] = lambda progress: None
        self.store_live: Callable[[int, list, dict | None], Commit | None] = lambda seat, cells, progress: None
        self.last_write: Commit | None = None  # the store commits in order: the last write says all

    # -- a durable room's writes ---------------------------------------------------------------
    def record_input(self, seq: int, entry: dict) -> None:
        """The hand's `seq`th input (its journal entry), as the hand takes it (any thread)."""
        self._written(self.store_input(seq, entry))

    def record_progress(self, progress: dict) -> None:
        """The hand's progress besides its inputs (`Table.progress`)."""
        self._written(self.store_progress(progress))

    def record_live(self, seat: int, cells: list, progress: dict | None) -> None:
        """A person's live grid (`[[row, col, letter], ...]`), with the hand's progress if given."""
        self._written(self.store_live(seat, cells, progress))

    def _written(self, write: Commit | None) -> None:
        if write is not None:
            self.last_write = write

    async def committed(self) -> None:
        """Wait until every write recorded so far is committed: what a person is answered stays."""
        if self.last_write is not None:
            await self.last_write.wait()

    def pages(self) -> Iterator[tuple[Any, Seat]]:
        """Each joined page's connection, and the seat it acts for."""
        for connection, seat in self._pages():
            if seat is not None:
                yield connection, seat

    def broadcast(self, message: dict) -> None:
        for connection, _ in self.pages():
            connection.send(message)

    def ended(self, winner: Seat | None) -> None:
        """The hand (or round) is over: the room shows its end and offers another."""
        self._ended(winner)

    @property
    def closed(self) -> bool:
        return self._is_closed()

    def spawn(self, work) -> None:
        """Run `work` (a coroutine: the table's driver) until it ends or the room closes."""
        self.tasks.append(asyncio.create_task(work))

    def cancel(self) -> None:
        for task in self.tasks:
            task.cancel()


class Table(Protocol):
    """A game at a room's table, as the room drives it (see the module docstring)."""

    messages: frozenset[str]  # the page messages `on_message` takes (every other type is the room's)
    # Whether a durable room saves this table's hand (solver.web.persistence): then the table
    # takes `resume` (a SavedHand) as a third argument and has `progress()`.
    durable: bool

    async def start(self) -> None:
        """Deal and begin: tell every page, and spawn the driver through the handle."""

    def restore(self, connection, seat: Seat) -> None:
        """A page (re)joining while the table is up: its log, the table and its own tiles."""

    async def on_message(self, connection, seat: Seat, message: dict) -> None:
        """One of `messages` from the page of `seat`; RoomError when it cannot be acted on."""

    async def leave(self, seat: Seat) -> None:
        """A person leaves the table for good (gone too long, or Leave)."""

    def disconnected(self, connection) -> None:
        """A page's connection closed (its seat may come back)."""

    def seated(self, seat: Seat) -> bool:
        """Whether `seat` was dealt into this table's hand."""

    def progress(self) -> dict:
        """A durable table's progress besides its hand's inputs (what `resume` takes back)."""

    def hand_log(self) -> str | None:
        """The hand's event log (JSON lines, docs/ROOMS.md) once it is over; None while it
        runs, or for a game that keeps none."""

    def reviewer(self) -> HandReviewer | None:
        """The hand's review once it is over, worked out when a page first asks for it; None
        while it runs, or for a game without one."""


class ReviewShelf:
    """A room's reviews of its last `keep` ended hands, each worked out when a page first asks
    for it (solver.web.coaching.HandReviewer) and sent to each page that asked once it is; the
    room's messages go on meanwhile."""

    def __init__(self, keep: int):
        self.keep = keep
        self.reviewers: dict[int, HandReviewer] = {}
        self.answering: set[asyncio.Task] = set()

    def put(self, hand: int, reviewer: HandReviewer | None) -> None:
        if reviewer is not None:
            self.reviewers[hand] = reviewer
            for old in sorted(self.reviewers)[: -self.keep]:
                del self.reviewers[old]

    def ask(self, connection, hand: object) -> None:
        """`connection` gets hand `hand`'s `review` message once it is worked out."""
        if not isinstance(hand, int) or isinstance(hand, bool):
            raise RoomError("bad_value", "hand is a hand's number")
        reviewer = self.reviewers.get(hand)
        if reviewer is None:
            raise RoomError(
                "no_review",
                f"no review of hand {quote(hand)}: a room reviews its last {self.keep} Bananagrams hands"
                " ended since the server started",
            )
        task = asyncio.create_task(self.answer(connection, reviewer))
        self.answering.add(task)
        task.add_done_callback(self.answering.discard)

    @staticmethod
    async def answer(connection, reviewer: HandReviewer) -> None:
        connection.send(await reviewer.message())


TableFactory = Callable[[TableSetup, TableHandle], Table]
