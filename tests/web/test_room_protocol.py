"""Golden test: the example sessions of docs/ROOMS.md are replayed against the real server,
and the document's tables name every message the server and the page exchange, so the
document cannot fall behind the code.

A session is a fenced block that starts with a `$ bananas serve ...` line: the test starts
the server in a thread with those options (parsed by the command's own options) and plays
the block's lines in order (the matching rule is the document's "Reading an example"):

    LABEL> open PATH       the page LABEL opens a WebSocket on PATH ({room}: the last room created)
    LABEL> close           the page closes its socket (a reload, a lost connection)
    LABEL> TEXT            the page sends TEXT as one text frame; a "..." value in it is the
                           value the page last received under that key (its reconnect token)
    LABEL< JSON            the page's next message: the same keys, the same values, "..."
                           matching any value (room ids, tokens, clocks)
    LABEL< closed CODE     the server closes the page's socket with CODE
    http> METHOD PATH [JSON] / http< STATUS JSON-or-media-type    one HTTP request and its answer

A page must have read everything it was sent before any page sends again, and at the end of
the block: a message the document does not show fails the test. Bots play on the wall clock,
so the Bananagrams examples seat a bot slow enough (`greedy:speed=0.01`: its first call is
half an hour away) that it never acts within a session; Spellevate bots move as soon as it is
their turn (`--spellevate-delay 0`), in an order the seeded deal fixes.

After a deliberate change, regenerate a block from its `$` and `>` lines and paste it in:
    python3 tests/web/test_room_protocol.py < block.txt
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shlex
import sys
import time
import urllib.error
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from solver.web import BackgroundServer, WebConfig

ROOT = Path(__file__).resolve().parents[2]
ROOMS_DOC = ROOT / "docs" / "ROOMS.md"
WEB = ROOT / "solver" / "web"
ANY = "..."  # in an expected message: any value; in a sent one: the value last received
# replaced by ANY when a session is recorded (a hand's log holds the clock's times; a review is the coach's
# to define and test, tests/coach: the document's table gives its shape)
VOLATILE_KEYS = {"token", "url", "t", "clock", "first_grid", "tiles_per_minute", "review", "log"}
WAIT = 30.0  # seconds an expected message may take (the first deal loads the word lists)
QUIET = 0.5  # seconds of silence that end a block: nothing more may arrive
RECORD_QUIET = 0.8  # seconds of silence that end the answers to a sent line, when recording ...
RECORD_FIRST = 10.0  # ... once the first answer has come (the first deal loads the word lists)


# -- the document -------------------------------------------------------------------------------


def example_sessions() -> list[list[str]]:
    """The fenced blocks of the document that start with `$ bananas serve`."""
    blocks = re.findall(r"```\n(.*?)```", ROOMS_DOC.read_text(encoding="utf-8"), re.S)
    return [block.splitlines() for block in blocks if block.startswith("$ bananas serve")]


def server_config(command: str) -> WebConfig:
    """The WebConfig of a `$ bananas serve ...` line, its options read by the command itself."""
    from solver.cli.engine import serve
    from solver.web.config import offered_bots

    words = shlex.split(command.removeprefix("$ "))
    assert words[:2] == ["bananas", "serve"], command
    params = serve.make_context("serve", words[2:]).params
    return WebConfig(
        max_seats=params["seats"],
        absent_seconds=params["absent"],
        room_idle_seconds=params["room_idle"],
        distribution=params["distribution"],
        seed=params["seed"],
        bots=offered_bots(params["bots"], params["only_bots"]),
        spellevate_delay=params["spellevate_delay"],
    )


def matches(expected, got) -> bool:
    """The document's matching rule: equal, key for key and item for item; ANY matches anything."""
    if expected == ANY:
        return True
    if isinstance(expected, dict):
        same_keys = isinstance(got, dict) and expected.keys() == got.keys()
        return same_keys and all(matches(value, got[key]) for key, value in expected.items())
    if isinstance(expected, list):
        return isinstance(got, list) and len(expected) == len(got) and all(map(matches, expected, got))
    return type(expected) is type(got) and expected == got


def masked(message, room_id: str | None):
    """A message as the document shows it: volatile values as ANY."""
    if isinstance(message, dict):
        return {
            key: ANY if key in VOLATILE_KEYS or (value == room_id and key in ("id", "room")) else masked(value, room_id)
            for key, value in message.items()
        }
    if isinstance(message, list):
        return [masked(item, room_id) for item in message]
    return message


