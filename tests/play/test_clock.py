"""The fair game clock: the referee measures every player's work (`solver.play.cost`).

Who is charged what, in numbers. The referee measures tile work from the grids a player
shows before and after each decision (`measure_work`) and takes only the looks (positions
examined) from the bot; `work_seconds` turns both into simulated seconds. Scripted
`Puppet` bots make exactly the moves a test wants, on a word list of runs of A (any
straight row of A tiles is a word), so every charge can be worked out by hand.
"""

from __future__ import annotations

import pytest

from solver.core.grid import Grid, best_translation, validate
from solver.core.tiles import ENGLISH, TileCounts, parse_distribution
from solver.play.bots import BotSettings, GreedyBot, SolverBot, make_bot
from solver.play.cost import (
    CALL_SECONDS,
    LOOK_SECONDS,
    REACT_SECONDS,
    TILE_SECONDS,
    WORD_SECONDS,
    TileWork,
    measure_work,
    work_seconds,
)
from solver.play.hand import Hand, play_hand
from solver.play.rules import Decision, Rules, TableView
from solver.search.board import Board, blocked_spots, dump_advice, one_tile_hooks


@pytest.fixture(scope="module")
def runs_of_a(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("wordlists") / "a.txt"
    path.write_text("\n".join("a" * n for n in range(2, 161)) + "\n")
    return str(path)


def rules_of_a(lexicon: str, tiles: int, **options) -> Rules:
    return Rules(lexicon=lexicon, distribution=parse_distribution(f"A{tiles}"), **options)


def seconds(looks: int = 0, tiles: int = 0, words: int = 0, call: bool = True) -> float:
    """The cost model written out (module docstring of solver.play.cost)."""
    return REACT_SECONDS + LOOK_SECONDS * looks + TILE_SECONDS * tiles + WORD_SECONDS * words + CALL_SECONDS * call


class Puppet:
    """A bot (the `solver.play.rules.Bot` protocol) that plays a script: each step is
    (layout, action, looks); layout 'row' lays every tile in one row, 'up' lifts every
    tile back into the hand, 'keep' changes nothing; then it calls `action` (wait, peel,
    dump, bananas) reporting `looks`. After the script it waits."""

    def __init__(self, *steps, speed: float = 1.0, name: str = "puppet"):
        self.steps = list(steps)
        self.name, self.speed = name, speed
        self.hand, self.grid = TileCounts(), None
        self.decided_at: list[int] = []

    def start(self, tiles, rules, seed):
        self.hand, self.grid = tiles, None

    def receive(self, tiles):
        self.hand = self.hand + tiles

    def give_back(self, tile):
        self.hand = self.hand - TileCounts.from_letters(tile)

    def holding(self):
        return self.hand + (self.grid.tiles() if self.grid is not None else TileCounts())

    def current_grid(self):
        return self.grid

    def decide(self, view):
        layout, action, looks = self.steps.pop(0) if self.steps else ("keep", "wait", 0)
        if layout == "row":
            everything = self.holding()
            self.grid, self.hand = Grid.from_rows([everything.letters()]), TileCounts()
        elif layout == "up":
            self.hand, self.grid = self.holding(), None
        tile = self.hand.letters()[0] if action == "dump" else None
        return Decision(action, looks=looks, tile=tile, grid=self.grid if action == "bananas" else None)


def charges(result, player: int) -> list:
    return [charge for charge in result.ledger if charge.player == player]


# -- the measure --------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize(
    "before, after, expected",
    [
        (None, ["CAT"], TileWork(laid=3, words=1)),
        (["CAT"], ["CATS"], TileWork(laid=1, words=1)),  # a lengthened word is a new word
        (["CAT"], ["SCAT"], TileWork(laid=1, words=1)),  # the grid grew leftwards: nothing moved
        (["CAT"], ["CAT", "A..", "T.."], TileWork(laid=2, words=1)),  # CAT stands: only CAT (down) is new
        (["CATS"], ["CAT"], TileWork(lifted=1)),  # CAT is left standing: no new word
        (["AT"], ["A", "T"], TileWork(moved=1, words=1)),  # across to down: the A stays, the T moves
        (["CAT"], None, TileWork(lifted=3)),
        (["CAT", ".T."], ["CAT", ".T."], TileWork()),
        (["TAC"], ["CAT"], TileWork(moved=2, words=1)),  # the A stays; C and T swap cells
    ],
)
def test_measure_work_counts_laid_moved_lifted_and_new_words(before, after, expected):
    def to_grid(rows):
        return Grid.from_rows(rows) if rows else None

    assert measure_work(to_grid(before), to_grid(after)) == expected


