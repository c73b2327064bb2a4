"""Helpers the tests share, defined once (`from helpers import ...`; tests/ is on sys.path
because tests/conftest.py lives there). Fixtures live in the conftest.py files: tests/ for
the word lists and seeded generators, a layer's folder for what only that layer needs.

Sections: the command line, tiles and strict JSON, the engine protocol in memory, the engine
protocol over a socket, the browser room over a socket.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import asdict
from pathlib import Path

import pytest
import websockets
from click.testing import CliRunner, Result
from websockets.asyncio.client import connect

from solver.core.limits import NETWORK, Limits
from solver.core.tiles import TileCounts
from solver.protocol.session import Session, encode
from solver.web import BackgroundServer, WebConfig

CROSS = [".M.", "CAT", ".P."]  # CAT across, MAP down through its A
CHEAP_BOT = "easy:node_budget=30"  # a bot that decides in milliseconds
SOCKET_TIMEOUT = 60.0  # seconds: one test's whole conversation with a server


# -- the command line ------------------------------------------------------------------------


def run_cli(*args: str, input: str | bytes | None = None, color: bool = False) -> Result:
    """`bananas ARGS` in-process. color=True stops click from stripping ANSI codes, so a test
    can see what the CLI emits."""
    from solver.cli import main

    return CliRunner().invoke(main, list(args), input=input, color=color)


# A first run's build announced off a terminal (solver/cli/warmup.py, `Notice`): a word list's
# arrays, a kernel's compile. Whichever test meets a cold cache first sees one.
BUILD_NOTICE = re.compile(r"bananas: (building|compiling) .+ \(once; about .+\)\.\.\.")


def cache_without(tmp_path: Path, *entries: str) -> Path:
    """A NUMBA_CACHE_DIR for a first run: a copy of this session's numba cache (filled first)
    without the machine code of entry kernels `entries` (`native.ENTRIES`: the kernels Python
    calls), so a run on it compiles those entries as a first run does, while their callees
    load from the copy. A wholly empty cache would compile every callee as well: ~90 s of CPU
    a run on a 2-core machine, for the same entries compiled."""
    from solver.lexicon.loader import get_lexicon
    from solver.search import native, solving

    solving.warm_kernels(get_lexicon("en"))
    copy = tmp_path / "numba"
    shutil.copytree(native.numba_cache_dir(), copy / native.numba_cache_dir().name)
    for name in entries:
        module = native.entry_module(name).__name__.rsplit(".", 1)[-1]
        for path in copy.rglob(f"{module}.{name}-*.nb[ic]"):
            path.unlink()
    return copy


def without_build_notices(stderr: str) -> str:
    """`stderr` less the lines announcing a first run's build, for a test that expects silence
    whatever the state of the caches."""
    return "".join(line for line in stderr.splitlines(keepends=True) if not BUILD_NOTICE.fullmatch(line.rstrip("\n")))


def assert_one_error_line(result: Result) -> str:
    """A refused command: exit code 2 from click (no uncaught exception), exactly one
    `error: ...` line on stderr (besides a first run's build notice, when the input is refused
    after a cold word list was built: `without_build_notices`), nothing on stdout, no
    traceback. Returns the line."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # not an uncaught exception
    lines = without_build_notices(result.stderr).splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert "Traceback" not in result.output
    assert result.stdout == ""
    return lines[0]


def bananas_script() -> str:
    """The installed `bananas` console script (tests that run it as a real process skip
    when it is missing)."""
    script = Path(sys.executable).with_name("bananas")
    found = str(script) if script.exists() else shutil.which("bananas")
    if not found:
        pytest.skip("the bananas console script is not installed")
    return found


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# -- the quick tier -------------------------------------------------------------------------


def sweep(name: str, quick, full):
    """Parametrize a sweep's size: `quick` runs in the quick tier (`-m "not slow"`), `full` is
    marked slow; the full suite runs both. A sweep keeps a small version in the inner loop."""
    return pytest.mark.parametrize(
        name,
        [pytest.param(quick, id=f"{name}={quick}"), pytest.param(full, id=f"{name}={full}", marks=pytest.mark.slow)],
    )


