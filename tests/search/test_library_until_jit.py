"""`bananas serve` and its kernels: the compiled library answers solves at once while numba's
JIT compiles (or loads) the entry kernels in the background, /readyz says 503 until they are on
the JIT, and then they are (`native.library_until_jit`)."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.search import library

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
pytestmark = pytest.mark.skipif(JIT_DISABLED, reason="compiles numba kernels")

SERVE = "import sys; from solver.cli import main; sys.argv[0] = 'bananas'; main()"


def request(url: str, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    try:
        headers = {"Content-Type": "application/json", "Origin": url}
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.slow  # a server process; its kernels compile in the background (killed before they finish)
def test_serve_answers_solves_from_the_library_while_its_kernels_compile(built_library, tmp_path, en):
    cache = tmp_path / "cache"
    (cache / "kernels").mkdir(parents=True)
    os.symlink(built_library, cache / "kernels" / built_library.name)
    env = dict(
        os.environ,
        BANANAS_CACHE=str(cache),
        BANANAS_FAST_START="1",
        BANANAS_PREBUILT="0",
        NUMBA_CACHE_DIR=str(tmp_path / "empty-numba-cache"),  # nothing compiled: a compile of tens of seconds
        PYTHONPATH=str(Path(library.__file__).resolve().parents[2]),
    )
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", "0", "--db", "none"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        found = re.search(r"http://[\d.]+:\d+", server.stdout.readline() if server.stdout else "")
        assert found, "the server did not start"
        url = found.group(0)
        assert request(url, "GET", "/readyz") == (503, "not ready: the solver's kernels are compiling\n")
        status, text = request(url, "POST", "/api/solve", {"tiles": "AEEIRSTQUNLDOGCABHMPR"})
        reply = json.loads(text)
        assert status == 200 and reply["status"] == "solved", reply
        assert validate(Grid.from_rows(reply["grid"]), en, TileCounts.from_letters(reply["tiles"])).ok
        # Answered while the kernels were still compiling: the solve waited for no compile.
        assert request(url, "GET", "/readyz")[0] == 503
        assert request(url, "GET", "/healthz")[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=60)


@pytest.mark.slow  # loads (or, on a cold cache, compiles) every entry kernel in a new process
def test_the_entries_move_from_the_library_to_the_jit_once_compiled(built_library, tmp_path):
    cache = tmp_path / "cache"
    (cache / "kernels").mkdir(parents=True)
    os.symlink(built_library, cache / "kernels" / built_library.name)
    script = (
        "from solver.search import native\nfrom solver.search.kernels import movesearch\n"
        "ready = native.library_until_jit()\nprint(type(movesearch.search).__name__, native.entries_on_jit())\n"
        "assert ready.wait(900)\nprint(type(movesearch.search).__name__, native.entries_on_jit())\n"
        "from solver.search.solving import solve\nprint(solve('CATMAP').status, native.compile_seconds())"
    )
    env = dict(os.environ, BANANAS_CACHE=str(cache), BANANAS_FAST_START="1", BANANAS_PREBUILT="0")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=900)
    assert run.returncode == 0, run.stderr
    before, after, solved = run.stdout.splitlines()
    assert before == "function False"  # the library's entry (behind its argument check)
    assert after == "CPUDispatcher True"
    status, compile_seconds = solved.split()
    assert status == "solved" and float(compile_seconds) == 0.0  # the background compile counts against no search
