"""Offensive words: valid (check and the referee accept them) but never laid, listed, hinted or
shown by a search, unless asked for with the offensive mark or --allow-offensive.

The words below are the tests' own list, kept apart from lexicons/*.offensive.txt: the test
fails if the shipped lists lose one of them."""

from __future__ import annotations

import pytest
from helpers import run_cli

from solver.coach import hint
from solver.coach.reviews import best_grid
from solver.core.grid import Grid, find_words, validate
from solver.core.tiles import TileCounts
from solver.lexicon.loader import get_lexicon, with_offensive
from solver.play.bots import make_bot
from solver.play.rules import Rules
from solver.search.board import Board
from solver.search.solving import solve

ENGLISH = (
    "fuck",
    "shit",
    "cunt",
    "nigger",
    "faggot",
    "motherfucker",
    "bitch",
    "slut",
    "whore",
    "kike",
    "spic",
    "wetback",
)
FRENCH = ("merde", "putain", "salope", "connard", "encule", "pede", "negre", "enfoire", "pute", "bougnoule")
SPECS = ("en", "en@35", "en@50", "fr")


def listed(spec: str) -> tuple[str, ...]:
    return FRENCH if spec == "fr" else ENGLISH


def offensive_words_of(grid: Grid) -> list[str]:
    return [word.text for word in find_words(grid) if word.text.lower() in ENGLISH + FRENCH]


def test_the_full_lists_hold_the_words_and_check_accepts_them():
    for spec in ("en", "fr"):
        lexicon = get_lexicon(spec)
        for word in listed(spec):
            assert word in lexicon, word
            assert word not in lexicon.trie, word
            assert validate(Grid.from_rows([word.upper()]), lexicon).ok, word


@pytest.mark.parametrize("spec", SPECS)
def test_no_list_of_words_holds_them(spec):
    lexicon = get_lexicon(spec)
    for word in listed(spec):
        assert word not in lexicon.formable_words(word), (spec, word)
        assert word not in set(lexicon.trie.keys(word[:3])), (spec, word)


@pytest.mark.parametrize("spec", SPECS)
def test_the_solver_never_lays_them(spec):
    lexicon = get_lexicon(spec)
    for word in listed(spec):
        found = solve(TileCounts.from_letters(word), lexicon, seed=0, time_limit=10.0)
        if found.grid is not None:
            assert validate(found.grid, lexicon, TileCounts.from_letters(word)).ok
            assert not offensive_words_of(found.grid), (spec, word, found.grid)


@pytest.mark.parametrize(
    ("rows", "hand"), [(["BIT"], "CH"), (["WHO"], "RE"), (["WET"], "BACK"), (["MOTHER"], "FUCKER")]
)
def test_hints_never_suggest_them(rows, hand):
    grid = Grid.from_rows(rows)
    move = hint(grid, TileCounts.from_letters(hand), get_lexicon("en"))
    cells = grid.cells()
    if move is not None:
        for cell in move.lift:
            del cells[cell]
        cells.update({(row, col): letter for row, col, letter in move.cells})
        after = Grid.from_cells(cells)
        assert validate(after, get_lexicon("en")).ok
        assert not offensive_words_of(after) and move.word.lower() not in ENGLISH, move
    first = hint(None, TileCounts.from_letters("".join(rows) + hand), get_lexicon("en"))
    assert first is None or first.word.lower() not in ENGLISH


def test_a_reviews_best_grid_never_shows_them():
    for word in ("motherfucker", "niggers", "faggots"):
        tiles = TileCounts.from_letters(word)
        best = best_grid(tiles, None, get_lexicon("en"), 2, common=get_lexicon("en@50"))
        assert best is not None
        assert validate(best.grid, get_lexicon("en"), tiles).ok
        assert not offensive_words_of(best.grid), best.grid


@pytest.mark.parametrize("preset", ["beginner", "medium", "greedy"])
def test_bots_never_lay_them(preset):
    for word in ("motherfucker", "bitches", "whores"):
        bot = make_bot(preset)
        tiles = TileCounts.from_letters(word)
        bot.start(tiles, Rules(), seed=0)
        if isinstance(getattr(bot, "board", None), Board):
            assert bot.board.rebuild().ok
            grid = bot.board.grid
        else:
            bot.build()
            grid = bot.current_grid()
        assert grid is not None
        assert validate(grid, get_lexicon("en")).ok
        assert not offensive_words_of(grid), (preset, grid)


@pytest.mark.slow  # every word of both lists (5 s)
def test_the_offensive_mark_keeps_every_word():
    assert with_offensive("en@50", True) == "en@50+offensive" and with_offensive("en", False) == "en"
    assert with_offensive("/tmp/words.txt", True) == "/tmp/words.txt"  # a user's own list is as given
    everything = get_lexicon("en+offensive")
    assert everything.name == "en+offensive" and not everything.offensive
    assert "fuck" in everything.formable_words("fuck")
    found = solve(TileCounts.from_letters("fuck"), everything, seed=0)
    assert found.grid is not None and [w.text for w in find_words(found.grid)] == ["FUCK"]
    assert len(everything) == len(get_lexicon("en"))  # the same valid words either way
    common = get_lexicon("en@50+offensive")
    assert common.name == "en@50+offensive" and "fuck" in common.trie


def test_the_command_line_leaves_them_out_unless_allowed():
    # stdout only: a first run that builds the word list's arrays says so on stderr
    plain = run_cli("words", "FUCKERS", "--limit", "3")
    assert plain.exit_code == 0 and "FUCKERS" not in plain.stdout.split()
    allowed = run_cli("words", "FUCKERS", "--limit", "3", "--allow-offensive")
    assert allowed.stdout.split()[:2] == ["FUCKERS", "FUCKER"]
