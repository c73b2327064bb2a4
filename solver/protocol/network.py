"""The engine protocol over a network connection: one isolated session per connection.

`drive_session` runs one network `solver.protocol.session.Session` (no file access) over
any message transport, given a receive and a send: `bananas serve` uses it for its
WebSocket endpoint (solver/web/app.py). A text frame is one protocol message, and every
reply is one text frame of strict JSON. The limits (`solver.core.limits.Limits`,
docs/SECURITY.md): message size (the transport closes with 1009), concurrent sessions
(1013 "try again later"), idle time (1000), slow readers (a reply queue and a write
timeout: the connection is dropped), binary frames (an error reply).

Fairness: the messages that make a bot think, and the ticks of hosted games, run on a
small pool of worker threads (`Limits.workers`; the numba kernels release the GIL), one job
per connection at a time and a bounded slice of game per tick; every other message
(hello, check, grid, errors) is answered on the event loop at once, so a cheap request
never queues behind heavy ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

from solver.core.limits import MAX_WAIT_SECONDS, Limits
from solver.lexicon.loader import SHIPPED, get_lexicon
from solver.protocol.session import Session, encode, error_reply

__all__ = ["CLOSE_CODES", "Limits", "SlowReader", "drive_session", "load_for_cheap_requests"]


class SlowReader(Exception):
    """The client does not read its replies fast enough."""


async def drive_session(
    session: Session,
    receive: Callable[[], Awaitable[str | bytes]],
    send: Callable[[str], Awaitable[None]],
    limits: Limits,
    pool: Executor,
) -> str:
    """Run `session` until it ends; returns why: "bye", "idle" or "slow reader" (the caller
    closes the connection accordingly). `receive` raises when the client goes away."""
    outgoing: asyncio.Queue[str] = asyncio.Queue(maxsize=limits.max_queued_replies)
    writer = asyncio.create_task(_write(outgoing, send, limits.write_timeout))
    receiving: asyncio.Task | None = None
    last_heard = time.monotonic()
    loop = asyncio.get_running_loop()
    try:
        while not session.closed:
            now = time.monotonic()
            wakeup = session.next_wakeup()
            idle_left = last_heard + limits.idle_timeout - now
            if idle_left <= 0:
                return "idle"
            timeout = min(idle_left, MAX_WAIT_SECONDS if wakeup is None else max(0.0, wakeup - now))
            # One receive task lives across ticks: a wait that times out does not cancel it,
            # so a frame that arrives while bots play is read at the next turn of the loop.
            receiving = receiving or asyncio.ensure_future(receive())
            done, _ = await asyncio.wait({receiving, writer}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if writer in done:
                writer.result()  # raises SlowReader or the transport's error
            if receiving in done:
                frame, receiving = receiving.result(), None
                last_heard = time.monotonic()
                if isinstance(frame, bytes):
                    replies = [error_reply("bad_json", "binary frames are not accepted: send JSON as text frames")]
                elif session.is_heavy(frame):
                    replies = await loop.run_in_executor(pool, session.receive, frame, last_heard)
                else:
                    replies = session.receive(frame, last_heard)
            elif wakeup is not None and wakeup <= time.monotonic():
                replies = await loop.run_in_executor(pool, session.tick, time.monotonic())
            else:
                continue
            for reply in replies:
                try:
                    outgoing.put_nowait(encode(reply, limits.max_reply_bytes))
                except asyncio.QueueFull:
                    raise SlowReader(f"more than {limits.max_queued_replies} replies unread") from None
        await outgoing.join()  # `bye` goes out before the connection closes
        return "bye"
    except SlowReader:
        return "slow reader"
    finally:
        for task in (receiving, writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task


async def _write(outgoing: asyncio.Queue, send: Callable[[str], Awaitable[None]], write_timeout: float) -> None:
    while True:
        text = await outgoing.get()
        try:
            await asyncio.wait_for(send(text), write_timeout)
        except TimeoutError:
            raise SlowReader(f"a reply could not be written in {write_timeout:g} s") from None
        outgoing.task_done()


# How a transport closes a session that ended by `drive_session`'s verdict. A slow reader
# gets no close frame (it would queue behind the replies it does not read): drop it.
CLOSE_CODES = {"bye": (1000, "bye"), "idle": (1000, "idle timeout")}


def load_for_cheap_requests() -> None:
    """Load what cheap requests need before the first client comes: a cheap request is
    answered on the event loop, where a first import of the bots (which takes the import
    lock) or a first load of a shipped word list would stall every connection."""
    import solver.play.bots  # noqa: F401 - the import itself is the point

    for name in SHIPPED:
        get_lexicon(name)
