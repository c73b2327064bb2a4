"""The word search (solver/search/wordsearch.py): complete, so its "no grid" is a proof.

Checked against the reference oracle (`exhaustive_grid_exists`, which enumerates every shape)
on small hands and against the cell-by-cell search (`solver.search.exact`, complete too) on
vowel-poor hands of 6-7 tiles, both answers; every grid it returns re-checked by the
independent validator.
"""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from solver.core.grid import find_words, validate
from solver.core.tiles import ALPHABET, ENGLISH, TileCounts, draw
from solver.search import solving, wordsearch
from solver.search.exact import exact_grid
from solver.search.reference import exhaustive_grid_exists
from solver.search.wordsearch import GROUP_CARRIERS, WordSearch, carriers, new_search, word_arrays, word_search_grid


def settle(hand: TileCounts, lexicon, min_length: int = 2):
    return word_search_grid(hand, lexicon, min_length, time.perf_counter() + 60)


def check(hand: TileCounts, lexicon, expected: bool, min_length: int = 2) -> str:
    status, grid, _ = settle(hand, lexicon, min_length)
    assert status == ("solved" if expected else "no-grid"), hand.letters()
    if grid is not None:
        assert validate(grid, lexicon, tiles=hand, min_length=min_length).ok, grid
    return status


@pytest.mark.parametrize("letters", ["CAT", "AT", "QQ", "XYZ", "AAHH", "CILRV", "ZZZQ"])
def test_known_small_hands(en, letters):
    hand = TileCounts.from_letters(letters)
    check(hand, en, exhaustive_grid_exists(hand, en) is not None)


def test_agrees_with_the_oracle_on_random_small_hands(en, make_rng):
    rng = make_rng(2412)
    answers = set()
    for size in (2, 3, 4, 5):
        for _ in range(8 if size < 5 else 5):
            hand = draw(ENGLISH, size, rng)
            answers.add(check(hand, en, exhaustive_grid_exists(hand, en) is not None))
    assert answers == {"solved", "no-grid"}  # the draws exercise both answers


def test_agrees_with_the_cell_by_cell_search_on_vowel_poor_hands(en):
    # Hands of 6-7 tiles with one or two vowels: the kind the word search is for, small enough
    # for the cell-by-cell search to decide; both answers occur.
    answers = set()
    for letters in ("BCDEFG", "AJQRST", "EGHNST", "IJKLMN", "OPRSTXZ", "ACHLMPS", "EIJQSTU"):
        hand = TileCounts.from_letters(letters)
        cell_status, _, _ = exact_grid(hand, en, 2, time.perf_counter() + 60)
        answers.add(check(hand, en, cell_status == "solved"))
    assert answers == {"solved", "no-grid"}


def root_run(hand: TileCounts, lexicon, root: int, spelled: list[str] | None = None) -> tuple[str, int]:
    """(status, decisions) of one search from `root` alone (WordSearch runs ROOTS of them in
    turns), over `spelled` in that order (default: every word the hand spells)."""
    search = WordSearch(hand, lexicon, 2, spelled=spelled)
    search.roots, search.searches, search.overflowed = [root], [new_search(search.counts)], [False]
    status, grid, decisions = search.run(time.perf_counter() + 60)
    if grid is not None:
        assert validate(grid, lexicon, tiles=hand).ok, grid
    return status, decisions


def test_every_root_alone_is_complete(en, make_rng):
    """Whichever of its letters a search starts from, it settles a hand as the oracle does:
    so the first of the side-by-side searches to end may answer for all."""
    rng = make_rng(3001)
    answers = set()
    for size in (3, 4, 5):
        for _ in range(4):
            hand = draw(ENGLISH, size, rng)
            expected = "solved" if exhaustive_grid_exists(hand, en) is not None else "no-grid"
            for root in sorted({ALPHABET.index(letter) for letter in hand.letters()}):
                assert root_run(hand, en, root)[0] == expected, (hand.letters(), root)
            answers.add(expected)
    assert answers == {"solved", "no-grid"}


