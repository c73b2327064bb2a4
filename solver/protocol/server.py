"""`bananas serve`: the engine protocol over WebSocket, many isolated sessions.

Each connection gets its own `solver.protocol.session.Session`; a text frame is one protocol
message, and every reply is one text frame. Limits: message size (larger frames are
refused by the WebSocket layer and the connection closed with 1009), concurrent
sessions (a connection beyond the limit is closed with 1013 "try again later") and idle
time (a session that sends nothing for `idle_timeout` seconds is closed with 1000).
Loopback only by default. Uses the `websockets` library (asyncio).

A session's work runs in a worker thread, so the event loop keeps reading and writing
every socket meanwhile; the numba kernels release the GIL while they search, so busy
sessions can use more than one core.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import websockets

from solver.protocol.session import MAX_MESSAGE_BYTES, Session


@dataclass
class Limits:
    max_sessions: int = 64
    idle_timeout: float = 300.0
    max_message_bytes: int = MAX_MESSAGE_BYTES


class Server:
    def __init__(self, limits: Limits = Limits()):
        self.limits = limits
        self.sessions = 0

    async def handle(self, connection) -> None:
        if self.sessions >= self.limits.max_sessions:
            await connection.close(1013, "too many sessions")
            return
        self.sessions += 1
        try:
            # Network clients may not make the server read its files.
            session = Session(allow_paths=False, max_message_bytes=self.limits.max_message_bytes)
            await self.serve_session(connection, session)
        except websockets.ConnectionClosed:
            pass  # the client vanished: its session is simply dropped
        finally:
            self.sessions -= 1

    async def serve_session(self, connection, session: Session) -> None:
        last_heard = time.monotonic()
        while not session.closed:
            now = time.monotonic()
            wakeup = session.next_wakeup()
            idle_left = last_heard + self.limits.idle_timeout - now
            if idle_left <= 0:
                await connection.close(1000, "idle timeout")
                return
            timeout = idle_left if wakeup is None else max(0.0, min(idle_left, wakeup - now))
            try:
                frame = await asyncio.wait_for(connection.recv(), timeout)
            except TimeoutError:
                await self.send(connection, await asyncio.to_thread(session.tick, time.monotonic()))
                continue
            last_heard = time.monotonic()
            replies = await asyncio.to_thread(session.receive, frame, last_heard)
            await self.send(connection, replies)
        await connection.close(1000, "bye")

    @staticmethod
    async def send(connection, messages: list[dict]) -> None:
        for message in messages:
            await connection.send(json.dumps(message, separators=(",", ":")))


async def serve(host: str = "127.0.0.1", port: int = 8765, limits: Limits = Limits(), ready=None) -> None:
    """Run until cancelled. `ready`, if given, is an asyncio.Event set once listening
    (its `port` attribute is set to the bound port, useful with port 0)."""
    server = Server(limits)
    async with websockets.serve(server.handle, host, port, max_size=limits.max_message_bytes) as listener:
        if ready is not None:
            ready.port = listener.sockets[0].getsockname()[1]
            ready.set()
        await asyncio.Future()
