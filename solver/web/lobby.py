"""The server's lobby: every open room, created under its limits, swept, saved and restored.

`Rooms` is what the server holds of its rooms (`solver.web.rooms.Room`, one each): a new room
is checked (language, variant, switches), held to the server's cap and its creator's quotas
(open rooms per address, and rooms a minute: the one rate limiter of `solver.web.rates`, in
the workers' shared table under `serve --processes N`), and saved to the room database when
there is one (`solver.web.persistence`); idle and abandoned rooms are swept out, and a
restarted durable server brings its rooms back, each hand where it was.
"""

from __future__ import annotations

import math
import secrets
import time

from solver.core.limits import MAX_TRACKED_CLIENTS
from solver.core.tiles import TileError, load_distribution
from solver.play.presets import check_spec
from solver.play.variants import BANANAGRAMS
from solver.web.config import WebConfig
from solver.web.persistence import RoomStore
from solver.web.quotas import client_counter
from solver.web.rates import rate_limiter
from solver.web.rooms import LANGUAGES, ROOM_VARIANTS, ClientQuota, Room
from solver.web.table import DEFAULT_HINT_COUNT, HINT_COUNTS, RoomError, log


class Rooms:
    """Every open room of the server, and the limits on them."""

    def __init__(self, config: WebConfig):
        self.config = config
        self.store = RoomStore(config.db) if config.db is not None else None
        self.rooms: dict[str, Room] = {}
        self.created = 0
        # Each client address's open rooms (in the workers' shared table under --processes) ...
        self.held = client_counter(config.quotas, "rooms", math.inf, config.rooms_per_client)
        per_minute = config.room_creations_per_minute  # ... and its room-creation rate
        self.creations = rate_limiter(config.quotas, "room_creations", per_minute / 60, per_minute, MAX_TRACKED_CLIENTS)
        if config.distribution:
            try:
                load_distribution(config.distribution)
            except (TileError, OSError, ValueError) as error:
                raise ValueError(f"bad distribution: {error}") from None
        for name, spec in config.bots.items():
            try:
                check_spec(BANANAGRAMS, spec)
            except ValueError as error:
                raise ValueError(f"bad bot preset {name}={spec}: {error}") from None

    def create(
        self,
        language: str,
        spellcheck: bool,
        variant: str,
        show_letters: bool = False,
        client: str | None = None,
        hints: bool = False,
        hint_count: int = DEFAULT_HINT_COUNT,
        offensive_words: bool = False,
    ) -> Room:
        """A new room; `client` (the creator's address) is held to its quotas (None: no quota,
        for callers in the process)."""
        if language not in LANGUAGES:
            raise RoomError("bad_value", f"language is one of {', '.join(LANGUAGES)}")
        if variant not in ROOM_VARIANTS:
            raise RoomError("bad_value", f"variant is one of {', '.join(ROOM_VARIANTS)}")
        switches = zip(
            ("spellcheck", "show_letters", "hints", "offensive_words"),
            (spellcheck, show_letters, hints, offensive_words),
        )
        for name in (name for name, value in switches if not isinstance(value, bool)):
            raise RoomError("bad_value", f"{name} is true or false")
        if not isinstance(hint_count, int) or isinstance(hint_count, bool) or hint_count not in HINT_COUNTS:
            raise RoomError("bad_value", f"hint_count is one of {', '.join(map(str, HINT_COUNTS))}")
        if len(self.rooms) >= self.config.max_rooms:
            raise RoomError("too_many_rooms", f"the server is full ({self.config.max_rooms} rooms): try again later")
        if client is not None:
            self.charge(client)
        room_id = secrets.token_urlsafe(12)  # 96 random bits: links cannot be guessed
        if self.config.room_prefix is not None:  # which server holds it, for a proxy in front of several
            room_id = f"{self.config.room_prefix}-{room_id}"
        settings = (language, spellcheck, variant, self.config, show_letters, hints, self.store, hint_count)
        room = Room(room_id, self.created, *settings, offensive_words=offensive_words)
        room.creator = client
        self.created += 1
        self.rooms[room_id] = room
        room.save()
        return room

    def charge(self, client: str) -> None:
        """Count one more room against `client`'s quotas, or refuse it (ClientQuota)."""
        if not self.held.take(client):
            most = self.config.rooms_per_client
            raise ClientQuota("too_many_rooms", f"you have {most} rooms open: play in one, or wait for one to close")
        if not self.creations.take(client):
            self.held.give_back(client)
            per_minute = self.config.room_creations_per_minute
            raise ClientQuota("rate_limited", f"at most {per_minute} new rooms a minute: try again shortly")

    def discard(self, room: Room) -> None:
        counted = self.rooms.pop(room.id, None) is not None
        if self.store is not None:
            self.store.delete_room(room.id)
        if counted and room.charged and room.creator is not None:
            self.held.give_back(room.creator)

    def get(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    async def sweep(self) -> None:
        now = time.monotonic()
        for room in list(self.rooms.values()):
            await room.sweep(now)
            reason = room.abandoned(now)
            if reason is not None:
                room.close(reason)
                self.discard(room)

    def close_all(self) -> None:
        """The server stops: saved rooms are suspended (they resume at the next start on the
        same database), the others close."""
        for room in list(self.rooms.values()):
            if self.store is not None and self.store.failed is None:
                room.suspend()
                self.rooms.pop(room.id, None)
            else:
                room.close("server stopping")
                self.discard(room)
        if self.store is not None:
            self.store.flush()  # every room and hand saved before the process ends

    async def restore(self) -> int:
        """Bring back the rooms the store holds (this server's, by `room_prefix`): each as it
        was saved, its hand taken up where it was. A room with no person seated, idle past
        `room_idle_seconds`, or that cannot be rebuilt, is closed. Restored rooms count as open
        rooms, not against their creators' quotas: a restart never stops anyone from creating
        rooms. The number of rooms restored."""
        if self.store is None:
            return 0
        restored = 0
        for saved in self.store.load(self.config.room_prefix):
            room_id = saved.record.get("id", "?")
            try:
                room = Room.from_record(saved.record, self.config, self.store)
                if not room.has_person() or room.abandoned(time.monotonic()) is not None:
                    self.store.delete_room(room_id)
                    continue
                self.rooms[room.id] = room
                await room.resume(saved.hand)
            except Exception:  # noqa: BLE001 - one room that cannot come back must not stop the server
                log.exception("room %s could not be restored: dropped", room_id)
                self.rooms.pop(room_id, None)
                self.store.delete_room(room_id)
                continue
            room.charged = False  # its creator's quota was the last server's
            self.created = max(self.created, room.number + 1)
            restored += 1
        return restored
