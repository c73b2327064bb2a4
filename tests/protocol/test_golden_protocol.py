"""Golden test: the example sessions printed in docs/PROTOCOL.md are replayed against the
engine, so the document cannot drift from what the engine says.

Each fenced block under "A full example session" is a transcript: `>` lines are sent to a
`Session`, `<` lines are what it must answer, in that order. Like a front-end reading its
replies, the replay lets the engine step (`tick`) whenever it expects an answer that has not
come yet (with `clock: instant` the bots act between the remote players' messages); an answer
the document does not show before the next `>` line fails the test. A `...` line ends the
part that is checked (the hosted game goes on to `game_over`). When the
protocol changes on purpose, regenerate the transcript with the engine and paste it into
the document: the diff is the review.
"""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path

import pytest

from solver.protocol.session import Session

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


def example_transcripts() -> list[list[str]]:
    """The fenced blocks of the example-session section whose lines are all `>`, `<` or `...`."""
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    section = text.split("## A full example session", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    return [block.splitlines() for block in blocks if block.startswith("> ")]


def replay(lines: list[str]) -> None:
    """Send the `>` lines of the checked part of a transcript; assert each `<` line."""
    checked = lines[: lines.index("...")] if "..." in lines else lines
    session = Session(allow_paths=False)
    now = 0.0  # the example sessions use the instant clock: wall time does not matter
    answers: deque[dict] = deque()
    for number, line in enumerate(checked, start=1):
        if line.startswith("> "):
            assert not answers, f"line {number}: the engine said more before it: {list(answers)}"
            answers.extend(session.receive(line[2:], now))
            continue
        while not answers and session.next_wakeup() is not None:
            answers.extend(session.tick(now))
        assert answers, f"line {number}: the engine has nothing more to say, the document expects {line}"
        assert answers.popleft() == json.loads(line[2:]), f"line {number} of the transcript differs"


def test_the_document_has_example_transcripts():
    transcripts = example_transcripts()
    assert len(transcripts) >= 2
    assert all(any(line.startswith("< ") for line in lines) for lines in transcripts)


@pytest.mark.parametrize("index", range(len(example_transcripts())))
def test_example_session_replays_exactly(index):
    replay(example_transcripts()[index])


def transcript(sent: list[str]) -> list[str]:
    """The transcript the engine produces for `sent`: each line's answers, then what one more
    step of the engine says. Paste its output into docs/PROTOCOL.md after a deliberate change:
        python3 tests/protocol/test_golden_protocol.py < requests.jsonl"""
    session, lines = Session(allow_paths=False), []
    for request in sent:
        answers = session.receive(request, 0.0)
        if session.next_wakeup() is not None:
            answers += session.tick(0.0)
        lines += [f"> {request}"] + [f"< {json.dumps(answer, separators=(',', ':'))}" for answer in answers]
    return lines


if __name__ == "__main__":
    import sys

    print("\n".join(transcript([line.strip() for line in sys.stdin if line.strip()])))
