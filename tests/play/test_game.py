"""The game engine against its contract, docs/RULES.md, rule by rule.

1. Rule tests, each named after the RULES.md sentence it checks (`test_rules_coverage.py`
   maps every sentence of the rule sections to these names). Precise mechanics are driven
   with `Scripted` bots that make exactly the calls a test wants, on small tile sets and
   tiny word lists written to temporary files (a lexicon of runs of A, so a row of all a
   player's tiles is a valid grid). Rules the engine does not meet are marked
   xfail(strict=True) with the reason. (Spellevate's rules are tested in test_spellevate.py.)
2. A seeded property sweep (`slow`) of 400 games between the real bots (every preset and
   the greedy baseline; classic, Banana Smoothie, solo, three-letter minimum; 1-8
   players): the engine's tile invariant, every call legal when it was made (re-derived
   from the event log), every winning grid valid, and same seed -> same event log.
3. Bot behaviour: vocabulary levels, reckless bots going rotten, the greedy baseline's
   grids, the win-rate confidence interval.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from helpers import ENGLISH_COUNTS, sweep

from solver.core.grid import Grid, find_words, validate
from solver.core.tiles import (
    DISTRIBUTION_NOTES,
    DISTRIBUTIONS,
    ENGLISH,
    FRENCH,
    TileCounts,
    TileError,
    letter_code,
    load_distribution,
    parse_distribution,
)
from solver.lexicon.loader import get_lexicon
from solver.play.bots import PRESETS, GreedyBot, SolverBot, make_bot
from solver.play.hand import Hand, play_hand
from solver.play.match import MATCH_FORMATS, play_match
from solver.play.rules import Decision, RuleError, Rules, TableView
from solver.play.stats import confidence_interval

# -- scaffolding: word lists, tile sets, scripted bots ------------------------------------


@pytest.fixture(scope="session")
def lex(tmp_path_factory):
    """Paths of tiny word lists (Rules(lexicon=PATH) takes a path):
    a    runs of A, 2..160 letters: any straight row of A tiles is a word
    a3   runs of A, 3..160 letters: AA is not a word
    a12  runs of A, 2..12 letters: a row of 21 A is not a word
    ab   runs of A and AB (but not BA)"""
    folder = tmp_path_factory.mktemp("wordlists")
    lists = {
        "a": ["a" * n for n in range(2, 161)],
        "a3": ["a" * n for n in range(3, 161)],
        "a12": ["a" * n for n in range(2, 13)],
        "ab": ["a" * n for n in range(2, 161)] + ["ab"],
    }
    paths = {}
    for name, words in lists.items():
        path = folder / f"{name}.txt"
        path.write_text("\n".join(words) + "\n")
        paths[name] = str(path)
    return paths


def tiles(spec: str) -> TileCounts:
    """'A43' or 'A20B1' -> a tile set."""
    return parse_distribution(",".join(re.findall(r"[A-Z]\d+", spec)))


def row(letters: str, top: int = 0, left: int = 0) -> dict:
    return {(top, left + i): letter for i, letter in enumerate(letters)}


def shape(letters: str, kind: str) -> dict:
    """Cells for `letters` laid out as:
    row       one across word
    L         the first half across, the rest down from its first letter (longest word ~ half)
    split     two rows with an empty row between (disconnected)
    diagonal  two rows touching only at a corner (disconnected: 4-connectivity)
    stacked   two rows on top of each other (every column is an accidental 2-letter word)
    hook      one across word of all letters but the last, which goes under its first"""
    half = (len(letters) + 1) // 2
    if kind == "row":
        return row(letters)
    if kind == "L":
        cells = row(letters[:half])
        cells.update({(1 + i, 0): letter for i, letter in enumerate(letters[half:])})
        return cells
    if kind == "split":
        return {**row(letters[:half]), **row(letters[half:], top=2)}
    if kind == "diagonal":
        return {**row(letters[:half]), **row(letters[half:], top=1, left=half)}
    if kind == "stacked":
        return {**row(letters[:half]), **row(letters[half:], top=1)}
    if kind == "hook":
        return {**row(letters[:-1]), (1, 0): letters[-1]}
    raise ValueError(kind)


class Scripted:
    """A bot (the `solver.play.rules.Bot` protocol) that makes exactly the calls it is told.

    `steps` is consumed one per `decide`; when it runs out the bot waits. `hands` (for
    matches) gives one list of steps per hand dealt. A step is a callable (bot, view) ->
    Decision or one of:
      wait                    Decision('wait')
      lay-<shape>             lay every tile out (see `shape`), then wait
      peel[-<shape>]          lay every tile out (row by default), call PEEL
      peel-unplaced           call PEEL with the tiles still in hand
      dump[:X]                lift every tile back into the hand, DUMP X (default: first letter)
      bananas[-<shape>]       lay every tile out (row by default), call BANANAS with that grid
      bananas-stale           call BANANAS showing the grid as it is (new tiles left in hand)
      bananas-short           lay all tiles but one, call BANANAS
    """

    def __init__(self, *steps, name: str = "scripted", speed: float = 1.0, hands=None, journal=None):
        self.steps = list(steps)
        self.hands = [list(h) for h in hands] if hands is not None else None
        self.name, self.speed = name, speed
        self.hand = TileCounts()
        self.grid: Grid | None = None
        self.views: list[TableView] = []
        self.received: list[str] = []
        self.given_back: list[str] = []
        self.hands_started = 0
        self.journal = journal  # shared list: records ("decide", name) in call order

    # -- the Bot protocol --
    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        self.hand, self.grid, self.rules = tiles, None, rules
        if len(tiles):
            if self.hands is not None:
                self.steps = list(self.hands[self.hands_started]) if self.hands_started < len(self.hands) else []
            self.hands_started += 1

    def receive(self, tiles: TileCounts) -> None:
        self.hand = self.hand + tiles
        self.received.append(tiles.letters())

    def give_back(self, tile: str) -> None:
        self.hand = self.hand - TileCounts.from_letters(tile)
        self.given_back.append(tile)

    def holding(self) -> TileCounts:
        return self.hand + (self.grid.tiles() if self.grid is not None else TileCounts())

    def current_grid(self) -> Grid | None:
        return self.grid

    def decide(self, view: TableView) -> Decision:
        self.views.append(view)
        if self.journal is not None:
            self.journal.append(("decide", self.name))
        step = self.steps.pop(0) if self.steps else "wait"
        if callable(step):
            return step(self, view)
        verb, _, arg = step.partition("-") if ":" not in step else step.partition(":")
        if step == "wait":
            return Decision("wait")
        if verb == "lay":
            self.lay(arg)
            return Decision("wait")
        if step == "peel-unplaced":
            return Decision("peel")
        if verb == "peel":
            self.lay(arg or "row")
            return Decision("peel")
        if verb == "dump":
            self.unlay()
            return Decision("dump", tile=arg or self.hand.letters()[0])
        if step == "bananas-stale":
            return Decision("bananas", grid=self.grid)
        if step == "bananas-short":
            self.unlay()
            letters = self.hand.letters()
            self.show(Grid.from_cells(row(letters[1:])))
            return Decision("bananas", grid=self.grid)
        if verb == "bananas":
            self.lay(arg or "row")
            return Decision("bananas", grid=self.grid)
        raise ValueError(f"unknown step {step!r}")

    # -- moving tiles between hand and grid (a player may rearrange at any time) --
    def unlay(self) -> None:
        self.hand, self.grid = self.holding(), None

    def lay(self, kind: str) -> None:
        self.unlay()
        self.show(Grid.from_cells(shape(self.hand.letters(), kind)))

    def show(self, grid: Grid) -> None:
        """Put `grid` on the table; tiles of the player not in it are the hand."""
        everything = self.holding()
        self.grid, self.hand = grid, everything - grid.tiles()


def hand(rules: Rules, bots, seed: int = 0, **options):
    return Hand(rules, bots, seed, **options).play()


def events(result, kind: str) -> list[dict]:
    return [entry for entry in result.events if entry["event"] == kind]


def kinds(result) -> list[str]:
    return [entry["event"] for entry in result.events]


def bunch_after_split(result, rules: Rules) -> TileCounts:
    split = result.events[0]
    dealt = TileCounts.from_letters("".join(split["hands"]) + split["unused"])
    return rules.distribution - dealt


def waiters(count: int) -> list[Scripted]:
    return [Scripted(name=f"w{i}") for i in range(count)]


# =========================================================================================
# 1. Rules
# =========================================================================================

# -- Tiles ----------------------------------------------------------------------------------


@pytest.mark.nojit
def test_rule_144_tiles_no_blanks_no_point_values():
    for language in ("en", "fr"):
        assert len(DISTRIBUTIONS[language]) == 144
        assert len(Rules.for_language(language).distribution) == 144
    assert len(Rules().distribution) == 144
    # No blanks: a tile is one of A-Z, nothing else.
    for blank in ("?", "_", " ", "*", ""):
        with pytest.raises(TileError):
            letter_code(blank)
    # No point values: the hand's result carries no points, only who won.
    result = hand(Rules(), waiters(2), seed=1)
    assert result.scores == {}
    split = result.events[0]
    assert sum(len(h) for h in split["hands"]) + split["bunch"] == 144


@pytest.mark.nojit
def test_rule_english_distribution_exact_counts():
    assert {letter: ENGLISH[letter] for letter in ENGLISH_COUNTS} == ENGLISH_COUNTS
    assert ENGLISH.distribution() == (
        "A13,B3,C3,D6,E18,F3,G4,H3,I12,J2,K2,L5,M3,N8,O11,P3,Q2,R9,S6,T9,U6,V3,W3,X2,Y3,Z2"
    )
    assert Rules().distribution == ENGLISH
    assert Rules.for_language("en").distribution == ENGLISH and Rules.for_language("en").lexicon == "en"


@pytest.mark.nojit
def test_rule_french_default_is_labelled_and_user_distribution_is_validated(tmp_path):
    assert len(FRENCH) == 144 and FRENCH != ENGLISH
    assert "unofficial" in DISTRIBUTION_NOTES["fr"]
    assert load_distribution("fr") == FRENCH
    # A user's own distribution: inline or a file, validated rather than silently fixed.
    assert load_distribution("A13,B3,c2") == TileCounts.from_letters("A" * 13 + "BBB" + "CC")
    path = tmp_path / "mine.txt"
    path.write_text("# my French set\nA14 B2\nE22\n")
    assert load_distribution(str(path)) == TileCounts.from_letters("A" * 14 + "BB" + "E" * 22)
    for bad in ("A13,A2", "A0,B3", "A-1", "AB3", "Ñ3", "A13,?2", ""):
        with pytest.raises(TileError):
            load_distribution(bad) if bad else parse_distribution(bad)
    with pytest.raises(TileError):
        load_distribution(str(tmp_path / "missing.txt"))


def test_rule_french_game_uses_fr_lexicon_and_distribution():
    rules = Rules.for_language("fr")
    assert rules.lexicon == "fr" and rules.distribution == FRENCH
    with pytest.raises(RuleError):
        Rules.for_language("de")
    result = play_hand(rules, [make_bot("medium"), make_bot("hard")], seed=3)
    split = result.events[0]
    assert TileCounts.from_letters("".join(split["hands"])) + bunch_after_split(result, rules) == FRENCH
    assert result.outcome == "win", result.reason
    check_log(result, rules, ["medium", "hard"])  # the winning grid is checked against the fr lexicon
    grid = Grid.from_rows(events(result, "bananas")[-1]["grid"])
    assert all(word.text in get_lexicon("fr") for word in find_words(grid))


def test_rule_distribution_is_data_double_set_288():
    double = ENGLISH + ENGLISH
    assert len(double) == 288
    rules = Rules(distribution=double)
    result = play_hand(rules, [make_bot("medium") for _ in range(8)], seed=5)
    split = result.events[0]
    assert [len(h) for h in split["hands"]] == [11] * 8 and split["bunch"] == 288 - 88
    check_log(result, rules, ["medium"] * 8)  # tile bookkeeping against the 288-tile set
    assert len(events(result, "peel")) > 144 // 8  # the bunch lasted well past one set's worth


@pytest.mark.nojit
def test_rule_distribution_is_data_any_alphabet_and_counts(lex):
    # Any letters and counts: a set of only A tiles, or of a few letters, is a full game.
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    result = hand(rules, [Scripted("bananas"), Scripted()])
    assert result.outcome == "win" and result.winners == [0]
    odd = Rules(distribution=tiles("E30S30T30Q1"))
    split = hand(odd, waiters(3)).events[0]
    assert split["bunch"] == 91 - 63
    with pytest.raises(RuleError, match="not enough tiles"):
        Rules(distribution=tiles("A20")).check_players(1)


# -- Lexicon --------------------------------------------------------------------------------


def test_rule_word_is_run_of_2_letters_3_under_three_letter_minimum(en, lex):
    assert validate(Grid.parse("QI"), en).ok
    assert not validate(Grid.parse("QI"), en, min_length=3).ok
    assert validate(Grid.parse("CAT"), en, min_length=3).ok
    assert not validate(Grid.parse("XQ"), en).ok  # a run of letters not in the lexicon
    # In a hand: a grid with a two-letter word wins under the classic rules and goes
    # rotten under the three-letter minimum.
    with_two_letter_word = Grid.from_cells({**row("A" * 20), (1, 0): "A"})
    for min_length, outcome in ((2, "win"), (3, "unawarded")):
        rules = Rules(lexicon=lex["a"], distribution=tiles("A21"), min_length=min_length)
        result = hand(rules, [Scripted(lambda bot, view: Decision("bananas", grid=with_two_letter_word))])
        assert result.outcome == outcome
        if min_length == 3:
            rotten = events(result, "rotten")[0]
            assert "not a word: AA (down at row 1, column 1)" in rotten["problems"]
            # The same by code, for a page to word in its own language.
            assert {"code": "not_a_word", "word": "AA", "direction": "down", "row": 1, "col": 1} in rotten["faults"]


def test_rule_no_proper_nouns_abbreviations_hyphens_conjugated_and_plural_forms_count(en, fr, tmp_path):
    for name in ("london", "microsoft", "nasa", "usa", "tv", "etc"):
        assert name not in en, name
    for name in ("france", "sncf", "lyon", "toulouse", "allemagne", "onu"):
        assert name not in fr, name
    for form in ("cats", "geese", "walked", "running", "ran", "oxen"):
        assert form in en, form
    for form in ("mangeons", "chevaux", "finissaient", "belles"):
        assert form in fr, form
    # Hyphenated entries of a user's list are skipped (and counted), never joined up.
    path = tmp_path / "mine.txt"
    path.write_text("arc-en-ciel\nself-made\ncat\ncats\n")
    mine = get_lexicon(str(path))
    assert "cats" in mine and "arcenciel" not in mine and "selfmade" not in mine and mine.skipped == 2


def test_rule_no_abbreviations_in_the_french_lexicon(fr):
    assert [word for word in ("etc", "ibid", "av") if word in fr] == []


def test_rule_tiles_carry_no_accents_french_words_folded_to_a_z(fr):
    for folded in ("ete", "coeur", "francais", "noel", "oeuvre", "ca"):
        assert folded in fr, folded
    assert all(word.isascii() and word.isalpha() and word.islower() for word in fr.trie.keys())
    # Accented spellings work too: membership folds case, and the grid is in A-Z tiles.
    assert validate(Grid.parse("ETE"), fr, TileCounts.from_letters("ETE")).ok


def test_rule_tiles_carry_no_accents_user_french_list_is_folded(tmp_path):
    path = tmp_path / "mes-mots.txt"
    path.write_text("chat\nété\ncœur\nfrançais\nnoël\n", encoding="utf-8")
    mine = get_lexicon(str(path))
    assert all(word in mine for word in ("ete", "coeur", "francais", "noel"))


# -- Classic game -----------------------------------------------------------------------------


@pytest.mark.nojit
def test_rule_classic_game_takes_1_to_8_players():
    for players in range(1, 9):
        Rules().check_players(players)
    for players in (0, 9):
        with pytest.raises(RuleError):
            Rules().check_players(players)
    with pytest.raises(RuleError):
        Rules(variant="spellevate?")


@pytest.mark.nojit
@pytest.mark.parametrize("players, size", [(1, 21), (2, 21), (3, 21), (4, 21), (5, 15), (6, 15), (7, 11), (8, 11)])
def test_rule_starting_hand_21_for_1_to_4_players_15_for_5_6_11_for_7_8_rest_is_bunch(players, size):
    rules = Rules()
    assert rules.hand_size(players) == size
    bots = waiters(players)
    result = hand(rules, bots, seed=players)
    split = result.events[0]
    assert [len(h) for h in split["hands"]] == [size] * players
    assert split["bunch"] == 144 - size * players and split["unused"] == ""
    assert [len(bot.holding()) for bot in bots] == [size] * players
    assert bunch_after_split(result, rules) + TileCounts.from_letters("".join(split["hands"])) == ENGLISH


@pytest.mark.nojit
def test_rule_split_everyone_starts_at_once_no_turns():
    journal: list = []
    fast = Scripted("dump", "dump", "dump", name="fast", speed=4.0, journal=journal)
    slow = Scripted("dump", name="slow", speed=0.25, journal=journal)
    third = Scripted(name="third", journal=journal)
    rules = Rules(distribution=tiles("A70B9"))
    result = hand(rules, [fast, slow, third], observer=lambda entry: journal.append(("event", entry["event"])))
    # SPLIT: the deal is one event at t=0; then all three players are asked at once,
    # before any call lands.
    assert journal[0] == ("event", "split") and result.events[0]["t"] == 0.0
    assert sorted(journal[1:4]) == [("decide", "fast"), ("decide", "slow"), ("decide", "third")]
    # No turns: the fast player makes three calls before the slow player's first.
    dumps = events(result, "dump")
    assert [entry["player"] for entry in dumps] == [0, 0, 0, 1]
    assert dumps[2]["t"] < dumps[3]["t"]


@pytest.mark.nojit
@pytest.mark.parametrize(
    "cells, valid",
    [
        ({(0, 0): "A", (0, 1): "B", **{(i, 0): "A" for i in range(1, 20)}}, True),  # AB across
        ({(0, 0): "B", (0, 1): "A", **{(i, 1): "A" for i in range(1, 20)}}, False),  # BA across
        ({(0, 0): "A", (1, 0): "B", **{(0, j): "A" for j in range(1, 20)}}, True),  # AB down
        ({(0, 0): "B", (1, 0): "A", **{(1, j): "A" for j in range(1, 20)}}, False),  # BA down
    ],
    ids=["across-AB", "across-BA", "down-AB", "down-BA"],
)
def test_rule_grid_words_read_left_to_right_and_top_to_bottom(lex, cells, valid):
    grid = Grid.from_cells(cells)
    rules = Rules(lexicon=lex["ab"], distribution=tiles("A20B1"))
    result = hand(rules, [Scripted(lambda bot, view: (bot.show(grid), Decision("bananas", grid=grid))[1])])
    assert result.outcome == ("win" if valid else "unawarded")
    if not valid:
        assert any("not a word: BA" in problem for problem in events(result, "rotten")[0]["problems"])


@pytest.mark.nojit
def test_rule_grid_every_maximal_run_is_a_word_accidental_ones_included(lex):
    rules = Rules(lexicon=lex["a3"], distribution=tiles("A21"))
    # Two across words of 11 and 10 A, stacked: every column is an accidental AA.
    stacked = hand(rules, [Scripted("bananas-stacked")])
    assert stacked.outcome == "unawarded"
    problems = events(stacked, "rotten")[0]["problems"]
    assert sum("not a word: AA" in problem for problem in problems) == 10
    # The same two words crossing at one corner: no accidental runs, valid.
    crossing = hand(rules, [Scripted("bananas-L")])
    assert crossing.outcome == "win"


@pytest.mark.nojit
@pytest.mark.parametrize("layout", ["split", "diagonal"])
def test_rule_grid_all_tiles_in_one_4_connected_grid(lex, layout):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A21"))
    result = hand(rules, [Scripted(f"bananas-{layout}")])
    assert result.outcome == "unawarded"
    assert any("not connected: 2 parts" in problem for problem in events(result, "rotten")[0]["problems"])


@pytest.mark.nojit
def test_rule_grid_rearrange_any_time_tiles_not_in_grid_are_the_hand(lex):
    rules = Rules(lexicon=lex["a"], variant="solo", distribution=tiles("A23"))
    # Row, then every tile moved into an L, then back into one row: all accepted.
    bot = Scripted("peel", "peel-L", "bananas-row")
    result = hand(rules, [bot])
    assert kinds(result) == ["split", "peel", "peel", "bananas", "inspection", "end"]
    assert result.outcome == "win" and events(result, "bananas")[0]["grid"] == ["A" * 23]
    # Tiles not in the grid are the hand: laying 20 of 21 tiles leaves one in hand, the
    # engine reports it, and PEEL is refused while it is there.
    rules = Rules(lexicon=lex["a"], distribution=tiles("A20B1C2"))
    short = Scripted(
        lambda bot, view: (bot.show(Grid.from_cells(row(bot.holding().letters()[1:]))), Decision("peel"))[1]
    )
    result = hand(rules, [short], seed=2)
    assert events(result, "peel") == []
    stuck = events(result, "stuck")[0]
    assert len(stuck["hand"]) == 1 and stuck["hand"] == short.hand.letters()


@pytest.mark.nojit
def test_rule_peel_only_with_empty_hand_and_one_bunch_tile_per_active_player(lex):
    # bunch == active players: allowed
    rules = Rules(lexicon=lex["a"], distribution=tiles("A44"))
    result = hand(rules, [Scripted("peel"), Scripted()])
    assert len(events(result, "peel")) == 1 and events(result, "peel")[0]["bunch"] == 0
    # bunch < active players: refused (the call is dropped, nothing is drawn)
    bot = Scripted("peel")
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A43")), [bot, Scripted()])
    assert events(result, "peel") == [] and not bot.views[0].can_peel and bot.received == []
    # hand not empty: refused
    bot = Scripted("peel-unplaced")
    result = hand(rules, [bot, Scripted()])
    assert events(result, "peel") == [] and bot.received == []
    assert TableView(2, 2, Rules()).can_peel and not TableView(1, 2, Rules()).can_peel


@pytest.mark.nojit
def test_rule_peel_every_active_player_draws_exactly_one_caller_too_whatever_their_grid(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A60B9"))
    # The caller's own grid is not even connected: PEEL does not look at grids.
    caller, unplaced, placed = Scripted("peel-split"), Scripted(), Scripted("lay-stacked")
    result = hand(rules, [caller, unplaced, placed], seed=4)
    (peel,) = events(result, "peel")
    assert peel["player"] == 0 and sorted(peel["drawn"]) == ["0", "1", "2"]
    assert all(len(letters) == 1 for letters in peel["drawn"].values())
    assert peel["bunch"] == 69 - 63 - 3
    for index, bot in enumerate((caller, unplaced, placed)):
        assert bot.received == [peel["drawn"][str(index)]]
        assert len(bot.holding()) == 22


@pytest.mark.nojit
def test_rule_dump_returns_one_draws_three_mixed_in_first(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A19B2C1D1"))
    for seed in range(6):
        bot = Scripted("dump")
        result = hand(rules, [bot], seed=seed)
        before = bunch_after_split(result, rules)
        assert len(before) == 2
        (dump,) = events(result, "dump")
        # The returned tile is mixed in before drawing: with two tiles in the bunch the
        # three drawn are exactly those two and the returned one (it comes back).
        assert TileCounts.from_letters(dump["drawn"]) == before + TileCounts.from_letters(dump["returned"])
        assert bot.given_back == [dump["returned"]] and bot.received == [dump["drawn"]]
        assert dump["bunch"] == 0 and len(bot.holding()) == 23
    # With a larger bunch the returned tile sometimes comes back, sometimes not.
    came_back = set()
    rules = Rules(lexicon=lex["a"], distribution=tiles("A25Z1"))
    for seed in range(40):
        bot = Scripted(lambda bot, view: (bot.unlay(), Decision("dump", tile="Z" if bot.hand["Z"] else "A"))[1])
        result = hand(rules, [bot], seed=seed)
        dump = events(result, "dump")[0]
        if dump["returned"] == "Z":
            came_back.add("Z" in dump["drawn"])
    assert came_back == {True, False}


@pytest.mark.nojit
def test_rule_dump_only_when_bunch_plus_returned_holds_three(lex):
    # bunch 1 + the returned tile = 2: refused
    bot = Scripted("dump")
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A22")), [bot])
    assert events(result, "dump") == [] and not bot.views[0].can_dump and bot.given_back == []
    assert len(bot.holding()) == 21
    # bunch 2 + the returned tile = 3: allowed
    bot = Scripted("dump")
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A23")), [bot])
    assert len(events(result, "dump")) == 1 and bot.views[0].can_dump
    assert TableView(2, 4, Rules()).can_dump and not TableView(1, 1, Rules()).can_dump


@pytest.mark.nojit
def test_rule_dump_any_time_only_for_the_dumper_no_limit(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A52"))
    dumper, other = Scripted(*["dump"] * 7), Scripted()
    result = hand(rules, [dumper, other])
    dumps = events(result, "dump")
    # No limit: 10 -> 8 -> 6 -> 4 -> 2 -> 0; the sixth is refused only because the bunch
    # plus the returned tile would hold fewer than three.
    assert [entry["bunch"] for entry in dumps] == [8, 6, 4, 2, 0]
    assert all(entry["player"] == 0 and len(entry["drawn"]) == 3 for entry in dumps)
    assert other.received == [] and len(other.holding()) == 21
    assert len(dumper.holding()) == 21 + 2 * 5
    # At any time: also in the end game, when the bunch is below the active count.
    bot = Scripted("dump")
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A87")), [bot] + waiters(3))
    assert len(events(result, "dump")) == 1 and bot.views[0].can_bananas


@pytest.mark.nojit
def test_rule_bananas_only_when_bunch_below_active_count(lex):
    # bunch 2, 2 players: refused, nothing inspected
    bot = Scripted("bananas")
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A44")), [bot, Scripted()])
    assert events(result, "bananas") == [] and not bot.views[0].can_bananas
    assert result.outcome == "unawarded"
    # bunch 1, 2 players: allowed
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A43")), [Scripted("bananas"), Scripted()])
    assert kinds(result)[-3:] == ["bananas", "inspection", "end"]
    assert TableView(3, 4, Rules()).can_bananas and not TableView(4, 4, Rules()).can_bananas


@pytest.mark.nojit
def test_rule_bananas_valid_grid_wins_first_caller(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    slow, fast = Scripted("bananas", speed=1.0), Scripted("bananas", speed=2.0)
    result = hand(rules, [slow, fast])
    assert result.outcome == "win" and result.winners == [1] and result.sole_winner == 1
    (call,) = events(result, "bananas")
    assert call["player"] == 1 and events(result, "inspection") == [
        {"t": call["t"], "event": "inspection", "player": 1, "valid": True}
    ]
    assert validate(Grid.from_rows(call["grid"]), get_lexicon(lex["a"]), fast.holding()).ok


@pytest.mark.nojit
@pytest.mark.parametrize(
    "step, lexicon, problem",
    [
        ("bananas", "a12", "not a word: AAAAAAAAAAAAAAAAAAAAA"),
        ("bananas-split", "a", "grid is not connected"),
        ("bananas-short", "a", "tiles not on the grid: A"),
    ],
    ids=["bad-word", "disconnected", "tile-not-placed"],
)
def test_rule_rotten_banana_invalid_grid_bad_word_disconnected_tile_not_placed(lex, step, lexicon, problem):
    rules = Rules(lexicon=lex[lexicon], distribution=tiles("A43"))
    caller = Scripted(step)
    result = hand(rules, [caller, Scripted()])
    (rotten,) = events(result, "rotten")
    assert rotten["player"] == 0 and any(problem in line for line in rotten["problems"])
    assert events(result, "inspection") == []
    assert result.winners == [] and result.rotten == 1


@pytest.mark.nojit
def test_rule_rotten_banana_returns_all_tiles_and_drops_active_count(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A65"))
    rotten_bot = Scripted("bananas-split", speed=4.0)
    peeler, other = Scripted("wait", "peel"), Scripted()
    result = hand(rules, [rotten_bot, peeler, other])
    (rotten,) = events(result, "rotten")
    assert rotten["bunch"] == 2 + 21  # every tile of the player is back in the bunch
    assert len(rotten_bot.holding()) == 0
    # The active count dropped to 2 and the bunch holds 23: PEEL is possible again, and
    # only the two active players draw.
    (peel,) = events(result, "peel")
    assert peel["player"] == 1 and sorted(peel["drawn"]) == ["1", "2"] and peel["bunch"] == 21
    assert peeler.views[-1].active == 2


@pytest.mark.nojit
def test_rule_rotten_banana_others_keep_playing_and_peel_again(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    rotten_bot = Scripted("bananas-split", speed=2.0)
    survivor = Scripted("wait", *["peel"] * 22, "bananas")
    result = hand(rules, [rotten_bot, survivor])
    assert kinds(result).count("rotten") == 1
    peels = events(result, "peel")
    assert len(peels) == 22 and all(sorted(entry["drawn"]) == ["1"] for entry in peels)
    assert result.outcome == "win" and result.winners == [1]
    assert len(Grid.from_rows(events(result, "bananas")[-1]["grid"]).tiles()) == 43


@pytest.mark.nojit
def test_rule_calls_serialized(lex):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A46"))
    first, second = Scripted("peel", "wait"), Scripted("peel", "peel")
    result = hand(rules, [first, second], seed=7)
    times = [entry["t"] for entry in result.events]
    assert times == sorted(times)
    peels = events(result, "peel")
    # Two empty-handed players call PEEL at almost the same moment: the first PEEL
    # completes (both draw), so the other call's premise (an empty hand) is gone and it
    # is not acted on; that player decides again (here: places its tile, PEELs again).
    assert [entry["bunch"] for entry in peels] == [2, 0]
    assert len({entry["t"] for entry in peels}) == 2
    assert len(second.views) >= 2 and len(first.views) >= 2
    # DUMPs are serialized too: each draws from the bunch the previous one left.
    rules = Rules(lexicon=lex["a"], distribution=tiles("A52"))
    result = hand(rules, [Scripted("dump", "dump"), Scripted("dump", "dump")], seed=8)
    assert [entry["bunch"] for entry in events(result, "dump")] == [8, 6, 4, 2]


@pytest.mark.nojit
def test_rule_simultaneous_valid_bananas_share_the_win(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    result = hand(rules, [Scripted("bananas"), Scripted("bananas")])
    assert result.outcome == "shared" and result.winners == [0, 1] and result.sole_winner is None
    assert [entry["player"] for entry in events(result, "inspection")] == [0, 1]
    assert len({entry["t"] for entry in events(result, "bananas")}) == 1


@pytest.mark.nojit
def test_rule_simultaneous_valid_bananas_share_the_win_past_other_calls(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A65"))
    # Seats 0 and 2 call BANANAS at the same moment; seat 1's DUMP lands at that moment too.
    result = hand(rules, [Scripted("bananas"), Scripted("dump"), Scripted("bananas")])
    assert result.outcome == "shared" and result.winners == [0, 2]


@pytest.mark.nojit
def test_rule_all_stuck_unawarded():
    bots = waiters(3)
    result = hand(Rules(), bots, seed=2)
    assert result.outcome == "unawarded" and result.winners == []
    assert result.reason == "every remaining player is stuck"
    assert sorted(entry["player"] for entry in events(result, "stuck")) == [0, 1, 2]


@pytest.mark.nojit
def test_rule_all_rotten_unawarded(lex, no_jitter):
    # A lone player goes rotten.
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A21")), [Scripted("bananas-split")])
    assert result.outcome == "unawarded" and result.reason == "every player went rotten"
    # Two players going rotten at the same moment: the same work (21 tiles, two words),
    # one grid split by an empty row, the other by a corner.
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    result = hand(rules, [Scripted("bananas-split"), Scripted("bananas-diagonal")])
    assert result.outcome == "unawarded" and result.reason == "every player went rotten"
    assert result.rotten == 2 and [entry["bunch"] for entry in events(result, "rotten")] == [22, 43]


@pytest.mark.nojit
def test_rule_worked_example_4_players_4_tiles_peel_allowed_3_not(lex):
    # 4 active players, 4 tiles in the bunch: PEEL allowed, leaves 0.
    rules = Rules(lexicon=lex["a"], distribution=tiles("A88"))
    caller = Scripted("peel", "bananas-stale")
    result = hand(rules, [caller] + waiters(3))
    (peel,) = events(result, "peel")
    assert peel["bunch"] == 0 and sorted(peel["drawn"]) == ["0", "1", "2", "3"]
    # ... and everyone must place the new tile before BANANAS: showing the old grid is a
    # ROTTEN BANANA.
    assert caller.views[1].can_bananas and caller.views[1].bunch == 0
    (rotten,) = events(result, "rotten")
    assert "tiles not on the grid: A" in rotten["problems"]
    # Placing it first wins.
    result = hand(rules, [Scripted("peel", "bananas")] + waiters(3))
    assert result.outcome == "win" and len(Grid.from_rows(events(result, "bananas")[0]["grid"]).tiles()) == 22
    # With 3 tiles, nobody may PEEL.
    caller = Scripted("peel")
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A87")), [caller] + waiters(3))
    assert events(result, "peel") == [] and not caller.views[0].can_peel and caller.views[0].bunch == 3
    assert TableView(4, 4, Rules()).can_peel and not TableView(3, 4, Rules()).can_peel


# -- Variants and formats --------------------------------------------------------------------


@pytest.mark.nojit
def test_rule_three_letter_minimum_every_across_and_down_word_3_plus(en, lex):
    assert Rules(min_length=3).min_length == 3 and Rules().min_length == 2
    with pytest.raises(RuleError):
        Rules(min_length=4)
    assert validate(Grid.parse("CAT\n..O"), en).ok and not validate(Grid.parse("CAT\n..O"), en, min_length=3).ok
    assert validate(Grid.parse("CAT\n..O\n..E"), en, min_length=3).ok  # TOE down
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"), min_length=3)
    # An L with arms of 2 letters and more: the 2-letter down word makes it rotten.
    short_arm = Grid.from_cells({**row("A" * 20), (1, 0): "A"})
    result = hand(
        rules, [Scripted(lambda bot, view: (bot.show(short_arm), Decision("bananas", grid=short_arm))[1]), Scripted()]
    )
    assert result.outcome == "unawarded" and result.rotten == 1
    result = hand(rules, [Scripted("bananas-L"), Scripted()])
    assert result.outcome == "win"


@pytest.mark.nojit
@pytest.mark.parametrize("players", range(2, 9))
def test_rule_smoothie_deals_all_tiles_equally_remainder_unused(players):
    rules = Rules(variant="smoothie")
    result = hand(rules, waiters(players), seed=players)
    split = result.events[0]
    assert [len(h) for h in split["hands"]] == [144 // players] * players
    assert len(split["unused"]) == 144 % players and split["bunch"] == 0
    assert TileCounts.from_letters("".join(split["hands"]) + split["unused"]) == ENGLISH
    with pytest.raises(RuleError):
        Rules(variant="smoothie").check_players(1)


@pytest.mark.nojit
def test_rule_smoothie_no_peel_no_dump(lex):
    rules = Rules(lexicon=lex["a"], variant="smoothie", distribution=tiles("A44"))
    peeler, dumper = Scripted("peel", "wait"), Scripted("dump", "wait")
    result = hand(rules, [peeler, dumper])
    assert events(result, "peel") == [] and events(result, "dump") == []
    for bot in (peeler, dumper):
        assert not bot.views[0].can_peel and not bot.views[0].can_dump and bot.views[0].can_bananas
    assert not Rules(variant="smoothie").peel_and_dump and Rules().peel_and_dump


@pytest.mark.nojit
def test_rule_smoothie_race_to_use_the_whole_hand(lex):
    rules = Rules(lexicon=lex["a"], variant="smoothie", distribution=tiles("A43"))
    result = hand(rules, [Scripted("bananas", speed=1.0), Scripted("bananas", speed=3.0)])
    assert result.outcome == "win" and result.winners == [1]
    assert len(result.events[0]["unused"]) == 1 and result.events[0]["bunch"] == 0


@pytest.mark.nojit
def test_rule_smoothie_race_goes_on_after_a_rotten_banana(lex):
    rules = Rules(lexicon=lex["a"], variant="smoothie", distribution=tiles("A63"))
    result = hand(rules, [Scripted("bananas-split", speed=3.0), Scripted("bananas"), Scripted("lay-L")])
    assert result.outcome == "win" and result.winners == [1]
    assert result.reason == "BANANAS with a valid grid"


@pytest.mark.nojit
def test_rule_smoothie_stalemate_goes_to_longest_valid_word(lex):
    # Runs of A up to 12 letters are words: a row of 21 holds no valid word, an L of
    # 11 + 11 holds two 11-letter words.
    rules = Rules(lexicon=lex["a12"], variant="smoothie", distribution=tiles("A43"))
    result = hand(rules, [Scripted("lay-row"), Scripted("lay-L")])
    assert result.outcome == "win" and result.winners == [1]
    assert result.reason == "stalemate: longest word (11 letters)"
    # With every run a word, the row's 21 letters win.
    rules = Rules(lexicon=lex["a"], variant="smoothie", distribution=tiles("A43"))
    result = hand(rules, [Scripted("lay-row"), Scripted("lay-L")])
    assert result.winners == [0] and result.reason == "stalemate: longest word (21 letters)"


@pytest.mark.nojit
def test_rule_smoothie_tied_finish_goes_to_longest_word(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], variant="smoothie", distribution=tiles("A43"))
    # The same work (21 tiles, two words) lands at the same moment; the longer word wins.
    result = hand(rules, [Scripted("bananas-L"), Scripted("bananas-hook")])
    assert result.outcome == "win" and result.winners == [1]
    assert result.reason == "tied finish: longest word (20 letters)"
    assert [entry["player"] for entry in events(result, "inspection")] == [0, 1]


@pytest.mark.nojit
def test_rule_smoothie_equal_longest_means_another_hand(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], variant="smoothie", distribution=tiles("A43"))
    stalemate = hand(rules, [Scripted("lay-row"), Scripted("lay-row")])
    assert stalemate.outcome == "replay" and stalemate.winners == [0, 1]
    tied = hand(rules, [Scripted("bananas"), Scripted("bananas")])
    assert tied.outcome == "replay" and tied.reason.startswith("tied finish: equal longest words")
    # In a match, a replayed hand does not use up one of the hands of a best-of-three.
    plans = {0: [["lay-row"], ["lay-row"], ["bananas"], ["bananas"]], 1: [["lay-row"], ["lay-row"], ["wait"], ["wait"]]}
    match = play_match(rules, [Scripted(hands=plans[0]), Scripted(hands=plans[1])], seed=1, format="best-of-3")
    assert [h.outcome for h in match.hands] == ["replay", "replay", "win", "win"]
    assert match.wins == [2, 0] and match.winner == 0


@pytest.mark.nojit
def test_rule_solo_21_tiles_peel_dump_mechanics_objective_chosen_up_front(lex):
    assert Rules(variant="solo").hand_size(1) == 21
    for players in (0, 2):
        with pytest.raises(RuleError):
            Rules(variant="solo").check_players(players)
    for objective in ("time", "fewest-words"):
        assert Rules(variant="solo", solo_objective=objective).solo_objective == objective
    with pytest.raises(RuleError):
        Rules(variant="solo", solo_objective="most-points")
    # The PEEL / DUMP mechanics alone: PEEL while the bunch holds a tile (one active
    # player), DUMP while it holds two, BANANAS only once it is empty.
    rules = Rules(lexicon=lex["a"], variant="solo", distribution=tiles("A25"))
    bot = Scripted("dump", "peel", "bananas-L")
    result = hand(rules, [bot])
    assert result.events[0]["bunch"] == 4
    assert [view.bunch for view in bot.views[:3]] == [4, 2, 1]
    assert [(v.can_peel, v.can_dump, v.can_bananas) for v in bot.views[:3]] == [
        (True, True, False),
        (True, True, False),
        (True, False, False),
    ]
    assert kinds(result) == ["split", "dump", "peel", "stuck", "end"]  # BANANAS at bunch 1: refused


@pytest.mark.nojit
def test_rule_solo_hand_ends_at_bananas_with_time_and_word_count(lex):
    rules = Rules(lexicon=lex["a"], variant="solo", distribution=tiles("A25"))
    bot = Scripted("dump", "peel", "peel", "bananas-L")
    result = hand(rules, [bot])
    assert kinds(result) == ["split", "dump", "peel", "peel", "bananas", "inspection", "end"]
    assert [view.bunch for view in bot.views] == [4, 2, 1, 0]
    assert result.outcome == "win" and result.winners == [0]
    assert result.scores == {
        "time": result.events[-1]["t"],
        "words": 2,
        "objective": "time",
        "score": result.events[-1]["t"],
    }
    assert result.events[-1]["time"] == result.scores["time"]


def test_rule_solo_objective_changes_the_hand_or_its_result():
    results = [
        play_hand(Rules(variant="solo", solo_objective=objective), [make_bot("medium")], seed=11)
        for objective in ("time", "fewest-words")
    ]
    assert results[0].events != results[1].events or results[0].scores != results[1].scores


def _match_bots(plan_a, plan_b):
    return [
        Scripted(hands=[[step] for step in plan_a], name="A"),
        Scripted(hands=[[step] for step in plan_b], name="B"),
    ]


@pytest.mark.nojit
def test_rule_matches_best_of_three_counts_hand_wins(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    match = play_match(
        rules, _match_bots(["bananas", "wait", "bananas"], ["wait", "bananas", "wait"]), seed=1, format="best-of-3"
    )
    assert [h.winners for h in match.hands] == [[0], [1], [0]]
    assert match.wins == [2, 1] and match.winner == 0 and match.format == "best-of-3"
    # Two wins settle it: no third hand.
    match = play_match(rules, _match_bots(["bananas"] * 3, ["wait"] * 3), seed=1, format="best-of-3")
    assert len(match.hands) == 2 and match.wins == [2, 0]
    # A shared hand is no win for anyone, and best-of-3 does not replay it.
    match = play_match(
        rules, _match_bots(["bananas", "bananas", "wait"], ["bananas", "wait", "wait"]), seed=1, format="best-of-3"
    )
    assert [h.outcome for h in match.hands] == ["shared", "win", "unawarded"]
    assert match.wins == [1, 0] and match.winner == 0
    with pytest.raises(RuleError):
        play_match(rules, _match_bots([], []), seed=1, format="best-of-4")
    assert set(MATCH_FORMATS) >= {"best-of-3", "best-of-5", "first-to-two"}


@pytest.mark.nojit
def test_rule_matches_best_of_five_counts_hand_wins(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    plan_a = ["bananas", "wait", "bananas", "wait", "bananas"]
    plan_b = ["wait", "bananas", "wait", "bananas", "wait"]
    match = play_match(rules, _match_bots(plan_a, plan_b), seed=2, format="best-of-5")
    assert len(match.hands) == 5 and match.wins == [3, 2] and match.winner == 0
    match = play_match(rules, _match_bots(["bananas"] * 5, ["wait"] * 5), seed=2, format="best-of-5")
    assert len(match.hands) == 3 and match.wins == [3, 0]


@pytest.mark.nojit
def test_rule_matches_first_to_two_sole_wins_shared_or_unawarded_replayed(lex, no_jitter):
    rules = Rules(lexicon=lex["a"], distribution=tiles("A43"))
    plan_a = ["bananas", "wait", "bananas", "wait", "bananas-split", "bananas"]
    plan_b = ["bananas", "wait", "wait", "bananas", "wait", "wait"]
    match = play_match(rules, _match_bots(plan_a, plan_b), seed=3, format="first-to-two")
    assert [h.outcome for h in match.hands] == ["shared", "unawarded", "win", "win", "unawarded", "win"]
    assert match.wins == [2, 1] and match.winner == 0
    # Hands use seeds derived from the match seed: the match replays exactly.
    again = play_match(rules, _match_bots(plan_a, plan_b), seed=3, format="first-to-two")
    assert [h.events for h in again.hands] == [h.events for h in match.hands]


@pytest.mark.nojit
def test_rule_spellcheck_names_invalid_words_and_cells_off_judged_only_at_bananas(en, lex):
    report = validate(Grid.parse("CAT\nX.O"), en)
    assert not report.ok
    data = report.to_json()
    assert [entry["word"] for entry in data["invalid_words"]] == ["CX"]
    assert data["invalid_words"][0]["cells"] == [[0, 0], [1, 0]]
    assert any("not a word: CX (down at row 1, column 1)" == line for line in report.problems())
    # The engine protocol offers the same check to front-ends, without a game.
    from solver.protocol.session import Session

    (reply,) = Session().receive(json.dumps({"type": "check", "grid": ["CAT", "X.O"], "id": 1}), 0.0)
    assert reply["type"] == "check" and reply["valid"] is False and reply["id"] == 1
    assert reply["invalid_words"] == data["invalid_words"]
    # With it off, the engine judges a grid only at BANANAS: PEEL with an invalid grid is
    # not inspected.
    rules = Rules(lexicon=lex["a12"], distribution=tiles("A44"))
    result = hand(rules, [Scripted("peel-row"), Scripted()])
    assert len(events(result, "peel")) == 1 and events(result, "rotten") == []


# -- engine robustness (not a RULES.md sentence) ---------------------------------------------


class _Stubborn(Scripted):
    """Calls PEEL forever, though it is never allowed; gives up after many decisions."""

    def decide(self, view):
        self.views.append(view)
        if len(self.views) > 3000:
            raise RuntimeError("the engine kept asking a bot whose calls are all refused")
        return Decision("peel")


@pytest.mark.nojit
def test_engine_ends_a_hand_whose_bot_keeps_making_refused_calls(lex):
    result = hand(Rules(lexicon=lex["a"], distribution=tiles("A43")), [_Stubborn(), Scripted()])
    assert result.outcome == "unawarded"


@pytest.mark.nojit
def test_engine_rejects_unknown_settings():
    with pytest.raises(RuleError):
        Rules(variant="blitz")
    with pytest.raises(RuleError):
        Rules(variant="solo").check_players(3)
    with pytest.raises(RuleError):
        Hand(Rules(), waiters(2), seed=-1)


# =========================================================================================
# 2. The property sweep
# =========================================================================================

SWEEP_GAMES = 400  # 1000 until 2026-12-04: no failure the extra 600 found was not found here first (CI's budget)
SWEEP_CHUNKS = 4
SWEEP_SEED = 20_240_611
REPLAY_SAMPLE = 20
# Bot specs and weights: every preset and the greedy baseline. The costly ones (compact's
# bounding-box search, greedy on big hands) get smaller budgets or appear less often.
SWEEP_BOTS = {
    "easy": 3,
    "medium": 3,
    "hard": 2,
    "long": 2,
    "reckless": 4,
    "greedy": 1,
    "compact:node_budget=100": 1,
    "medium:node_budget=100": 2,
    "beginner": 1,
    "casual": 1,
    "club": 1,
    "expert": 1,
    "pacer": 1,
    "tuned": 1,
}
_SWEEP_LOGS: dict[int, list[dict]] = {}


def sweep_config(index: int) -> tuple[Rules, list[str]]:
    """The rules and bot specs of sweep game `index` (a pure function of the index)."""
    rng = np.random.default_rng([SWEEP_SEED, index])
    roll = rng.random()
    if roll < 0.04:
        rules, players = Rules(variant="solo", min_length=int(rng.choice([2, 3]))), 1
    elif roll < 0.30:
        rules, players = Rules(variant="smoothie", min_length=3 if rng.random() < 0.2 else 2), int(rng.integers(2, 9))
    elif roll < 0.60:
        rules, players = Rules(min_length=3), int(rng.integers(2, 9))
    else:
        rules, players = Rules(), int(rng.integers(2, 9)) if rng.random() < 0.97 else 1
    names = list(SWEEP_BOTS)
    weights = np.array([SWEEP_BOTS[name] for name in names], dtype=float)
    if rules.hand_size(players) > 21 or rules.variant == "solo":
        weights[names.index("greedy")] = 0  # greedy is slow on big hands and long solo games
        weights[names.index("compact:node_budget=100")] = 0
    specs = [str(name) for name in rng.choice(names, size=players, p=weights / weights.sum())]
    return rules, specs


def check_log(result, rules: Rules, specs: list[str]) -> None:
    """Replay the event log: tile bookkeeping and the legality of every call."""
    players = len(specs)
    lexicon = get_lexicon(rules.lexicon)
    split, *rest = result.events
    assert split["event"] == "split" and split["t"] == 0.0
    held = [TileCounts.from_letters(h) for h in split["hands"]]
    assert [len(h) for h in held] == [rules.hand_size(players)] * players
    unused = TileCounts.from_letters(split["unused"])
    if rules.variant != "smoothie":
        assert len(unused) == 0
    bunch = rules.distribution - unused
    for tiles_held in held:
        bunch = bunch - tiles_held  # raises when the deal is not part of the set
    assert len(bunch) == split["bunch"]
    if rules.variant == "smoothie":
        assert len(bunch) == 0 and len(unused) == len(rules.distribution) % players
    active = set(range(players))
    shown: dict[int, Grid | None] = {}
    call_state = None  # (t, bunch, active) before a BANANAS call (simultaneous ones share it)
    last_t = 0.0
    for entry in rest:
        kind, t = entry["event"], entry["t"]
        assert t >= last_t, "events out of clock order"
        last_t = t
        player = entry.get("player")
        if kind not in ("bananas", "inspection", "rotten"):
            call_state = None
        if kind == "peel":
            assert rules.peel_and_dump, "PEEL in Banana Smoothie"
            assert player in active and len(bunch) >= len(active), "PEEL with fewer tiles than players"
            assert sorted(int(k) for k in entry["drawn"]) == sorted(active)
            for seat, letter in entry["drawn"].items():
                assert len(letter) == 1
                bunch = bunch - TileCounts.from_letters(letter)
                held[int(seat)] = held[int(seat)] + TileCounts.from_letters(letter)
        elif kind == "dump":
            assert rules.peel_and_dump, "DUMP in Banana Smoothie"
            assert player in active and len(bunch) + 1 >= 3, "DUMP with fewer than three tiles"
            returned, drawn = TileCounts.from_letters(entry["returned"]), TileCounts.from_letters(entry["drawn"])
            assert len(returned) == 1 and len(drawn) == 3
            held[player] = held[player] - returned + drawn
            bunch = bunch + returned - drawn
        elif kind == "bananas":
            if call_state is None or call_state[0] != t:
                call_state = (t, len(bunch), len(active))
            assert player in active, "BANANAS from a player out of the hand"
            # Smoothie has no bunch to empty: a rotten player's tiles land there, unused.
            assert not rules.peel_and_dump or call_state[1] < call_state[2], "BANANAS with the bunch not below players"
            shown[player] = Grid.from_rows(entry["grid"]) if entry["grid"] else None
        elif kind == "inspection":
            assert entry["valid"] and shown.get(player) is not None
            report = validate(shown[player], lexicon, held[player], rules.min_length)
            assert report.ok, report.problems()
        elif kind == "rotten":
            grid = shown.get(player)
            assert grid is None or not validate(grid, lexicon, held[player], rules.min_length).ok
            assert (
                PRESETS.get(specs[player].partition(":")[0], PRESETS["medium"]).risk > 0 and specs[player] != "greedy"
            ), f"{specs[player]} went rotten"
            bunch = bunch + held[player]
            held[player] = TileCounts()
            active.discard(player)
        elif kind == "stuck":
            assert player in active and held[player].contains(TileCounts.from_letters(entry["hand"]))
        elif kind == "end":
            assert entry is result.events[-1]
        else:
            raise AssertionError(f"unknown event {kind}")
        if "bunch" in entry:
            assert entry["bunch"] == len(bunch), f"{kind}: bunch {entry['bunch']} != {len(bunch)}"
    total = bunch + unused
    for tiles_held in held:
        total = total + tiles_held
    assert total == rules.distribution
    # the outcome
    assert result.events[-1]["event"] == "end"
    inspected = sorted(e["player"] for e in result.events if e["event"] == "inspection")
    if result.reason == "BANANAS with a valid grid" or result.reason.startswith("valid BANANAS"):
        assert result.winners == inspected
    if result.outcome in ("win", "shared"):
        assert set(result.winners) <= active
    if rules.variant == "solo" and result.outcome == "win":
        grid = shown[0]
        score = result.scores["time"] if rules.solo_objective == "time" else result.scores["words"]
        assert result.scores == {
            "time": result.events[-1]["t"],
            "words": len(find_words(grid)),
            "objective": rules.solo_objective,
            "score": score,
        }


def play_sweep_game(index: int):
    rules, specs = sweep_config(index)
    result = play_hand(rules, [make_bot(spec) for spec in specs], seed=index)
    return rules, specs, result


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(SWEEP_CHUNKS))
def test_property_sweep_invariant_legal_calls_valid_winning_grids(chunk):
    level50 = get_lexicon("en", 50)
    per_chunk = SWEEP_GAMES // SWEEP_CHUNKS
    for index in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        # The engine checks the tile invariant after every event (AssertionError).
        rules, specs, result = play_sweep_game(index)
        try:
            check_log(result, rules, specs)
            assert result.outcome in ("win", "shared", "unawarded", "replay")
            if result.outcome == "replay":
                assert rules.variant == "smoothie"
            # The easy preset's grids only hold level-50 words.
            for seat, spec in enumerate(specs):
                if spec == "easy":
                    grids = [result.grids[seat]] + [e["grid"] for e in events(result, "bananas") if e["player"] == seat]
                    for rows in filter(None, grids):
                        assert all(w.text in level50 for w in find_words(Grid.from_rows(rows)))
        except AssertionError as error:
            raise AssertionError(f"sweep game {index} ({rules}, {specs}): {error}") from error
        if index % (SWEEP_GAMES // REPLAY_SAMPLE) == 0:
            _SWEEP_LOGS[index] = result.events


@pytest.mark.slow
def test_property_same_seed_same_event_log():
    sample = range(0, SWEEP_GAMES, SWEEP_GAMES // REPLAY_SAMPLE)
    assert len(sample) == REPLAY_SAMPLE
    for index in sample:
        first = _SWEEP_LOGS.get(index) or play_sweep_game(index)[2].events
        second = play_sweep_game(index)[2].events
        assert first == second, f"sweep game {index} replayed differently"


def test_property_sweep_covers_every_variant_and_bot():
    configs = [sweep_config(index) for index in range(SWEEP_GAMES)]
    assert {(rules.variant, rules.min_length) for rules, _ in configs} >= {
        ("classic", 2),
        ("classic", 3),
        ("smoothie", 2),
        ("smoothie", 3),
        ("solo", 2),
        ("solo", 3),
    }
    assert {len(specs) for _, specs in configs} == set(range(1, 9))
    used = {spec.partition(":")[0] for _, specs in configs for spec in specs}
    assert used == set(PRESETS) | {"greedy"}


# =========================================================================================
# 3. Bot behaviour
# =========================================================================================


def test_easy_bot_plays_only_level_50_words():
    level50, everything = get_lexicon("en", 50), get_lexicon("en")
    assert PRESETS["easy"].level == 50
    checked = 0
    for seed in range(4):
        for rules in (Rules(), Rules(min_length=3)):
            result = play_hand(rules, [make_bot("easy") for _ in range(3)], seed=seed)
            grids = [rows for rows in result.grids if rows] + [e["grid"] for e in events(result, "bananas")]
            for rows in grids:
                words = find_words(Grid.from_rows(rows))
                assert all(word.text in level50 for word in words), [w.text for w in words if w.text not in level50]
                checked += len(words)
    assert checked > 50
    assert len(level50) < len(everything) / 2  # a real restriction, not the whole list


def test_reckless_bot_eventually_goes_rotten():
    assert PRESETS["reckless"].risk > 0
    for seed in range(40):
        result = play_hand(Rules(min_length=3), [make_bot("reckless") for _ in range(6)], seed=seed)
        rotten = events(result, "rotten")
        if rotten:
            assert result.rotten == len(rotten) and all(entry["problems"] for entry in rotten)
            for entry in rotten:  # the grid shown was really invalid
                (call,) = [e for e in events(result, "bananas") if e["player"] == entry["player"]]
                assert not validate(Grid.from_rows(call["grid"]), get_lexicon("en"), min_length=3).ok
            return
    pytest.fail("no reckless bot went rotten in 40 seeded hands")


@sweep("seeds", 3, 8)
def test_greedy_bot_bananas_grids_are_valid(seeds):
    calls = 0
    for seed in range(seeds):
        rules = Rules(min_length=2 + seed % 2)
        result = play_hand(rules, [GreedyBot(), GreedyBot(name="greedy2")], seed=seed)
        assert events(result, "rotten") == []
        for entry in events(result, "bananas"):
            calls += 1
            assert entry["grid"] is not None
        check_log(result, rules, ["greedy", "greedy"])
    assert calls > 0


def test_solver_bot_protocol_settings():
    bot = make_bot("hard:speed=3,risk=0.25,node_budget=50,level=none")
    assert isinstance(bot, SolverBot) and bot.speed == 3.0
    assert bot.settings.risk == 0.25 and bot.settings.node_budget == 50 and bot.settings.level is None
    assert isinstance(make_bot("greedy"), GreedyBot)
    for bad in ("wizard", "hard:colour=red"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_confidence_interval_sanity():
    low, high = confidence_interval(0, 10)
    assert low == 0.0 and 0.0 < high < 0.35
    low, high = confidence_interval(10, 10)
    assert high == 1.0 and 0.65 < low < 1.0
    for wins, games in ((3, 10), (50, 100), (1, 1000), (999, 1000)):
        low, high = confidence_interval(wins, games)
        assert 0.0 <= low <= wins / games <= high <= 1.0
    assert confidence_interval(0, 0) == (0.0, 1.0)
    narrow, wide = confidence_interval(500, 1000), confidence_interval(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    low, high = confidence_interval(50, 100)
    assert math.isclose(low + high, 1.0)
