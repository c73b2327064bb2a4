"""The review of a played game: for each hand and each player (bots too), what happened and
what their tiles could have become.

For each player of each hand, the end of the hand as `solver.coach.record` defines it (the
same record a room's end screen shows), and what the coach adds::

    tiles             the tiles they held at the end (on going out, for a player out of the hand)
    tiles_left        their rack: the tiles held that are not on their grid
    grid, valid       their grid as the table last saw it (a bot's work still under way when the
                      hand ended is not laid; for a rotten banana the grid called), checked by
                      the independent validator against those tiles
    best              the best grid those tiles allowed: fewest words, then the longest word,
                      from `solve` within fixed node budgets (`best_grid`: the same review on
                      every machine; the time limit is only a safety net), or the player's
                      own grid when it is better still
    first_grid_s      the first moment, on the table's clock, their rack was empty (the
                      record's `first_grid`); null if never
    tiles_per_minute  their own: tiles on their grid per minute from the split to their finish
                      (their BANANAS call, rotten banana or leaving, else the hand's end)
    peels, dumps      the PEELs they called; each DUMP with what `dump_advice` would have dumped
                      from the grid and hand the table last saw (at most MAX_ADVISED_DUMPS each)
    hints             hints shown to them (rooms)
    rotten            for a rotten banana: the invalid words, and the nearest valid grid of the
                      same tiles (the live-play rebuild from what stood, fewest tiles moved)

and for each hand, `lead`: where it turned (`LeadTracker`: who had the most tiles on the
table, from when).

A review's cost is bounded by its node budgets: a 4-player hand takes one to four seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from solver.coach.logs import GameLog, HandLog, Table, read_log, replay_tables
from solver.coach.record import PlayerRecord, hand_record
from solver.core.grid import Grid, find_words, validate
from solver.core.limits import MAX_REVIEW_NODES
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.play import events

REVIEW_FORMAT = "bananas-review/1"
SAFETY_SECONDS = 30.0  # a search's time limit: its node budget decides long before
MAX_ADVISED_DUMPS = 8  # dumps per player per hand given advice (each costs a few hundred searches)
ADVICE_SAMPLES = 6  # draws simulated per letter of the hand
ADVICE_TRIAL_NODES = 200  # search nodes per tier of each simulated draw
NEAREST_NODES = 2_000  # search nodes per search call of the rebuild to the nearest valid grid


__all__ = ["review", "best_grid", "GameReview", "HandReview", "PlayerReview", "BestGrid"]


@dataclass
class BestGrid:
    """The best grid a player's tiles allowed: the grid, its number of words and its longest word."""

    grid: Grid
    words: int
    longest: str

    def to_json(self) -> dict:
        """`{"grid": [rows], "words": n, "longest": "WORD"}`."""
        return {"grid": self.grid.to_json(), "words": self.words, "longest": self.longest}


@dataclass
class PlayerReview:
    """One player's review of one hand: the fields of the module docstring. `player` is the
    seat (0-based), `first_grid_s` seconds on the game clock from the split, `dumps` one dict
    per DUMP (`t`, `returned`, `drawn`, `advised`), `rotten` the invalid words and the nearest
    valid grid (`{"invalid": [...], "nearest": {"grid": [rows], "tiles_moved": n}}`) or None."""

    player: int
    label: str
    tiles: TileCounts
    tiles_left: int
    grid: Grid | None
    problems: list[str]
    best: BestGrid | None
    first_grid_s: float | None
    tiles_per_minute: float | None
    peels: int
    dumps: list[dict]
    hints: int
    rotten: dict | None

    @property
    def valid(self) -> bool:
        """Whether their last grid is a valid grid of exactly their tiles."""
        return self.grid is not None and not self.problems

    def to_json(self) -> dict:
        """The player's entry of the review JSON (README, "Coach"): every field, grids as rows."""
        return {
            "player": self.player,
            "label": self.label,
            "tiles": self.tiles.letters(),
            "tiles_left": self.tiles_left,
            "grid": self.grid.to_json() if self.grid is not None else None,
            "valid": self.valid,
            "problems": self.problems,
            "best": self.best.to_json() if self.best is not None else None,
            "first_grid_s": self.first_grid_s,
            "tiles_per_minute": self.tiles_per_minute,
            "peels": self.peels,
            "dumps": self.dumps,
            "hints": self.hints,
            "rotten": self.rotten,
        }