# -- tiles, results and strict JSON --------------------------------------------------------

# The published tile counts of the two sets (the rules' tables), letter by letter.
ENGLISH_COUNTS = dict(
    A=13,
    B=3,
    C=3,
    D=6,
    E=18,
    F=3,
    G=4,
    H=3,
    I=12,
    J=2,
    K=2,
    L=5,
    M=3,
    N=8,
    O=11,
    P=3,
    Q=2,
    R=9,
    S=6,
    T=9,
    U=6,
    V=3,
    W=3,
    X=2,
    Y=3,
    Z=2,
)
FRENCH_COUNTS = dict(
    A=13,
    B=3,
    C=3,
    D=4,
    E=21,
    F=3,
    G=3,
    H=3,
    I=11,
    J=2,
    K=2,
    L=7,
    M=4,
    N=9,
    O=8,
    P=3,
    Q=2,
    R=8,
    S=8,
    T=8,
    U=8,
    V=3,
    W=2,
    X=2,
    Y=2,
    Z=2,
)


def tiles(letters: str) -> TileCounts:
    """'CATS' -> the tile multiset of those letters."""
    return TileCounts.from_letters(letters)


def per_game(result) -> list[dict]:
    """A tournament's games as plain dicts (comparable across runs)."""
    return [asdict(game) for game in result.games]


def reject_constant(token: str):
    raise ValueError(f"non-strict JSON constant {token}")


def strict_json(text: str | bytes):
    """json.loads that refuses NaN and the infinities (which no client can parse)."""
    return json.loads(text, parse_constant=reject_constant)


# -- the engine protocol in memory ---------------------------------------------------------


def send(session: Session, message, now: float = 0.0) -> list[dict]:
    """One message in (a dict is encoded as JSON; str/bytes go as they are). Every reply is
    a dict with a type and encodes to strict JSON."""
    line = message if isinstance(message, (str, bytes)) else json.dumps(message)
    replies = session.receive(line, now)
    assert isinstance(replies, list)
    for reply in replies:
        assert isinstance(reply, dict) and isinstance(reply.get("type"), str), reply
        strict_json(encode(reply))
    return replies


def of_type(replies: list[dict], kind: str) -> list[dict]:
    return [reply for reply in replies if reply["type"] == kind]


def error_code(replies: list[dict]) -> str | None:
    """The code of the first error among the replies (None when there is none)."""
    errors = of_type(replies, "error")
    return errors[0]["code"] if errors else None


def drain(session: Session, now: float = 0.0, limit: int = 20_000, step: float = 1e-6) -> tuple[list[dict], float]:
    """Tick at each wakeup until nothing is scheduled. A real driver's clock moves on
    between ticks, so each tick is a hair after the wakeup (the engine also tolerates a
    tick exactly at the wakeup: `test_host_realtime_tick_at_next_wakeup_makes_progress`)."""
    out: list[dict] = []
    for _ in range(limit):
        wakeup = session.next_wakeup()
        if wakeup is None:
            return out, now
        now = max(now, wakeup) + step
        out += session.tick(now)
    raise AssertionError("the session never went quiet")


def assert_still_serving(session: Session) -> None:
    replies = send(session, {"type": "hello", "id": "alive"})
    assert of_type(replies, "hello") and of_type(replies, "hello")[0]["id"] == "alive"


def seat_session(bot: str = CHEAP_BOT, clock: str = "instant", **options) -> Session:
    session = Session()
    replies = send(session, {"type": "options", "clock": clock, "bot": bot, **options})
    assert of_type(replies, "options"), replies
    return session


def host_session(clock: str = "instant", **options) -> Session:
    session = Session()
    assert of_type(send(session, {"type": "options", "clock": clock, **options}), "options")
    return session


# -- the engine protocol over a socket (`bananas serve`'s /engine) -------------------------


def on_engine_socket(scenario, limits: Limits = NETWORK, timeout: float = SOCKET_TIMEOUT):
    """Start a server, run `await scenario(engine_url)`, stop the server; all bounded."""
    with BackgroundServer(WebConfig(engine=limits)) as server:
        return asyncio.run(asyncio.wait_for(scenario(server.engine_url), timeout))


