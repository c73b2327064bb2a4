"""How fast a bot plays on the game's clock: its first 21-tile grid and its tile rate after it.

A person choosing a bot wants to know how fast it goes, in the units of a table: how long
its first grid takes ("finishes a 21-tile grid in about 3 min") and how many tiles a minute
it places after that (each PEEL is a tile for everyone). `measure_pace` plays seeded hands of
classic English Bananagrams between copies of one bot spec (1 to 4 at the table) on the
simulated clock and reads both figures from the referee's ledger:

    first grid   the end of the player's first decision that left its hand empty (it
                 called or planned PEEL or BANANAS): its 21 dealt tiles in one valid grid
    tile rate    tiles on its grid gained per minute over the `window` seconds of clock
                 after its first grid (or up to the end of the hand, if sooner)

`benchmarks/bench_pace.py` measures every preset (solo and at tables of 2 and 4) and, with
--record, writes each one's medians over all those seats into `pace.json` beside this module,
with the table sizes, hands and seed it used; `preset_pace(name)` reads them for the front-ends
(`solver.play.presets.pace_line`: the lobby's "finishes a 21-tile grid in about 3.5 min").
tests/play/test_pace.py measures again from the file's settings and checks the figures.
A preset whose speed follows the table (`lead`, the pacer) has no fixed pace and no entry.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from solver.play.cost import Charge
from solver.play.hand import Hand
from solver.play.rules import Rules

PACE_FILE = Path(__file__).with_name("pace.json")
WINDOW_SECONDS = 180.0  # clock after the first grid over which the tile rate is measured


@dataclass(frozen=True)
class PaceSample:
    """One player's pace in one hand."""

    players: int
    first_grid: float | None  # seconds; None: no first grid before the hand ended
    tiles_per_minute: float | None  # None: no clock left after the first grid


@dataclass(frozen=True)
class Pace:
    """A spec's pace: medians over hands and seats."""

    first_grid: float  # seconds to a first 21-tile grid
    tiles_per_minute: float  # tiles placed per minute after it

    def describe(self) -> str:
        """The lobby's line: 'finishes a 21-tile grid in about 3 min, then 1.3 tiles a minute'."""
        rate = f"{self.tiles_per_minute:.1f}" if self.tiles_per_minute < 10 else f"{self.tiles_per_minute:.0f}"
        return f"finishes a 21-tile grid in about {clock_words(self.first_grid)}, then {rate} tiles a minute"


def clock_words(seconds: float) -> str:
    """'about 40 s', '1.5 min', '3 min': what a person reads at a glance."""
    if seconds < 90:
        return f"{round(seconds / 5) * 5:.0f} s"
    minutes = round(seconds / 30) / 2
    return f"{minutes:g} min"


def placed_timeline(ledger: list[Charge], player: int) -> list[tuple[float, int]]:
    """(clock, tiles on the player's grid) after each of its decisions' work landed."""
    on_grid, points = 0, []
    for charge in ledger:
        if charge.player == player:
            on_grid += charge.work.laid - charge.work.lifted
            points.append((charge.at + charge.seconds, on_grid))
    return points


def first_grid_seconds(ledger: list[Charge], player: int) -> float | None:
    """The end of the player's first decision that left its hand empty (called or planned
    PEEL or BANANAS)."""
    for charge in ledger:
        if charge.player == player and charge.action in ("peel", "bananas"):
            return charge.at + charge.seconds
    return None


def tile_rate(ledger: list[Charge], player: int, start: float, end: float) -> float | None:
    """Tiles a minute the player's grid gained between clock `start` and `end`."""
    if end <= start:
        return None
    timeline = [(0.0, 0), *placed_timeline(ledger, player)]
    at_start = max((tiles for when, tiles in timeline if when <= start), default=0)
    at_end = max((tiles for when, tiles in timeline if when <= end), default=0)
    return 60.0 * (at_end - at_start) / (end - start)


def play_until(hand: Hand, enough) -> None:
    """Run the hand's events in clock order until `enough()` or the hand ends."""
    hand.start()
    while (due := hand.next_due()) is not None and not enough():
        hand.advance(due)  # every event of that moment, then look again


def pace_samples(spec: str, players: int, seed: int, window: float = WINDOW_SECONDS) -> list[PaceSample]:
    """Every seat's pace in one hand of `players` copies of `spec`, played until each has had
    `window` seconds of clock after its first grid (or the hand ended)."""
    from solver.play.bots import make_bot

    hand = Hand(Rules(), [make_bot(spec) for _ in range(players)], seed)

    def enough() -> bool:
        firsts = [first_grid_seconds(hand.ledger, player) for player in range(players)]
        return all(first is not None and hand.clock >= first + window for first in firsts)

    play_until(hand, enough)
    samples = []
    for player in range(players):
        first = first_grid_seconds(hand.ledger, player)
        rate = tile_rate(hand.ledger, player, first, min(hand.clock, first + window)) if first is not None else None
        samples.append(PaceSample(players, first, rate))
    return samples


def measure_pace(spec: str, players: tuple[int, ...], hands: int, seed: int, window: float = WINDOW_SECONDS) -> Pace:
    """Medians of `pace_samples` over `hands` seeded hands at each table size in `players`."""
    seeds = np.random.SeedSequence(seed).generate_state(hands)
    samples = [s for count in players for hand in seeds for s in pace_samples(spec, count, int(hand), window)]
    return summarise(samples)


def summarise(samples: list[PaceSample]) -> Pace:
    """The Pace of `samples`: the medians of the first-grid times (simulated seconds) and of the tiles a
    minute after it. ValueError if no hand reached a first grid.
    """
    firsts = [s.first_grid for s in samples if s.first_grid is not None]
    rates = [s.tiles_per_minute for s in samples if s.tiles_per_minute is not None]
    if not firsts or not rates:
        raise ValueError("no hand reached a first grid")
    return Pace(statistics.median(firsts), statistics.median(rates))


@cache
def recorded_paces() -> dict[str, Pace]:
    """The paces bench_pace.py recorded (`PACE_FILE`), by preset."""
    data = json.loads(PACE_FILE.read_text(encoding="utf-8"))
    return {name: Pace(entry["first_grid"], entry["tiles_per_minute"]) for name, entry in data["presets"].items()}


def preset_pace(name: str) -> Pace | None:
    """The recorded pace of a Bananagrams preset, or None if it has none (a pacing bot's
    follows the table)."""
    return recorded_paces().get(name)
