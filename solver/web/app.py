"""The ASGI app of `bananas serve`: the browser game's page, its rooms, and the engine protocol.

GET  /                     the page (home: name, language, spellcheck, variant, create room)
POST /api/rooms            create a room -> {"id", "url"}
GET  /r/{room}             the page, showing that room (a clear 404 page when there is none)
GET  /r/{room}/qr.svg      the room link as a QR code (drawn here with segno)
WS   /r/{room}/ws          the room's messages (join, seats, the game), JSON text frames
WS   /engine  (and /)      the engine protocol (docs/PROTOCOL.md), one Session per connection
GET  /static/...           the page's CSS and ES modules (package data: no build, no CDN)
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from solver.protocol.session import Session
from solver.web.config import TokenBucket, WebConfig
from solver.web.rooms import Room, RoomError, Rooms

STATIC = Path(__file__).resolve().parent / "static"
MAX_QUEUED = 2000  # messages waiting for a page that does not read: past this it is dropped
log = logging.getLogger("bananas.web")

NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No such room - Bananas</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="notfound"><h1>No such room</h1>
<p>This room does not exist, or it has closed (rooms close when nobody plays in them for a while).</p>
<p>Pas de salle à cette adresse : elle n'existe pas ou a été fermée.</p>
<p><a class="button primary" href="/">Create a new room</a></p></main></body></html>
"""


class Connection:
    """A page's WebSocket: messages are queued and written by one task, so a slow reader
    never holds up a broadcast."""

    def __init__(self, websocket: WebSocket):
        self.websocket = websocket
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closing = False

    def send(self, message: dict) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        if not self.closing:
            self.closing = True
            self.queue.put_nowait(None)

    async def write(self) -> None:
        with contextlib.suppress(Exception):
            while (message := await self.queue.get()) is not None:
                await self.websocket.send_text(json.dumps(message, separators=(",", ":")))
            await self.websocket.close(1000)


_warm = threading.Lock()


def warm_up() -> None:
    """Load the English word list and the compiled kernels once per process, in the
    background, so the first game's bots do not stall on it."""
    if not _warm.acquire(blocking=False):
        return
    try:
        from solver.search import solve

        solve("CATMAP", lexicon="en", time_limit=5.0)
    except Exception:  # noqa: BLE001 - a warm-up only: the first game pays instead
        log.exception("warm-up")


def frame_of(message: Mapping[str, Any]) -> str | bytes | None:
    return message.get("text") if message.get("text") is not None else message.get("bytes")


