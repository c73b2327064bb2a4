"""Every rule sentence of ../shared/RULES.md is checked by a named test.

RULES.md is the engine's contract. This file splits its rule sections into bullets and
the bullets into sentences, and `COVERAGE` maps each sentence (by its opening words) to
the `test_rule_*` tests that check it: a bare name is a test of `test_game.py`,
`FILE::name` a test of another file in tests/ (Spellevate's live in test_spellevate.py).
A rule added or reworded without a test, a mapping left pointing at a sentence that is
gone, or a named test that does not exist fails here.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.nojit

RULES = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
SECTIONS = ("Tiles", "Lexicon", "Classic game", "Variants and formats", "Spellevate")

# sentence opening -> tests in test_game.py that check it
COVERAGE: dict[str, list[str]] = {
    # -- Tiles
    "144 tiles, no blanks, no point values.": ["test_rule_144_tiles_no_blanks_no_point_values"],
    "English distribution: A13 B3": ["test_rule_english_distribution_exact_counts"],
    "French: the seed says the French set's distribution is not confirmed.": [
        "test_rule_french_default_is_labelled_and_user_distribution_is_validated",
        "test_rule_french_game_uses_fr_lexicon_and_distribution",
    ],
    "Ship a clearly labelled default and let a user pass their own distribution": [
        "test_rule_french_default_is_labelled_and_user_distribution_is_validated"
    ],
    "A distribution is data: a user can supply any alphabet and counts": [
        "test_rule_distribution_is_data_double_set_288",
        "test_rule_distribution_is_data_any_alphabet_and_counts",
    ],
    # -- Lexicon
    "A word is a run of 2+ letters in the lexicon": ["test_rule_word_is_run_of_2_letters_3_under_three_letter_minimum"],
    "No proper nouns, abbreviations, hyphenated words.": [
        "test_rule_no_proper_nouns_abbreviations_hyphens_conjugated_and_plural_forms_count",
        "test_rule_no_abbreviations_in_the_french_lexicon",
    ],
    "Conjugated and plural forms count when the lexicon lists them.": [
        "test_rule_no_proper_nouns_abbreviations_hyphens_conjugated_and_plural_forms_count"
    ],
    "Tiles carry no accents: French words are folded to A–Z": [
        "test_rule_tiles_carry_no_accents_french_words_folded_to_a_z",
        "test_rule_tiles_carry_no_accents_user_french_list_is_folded",
    ],
    # -- Classic game
    "Starting hand: 21 tiles each for 1–4 players, 15 for 5–6, 11 for 7–8.": [
        "test_rule_starting_hand_21_for_1_to_4_players_15_for_5_6_11_for_7_8_rest_is_bunch",
        "test_rule_classic_game_takes_1_to_8_players",
    ],
    "The rest is the BUNCH.": ["test_rule_starting_hand_21_for_1_to_4_players_15_for_5_6_11_for_7_8_rest_is_bunch"],
    "SPLIT: everyone starts at once.": ["test_rule_split_everyone_starts_at_once_no_turns"],
    "There are no turns.": ["test_rule_split_everyone_starts_at_once_no_turns"],
    "Grid: words read left to right and top to bottom;": [
        "test_rule_grid_words_read_left_to_right_and_top_to_bottom",
        "test_rule_grid_every_maximal_run_is_a_word_accidental_ones_included",
        "test_rule_grid_all_tiles_in_one_4_connected_grid",
    ],
    "A player may rearrange their own grid at any time.": [
        "test_rule_grid_rearrange_any_time_tiles_not_in_grid_are_the_hand"
    ],
    "Tiles not in the grid are the hand.": ["test_rule_grid_rearrange_any_time_tiles_not_in_grid_are_the_hand"],
    "PEEL: a player whose hand is empty may call PEEL while the bunch holds at least one tile per": [
        "test_rule_peel_only_with_empty_hand_and_one_bunch_tile_per_active_player"
    ],
    "Every active player then draws exactly one tile, the caller too": [
        "test_rule_peel_every_active_player_draws_exactly_one_caller_too_whatever_their_grid"
    ],
    "DUMP: at any time a player may return one tile to the bunch and draw three": [
        "test_rule_dump_returns_one_draws_three_mixed_in_first",
        "test_rule_dump_only_when_bunch_plus_returned_holds_three",
        "test_rule_dump_any_time_only_for_the_dumper_no_limit",
    ],
    "The returned tile is mixed in before drawing (it may come back).": [
        "test_rule_dump_returns_one_draws_three_mixed_in_first"
    ],
    "No limit on dumps.": ["test_rule_dump_any_time_only_for_the_dumper_no_limit"],
    "BANANAS: when the bunch holds fewer tiles than active players": [
        "test_rule_bananas_only_when_bunch_below_active_count",
        "test_rule_bananas_valid_grid_wins_first_caller",
    ],
    "The grid is inspected:": [
        "test_rule_bananas_valid_grid_wins_first_caller",
        "test_rule_rotten_banana_invalid_grid_bad_word_disconnected_tile_not_placed",
    ],
    "valid: that player wins the hand;": ["test_rule_bananas_valid_grid_wins_first_caller"],
    "invalid (bad word, disconnected, a tile not placed): ROTTEN BANANA.": [
        "test_rule_rotten_banana_invalid_grid_bad_word_disconnected_tile_not_placed"
    ],
    "The player is out of this hand and all their tiles go back into the bunch.": [
        "test_rule_rotten_banana_returns_all_tiles_and_drops_active_count"
    ],
    "The others keep playing; the active count drops, so a PEEL may become possible again.": [
        "test_rule_rotten_banana_returns_all_tiles_and_drops_active_count",
        "test_rule_rotten_banana_others_keep_playing_and_peel_again",
    ],
    "Calls are serialized:": ["test_rule_calls_serialized"],
    "Two valid BANANAS calls that cannot be ordered share the win.": [
        "test_rule_simultaneous_valid_bananas_share_the_win",
        "test_rule_simultaneous_valid_bananas_share_the_win_past_other_calls",
    ],
    "If every remaining player is stuck, the hand ends unawarded.": ["test_rule_all_stuck_unawarded"],
    "If every player goes rotten, the hand ends unawarded.": ["test_rule_all_rotten_unawarded"],
    "Worked example: 4 active players, 4 tiles in the bunch:": [
        "test_rule_worked_example_4_players_4_tiles_peel_allowed_3_not"
    ],
    "With 3 tiles, nobody may PEEL.": ["test_rule_worked_example_4_players_4_tiles_peel_allowed_3_not"],
    # -- Variants and formats
    "Three-letter minimum: every across and down word has 3+ letters.": [
        "test_rule_three_letter_minimum_every_across_and_down_word_3_plus",
        "test_rule_word_is_run_of_2_letters_3_under_three_letter_minimum",
    ],
    "Banana Smoothie: deal all 144 tiles equally": [
        "test_rule_smoothie_deals_all_tiles_equally_remainder_unused",
        "test_rule_smoothie_no_peel_no_dump",
        "test_rule_smoothie_race_to_use_the_whole_hand",
        "test_rule_smoothie_race_goes_on_after_a_rotten_banana",
    ],
    "A stalemate or tied finish goes to the longest valid word in a grid;": [
        "test_rule_smoothie_stalemate_goes_to_longest_valid_word",
        "test_rule_smoothie_tied_finish_goes_to_longest_word",
        "test_rule_smoothie_equal_longest_means_another_hand",
    ],
    "Solo: 21 tiles, the PEEL/DUMP mechanics alone;": [
        "test_rule_solo_21_tiles_peel_dump_mechanics_objective_chosen_up_front",
        "test_rule_solo_hand_ends_at_bananas_with_time_and_word_count",
        "test_rule_solo_objective_changes_the_hand_or_its_result",
    ],
    "Matches: best of three or five (count hand wins), or first to two sole hand wins": [
        "test_rule_matches_best_of_three_counts_hand_wins",
        "test_rule_matches_best_of_five_counts_hand_wins",
        "test_rule_matches_first_to_two_sole_wins_shared_or_unawarded_replayed",
    ],
    "Spellcheck on/off (seed 002) is a front-end setting:": [
        "test_rule_spellcheck_names_invalid_words_and_cells_off_judged_only_at_bananas"
    ],
    # -- Spellevate (solver/play/spellevate.py; its rule tests live in test_spellevate.py)
    "Deal all tiles (one set, or a double set for large groups)": [
        "test_spellevate.py::test_rule_spellevate_deal_all_tiles_uneven_deal_leaves_last_players_one_fewer",
        "test_spellevate.py::test_rule_spellevate_double_set_for_large_groups",
    ],
    "First round: each player draws a tile": [
        "test_spellevate.py::test_rule_spellevate_first_leader_is_closest_to_z_ties_redraw"
    ],
    "Later rounds: the previous round's winner leads.": [
        "test_spellevate.py::test_rule_spellevate_later_rounds_led_by_previous_winner"
    ],
    "The leader plays a single letter or a word from their hand.": [
        "test_spellevate.py::test_rule_spellevate_leader_must_play_and_others_may_pass"
    ],
    "Each later play must beat the current one:": [
        "test_spellevate.py::test_rule_spellevate_beating_single_letter_later_in_alphabet",
        "test_spellevate.py::test_rule_spellevate_beating_word_same_length_alphabetically_later",
    ],
    "A player may pass except when leading.": [
        "test_spellevate.py::test_rule_spellevate_leader_must_play_and_others_may_pass"
    ],
    "When every other player has passed in turn": [
        "test_spellevate.py::test_rule_spellevate_all_others_pass_last_player_clears_and_leads"
    ],
    "The first player to empty their hand wins the round.": [
        "test_spellevate.py::test_rule_spellevate_first_to_empty_hand_wins_and_scores_sum_to_zero"
    ],
    "Score (optional):": ["test_spellevate.py::test_rule_spellevate_first_to_empty_hand_wins_and_scores_sum_to_zero"],
}


def rule_bullets(text: str) -> list[tuple[str, str]]:
    """(section, bullet text) for every bullet, nested ones included, of the rule
    sections; continuation lines are joined to their bullet."""
    bullets: list[tuple[str, str]] = []
    section = None
    for line in text.splitlines():
        heading = re.match(r"^##\s+(.*)", line)
        if heading:
            section = next((name for name in SECTIONS if heading.group(1).startswith(name)), None)
            continue
        if section is None:
            continue
        bullet = re.match(r"^\s*[-*]\s+(.*)", line)
        if bullet:
            bullets.append((section, bullet.group(1).strip()))
        elif line.strip() and line[:1].isspace() and bullets and bullets[-1][0] == section:
            bullets[-1] = (section, f"{bullets[-1][1]} {line.strip()}")
        elif line.strip():  # a paragraph in a rule section is rule text as well
            bullets.append((section, line.strip()))
    return bullets


def sentences(bullet: str) -> list[str]:
    """A bullet's sentences: split after a full stop followed by a capital letter."""
    return [part.strip() for part in re.split(r"(?<=\.)\s+(?=[A-Z])", bullet) if part.strip()]


