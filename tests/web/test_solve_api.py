"""The solve page's JSON API (`solver/web/solve_api.py`, docs/SOLVE_API.md).

The handlers are called directly where the answer is the subject: every grid they return is
re-checked with the independent validator (words, connectivity, the exact tile multiset), and
each answer is compared with what the command it mirrors prints. The wrappers (body, type,
rate, jobs) and the bad-input classes go through a real server: every bad input gets one
`{"code", "message"}` with a 4xx status, never a 500. A seeded fuzz sends hostile values to
every field of every route; the examples of docs/SOLVE_API.md are replayed.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import socket
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from helpers import run_cli, strict_json

from solver.core.grid import Grid, validate
from solver.core.limits import (
    MAX_API_BODY_BYTES,
    MAX_API_DUMP_TRIALS,
    MAX_API_PEEL_LETTERS,
    MAX_API_SECONDS,
    MAX_API_TILES,
)
from solver.core.tiles import ENGLISH, FRENCH, TileCounts, draw, typed_letters
from solver.web import BackgroundServer, WebConfig, solve_api
from solver.web.rates import LocalRates
from solver.web.solve_api import (
    ApiError,
    check_request,
    dump_request,
    peel_request,
    run_guarded,
    solve_request,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "SOLVE_API.md"
HAND = "AEEIRSTQUNLDOGCABHMPR"  # 21 tiles
TIME_BOUND = MAX_API_SECONDS + 3.0  # seconds: the longest time limit, and the work around it


def post(url: str, body, kind: str = "application/json") -> tuple[int, dict]:
    """POST a body (a dict as JSON, bytes as they are) -> status, strict JSON reply."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, strict_json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, strict_json(error.read())


@pytest.fixture
def server(monkeypatch):
    """A server whose API allows any rate (the rate limit has its own test)."""
    monkeypatch.setattr(solve_api, "API_REQUEST_BURST", 100_000)
    monkeypatch.setattr(solve_api, "API_REQUESTS_PER_SECOND", 100_000.0)
    with BackgroundServer(WebConfig()) as running:
        yield running


def assert_valid(grid_rows, lexicon, tiles: TileCounts, min_length: int = 2) -> None:
    report = validate(Grid.from_rows(grid_rows), lexicon, tiles, min_length)
    assert report.ok, report.problems()


def hands(count: int, size: int, seed: int, bag: TileCounts = ENGLISH) -> list[str]:
    import numpy as np

    rng = np.random.default_rng(seed)
    return [draw(bag, size, rng).letters() for _ in range(count)]


# -- what each route answers -------------------------------------------------------------------


def test_solve_answers_what_bananas_solve_json_prints_and_its_grid_is_valid(en):
    for hand in [HAND, *hands(4, 21, seed=1)]:
        reply = solve_request({"tiles": hand})
        command = json.loads(run_cli("solve", hand, "--json").stdout)
        assert reply.keys() == command.keys()
        assert (reply["status"], reply["grid"], reply["words"]) == (
            command["status"],
            command["grid"],
            command["words"],
        )
        assert reply["status"] == "solved"
        assert_valid(reply["grid"], en, TileCounts.from_letters(hand))


def test_solve_in_french_with_each_objective_and_a_picture(fr):
    (hand,) = hands(1, 21, seed=2, bag=FRENCH)
    for objective in ("any", "fewest-words", "compact", "longest-word"):
        reply = solve_request({"tiles": hand, "lexicon": "fr", "objective": objective, "time_limit": 0.5, "svg": True})
        assert reply["objective"] == objective and reply["status"] == "solved"
        assert_valid(reply["grid"], fr, TileCounts.from_letters(hand))
        assert reply["svg"].startswith("<svg") and reply["svg"].count('class="tile"') == len(hand)


def test_solve_with_common_words_only(en):
    reply = solve_request({"tiles": "CATMAP", "lexicon": "en@50"})
    common = solve_api.get_lexicon("en@50")
    assert reply["status"] == "solved" and all(word in common for word in reply["words"])
    assert_valid(reply["grid"], en, TileCounts.from_letters("CATMAP"))