@pytest.mark.parametrize(
    "letters, proved",
    [("CEKLNNRRRRSSTTTTTTTWY", True), ("FGHJKMNNNNNRSTTTTTTUY", True), ("BCDEFIKKLNNNNNPRRRSST", False)],
)
def test_a_proof_is_the_same_tree_in_any_word_order(en, letters, proved):
    """The words' order only sets which option is tried first: the items, their options and
    every bound depend on the state alone, so a search that ends without a grid visits the same
    states in any order (the same decisions), while a grid, where there is one, comes sooner
    or later (2026-12-05: EEEOOOOPPPPSSSVVVVVVV from O, 3,218 decisions most-tiles-per-carrier
    first, over 2,000,000 longest first; no order was better over 2,400 seeded hands, 1,200 of
    them held out)."""
    hand = TileCounts.from_letters(letters)
    search = WordSearch(hand, en, 2)
    assert search.spelled == sorted(search.spelled, key=lambda word: (-len(word), word))  # longest first
    for root in search.roots:
        given = root_run(hand, en, root, search.spelled)
        reversed_order = root_run(hand, en, root, search.spelled[::-1])
        assert given[0] == reversed_order[0] == ("no-grid" if proved else "solved"), (letters, root)
        if proved:
            assert given[1] == reversed_order[1], (letters, chr(65 + root))
        else:  # the order does reach the grid sooner or later (BCDEFIK.. from B: 198 and 2,738)
            assert given[1] != reversed_order[1], (letters, chr(65 + root))


def test_side_by_side_searches_end_on_a_count_the_clock_does_not_change(en):
    """The roots' turns are counted in decisions, not seconds: the same hand ends on the same
    decision count and answer (the library's self-check compares them with the JIT's)."""
    hand = TileCounts.from_letters("CDDFGIJMNNNOQTTTTUVWY")  # 2.2 s from Q alone, 0.1 s from J
    first, second = settle(hand, en), settle(hand, en)
    assert first[0] == "solved" and (first[0], first[2]) == (second[0], second[2])
    assert first[1] == second[1]


@pytest.mark.parametrize("letters, answer", [("CDDFGIJMNNNOQTTTTUVWY", "solved"), ("AABDDDFHLLNNPPRRSTTTV", "no-grid")])
def test_two_workers_reach_one_workers_answer_on_a_count_their_timing_does_not_change(en, letters, answer):
    """Two root searches at once (each turn in a thread of its own) settle the hand as one
    does, and, their outcomes read in the order they were picked, on the same decision count
    and grid every time."""
    hand = TileCounts.from_letters(letters)
    alone = WordSearch(hand, en, 2).run(time.perf_counter() + 60)
    runs = [WordSearch(hand, en, 2).run(time.perf_counter() + 60, workers=2) for _ in range(3)]
    assert alone[0] == answer and {run[0] for run in runs} == {answer}
    assert len({run[2] for run in runs}) == 1 and len({str(run[1]) for run in runs}) == 1
    for status, grid, _ in [alone, runs[0]]:
        assert status == "no-grid" or validate(grid, en, tiles=hand).ok


def test_a_root_option_ended_without_a_grid_bans_its_word(en):
    """A root option whose search ends without a grid proves that no grid holds its word (every
    copy of the word has a tile of the root letter at that offset); `run` bans such words for
    every search. The grid found holds none of them, and the kernel lays no banned word."""
    hand = TileCounts.from_letters("CDDFGIJMNNNOQTTTTUVWY")
    search = WordSearch(hand, en, 2)
    status, grid, _ = search.run(time.perf_counter() + 60)
    banned = {search.spelled[k] for k in np.flatnonzero(search.words.banned)}
    assert status == "solved" and validate(grid, en, tiles=hand).ok and banned
    assert not banned & {word.text for word in find_words(grid)}
    small = WordSearch(TileCounts.from_letters("ACT"), en, 2)
    small.words.banned[:] = 1
    assert small.run(time.perf_counter() + 60)[0] == "no-grid"
    assert WordSearch(TileCounts.from_letters("ACT"), en, 2).run(time.perf_counter() + 60)[0] == "solved"


def test_minimum_word_length_three(en):
    check(TileCounts.from_letters("AT"), en, False, min_length=3)
    check(TileCounts.from_letters("CAT"), en, True, min_length=3)


def test_carriers_hit_every_word():
    words = ["NTH", "QI", "SH", "TUX"]
    chosen = carriers(words, set("HINQSTUX"))
    assert {"I", "U"} <= chosen and all(chosen.intersection(word) for word in words)


def test_the_quick_fit_test_knows_each_occurrences_other_letters():
    """`occ_rest` / `occ_rest_twice` (the kernel rejects a candidate whose other letters neither
    the hand nor its line holds) hold exactly the letters of the word but that occurrence."""
    words = ["NTH", "QI", "ANNA", "TRANQ", "EEL"]
    arrays = word_arrays(words, set("AEHILNQRT"))
    for at, (k, offset) in enumerate(zip(arrays.occ_word.tolist(), arrays.occ_offset.tolist())):
        others = words[k][:offset] + words[k][offset + 1 :]
        assert arrays.occ_rest[at] == sum(1 << ALPHABET.index(ch) for ch in set(others))
        assert arrays.occ_rest_twice[at] == sum(1 << ALPHABET.index(ch) for ch in set(others) if others.count(ch) > 1)