@pytest.mark.nojit
def test_measure_work_aligns_on_the_best_translation():
    old = Grid.from_rows(["CAT", ".A.", ".T."])
    shifted = Grid.from_rows(["......", "...CAT", "....A.", "....T."])
    assert best_translation(old, shifted) == ((1, 3), 5)
    assert measure_work(old, shifted) == TileWork()  # the same grid, elsewhere on the table
    # Exact ties go to the smallest shift: the measure is a function of the two grids.
    assert best_translation(Grid.from_rows(["AA"]), Grid.from_rows(["AAA"])) == ((0, 0), 2)
    assert measure_work(None, None, drawn=3, returned=1) == TileWork(drawn=3, returned=1)


@pytest.mark.nojit
def test_work_seconds_is_the_documented_sum():
    work = TileWork(laid=3, moved=2, lifted=1, drawn=1, returned=1, words=2)
    assert work.tiles == 8
    peel = Decision("peel", looks=4)
    assert work_seconds(peel, 1.0, work) == seconds(looks=4, tiles=8, words=2)
    assert work_seconds(peel, 2.0, work) == seconds(looks=4, tiles=8, words=2) / 2
    assert work_seconds(Decision("wait"), 1.0) == REACT_SECONDS  # waiting: no call to say
    # The calibration (docstring): one second per tile and per look, three per word.
    assert seconds(looks=4, tiles=8, words=2) == 1.0 + 4 + 8 + 6 + 0.5
    assert work_seconds(Decision("peel", looks=-7), 1.0) == seconds()  # negative looks count as none


# -- who is charged what --------------------------------------------------------------------


def test_greedy_and_solver_bots_are_charged_the_same_for_the_same_work(runs_of_a, no_jitter):
    rules = rules_of_a(runs_of_a, 25, variant="solo")  # 21 tiles, four PEELs of one tile
    results = {
        bot.name: play_hand(rules, [bot], seed=0)
        for bot in (GreedyBot(), SolverBot(BotSettings("solver", level=None, hooks="first")))
    }
    greedy, solver = results["greedy"].ledger, results["solver"].ledger
    # The first grid: 21 tiles laid in one word after one look, then PEEL.
    first = seconds(looks=1, tiles=21, words=1)
    assert [(c.action, c.looks, c.work, c.seconds) for c in (greedy[0], solver[0])] == [
        ("peel", 1, TileWork(laid=21, words=1), first)
    ] * 2
    # Each PEEL's tile: drawn, laid, one word, one look.
    hook = seconds(looks=1, tiles=2, words=1)
    assert greedy[1].work == solver[1].work == TileWork(laid=1, drawn=1, words=1)
    assert greedy[1].seconds == solver[1].seconds == hook
    # Wherever the two did the same work they were charged the same; where not, the
    # difference is exactly the work's (a hook that made two words costs one word more).
    assert len(greedy) == len(solver) == 5
    for ours, theirs in zip(greedy, solver):
        assert ours.seconds - theirs.seconds == pytest.approx(
            WORD_SECONDS * (ours.work.words - theirs.work.words) + LOOK_SECONDS * (ours.looks - theirs.looks)
        )
    for result in results.values():
        assert result.outcome == "win" and result.clock == pytest.approx(sum(c.seconds for c in result.ledger))


def test_a_bot_that_reports_no_work_is_charged_anyway(runs_of_a, no_jitter):
    rules = rules_of_a(runs_of_a, 21, variant="solo")  # the bunch is empty: BANANAS at once
    for looks in (0, -50):
        liar = Puppet(("row", "bananas", looks))
        result = Hand(rules, [liar], seed=0).play()
        (charge,) = result.ledger
        assert charge.looks == 0 and charge.work == TileWork(laid=21, words=1)
        assert charge.seconds == seconds(tiles=21, words=1) == 25.5
        assert result.outcome == "win" and result.clock == 25.5


class SneakyPuppet(Puppet):
    """Lays its tiles outside `decide` (as they arrive), then decides with no work."""

    def start(self, tiles, rules, seed):
        super().start(tiles, rules, seed)
        self.grid, self.hand = Grid.from_rows([tiles.letters()]), TileCounts()


def test_tiles_laid_outside_a_decision_are_charged_at_the_next_one(runs_of_a, no_jitter):
    rules = rules_of_a(runs_of_a, 21, variant="solo")
    result = Hand(rules, [SneakyPuppet(("keep", "bananas", 0))], seed=0).play()
    (charge,) = result.ledger
    assert charge.work == TileWork(laid=21, words=1) and result.clock == seconds(tiles=21, words=1)


