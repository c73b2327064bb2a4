"""`run_stdio` over in-memory streams, and the real `bananas engine` over pipes (the console
script and `python -c`), with the realtime clock landing calls on time, not on input.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

from helpers import (
    CROSS,
    bananas_script,
)

from solver.protocol.stdio import run_stdio


def test_run_stdio_answers_each_line_and_stops_at_quit():
    lines = [
        json.dumps({"type": "hello", "id": 1}),
        "",  # blank lines are skipped
        json.dumps({"type": "check", "grid": CROSS, "tiles": "CATMP", "id": 2}),
        "not json",
        json.dumps({"type": "options", "clock": "instant", "bot": "easy"}),
        json.dumps({"type": "new_hand", "tiles": "CATMP", "bunch": 40, "active": 2, "id": 3}),
        json.dumps({"type": "quit", "id": 4}),
        json.dumps({"type": "hello", "id": "after quit"}),
    ]
    stdout = io.StringIO()
    run_stdio(io.StringIO("\n".join(lines) + "\n"), stdout)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert all(isinstance(reply, dict) and "type" in reply for reply in replies)
    assert [reply["type"] for reply in replies] == ["hello", "check", "error", "options", "ready", "call", "bye"]
    assert replies[0]["id"] == 1 and replies[1]["id"] == 2 and replies[1]["valid"] is True
    assert replies[2]["code"] == "bad_json"
    assert replies[5] == {"type": "call", "call": "peel", "seen": 0}
    assert replies[-1] == {"type": "bye", "id": 4}
    # compact JSON, one object per line
    assert all(" " not in line or '"' in line for line in stdout.getvalue().splitlines())


def test_run_stdio_stops_at_end_of_input_without_quit():
    stdout = io.StringIO()
    run_stdio(io.StringIO(json.dumps({"type": "hello"}) + "\n"), stdout)
    assert [json.loads(line)["type"] for line in stdout.getvalue().splitlines()] == ["hello"]


DIRECT_ENGINE = [sys.executable, "-c", "from solver.cli.engine import engine; engine()"]


SCRIPT = (
    json.dumps({"type": "hello", "id": 1})
    + "\n"
    + json.dumps({"type": "check", "grid": CROSS, "tiles": "CATMP", "id": 2})
    + "\n"
)


def run_engine(command: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, env=dict(os.environ))


def check_engine_transcript(done: subprocess.CompletedProcess, quit_sent: bool) -> None:
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    expected = ["hello", "check"] + (["bye"] if quit_sent else [])
    assert [reply["type"] for reply in replies] == expected
    assert replies[0]["protocol"] == 1 and replies[1]["valid"] is True
    assert "Traceback" not in done.stderr


def test_bananas_engine_console_script_over_pipes():
    command = [bananas_script(), "engine"]
    check_engine_transcript(run_engine(command, SCRIPT + json.dumps({"type": "quit"}) + "\n"), quit_sent=True)
    check_engine_transcript(run_engine(command, SCRIPT), quit_sent=False)  # EOF without quit


def test_engine_command_over_pipes_quit_and_eof():
    check_engine_transcript(run_engine(DIRECT_ENGINE, SCRIPT + json.dumps({"type": "quit"}) + "\n"), quit_sent=True)
    check_engine_transcript(run_engine(DIRECT_ENGINE, SCRIPT), quit_sent=False)


class EngineProcess:
    """`bananas engine` in a child process, read with select() and a deadline (a
    blocking readline would hang the test run if the engine never answers)."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            env=dict(os.environ),
        )
        self.pending = b""

    def write(self, *messages: dict) -> None:
        """All the messages in one write (as a client that pipelines requests does)."""
        self.process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.process.stdin.flush()

    def read(self, timeout: float = 20.0) -> dict | None:
        import select

        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            readable, _, _ = select.select([self.process.stdout], [], [], left)
            if readable:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    return None
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> int | None:
        try:
            self.process.stdin.close()
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            return None
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.process.stderr.close()


def test_engine_process_realtime_call_lands_on_the_clock_not_on_input():
    """A real pipe: the realtime call comes from the select() timeout, with no input."""
    engine = EngineProcess(DIRECT_ENGINE)
    try:
        engine.write({"type": "options", "bot": "easy", "time_scale": 1000})
        assert engine.read()["type"] == "options"
        engine.write({"type": "new_hand", "tiles": "CATMP", "bunch": 40, "active": 2})
        assert engine.read()["type"] == "ready"
        assert engine.read() == {"type": "call", "call": "peel", "seen": 0}
        engine.write({"type": "quit"})
        assert engine.read()["type"] == "bye"
    finally:
        assert engine.close() == 0


def test_engine_process_answers_lines_that_arrive_together():
    engine = EngineProcess(DIRECT_ENGINE)
    try:
        engine.write({"type": "hello", "id": 1}, {"type": "hello", "id": 2})
        first, second = engine.read(), engine.read(timeout=5.0)
        assert first and first["id"] == 1
        assert second and second["id"] == 2, "the second line was not answered"
    finally:
        engine.close()
