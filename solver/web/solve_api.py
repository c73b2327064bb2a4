"""The `/solve` page of `bananas serve` ("solve my tiles" at the kitchen table) and the JSON API
it uses, documented route by route in docs/SOLVE_API.md.

GET  /solve        the page (static/solve.html, static/solve.js; its state is in the address)
POST /api/solve    {"tiles", "lexicon", "objective", ...}  -> what `bananas solve --json` prints
POST /api/peel     {"grid", "letters", "lexicon", ...}      -> what `bananas peel --json` prints
POST /api/dump     {"grid", "hand", "bunch", ...}           -> what `bananas dump --json` prints
POST /api/check    {"grid", "lexicon", "tiles", ...}        -> what `bananas check --json` prints

The four handlers take a parsed body and return a dict, or raise `ApiError` (one code, one
message; status 400 unless said otherwise), and call the functions the commands call. The
endpoint wrappers bound what surrounds them: the body's type and size, a rate per client
address, the number of jobs waiting, and the engine's worker pool they run in. Nothing a
request names is read from the disk: word lists are `en`, `fr` or English at a vocabulary
level such as `en@50` (`API_LEXICONS`), tile sets letters, `en`, `fr` or 'A13,B3,...'
(`solver.core.tiles.parse_tiles`, which never opens a file).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from solver.core.grid import MIN_WORD_LENGTHS, Grid, GridError, best_translation, check_tile_room, validate
from solver.core.limits import (
    API_DUMP_SECONDS_PER_TRY,
    API_REQUEST_BURST,
    API_REQUESTS_PER_SECOND,
    DEFAULT_API_SECONDS,
    MAX_API_ADDRESSES,
    MAX_API_BODY_BYTES,
    MAX_API_DUMP_TRIALS,
    MAX_API_JOBS,
    MAX_API_JOBS_PER_CLIENT,
    MAX_API_NODES,
    MAX_API_PEEL_LETTERS,
    MAX_API_SECONDS,
    MAX_API_TILES,
    MAX_GRID_CELLS,
    MAX_QUOTED_CHARS,
    MAX_SEED,
)
from solver.core.tiles import TileCounts, TileError, parse_tiles, spec_kind, typed_letters
from solver.lexicon.files import LEVEL_SEPARATOR, LEVELLED, split_level
from solver.lexicon.loader import LEVELS, SHIPPED, Lexicon, get_lexicon
from solver.protocol.fair import FairPool, QueueFull
from solver.search.objectives import OBJECTIVES
from solver.web.gate import client_of
from solver.web.health import RETRY_AFTER_SECONDS, Load, Metrics
from solver.web.quotas import QuotaTable
from solver.web.rates import rate_limiter

PAGE = Path(__file__).resolve().parent / "static" / "solve.html"
log = logging.getLogger("bananas.web.solve")
Body = dict[str, Any]


class ApiError(Exception):
    """A request the API refuses: a stable `code`, an English `message`, the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message}


# -- the fields of a request ------------------------------------------------------------------


def quoted(text: str) -> str:
    """A piece of a request in a message: short, and ASCII whatever it held."""
    return ascii(text if len(text) <= MAX_QUOTED_CHARS else text[:MAX_QUOTED_CHARS] + "...")


def check_fields(body: Body, allowed: frozenset[str]) -> None:
    """A field the route does not read is refused (a misspelt option must not be ignored)."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ApiError("bad_field", f"unknown field {quoted(unknown[0])}: the fields are {', '.join(sorted(allowed))}")


def given(body: Body, name: str, default: Any = None) -> Any:
    """A field's value; null is the same as leaving the field out."""
    value = body.get(name)
    return default if value is None else value


def required(body: Body, name: str) -> Any:
    if body.get(name) is None:
        raise ApiError("missing_field", f"the field {name!r} is required")
    return body[name]


def letters_field(body: Body, name: str, most: int) -> TileCounts:
    """Tiles as letters A-Z (either case; spaces ignored; accents folded as the CLI folds a hand's,
    `solver.core.tiles.typed_letters`): at least one, at most `most`."""
    value = required(body, name)
    if not isinstance(value, str):
        raise ApiError("bad_tiles", f'{name} is a string of letters A-Z, e.g. "CATMAP"')
    try:
        return TileCounts.from_letters(typed_letters(value, most, name))  # the CLI's reading: ÉCOLE is ECOLE
    except TileError as error:
        raise ApiError("bad_tiles", str(error)) from None