def test_dump_with_common_words_draws_from_the_english_set():
    reply = dump_request({"grid": GRID, "hand": "Q", "lexicon": "en@50", "samples": 1})
    assert reply["recommended"] == "Q"


def test_solve_says_no_grid_with_its_proof():
    reply = solve_request({"tiles": "Q"})
    assert reply["status"] == "no-grid" and reply["proof"] and reply["grid"] is None
    assert solve_request({"tiles": "QQQQ"})["status"] == "no-grid"


def test_peel_rebuilds_moving_few_tiles_and_marks_the_new_and_the_moved(en):
    for hand, letters in [(HAND, "Z"), (HAND, "QXJ"), *((h, "E") for h in hands(3, 21, seed=3))]:
        grid = solve_request({"tiles": hand})["grid"]
        reply = peel_request({"grid": grid, "letters": letters, "svg": True})
        command = json.loads(run_cli("peel", letters, "--grid", "-", "--json", input="\n".join(grid)).stdout)
        assert {"new_cells", "moved_cells", "svg"} | command.keys() == reply.keys()
        assert reply["tier"] != "failed" and reply["hand"] == ""
        assert_valid(reply["grid"], en, TileCounts.from_letters(hand + letters))
        cells = Grid.from_rows(reply["grid"]).cells()
        assert Counter(cells[tuple(cell)] for cell in reply["new_cells"]) == Counter(letters)
        assert len(reply["moved_cells"]) == reply["moved"]
        assert not {tuple(c) for c in reply["new_cells"]} & {tuple(c) for c in reply["moved_cells"]}


def test_a_peel_that_moves_nothing_marks_only_the_new_tile(en):
    reply = peel_request({"grid": [".M.", "CAT", ".P."], "letters": "S"})
    assert reply["moved"] == 0 and reply["moved_cells"] == [] and len(reply["new_cells"]) == 1
    assert_valid(reply["grid"], en, TileCounts.from_letters("CATMPS"))


def test_dump_answers_what_bananas_dump_json_prints():
    grid = solve_request({"tiles": HAND})["grid"]
    reply = dump_request({"grid": grid, "hand": "QV", "samples": 4, "seed": 3})
    command = run_cli(
        "dump", "--grid", "-", "--hand", "QV", "--samples", "4", "--seed", "3", "--json", input="\n".join(grid)
    )
    expected = json.loads(command.stdout)
    assert reply == expected  # node-capped draws: the same advice whatever the machine's speed
    assert {option["letter"] for option in reply["options"]} == {"Q", "V"}
    assert all(0 <= option["chance"] <= 1 and option["samples"] == 4 for option in reply["options"])


def test_dump_with_a_bunch_of_letters_and_of_a_set():
    grid = [".M.", "CAT", ".P."]
    small = dump_request({"grid": grid, "hand": "QX", "bunch": "EEAIO", "samples": 2})
    assert [option["samples"] for option in small["options"]] == [2, 2]
    whole = dump_request({"grid": grid, "hand": "QX", "bunch": "en", "samples": 2})
    assert whole["recommended"] in ("Q", "X")


def test_check_answers_what_bananas_check_json_prints():
    for text in ["CAT\nA..\nXYZ", ".M.\nCAT\n.P.", "CAT\n...\nDOG", "ZZZ"]:
        reply = check_request({"grid": text})
        command = json.loads(run_cli("check", "-", "--json", input=text).stdout)
        faults = reply.pop("faults")  # the API's problems by code too, for the page's own words
        assert reply == command and len(faults) == len(command["problems"])
    bad = check_request({"grid": "CAT\nA..\nXYZ", "svg": True})
    assert {word["word"] for word in bad["invalid_words"]} == {"XYZ", "CAX"}
    assert bad["svg"].count('class="invalid"') == 2
    with_tiles = check_request({"grid": [".M.", "CAT", ".P."], "tiles": "CATMAPS"})
    assert not with_tiles["valid"] and with_tiles["missing"] == "AS"


