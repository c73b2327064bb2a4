"""Every ```python block of the README and the documents runs as written (a server is started
for the ones that connect to `bananas serve`'s default address), and every `>>>` example in the
docstrings of the modules the reference site documents gives the output it shows: no snippet can
drift from the API it shows."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import re
from pathlib import Path

import pytest
from test_reference_site import documented_modules

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


def docstring_examples() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder()
    modules = [importlib.import_module(name) for name in documented_modules()]
    return [test for module in modules for test in finder.find(module) if test.examples]


EXAMPLES = docstring_examples()


def test_the_docstrings_have_examples():
    assert {"solver.search.solving.solve", "solver.core.grid.validate"} <= {test.name for test in EXAMPLES}


@pytest.mark.parametrize("test", EXAMPLES, ids=[test.name for test in EXAMPLES])
def test_the_docstring_example_gives_what_it_shows(test, en):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output = io.StringIO()
    runner.run(test, out=output.write)
    assert runner.failures == 0, output.getvalue()