def tiles_field(body: Body, name: str, default: str | None = None) -> TileCounts | None:
    """A tile set: letters, `en`, `fr` or 'A13,B3,...' (never a file name: nothing is read)."""
    spec = given(body, name, default)
    if spec is None:
        return None
    if not isinstance(spec, str):
        raise ApiError("bad_tiles", f"{name} is letters, en, fr or 'A13,B3,...'")
    try:
        return parse_tiles(spec, MAX_API_TILES)
    except TileError as error:
        raise ApiError("bad_tiles", f"{name}: {error}") from None


# The word lists a request may name: the shipped lists, and English up to a vocabulary level
# ("en@50": common words, the page's "common words" choice). A fixed set: a request never
# names a file, and at most these few lists are ever loaded.
API_LEXICONS = (*SHIPPED, *(f"{name}{LEVEL_SEPARATOR}{level}" for name in LEVELLED for level in LEVELS))


def lexicon_field(body: Body) -> tuple[str, Lexicon]:
    """The word list and its language (the name of its tile set: 'en' for en@50)."""
    spec = given(body, "lexicon", "en")
    if not isinstance(spec, str) or spec not in API_LEXICONS:
        raise ApiError("bad_value", f"lexicon is one of {', '.join(API_LEXICONS)} (the shipped word lists)")
    return split_level(spec)[0], get_lexicon(spec)


def choice_field(body: Body, name: str, choices: tuple, default: Any) -> Any:
    value = given(body, name, default)
    # The exact type: 2.0 == 2 and True == 1 in Python, but neither is a word length.
    if type(value) is not type(default) or value not in choices:
        raise ApiError("bad_value", f"{name} is one of {', '.join(map(str, choices))}")
    return value


def integer_field(body: Body, name: str, low: int, high: int, default: int | None) -> int | None:
    value = given(body, name, default)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise ApiError("bad_value", f"{name} is an integer from {low} to {high}")
    return value


def seconds_field(body: Body) -> float:
    value = given(body, "time_limit", DEFAULT_API_SECONDS)
    # Comparisons only: NaN fails them, and a huge integer needs no conversion to a float.
    if type(value) not in (int, float) or not 0 < value <= MAX_API_SECONDS:
        raise ApiError("bad_value", f"time_limit is a number of seconds above 0 and at most {MAX_API_SECONDS:g}")
    return float(value)


def flag_field(body: Body, name: str) -> bool:
    value = given(body, name, False)
    if type(value) is not bool:
        raise ApiError("bad_value", f"{name} is true or false")
    return value


def grid_field(body: Body, name: str = "grid") -> Grid:
    """A grid: the text notation (one string) or its JSON form (a list of row strings)."""
    value = required(body, name)
    try:
        if isinstance(value, str):
            grid = Grid.parse(value, accents=True)  # CAFÉ is CAFE, as the CLI reads it
        elif isinstance(value, list) and all(isinstance(row, str) for row in value):
            grid = Grid.from_rows(value, accents=True)
        else:
            raise ApiError("bad_grid", f"{name} is the text notation (rows of A-Z and '.') or a list of row strings")
    except GridError as error:
        raise ApiError("bad_grid", f"{name}: {error}") from None
    if grid.height * grid.width > MAX_GRID_CELLS:
        raise ApiError("bad_grid", f"{name}: {grid.height}x{grid.width} cells, at most {MAX_GRID_CELLS}")
    if grid.tile_count > MAX_API_TILES:
        raise ApiError("bad_grid", f"{name}: {grid.tile_count} tiles, at most {MAX_API_TILES}")
    return grid


def tiled_grid_field(body: Body, added: TileCounts) -> Grid:
    """The grid of a live-play request: at least one tile, and room for the `added` ones."""
    grid = grid_field(body)
    if not grid.cells():
        raise ApiError("bad_grid", "grid: the grid has no tiles")
    try:
        check_tile_room(grid, len(added), MAX_API_TILES)  # the CLI's check of peel and dump
    except TileError as error:
        raise ApiError("bad_tiles", str(error)) from None
    return grid


