"""The oracle of the strategy-ceiling study: a bot that knows the bunch's future draws.

No fair player can know them: the referee draws every tile at random (`solver.core.tiles.draw`
on the hand's seeded generator). The oracle reads that generator and the bunch off the table
(`watch`: `solver.play.schedule.play_game` hands it the `Hand` before the split) and replays the
next draws on copies, so it knows exactly which tiles a PEEL or a DUMP made now would bring,
as long as nobody else draws first. It plays as its base preset (`hard`: pace, vocabulary,
search) and uses that knowledge in two places:

    dumps      when stuck, it tries each letter of its hand against the three tiles a DUMP of
               that letter would draw now, with the same quick rebuild the Monte-Carlo advice
               runs (hook and a few lifts, capped in search nodes, the nodes charged as looks),
               and dumps the first letter, hardest first, whose draw it can place; if none
               can, the hardest letter
    hook room  a flexible oracle keeps hook spots open for the awkward letters the bunch
               really holds, not for every unseen one (a first version kept room only for the
               awkward letters of the next 6 draws: it won 35.5% of 400 games against hard,
               benchmarks/results/2026-12-06-strategy-ceiling.md, so room for the letters
               further off matters)

With `first` (version 3, a ceiling of the first grid, where a race at equal pace is mostly won:
the player ahead after it PEELs and the other's planned PEELs keep being overtaken) it lays the
first grid with the fewest words the search finds within FIRST_NODES nodes, but is charged only the
looks of its plain first grid: a player who sees the best opening at a glance.

With `racks` it also sees the other players' hands (version 2): when it is stuck while another
player has placed every tile (that player's PEEL is coming), it works out the tile that PEEL
will bring it and waits for it instead of dumping when a quick rebuild places its hand with
that tile. Everything it does is deterministic (node caps
and the table's own seeded generator) and costed on the referee's clock like any bot's work.

Specs: 'oracle' (hard with the bunch's order), 'oracle:racks' (and the others' racks),
'oracle:first' (and the best opening for the looks of the plain one), with
hard's settings after a second colon: 'oracle::node_budget=800'. `make` builds either, and
any ordinary spec (`solver.play.bots.make_bot`), for `run_tournament(..., make=make)`.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from solver.core.tiles import HARD_FIRST, TileCounts, draw
from solver.play.bots import PRESETS, GreedyBot, SolverBot, make_bot
from solver.play.rules import Decision
from solver.search.board import Board

FIRST_NODES = 60  # the search nodes a `first` oracle's opening may use, uncharged beyond its plain first grid's
TRIAL_BUDGET = 12  # search nodes per tier of each trial rebuild (as the dump advice's trials)


class OracleBot(SolverBot):
    """A SolverBot that reads the bunch's future draws (and with `racks` the others' hands) off the
    table it `watch`es; see the module docstring."""

    def __init__(self, settings=PRESETS["hard"], racks: bool = False, first: bool = False):
        super().__init__(settings)
        self.racks = racks
        self.first = first
        self.table = None  # the Hand, once watched

    def watch(self, hand) -> None:
        """Called by the game's driver with the `Hand` before the split: the table it reads."""
        self.table = hand

    def play(self, view):
        """SolverBot's play; a `first` oracle's first grid is the fewest-words one of a FIRST_NODES
        search, its looks those of the plain first grid (module docstring)."""
        assert self.board is not None  # start() made the board
        if not self.first or self.board.grid is not None:
            return super().play(view)
        plain = Board(
            self.board.lexicon,
            None,
            self.board.hand,
            self.board.min_length,
            None,
            5.0,
            self.settings.node_budget,
            plan=self.board.plan,
        )
        plain.patience = self.settings.patience
        looks = plain.rebuild().nodes
        self.board.opening = FIRST_NODES
        patience, self.settings = self.settings.patience, replace(self.settings, patience=None)
        try:
            decision = super().play(view)
        finally:
            self.settings = replace(self.settings, patience=patience)
            self.board.opening = self.settings.opening
        decision.looks = looks
        return decision

    def next_draws(self, count: int, returned: str = "") -> list[TileCounts]:
        """The tiles the next `count` draws of one tile each would bring (a DUMP's three when
        `returned` names the tile mixed in first), replayed on a copy of the table's generator."""
        assert self.table is not None  # watched before the split
        rng = copy.deepcopy(self.table.rng)
        bunch = self.table.bunch + TileCounts.from_letters(returned)
        drawn = []
        for _ in range(min(count, len(bunch))):
            tile = draw(bunch, 1, rng)
            bunch = bunch - tile
            drawn.append(tile)
        return drawn

    def dump_draw(self, letter: str) -> TileCounts:
        """The three tiles a DUMP of `letter` made now would draw."""
        assert self.table is not None  # watched before the split
        rng = copy.deepcopy(self.table.rng)
        return draw(self.table.bunch + TileCounts.from_letters(letter), 3, rng)

    def awkward_to_come(self) -> TileCounts:
        """The awkward letters the bunch really holds (not those in the others' hands and grids, which
        no PEEL brings); before the table is watched, SolverBot's."""
        if self.table is None:
            return super().awkward_to_come()
        return TileCounts.from_letters("".join(ch for ch in self.table.bunch.letters() if ch in self.settings.room))

    def coming_peel_tile(self) -> TileCounts | None:
        """With `racks`: the tile this seat gets from the PEEL of the first other active player
        whose hand is empty (every tile on its grid), replayed in the referee's order (the caller
        draws first, then the seats after it); None when no such player is in sight."""
        if not self.racks or self.table is None:
            return None
        seats, active = self.table.seats, self.table.active
        mine = next(index for index in active if seats[index].bot is self)
        for caller in active:
            bot = seats[caller].bot
            grid = bot.current_grid()
            if caller == mine or grid is None or seats[caller].held != grid.tiles():
                continue
            order = active[active.index(caller) :] + active[: active.index(caller)]
            position = order.index(mine)
            draws = self.next_draws(position + 1)
            return draws[position] if len(draws) > position else None
        return None

    def when_stuck(self, view, work: Decision) -> Decision:
        """SolverBot's call when stuck, except that with `racks` it waits for a coming PEEL's tile
        that a quick rebuild places with its hand (the trial's nodes charged as looks)."""
        assert self.board is not None  # start() made the board
        tile = self.coming_peel_tile() if self.dumps(view) and self.board.grid is not None else None
        if tile is not None:
            placed, nodes = self.trial(self.board.hand + tile)
            work.looks += nodes
            if placed:
                return work  # wait: the PEEL brings the tile that completes the grid
        return super().when_stuck(view, work)

    def trial(self, hand: TileCounts) -> tuple[bool, int]:
        """Whether a quick rebuild (hook and a few lifts, TRIAL_BUDGET nodes a tier) places `hand`
        on the grid, and the nodes it spent."""
        board = self.board
        assert board is not None  # start() made the board
        budget = min(self.settings.node_budget, TRIAL_BUDGET)
        trial = Board(board.lexicon, board.grid, hand, board.min_length, board.seed, 1.0, budget, plan=board.plan)
        return trial.can_place_quickly(), trial.nodes

    def choose_dump(self, work: Decision) -> str:
        """The hardest letter whose DUMP draws tiles a quick rebuild places; else the hardest."""
        assert self.board is not None  # start() made the board
        letters = sorted(set(self.board.hand.letters()), key=HARD_FIRST.index)
        if self.table is None or self.board.grid is None:
            return letters[0]
        for letter in letters:
            placed, nodes = self.trial(self.board.hand - TileCounts.from_letters(letter) + self.dump_draw(letter))
            work.looks += nodes
            if placed:
                return letter
        return letters[0]


def make(spec: str) -> SolverBot | GreedyBot:
    """A bot from a spec: 'oracle[:racks][:SETTINGS]' (an OracleBot on hard's settings, SETTINGS as
    `make_bot` reads them) or any spec `make_bot` takes."""
    name, _, rest = spec.partition(":")
    if name != "oracle":
        return make_bot(spec)
    mode, _, options = rest.partition(":")
    if mode not in ("", "racks", "first"):
        raise ValueError(f"unknown oracle mode {mode!r} (oracle, oracle:racks, oracle:first)")
    base = make_bot(f"hard:{options}" if options else "hard")
    assert isinstance(base, SolverBot)
    return OracleBot(replace(base.settings, name=spec), racks=mode == "racks", first=mode == "first")
