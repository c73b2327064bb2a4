"""The ASGI app of `bananas serve`: the browser game's page, its rooms, and the engine protocol.

GET  /                     the page (home: name, language, spellcheck, variant, create room)
POST /api/rooms            create a room -> {"id", "url"}
GET  /r/{room}             the page, showing that room (a clear 404 page when there is none)
GET  /r/{room}/qr.svg      the room link as a QR code (drawn here with segno)
WS   /r/{room}/ws          the room's messages (join, seats, the game), JSON text frames
WS   /engine  (and /)      the engine protocol (docs/PROTOCOL.md), one Session per connection
GET  /static/...           the page's CSS and ES modules (package data: no build, no CDN)

`Server` holds what the server runs on (its rooms, the engine sessions and their rate, the
solver's pool, its load and metrics), each route a method of it; `create_app(config)` builds
one and returns its app.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

from solver.core.limits import (
    MAX_API_JOBS_PER_CLIENT,
    MAX_QUEUED_PAGE_MESSAGES,
    MAX_ROOM_CONNECTIONS,
    MAX_TRACKED_CLIENTS,
    TABLE_THREADS_PER_CORE,
    Limits,
)
from solver.lexicon.loader import get_lexicon
from solver.protocol.fair import FairPool
from solver.protocol.network import CLOSE_CODES, drive_session, load_for_cheap_requests
from solver.protocol.session import Session
from solver.search import native
from solver.web.config import ClientCounter, WebConfig
from solver.web.gate import Gate, client_of
from solver.web.health import Load, LoopWatch, Metrics, health_routes, settle_collector, shed_response
from solver.web.lobby import Rooms
from solver.web.quotas import client_counter
from solver.web.rates import TokenBucket, admit, rate_limiter
from solver.web.rooms import ClientQuota, Room
from solver.web.solve_api import solve_routes
from solver.web.table import DEFAULT_HINT_COUNT, RoomError

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("bananas.web")

# The page for a room that is not there, in the reader's language (the room's is unknown).
NOT_FOUND_TEXTS = {
    "en": (
        "No such room",
        "This room does not exist, or it has closed (rooms close when nobody plays in them for a while).",
        "Create a new room",
    ),
    "fr": (
        "Pas de salle à cette adresse",
        "Cette salle n'existe pas, ou elle a fermé (une salle ferme quand personne n'y joue pendant un moment).",
        "Créer une salle",
    ),
}
NOT_FOUND_PAGE = """<!doctype html>
<html lang="{language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Bananas</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="notfound"><h1>{title}</h1>
<p>{text}</p>
<p><a class="button primary" href="/">{create}</a></p></main></body></html>
"""


def reader_language(request: Request) -> str:
    """'fr' when the browser's Accept-Language puts French before English, else 'en'."""
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith(("fr", "en")):
            return tag[:2]
    return "en"


def not_found_page(request: Request) -> HTMLResponse:
    language = reader_language(request)
    title, text, create = NOT_FOUND_TEXTS[language]
    page = NOT_FOUND_PAGE.format(language=language, title=title, text=text, create=create)
    return HTMLResponse(page, status_code=404)