def min_length_field(body: Body) -> int:
    return choice_field(body, "min_length", MIN_WORD_LENGTHS, 2)


def ready_kernels(lexicon: Lexicon) -> None:
    """Load the search kernels for `lexicon` before a request's clock starts (waiting for the
    server's own warm-up if it is under way: `warm_kernels` is thread-safe)."""
    from solver.search.solving import warm_kernels  # numba-backed: loaded in a worker thread

    warm_kernels(lexicon)


def start_board(lexicon: Lexicon, grid: Grid, min_length: int, **settings):
    """A `Board` on the request's grid; a grid that breaks the rules is `invalid_grid`."""
    from solver.search.board import Board  # numba-backed: loaded in a worker thread, when first used

    ready_kernels(lexicon)
    try:
        return Board(lexicon, grid=grid, min_length=min_length, **settings)
    except ValueError as error:
        raise ApiError("invalid_grid", str(error)) from None


# -- the four handlers ------------------------------------------------------------------------

SOLVE_FIELDS = frozenset({"tiles", "lexicon", "objective", "time_limit", "seed", "min_length", "svg"})
PEEL_FIELDS = frozenset({"grid", "letters", "lexicon", "time_limit", "min_length", "svg"})
DUMP_FIELDS = frozenset({"grid", "hand", "bunch", "lexicon", "samples", "seed", "min_length"})
CHECK_FIELDS = frozenset({"grid", "lexicon", "tiles", "min_length", "svg"})


def solve_request(body: Body) -> dict:
    """`bananas solve LETTERS --json`, within the API's time limit and node budget."""
    from solver.search.solving import solve  # numba-backed: loaded in a worker thread

    check_fields(body, SOLVE_FIELDS)
    tiles = letters_field(body, "tiles", MAX_API_TILES)
    _, lexicon = lexicon_field(body)
    objective = choice_field(body, "objective", OBJECTIVES, "any")
    seconds = seconds_field(body)
    seed = integer_field(body, "seed", 0, MAX_SEED, None)
    min_length = min_length_field(body)
    picture = flag_field(body, "svg")
    ready_kernels(lexicon)
    solution = solve(
        tiles,
        lexicon,
        time_limit=seconds,
        objective=objective,
        seed=seed,
        min_length=min_length,
        max_nodes=MAX_API_NODES,
    )
    return with_picture(solution.to_json(), solution.grid if picture else None)


def peel_request(body: Body) -> dict:
    """`bananas peel LETTERS --grid GRID --json`, plus where the new and the moved tiles are."""
    check_fields(body, PEEL_FIELDS)
    letters = letters_field(body, "letters", MAX_API_PEEL_LETTERS)
    grid = tiled_grid_field(body, letters)
    _, lexicon = lexicon_field(body)
    board = start_board(lexicon, grid, min_length_field(body), time_limit=seconds_field(body))
    picture = flag_field(body, "svg")
    old = board.grid
    result = board.add(letters)
    new_cells, moved_cells = changed_cells(old, result.grid, letters) if result.ok else ([], [])
    reply = {**result.to_json(), "new_cells": new_cells, "moved_cells": moved_cells}
    return with_picture(reply, result.grid if picture else None)


def changed_cells(old: Grid, new: Grid, added: TileCounts) -> tuple[list[list[int]], list[list[int]]]:
    """The cells of `new` ([row, col]) that hold the `added` tiles, and those that hold an old tile
    that moved (as many as `tiles_moved` counts): every cell not kept under the best translation.
    Where a new tile and a moved one share a letter, either cell may be called new: the first is."""
    (rows, cols), _ = best_translation(old, new)
    before = old.cells()
    wanted = Counter(added.letters())
    fresh: list[list[int]] = []
    moved: list[list[int]] = []
    for (row, col), letter in sorted(new.cells().items()):
        if before.get((row - rows, col - cols)) == letter:
            continue
        if wanted[letter]:
            wanted[letter] -= 1
            fresh.append([row, col])
        else:
            moved.append([row, col])
    return fresh, moved