@pytest.mark.parametrize("letters", ["ACDDEFJLMNNNOQQRRTTTZ", ""])
def test_word_arrays_hold_what_each_field_says(en, letters):
    """`word_arrays` (built with numpy) against each field's definition, word by word: on the
    1,801 words of a hard hand, and on a few words with doubled letters and a word of one kind."""
    hand = set(letters or "ABEILNST")
    words = (
        [w.upper() for w in en.formable_words(TileCounts.from_letters(letters), 2)]
        if letters
        else ["ANNA", "BEE", "NTH", "SILLS", "TEN", "AB", "BAA"]
    )
    arrays = word_arrays(words, hand)
    code = ALPHABET.index
    chosen = {ALPHABET[c] for c in np.flatnonzero(arrays.carrier)}
    assert chosen == carriers(words, hand) and {v for v in "AEIOU" if v in hand} <= chosen
    assert all(chosen.intersection(word) for word in words)
    expected = [(code(ch), k, offset) for k, word in enumerate(words) for offset, ch in enumerate(word)]
    expected.sort(key=lambda entry: entry[0])  # stable: in word order within a letter
    assert list(zip(arrays.occ_word.tolist(), arrays.occ_offset.tolist())) == [(k, o) for _, k, o in expected]
    assert arrays.occ_start.tolist() == [sum(c < letter for c, _, _ in expected) for letter in range(27)]
    for k, word in enumerate(words):
        assert "".join(ALPHABET[c] for c in arrays.letters[k, : arrays.length[k]]) == word
        assert arrays.mask[k] == sum(1 << code(ch) for ch in set(word))
        assert arrays.share[k] == (len(word) - 1) / sum(ch in chosen for ch in word)
        distinct = sorted(set(word), key=code)
        assert arrays.tally[k].tolist() == [code(ch) * 32 + word.count(ch) for ch in distinct] + [-1] * (
            arrays.tally.shape[1] - len(distinct)
        )
    carrier_letters = [set(word) & chosen for word in words]
    for word in words:  # the weights: every word's carrier tiles weigh its length - 1 or more
        assert sum(arrays.rho[code(ch)] for ch in word if ch in chosen) >= len(word) - 1 - 1e-9, word
    mixed = [k for k in range(len(words)) if len(carrier_letters[k]) > 1]
    assert sorted(arrays.mixed[: len(mixed)].tolist()) == mixed and arrays.mixed_start[-1] == len(mixed)
    for first, last in itertools.pairwise(arrays.mixed_start.tolist()):
        group = arrays.mixed[first:last].tolist()
        assert len({tuple(words[k].count(ch) for ch in sorted(chosen)) for k in group}) == 1
        assert [len(words[k]) for k in group] == sorted((len(words[k]) for k in group), reverse=True)
    for letter in range(26):
        holding = [k for k, word in enumerate(words) if ALPHABET[letter] in word]
        listed = arrays.by_share[arrays.by_share_start[letter] : arrays.by_share_start[letter + 1]].tolist()
        if ALPHABET[letter] in chosen:
            alone = [k for k in holding if len(carrier_letters[k]) == 1]  # no other carrier letter
            assert sorted(listed) == alone and listed == sorted(listed, key=lambda k: -arrays.share[k])
            assert arrays.rho[letter] <= max(arrays.share[k] for k in holding) + 1e-9  # never above the even share
        else:
            assert listed == [] and arrays.rho[letter] == 0
        beside = 0
        for k in holding:
            beside |= arrays.mask[k] & ~(1 << letter) | ((1 << letter) if words[k].count(ALPHABET[letter]) > 1 else 0)
        assert arrays.together[letter] == beside
        hosts = arrays.hosts[letter]
        assert all(hosts & arrays.mask[k] for k in holding) and not hosts & ~(arrays.carrier @ (1 << np.arange(26)))
    check_groups(arrays, words, chosen)
    order = [c for c in arrays.hard_order.tolist() if c >= 0]
    assert sorted(order) == [c for c in range(26) if ALPHABET[c] not in chosen]
    assert [arrays.occ_start[c + 1] - arrays.occ_start[c] for c in order] == sorted(
        arrays.occ_start[c + 1] - arrays.occ_start[c] for c in order
    )