@dataclass
class HandReview:
    """One hand's review: its number (from 1), how it ended (`outcome`, `winners`, `reason`, as
    the engine's `end` event), each player's review and `lead`, where the hand turned."""

    hand: int
    outcome: str
    winners: list[int]
    reason: str
    players: list[PlayerReview] = field(default_factory=list)
    lead: list[dict] = field(default_factory=list)  # where the hand turned: `lead_changes`

    def to_json(self) -> dict:
        """The hand's entry of the review JSON."""
        return {
            "hand": self.hand,
            "outcome": self.outcome,
            "winners": self.winners,
            "reason": self.reason,
            "lead": self.lead,
            "players": [player.to_json() for player in self.players],
        }


@dataclass
class GameReview:
    """The review of every hand of a log (`review`)."""

    hands: list[HandReview]

    def to_json(self) -> dict:
        """`{"format": "bananas-review/1", "hands": [...]}`: what `bananas review --json` prints."""
        return {"format": REVIEW_FORMAT, "hands": [hand.to_json() for hand in self.hands]}

    def text(self) -> str:
        """The review as `bananas review` prints it: each player's grid beside the best one."""
        return review_text(self)


def review(
    log: GameLog | str | Path | bytes | IO, *, lexicon: Lexicon | str | None = None, common: Lexicon | None = None
) -> GameReview:
    """The review of every hand of `log` (a `GameLog`, or anything `read_log` reads). With
    `common` (a list inside `lexicon`: words people know), each best grid is sought in it first."""
    game = log if isinstance(log, GameLog) else read_log(log)
    words = lexicon if isinstance(lexicon, Lexicon) else get_lexicon(lexicon or game.rules.lexicon)
    return GameReview([review_hand(game, hand, words, common) for hand in game.hands])


# -- one hand ---------------------------------------------------------------------------------


def review_hand(game: GameLog, hand: HandLog, lexicon: Lexicon, common: Lexicon | None = None) -> HandReview:
    record = hand_record(game, hand)  # the end of the hand, as a room's end screen shows it
    dumps: list[list[tuple[events.Dump, Table]]] = [[] for _ in range(game.players)]
    lead = LeadTracker()
    for event, before, after in replay_tables(game, hand):
        if event["event"] == events.DUMP:
            dumps[event["player"]].append((event, before))
        lead.note(event["t"], after)
    assert hand.end is not None  # read_log checked
    end = hand.end
    result = HandReview(hand.number, end["outcome"], list(end["winners"]), end["reason"], lead=lead.changes)
    for player in record.players:
        result.players.append(review_player(game, player, dumps[player.player], lexicon, common))
    return result


class LeadTracker:
    """Where the hand turned: each time another player takes the lead, the lead being the
    most tiles on the grid the table sees (snapshots, BANANAS calls), among the players still
    in; a tie keeps the leader. Each change is {"t", "player", "placed"}."""

    def __init__(self) -> None:
        self.changes: list[dict] = []
        self.leader: int | None = None

    def note(self, t: float, table: Table) -> None:
        placed = [
            grid.tile_count if grid is not None and active else -1 for grid, active in zip(table.shown, table.active)
        ]
        best = max(placed)
        if best <= 0 or (self.leader is not None and placed[self.leader] == best):
            return
        self.leader = placed.index(best)
        self.changes.append({"t": t, "player": self.leader, "placed": best})


def review_player(
    game: GameLog,
    record: PlayerRecord,
    dumps: list[tuple[events.Dump, Table]],
    lexicon: Lexicon,
    common: Lexicon | None = None,
) -> PlayerReview:
    rules = game.rules
    tiles, grid = record.tiles, record.grid
    problems = validate(grid, lexicon, tiles, rules.min_length).problems() if grid is not None else ["no grid"]
    return PlayerReview(
        player=record.player,
        label=game.labels[record.player],
        tiles=tiles,
        tiles_left=record.tiles_left,
        grid=grid,
        problems=problems,
        best=best_grid(tiles, grid if not problems else None, lexicon, rules.min_length, common),
        first_grid_s=record.first_grid,
        tiles_per_minute=record.tiles_per_minute,
        peels=record.peels,
        dumps=[
            dump_review(event, before, lexicon, rules.min_length, index) for index, (event, before) in enumerate(dumps)
        ],
        hints=record.hints,
        rotten=rotten_review(grid, tiles, lexicon, rules.min_length) if record.out == "rotten" else None,
    )


