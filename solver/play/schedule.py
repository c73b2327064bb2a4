"""The schedule of a bot tournament and one scheduled game (`solver.play.tournament` explains
the seat rotation): made up front in the calling process, each game a pure function of its
task, so local workers (`tournament`) and a Dask cluster (`cluster`) play the same games.
Spellevate series (`spellevate_tournament`) seat their bots by the same schedule."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.core.limits import MAX_LINEUPS
from solver.play.hand import Hand
from solver.play.rules import Bot, Rules


@dataclass
class GameRecord:
    """One game of a tournament: who sat where and how the hand ended (seat indices)."""

    index: int
    group: int
    rotation: int
    seed: int  # the hand seed (shared by the group)
    entries: list[int]  # entry index seated at each seat
    outcome: str
    winners: list[int]  # seats
    reason: str
    clock: float  # simulated seconds
    dumps: list[int]  # per seat
    rotten: list[int]  # per seat
    events: int


def entry_names(bot_specs: list[str]) -> list[str]:
    """The specs, with '#2', '#3' added to repeats so that every entry has its own name."""
    seen: dict[str, int] = {}
    names = []
    for spec in bot_specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return names


def hand_seed(seed: int, group: int) -> int:
    """The hand seed (an unsigned 32-bit int) of rotation group `group` in the tournament of `seed`: every
    game of the group deals the same tiles.
    """
    return int(np.random.SeedSequence([seed, group]).generate_state(1)[0])


def lineups(entries: int, players: int, groups: int, seed: int) -> list[list[int]]:
    """The entries seated (before rotation) in each group; see the module docstring."""
    if entries <= players:
        lineup = [i % entries for i in range(players)]
        return [lineup] * groups
    if math.comb(entries, players) > MAX_LINEUPS:
        raise ValueError(f"{entries} entries at {players} players make too many lineups (at most {MAX_LINEUPS})")
    combos = list(itertools.combinations(range(entries), players))
    rng = np.random.default_rng([seed, 0xB07])
    order: list[tuple[int, ...]] = []
    while len(order) < groups:
        order += [combos[i] for i in rng.permutation(len(combos))]
    return [list(combo) for combo in order[:groups]]


def schedule(entries: int, players: int, games: int, seed: int) -> list[tuple[int, int, int, int, list[int]]]:
    """(index, group, rotation, hand seed, entry per seat) for every game, whole groups."""
    groups = max(1, -(-games // players))
    tasks = []
    for group, lineup in enumerate(lineups(entries, players, groups, seed)):
        seed_g = hand_seed(seed, group)
        for rotation in range(players):
            seated = [lineup[(seat - rotation) % players] for seat in range(players)]
            tasks.append((group * players + rotation, group, rotation, seed_g, seated))
    return tasks


def play_game(task: tuple, bot_specs: list[str], rules: Rules, make: Callable[[str], Bot] | None = None) -> GameRecord:
    """Run one scheduled game (in a worker process or in-process). `make` builds a bot from a
    spec (default `solver.play.bots.make_bot`); a bot with a `watch` method is handed the
    `Hand` before the split (the ceiling study's oracle reads the table through it)."""
    from solver.play.bots import (
        make_bot,  # numba-backed: imported where games are played
    )

    index, group, rotation, seed, seated = task
    bots = [(make or make_bot)(bot_specs[entry]) for entry in seated]
    hand = Hand(rules, bots, seed)
    for bot in bots:
        watch = getattr(bot, "watch", None)
        if watch is not None:
            watch(hand)
    result = hand.play()
    dumps = [0] * len(bots)
    rotten = [0] * len(bots)
    for event in result.events:
        if event["event"] == "dump":
            dumps[event["player"]] += 1
        elif event["event"] == "rotten":
            rotten[event["player"]] += 1
    return GameRecord(
        index,
        group,
        rotation,
        seed,
        list(seated),
        result.outcome,
        list(result.winners),
        result.reason,
        round(result.clock, 3),
        dumps,
        rotten,
        len(result.events),
    )