def check_groups(arrays, words: list[str], chosen: set[str]) -> None:
    """The bound-tile groups of `word_arrays` against their definition."""
    codes = {ALPHABET[c]: c for c in range(26)}
    used = [g for g in range(len(arrays.group_carriers)) if arrays.group_carriers[g]]
    assert used == list(range(len(used)))  # packed at the front
    hosts_of = {ch: int(arrays.hosts[codes[ch]]) for ch in set("".join(words)) - chosen}
    assert {int(arrays.group_carriers[g]) for g in used} == {
        mask for mask in hosts_of.values() if 0 < bin(mask).count("1") <= GROUP_CARRIERS
    } or len(used) == len(arrays.group_carriers)
    for g in used:
        mask = int(arrays.group_carriers[g])
        carriers = {ch for ch in codes if mask >> codes[ch] & 1}
        members = {ch for ch, hosts in hosts_of.items() if hosts and hosts & ~mask == 0}
        assert carriers <= chosen and members
        assert {ch for ch in codes if arrays.letter_groups[codes[ch]] >> g & 1} == members
        assert {ch for ch in codes if arrays.carrier_groups[codes[ch]] >> g & 1} == carriers
        assert all(carriers.intersection(word) for word in words if members.intersection(word))  # the premise
        holding = [k for k, word in enumerate(words) if carriers.intersection(word)]
        ratio = {k: sum(ch in members for ch in words[k]) / sum(ch in carriers for ch in words[k]) for k in holding}
        listed = arrays.by_group[arrays.by_group_start[g] : arrays.by_group_start[g + 1]].tolist()
        assert sorted(listed) == holding and listed == sorted(listed, key=lambda k: -ratio[k])
        assert arrays.group_cap[g] == max(ratio.values())
    assert arrays.by_group_start[len(used)] == arrays.by_group_start[-1]


@pytest.mark.parametrize("letters", ["ACEFGGGLLNNQQRRTTTUVX", "BCDEFIKKLNNNNNPRRRSST"])
def test_rho_as_the_hand_left_allows_bounds_every_words_share(en, make_rng, letters):
    """The kernel's `_ws_supplied_rho` (a carrier's weight from the words holding no other
    carrier letter, as the hand left allows) on hands drawn down from a vowel-poor one: never
    below the most min(length - 1, tiles the hand supplies) / carrier tiles over those words (its
    definition), and never above the static rho; and `_ws_supplied_weights`, which starts from
    it: every word whose carriers have uses left weighs at least the new tiles it can lay."""
    from solver.search.kernels.wordbounds import _ws_supplied_rho, _ws_supplied_weights
    from solver.search.wordsearch import new_search

    full = TileCounts.from_letters(letters)
    words = [word.upper() for word in en.formable_words(full, 2)]
    arrays = word_arrays(words, set(letters))
    rng = make_rng(3603)
    for _ in range(30):
        kept = sorted(rng.choice(list(letters), size=int(rng.integers(1, len(letters))), replace=False))
        hand = TileCounts.from_letters("".join(kept)).counts.astype(np.int64)
        present = sum(1 << ALPHABET.index(ch) for ch in set(letters))  # every letter on the board or in the hand
        for code in np.flatnonzero(arrays.carrier):
            bound = _ws_supplied_rho(hand, arrays, int(code), present)
            best = 0.0
            for word in words:
                if {ch for ch in word if arrays.carrier[ALPHABET.index(ch)]} == {ALPHABET[code]}:
                    supply = sum(min(word.count(ch), int(hand[ALPHABET.index(ch)])) for ch in set(word))
                    best = max(best, min(len(word) - 1, supply) / word.count(ALPHABET[code]))
            assert best - 1e-9 <= bound <= arrays.rho[code] + 1e-9, (kept, ALPHABET[code], bound, best)
        state = new_search(hand)
        uses = np.zeros(26, dtype=np.int64)
        uses[np.flatnonzero(arrays.carrier)] = rng.integers(0, 3, size=int(arrays.carrier.sum()))
        _ws_supplied_weights(state, arrays, uses, present)
        for word in words:
            carriers = [ALPHABET.index(ch) for ch in word if arrays.carrier[ALPHABET.index(ch)]]
            if all(uses[c] > 0 for c in carriers):
                supply = sum(min(word.count(ch), int(hand[ALPHABET.index(ch)])) for ch in set(word))
                weight = sum(state.rho_now[c] for c in carriers)
                assert weight >= min(len(word) - 1, supply) - 1e-9, (kept, word, weight, uses.tolist())


def hand_room(hand: np.ndarray, weight: np.ndarray) -> float:
    """The letter room of a hand with nothing on the board: two uses a tile of a letter of
    weight >= 0, one of weight < 0 (every tile is in a word, and in at most two)."""
    return float(2 * hand @ np.maximum(weight, 0) + hand @ np.minimum(weight, 0))