def room_page_html(language: str, preview: dict | None = None) -> str:
    """The page, told the room's language before any message: an invitee's join form, its
    refusals and the browser's own reading of the page are in it from the first screen. With
    `preview` (`Room.preview`) the join form also says who sits and what is played: a JSON
    script element, its `<` escaped so no name can close the element."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace('<html lang="en">', f'<html lang="{language}" data-room-language="{language}">', 1)
    if preview is not None:
        data = json.dumps(preview, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
        script = f'<script type="application/json" id="room-preview">{data}</script>'
        html = html.replace("</head>", f"  {script}\n</head>", 1)
    return html


class Connection:
    """A page's WebSocket: messages are queued and written by one task, so a slow reader
    never holds up a broadcast. A page that lets MAX_QUEUED_PAGE_MESSAGES messages pile up, or blocks one
    write for `write_timeout` seconds, is dropped (its person may reconnect). While the socket
    takes writes, each message is written as a frame straight to it (`FrameWriter`); else,
    and under a server without one, through ASGI's send, which waits for the socket."""

    def __init__(self, websocket: WebSocket, write_timeout: float):
        self.websocket = websocket
        self.write_timeout = write_timeout
        self.frames = FrameWriter.of(websocket)
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closing = False
        self.close_code = 1000
        self.unjoined_since: float | None = None  # since when no seat is bound to it (join_seconds)

    def send(self, message: dict) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUED_PAGE_MESSAGES:
            self.close()
            return
        self.queue.put_nowait(BROADCAST_TEXT.encode(message))

    def close(self, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def write(self) -> None:
        with contextlib.suppress(Exception):
            try:
                while (text := await self.queue.get()) is not None:
                    if self.frames is None or not self.frames.write(text):
                        await asyncio.wait_for(self.websocket.send_text(text), self.write_timeout)
                await asyncio.wait_for(self.websocket.close(self.close_code), self.write_timeout)
            except TimeoutError:
                self.closing = True
                abort(self.websocket)


class FrameWriter:
    """A room socket's text frames written straight to its connection, when the server is
    uvicorn's websockets-sansio protocol (`uvicorn_runner`): ASGI's send would take a chain of
    coroutines per message (Starlette's, the middlewares', uvicorn's), a cost paid for every
    message to every page. It writes only while the connection is open and takes writes (its
    buffer below the transport's high-water mark), as uvicorn's own send would, and says so;
    else the caller sends through ASGI, which waits for the socket or fails as it should."""

    def __init__(self, protocol: WebSocketsSansIOProtocol):
        self.protocol = protocol

    @classmethod
    def of(cls, websocket: WebSocket) -> FrameWriter | None:
        protocol = getattr(websocket, "scope", {}).get(PROTOCOL)
        return cls(protocol) if isinstance(protocol, WebSocketsSansIOProtocol) else None

    def write(self, text: str) -> bool:
        """Write `text` as one text frame now; False (nothing written) when it cannot be."""
        protocol = self.protocol
        if (
            protocol.disconnected
            or protocol.close_sent
            or not protocol.handshake_complete
            or protocol.initial_response is not None
            or not protocol.writable.is_set()
            or protocol.transport.is_closing()
        ):
            return False
        try:
            protocol.conn.send_text(text.encode())
        except InvalidState:
            return False
        protocol.transport.write(b"".join(protocol.conn.data_to_send()))
        return True


class EncodedOnce:
    """A broadcast sends one message (the same dict) to every page of a room, one page after
    another in one turn of the event loop: its JSON is made once, for the first page, and
    reused for the others. Forgotten at the next turn, so a message changed and sent again
    later is encoded again."""

    def __init__(self) -> None:
        self.last: tuple[dict, str] | None = None

    def encode(self, message: dict) -> str:
        if self.last is not None and self.last[0] is message:
            return self.last[1]
        text = encode_for_page(message)
        with contextlib.suppress(RuntimeError):  # outside an event loop: nothing to reuse
            entry = (message, text)
            asyncio.get_running_loop().call_soon(self.forget, entry)
            self.last = entry
        return text

    def forget(self, entry: tuple[dict, str]) -> None:
        if self.last is entry:
            self.last = None


def encode_for_page(message: dict) -> str:
    """A message to a page as strict JSON. Nothing we send may hold NaN or an infinity
    (JSON.parse rejects them): the values are made finite where they are computed, and a
    message that still fails is replaced by an `internal` error rather than silently ending
    the page's writer."""
    try:
        return json.dumps(message, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError) as error:
        log.error("unencodable message to a page (%s): %.200r", error, message)
        return json.dumps({"type": "error", "code": "internal", "message": "the server could not encode a message"})


BROADCAST_TEXT = EncodedOnce()


async def handle_frame(room: Room, connection, frame: str | bytes | None, max_bytes: int) -> None:
    """One frame from a page: checked, parsed and handed to its room; every problem is one
    `error` message to that page, and the connection goes on."""
    try:
        if isinstance(frame, bytes):
            raise RoomError("bad_json", "binary frames are not accepted: send JSON as text frames")
        if size_of(frame or "") > max_bytes:
            raise RoomError("too_large", f"a message may hold at most {max_bytes} bytes")
        try:
            message = json.loads(frame or "")
        except (ValueError, TypeError, RecursionError):
            raise RoomError("bad_json", "a message is one JSON object") from None
        if not isinstance(message, dict):
            raise RoomError("bad_json", "a message is one JSON object")
        await room.handle(connection, message)
    except RoomError as error:
        connection.send(error.reply())
    except Exception as error:  # a bug of ours must not end the room: report it
        log.exception("room %s", room.id)
        connection.send({"type": "error", "code": "internal", "message": f"{type(error).__name__}: {error}"[:300]})


_warm = threading.Lock()


def warm_english_kernels() -> None:
    """Load the English word list and the compiled kernels once per process, in the
    background, so the first game's bots do not stall on it."""
    if not _warm.acquire(blocking=False):
        return
    try:
        from solver.search.solving import warm_kernels  # numba-backed: loaded off the event loop

        warm_kernels(get_lexicon("en"))
    except Exception:  # noqa: BLE001 - a warm-up only: the first game pays instead
        log.exception("warm-up")


def frame_of(message: Mapping[str, Any]) -> str | bytes | None:
    return message.get("text") if message.get("text") is not None else message.get("bytes")


def size_of(frame: str | bytes) -> int:
    return len(frame) if isinstance(frame, bytes) else len(frame.encode("utf-8", "surrogatepass"))


class TooLarge(Exception):
    """A frame or request body over its size limit (a WebSocket is closed with 1009)."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than `limit` bytes (Starlette's own reader has no bound)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge
    return bytes(body)


def engine_frames(
    websocket: WebSocket, limits: Limits, admitted: Callable[[], Awaitable[object]]
) -> Callable[[], Awaitable[str | bytes]]:
    """The `receive` of `drive_session`: the next frame's text or bytes, each passed on once
    `admitted()` returns (the client's message rate); raises WebSocketDisconnect when the client goes,
    TooLarge past the message limit."""

    async def receive() -> str | bytes:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        frame = frame_of(message) or ""
        if size_of(frame) > limits.max_message_bytes:
            raise TooLarge
        await admitted()  # (the next frame is not read meanwhile)
        return frame

    return receive


class TransportInScope:
    """ASGI middleware: keeps the connection's transport in the scope, for `abort`. ASGI has
    no abort, and a close frame would queue behind the bytes a slow reader never reads, so
    this reaches uvicorn's protocol (the bound method that is its raw `send`); the protocol
    too, for `FrameWriter`."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            protocol = getattr(send, "__self__", None)
            scope[TRANSPORT] = getattr(protocol, "transport", None)
            scope[PROTOCOL] = protocol
        await self.app(scope, receive, send)


TRANSPORT = "bananas.transport"
PROTOCOL = "bananas.protocol"


def abort(websocket: WebSocket) -> None:
    """Drop the TCP connection at once (under a server without a transport in reach, the
    connection closes normally when the app returns)."""
    transport = websocket.scope.get(TRANSPORT)
    if transport is not None:
        transport.abort()


async def receive_or_join_timeout(websocket: WebSocket, room: Room, connection, join_seconds: float):
    """The socket's next ASGI message; None when it has been unjoined for `join_seconds`
    (since it opened, or since its seat left)."""
    if room.connections.get(connection) is not None:
        connection.unjoined_since = None
        return await websocket.receive()
    now = time.monotonic()
    connection.unjoined_since = connection.unjoined_since or now
    try:
        return await asyncio.wait_for(websocket.receive(), connection.unjoined_since + join_seconds - now)
    except TimeoutError:
        return None


def server_figures(rooms: Rooms, engine_sessions: ClientCounter, pool: FairPool, load: Load) -> dict:
    """The gauges of /metrics (solver.web.health), read at each scrape: name -> (help, value)."""
    open_rooms = list(rooms.rooms.values())
    depths = pool.depths()
    return {
        "rooms": ("Open rooms", len(open_rooms)),
        "rooms_playing": ("Rooms with a hand in progress", sum(room.phase == "playing" for room in open_rooms)),
        "seats": ("Seats at the rooms' tables, people and bots", sum(len(room.seats) for room in open_rooms)),
        "room_sockets": ("Open page connections to rooms", sum(len(room.connections) for room in open_rooms)),
        "rooms_created": ("Rooms created since the start (a counter)", rooms.created),
        "engine_sessions": ("Open engine sessions (/engine)", engine_sessions.open),
        "pool_waiting": ("Solver jobs waiting for a worker thread", depths["waiting"]),
        "pool_running": ("Solver jobs running", depths["running"]),
        "event_loop_lag_seconds": ("How late the event loop woke, worst of the last 5 s", load.watch.lag()),
        "shedding": ("1 while new work is refused for load", float(bool(load.overloaded()))),
        "db_writes": (
            "Transactions written to the room database (a counter)",
            rooms.store.writes if rooms.store else 0,
        ),
    }


STOP_NOTICE_SECONDS = 0.2  # what the pages' writers get to send the last message at a stop


class Server:
    """What `bananas serve` runs on: its rooms (`solver.web.lobby`), the engine sessions and
    their message rate, the solver's pool, the load it watches and its metrics; each route
    is a method, and `app()` the ASGI app that serves them."""

    def __init__(self, config: WebConfig):
        self.config = config
        self.rooms = Rooms(config)
        self.engine_sessions = client_counter(
            config.quotas, "engine_sessions", config.engine.max_sessions, config.engine_sessions_per_client
        )
        self.engine_rate = config.engine_messages_per_second
        self.engine_messages = rate_limiter(
            config.quotas, "engine_messages", self.engine_rate, config.engine_message_burst, MAX_TRACKED_CLIENTS
        )
        # The engine sessions' heavy messages (those that make a bot think) share these threads,
        # served in turn by client address (solver.protocol.fair), engine sessions first.
        fair = os.environ.get("BANANAS_FAIR_QUEUES") != "0"
        self.pool = FairPool(config.engine.workers, MAX_API_JOBS_PER_CLIENT, fair=fair)
        self.watch = LoopWatch()
        self.on_jit = threading.Event()  # set once the kernels run on numba's JIT (native.library_until_jit)
        self.load = Load(
            self.watch,
            lambda: self.pool.depths()["waiting"],
            lambda: self.rooms.store.failed if self.rooms.store else None,
            kernels_compiling=lambda: not self.on_jit.is_set(),
        )
        self.metrics = Metrics(
            functools.partial(server_figures, self.rooms, self.engine_sessions, self.pool, self.load)
        )

    def base_url(self, request: Request | WebSocket) -> str:
        if self.config.public_url:
            return self.config.public_url.rstrip("/")
        return str(request.base_url).rstrip("/")

    async def page(self, request: Request) -> Response:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def room_page(self, request: Request) -> Response:
        room = self.rooms.get(request.path_params["room"])
        if room is None:
            return not_found_page(request)
        return HTMLResponse(room_page_html(room.language, room.preview()))

    async def create_room(self, request: Request) -> Response:
        why = self.load.overloaded()
        if why:
            self.metrics.refusals.labels("overloaded").inc()
            return shed_response(why)
        try:
            reading = read_body(request, self.config.max_message_bytes)
            body = json.loads(await asyncio.wait_for(reading, self.config.header_timeout))
        except TooLarge:
            message = f"a request body may hold at most {self.config.max_message_bytes} bytes"
            return JSONResponse({"code": "too_large", "message": message}, status_code=413)
        except TimeoutError:
            return JSONResponse({"code": "timeout", "message": "the request body came too slowly"}, status_code=408)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return JSONResponse({"code": "bad_json", "message": "send a JSON object"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"code": "bad_json", "message": "send a JSON object"}, status_code=400)
        try:
            room = self.rooms.create(
                body.get("language", "en"),
                body.get("spellcheck", True),
                body.get("variant", "classic"),
                body.get("show_letters", False),
                client=client_of(request.scope),
                hints=body.get("hints", False),
                hint_count=body.get("hint_count", DEFAULT_HINT_COUNT),
                offensive_words=body.get("offensive_words", False),
            )
        except RoomError as error:
            status = 429 if isinstance(error, ClientQuota) else 503 if error.code == "too_many_rooms" else 400
            return JSONResponse({"code": error.code, "message": error.message}, status_code=status)
        return JSONResponse({"id": room.id, "url": f"{self.base_url(request)}/r/{room.id}"}, status_code=201)

    async def qr_code(self, request: Request) -> Response:
        room = self.rooms.get(request.path_params["room"])
        if room is None:
            return Response("no such room", status_code=404, media_type="text/plain")
        buffer = io.BytesIO()
        segno.make(f"{self.base_url(request)}/r/{room.id}", error="m").save(
            buffer, kind="svg", scale=5, border=2, xmldecl=False, dark="#1d1a05", light="#ffffff"
        )
        return Response(buffer.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def room_socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        room: Room | None = self.rooms.get(websocket.path_params["room"])
        if room is None or room.closed:
            await websocket.send_json({"type": "error", "code": "no_room", "message": "this room does not exist"})
            await websocket.close(4404)
            return
        if len(room.connections) >= MAX_ROOM_CONNECTIONS:
            busy = f"this room has {MAX_ROOM_CONNECTIONS} connections open: try again later"
            await websocket.send_json({"type": "error", "code": "room_busy", "message": busy})
            await websocket.close(1013)
            return
        connection = Connection(websocket, self.config.write_timeout)
        writer = asyncio.create_task(connection.write())
        room.connections[connection] = None
        rate, clock = self.config.messages_per_second, self.config.message_clock
        bucket = TokenBucket(rate, self.config.message_burst, clock)
        warned = 0.0
        try:
            while not connection.closing:
                message = await receive_or_join_timeout(websocket, room, connection, self.config.join_seconds)
                if message is None:
                    connection.close(1008)  # a socket that never joins holds a slot for nothing
                    break
                if message["type"] == "websocket.disconnect":
                    break
                frame = frame_of(message)
                if not bucket.take():
                    if clock() - warned > 1.0:  # one notice a second, not one per message
                        warned = clock()
                        connection.send(
                            {
                                "type": "error",
                                "code": "rate_limited",
                                "message": f"too many messages (limit {rate:g}/s): slow down",
                            }
                        )
                    continue
                await handle_frame(room, connection, frame, self.config.max_message_bytes)
        except WebSocketDisconnect:
            pass
        finally:
            room.disconnected(connection)
            connection.close()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, 5)

    async def engine_socket(self, websocket: WebSocket) -> None:
        """The engine protocol, as `bananas engine` speaks it on stdio (docs/PROTOCOL.md), run
        by the same driver and limits as every network session (solver.protocol.network)."""
        limits = self.config.engine
        client = client_of(websocket.scope)
        await websocket.accept()
        if self.load.overloaded():
            self.metrics.refusals.labels("overloaded").inc()
            await websocket.close(1013, "overloaded: try again later")
            return
        if not self.engine_sessions.take(client):
            await websocket.close(1013, "too many sessions")
            return
        try:
            # Network clients: a session that cannot read files, with the network limits.
            session = Session(allow_paths=False, limits=limits)
            frames = engine_frames(websocket, limits, lambda: admit(self.engine_messages, client, self.engine_rate))
            why = await drive_session(
                session, frames, websocket.send_text, limits, self.pool.executor(client, urgent=True)
            )
            if why == "slow reader":
                abort(websocket)  # a close frame would queue behind the replies nobody reads
            else:
                code, reason = CLOSE_CODES[why]
                await asyncio.wait_for(websocket.close(code, reason), limits.write_timeout)
        except TooLarge:
            await asyncio.wait_for(websocket.close(1009, "message too big"), limits.write_timeout)
        except (WebSocketDisconnect, TimeoutError):
            pass  # the client vanished: its session is simply dropped
        finally:
            self.engine_sessions.give_back(client)

    async def janitor(self) -> None:
        """Persons gone too long leave; idle and empty rooms close."""
        period = max(0.05, min(1.0, self.config.absent_seconds / 4, self.config.room_idle_seconds / 4))
        while True:
            await asyncio.sleep(period)
            try:
                await self.rooms.sweep()
            except Exception:  # noqa: BLE001 - the sweeper must outlive one bad room
                log.exception("room sweep")

    @contextlib.asynccontextmanager
    async def lifespan(self, app):
        # Cheap engine requests are answered on the event loop: what they need is loaded
        # before the first client comes (0.3 s). The kernels warm up in the background.
        # The tables' engine steps run in the loop's default executor. Each of its threads keeps
        # its own search buffers (tens of MiB per hand size), so more threads than cores only
        # add memory: asyncio's default is cores + 4.
        threads = TABLE_THREADS_PER_CORE * (os.cpu_count() or 1) + 1
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bananas-table")
        )
        # A long-lived process: numba's JIT kernels, compiled for this CPU (the library's are
        # for the architecture's generic one) and cached by the warm-up; until they are loaded
        # (or compiled, on a cold cache), the compiled library answers and /readyz says 503.
        native.library_until_jit(self.on_jit)
        await asyncio.to_thread(load_for_cheap_requests)
        if self.config.owns_process:
            settle_collector()  # before the first room: the start-up's objects out of every collection
        restored = await self.rooms.restore()  # a durable server's rooms, each hand where it was
        if restored:
            log.warning("%d room(s) restored from %s", restored, self.config.db)
        asyncio.get_running_loop().run_in_executor(None, warm_english_kernels)
        task = asyncio.create_task(self.janitor())
        watching = asyncio.create_task(self.watch.run())
        try:
            yield
        finally:
            task.cancel()
            watching.cancel()
            self.rooms.close_all()
            if self.rooms.store is not None:
                self.rooms.store.close()
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def stopping(self) -> None:
        """Before the server closes its sockets: every page is told (a durable room's pages
        that the server is restarting, the others that their room closed), and their writers
        get a moment to send it."""
        self.rooms.close_all()
        await asyncio.sleep(STOP_NOTICE_SECONDS)

    def app(self) -> Starlette:
        """The ASGI app: the routes, the Host/Origin gate, the lifespan (warm-up, janitor, stop)."""
        routes = [
            Route("/", self.page),
            WebSocketRoute("/", self.engine_socket),  # where earlier `bananas serve` clients connect
            WebSocketRoute("/engine", self.engine_socket),
            Route("/api/rooms", self.create_room, methods=["POST"]),
            Route("/r/{room}", self.room_page),
            Route("/r/{room}/qr.svg", self.qr_code),
            WebSocketRoute("/r/{room}/ws", self.room_socket),
            # /solve, /api/...
            *solve_routes(
                self.pool, read_body, TooLarge, self.config.header_timeout, self.load, self.metrics, self.config.quotas
            ),
            *health_routes(self.load, self.metrics, self.config.metrics_allow),  # /healthz, /readyz, /metrics
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        middleware = [Middleware(Gate, config=self.config), Middleware(TransportInScope)]
        app = Starlette(routes=routes, lifespan=self.lifespan, middleware=middleware)

        app.state.rooms = self.rooms
        app.state.config = self.config
        app.state.stopping = self.stopping
        return app


def create_app(config: WebConfig | None = None) -> Starlette:
    """The app of `bananas serve` for `config` (the defaults without one)."""
    return Server(config or WebConfig()).app()