# -- the pages ---------------------------------------------------------------------------------------

Arrival = dict | tuple  # a message, or ("closed", code) when the server closed the socket


@dataclass
class Page:
    """One page's socket. A reader task files every message in `inbox` (the page's own
    order, which the replay checks) and in the session's `arrivals` (every page's, in the
    order they came, which a recording prints)."""

    label: str
    arrivals: list[tuple[str, Arrival]]
    arrived: asyncio.Event
    socket: ClientConnection | None = None
    reader: asyncio.Task | None = None
    inbox: deque[Arrival] = field(default_factory=deque)
    last: dict = field(default_factory=dict)  # key -> the value last received under it

    async def open(self, url: str) -> None:
        self.socket = await connect(url)
        self.reader = asyncio.create_task(self.read(self.socket))

    async def read(self, socket: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in socket:
                message = json.loads(frame)
                self.last.update(message)
                self.file(message)
        if socket is self.socket:  # the server closed it (our own close is no part of the session)
            self.file(("closed", socket.close_code))

    def file(self, item: Arrival) -> None:
        self.inbox.append(item)
        self.arrivals.append((self.label, item))
        self.arrived.set()

    async def next(self, timeout: float) -> Arrival:
        while not self.inbox:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), timeout)
        item = self.inbox.popleft()
        if isinstance(item, tuple):
            self.socket = None
        return item

    async def close(self) -> None:
        socket, self.socket = self.socket, None
        if socket is not None:
            await socket.close()
            assert self.reader is not None
            await self.reader

    def fill(self, text: str) -> str:
        """A line to send: ANY values replaced by what this page last received under that key."""
        try:
            message = json.loads(text)
        except ValueError:
            return text  # a malformed frame, sent as written
        if isinstance(message, dict):
            message = {key: self.last.get(key) if value == ANY else value for key, value in message.items()}
        return json.dumps(message, separators=(",", ":"))


class Session:
    """The pages and the HTTP client of one example, against one server."""

    def __init__(self, server: BackgroundServer):
        self.server = server
        self.pages: dict[str, Page] = {}
        self.arrivals: list[tuple[str, Arrival]] = []
        self.arrived = asyncio.Event()
        self.room_id: str | None = None
        self.answer: tuple[int, str, str] = (0, "", "")  # the last HTTP answer

    def page(self, label: str) -> Page:
        if label not in self.pages:
            self.pages[label] = Page(label, self.arrivals, self.arrived)
        return self.pages[label]

    async def send(self, label: str, text: str) -> None:
        """One `>` line: an HTTP request, a socket opened or closed, or a frame sent."""
        if label == "http":
            method, path, *body = text.split(" ", 2)
            self.answer = await asyncio.to_thread(http, self.server.url + self.path(path), method, *body)
            if self.answer[0] == 201:
                self.room_id = json.loads(self.answer[2])["id"]
            return
        page = self.page(label)
        if text.startswith("open "):
            await page.open(self.server.url.replace("http://", "ws://") + self.path(text.removeprefix("open ")))
        elif text == "close":
            await page.close()
        else:
            assert page.socket is not None, f"{label} sends before opening its socket"
            await page.socket.send(page.fill(text))

    def path(self, path: str) -> str:
        return path.replace("{room}", self.room_id or "none")

    def unread(self) -> dict[str, list[Arrival]]:
        return {label: list(page.inbox) for label, page in self.pages.items() if page.inbox}

    async def close(self) -> None:
        for page in self.pages.values():
            with contextlib.suppress(Exception):
                await page.close()