def test_every_player_pays_for_its_own_work_and_draws(runs_of_a, no_jitter):
    # Two players, 21 tiles each, 4 in the bunch. The fast one (speed 4) lays and PEELs;
    # the slow one is still laying its grid when the tile arrives.
    rules = rules_of_a(runs_of_a, 46)
    fast = Puppet(("row", "peel", 1), ("row", "wait", 1), speed=4.0, name="fast")
    slow = Puppet(("row", "peel", 3), ("row", "wait", 0), name="slow")
    result = Hand(rules, [fast, slow], seed=0).play()
    fast_charges, slow_charges = charges(result, 0), charges(result, 1)
    lay = seconds(looks=1, tiles=21, words=1)
    assert [(c.at, c.work, c.seconds) for c in fast_charges] == [
        (0.0, TileWork(laid=21, words=1), lay / 4),
        # its own PEEL's tile: drawn and laid at the end of the row (22 A: a new word)
        (lay / 4, TileWork(laid=1, drawn=1, words=1), seconds(looks=1, tiles=2, words=1, call=False) / 4),
    ]
    slow_first = seconds(looks=3, tiles=21, words=1)
    assert [(c.at, c.work, c.seconds) for c in slow_charges] == [
        (0.0, TileWork(laid=21, words=1), slow_first),
        # The tile that came mid-work is drawn and laid after that work, when it decides again.
        (slow_first, TileWork(laid=1, drawn=1, words=1), seconds(tiles=2, words=1, call=False)),
    ]
    peels = [event for event in result.events if event["event"] == "peel"]
    assert [(event["t"], event["player"]) for event in peels] == [(lay / 4, 0)]  # slow's PEEL never made


def test_tiles_arriving_mid_work_drop_the_planned_call_and_the_time_stays_spent(runs_of_a, no_jitter):
    rules = rules_of_a(runs_of_a, 46)
    fast = Puppet(("row", "peel", 1), speed=4.0)
    slow = Puppet(("row", "peel", 0), ("row", "peel", 0))
    result = Hand(rules, [fast, slow], seed=0).play()
    first, second = charges(result, 1)[:2]
    # Slow's PEEL was due at first.seconds; the fast PEEL came before, so it decided again
    # at that very moment (not when the tile came), with the new tile, and PEELed then.
    assert second.at == first.seconds == seconds(tiles=21, words=1)
    slow_peels = [event["t"] for event in result.events if event["event"] == "peel" and event["player"] == 1]
    assert slow_peels[0] == pytest.approx(second.at + second.seconds)


def test_a_dump_charges_the_lifted_tiles_then_the_returned_and_drawn_ones(runs_of_a, no_jitter):
    rules = rules_of_a(runs_of_a, 30, variant="solo")
    result = Hand(rules, [Puppet(("row", "peel", 0), ("up", "dump", 2), ("row", "wait", 0))], seed=0).play()
    lay, dump, after = result.ledger[:3]
    assert lay.work == TileWork(laid=21, words=1)
    # The 21 grid tiles lifted, and the PEEL's tile drawn.
    assert dump.action == "dump" and dump.work == TileWork(lifted=21, drawn=1)
    assert dump.seconds == seconds(looks=2, tiles=22)
    assert after.work == TileWork(laid=24, drawn=3, returned=1, words=1)


def test_a_stuck_mark_lands_after_the_work(runs_of_a, no_jitter):
    rules = rules_of_a(runs_of_a, 43)
    result = Hand(rules, [Puppet(("row", "wait", 2)), Puppet(("keep", "wait", 0))], seed=0).play()
    stuck = {event["player"]: event["t"] for event in result.events if event["event"] == "stuck"}
    assert stuck == {0: seconds(looks=2, tiles=21, words=1, call=False), 1: seconds(call=False)}


def test_a_planned_stuck_is_dropped_when_the_table_changed_meanwhile(runs_of_a, no_jitter):
    # Player 1 goes rotten (a row that is not its whole hand) while player 0 works towards
    # a stuck mark: its tiles go back to the bunch, so player 0 decides again instead.
    rules = rules_of_a(runs_of_a, 43)
    worker = Puppet(("row", "wait", 0), ("keep", "peel", 0))

    class Rotten(Puppet):
        def decide(self, view):
            self.grid = Grid.from_rows([self.hand.letters()[1:]])
            self.hand = TileCounts.from_letters("A")
            return Decision("bananas", grid=self.grid)

    result = Hand(rules, [worker, Rotten(speed=8.0)], seed=0).play()
    assert [event["event"] for event in result.events][:3] == ["split", "bananas", "rotten"]
    first, second = charges(result, 0)[:2]
    assert second.at == first.seconds and second.action == "peel"
    assert not [event for event in result.events if event["event"] == "stuck" and event["t"] == first.seconds]


def test_same_seed_same_ledger():
    def ledger(seed):
        return play_hand(Rules(), [make_bot("medium"), make_bot("greedy")], seed=seed).ledger

    assert ledger(3) == ledger(3)
    assert ledger(3) != ledger(4)


# -- what the bots report ---------------------------------------------------------------------


