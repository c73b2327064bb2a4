"""Game logs: read and check `bananas play --json` logs and room hand logs, and replay them.

Both are JSON lines: a header, then the engine's events
(`Hand.log`, each with its `hand` number and game-clock time `t`, `snapshot` events among
them), a `grids` line after each hand, and optionally a final `match` line. The two formats
differ only in their header::

    bananas-play-log/1  {"seed", "players", "bots": [preset, ...], "variant", "lang", "match", "replay"}
    bananas-room-log/1  {"seed", "players", "names": [name, ...], "bots": [preset or null, ...],
                         "variant", "lang", "match", "hints"}   (optional "tiles": a distribution)

A log is input from anywhere (a download, a file a stranger sent), so `read_log` trusts
nothing: it reads at most MAX_LOG_BYTES, checks every line (types, ranges, player numbers
within the header's count, letters of the variant's tile set) and replays the tiles: the
deal, every PEEL and DUMP draw and every tile returned must add up against the set, and the
`bunch` counts the engine wrote must match. Anything else raises one `LogError` that names
the line. Event kinds it does not know are checked for `hand` and `t` and kept aside.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

from solver.core.grid import Grid, GridError
from solver.core.limits import (
    MAX_BANANAGRAMS_PLAYERS,
    MAX_GAME_TILES,
    MAX_GRID_CELLS,
    MAX_LOG_BYTES,
    MAX_LOG_HANDS,
    MAX_LOG_LINE_BYTES,
    MAX_NAME_CHARS,
    MAX_SECONDS,
    MAX_SEED,
)
from solver.core.tiles import DISTRIBUTIONS, TileCounts, TileError, parse_distribution
from solver.play import events
from solver.play.events import End, LogLine
from solver.play.rules import Rules
from solver.play.variants import BANANAGRAMS, VARIANTS

PLAY_LOG = "bananas-play-log/1"
ROOM_LOG = "bananas-room-log/1"
FORMATS = (PLAY_LOG, ROOM_LOG)
MAX_LOG_SECONDS = MAX_SECONDS  # a hand's clock: the engine's guards end a hand long before a day
MAX_TEXT_CHARS = 1000  # a reason or a problem line as the engine writes it
MAX_PROBLEMS = 1000
MAX_QUOTED_PATH = 200  # characters of a path an error quotes


__all__ = ["LogError", "HandLog", "GameLog", "read_log", "log_line", "room_header", "replay_tables"]


class LogError(ValueError):
    """A log that cannot be read: truncated, foreign or hostile. One line says why."""


@dataclass
class HandLog:
    """One hand of a log: its checked events in order (split to end), and its `grids` line's grids."""

    number: int
    events: list[LogLine] = field(default_factory=list)
    grids: list[list[str] | None] | None = None  # None until the `grids` line

    @property
    def end(self) -> End | None:
        """The hand's `end` event (outcome, winners, reason, `t`), None if the log stops before it."""
        return next((event for event in self.events if event["event"] == events.END), None)


@dataclass
class GameLog:
    """A checked log: its header's settings and its hands."""

    format: str
    header: dict
    players: int
    labels: list[str]  # "P1 hard", "P2 ana": how a review names each seat
    bots: list[str | None]  # each seat's preset, None for a person
    rules: Rules
    hands: list[HandLog]

    @property
    def seed(self) -> int:
        """The seed the game was dealt with (the header's `seed`)."""
        return self.header["seed"]


# -- writing --------------------------------------------------------------------------------------


def log_line(hand: int, event: Mapping[str, Any]) -> dict:
    """An engine event (`Hand.log`) as a log line of hand number `hand`, for every writer of
    logs (`bananas play --json`, the rooms). In a log `hand` is always the hand number, so the
    tiles a `stuck` event names (the engine's own `hand` field) are written as `tiles`."""
    entry = dict(event)
    if "hand" in entry:
        entry["tiles"] = entry.pop("hand")
    return {"hand": hand, **entry}


