"""Every ```python block of the README and the documents runs as written (a server is started
for the ones that connect to `bananas serve`'s default address), so no snippet can drift from the
API it shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "examples" / "README.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
DEFAULT_ENGINE = "ws://127.0.0.1:8765/engine"  # `bananas serve`'s address, as the documents say


def snippets() -> list:
    found = []
    for document in DOCUMENTS:
        if "_build" in document.parts:
            continue
        text = document.read_text()
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(pytest.param(match.group(1), id=f"{document.relative_to(ROOT)}:{line}"))
    return found


SNIPPETS = snippets()


def test_the_documents_have_python_snippets():
    ids = [snippet.id for snippet in SNIPPETS]
    assert any(i.startswith("README.md:") for i in ids) and any(i.startswith("docs/PROTOCOL.md:") for i in ids), ids


@pytest.mark.parametrize("code", SNIPPETS)
def test_the_snippet_runs(code, en):
    with contextlib.ExitStack() as stack:
        if DEFAULT_ENGINE in code:
            from solver.web import BackgroundServer, WebConfig

            server = stack.enter_context(BackgroundServer(WebConfig()))
            code = code.replace(DEFAULT_ENGINE, server.engine_url)
        stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})
