"""solver.coach.review: the review of the seeded bot game of tests/golden is exact, and every
grid it shows is checked by the independent validator."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from solver.coach import review
from solver.coach.reviews import fewest_words_nodes
from solver.core.grid import Grid, find_words, validate
from solver.core.limits import MAX_REVIEW_NODES

GOLDEN_REVIEW = Path(__file__).resolve().parents[1] / "golden" / "coach-review.json"


def test_the_review_of_the_seeded_game_is_exact(game_review):
    expected = json.loads(GOLDEN_REVIEW.read_text(encoding="utf-8"))
    assert game_review.to_json() == expected, "regenerate with: python3 tests/coach/test_reviews.py --update"


def test_every_best_grid_uses_exactly_the_players_tiles(game_review, en):
    for hand in game_review.hands:
        for player in hand.players:
            assert player.best is not None
            assert validate(player.best.grid, en, player.tiles).ok
            words = find_words(player.best.grid)
            assert player.best.words == len(words)
            assert player.best.longest == max((word.text for word in words), key=len)
            if player.valid:  # the best is never worse than the player's own grid
                assert player.best.words <= len(find_words(player.grid))


def test_the_players_grids_and_verdicts(game_review, en):
    winner, rotten = game_review.hands[0].players[1], game_review.hands[0].players[0]
    assert game_review.hands[0].outcome == "win" and game_review.hands[0].winners == [1]
    assert winner.valid and validate(winner.grid, en, winner.tiles).ok
    assert not rotten.valid and rotten.problems
    assert rotten.rotten is not None
    nearest = rotten.rotten["nearest"]
    assert validate(Grid.from_rows(nearest["grid"]), en, rotten.tiles).ok
    assert nearest["tiles_moved"] >= 1


def test_the_pace_figures(game_review, game_log):
    events = game_log.hands[0].events
    for player in game_review.hands[0].players:
        peels = sum(event["event"] == "peel" and event["player"] == player.player for event in events)
        dumps = [event for event in events if event["event"] == "dump" and event["player"] == player.player]
        assert player.peels == peels and len(player.dumps) == len(dumps)
        assert [dump["returned"] for dump in player.dumps] == [dump["returned"] for dump in dumps]
        own_peel = next(
            (event["t"] for event in events if event["event"] == "peel" and event["player"] == player.player), None
        )
        assert player.first_grid_s is not None and (own_peel is None or player.first_grid_s <= own_peel)
        assert player.tiles_per_minute is not None and player.tiles_per_minute > 0
    assert all(dump["advised"] for dump in game_review.hands[0].players[0].dumps)


def test_a_review_is_the_same_every_time_from_the_logs_text(game_text, game_review, en):
    assert review(game_text, lexicon=en).to_json() == game_review.to_json()


def test_the_text_review_names_every_player_and_their_best_grid(game_review):
    text = game_review.text()
    for player in game_review.hands[0].players:
        assert f"-- {player.label}:" in text
        assert f"best ({player.best.words} words, longest {player.best.longest})" in text
    assert "rotten banana" in text and "nearest valid grid" in text


def test_the_lead_says_where_the_hand_turned(game_review):
    lead = game_review.hands[0].lead
    assert [turn["player"] for turn in lead] == [0, 1]  # the reckless bot led until the easy one passed it
    assert lead[0]["t"] < lead[1]["t"] and all(turn["placed"] > 0 for turn in lead)
    assert "the lead (most tiles on the table): P1 reckless at" in game_review.text()


def test_big_hands_get_a_smaller_fewest_words_budget():
    assert fewest_words_nodes(21) == MAX_REVIEW_NODES
    assert fewest_words_nodes(36) > fewest_words_nodes(48) > fewest_words_nodes(72) >= 1
    assert fewest_words_nodes(48) < MAX_REVIEW_NODES // 10
    assert fewest_words_nodes(288) >= 1


def test_a_room_log_is_reviewed_with_its_names_and_hints(game_text, game_review, en):
    from test_logs import as_room_log

    room = review(as_room_log(game_text), lexicon=en)
    players = room.hands[0].players
    assert [player.label for player in players] == ["P1 ana", "P2 bo"]
    assert [player.hints for player in players] == [0, 1]
    assert players[1].best.to_json() == game_review.hands[0].players[1].best.to_json()


if __name__ == "__main__":  # python3 tests/coach/test_reviews.py --update
    if sys.argv[1:] == ["--update"]:
        from solver.coach import read_log

        game = read_log(Path(__file__).resolve().parents[1] / "golden" / "coach-game.jsonl")
        GOLDEN_REVIEW.write_text(json.dumps(review(game).to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN_REVIEW}")


def test_work_the_table_had_not_seen_when_the_hand_ended_is_not_laid(en):
    """P1 hard calls BANANAS while the two other bots are still working (issue 40: an end
    screen credited a bot with tiles it had not laid). Each grid is the one the table last
    saw, the bot's last snapshot: tiles left in the rack, and no first grid for a player whose
    rack the table never saw empty."""
    from solver.coach import read_log

    log = read_log(GOLDEN_REVIEW.parent / "coach-three-bots.jsonl")
    events = log.hands[0].events
    first, second, third = review(log, lexicon=en).hands[0].players
    assert first.valid and first.tiles_left == 0 and first.first_grid_s is not None
    for player in (second, third):
        last = next(e["grid"] for e in reversed(events) if e["event"] == "snapshot" and e["player"] == player.player)
        assert player.grid is not None and player.grid.to_json() == last
        assert player.tiles_left == len(player.tiles) - player.grid.tile_count > 0
        assert player.first_grid_s is None and player.peels == 0 and not player.valid
        assert validate(player.grid, en).ok  # what the table saw is sound: words, one piece
    assert len({player.tiles_per_minute for player in (first, second, third)}) == 3  # each their own


def test_a_best_grid_is_made_of_common_words_when_it_can_be(en):
    """Issue 40: best grids of EQUIPOTENTIALITIES and TROOZ teach nothing: with the common
    list (the bots' vocabulary levels), the best grid is sought there first; otherwise, all."""
    from solver.coach.reviews import best_grid
    from solver.core.tiles import TileCounts
    from solver.lexicon.loader import get_lexicon

    common = get_lexicon("en", 50)
    tiles = TileCounts.from_letters("AEEIIKLNOQRSTTUVXZ")
    plain, familiar = best_grid(tiles, None, en, 2), best_grid(tiles, None, en, 2, common)
    assert plain is not None and familiar is not None
    for found in (plain, familiar):
        assert validate(found.grid, en, tiles=tiles).ok
    assert all(word.text in common for word in find_words(familiar.grid))
    assert not all(word.text in common for word in find_words(plain.grid))  # what the full list gives
    rare = TileCounts.from_letters("QIS")  # no grid of common words: the full list's answer
    assert best_grid(rare, None, en, 2, common) == best_grid(rare, None, en, 2) is not None