@pytest.mark.parametrize("letters", ["DDDDGGIKLMNNNPRRTTUWW", "AABDDDFHLLNNPPRRSTTTV", "ACDDEFJLMNNNOQQRRTTTZ"])
def test_letter_weights_weigh_every_word_at_least_its_new_tiles(en, letters):
    """`letter_weights` (the letter-use bound's weights): every spelled word's letters weigh at
    least its length - 1, only the hand's letters weigh anything, and the hand's room is no
    more than with the carriers' weights (which are such weights too, and serve when the program
    fails). The weights are signed: some letters weigh less than nothing on these hands."""
    hand = TileCounts.from_letters(letters).counts.astype(np.int64)
    words = [word.upper() for word in en.formable_words(TileCounts.from_letters(letters), 2)]
    _, lengths, counts, _, _ = wordsearch._letter_table(words)
    weight = wordsearch.letter_weights(counts, lengths, hand)
    assert weight is not None
    for word in words:
        assert sum(weight[ALPHABET.index(ch)] for ch in word) >= len(word) - 1, word
    assert (weight[hand == 0] == 0).all() and (weight < 0).any()
    carriers = word_arrays(words, set(letters))
    assert (carriers.weight == carriers.rho).all()  # the default: the carriers' weights
    assert hand_room(hand, weight) <= hand_room(hand, carriers.rho) + 1e-3


@pytest.mark.parametrize("letters", ["DDDDGGIKLMNNNPRRTTUWW", "ACDDEFJLMNNNOQQRRTTTZ"])
def test_spent_letter_rows_are_weights_lighter_without_their_letter(en, letters):
    """`spent_letter_weights`: a row per letter of the hand, each valid weights (every spelled
    word's letters weigh at least its length - 1; only the hand's letters weigh anything), and
    some give the hand without their letter's tiles far less room than the first row does
    (what they are for); `with_rows` keeps the rows before in place and adds only rows no kept
    row is at most everywhere (the room only grows with each weight)."""
    hand = TileCounts.from_letters(letters).counts.astype(np.int64)
    words = [word.upper() for word in en.formable_words(TileCounts.from_letters(letters), 2)]
    _, lengths, counts, _, _ = wordsearch._letter_table(words)
    first = wordsearch.letter_weights(counts, lengths, hand)
    rows = wordsearch.spent_letter_weights(counts, lengths, hand)
    assert first is not None and rows.shape == (np.count_nonzero(hand), 26)
    lighter = 0
    for code, row in zip(np.flatnonzero(hand), rows):
        assert (counts @ row >= lengths - 1).all() and (row[hand == 0] == 0).all()
        without = hand.copy()
        without[code] = 0
        lighter += hand_room(without, row) < hand_room(without, first) - 0.5
    assert lighter >= 3
    kept = wordsearch.with_rows(first[None, :], rows)
    at_most = lambda a, b: bool((a <= b + 1e-9).all())  # noqa: E731
    assert (kept[0] == first).all() and 1 < len(kept) <= 1 + len(rows)
    assert all(any((row == given).all() for given in rows) for row in kept[1:])
    assert not any(at_most(kept[j], kept[i]) for i in range(1, len(kept)) for j in range(i))
    for row in rows:  # each row left out gives no state less room than a row kept
        assert any((row == other).all() for other in kept) or any(at_most(other, row) for other in kept)


def test_each_groups_cap_as_the_hand_left_allows_bounds_every_words_ratio(en, make_rng):
    """The kernel's `_ws_supplied_bound` on hands drawn down from vowel-poor ones: never below
    the most min(count, hand) of a group's letters per tile of its carriers, over the words
    holding one of them (its definition), and never above the static group_cap."""
    from solver.search.kernels.wordbounds import _ws_supplied_bound

    rng = make_rng(3604)
    groups = set()
    for letters in ("AABDDDFHLLNNPPRRSTTTV", "DDDDGGIKLMNNNPRRTTUWW", "ABBDDFHNNNNNNORRRRTTT"):
        words = [word.upper() for word in en.formable_words(TileCounts.from_letters(letters), 2)]
        arrays = word_arrays(words, set(letters))
        for _ in range(25):
            kept = sorted(rng.choice(list(letters), size=int(rng.integers(1, len(letters))), replace=False))
            hand = TileCounts.from_letters("".join(kept)).counts.astype(np.int64)
            for g in np.flatnonzero(arrays.group_carriers):
                carriers = {ch for ch in ALPHABET if arrays.group_carriers[g] >> ALPHABET.index(ch) & 1}
                members = [ch for ch in ALPHABET if arrays.letter_groups[ALPHABET.index(ch)] >> g & 1]
                groups.add(("".join(sorted(carriers)), "".join(members)))
                best = max(
                    sum(min(word.count(ch), int(hand[ALPHABET.index(ch)])) for ch in members)
                    / sum(ch in carriers for ch in word)
                    for word in words
                    if carriers.intersection(word)
                )
                assert best - 1e-9 <= _ws_supplied_bound(hand, arrays, g) <= arrays.group_cap[g] + 1e-9, kept
    assert ("A", "DFLV") in groups and ("IU", "GMRT") in groups  # D, F, L, V: every word holding one holds an A
    assert ("AHO", "DFNT") in groups  # a group of three carriers


