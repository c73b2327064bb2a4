"""`bananas engine`: one protocol session over stdin/stdout, JSON lines (docs/PROTOCOL.md).

The I/O half of the sans-IO `solver.protocol.session.Session`: a reader thread turns stdin
into whole lines, the main loop hands them to the session and sleeps until the next line or
the session's next wakeup, whichever comes first. Bounded: a line longer than the message
limit is cut (the session answers too_large) and the rest of it skipped; at most
MAX_QUEUED_LINES lines wait to be handled (then the reader stops reading, and a fast writer
waits); a wait is never longer than MAX_WAIT_SECONDS.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time

from solver.core.limits import LOCAL, MAX_QUEUED_LINES, MAX_WAIT_SECONDS
from solver.protocol.session import Session, encode

READ_BYTES = 65536


def lines_of(stream, max_line_bytes: int = LOCAL.max_message_bytes):
    """Lines from `stream`: from its file descriptor when it has one, as bytes read with
    os.read (no buffered-reader lock is held by a thread still blocked in it at exit, and
    a bad byte becomes the session's bad_json rather than the reader's crash). A line
    longer than `max_line_bytes` is yielded cut to max_line_bytes + 1 bytes (too large for
    the session) and the rest of it is dropped as it arrives: memory stays bounded."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        yield from stream  # an in-memory stream (tests)
        return
    pending, skipping = b"", False
    while True:
        chunk = os.read(descriptor, READ_BYTES)
        if not chunk:
            break
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if skipping:
                skipping = False  # the end of an overlong line
                continue
            yield line + b"\n"
        if len(pending) > max_line_bytes:
            if not skipping:
                yield pending[: max_line_bytes + 1]
            pending, skipping = b"", True
    if pending and not skipping:
        yield pending


def run_stdio(stdin=None, stdout=None, allow_paths: bool = True) -> None:
    """Serve one session on stdin/stdout until `quit` or end of input.

    A reader thread feeds whole lines to a queue, so lines that arrive together are all
    handled at once and the main loop can wait for either input or the next tick."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session = Session(allow_paths)
    lines: queue.Queue = queue.Queue(maxsize=MAX_QUEUED_LINES)

    def read() -> None:
        try:
            for line in lines_of(stdin, session.limits.max_message_bytes):
                lines.put(line)
        finally:
            lines.put(None)  # end of input (or a broken pipe): the client went away

    def send(messages: list[dict]) -> None:
        for message in messages:
            stdout.write(encode(message, session.limits.max_reply_bytes) + "\n")
        stdout.flush()

    threading.Thread(target=read, daemon=True).start()
    while not session.closed:
        wakeup = session.next_wakeup()
        wait = None if wakeup is None else wakeup - time.monotonic()
        try:
            line = lines.get(timeout=None if wait is None else min(max(0.0, wait), MAX_WAIT_SECONDS))
        except queue.Empty:
            if wait is not None and wait <= MAX_WAIT_SECONDS:
                send(session.tick(time.monotonic()))
            continue
        if line is None:
            break
        if line.strip():
            send(session.receive(line, time.monotonic()))