def test_solver_bot_reports_its_search_nodes_and_advice_as_looks(en, monkeypatch):
    import solver.play.bots

    spent = {}
    real_rebuild, real_advice = Board.rebuild, solver.play.bots.dump_advice

    def rebuild(board, *args, **kwargs):
        result = real_rebuild(board, *args, **kwargs)
        spent["rebuild"] = result.nodes
        return result

    def advice(*args, **kwargs):
        result = real_advice(*args, **kwargs)
        spent["advice"] = result.nodes
        return result

    monkeypatch.setattr(Board, "rebuild", rebuild)
    monkeypatch.setattr(solver.play.bots, "dump_advice", advice)
    bot = SolverBot(BotSettings("advice", level=None, dump_policy="advice", patience=5))
    bot.start(TileCounts(), Rules(), seed=1)
    bot.board.grid, bot.board.hand = Grid.from_rows(["CAT"]), TileCounts.from_letters("QVV")  # no grid takes them
    decision = bot.decide(TableView(bunch=60, active=2, rules=Rules()))
    assert decision.action == "dump" and decision.tile in "QV"
    assert 0 < spent["rebuild"] <= 5  # its patience
    assert spent["advice"] > 0 and decision.looks == spent["rebuild"] + spent["advice"]


def test_solver_bot_dumps_only_outside_its_endgame():
    bot = SolverBot(BotSettings("late", level=None, endgame=10))
    assert bot.dumps(TableView(bunch=20, active=2, rules=Rules()))  # 10 PEELs left
    assert not bot.dumps(TableView(bunch=19, active=2, rules=Rules()))  # 9 left: rebuild instead
    assert not SolverBot(BotSettings(dump_policy="never")).dumps(TableView(60, 2, Rules()))


def test_dump_advice_counts_every_node_it_spends(en):
    board = Board(en, Grid.from_rows(["CAT"]), "QVE", node_budget=20)
    bunch = ENGLISH - board.tiles
    keep = Board(en, board.grid, board.hand, node_budget=20, time_limit=1.0).rebuild()
    full = dump_advice(board, bunch, samples=3, seed=2)
    skipped = dump_advice(board, bunch, samples=3, seed=2, known_stuck=True)
    assert full.nodes == skipped.nodes + keep.nodes > 0
    assert skipped.keep_chance == 0.0 and full.to_json()["nodes"] == full.nodes


# -- the strategy pieces the bots use ---------------------------------------------------------


def test_one_tile_hooks_count_the_words_each_spot_makes(en):
    hooks = one_tile_hooks(Grid.from_rows(["CAT"]), "S", en)
    by_cell = {cell: words for words, _, cell in hooks}
    assert by_cell[(0, 3)] == 1  # CATS
    assert (0, -1) in by_cell  # SCAT
    for words, _, cell in hooks:
        cells = Grid.from_rows(["CAT"]).cells() | {cell: "S"}
        grid = Grid.from_cells(cells)
        assert validate(grid, en).ok
        assert measure_work(Grid.from_rows(["CAT"]), grid).words == words
    assert [h[0] for h in hooks] == sorted(h[0] for h in hooks)


def test_flexible_hooks_keep_the_only_spot_for_a_q(en):
    # TIE takes an A above its T (AT) or below it (TA): the same work, one word, equally
    # crowded. Above sits next to the Q's only spot (QI, above the I); a flexible board
    # puts the A below.
    grid = Grid.from_rows(["TIE"])
    assert [cell for *_, cell in one_tile_hooks(grid, "Q", en)] == [(-1, 1)]
    blocked = blocked_spots(grid, TileCounts.from_letters("Q"), en)
    assert blocked[(-1, 1)] == blocked[(-1, 0)] == blocked[(1, 1)] == 1.0 and (1, 0) not in blocked
    plain, flexible = (Board(en, grid, "A") for _ in range(2))
    for board in (plain, flexible):
        board.cheap_hooks = True
    flexible.keep_open = TileCounts.from_letters("Q")
    assert plain.rebuild().grid == Grid.from_rows(["A..", "TIE"])  # next to the QI spot (first in cell order)
    result = flexible.rebuild()
    assert result.grid == Grid.from_rows(["TIE", "A.."]) and result.nodes == 1
    assert [cell for *_, cell in one_tile_hooks(result.grid, "Q", en)] == [(-1, 1)]


def test_rebuild_up_to_a_tier_and_within_patience(en):
    board = Board(en, Grid.from_rows(["CAT"]), "QV", node_budget=50)
    assert not board.rebuild(up_to="hook").ok and board.grid == Grid.from_rows(["CAT"])
    board.patience = 3
    result = board.rebuild()
    assert result.nodes <= 3
    with pytest.raises(ValueError, match="up_to"):
        board.rebuild(up_to="everything")