def create_app(config: WebConfig | None = None) -> Starlette:
    config = config or WebConfig()
    rooms = Rooms(config)
    engine_sessions = {"open": 0}

    def base_url(request: Request | WebSocket) -> str:
        if config.public_url:
            return config.public_url.rstrip("/")
        return str(request.base_url).rstrip("/")

    async def page(request: Request) -> Response:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def room_page(request: Request) -> Response:
        if rooms.get(request.path_params["room"]) is None:
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        return await page(request)

    async def create_room(request: Request) -> Response:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            return JSONResponse({"code": "bad_json", "message": "send a JSON object"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"code": "bad_json", "message": "send a JSON object"}, status_code=400)
        try:
            room = rooms.create(
                body.get("language", "en"), body.get("spellcheck", True), body.get("variant", "classic")
            )
        except RoomError as error:
            status = 503 if error.code == "too_many_rooms" else 400
            return JSONResponse({"code": error.code, "message": error.message}, status_code=status)
        return JSONResponse({"id": room.id, "url": f"{base_url(request)}/r/{room.id}"}, status_code=201)

    async def qr_code(request: Request) -> Response:
        room = rooms.get(request.path_params["room"])
        if room is None:
            return Response("no such room", status_code=404, media_type="text/plain")
        buffer = io.BytesIO()
        segno.make(f"{base_url(request)}/r/{room.id}", error="m").save(
            buffer, kind="svg", scale=5, border=2, xmldecl=False, dark="#1d1a05", light="#ffffff"
        )
        return Response(buffer.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def room_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        room: Room | None = rooms.get(websocket.path_params["room"])
        if room is None or room.closed:
            await websocket.send_json({"type": "error", "code": "no_room", "message": "this room does not exist"})
            await websocket.close(4404)
            return
        connection = Connection(websocket)
        writer = asyncio.create_task(connection.write())
        room.connections[connection] = None
        bucket = TokenBucket(config.messages_per_second, config.message_burst)
        warned = 0.0
        try:
            while not connection.closing:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                frame = frame_of(message)
                if not bucket.take():
                    if time.monotonic() - warned > 1.0:  # one notice a second, not one per message
                        warned = time.monotonic()
                        connection.send(
                            {
                                "type": "error",
                                "code": "rate_limited",
                                "message": f"too many messages (limit {config.messages_per_second:g}/s): slow down",
                            }
                        )
                    continue
                await handle_frame(room, connection, frame)
        except WebSocketDisconnect:
            pass
        finally:
            room.disconnected(connection)
            connection.close()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, 5)

    async def handle_frame(room: Room, connection: Connection, frame) -> None:
        size = len(frame.encode("utf-8", "surrogatepass")) if isinstance(frame, str) else len(frame or b"")
        try:
            if size > config.max_message_bytes:
                raise RoomError("too_large", f"a message may hold at most {config.max_message_bytes} bytes")
            try:
                message = json.loads(frame)
            except (ValueError, TypeError, RecursionError):
                raise RoomError("bad_json", "a message is one JSON object") from None
            if not isinstance(message, dict):
                raise RoomError("bad_json", "a message is one JSON object")
            await room.handle(connection, message)
        except RoomError as error:
            connection.send({"type": "error", "code": error.code, "message": error.message})
        except Exception as error:  # a bug of ours must not end the room: report it
            log.exception("room %s", room.id)
            connection.send({"type": "error", "code": "internal", "message": f"{type(error).__name__}: {error}"})

    async def engine_socket(websocket: WebSocket) -> None:
        """The engine protocol, as `bananas engine` speaks it on stdio (docs/PROTOCOL.md)."""
        limits = config.engine
        await websocket.accept()
        if engine_sessions["open"] >= limits.max_sessions:
            await websocket.close(1013, "too many sessions")
            return
        engine_sessions["open"] += 1
        try:
            # Network clients may not make the server read its files.
            session = Session(allow_paths=False, max_message_bytes=limits.max_message_bytes)
            await serve_session(websocket, session, limits)
        except WebSocketDisconnect:
            pass
        finally:
            engine_sessions["open"] -= 1

    async def serve_session(websocket: WebSocket, session: Session, limits) -> None:
        last_heard = time.monotonic()
        while not session.closed:
            now = time.monotonic()
            wakeup = session.next_wakeup()
            idle_left = last_heard + limits.idle_timeout - now
            if idle_left <= 0:
                await websocket.close(1000, "idle timeout")
                return
            timeout = idle_left if wakeup is None else max(0.0, min(idle_left, wakeup - now))
            try:
                message = await asyncio.wait_for(websocket.receive(), timeout)
            except TimeoutError:
                await send_all(websocket, await asyncio.to_thread(session.tick, time.monotonic()))
                continue
            if message["type"] == "websocket.disconnect":
                return
            frame = frame_of(message) or ""
            if len(frame if isinstance(frame, bytes) else frame.encode("utf-8", "surrogatepass")) > (
                limits.max_message_bytes
            ):
                await websocket.close(1009, "message too big")
                return
            last_heard = time.monotonic()
            await send_all(websocket, await asyncio.to_thread(session.receive, frame, last_heard))
        await websocket.close(1000, "bye")

    async def send_all(websocket: WebSocket, messages: list[dict]) -> None:
        for message in messages:
            await websocket.send_text(json.dumps(message, separators=(",", ":")))

    async def janitor() -> None:
        """Persons gone too long leave; idle and empty rooms close."""
        period = max(0.05, min(1.0, config.absent_seconds / 4, config.room_idle_seconds / 4))
        while True:
            await asyncio.sleep(period)
            try:
                await rooms.sweep()
            except Exception:  # noqa: BLE001 - the sweeper must outlive one bad room
                log.exception("room sweep")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        asyncio.get_running_loop().run_in_executor(None, warm_up)
        task = asyncio.create_task(janitor())
        try:
            yield
        finally:
            task.cancel()
            rooms.close_all()

    routes = [
        Route("/", page),
        WebSocketRoute("/", engine_socket),  # where earlier `bananas serve` clients connect
        WebSocketRoute("/engine", engine_socket),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/r/{room}", room_page),
        Route("/r/{room}/qr.svg", qr_code),
        WebSocketRoute("/r/{room}/ws", room_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.rooms = rooms
    app.state.config = config
    return app