async def request(ws, message: dict, *, until: str | None = None, timeout: float = 30.0) -> list[dict]:
    """Send one message; collect replies until one of type `until` (default: the first)."""
    await ws.send(json.dumps(message))
    replies = []
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        assert isinstance(reply, dict) and isinstance(reply.get("type"), str), reply
        replies.append(reply)
        if until is None or reply["type"] == until:
            return replies


async def closed_code(ws, timeout: float = 10.0) -> int | None:
    """Wait until the server closes the connection; its close code."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    return closed.value.rcvd.code if closed.value.rcvd else None


# -- the browser room over a socket (`bananas serve`'s pages) ------------------------------

SLOW_BOT = "easy:node_budget=40,speed=0.02"


def start_server(**settings) -> BackgroundServer:
    """A started app (seed 3 and a slow easy bot unless told otherwise); stop() it after."""
    settings.setdefault("seed", 3)
    settings.setdefault("bots", {"easy": SLOW_BOT})
    return BackgroundServer(WebConfig(**settings)).start()


def run_bounded(scenario, timeout: float = SOCKET_TIMEOUT):
    """asyncio.run(scenario()) with a bound on the whole conversation."""
    return asyncio.run(asyncio.wait_for(scenario(), timeout))


def http(url: str, body: dict | bytes | None = None) -> tuple[int, str, str]:
    """GET (or POST `body`) -> status, content type, text; an HTTP error is an answer too."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.headers.get("content-type", ""), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("content-type", ""), error.read().decode()


def new_room(server, **settings) -> str:
    status, _, body = http(server.url + "/api/rooms", {"language": "en", **settings})
    assert status == 201, body
    return json.loads(body)["id"]


class Page:
    """A page's side of a room socket: send messages, collect everything the server says."""

    def __init__(self, server, room: str):
        self.url = server.url.replace("http://", "ws://") + f"/r/{room}/ws"
        self.seen: list[dict] = []

    async def __aenter__(self):
        self.ws = await connect(self.url)
        return self

    async def __aexit__(self, *exc):
        await self.ws.close()

    async def send(self, message) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def until(self, test, timeout: float = 20.0) -> dict:
        """Read until a message passes `test` (a type name or a predicate)."""
        check = (lambda m: m["type"] == test) if isinstance(test, str) else test
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), max(0.01, deadline - time.monotonic())))
            self.seen.append(message)
            if check(message):
                return message

    async def quiet(self, seconds: float = 0.3) -> list[dict]:
        """Everything that arrives within `seconds`."""
        got = []
        try:
            while True:
                got.append(json.loads(await asyncio.wait_for(self.ws.recv(), seconds)))
        except TimeoutError:
            pass
        self.seen.extend(got)
        return got

    async def join(self, name: str, token: str | None = None) -> dict:
        await self.send({"type": "join", "name": name, **({"token": token} if token else {})})
        return await self.until("welcome")

    async def error(self, message, code: str) -> dict:
        await self.send(message)
        reply = await self.until(lambda m: m["type"] == "error")
        assert reply["code"] == code, reply
        return reply


def latest(page: Page, kind: str) -> dict:
    """The last message of type `kind` the page has seen."""
    return next(m for m in reversed(page.seen) if m["type"] == kind)


def node_json(script: str):
    """What an ES-module `script` prints as JSON, run by node (the page's modules in their own
    language); the test skips where node is missing (.ci/run installs it)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (.ci/run installs it)")
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(out.stdout)


def replayed_against_hard(rules, spec: str, seed: int):
    """The hand of `seed` between the bot of `spec` (seat 0) and `hard`, played twice: the same
    ledger and the same events both times (a lever deterministic under its node cap); the first."""
    from solver.play import oracle
    from solver.play.hand import play_hand

    results = [play_hand(rules, [oracle.make(spec), oracle.make("hard")], seed) for _ in range(2)]
    assert results[0].ledger == results[1].ledger
    assert results[0].events == results[1].events  # same seed, same game
    return results[0]