def rule_sentences() -> list[tuple[str, str]]:
    if not RULES.is_file():
        pytest.skip(f"{RULES} not found (the contract lives beside the repository)")
    return [
        (section, sentence)
        for section, bullet in rule_bullets(RULES.read_text(encoding="utf-8"))
        for sentence in sentences(bullet)
    ]


def load_test_file(file_name: str = "test_game.py"):
    """A test file of tests/, imported (tests/ is on sys.path under pytest's default
    import mode; otherwise loaded from its path)."""
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


def test_every_rule_section_is_found():
    found = {section for section, _ in rule_sentences()}
    assert found == set(SECTIONS), f"sections missing from RULES.md (or renamed): {set(SECTIONS) - found}"


def test_every_rule_sentence_has_a_test():
    uncovered = [
        f"[{section}] {sentence}"
        for section, sentence in rule_sentences()
        if not any(sentence.startswith(opening) for opening in COVERAGE)
    ]
    assert not uncovered, "rule sentences without a test (add one to test_game.py and to COVERAGE):\n" + "\n".join(
        uncovered
    )


def test_every_mapping_names_one_rule_sentence():
    all_sentences = [sentence for _, sentence in rule_sentences()]
    stale = {
        opening: n
        for opening in COVERAGE
        if (n := sum(sentence.startswith(opening) for sentence in all_sentences)) != 1
    }
    assert not stale, f"COVERAGE openings matching no sentence or several (RULES.md changed?): {stale}"


def test_every_mapped_test_exists():
    for opening, references in COVERAGE.items():
        assert references, f"no test listed for {opening!r}"
        for reference in references:
            assert reference.rpartition("::")[2].startswith("test_rule_"), f"{reference}: rule tests are test_rule_*"
            assert callable(resolve(reference)), f"{reference} (for {opening!r}) does not exist"


def test_every_rule_test_in_test_game_is_mapped():
    module = load_test_file("test_game.py")
    mapped = {name for names in COVERAGE.values() for name in names}
    rule_tests = {name for name in dir(module) if name.startswith("test_rule_")}
    assert rule_tests - mapped == set(), f"rule tests not mapped to a RULES.md sentence: {rule_tests - mapped}"