def room_header(
    seed: int,
    names: list[str],
    bots: list[str | None],
    variant: str,
    lang: str,
    match: str = "single",
    hints: bool = False,
    tiles: str | None = None,
) -> dict:
    """A room log's header line (module docstring): `bots[i]` is a preset, or None for a
    person; `tiles` is the distribution when the room plays other tiles than the language's."""
    header = {
        "event": "header",
        "format": ROOM_LOG,
        "seed": seed,
        "players": len(names),
        "names": list(names),
        "bots": list(bots),
        "variant": variant,
        "lang": lang,
        "match": match,
        "hints": hints,
    }
    if tiles is not None:
        header["tiles"] = tiles
    return header


# -- reading ------------------------------------------------------------------------------------


def read_log(source: str | bytes | Path | IO) -> GameLog:
    """Read and check a log (module docstring). `source`: the log's text or bytes, a path
    (a `Path`, or a one-line str that does not start with '{'), or a file object open for reading."""
    data = _read_bounded(source)
    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"the log is larger than {MAX_LOG_BYTES >> 20} MiB")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise LogError("the log is not UTF-8 text") from None
    if not text.strip():
        raise LogError("the log is empty")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return _LogReader().read(lines)


def _read_bounded(source: str | bytes | Path | IO) -> str | bytes:
    """At most MAX_LOG_BYTES + 1 bytes (or characters) of the source: enough to tell it is too big."""
    if isinstance(source, bytes):
        return source[: MAX_LOG_BYTES + 1]
    if isinstance(source, str) and (looks_like_text(source)):
        return source[: MAX_LOG_BYTES + 1]
    if isinstance(source, (str, Path)):
        try:
            with open(source, "rb") as file:
                return file.read(MAX_LOG_BYTES + 1)
        except OSError as error:
            raise LogError(f"cannot read {str(source)[:MAX_QUOTED_PATH]}: {error.strerror or error}") from None
    return source.read(MAX_LOG_BYTES + 1)


def looks_like_text(source: str) -> bool:
    """A str is a log's text when it starts with '{' or spans lines (or is empty); else a path."""
    return not source.strip() or "\n" in source or source.lstrip().startswith("{")


