"""`bananas engine`: one protocol session over stdin/stdout, JSON lines (docs/PROTOCOL.md).

The I/O half of the sans-IO `solver.protocol.session.Session`: a reader thread turns stdin
into whole lines, the main loop hands them to the session and sleeps until the next line or
the session's next wakeup, whichever comes first.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time

from solver.protocol.session import Session


def lines_of(stream):
    """Lines from `stream`: from its file descriptor when it has one, as bytes read with
    os.read (no buffered-reader lock is held by a thread still blocked in it at exit, and
    a bad byte becomes the session's bad_json rather than the reader's crash)."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        yield from stream  # an in-memory stream (tests)
        return
    pending = b""
    while True:
        chunk = os.read(descriptor, 65536)
        if not chunk:
            break
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            yield line + b"\n"
    if pending:
        yield pending


def run_stdio(stdin=None, stdout=None, allow_paths: bool = True) -> None:
    """Serve one session on stdin/stdout until `quit` or end of input.

    A reader thread feeds whole lines to a queue, so lines that arrive together are all
    handled at once and the main loop can wait for either input or the next tick."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session = Session(allow_paths)
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        try:
            for line in lines_of(stdin):
                lines.put(line)
        finally:
            lines.put(None)  # end of input (or a broken pipe): the client went away

    def send(messages: list[dict]) -> None:
        for message in messages:
            stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        stdout.flush()

    threading.Thread(target=read, daemon=True).start()
    while not session.closed:
        wakeup = session.next_wakeup()
        try:
            line = lines.get(timeout=None if wakeup is None else max(0.0, wakeup - time.monotonic()))
        except queue.Empty:
            send(session.tick(time.monotonic()))
            continue
        if line is None:
            break
        if line.strip():
            send(session.receive(line, time.monotonic()))