# -- bad input: one error, a 4xx, never a 500 --------------------------------------------------

GRID = [".M.", "CAT", ".P."]
BAD_INPUTS = [
    # (route, body, status, code)
    ("solve", b"", 400, "bad_json"),
    ("solve", b"{", 400, "bad_json"),
    ("solve", b"[1, 2]", 400, "bad_json"),
    ("solve", b"\xff\xfe\x00", 400, "bad_json"),
    ("solve", b"[" * 5000 + b"]" * 5000, 400, "bad_json"),
    ("solve", {}, 400, "missing_field"),
    ("solve", {"tiles": ""}, 400, "bad_tiles"),
    ("solve", {"tiles": 42}, 400, "bad_tiles"),
    ("solve", {"tiles": "CAT1"}, 400, "bad_tiles"),
    ("solve", {"tiles": "ΩA"}, 400, "bad_tiles"),  # no folding makes Ω a tile (ÇA is CA: issue 65)
    ("solve", {"tiles": "\ud800AB"}, 400, "bad_tiles"),
    ("solve", {"tiles": "E" * (MAX_API_TILES + 1)}, 400, "bad_tiles"),
    ("solve", {"tiles": "CAT", "lexicon": "/etc/passwd"}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "lexicon": "de"}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "lexicon": "en@45"}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "lexicon": "fr@50"}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "lexicon": ["en"]}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "objective": "best"}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "time_limit": 0}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "time_limit": MAX_API_SECONDS + 1}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "time_limit": 10**400}, 400, "bad_value"),
    ("solve", b'{"tiles": "CAT", "time_limit": NaN}', 400, "bad_value"),
    ("solve", b'{"tiles": "CAT", "time_limit": Infinity}', 400, "bad_value"),
    ("solve", {"tiles": "CAT", "time_limit": True}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "seed": -1}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "seed": 2**64}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "seed": 1.5}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "min_length": 4}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "min_length": 2.0}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "svg": "yes"}, 400, "bad_value"),
    ("solve", {"tiles": "CAT", "tile": "CAT"}, 400, "bad_field"),
    ("peel", {"letters": "E"}, 400, "missing_field"),
    ("peel", {"grid": GRID}, 400, "missing_field"),
    ("peel", {"grid": GRID, "letters": "E" * (MAX_API_PEEL_LETTERS + 1)}, 400, "bad_tiles"),
    ("peel", {"grid": "CAT\nDO", "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": ["CAT", 7], "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": {"rows": GRID}, "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": "C@T", "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": "...\n...", "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": "." * 20_000, "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": "E" * (MAX_API_TILES + 1), "letters": "E"}, 400, "bad_grid"),
    ("peel", {"grid": "XYZ", "letters": "E"}, 400, "invalid_grid"),
    ("peel", {"grid": "CAT\n...\nDOG", "letters": "E"}, 400, "invalid_grid"),
    ("peel", {"grid": GRID, "letters": "E", "time_limit": -1}, 400, "bad_value"),
    ("dump", {"grid": GRID}, 400, "missing_field"),
    ("dump", {"grid": GRID, "hand": "Q", "samples": 0}, 400, "bad_value"),
    ("dump", {"grid": GRID, "hand": "QX", "samples": MAX_API_DUMP_TRIALS}, 400, "bad_value"),
    ("dump", {"grid": GRID, "hand": "Q", "bunch": "/etc/passwd"}, 400, "bad_tiles"),
    ("dump", {"grid": GRID, "hand": "Q", "bunch": "Z9"}, 400, "bad_tiles"),
    ("dump", {"grid": GRID, "hand": "Q", "bunch": "A9999,B9999"}, 400, "bad_tiles"),
    ("dump", {"grid": GRID, "hand": "QQQ"}, 400, "bad_tiles"),
    ("dump", {"grid": GRID, "hand": "Q", "bunch": 5}, 400, "bad_tiles"),
    ("dump", {"grid": GRID, "hand": "Q", "time_per_try": 9}, 400, "bad_field"),
    ("check", {}, 400, "missing_field"),
    ("check", {"grid": ""}, 400, "bad_grid"),
    ("check", {"grid": "CAT", "tiles": "words.txt"}, 400, "bad_tiles"),
    ("check", {"grid": "CAT", "lexicon": "../lexicons/en"}, 400, "bad_value"),
    ("check", {"grid": "CAT", "min_length": "3"}, 400, "bad_value"),
    ("solve", {"tiles": "E" * 40_000}, 413, "too_large"),
]


