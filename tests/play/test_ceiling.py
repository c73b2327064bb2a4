"""The strategy-ceiling study (issue 64): the luck share, the portfolio ceiling, the held-out
chooser, the dealt hands' features, the oracle that reads the bunch's draws, and the opening
lever (the first grid's search goes on for fewer words, past a first grid of more than
`opening_words` words)."""

from __future__ import annotations

import copy

import pytest
from helpers import replayed_against_hard

from solver.core.grid import find_words
from solver.core.tiles import TileCounts, draw
from solver.play import oracle
from solver.play.bots import BOT_SEARCH
from solver.play.ceiling import (
    bucket_table,
    candidate_scores,
    chooser,
    dealt_hands,
    first_grid_seconds,
    hand_features,
    luck_share,
    portfolio,
    score,
    stumps,
)
from solver.play.hand import Hand, play_hand
from solver.play.rules import Rules
from solver.play.schedule import GameRecord
from solver.play.tournament import run_tournament
from solver.search.board import Board


def game(group: int, rotation: int, winner: int | None, outcome: str = "win") -> GameRecord:
    """A 2-player game of a seat-rotated series: entry 0 sits at seat `rotation`."""
    entries = [0, 1] if rotation == 0 else [1, 0]
    winners = [] if winner is None else [winner]
    return GameRecord(group * 2 + rotation, group, rotation, 7, entries, outcome, winners, "", 1.0, [0, 0], [0, 0], 1)


def test_luck_share_tells_the_seat_from_the_bot():
    games = [
        game(0, 0, 0), game(0, 1, 0),  # seat 0 wins both: the deal decides
        game(1, 0, 0), game(1, 1, 1),  # entry 0 wins both (seat 0, then seat 1)
        game(2, 0, 1), game(2, 1, 0),  # entry 1 wins both
        game(3, 0, None, "unawarded"), game(3, 1, 0),  # not decided in both games
    ]  # fmt: skip
    share = luck_share(games)
    assert (share.deals, share.decided, share.same_seat, share.same_entry) == (4, 3, 1, 2)
    assert share.by_entry == {0: 1, 1: 1}
    assert candidate_scores(games)[(1, 1)] == 1.0  # entry 0 at seat 1 won
    assert candidate_scores(games)[(2, 0)] == 0.0


def test_score_counts_sole_and_shared_wins_of_the_entry():
    assert score(game(0, 1, 1), 0) == 1.0  # entry 0 sits at seat 1 in rotation 1
    assert score(game(0, 1, 0), 0) == 0.0
    shared = GameRecord(0, 0, 0, 7, [0, 1], "shared", [0, 1], "", 1.0, [0, 0], [0, 0], 1)
    assert score(shared, 1) == 0.5


def test_portfolio_ceilings_take_the_better_candidate():
    scores = {
        "a": {(0, 0): 1.0, (0, 1): 0.0, (1, 0): 0.0, (1, 1): 0.0},
        "b": {(0, 0): 0.0, (0, 1): 1.0, (1, 0): 0.0, (1, 1): 1.0},
    }
    folio = portfolio(scores)
    assert folio.games == 4
    assert folio.means == {"a": 0.25, "b": 0.5}
    assert folio.per_game == 0.75  # a on (0, 0), b on (0, 1) and (1, 1)
    assert folio.per_deal == 0.5  # one candidate a deal: 1 of deal 0, 1 of deal 1


def test_chooser_learns_a_feature_that_decides_on_the_other_fold():
    # "b" wins every game in an odd rotation, "a" every other: the rotation predicts it.
    keys = [(group, rotation) for group in range(8) for rotation in (0, 1)]
    scores = {
        "a": {key: float(key[1] == 0) for key in keys},
        "b": {key: float(key[1] == 1) for key in keys},
    }
    assert chooser(scores, lambda key: key[1], default="a") == 1.0
    assert chooser(scores, lambda key: "all", default="a") == 0.5  # no feature: a tie, the default
    table = bucket_table(scores, lambda key: key[1])
    assert table[1] == (8, {"a": 0.0, "b": 1.0})


def test_dealt_hands_are_the_referees_split():
    rules = Rules()
    result = play_hand(rules, [oracle.make("greedy"), oracle.make("greedy")], 11)
    hands = dealt_hands(rules, 2, 11)
    assert [tiles.letters() for tiles in hands] == result.events[0]["hands"]
    features = hand_features(TileCounts.from_letters("AEQXZBB"))
    assert features == {"vowel_share": 2 / 7, "awkward": 3.0, "size": 7.0}


def test_the_oracle_replays_the_referees_next_draws():
    rules = Rules()
    bot = oracle.make("oracle")
    hand = Hand(rules, [bot, oracle.make("hard")], 3)
    bot.watch(hand)
    hand.split()
    ahead = bot.next_draws(2)
    rng = copy.deepcopy(hand.rng)
    assert ahead == [draw(hand.bunch, 1, rng), draw(hand.bunch - ahead[0], 1, rng)]
    assert bot.dump_draw("E") == draw(hand.bunch + TileCounts.from_letters("E"), 3, copy.deepcopy(hand.rng))
    assert bot.next_draws(2) == ahead  # reading the future draws nothing


def test_oracle_specs():
    assert isinstance(oracle.make("oracle:racks"), oracle.OracleBot) and oracle.make("oracle:racks").racks
    assert oracle.make("oracle::node_budget=900").settings.node_budget == 900
    assert not isinstance(oracle.make("hard"), oracle.OracleBot)
    with pytest.raises(ValueError):
        oracle.make("oracle:psychic")