# -- the searches, each within a fixed node budget --------------------------------------------------


def grid_key(grid: Grid) -> tuple:
    """Fewest words, then the longest word, then the rows (a total order: ties cannot
    depend on which search ran first)."""
    words = find_words(grid)
    return (len(words), -max((len(word.text) for word in words), default=0), grid.rows)


def describe_best(grid: Grid) -> BestGrid:
    words = find_words(grid)
    longest = max((word.text for word in words), key=lambda text: (len(text), [-ord(c) for c in text]), default="")
    return BestGrid(grid, len(words), longest)


BEST_SEEDS = 6  # move orders of the quick searches for a first grid
FULL_BUDGET_TILES = 26  # up to this many tiles, the fewest-words search gets all MAX_REVIEW_NODES


def fewest_words_nodes(tiles: int) -> int:
    """The fewest-words search's node budget: every grid it finds costs a check in Python
    that grows with the grid, and a big hand finds many per node, so the budget shrinks with
    the fourth power of the hand's size past FULL_BUDGET_TILES (a 52-tile hand gets 1/16)."""
    return max(1, int(MAX_REVIEW_NODES * min(1.0, (FULL_BUDGET_TILES / tiles) ** 4)))


def best_grid(
    tiles: TileCounts, own: Grid | None, lexicon: Lexicon, min_length: int, common: Lexicon | None = None
) -> BestGrid | None:
    """The best grid of `tiles` (fewest words, then longest word): the best of a fewest-words
    search and BEST_SEEDS quick first-grid searches, each within a fixed node budget, or the
    player's own valid grid `own` when it is better. With `common`, the best grid of common
    words when there is one (a review of EMMENAGOGUES and TROOZ teaches nothing), else as above."""
    from solver.search.solving import solve

    if not len(tiles):
        return None
    if common is not None:
        familiar = best_grid(tiles, None, common, min_length)
        if familiar is not None:
            return familiar
    candidates = [own] if own is not None else []
    searches = [("fewest-words", 0, fewest_words_nodes(len(tiles)))]
    searches += [("any", seed, MAX_REVIEW_NODES) for seed in range(1, BEST_SEEDS + 1)]
    for objective, seed, nodes in searches:
        found = solve(
            tiles,
            lexicon,
            time_limit=SAFETY_SECONDS,
            objective=objective,
            seed=seed,
            min_length=min_length,
            max_nodes=nodes,
        )
        if found.grid is None:
            break  # no grid within the budget: the other orders would spend it too
        candidates.append(found.grid)
    return describe_best(min(candidates, key=grid_key)) if candidates else None


def dump_review(event: events.Dump, before: Table, lexicon: Lexicon, min_length: int, index: int) -> dict:
    """One DUMP: what was returned and drawn, and the dump advice from the grid and hand
    the table saw just before (the last snapshot, when it was valid and its tiles were held;
    otherwise every tile held, as a hand with no grid)."""
    summary = {"t": event["t"], "returned": event["returned"], "drawn": event["drawn"], "advised": None}
    if index >= MAX_ADVISED_DUMPS:
        return summary
    from solver.search.board import Board, dump_advice

    player = event["player"]
    held, shown = before.held[player], before.shown[player]
    returned = TileCounts.from_letters(event["returned"])
    grid = shown
    if grid is not None:
        hand_left = held - grid.tiles() if held.contains(grid.tiles()) else TileCounts()
        if not held.contains(grid.tiles()) or not hand_left.contains(returned):
            grid = None
        elif not validate(grid, lexicon, min_length=min_length).ok:
            grid = None
    hand = held - grid.tiles() if grid is not None else held
    board = Board(lexicon, grid, hand, min_length, seed=0, time_limit=SAFETY_SECONDS, node_budget=ADVICE_TRIAL_NODES)
    advice = dump_advice(
        board,
        before.bunch,
        samples=ADVICE_SAMPLES,
        seed=0,
        time_per_try=SAFETY_SECONDS,
        trial_budget=ADVICE_TRIAL_NODES,
    )
    summary["advised"] = advice.recommended
    return summary


