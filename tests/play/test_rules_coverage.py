"""Every rule of docs/RULES.md is checked by a named test.

docs/RULES.md is the engine's contract: each rule is a bullet opening with a bold
identifier (`**classic.peel**`). `COVERAGE` maps each identifier to the `test_rule_*`
tests that check it: a bare name is a test of `test_game.py`, `FILE::name` a test of
another file of this folder, tests/play/ (Spellevate's live in test_spellevate.py). A rule added without a
test, a mapping left pointing at a rule that is gone, or a named test that does not exist
fails here.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.nojit

RULES = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
RULE_ID = re.compile(r"^- \*\*([a-z]+\.[a-z-]+)\*\* \S", re.M)

# rule identifier in docs/RULES.md -> the test_rule_* tests that check it
COVERAGE: dict[str, list[str]] = {
    # -- tiles
    "tiles.set": [
        "test_rule_144_tiles_no_blanks_no_point_values",
    ],
    "tiles.english": [
        "test_rule_english_distribution_exact_counts",
    ],
    "tiles.french": [
        "test_rule_french_default_is_labelled_and_user_distribution_is_validated",
        "test_rule_french_game_uses_fr_lexicon_and_distribution",
    ],
    "tiles.data": [
        "test_rule_distribution_is_data_double_set_288",
        "test_rule_distribution_is_data_any_alphabet_and_counts",
    ],
    # -- lexicon
    "lexicon.word": [
        "test_rule_word_is_run_of_2_letters_3_under_three_letter_minimum",
    ],
    "lexicon.excluded": [
        "test_rule_no_proper_nouns_abbreviations_hyphens_conjugated_and_plural_forms_count",
        "test_rule_no_abbreviations_in_the_french_lexicon",
    ],
    "lexicon.forms": [
        "test_rule_no_proper_nouns_abbreviations_hyphens_conjugated_and_plural_forms_count",
    ],
    "lexicon.accents": [
        "test_rule_tiles_carry_no_accents_french_words_folded_to_a_z",
        "test_rule_tiles_carry_no_accents_user_french_list_is_folded",
    ],
    # -- classic
    "classic.deal": [
        "test_rule_starting_hand_21_for_1_to_4_players_15_for_5_6_11_for_7_8_rest_is_bunch",
        "test_rule_classic_game_takes_1_to_8_players",
    ],
    "classic.split": [
        "test_rule_split_everyone_starts_at_once_no_turns",
    ],
    "classic.grid": [
        "test_rule_grid_words_read_left_to_right_and_top_to_bottom",
        "test_rule_grid_every_maximal_run_is_a_word_accidental_ones_included",
        "test_rule_grid_all_tiles_in_one_4_connected_grid",
    ],
    "classic.hand": [
        "test_rule_grid_rearrange_any_time_tiles_not_in_grid_are_the_hand",
    ],
    "classic.peel": [
        "test_rule_peel_only_with_empty_hand_and_one_bunch_tile_per_active_player",
    ],
    "classic.peel-draw": [
        "test_rule_peel_every_active_player_draws_exactly_one_caller_too_whatever_their_grid",
    ],
    "classic.dump": [
        "test_rule_dump_returns_one_draws_three_mixed_in_first",
        "test_rule_dump_only_when_bunch_plus_returned_holds_three",
        "test_rule_dump_any_time_only_for_the_dumper_no_limit",
    ],
    "classic.dump-mix": [
        "test_rule_dump_returns_one_draws_three_mixed_in_first",
    ],
    "classic.dump-limit": [
        "test_rule_dump_any_time_only_for_the_dumper_no_limit",
    ],
    "classic.bananas": [
        "test_rule_bananas_only_when_bunch_below_active_count",
        "test_rule_bananas_valid_grid_wins_first_caller",
        "test_rule_rotten_banana_invalid_grid_bad_word_disconnected_tile_not_placed",
    ],
    "classic.bananas-valid": [
        "test_rule_bananas_valid_grid_wins_first_caller",
    ],
    "classic.rotten": [
        "test_rule_rotten_banana_invalid_grid_bad_word_disconnected_tile_not_placed",
    ],
    "classic.rotten-out": [
        "test_rule_rotten_banana_returns_all_tiles_and_drops_active_count",
    ],
    "classic.rotten-continue": [
        "test_rule_rotten_banana_returns_all_tiles_and_drops_active_count",
        "test_rule_rotten_banana_others_keep_playing_and_peel_again",
    ],
    "classic.serial": [
        "test_rule_calls_serialized",
    ],
    "classic.shared-win": [
        "test_rule_simultaneous_valid_bananas_share_the_win",
        "test_rule_simultaneous_valid_bananas_share_the_win_past_other_calls",
    ],
    "classic.all-stuck": [
        "test_rule_all_stuck_unawarded",
    ],
    "classic.all-rotten": [
        "test_rule_all_rotten_unawarded",
    ],
    "classic.example": [
        "test_rule_worked_example_4_players_4_tiles_peel_allowed_3_not",
    ],
    # -- variant
    "variant.three-letter": [
        "test_rule_three_letter_minimum_every_across_and_down_word_3_plus",
        "test_rule_word_is_run_of_2_letters_3_under_three_letter_minimum",
    ],
    "variant.smoothie": [
        "test_rule_smoothie_deals_all_tiles_equally_remainder_unused",
        "test_rule_smoothie_no_peel_no_dump",
        "test_rule_smoothie_race_to_use_the_whole_hand",
        "test_rule_smoothie_race_goes_on_after_a_rotten_banana",
    ],
    "variant.smoothie-tiebreak": [
        "test_rule_smoothie_stalemate_goes_to_longest_valid_word",
        "test_rule_smoothie_tied_finish_goes_to_longest_word",
        "test_rule_smoothie_equal_longest_means_another_hand",
    ],
    "variant.solo": [
        "test_rule_solo_21_tiles_peel_dump_mechanics_objective_chosen_up_front",
        "test_rule_solo_hand_ends_at_bananas_with_time_and_word_count",
        "test_rule_solo_objective_changes_the_hand_or_its_result",
    ],
    # -- format
    "format.match": [
        "test_rule_matches_best_of_three_counts_hand_wins",
        "test_rule_matches_best_of_five_counts_hand_wins",
        "test_rule_matches_first_to_two_sole_wins_shared_or_unawarded_replayed",
    ],
    "format.spellcheck": [
        "test_rule_spellcheck_names_invalid_words_and_cells_off_judged_only_at_bananas",
    ],
    # -- spellevate
    "spellevate.deal": [
        "test_spellevate.py::test_rule_spellevate_deal_all_tiles_uneven_deal_leaves_last_players_one_fewer",
        "test_spellevate.py::test_rule_spellevate_double_set_for_large_groups",
        "test_spellevate.py::test_rule_spellevate_uneven_deal_starts_with_the_leader",
        "test_spellevate.py::test_rule_spellevate_each_round_is_dealt_from_its_leader",
    ],
    "spellevate.first-lead": [
        "test_spellevate.py::test_rule_spellevate_first_leader_is_closest_to_z_ties_redraw",
        "test_spellevate.py::test_rule_spellevate_lead_draw_ties_redraw_among_the_tied_only",
    ],
    "spellevate.later-lead": [
        "test_spellevate.py::test_rule_spellevate_later_rounds_led_by_previous_winner",
    ],
    "spellevate.lead": [
        "test_spellevate.py::test_rule_spellevate_leader_must_play_and_others_may_pass",
    ],
    "spellevate.beat": [
        "test_spellevate.py::test_rule_spellevate_beating_single_letter_later_in_alphabet",
        "test_spellevate.py::test_rule_spellevate_beating_word_same_length_alphabetically_later",
        "test_spellevate.py::test_rule_spellevate_invalid_plays_rejected_with_a_clear_reason",
    ],
    "spellevate.pass": [
        "test_spellevate.py::test_rule_spellevate_leader_must_play_and_others_may_pass",
        "test_spellevate.py::test_rule_spellevate_a_player_who_cannot_beat_must_pass",
    ],
    "spellevate.clear": [
        "test_spellevate.py::test_rule_spellevate_all_others_pass_last_player_clears_and_leads",
        "test_spellevate.py::test_rule_spellevate_clear_goes_to_the_last_player_to_play",
    ],
    "spellevate.win": [
        "test_spellevate.py::test_rule_spellevate_first_to_empty_hand_wins_and_scores_sum_to_zero",
    ],
    "spellevate.score": [
        "test_spellevate.py::test_rule_spellevate_first_to_empty_hand_wins_and_scores_sum_to_zero",
    ],
}


def load_test_file(file_name: str = "test_game.py"):
    """A test file of this folder (tests/play/), imported (the folder is on sys.path under
    pytest's default import mode; otherwise loaded from its path)."""
    name = file_name.removesuffix(".py")
    try:
        return importlib.import_module(name)
    except ImportError:
        path = Path(__file__).with_name(file_name)
        spec = importlib.util.spec_from_file_location(f"_coverage_{name}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module


def resolve(reference: str):
    """'name' -> test_game.name; 'FILE::name' -> FILE's name (None when missing)."""
    file_name, _, name = reference.rpartition("::")
    return getattr(load_test_file(file_name or "test_game.py"), name, None)


def rule_ids() -> list[str]:
    return RULE_ID.findall(RULES.read_text(encoding="utf-8"))


def test_rule_identifiers_are_unique_and_every_bullet_has_one():
    text = RULES.read_text(encoding="utf-8")
    ids = rule_ids()
    assert len(ids) == len(set(ids)), "a rule identifier is used twice"
    bullets = re.findall(r"^- ", text, re.M)
    assert len(bullets) == len(ids), "a rule bullet without a **section.name** identifier"


def test_every_rule_has_a_test():
    uncovered = [rule for rule in rule_ids() if rule not in COVERAGE]
    assert not uncovered, f"rules without a test (add one and map it in COVERAGE): {uncovered}"


def test_every_mapping_names_a_rule():
    stale = set(COVERAGE) - set(rule_ids())
    assert not stale, f"COVERAGE names rules that docs/RULES.md no longer has: {stale}"


def test_every_mapped_test_exists():
    for rule, references in COVERAGE.items():
        assert references, f"no test listed for {rule!r}"
        for reference in references:
            assert reference.rpartition("::")[2].startswith("test_rule_"), f"{reference}: rule tests are test_rule_*"
            assert callable(resolve(reference)), f"{reference} (for {rule!r}) does not exist"


def test_every_rule_test_in_test_game_is_mapped():
    module = load_test_file("test_game.py")
    mapped = {name for names in COVERAGE.values() for name in names}
    rule_tests = {name for name in dir(module) if name.startswith("test_rule_")}
    assert rule_tests - mapped == set(), f"rule tests not mapped to a rule of docs/RULES.md: {rule_tests - mapped}"
