"""The first grid on the referee's clock: the `side_words` lever (the first grid's search tries the
moves that make fewer side words first) and `first_grid_race` (a seat's charges until its first
complete grid, DUMPs included). Every grid is re-checked by the independent validator."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import replayed_against_hard

from solver.core.grid import Grid, find_words, validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon
from solver.play import oracle
from solver.play.bots import BOT_SEARCH
from solver.play.ceiling import dealt_hands, first_grid_race, first_grid_seconds
from solver.play.hand import play_hand
from solver.play.rules import Rules
from solver.search.board import Board
from solver.search.solving import extend, solve

HANDS = ["AAAABCDDEEFJNOOPTUVWY", "AEEHIIIKNOOOPSSSSTUXZ", "ADEFFILLNNOOORSSTUUVZ", "AADDEEHHNOOORRRSTTWXX"]


def first_grid(hand: str, side_words: float) -> tuple[int, int, Grid]:
    """The first grid hard's board lays on `hand` (its node budget, plan and patience): (words,
    looks, grid), the grid checked by the validator against the hand."""
    board = Board("en", hand=hand, node_budget=2000, plan=BOT_SEARCH, time_limit=30.0)
    board.patience, board.side_words = 5, side_words
    result = board.rebuild()
    assert result.ok and len(result.hand) == 0
    assert result.grid is not None and validate(result.grid, board.lexicon, TileCounts.from_letters(hand)).ok
    return len(find_words(result.grid)), result.nodes, result.grid


@pytest.mark.parametrize("hand", HANDS)
def test_side_words_lays_a_first_grid_of_fewer_words_for_no_more_looks(hand):
    plain, tidy = first_grid(hand, 0.0), first_grid(hand, 3.0)
    assert tidy[0] < plain[0]  # these hands: two words fewer (each 3 s on the referee's clock)
    assert tidy[1] <= plain[1]  # and no extra look
    assert first_grid(hand, 3.0) == tidy  # deterministic under the node cap


def test_the_looks_reported_are_every_node_the_reordered_search_visits():
    hand = HANDS[0]
    words, looks, grid = first_grid(hand, 3.0)
    plan = replace(BOT_SEARCH, side_word=3.0)
    search = solve(hand, "en", time_limit=30.0, max_nodes=5, plan=plan)  # hard's patience caps it at 5
    assert search.solved and search.grid == grid and search.nodes == looks


def test_side_words_is_charged_on_the_referees_clock_and_replays_the_same_game(no_jitter):
    rules = Rules()
    spec = "hard:side_words=3"
    dealt = dealt_hands(rules, 2, 5)
    game = replayed_against_hard(rules, spec, 5)
    first = [charge for charge in game.ledger if charge.player == 0][0]
    assert first_grid_seconds(spec, dealt[0], rules) == pytest.approx(first.seconds)
    words, looks, _ = first_grid(dealt[0].letters(), 3.0)
    assert (first.looks, first.work.words) == (looks, words)  # the search's nodes are looks on the clock
    lexicon = get_lexicon("en")
    for rows in game.grids:
        assert rows is None or validate(Grid.from_rows(rows), lexicon).ok


@pytest.mark.parametrize("everywhere", [False, True])
def test_side_words_orders_a_rebuild_s_search_only_when_everywhere(everywhere):
    _, _, grid = first_grid(HANDS[0], 0.0)
    board = Board("en", grid=grid, node_budget=2000, plan=BOT_SEARCH, time_limit=30.0)
    board.side_words, board.side_words_everywhere = 3.0, everywhere
    rebuild = board.add("EST")  # a DUMP's three tiles: placed by the search
    plan = replace(BOT_SEARCH, side_word=3.0) if everywhere else BOT_SEARCH
    search = extend(grid, "EST", "en", time_limit=30.0, max_nodes=2000, plan=plan)
    assert rebuild.tier == "hook" and search.solved
    assert (rebuild.grid, rebuild.nodes) == (search.grid, search.nodes)  # its nodes, every one a look
    assert validate(rebuild.grid, board.lexicon, grid.tiles() + TileCounts.from_letters("EST")).ok


def test_side_words_everywhere_is_charged_and_replays_the_same_game(no_jitter):
    rules = Rules()
    spec = "hard:side_words=3,side_words_everywhere=yes"
    everywhere = replayed_against_hard(rules, spec, 8)
    first = play_hand(rules, [oracle.make("hard:side_words=3"), oracle.make("hard")], 8)
    assert first.ledger != everywhere.ledger  # this deal: a rebuild's search took another way
    lexicon = get_lexicon("en")
    for rows in everywhere.grids:
        assert rows is None or validate(Grid.from_rows(rows), lexicon).ok


def test_no_side_word_weight_plays_hard_s_game():
    rules = Rules()
    games = [play_hand(rules, [oracle.make(spec), oracle.make("hard")], 8) for spec in ("hard:side_words=0", "hard")]
    assert games[0].ledger == games[1].ledger


def test_the_race_to_a_first_grid_counts_the_dumps_on_the_way(no_jitter):
    rules = Rules()
    straight = first_grid_race("hard", rules, 5, 0)  # the first decision lays every tile
    assert (straight.decisions, straight.dumps) == (1, 0)
    assert straight.seconds == pytest.approx(first_grid_seconds("hard", dealt_hands(rules, 2, 5)[0], rules))
    dumped = first_grid_race("hard", rules, 11, 0)  # no grid within hard's patience: it dumps first
    assert dumped.dumps >= 1 and dumped.decisions == dumped.dumps + 1
    alone = first_grid_seconds("hard", dealt_hands(rules, 2, 11)[0], rules)  # the dump's charge
    assert dumped.seconds is not None and dumped.seconds > alone
    result = play_hand(rules, [oracle.make("hard"), oracle.make("hard")], 11)
    mine = [charge for charge in result.ledger if charge.player == 0][: dumped.decisions]
    assert [charge.action for charge in mine] == ["dump"] * dumped.dumps + ["peel"]  # the game's own way there
    assert sum(charge.seconds for charge in mine) == pytest.approx(dumped.seconds)
    assert first_grid_race("hard:side_words=3", rules, 11, 0, make=oracle.make).seconds < dumped.seconds


def test_side_words_setting():
    assert oracle.make("hard:side_words=2.5").settings.side_words == 2.5
    assert oracle.make("hard:side_words_everywhere=yes").settings.side_words_everywhere
    for spec in ("hard:side_words=-1", "hard:side_words=nan", "hard:side_words=101", "hard:side_words_everywhere=1"):
        with pytest.raises(ValueError):
            oracle.make(spec)


def test_the_tuned_preset_is_hard_with_the_side_words_lever_everywhere():
    """The README's promise: `tuned` is `hard`'s pace, vocabulary and settings, its every search
    ordered by the side words (the lab's lever), nothing else changed."""
    from solver.play.bots import PRESETS

    assert PRESETS["tuned"] == replace(PRESETS["hard"], name="tuned", side_words=3.0, side_words_everywhere=True)