def rotten_review(called: Grid | None, tiles: TileCounts, lexicon: Lexicon, min_length: int) -> dict:
    """A rotten banana: the invalid words of the grid called, and the nearest valid grid of
    the same tiles: broken words and stray parts lifted, then the live-play rebuild (hook,
    lift, rebuild, full solve), its moved tiles counted against the grid called."""
    from solver.search.board import Board, tiles_moved

    if called is None:
        return {"invalid": [], "nearest": None}
    report = validate(called, lexicon, tiles, min_length)
    invalid = [word.text for word in report.invalid_words]
    nearest = None
    if tiles.contains(called.tiles()):
        board = Board.mended(
            lexicon,
            called,
            tiles - called.tiles(),
            min_length,
            seed=0,
            time_limit=SAFETY_SECONDS,
            node_budget=NEAREST_NODES,
        )
        rebuilt = board.rebuild()
        if rebuilt.ok and rebuilt.grid is not None:
            nearest = {"grid": rebuilt.grid.to_json(), "tiles_moved": tiles_moved(called, rebuilt.grid)}
    return {"invalid": invalid, "nearest": nearest}


# -- text -------------------------------------------------------------------------------------------


def review_text(game_review: GameReview) -> str:
    """The review as `bananas review` prints it."""
    lines: list[str] = []
    for hand in game_review.hands:
        winners = ", ".join(hand.players[w].label for w in hand.winners)
        lines.append(f"== hand {hand.hand}: {hand.outcome}{f' ({winners})' if winners else ''}: {hand.reason}")
        if hand.lead:
            turns = ", ".join(f"{hand.players[turn['player']].label} at {turn['t']:.1f} s" for turn in hand.lead)
            lines.append(f"   the lead (most tiles on the table): {turns}")
        for player in hand.players:
            lines.append("")
            lines.extend(player_text(player))
        lines.append("")
    return "\n".join(lines)


def player_text(player: PlayerReview) -> list[str]:
    first = f"{player.first_grid_s:.1f} s" if player.first_grid_s is not None else "never"
    pace = f"{player.tiles_per_minute:.1f} tiles/min" if player.tiles_per_minute is not None else "no pace"
    counts = [plural(player.peels, "PEEL"), plural(len(player.dumps), "DUMP")]
    if player.hints:
        counts.append(plural(player.hints, "hint"))
    left = f" ({player.tiles_left} left in the rack)" if player.tiles_left else ""
    lines = [f"-- {player.label}: {len(player.tiles)} tiles{left}, first grid {first}, {pace}, {', '.join(counts)}"]
    for dump in player.dumps:
        advice = f"advice: {dump['advised']}" if dump["advised"] else "no advice"
        lines.append(f"   DUMP at {dump['t']:.1f} s: {dump['returned']} -> {dump['drawn']} ({advice})")
    own = player.grid.to_json() if player.grid is not None else []
    if not player.valid:  # on a line of its own: a long verdict would push the best grid aside
        lines.append(f"   not valid: {'; '.join(player.problems)}")
    best = player.best
    best_rows = best.grid.to_json() if best is not None else []
    verdict = "valid" if player.valid else "not valid"
    own_title = f"grid ({len(find_words(player.grid)) if player.grid else 0} words, {verdict})"
    best_title = f"best ({best.words} words, longest {best.longest})" if best is not None else "best: none found"
    lines.extend(side_by_side([(own_title, own), (best_title, best_rows)]))
    if player.rotten is not None:
        invalid = player.rotten["invalid"]
        lines.append(
            f"   rotten banana: {'not words: ' + ', '.join(invalid) if invalid else '; '.join(player.problems)}"
        )
        nearest = player.rotten["nearest"]
        if nearest is not None:
            lines.append(f"   nearest valid grid, {nearest['tiles_moved']} tiles moved:")
            lines.extend("   " + row for row in nearest["grid"])
    return lines


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def side_by_side(blocks: list[tuple[str, list[str]]], gap: str = "   ") -> list[str]:
    widths = [max([len(title)] + [len(row) for row in rows]) for title, rows in blocks]
    height = max(len(rows) for _, rows in blocks)
    lines = [("   " + gap.join(title.ljust(width) for (title, _), width in zip(blocks, widths))).rstrip()]
    for index in range(height):
        cells = [(rows[index] if index < len(rows) else "").ljust(width) for (_, rows), width in zip(blocks, widths)]
        lines.append(("   " + gap.join(cells)).rstrip())
    return lines