def dump_request(body: Body) -> dict:
    """`bananas dump --grid GRID --hand LETTERS --json`: the same Monte Carlo, in fewer draws."""
    from solver.search.board import dump_advice  # numba-backed: loaded in a worker thread

    check_fields(body, DUMP_FIELDS)
    hand = letters_field(body, "hand", MAX_API_TILES)
    grid = tiled_grid_field(body, hand)
    name, lexicon = lexicon_field(body)
    samples = integer_field(body, "samples", 1, MAX_API_DUMP_TRIALS, 16)
    seed = integer_field(body, "seed", 0, MAX_SEED, 0)
    assert samples is not None and seed is not None  # both have a default
    letters = len(set(hand.letters()))
    if samples * letters > MAX_API_DUMP_TRIALS:
        most = MAX_API_DUMP_TRIALS // letters
        raise ApiError(
            "bad_value",
            f"samples: {samples} draws for each of {letters} letters is more than {MAX_API_DUMP_TRIALS} "
            f"in all: ask for at most {most}",
        )
    board = start_board(lexicon, grid, min_length_field(body), hand=hand)
    bunch = bunch_field(body, name, board.tiles)
    return dump_advice(board, bunch, samples=samples, seed=seed, time_per_try=API_DUMP_SECONDS_PER_TRY).to_json()


def bunch_field(body: Body, lexicon_name: str, taken: TileCounts) -> TileCounts:
    """The tiles left to draw, read as `bananas dump --bunch` reads them: letters are the
    bunch itself; a set (en, fr, 'A13,...'; default the word list's language) is the whole
    set, from which the grid and the hand are taken out."""
    spec = given(body, "bunch", lexicon_name)
    tiles = tiles_field(body, "bunch", lexicon_name)
    assert tiles is not None  # it has a default
    if spec_kind(spec) == "letters":
        return tiles
    if not tiles.contains(taken):
        extra = "".join(sorted((Counter(taken.letters()) - Counter(tiles.letters())).elements()))
        raise ApiError("bad_tiles", f"the grid and hand hold more tiles than the bunch's set has: {extra}")
    return tiles - taken


def check_request(body: Body) -> dict:
    """`bananas check GRID --json` (with `--tiles` when `tiles` is given)."""
    check_fields(body, CHECK_FIELDS)
    grid = grid_field(body)
    _, lexicon = lexicon_field(body)
    tiles = tiles_field(body, "tiles")
    report = validate(grid, lexicon, tiles, min_length_field(body))
    reply = {**report.to_json(), "faults": report.faults(), "grid": grid.to_json()}
    if flag_field(body, "svg"):
        from solver.core.svg import grid_svg  # its XML escaping imports urllib: only when drawing

        reply["svg"] = grid_svg(grid, report)
    return reply


def with_picture(reply: dict, grid: Grid | None) -> dict:
    """The reply, with the grid's picture (`bananas solve --svg`'s) when one was asked for."""
    if grid is None:
        return reply
    from solver.core.svg import grid_svg  # its XML escaping imports urllib: only when drawing

    return {**reply, "svg": grid_svg(grid)}


HANDLERS: dict[str, Callable[[Body], dict]] = {
    "/api/solve": solve_request,
    "/api/peel": peel_request,
    "/api/dump": dump_request,
    "/api/check": check_request,
}


# -- around the handlers: rate, body, pool ------------------------------------------------------


