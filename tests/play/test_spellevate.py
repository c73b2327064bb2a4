"""RULES.md, Spellevate: deal, first leader, beating plays, passes and clears, scores; the
referee's reasons for illegal moves; the word index against the DAWG reference; the bots."""

import numpy as np
import pytest

from solver.core.tiles import ENGLISH, TileCounts, parse_distribution
from solver.play.spellevate import (
    Play,
    RoundState,
    SpellevateError,
    SpellevateRound,
    deal,
    first_leader,
    parse_play,
    play_spellevate_round,
    scores,
    set_of,
)
from solver.play.spellevate_bots import (
    LEAD_MAX_LENGTH,
    Odds,
    PlannerBot,
    SimpleBot,
    beating_plays,
    make_spellevate_bot,
    word_index,
)
from solver.play.spellevate_match import play_spellevate, play_spellevate_rounds


def hands_of(*letters: str) -> list[TileCounts]:
    return [TileCounts.from_letters(text) for text in letters]


# -- deal and lead ------------------------------------------------------------------


def test_rule_spellevate_deal_all_tiles_uneven_deal_leaves_last_players_one_fewer():
    hands = deal(5, ENGLISH, np.random.default_rng(1))
    assert sum(hands, TileCounts()) == ENGLISH
    assert [len(h) for h in hands] == [29, 29, 29, 29, 28]  # 144 = 4 x 29 + 28


def test_rule_spellevate_uneven_deal_starts_with_the_leader():
    hands = deal(5, ENGLISH, np.random.default_rng(1), first=2)
    assert sum(hands, TileCounts()) == ENGLISH
    # Served in the order P3, P4, P5, P1, P2: the last one served (P2) gets one fewer.
    assert [len(h) for h in hands] == [29, 28, 29, 29, 29]


def test_rule_spellevate_each_round_is_dealt_from_its_leader(en):
    seen = []
    play_spellevate_rounds([SimpleBot(en) for _ in range(5)], rounds=3, seed=6, lexicon=en, observer=seen.append)
    deals = [event for event in seen if event["event"] == "deal"]
    assert len(deals) == 3
    for event in deals:
        leader, sizes = event["leader"], event["hands"]
        assert sizes[leader] == 29 and sizes[(leader - 1) % 5] == 28 and sum(sizes) == 144


def test_rule_spellevate_double_set_for_large_groups():
    hands = deal(10, ENGLISH + ENGLISH, np.random.default_rng(2))
    assert sum(hands, TileCounts()) == ENGLISH + ENGLISH
    assert sorted({len(h) for h in hands}) == [28, 29]
    assert set_of(2) == ENGLISH + ENGLISH
    result = play_spellevate(10, seed=2, tiles=set_of(2))[0]  # a double-set round is played to the end
    assert result.hands_left[result.winner] == "" and sum(result.scores) == 0
    assert sum(len(hand) for hand in result.hands_left) + sum(
        len(e["letters"]) for e in result.events if e["event"] == "play"
    ) == len(ENGLISH + ENGLISH)


def test_rule_spellevate_first_leader_is_closest_to_z_ties_redraw():
    for seed in range(50):
        leader, draws = first_leader(4, ENGLISH, np.random.default_rng(seed))
        final = draws[-1]
        assert leader in range(4)
        assert final.count(max(final)) == 1  # the last draw has a single highest letter
        assert all(round_.count(max(round_)) > 1 for round_ in draws[:-1])  # earlier draws were ties


def test_rule_spellevate_lead_draw_ties_redraw_among_the_tied_only():
    # One A and three Z: three players always tie on Z at first, and only the tied redraw.
    tiles = parse_distribution("A1,Z3")
    for seed in range(20):
        leader, draws = first_leader(3, tiles, np.random.default_rng(seed))
        assert len(draws) >= 2
        for before, after in zip(draws, draws[1:], strict=False):
            assert len(after) == before.count(max(before))
        assert draws[-1].count("Z") == 1
    with pytest.raises(SpellevateError, match="same letter"):
        first_leader(3, parse_distribution("Z9"), np.random.default_rng(0))  # ties forever: refused


def test_rule_spellevate_later_rounds_led_by_previous_winner(en):
    results = play_spellevate(3, rounds=3, seed=4, lexicon=en)
    for before, after in zip(results, results[1:], strict=False):
        assert after.leader == before.winner