def test_every_class_of_bad_input_gets_one_clear_error_never_a_500(server):
    for route, body, status, code in BAD_INPUTS:
        got, reply = post(f"{server.url}/api/{route}", body)
        assert (got, reply.get("code")) == (status, code), (route, str(body)[:80], got, reply)
        assert set(reply) == {"code", "message"} and reply["message"]
        assert "Traceback" not in reply["message"] and len(reply["message"]) < 500


def test_json_only_posts_only_and_unknown_routes(server):
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        status, reply = post(f"{server.url}/api/solve", {"tiles": "CAT"}, kind)
        assert (status, reply["code"]) == (415, "bad_content_type")
    assert post(f"{server.url}/api/solve", {"tiles": "CAT"}, "application/json; charset=utf-8")[0] == 200
    for route in ("solve", "peel", "dump", "check"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}/api/{route}", timeout=30)
        assert refused.value.code == 405
    with urllib.request.urlopen(f"{server.url}/solve", timeout=30) as page:
        assert page.status == 200 and b"/static/solve.js" in page.read()


def test_a_slow_body_gets_408(monkeypatch):
    monkeypatch.setattr(solve_api, "API_REQUEST_BURST", 1000)
    with BackgroundServer(WebConfig(header_timeout=0.5)) as server:
        host, port = server.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            head = (
                f"POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                "Content-Length: 50\r\n\r\n{"
            )
            connection.sendall(head.encode())
            started = time.monotonic()
            answer = ""
            while '"code"' not in answer and (chunk := connection.recv(4096)):
                answer += chunk.decode()
        assert answer.startswith("HTTP/1.1 408") and '"code":"timeout"' in answer
        assert time.monotonic() - started < 5


def test_the_rate_per_address_and_the_jobs_waiting_are_bounded(monkeypatch):
    with BackgroundServer(WebConfig()) as server:
        statuses = [post(f"{server.url}/api/check", {"grid": "CAT"})[0] for _ in range(solve_api.API_REQUEST_BURST + 3)]
        assert statuses[: solve_api.API_REQUEST_BURST] == [200] * solve_api.API_REQUEST_BURST
        status, reply = post(f"{server.url}/api/check", {"grid": "CAT"})
        assert (status, reply["code"]) == (429, "rate_limited")
    monkeypatch.setattr(solve_api, "MAX_API_JOBS", 0)
    with BackgroundServer(WebConfig()) as server:
        status, reply = post(f"{server.url}/api/solve", {"tiles": "CAT"})
        assert (status, reply["code"]) == (503, "busy")


def test_local_rates_keep_a_bounded_number_of_addresses():
    now = [0.0]
    buckets = LocalRates(rate=1.0, burst=2, capacity=3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    assert buckets.take("b") and buckets.take("c")
    assert not buckets.take("a")  # still remembered: its bucket is empty
    buckets.take("d")  # a fourth address: the stalest ("b") is forgotten
    assert set(buckets.buckets) == {"c", "a", "d"}
    now[0] = 1.0
    assert buckets.take("a") and not buckets.take("a")  # one token a second


def test_no_request_reads_a_file(tmp_path, monkeypatch):
    """Word lists and tile sets are names or letters only: a tripwire on every open and stat,
    once the shipped word lists and the kernels are loaded (as on a running server)."""
    check_request({"grid": "CAT", "lexicon": "fr"})
    dump_request({"grid": GRID, "hand": "Q", "samples": 1})
    # Each kernel the requests below run, loaded now (in a JIT process, numba stats its cache
    # on a kernel's first call: the server's own files, read once, not a request's).
    solve_request({"tiles": "CAT"})
    solve_request({"tiles": "ZZZZZZZZZ"})
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Z9").write_text("TOPSECRET\n")
    touched: list[str] = []

    def tripwire(real):
        def wrapper(path, *args, **kwargs):
            touched.append(str(path))
            return real(path, *args, **kwargs)

        return wrapper

    hostile = ["Z9", "./Z9", str(tmp_path / "Z9"), "/etc/passwd", "../" * 30 + "etc/passwd", "en\x00", "~/.bashrc"]
    monkeypatch.setattr(os, "stat", tripwire(os.stat))
    monkeypatch.setattr(os, "open", tripwire(os.open))
    monkeypatch.setattr(io, "open", tripwire(io.open))
    monkeypatch.setattr("builtins.open", tripwire(open))
    replies: list[str] = []
    for spec in hostile:
        for handler, body in [
            (check_request, {"grid": "CAT", "lexicon": spec}),
            (check_request, {"grid": "CAT", "tiles": spec}),
            (dump_request, {"grid": GRID, "hand": "Q", "bunch": spec, "samples": 1}),
            (solve_request, {"tiles": "CAT", "lexicon": spec}),
        ]:
            try:
                replies.append(json.dumps(handler(body)))
            except ApiError as error:
                replies.append(error.message)
                assert error.status == 400
            else:
                assert spec == "Z9" and "tiles" in body  # nine Z tiles, as a tile set: never the file
    monkeypatch.undo()
    assert touched == [], touched[:5]
    assert not any("TOPSECRET" in reply for reply in replies)


# -- a seeded fuzz -----------------------------------------------------------------------------

HOSTILE = [
    None, True, False, 0, -1, 1, 2, 3, 2**31, 2**63, 10**300, -(10**300), 1.5, -0.0, 5e-324, 1e308,
    float("nan"), float("inf"), "", " ", " " * 3000, "\t\n\r\u00a0\u3000" * 300, "x" * 5000, "9" * 400,
    "CAT", "cat", "Q", "QQQQ", "E" * 300, "en", "fr", "any", "compact", "/etc/passwd", "../../etc/passwd",
    "C:\\Windows\\win.ini", "en\u0000", "\u202e\u200bCAT\ufeff", "\ud800", "\U0001f34c" * 30, "ſ", "é",
    "A13,B3", "A9999", ".M.\nCAT\n.P.", "CAT\n...\nDOG", "XYZ", "." * 3000, [], [1, [2, [3]]], {}, ["CAT"],
    [".M.", "CAT", ".P."], ["CAT", "DO"], [None], ["\ud800"], {"grid": "CAT"},
]  # fmt: skip
VALID = {
    solve_request: {"tiles": "CATMAP", "time_limit": 0.5},
    peel_request: {"grid": GRID, "letters": "S", "time_limit": 0.5},
    dump_request: {"grid": GRID, "hand": "QX", "samples": 2},
    check_request: {"grid": GRID},
}
FIELDS = {
    solve_request: sorted(solve_api.SOLVE_FIELDS | {"extra"}),
    peel_request: sorted(solve_api.PEEL_FIELDS | {"extra"}),
    dump_request: sorted(solve_api.DUMP_FIELDS | {"extra"}),
    check_request: sorted(solve_api.CHECK_FIELDS | {"extra"}),
}


def answer(handler, body) -> tuple[int, dict]:
    """What the endpoint would send: the reply, or the error (internal ones included)."""
    started = time.monotonic()
    try:
        reply, status = run_guarded(handler, body), 200
    except ApiError as error:
        reply, status = error.to_json(), error.status
    assert time.monotonic() - started < TIME_BOUND, (handler.__name__, str(body)[:120])
    strict_json(solve_api.json_response(reply).body)
    return status, reply


def test_seeded_fuzz_of_every_field_of_every_route(en):
    """Each field of each route gets every hostile value, and pairs of fields random ones
    (seeded): a reply or a 400, never an internal error; every grid returned is valid."""
    rng = random.Random(23)
    cases = [
        (handler, {**VALID[handler], field: value})
        for handler in VALID
        for field in FIELDS[handler]
        for value in HOSTILE
    ]
    for _ in range(150):
        handler = rng.choice(list(VALID))
        fields = rng.sample(FIELDS[handler], 2)
        cases.append((handler, {**VALID[handler], **{field: rng.choice(HOSTILE) for field in fields}}))
    outcomes = Counter()
    for handler, body in cases:
        status, reply = answer(handler, body)
        assert status in (200, 400), (handler.__name__, str(body)[:160], reply)
        outcomes[status] += 1
        if status == 200 and reply.get("grid") and handler is not check_request:
            lexicon = solve_api.get_lexicon(solve_api.given(body, "lexicon", "en"))
            if handler is solve_request:
                tiles = TileCounts.from_letters(typed_letters(body["tiles"]))  # accents folded, as the API does
            elif handler is peel_request:
                old = body["grid"] if isinstance(body["grid"], list) else body["grid"].splitlines()
                tiles = (
                    Grid.from_rows(old, accents=True).tiles()
                    + TileCounts.from_letters(typed_letters(body["letters"]))
                    - TileCounts.from_letters(reply["hand"])
                )
            else:
                continue
            min_length = solve_api.given(body, "min_length", 2)
            assert_valid(reply["grid"], lexicon, tiles, min_length)
    assert outcomes[200] > 50 and outcomes[400] > 500, outcomes


def test_a_selection_of_the_fuzz_through_the_server(server):
    rng = random.Random(5)
    routes = {solve_request: "solve", peel_request: "peel", dump_request: "dump", check_request: "check"}
    for _ in range(60):
        handler = rng.choice(list(VALID))
        field = rng.choice(FIELDS[handler])
        value = rng.choice([v for v in HOSTILE if not isinstance(v, float) or v == v and abs(v) != float("inf")])
        status, reply = post(f"{server.url}/api/{routes[handler]}", {**VALID[handler], field: value})
        assert status in (200, 400), (routes[handler], field, str(value)[:60], reply)


# -- the document ------------------------------------------------------------------------------


def documented_examples() -> list[tuple[str, dict, int, dict]]:
    """Each example of docs/SOLVE_API.md: `POST /api/ROUTE` and its body, then the status and reply."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"```\nPOST /api/(\w+)\n(.*?)\n```\n\nanswers\n\n```\n(\d{3})\n(.*?)\n```", text, re.S)
    return [(route, json.loads(body), int(status), json.loads(reply)) for route, body, status, reply in found]


def test_the_documents_examples_are_what_the_server_answers(server):
    examples = documented_examples()
    assert {route for route, *_ in examples} == {"solve", "peel", "dump", "check"}
    for route, body, status, documented in examples:
        got, reply = post(f"{server.url}/api/{route}", body)
        assert got == status, (route, body, reply)
        for key in ("elapsed_ms", "nodes", "svg"):  # the time, the work and the picture vary
            reply.pop(key, None)
            documented.pop(key, None)
        assert reply == documented, (route, body)


def test_the_document_names_every_field_error_code_and_limit():
    text = DOC.read_text(encoding="utf-8")
    source = Path(solve_api.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'ApiError\(\s*"([a-z_]+)"', source))
    assert codes and all(f"`{code}`" in text for code in codes), codes
    fields = solve_api.SOLVE_FIELDS | solve_api.PEEL_FIELDS | solve_api.DUMP_FIELDS | solve_api.CHECK_FIELDS
    assert all(f"`{field}`" in text for field in fields)
    for bound in (MAX_API_TILES, MAX_API_BODY_BYTES, MAX_API_PEEL_LETTERS, MAX_API_DUMP_TRIALS):
        assert f"{bound:,}" in text or str(bound) in text, bound