def http(url: str, method: str, body: str | None = None) -> tuple[int, str, str]:
    """(status, media type, body) of one request."""
    request = urllib.request.Request(url, data=body.encode() if body else None, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status, response.headers.get_content_type(), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get_content_type(), error.read().decode()


def http_matches(expected: str, answer: tuple[int, str, str]) -> bool:
    status, media, body = answer
    code, _, rest = expected.partition(" ")
    if int(code) != status:
        return False
    if rest.startswith("{"):
        return media == "application/json" and matches(json.loads(rest), json.loads(body))
    return rest == media


def session_lines(lines: list[str]):
    """(line number, label, direction, text) of a block's session lines (not its comments)."""
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() and not line.startswith("#"):
            found = re.match(r"(\w+)([<>]) (.*)", line)
            assert found, f"line {number} is not a session line: {line!r}"
            yield number, *found.groups()


# -- replaying and recording ----------------------------------------------------------------------------


async def replay(lines: list[str], server: BackgroundServer) -> None:
    session = Session(server)
    try:
        for number, label, direction, text in session_lines(lines):
            where = f"line {number} ({label}{direction} {text[:60]})"
            if direction == ">":
                assert not session.unread(), f"{where}: the document does not show {session.unread()}"
                await session.send(label, text)
            elif label == "http":
                assert http_matches(text, session.answer), f"{where}: the server answered {session.answer}"
            else:
                await expect(session.page(label), text, where)
        await asyncio.sleep(QUIET)
        assert not session.unread(), f"after the last line, the document does not show {session.unread()}"
    finally:
        await session.close()


async def expect(page: Page, text: str, where: str) -> None:
    try:
        got = await page.next(WAIT)
    except TimeoutError:
        raise AssertionError(f"{where}: nothing came within {WAIT:g} s") from None
    if text.startswith("closed "):
        assert got == ("closed", int(text.split()[1])), f"{where}: got {got}"
    else:
        assert matches(json.loads(text), got), f"{where}: got {json.dumps(got)}"


async def record(lines: list[str], server: BackgroundServer) -> list[str]:
    """The block with every answer filled in: what each page received after each sent line,
    until no page has heard anything for RECORD_QUIET seconds."""
    session, out, previous = Session(server), [lines[0]], 1
    for number, label, direction, text in session_lines(lines):
        out += [line for line in lines[previous : number - 1] if line.startswith("#")]  # its comments
        previous = number
        if direction == "<":
            continue
        out.append(f"{label}> {text}")
        await session.send(label, text)
        if label == "http":
            status, media, body = session.answer
            shown = compact(masked(json.loads(body), session.room_id)) if media.endswith("json") else media
            out.append(f"http< {status} {shown}")
            continue
        out += await answers(session)
    await session.close()
    return out


async def answers(session: Session) -> list[str]:
    lines, quiet = [], RECORD_FIRST
    while True:
        session.arrived.clear()
        try:
            await asyncio.wait_for(session.arrived.wait(), quiet)
        except TimeoutError:
            break
        quiet = RECORD_QUIET
        for label, item in session.arrivals:
            shown = f"closed {item[1]}" if isinstance(item, tuple) else compact(masked(item, session.room_id))
            lines.append(f"{label}< {shown}")
            page = session.page(label)
            page.inbox.clear()
            if isinstance(item, tuple):
                page.socket = None
        session.arrivals.clear()
    return lines


def compact(message) -> str:
    return json.dumps(message, separators=(",", ":"))


def run_block(lines: list[str], action):
    with BackgroundServer(server_config(lines[0])) as server:
        return asyncio.run(asyncio.wait_for(action(lines, server), 300))


# -- the tests -----------------------------------------------------------------------------------------


@pytest.fixture(autouse=True, scope="module")
def word_lists():
    """The word lists and the Spellevate bots' index built once, before any example's deal
    waits on them."""
    from solver.lexicon.loader import get_lexicon
    from solver.play.spellevate_bots import word_index

    word_index(get_lexicon("en"))


def test_the_document_has_example_sessions():
    sessions = example_sessions()
    assert len(sessions) >= 4
    for lines in sessions:
        assert any("< " in line for line in lines) and any("> " in line for line in lines)


@pytest.mark.parametrize("index", range(len(example_sessions())))
def test_example_session_replays_against_the_server(index):
    run_block(example_sessions()[index], replay)


def test_the_matching_rule():
    assert matches(
        {"type": "room", "id": ANY, "seats": [{"seat": 0}]}, {"type": "room", "id": "x", "seats": [{"seat": 0}]}
    )
    assert matches(ANY, [1, 2]) and matches([ANY, 2], [None, 2])
    assert not matches({"type": "room"}, {"type": "room", "id": "x"})  # every key is shown
    assert not matches({"type": "room", "id": ANY}, {"type": "room"})
    assert not matches({"seq": 1}, {"seq": True}) and not matches({"seq": 1}, {"seq": 1.0})
    assert not matches([1, 2], [1, 2, 3]) and not matches({"held": "AB"}, {"held": "BA"})


@pytest.mark.slow  # replays a whole example session (3 s); the sessions themselves run in the quick tier
def test_a_session_that_differs_from_the_server_fails(monkeypatch):
    """The replay is no formality: one value changed, one message left out, one too many."""
    monkeypatch.setattr(sys.modules[__name__], "WAIT", 2.0)  # the message too many never comes
    lines = example_sessions()[0]
    welcome = next(i for i, line in enumerate(lines) if '"type":"welcome"' in line)
    wrong_name = lines[:welcome] + [lines[welcome].replace('"name":"Ana"', '"name":"Anna"')]
    left_out = lines[:welcome] + lines[welcome + 1 : welcome + 2]
    one_more = lines[: welcome + 2] + [lines[welcome + 1]]
    for doctored in (wrong_name, left_out, one_more):
        with pytest.raises(AssertionError):
            run_block(doctored, replay)


def document_names() -> set[str]:
    """Every `name` in backquotes in the document's table rows."""
    rows = [line for line in ROOMS_DOC.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    return set(re.findall(r"`([a-z_]+)`", "\n".join(rows)))


def server_types() -> set[str]:
    """The message types the server writes to pages: `"type": "..."` literals in solver/web."""
    code = "\n".join(path.read_text(encoding="utf-8") for path in WEB.rglob("*.py"))
    return set(re.findall(r"""["']type["']:\s*["']([a-z_]+)["']""", code))


def page_types() -> tuple[set[str], set[str]]:
    """What the page sends (`type: "..."` in its modules) and what it handles (its handlers)."""
    scripts = "\n".join(path.read_text(encoding="utf-8") for path in (WEB / "static").glob("*.js"))
    sent = set(re.findall(r"""type:\s*"([a-z_]+)\"""", scripts))
    handlers = (WEB / "static" / "messages.js").read_text(encoding="utf-8").split("const handlers = {", 1)[1]
    handled = set(re.findall(r"^  ([a-z_]+)\(", handlers.split("\n};", 1)[0], re.M))
    return sent, handled


def error_codes() -> set[str]:
    """The error codes the server's web layer raises or writes."""
    code = "\n".join(path.read_text(encoding="utf-8") for path in WEB.rglob("*.py"))
    return set(re.findall(r"""RoomError\(\s*["']([a-z_]+)["']""", code)) | set(
        re.findall(r"""["']code["']:\s*["']([a-z_]+)["']""", code)
    )


def test_the_document_names_every_message_and_error_code():
    named = document_names()
    sent, handled = page_types()
    assert {"welcome", "room", "table", "tiles", "hand", "spellevate_end"} <= server_types()  # the scan works
    assert {"join", "grid", "call", "play"} <= sent and {"welcome", "tiles", "bye"} <= handled
    missing = {
        "server -> page": server_types() - named,
        "page -> server": sent - named,
        "handled by the page": handled - named,
        "error codes": error_codes() - named,
    }
    assert not any(missing.values()), f"docs/ROOMS.md does not document {missing}"


def test_every_refusal_of_the_engine_is_documented():
    """The engine's refusal codes reach the page as error codes: ROOMS.md lists each (the
    page's words for them: tests/web/test_page_codes.py)."""
    from solver.play.rules import REFUSAL_CODES
    from solver.play.spellevate import SPELLEVATE_REFUSALS

    named = document_names()
    for code in (*REFUSAL_CODES, *SPELLEVATE_REFUSALS):  # a refused play: `bad_play`, its code as params.reason
        assert code in named, code


def test_every_bot_preset_is_named_in_both_languages():
    """The lobby names each preset of the catalogue, and says what it is like, in French too."""
    from solver.play.presets import preset_names
    from solver.play.variants import BANANAGRAMS, SPELLEVATE

    english, french = (
        (WEB / "static" / f"i18n_{language}.js").read_text(encoding="utf-8") for language in ("en", "fr")
    )
    for game in (BANANAGRAMS, SPELLEVATE):
        for name in preset_names(game):
            assert f"preset_{name}:" in english and f"preset_{name}:" in french, name
            assert f"about_{name}:" in french, name


def test_every_message_the_document_lists_exists():
    """The tables' first column (message types) holds only types the server or the page uses."""
    sent, handled = page_types()
    known = server_types() | sent | handled
    listed = set()
    for line in ROOMS_DOC.read_text(encoding="utf-8").split("## Messages", 1)[1].split("\n## ", 1)[0].splitlines():
        if found := re.match(r"\| `([a-z_]+)` \|", line):
            listed.add(found.group(1))
    assert listed and listed <= known, f"no such message: {listed - known}"


if __name__ == "__main__":
    block = [line.rstrip("\n") for line in sys.stdin if line.strip()]
    started = time.monotonic()
    print("\n".join(run_block(block, record)))
    print(f"({time.monotonic() - started:.1f} s)", file=sys.stderr)