def _no_constants(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def parse_line(line: str) -> dict:
    """One JSON object, strictly (no NaN or Infinity, bounded size and depth)."""
    if len(line.encode("utf-8", "surrogatepass")) > MAX_LOG_LINE_BYTES:
        raise LogError(f"longer than {MAX_LOG_LINE_BYTES >> 10} KiB")
    try:
        value = json.loads(line, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise LogError("not a JSON object (a truncated or foreign log?)") from None
    if not isinstance(value, dict):
        raise LogError("not a JSON object")
    return value


class _LogReader:
    """Checks the lines one by one, replaying the tiles as it goes."""

    def read(self, lines: list[str]) -> GameLog:
        try:
            self.log = self.check_header(parse_line(lines[0]))
        except LogError as error:
            raise LogError(f"line 1: {error}") from None
        self.table: Table | None = None
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                raise LogError(f"line {number}: empty line")
            try:
                self.line(parse_line(line))
            except (LogError, GridError, TileError, ValueError, TypeError, KeyError) as error:
                raise LogError(f"line {number}: {error}") from None
        hands = self.log.hands
        if not hands:
            raise LogError("the log has no hand (truncated?)")
        if hands[-1].end is None:
            raise LogError(f"the log ends inside hand {hands[-1].number} (truncated?)")
        missing = [hand.number for hand in hands if hand.grids is None]
        if missing:
            raise LogError(f"the log ends before hand {missing[0]}'s grids line (truncated?)")
        return self.log

    def check_header(self, header: dict) -> GameLog:
        if header.get("event") != "header" or header.get("format") not in FORMATS:
            raise LogError(f"not a game log (expected a header of format {' or '.join(FORMATS)})")
        check = Fields(header)
        check.integer("seed", 0, MAX_SEED)
        players = check.integer("players", 1, MAX_BANANAGRAMS_PLAYERS)
        variant = check.choice("variant", tuple(name for name, v in VARIANTS.items() if v.game == BANANAGRAMS))
        lang = check.choice("lang", tuple(DISTRIBUTIONS))
        check.text("match", required=False)
        bots = header.get("bots")
        if not isinstance(bots, list) or len(bots) != players:
            raise LogError(f"'bots' is a list of {players} presets")
        if header["format"] == PLAY_LOG:
            if not all(isinstance(bot, str) and 0 < len(bot) <= MAX_NAME_CHARS for bot in bots):
                raise LogError("each of 'bots' is a preset name")
            labels = [f"P{seat + 1} {bot}" for seat, bot in enumerate(bots)]
        else:
            if not all(bot is None or (isinstance(bot, str) and 0 < len(bot) <= MAX_NAME_CHARS) for bot in bots):
                raise LogError("each of 'bots' is a preset name or null (a person)")
            names = header.get("names")
            if not isinstance(names, list) or len(names) != players:
                raise LogError(f"'names' is a list of {players} names")
            if not all(isinstance(name, str) and 0 < len(name) <= MAX_NAME_CHARS for name in names):
                raise LogError(f"each name is 1 to {MAX_NAME_CHARS} characters")
            labels = [f"P{seat + 1} {name}" for seat, name in enumerate(names)]
        options: dict[str, Any] = {}
        if header.get("tiles") is not None:
            try:
                options["distribution"] = parse_distribution(check.text("tiles"))
            except TileError as error:
                raise LogError(f"'tiles': {error}") from None
            if len(options["distribution"]) > MAX_GAME_TILES:
                raise LogError(f"'tiles' holds more than {MAX_GAME_TILES} tiles")
        try:
            rules = Rules.for_variant(VARIANTS[variant], lang, **options)
            rules.check_players(players)
        except ValueError as error:
            raise LogError(f"{error}") from None
        return GameLog(header["format"], header, players, labels, list(bots), rules, [])

    def line(self, event: dict) -> None:
        """One line after the header. A hand's events run from its split to its end; its
        `grids` line may come at once (a room) or after the last hand (`play --json` writes
        them all at the end of a match)."""
        kind = event.get("event")
        if kind == "match":
            return
        if not isinstance(kind, str):
            raise LogError("no 'event' kind")
        hands = self.log.hands
        number = Fields(event).integer("hand", 1, MAX_LOG_HANDS)
        if kind == events.GRIDS:
            if number > len(hands) or hands[number - 1].end is None or hands[number - 1].grids is not None:
                raise LogError(f"a grids line for hand {number}, which has not ended or has its grids already")
            hands[number - 1].grids = self.check_grids(event)
            return
        if kind == events.SPLIT:
            if hands and hands[-1].end is None:
                raise LogError(f"hand {number} starts before hand {hands[-1].number} ended")
            if number != len(hands) + 1:
                raise LogError(f"hand {number} follows hand {len(hands)}")
            hands.append(HandLog(number))
            self.table = Table(self.log.rules.distribution, self.log.players)
        elif not hands or number != hands[-1].number or hands[-1].end is not None:
            raise LogError(f"a {kind} event of hand {number} outside that hand")
        Fields(event).number("t", 0.0, MAX_LOG_SECONDS)
        assert self.table is not None  # set at the split
        self.table.check(event, self.log.players)
        hands[-1].events.append(cast(LogLine, event))  # (checked: its kind's fields)

    def check_grids(self, event: dict) -> list[list[str] | None]:
        grids = event.get("grids")
        if not isinstance(grids, list) or len(grids) != self.log.players:
            raise LogError(f"'grids' is a list of {self.log.players} grids")
        return [None if rows is None else check_grid(rows, self.log.rules.distribution).to_json() for rows in grids]


class Fields:
    """Checked reads of one line's fields: each raises LogError naming the field."""

    def __init__(self, data: Mapping[str, Any]):
        self.data = data

    def get(self, name: str, required: bool = True) -> Any:
        if name not in self.data:
            if required:
                raise LogError(f"'{name}' is missing")
            return None
        return self.data[name]

    def integer(self, name: str, low: int, high: int) -> int:
        value = self.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise LogError(f"'{name}' is a whole number from {low} to {high}")
        return value

    def number(self, name: str, low: float, high: float) -> float:
        value = self.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise LogError(f"'{name}' is a number")
        if not low <= value <= high:
            raise LogError(f"'{name}' is from {low:g} to {high:g}")
        return float(value)

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        value = self.get(name)
        if value not in choices:
            raise LogError(f"'{name}' is one of {', '.join(choices)}")
        return value

    def text(self, name: str, required: bool = True, limit: int = MAX_TEXT_CHARS) -> str:
        value = self.get(name, required)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or len(value) > limit:
            raise LogError(f"'{name}' is a text of at most {limit} characters")
        return value

    def letters(self, name: str, alphabet: TileCounts, limit: int = MAX_GAME_TILES) -> TileCounts:
        value = self.text(name, limit=limit)
        if value and not (value.isascii() and value.isalpha() and value.isupper()):
            raise LogError(f"'{name}' is tiles, upper-case letters A-Z")
        tiles = TileCounts.from_letters(value)
        foreign = sorted({letter for letter in value if alphabet[letter] == 0})
        if foreign:
            raise LogError(f"'{name}': {''.join(foreign)} is not a tile of this game's set")
        return tiles

    def player(self, players: int, name: str = "player") -> int:
        return self.integer(name, 0, players - 1)


def check_grid(rows: object, alphabet: TileCounts) -> Grid:
    """A grid in the text notation, bounded, of letters the set holds."""
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise LogError("a grid is a list of row strings")
    if len(rows) * max(len(row) for row in rows) > MAX_GRID_CELLS:
        raise LogError(f"a grid has at most {MAX_GRID_CELLS} cells")
    try:
        grid = Grid.from_rows(rows)
    except GridError as error:
        raise LogError(f"bad grid: {error}") from None
    tiles = grid.tiles()
    if len(tiles) > MAX_GAME_TILES:
        raise LogError(f"a grid holds at most {MAX_GAME_TILES} tiles")
    if ((tiles.counts > 0) & (alphabet.counts == 0)).any():  # a letter the set has none of
        foreign = sorted({letter for letter in tiles.letters() if alphabet[letter] == 0})
        raise LogError(f"a grid holds {''.join(foreign)}, not a tile of this game's set")
    return grid


# -- the tiles, replayed ---------------------------------------------------------------------------


class Table:
    """Where every tile of a hand is, event by event: the bunch, what each player holds (grid
    and hand together), who is still in, and the grid each player last showed (a snapshot,
    or the grid of a BANANAS call). `check` checks an event against it and applies it."""

    def __init__(self, distribution: TileCounts, players: int):
        self.distribution = distribution
        self.bunch = distribution
        self.held = [TileCounts() for _ in range(players)]
        self.active = [True] * players
        self.shown: list[Grid | None] = [None] * players
        self.dealt = False

    def copy(self) -> Table:
        other = Table(self.distribution, len(self.held))
        other.bunch, other.dealt = self.bunch, self.dealt
        other.held, other.active, other.shown = list(self.held), list(self.active), list(self.shown)
        return other

    def check(self, event: Mapping[str, Any], players: int) -> None:
        kind = events.kind_of(event)
        check = Fields(event)
        if kind not in events.KINDS and kind != events.HINT:
            raise LogError(f"an event of unknown kind {kind[:40]!r}")
        if kind != events.SPLIT and not self.dealt:
            raise LogError(f"a {kind} event before the split")
        handler: Callable[[Fields, int], None] | None = getattr(self, f"on_{kind}", None)
        if handler is not None:
            handler(check, players)
        if "bunch" in event:
            bunch = check.integer("bunch", 0, MAX_GAME_TILES)
            if bunch != len(self.bunch):
                raise LogError(f"the bunch holds {len(self.bunch)} tiles here, the log says {bunch}")

    def take(self, tiles: TileCounts) -> TileCounts:
        if not self.bunch.contains(tiles):
            raise LogError(f"{tiles.letters()} drawn, but the bunch does not hold them")
        self.bunch = self.bunch - tiles
        return tiles

    def in_hand(self, check: Fields, players: int) -> int:
        player = check.player(players)
        if not self.active[player]:
            raise LogError(f"player {player} is out of the hand")
        return player

    def on_split(self, check: Fields, players: int) -> None:
        hands = check.get("hands")
        if not isinstance(hands, list) or len(hands) != players:
            raise LogError(f"'hands' is a list of {players} hands")
        self.take(Fields({"unused": check.get("unused", required=False) or ""}).letters("unused", self.distribution))
        for seat, letters in enumerate(hands):
            self.held[seat] = self.take(Fields({"hand": letters}).letters("hand", self.distribution))
        self.dealt = True

    def on_peel(self, check: Fields, players: int) -> None:
        self.in_hand(check, players)
        drawn = check.get("drawn")
        if not isinstance(drawn, dict) or not drawn:
            raise LogError("'drawn' maps players to the tile each drew")
        for key, letter in drawn.items():
            if not isinstance(key, str) or not key.isdigit() or int(key) >= players:
                raise LogError(f"'drawn': {str(key)[:20]!r} is not a player of this game")
            seat = int(key)
            if not self.active[seat]:
                raise LogError(f"'drawn': player {seat} is out of the hand")
            tile = Fields({"drawn": letter}).letters("drawn", self.distribution, limit=1)
            if len(tile) != 1:
                raise LogError("'drawn': each player draws one tile")
            self.held[seat] = self.held[seat] + self.take(tile)

    def on_dump(self, check: Fields, players: int) -> None:
        player = self.in_hand(check, players)
        returned = check.letters("returned", self.distribution, limit=1)
        if len(returned) != 1 or not self.held[player].contains(returned):
            raise LogError(f"player {player} dumps a tile they do not hold")
        self.held[player] = self.held[player] - returned
        self.bunch = self.bunch + returned
        drawn = check.letters("drawn", self.distribution, limit=3)
        if len(drawn) != 3:
            raise LogError("a DUMP draws three tiles")
        self.held[player] = self.held[player] + self.take(drawn)

    def on_stuck(self, check: Fields, players: int) -> None:
        player = self.in_hand(check, players)
        if not self.held[player].contains(check.letters("tiles", self.distribution)):
            raise LogError(f"player {player} is stuck with tiles they do not hold")

    def on_snapshot(self, check: Fields, players: int) -> None:
        player = self.in_hand(check, players)
        self.shown[player] = check_grid(check.get("grid"), self.distribution)
        if check.get("begun", required=False) is not None:  # a bot's work: when it began, before now
            check.number("begun", 0.0, check.number("t", 0.0, math.inf))

    def on_bananas(self, check: Fields, players: int) -> None:
        player = self.in_hand(check, players)
        rows = check.get("grid", required=False)
        if rows is not None:
            self.shown[player] = check_grid(rows, self.distribution)

    def on_inspection(self, check: Fields, players: int) -> None:
        self.in_hand(check, players)
        if not isinstance(check.get("valid"), bool):
            raise LogError("'valid' is true or false")

    def on_rotten(self, check: Fields, players: int) -> None:
        player = self.in_hand(check, players)
        problems = check.get("problems")
        if not isinstance(problems, list) or len(problems) > MAX_PROBLEMS:
            raise LogError("'problems' is a list of lines")
        for index in range(len(problems)):
            Fields({"problem": problems[index]}).text("problem")
        self.go_out(player)

    def on_left(self, check: Fields, players: int) -> None:
        self.go_out(self.in_hand(check, players))

    def go_out(self, player: int) -> None:
        self.bunch = self.bunch + self.held[player]
        self.held[player] = TileCounts()
        self.active[player] = False

    def on_hint(self, check: Fields, players: int) -> None:
        self.in_hand(check, players)

    def on_end(self, check: Fields, players: int) -> None:
        check.choice("outcome", ("win", "shared", "unawarded", "replay"))
        check.text("reason")
        winners = check.get("winners")
        if not isinstance(winners, list) or len(winners) > players:
            raise LogError("'winners' is a list of players")
        for index in range(len(winners)):
            Fields({"winner": winners[index]}).player(players, "winner")


def replay_tables(log: GameLog, hand: HandLog) -> Iterator[tuple[LogLine, Table, Table]]:
    """Each event of `hand` with the table just before it and just after it (`Table`
    copies), for the review and the replay: the log was checked, so this cannot fail."""
    table = Table(log.rules.distribution, log.players)
    for event in hand.events:
        before = table.copy()
        table.check(event, log.players)
        yield event, before, table