@pytest.mark.parametrize("letters", ["DEFFILMNNRRRTTTTTTTTY", "DDDDHINNNNNORRRSSTTTT", "DEFFKLLNNNNNOPRRTTTTV"])
def test_groups_of_three_carriers_cut_decisions_not_answers(en, monkeypatch, letters):
    """Seeded 21-tile hands (bench_settle's 1-3 vowel class) that groups of three carriers
    settle in fewer decisions than groups of one or two, with the same answer."""
    monkeypatch.setattr(wordsearch, "letter_weights", lambda *args: None)  # (the signed letter weights settle
    # these in 124 decisions either way: the carriers' weights serve instead, so the groups' part shows)
    hand = TileCounts.from_letters(letters)
    three = settle(hand, en)
    search = WordSearch(hand, en, 2)
    assert any(bin(int(mask)).count("1") == 3 for mask in search.words.group_carriers)
    monkeypatch.setattr(wordsearch, "GROUP_CARRIERS", 2)
    two = settle(hand, en)
    assert three[0] == two[0] == "no-grid" and three[2] < two[2], (three, two)


def test_each_items_bound_is_the_most_its_options_lay(en):
    """`item_bound` (a use on the board lays at most that many tiles of a group per tile of its
    carriers) is the most over the item's options, counted on the board they were listed on,
    for each group with tiles in the hand, over 1,000 decisions of a vowel-poor hand; and so is
    `item_excess` (what an option's new tiles lay beyond their weights, tile by tile)."""
    from solver.search.kernels import wordsearch as kernel

    search = WordSearch(TileCounts.from_letters("AABDDDFHLLNNPPRRSTTTV"), en, 2)
    state, words = search.searches[0], search.words
    checked = bounded = excess = 0
    for _ in range(1_000):
        assert kernel.word_search(state, words, search.roots[0], 1) == kernel.WS_PAUSED
        depth = int(state.state[kernel.WS_DEPTH])
        if depth == 0:
            continue  # the root's one item: the first word, across the empty centre
        kernel._ws_undo_to(
            state, state.mark[depth]
        )  # (as the next call does first): the board its items were listed on
        for g in np.flatnonzero(words.group_carriers):
            members = [c for c in range(26) if words.letter_groups[c] >> g & 1]
            if state.hand[members].sum() == 0:
                continue
            carriers = int(words.group_carriers[g])
            for k in range(int(state.items[depth])):
                if not carriers >> (int(state.board[state.item_cell[depth, k]]) - 1) & 1:
                    continue
                best = 0.0
                for codes, cells in _item_options(state, words, depth, k):
                    new = sum(c in members and state.board[p] == 0 for c, p in zip(codes, cells))
                    best = max(best, new / sum(carriers >> int(c) & 1 for c in codes))
                assert state.item_bound[depth, k, g] == pytest.approx(best)
                checked += 1
                bounded += best > 0
        for k in range(int(state.items[depth])):  # and `item_excess`, for the letter-use bound
            best = 0.0
            for codes, cells in _item_options(state, words, depth, k):
                weight = words.weight[state.weight_row[depth]]
                best = max(best, sum(max(1 - weight[c], 0) for c, p in zip(codes, cells) if state.board[p] == 0))
            assert state.item_excess[depth, k] == pytest.approx(best)
            excess += best > 0
    assert checked > 200 and bounded > 0 and excess > 0