# -- beating, passing, clearing -------------------------------------------------------


def test_rule_spellevate_beating_single_letter_later_in_alphabet():
    assert Play("K").beats(Play("C"))
    assert not Play("C").beats(Play("K"))
    assert not Play("C").beats(Play("C"))


def test_rule_spellevate_beating_word_same_length_alphabetically_later():
    assert Play("DOG").beats(Play("CAT"))
    assert not Play("DOGS").beats(Play("CAT"))  # a different length never beats
    assert not Play("BAT").beats(Play("CAT"))
    assert Play("CROW").beats(Play("CASE")) and Play("CASE").beats(Play("BASE"))  # the seed's example


def test_rule_spellevate_leader_must_play_and_others_may_pass(en):
    bot = SimpleBot(en)
    assert bot.lead(TileCounts.from_letters("CATQ")) is not None  # the leader always plays
    assert bot.follow(TileCounts.from_letters("AB"), Play("Z")) is None  # nothing beats Z: pass
    game = SpellevateRound(hands_of("CATS", "DOGS", "EMUS"), 0, en)
    assert game.move_error(0, None) == "the leader must play: a leader cannot pass"
    game.move(0, Play("CAT"))
    assert game.move_error(1, None) is None  # a follower may pass


def test_rule_spellevate_a_player_who_cannot_beat_must_pass(en):
    # P1 leads Z; P2 holds only letters before Z and no 1-letter word can beat a letter.
    hands = hands_of("ZAB", "CDE", "FGH")
    game = SpellevateRound(hands, 0, en)
    game.move(0, Play("Z"))
    assert beating_plays(word_index(en), hands[1], Play("Z")) == []
    for bot in (SimpleBot(en), PlannerBot(en)):
        bot.begin(game.view(1))
        assert bot.choose(game.view(1)) is None
    assert game.move_error(1, Play("E")) == "E does not beat Z: play a letter later in the alphabet"
    game.move(1, None)
    game.move(2, None)
    assert game.state.table is None and game.state.turn == 0  # cleared: P1 leads again


def test_rule_spellevate_all_others_pass_last_player_clears_and_leads(en):
    hands = hands_of("ZZ", "AB", "AC")
    result = play_spellevate_round(hands, 0, en, [SimpleBot(en) for _ in hands])
    kinds = [(e["event"], e["player"]) for e in result.events]
    # Z is unbeatable: both others pass, player 0 clears and leads again, then wins.
    assert ("clear", 0) in kinds
    assert result.winner == 0


def test_rule_spellevate_clear_goes_to_the_last_player_to_play(en):
    state = RoundState([5, 5, 5, 5], leader=0)
    state.apply(0, Play("B"))
    state.apply(1, Play("D"))
    for player in (2, 3, 0):
        assert state.table == Play("D")
        state.apply(player, None)
    assert state.events[-1] == {"event": "clear", "player": 1}
    assert state.table is None and state.turn == 1
    assert state.move_error(1, None, en, 2) == "the leader must play: a leader cannot pass"
    state.apply(1, Play("A"))  # any letter leads an empty table
    state.apply(2, None)
    state.apply(3, Play("C"))  # a pass does not lock a player out of the trick
    assert state.last_player == 3 and state.passes == 0


def test_rule_spellevate_first_to_empty_hand_wins_and_scores_sum_to_zero(en):
    results = play_spellevate(4, rounds=3, seed=3, lexicon=en)
    for result in results:
        assert result.hands_left[result.winner] == ""
        assert sum(result.scores) == 0
        assert result.scores[result.winner] == sum(len(h) for h in result.hands_left)
        for seat, left in enumerate(result.hands_left):
            if seat != result.winner:
                assert result.scores[seat] == -len(left)
    assert scores([0, 3, 5, 1], 0) == [9, -3, -5, -1]


# -- invalid plays ----------------------------------------------------------------------