def test_an_oracle_series_is_a_function_of_its_seed():
    first = run_tournament(["oracle:racks", "hard"], 2, seed=4, make=oracle.make)
    again = run_tournament(["oracle:racks", "hard"], 2, seed=4, make=oracle.make)
    assert [(g.outcome, g.winners, g.clock) for g in first.games] == [
        (g.outcome, g.winners, g.clock) for g in again.games
    ]
    with pytest.raises(ValueError):
        run_tournament(["oracle", "hard"], 2, make=oracle.make, scheduler="tcp://localhost:1")


def test_a_stump_finds_the_feature_that_tells_the_better_candidate_on_held_out_deals():
    keys = [(group, rotation) for group in range(8) for rotation in range(2)]
    features = {key: {"signal": float(key[0] % 4), "noise": float((key[0] * 7 + key[1]) % 3)} for key in keys}
    # "a" wins the games whose signal is 2 or more, "b" the others
    scores = {
        "a": {key: float(features[key]["signal"] >= 2) for key in keys},
        "b": {key: float(features[key]["signal"] < 2) for key in keys},
    }
    best = stumps(scores, features, "a")[0]
    assert (best.feature, best.threshold, best.held_out) == ("signal", 2.0, 1.0)
    assert max(s.held_out for s in stumps(scores, {k: {"noise": v["noise"]} for k, v in features.items()}, "a")) < 1.0


# -- the opening: the first grid's search goes on for fewer words ------------------------


@pytest.mark.parametrize("hand", ["AAAABCDDEEFJNOOPTUVWY", "ADEFFILLNNOOORSSTUUVZ", "AADDEEHHNOOORRRSTTWXX"])
def test_the_opening_keeps_a_grid_of_fewer_words_for_its_extra_node(hand):
    def first(opening: int):
        board = Board("en", hand=hand, node_budget=2000, plan=BOT_SEARCH, time_limit=30.0)
        board.opening, board.patience = opening, 5
        result = board.rebuild()
        assert result.ok and len(result.hand) == 0
        return len(find_words(result.grid)), result.nodes, result.grid

    plain, opened = first(0), first(1)
    assert opened[1] == plain[1] + 1  # one more look, charged
    assert opened[0] < plain[0]  # these hands: fewer words (each 3 s on the referee's clock)
    assert first(1) == opened  # deterministic under the node cap


def opening_first_grid(hand: str, opening: int, opening_words: int):
    """The first grid a board lays with the opening lever: (words, looks, grid), the grid checked by
    the validator against the hand."""
    from solver.core.grid import validate

    board = Board("en", hand=hand, node_budget=2000, plan=BOT_SEARCH, time_limit=30.0)
    board.opening, board.opening_words, board.patience = opening, opening_words, 5
    result = board.rebuild()
    assert result.ok and validate(result.grid, board.lexicon, TileCounts.from_letters(hand)).ok
    return len(find_words(result.grid)), result.nodes, result.grid


@pytest.mark.parametrize("hand", ["AAAABCDDEEFJNOOPTUVWY", "ADEFFILLNNOOORSSTUUVZ"])
def test_the_opening_goes_on_only_past_a_first_grid_of_more_words_than_opening_words(hand):
    plain = opening_first_grid(hand, 0, 0)
    words = plain[0]
    assert opening_first_grid(hand, 1, words) == plain  # no more words than that: no extra look
    opened = opening_first_grid(hand, 1, words - 1)
    assert opened[1] == plain[1] + 1 and opened[0] < plain[0]  # past it: one look more, charged, fewer words
    assert opening_first_grid(hand, 1, words - 1) == opened  # deterministic under the node cap


def test_the_opening_lever_is_charged_on_the_referees_clock_and_replays_the_same_game(no_jitter):
    from solver.core.grid import Grid, validate
    from solver.lexicon.loader import get_lexicon

    rules = Rules()
    spec = "hard:opening=1,opening_words=3"
    dealt = dealt_hands(rules, 2, 5)
    game = replayed_against_hard(rules, spec, 5)
    first = [charge for charge in game.ledger if charge.player == 0][0]
    assert first_grid_seconds(spec, dealt[0], rules) == pytest.approx(first.seconds)
    plain = opening_first_grid(dealt[0].letters(), 0, 0)
    assert first.looks == plain[1] + (1 if plain[0] > 3 else 0)  # the extra node is a look on the clock
    lexicon = get_lexicon("en")
    for rows in game.grids:
        assert rows is None or validate(Grid.from_rows(rows), lexicon).ok


def test_first_grid_seconds_is_the_referees_charge_of_the_first_decision(no_jitter):
    rules = Rules()
    result = play_hand(rules, [oracle.make("hard"), oracle.make("hard")], 11)
    first = [charge for charge in result.ledger if charge.player == 0][0]
    assert first_grid_seconds("hard", dealt_hands(rules, 2, 11)[0], rules) == pytest.approx(first.seconds)


def test_room_names_the_letters_a_flexible_bot_keeps_hook_spots_for():
    bot = oracle.make("hard:room=jqx")
    assert bot.settings.room == "JQX"
    bot.start(TileCounts.from_letters("QUIXOTE"), Rules(), 0)
    unseen = Rules().distribution - TileCounts.from_letters("QUIXOTE")
    assert bot.awkward_to_come() == TileCounts.from_letters("".join(ch * unseen[ch] for ch in "JQX"))  # not C V Z
    for spec in ("hard:room=J1", "hard:opening=-1"):
        with pytest.raises(ValueError):
            oracle.make(spec)