def test_the_letter_room_is_each_rows_and_the_state_takes_the_least(en):
    """The kernel's `_ws_letter_rooms_short`, on the states of 500 decisions of a vowel-poor
    hand with the spent-letter rows: it prunes exactly when some row's weights of the uses left
    (a letter of weight >= 0: two per tile of the hand, one per open direction of a tile on the
    board; of weight < 0, one per tile of the hand) fall short of the tiles left, and otherwise
    leaves in state[WS_WEIGHTS] a row of least room."""
    from solver.search.kernels import wordsearch as kernel
    from solver.search.kernels.wordbounds import _ws_count_letter_uses, _ws_letter_rooms_short

    search = WordSearch(TileCounts.from_letters("AABDDDFHLLNNPPRRSTTTV"), en, 2)
    state, words = search.searches[0], search.words
    assert len(words.weight) > 3
    pruned = chosen = 0
    for _ in range(500):
        assert kernel.word_search(state, words, search.roots[0], 1) == kernel.WS_PAUSED
        uses = 2 * state.hand.astype(np.float64)
        for cell in state.tiles[: state.state[kernel.WS_TILES]]:
            uses[state.board[cell] - 1] += np.count_nonzero(state.status[cell] == kernel.WS_OPEN)
        # a letter of weight < 0: one use a tile of the hand (the fewest), none of the board
        rooms = np.maximum(words.weight, 0) @ uses + np.minimum(words.weight, 0) @ state.hand
        left = int(state.state[kernel.WS_LEFT])
        _ws_count_letter_uses(state)  # (as `_ws_hopeless` does first)
        short = _ws_letter_rooms_short(state, words, left)
        assert short == (left > rooms.min() + 1e-9)
        if not short:
            assert rooms[state.state[kernel.WS_WEIGHTS]] == pytest.approx(rooms.min())
            chosen += state.state[kernel.WS_WEIGHTS] > 0
        pruned += short
    assert pruned > 0 and chosen > 0  # both answers, and rows past the first chosen


def _item_options(state, words, depth: int, k: int):
    """Item k of `depth`'s options, each as its word's letter codes and the cells they go on."""
    side = int(np.sqrt(len(state.board)))
    cell, step = int(state.item_cell[depth, k]), 1 if state.item_dir[depth, k] == 0 else side
    start, count = state.item_start[depth, k], state.item_count[depth, k]
    for at in state.pool[start : start + count]:
        word, offset = int(words.occ_word[at]), int(words.occ_offset[at])
        codes = words.letters[word, : words.length[word]]
        yield codes, cell + (np.arange(len(codes)) - offset) * step


def test_each_items_letter_mask_holds_its_options_letters(en):
    """`item_mask` (the exclusive tiles' matching lets a use on the board take only a letter
    some option of its item holds) is exactly the letters of the item's options' words, at
    every depth of the stack, over the first 1,000 decisions of a double-Q hand."""
    from solver.search.kernels import wordsearch as kernel

    search = WordSearch(TileCounts.from_letters("ACEFGGGLLNNQQRRTTTUVX"), en, 2)
    state, words = search.searches[0], search.words
    checked = 0
    for _ in range(1_000):
        if kernel.word_search(state, words, search.roots[0], 1) != kernel.WS_PAUSED:
            break  # (its proof from this root takes fewer decisions)
        for depth in range(1, int(state.state[kernel.WS_DEPTH]) + 1):
            for k in range(int(state.items[depth])):
                start, count = state.item_start[depth, k], state.item_count[depth, k]
                options = words.occ_word[state.pool[start : start + count]]
                assert state.item_mask[depth, k] == np.bitwise_or.reduce(words.mask[options], initial=0)
                checked += 1
    assert checked > 1_000


@pytest.mark.slow  # a sweep of hands against the definition (3 s)
def test_the_hosts_lookahead_keeps_its_definition(en):
    """`_ws_hosts_short` (an option is left out when laying it leaves a letter of the hand
    fewer uses of its hosts than the words its tiles still need) against its definition, for
    every spelled word laid with the tiles the hand can give it, at the states 600 decisions of
    a vowel-poor hand pass through."""
    from solver.search.kernels import wordbounds
    from solver.search.kernels import wordsearch as kernel

    search = WordSearch(TileCounts.from_letters("AABDDDFHLLNNPPRRSTTTV"), en, 2)
    state, words = search.searches[0], search.words
    carriers = {code for code in range(26) if words.carrier[code]}
    shorts = checked = 0
    for step in range(600):
        assert kernel.word_search(state, words, search.roots[0], 1) == kernel.WS_PAUSED
        if step % 10 or wordbounds._ws_hopeless(state, words):  # _ws_hopeless counts the uses left
            continue
        wordbounds._ws_list_host_uses(state, words)
        hand, uses = state.hand.copy(), state.scratch[6, :26].copy()
        for k, word in enumerate(search.spelled):
            codes = [ALPHABET.index(ch) for ch in word]
            laid = np.zeros(26, dtype=np.int64)
            for code in set(codes):
                laid[code] = min(codes.count(code), hand[code])
            short = False
            for letter in range(26):
                hosts = int(words.hosts[letter])
                if hand[letter] - laid[letter] <= 0 or letter in carriers or hosts == 0:
                    continue
                needed = 1 if (int(words.together[letter]) >> letter) & 1 else hand[letter] - laid[letter]
                left = sum(int(uses[c]) for c in carriers if hosts >> c & 1)
                left -= sum(1 for c in codes if c in carriers and hosts >> c & 1)
                short |= left < needed
            assert wordbounds._ws_hosts_short(state, words, k, laid, -1) == short, (word, step)
            shorts += short
            checked += 1
    assert checked > 10_000 and 0 < shorts < checked