def test_rule_spellevate_invalid_plays_rejected_with_a_clear_reason(en):
    game = SpellevateRound(hands_of("CATDOGS", "BEEPXYZ", "QUIZERA"), 0, en)
    assert game.move_error(1, Play("BEE")) == "it is P1's turn, not P2's"
    assert game.move_error(0, Play("CAB")) == "CAB is not in the hand (missing B)"
    assert game.move_error(0, Play("GOAD")) is None
    assert game.move_error(0, Play("DGOS")) == "DGOS is not a word"
    game.move(0, Play("CAT"))
    assert game.move_error(1, Play("BEEP")) == "BEEP has 4 letters: the table holds the 3-letter word CAT"
    assert game.move_error(1, Play("B")) == "B has 1 letter: the table holds the 3-letter word CAT"
    assert game.move_error(1, Play("BEE")) == ("BEE does not beat CAT: play a 3-letter word alphabetically later")
    assert game.move_error(1, Play("PYX")) is None
    with pytest.raises(SpellevateError, match="not a word"):
        game.move(1, Play("XYZ"))
    assert game.hands[1] == TileCounts.from_letters("BEEPXYZ")  # a refused move changes nothing
    game.move(1, Play("PYX"))
    game.move(2, None)
    game.move(0, None)
    game.move(1, Play("E"))
    assert game.move_error(2, Play("CAT")) == "CAT is not in the hand (missing C, T)"
    assert game.move_error(2, Play("QUIZ")) == "the table holds the single letter E: play a later single letter"


def test_min_length_three_and_typed_plays(en):
    game = SpellevateRound(hands_of("ATOP", "BEES", "DOGS"), 0, en, min_length=3)
    assert game.move_error(0, Play("AT")) == "AT is too short: words have at least 3 letters"
    assert game.move_error(0, Play("TOP")) is None
    assert parse_play(" cat ") == Play("CAT")
    for bad in ("", "c4t", "é", "do g"):
        with pytest.raises(SpellevateError, match="not a play"):
            parse_play(bad)


# -- the word index against the DAWG walk -------------------------------------------------


