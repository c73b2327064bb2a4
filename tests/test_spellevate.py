"""RULES.md, Spellevate: deal, first leader, beating plays, passes and clears, scores."""

import numpy as np
import pytest

from solver.core.tiles import ENGLISH, TileCounts
from solver.lexicon.loader import get_lexicon
from solver.play.spellevate import (
    Play,
    SpellevateBot,
    SpellevateError,
    deal,
    first_leader,
    play_round,
    play_spellevate,
)


@pytest.fixture(scope="module")
def en():
    return get_lexicon("en")


def test_rule_spellevate_deal_all_tiles_uneven_deal_leaves_last_players_one_fewer():
    hands = deal(5, ENGLISH, np.random.default_rng(1))
    assert sum(hands, TileCounts()) == ENGLISH
    assert [len(h) for h in hands] == [29, 29, 29, 29, 28]  # 144 = 4 x 29 + 28


def test_rule_spellevate_double_set_for_large_groups():
    hands = deal(10, ENGLISH + ENGLISH, np.random.default_rng(2))
    assert sum(hands, TileCounts()) == ENGLISH + ENGLISH
    assert sorted({len(h) for h in hands}) == [28, 29]


def test_rule_spellevate_first_leader_is_closest_to_z_ties_redraw():
    for seed in range(50):
        leader, draws = first_leader(4, ENGLISH, np.random.default_rng(seed))
        final = draws[-1]
        assert leader in range(4)
        assert final.count(max(final)) == 1  # the last draw has a single highest letter
        assert all(round_.count(max(round_)) > 1 for round_ in draws[:-1])  # earlier draws were ties


def test_rule_spellevate_beating_single_letter_later_in_alphabet():
    assert Play("K").beats(Play("C"))
    assert not Play("C").beats(Play("K"))
    assert not Play("C").beats(Play("C"))


def test_rule_spellevate_beating_word_same_length_alphabetically_later():
    assert Play("DOG").beats(Play("CAT"))
    assert not Play("DOGS").beats(Play("CAT"))  # a different length never beats
    assert not Play("BAT").beats(Play("CAT"))


def test_rule_spellevate_leader_must_play_and_others_may_pass(en):
    bot = SpellevateBot(en)
    hand = TileCounts.from_letters("CATQ")
    assert bot.lead(hand) is not None  # the leader always plays
    assert bot.follow(TileCounts.from_letters("AB"), Play("Z")) is None  # nothing beats Z: pass


def test_rule_spellevate_all_others_pass_last_player_clears_and_leads(en):
    hands = [TileCounts.from_letters("ZZ"), TileCounts.from_letters("AB"), TileCounts.from_letters("AC")]
    result = play_round(hands, 0, en, [SpellevateBot(en) for _ in hands])
    kinds = [(e["event"], e["player"]) for e in result.events]
    # Z is unbeatable: both others pass, player 0 clears and leads again, then wins.
    assert ("clear", 0) in kinds
    assert result.winner == 0


def test_rule_spellevate_first_to_empty_hand_wins_and_scores_sum_to_zero(en):
    results = play_spellevate(4, rounds=3, seed=3, lexicon=en)
    for result in results:
        assert result.hands_left[result.winner] == ""
        assert sum(result.scores) == 0
        assert result.scores[result.winner] == sum(len(h) for h in result.hands_left)


def test_rule_spellevate_later_rounds_led_by_previous_winner(en):
    results = play_spellevate(3, rounds=3, seed=4, lexicon=en)
    for before, after in zip(results, results[1:]):
        assert after.leader == before.winner


def test_spellevate_plays_are_words_from_the_hand_and_climb(en):
    result = play_spellevate(3, rounds=1, seed=5, lexicon=en)[0]
    table = None
    for event in result.events:
        if event["event"] == "clear":
            table = None
        elif event["event"] == "play":
            play = Play(event["letters"])
            assert play.is_letter or play.letters in en
            assert table is None or play.beats(table)
            table = play


def test_spellevate_needs_three_players_and_is_deterministic(en):
    with pytest.raises(SpellevateError):
        play_spellevate(2, lexicon=en)
    first = play_spellevate(3, seed=9, lexicon=en)[0].events
    assert play_spellevate(3, seed=9, lexicon=en)[0].events == first


def test_spellevate_command_prints_rounds_and_rejects_two_players():
    from click.testing import CliRunner

    from solver.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["spellevate", "--players", "3", "--rounds", "2", "--seed", "1"])
    assert result.exit_code == 0
    assert result.output.count("round ") == 2 and "wins" in result.output
    bad = runner.invoke(main, ["spellevate", "--players", "2"])
    assert bad.exit_code == 2 and "error: Spellevate takes 3 or more players" in bad.output