def test_the_rows_lookahead_keeps_its_definition(en):
    """`_ws_rows_short` (an option is left out when laying it leaves some row of weights less
    letter room than tiles) against its definition, for every spelled word laid with the tiles
    the hand can give it, at the states 300 decisions of a hand with several rows pass through:
    laying a word takes each row's weights >= 0 of its letters and gives back those < 0 of its
    new tiles (they leave the hand). The state's own row is the fit's to check; the rows
    `_ws_tight_rows` leaves out are those no word can leave short."""
    from solver.search.kernels import wordbounds
    from solver.search.kernels import wordsearch as kernel

    search = WordSearch(TileCounts.from_letters("EEEOOOOPPPPSSSVVVVVVV"), en, 2)
    state, words = search.searches[0], search.words
    count = len(words.weight)
    assert count > 3
    rows = kernel.RowRooms(np.zeros(count), np.zeros(count), np.zeros(count + 1, dtype=np.int64))
    kernel._ws_most_charges(words, rows.most)
    letters = [np.bincount([ALPHABET.index(ch) for ch in word], minlength=26) for word in search.spelled]
    charged = [np.maximum(words.weight, 0) @ held for held in letters]  # each row's weights >= 0 of the word
    shorts = checked = 0
    for step in range(300):
        assert kernel.word_search(state, words, search.roots[0], 1) == kernel.WS_PAUSED
        if step % 5 or wordbounds._ws_hopeless(state, words):  # (it counts the uses left, and picks the row)
            continue
        row_now = int(state.state[kernel.WS_WEIGHTS])
        kernel._ws_tight_rows(state, words, rows, row_now)
        left = int(state.state[kernel.WS_LEFT])
        for k, held in enumerate(letters):
            laid = np.zeros(26 + 16, dtype=np.int64)
            laid[:26] = np.minimum(held, state.hand)
            room_after = rows.room - charged[k] - np.minimum(words.weight, 0) @ laid[:26]
            short = any(left - laid.sum() > room_after[row] + 1e-9 for row in range(count) if row != row_now)
            assert kernel._ws_rows_short(words, rows, k, laid, left - laid.sum()) == short, (search.spelled[k], step)
            shorts += short
            checked += 1
    assert checked > 1_000 and 0 < shorts < checked


def test_the_budget_is_kept(en):
    hand = TileCounts.from_letters("BCDDDDFGMMMORRTTTTTUU")  # no grid, proved in some 160,000 decisions
    status, grid, decisions = word_search_grid(hand, en, 2, time.perf_counter() + 60, node_budget=100)
    assert (status, grid) == ("timeout", None) and decisions == 100
    for budget in (100, 3_000):  # two workers: the second turn of a round gets what the first left
        search = WordSearch(hand, en, 2)
        assert search.run(time.perf_counter() + 60, budget, workers=2) == ("timeout", None, budget)


def test_solve_settles_a_hand_of_the_bench_the_move_model_exhausts(en):
    # One of the project's bench hands no earlier method settled: two vowels for eleven tiles.
    solving.warm_kernels(en, include_extend=False)  # a cold numba cache compiles within the limit otherwise
    result = solving.solve("BEFJLQSTUVW", en, time_limit=10.0)
    assert result.status == "no-grid" and result.proof == solving.WORD_SEARCH


def test_a_vowel_rich_hand_is_declined_at_once(en):
    # It spells tens of thousands of words: the move model's ground; listing them would cost
    # seconds, so the search makes no claim (and takes no time).
    started = time.perf_counter()
    status, grid, decisions = settle(TileCounts.from_letters("AEEIRSTQUNLDOGCABHMPR"), en)
    assert (status, grid, decisions) == ("timeout", None, 0)
    assert time.perf_counter() - started < 1.0


def test_a_node_capped_solve_gives_the_word_search_only_its_nodes_left(en):
    """A bot's search (max_nodes) is a pure function of its input: the word search it reaches
    gets the nodes left, not 90 % of the time left (it settled this hand in seconds of search,
    its answer hanging on the machine's speed)."""
    hand = TileCounts.from_letters("BCDDDDFGMMMORRTTTTTUU")  # no grid: the word search's proof takes ~1.5 s
    first = solving.solve(hand, en, time_limit=30.0, max_nodes=20_000)
    second = solving.solve(hand, en, time_limit=30.0, max_nodes=20_000)
    assert first.status != "no-grid" and first.nodes <= 20_000
    assert (first.status, first.nodes) == (second.status, second.nodes)