def test_word_index_matches_the_dawg_reference(en):
    index = word_index(en)
    rng = np.random.default_rng(11)
    for size in (0, 1, 5, 12, 30):
        for _ in range(2):
            hand = deal(max(1, 144 // max(size, 1)), ENGLISH, rng)[0] if size else TileCounts()
            hand = TileCounts.from_letters(hand.letters()[:size]) if size else hand
            for min_length, max_length in ((2, None), (3, 7), (5, 5)):
                expected = [w.upper() for w in en.formable_words(hand, min_length, max_length=max_length)]
                found = index.formable(hand, min_length, max_length)
                assert found.all_words() == expected
                smaller = TileCounts(np.maximum(hand.counts - 1, 0))
                narrowed = [w.upper() for w in en.formable_words(smaller, min_length, max_length=max_length)]
                assert found.restrict(smaller).all_words() == narrowed
    words = index.formable(TileCounts.from_letters("ACDGOST"), 3, 3)
    assert words.later_than("COD") == [w for w in words.of_length(3) if w > "COD"]
    assert words.count_later("COD") == len(words.later_than("COD"))


def test_simple_bot_plays_as_it_always_did(en):
    """The simple bot's moves equal the original definition on the DAWG reference."""

    def lead(hand):
        words = en.formable_words(hand, 2, max_length=LEAD_MAX_LENGTH)
        if words:
            return max(w for w in words if len(w) == len(words[0])).upper()
        return max(hand.letters())

    def follow(hand, table):
        if len(table) == 1:
            higher = [letter for letter in hand.letters() if letter > table]
            return min(higher) if higher else None
        words = [w.upper() for w in en.formable_words(hand, len(table), max_length=len(table))]
        later = [w for w in words if len(w) == len(table) and w > table]
        return min(later) if later else None

    bot = SimpleBot(en)
    rng = np.random.default_rng(5)
    for _ in range(3):
        hand = deal(5, ENGLISH, rng)[0]
        assert bot.lead(hand).letters == lead(hand)
        for table in ("M", "CAT", "RAINING", "Y"):
            played = bot.follow(hand, Play(table))
            assert (played.letters if played else None) == follow(hand, table)
    assert bot.lead(TileCounts.from_letters("QXZ")) == Play("Z")  # no word: its latest letter


# -- the planner ---------------------------------------------------------------------------


def test_planner_partitions_the_hand_into_words_and_letters(en):
    rng = np.random.default_rng(8)
    hands = deal(4, ENGLISH, rng)
    game = SpellevateRound(hands, 0, en)
    bot = PlannerBot(en)
    bot.begin(game.view(0))
    plan = bot.plan(hands[0].counts, bot.words, Odds(game.view(0), bot.unseen_words))
    assert sum((TileCounts.from_letters(piece.letters) for piece in plan.pieces), TileCounts()) == hands[0]
    assert all(len(piece.letters) == 1 or piece.letters in en for piece in plan.pieces)
    assert len(plan.pieces) < len(hands[0]) / 3  # mostly long words, not letters
    assert all(0.0 <= piece.safety <= 1.0 for piece in plan.pieces)


def test_planner_counts_what_has_been_played(en):
    # P1 holds Y; the only Z is P2's. A Y is beatable until that Z has been played.
    game = SpellevateRound(hands_of("YAB", "ZCD", "EFG"), 0, en)
    odds = Odds(game.view(0), word_index(en).formable(game.view(0).unseen))
    assert odds.safety("Y") == 0.0 and odds.safety("Z") == 1.0
    game.state.played = TileCounts.from_letters("Z")  # as if the Z had been played
    game.hands[1] = TileCounts.from_letters("CD")
    odds = Odds(game.view(0), word_index(en).formable(game.view(0).unseen))
    assert odds.safety("Y") == 1.0


def test_planner_goes_out_when_it_can_and_keeps_its_plan_otherwise(en):
    game = SpellevateRound(hands_of("ABCDEFGHIJKLMNOPRS", "ZOOS", "TRUE"), 1, en)
    game.move(1, Play("ZOO"))
    bot = PlannerBot(en)
    game.move(2, None)
    # P1 cannot beat ZOO (it holds no Z): it passes.
    assert bot.choose(game.view(0)) is None
    game = SpellevateRound(hands_of("CAT", "BOAS", "EMUS"), 1, en)
    game.move(1, Play("BOA"))
    game.move(2, None)
    assert PlannerBot(en).choose(game.view(0)) == Play("CAT")  # going out wins


@pytest.mark.parametrize("spec", ["planner", "planner:beam=2,branch=2,follow_candidates=4"])
def test_planner_games_are_legal_complete_and_deterministic(en, spec):
    first = play_spellevate(3, rounds=1, seed=12, lexicon=en, bots=[spec, "simple", "simple"])[0]
    again = play_spellevate(3, rounds=1, seed=12, lexicon=en, bots=[spec, "simple", "simple"])[0]
    assert first.events == again.events
    assert sum(first.scores) == 0 and first.hands_left[first.winner] == ""


def test_bot_specs_are_checked(en):
    assert make_spellevate_bot("planner:beam=3,lost_lead=1.5", en).settings.beam == 3
    for spec, message in (
        ("nobody", "unknown Spellevate bot"),
        ("simple:beam=2", "takes no settings"),
        ("planner:depth=2", "unknown planner setting"),
        ("planner:beam=x", "expected a number"),
        ("planner:beam=0", "out of range"),
        ("planner:regain=nan", "out of range"),
    ):
        with pytest.raises(ValueError, match=message):
            make_spellevate_bot(spec, en)


def test_spellevate_plays_are_words_from_the_hand_and_climb(en):
    result = play_spellevate(3, rounds=1, seed=5, lexicon=en, bots=["planner", "simple", "simple"])[0]
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


def test_observer_sees_the_lead_draw_the_deals_and_every_move(en):
    seen = []
    results = play_spellevate_rounds(
        [SimpleBot(en) for _ in range(3)], rounds=2, seed=1, lexicon=en, observer=seen.append
    )
    assert seen[0]["event"] == "lead_draw"
    deals = [event for event in seen if event["event"] == "deal"]
    assert [d["round"] for d in deals] == [1, 2] and deals[1]["leader"] == results[0].winner
    moves = [event for event in seen if event["event"] not in ("lead_draw", "deal")]
    assert moves == results[0].events[1:] + results[1].events


def test_planner_notices_a_new_hand_without_being_told(en):
    bot = PlannerBot(en)
    first = SpellevateRound(hands_of("CATS", "DOGS", "EMUS"), 0, en)
    bot.begin(first.view(0))
    second = SpellevateRound(hands_of("ZEBRA", "DOGS", "EMUS"), 0, en)  # a new deal: begin() is not called
    play = bot.choose(second.view(0))
    assert play == Play("ZEBRA")  # its whole new hand, one word: out at once