def json_response(data: dict, status: int = 200) -> Response:
    """Strict JSON in ASCII: no NaN, and no lone surrogate from a request can break the encoding."""
    text = json.dumps(data, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return Response(text, status_code=status, media_type="application/json", headers={"Cache-Control": "no-store"})


def run_guarded(handler: Callable[[Body], dict], body: Body) -> dict:
    """A handler in a worker thread; a bug of ours is an `internal` error, reported in the log."""
    try:
        return handler(body)
    except ApiError:
        raise
    except Exception as error:
        log.exception("solve API")
        raise ApiError("internal", f"{type(error).__name__}: the server failed on this request", 500) from None


BodyReader = Callable[[Request, int], Awaitable[bytes]]


def job_cost(body: Body) -> float:
    """What a request may cost the pool, for its fair order (solver.protocol.fair): about the
    seconds it may run, more for a large hand or grid (a 288-tile, 5 s solve is some 60 times
    a default 6-tile one)."""
    given_seconds = body.get("time_limit", DEFAULT_API_SECONDS)
    try:  # anything else is refused by the handler (bad_value): the cost only places it in line
        seconds = float(given_seconds) if isinstance(given_seconds, int | float) else MAX_API_SECONDS
    except OverflowError:  # an integer of 400 digits
        seconds = MAX_API_SECONDS
    seconds = seconds if math.isfinite(seconds) else MAX_API_SECONDS
    size = sum(
        len(value)
        for key, value in body.items()
        if key in ("tiles", "grid", "letters", "bunch") and isinstance(value, str)
    )
    return min(max(seconds, 0.0), MAX_API_SECONDS) * (1 + size / 50)


def solve_routes(
    pool: FairPool,
    read_body: BodyReader,
    too_large: type[Exception],
    body_timeout: float,
    load: Load,
    metrics: Metrics,
    quotas: QuotaTable | None = None,
) -> list:
    """The page and the API's routes, on the app's worker pool and body reader (`read_body`,
    which raises `too_large` past its limit). Each address's requests wait in a queue of its
    own (`FairPool`): a client flooding costly solves waits behind its own. The rate per
    address is counted in `quotas`, the table `serve --processes`' workers share, if given."""
    rates = rate_limiter(quotas, "api_requests", API_REQUESTS_PER_SECOND, API_REQUEST_BURST, MAX_API_ADDRESSES)
    jobs = {"open": 0}

    async def parsed_body(request: Request) -> Body:
        # JSON only: a cross-site form or text/plain POST cannot run the solver without a preflight.
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise ApiError("bad_content_type", "send the body as JSON, with Content-Type: application/json", 415)
        try:
            raw = await asyncio.wait_for(read_body(request, MAX_API_BODY_BYTES), body_timeout)
        except too_large:
            raise ApiError("too_large", f"a request body may hold at most {MAX_API_BODY_BYTES} bytes", 413) from None
        except TimeoutError:
            raise ApiError("timeout", "the request body came too slowly", 408) from None
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            raise ApiError("bad_json", "send one JSON object (UTF-8)") from None
        if not isinstance(body, dict):
            raise ApiError("bad_json", "send one JSON object (UTF-8)")
        return body

    async def answer(request: Request) -> Response:
        started = time.monotonic()
        response = await answered(request)
        metrics.api_seconds.labels(request.url.path).observe(time.monotonic() - started)
        return response

    async def answered(request: Request) -> Response:
        handler = HANDLERS[request.url.path]
        try:
            why = load.overloaded()
            if why:
                raise ApiError("overloaded", f"{why}: try again in a moment", 503)
            address = client_of(request.scope) or (request.client.host if request.client else "unknown")
            if not rates.take(address):
                limit = f"{API_REQUESTS_PER_SECOND:g} a second, bursts of {API_REQUEST_BURST}"
                raise ApiError("rate_limited", f"too many requests from your address ({limit}): slow down", 429)
            body = await parsed_body(request)
            if jobs["open"] >= MAX_API_JOBS:
                raise ApiError("busy", "the solver is busy: try again in a moment", 503)
            try:
                job = pool.submit(address, functools.partial(run_guarded, handler, body), cost=job_cost(body))
            except QueueFull:
                raise ApiError(
                    "busy", f"{MAX_API_JOBS_PER_CLIENT} requests of yours are waiting already", 503
                ) from None
            except RuntimeError:  # the pool is shut down: the server is stopping
                raise ApiError("busy", "the server is stopping", 503) from None
            jobs["open"] += 1
            try:
                reply = await asyncio.wrap_future(job)
            finally:
                jobs["open"] -= 1
        except ApiError as error:
            if error.status in (429, 503):
                metrics.refusals.labels(error.code).inc()
            response = json_response(error.to_json(), error.status)
            if error.code == "overloaded":
                response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return response
        return json_response(reply)

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    return [Route("/solve", page), *(Route(path, answer, methods=["POST"]) for path in HANDLERS)]
