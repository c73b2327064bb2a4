"""Tiles: the shipped distributions, parsing and formatting, validation, seeded draws."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import ENGLISH_COUNTS, FRENCH_COUNTS
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.tiles import (
    ALPHABET,
    DISTRIBUTIONS,
    ENGLISH,
    FRENCH,
    TileCounts,
    TileError,
    draw,
    letter_code,
    load_distribution,
    load_tiles,
    parse_distribution,
    parse_tiles,
    spec_kind,
)

pytestmark = pytest.mark.nojit


@pytest.mark.parametrize("tiles, expected", [(ENGLISH, ENGLISH_COUNTS), (FRENCH, FRENCH_COUNTS)], ids=["en", "fr"])
def test_shipped_distributions(tiles, expected):
    assert len(tiles) == 144
    assert sum(expected.values()) == 144
    assert {letter: tiles[letter] for letter in ALPHABET} == expected
    assert tiles.counts.dtype == np.int64 and tiles.counts.shape == (26,)


def test_distributions_by_name():
    assert load_distribution("en") == ENGLISH
    assert load_distribution("fr") == FRENCH
    assert set(DISTRIBUTIONS) == {"en", "fr"}


def test_letter_codes():
    assert letter_code("A") == 1 and letter_code("z") == 26
    for bad in ("", "AB", "1", "é", "."):
        with pytest.raises(TileError):
            letter_code(bad)


def test_from_letters_and_views():
    tiles = TileCounts.from_letters("cat s A")
    assert tiles.letters() == "AACST"
    assert len(tiles) == 5
    assert tiles["a"] == 2 and tiles["Z"] == 0
    assert list(tiles) == list("AACST")
    assert tiles.distribution() == "A2,C1,S1,T1"
    assert repr(tiles) == "TileCounts('AACST')"
    with pytest.raises(TileError):
        TileCounts.from_letters("CAT!")


def test_counts_are_read_only():
    tiles = TileCounts.from_letters("CAT")
    with pytest.raises(ValueError):
        tiles.counts[0] = 5
    assert tiles["A"] == 1


@pytest.mark.parametrize("tiles", [ENGLISH, FRENCH, TileCounts.from_letters("QQZ"), TileCounts.from_letters("E")])
def test_distribution_roundtrip(tiles):
    text = tiles.distribution()
    assert parse_distribution(text) == tiles
    assert parse_tiles(text) == tiles
    assert parse_tiles(tiles.letters()) == tiles
    assert TileCounts(tiles.counts) == tiles and hash(TileCounts(tiles.counts)) == hash(tiles)


def test_parse_accepts_separators_and_case():
    expected = TileCounts.from_letters("AAABBC")
    for text in ("A3,B2,C1", "a3 b2 c1", "A3;B2;C1", "A3,\nB2,\n C1", "A:3,B=2,C1", "  A3 , B2 , C1  "):
        assert parse_distribution(text) == expected, text


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("A3,#2", "bad distribution entry"),
        ("A3,B", "bad distribution entry"),
        ("13", "bad distribution entry"),
        ("AB3", "bad distribution entry"),
        ("A3,A2", "given twice"),
        ("A3,a2", "given twice"),
        ("A0", "must be positive"),
        ("A3,B0", "must be positive"),
        ("A-2", "bad distribution entry"),
        ("É2", "bad distribution entry"),
        ("A2.5", "bad distribution entry"),
        ("\x00\xff garbage", "bad distribution entry"),
    ],
)
def test_distribution_errors(text, message):
    with pytest.raises(TileError, match=message):
        parse_distribution(text)


def test_tilecounts_validation():
    with pytest.raises(TileError):
        TileCounts([1, 2, 3])
    with pytest.raises(TileError):
        TileCounts([-1] + [0] * 25)
    assert len(TileCounts()) == 0


def test_arithmetic():
    a, b = TileCounts.from_letters("CATS"), TileCounts.from_letters("AT")
    assert (a - b).letters() == "CS"
    assert (a + b).letters() == "AACSTT"
    assert a.contains(b) and not b.contains(a)
    with pytest.raises(TileError):
        b - a


def test_distribution_file_with_comments(tmp_path):
    path = tmp_path / "double.txt"
    path.write_text("# a tiny custom set\nA2, B1\n  # indented comment\nC3\n", encoding="utf-8")
    assert load_distribution(str(path)) == TileCounts.from_letters("AABCCC")
    bad = tmp_path / "bad.txt"
    bad.write_text("# nothing but comments\n", encoding="utf-8")
    with pytest.raises(TileError, match="empty"):
        load_distribution(str(bad))
    binary = tmp_path / "junk.bin"
    binary.write_bytes(b"\xff\xfe\x00A3")
    with pytest.raises(TileError):
        load_distribution(str(binary))


def test_load_distribution_inline_and_unknown(tmp_path):
    assert load_distribution("A2,B1") == TileCounts.from_letters("AAB")
    with pytest.raises(TileError, match="unknown distribution"):
        load_distribution("no/such/tiles.txt")
    with pytest.raises(TileError):  # a path with digits in it is read as an inline spec
        load_distribution(str(tmp_path / "missing-2.txt"))
    with pytest.raises(TileError, match="unknown distribution"):
        load_distribution("german")


def test_double_set_is_allowed():
    double = ENGLISH + ENGLISH
    assert len(double) == 288
    assert parse_distribution(double.distribution()) == double


def test_draw_is_seeded_and_never_overdraws():
    bag = ENGLISH
    first = draw(bag, 21, np.random.default_rng(7))
    again = draw(bag, 21, np.random.default_rng(7))
    assert first == again
    assert len(first) == 21 and bag.contains(first)
    # Different seeds give different hands (overwhelmingly likely; fixed seeds keep it stable).
    assert draw(bag, 21, np.random.default_rng(8)) != first
    rng = np.random.default_rng(1)
    small = TileCounts.from_letters("QQZ")
    for count in range(4):
        hand = draw(small, count, rng)
        assert len(hand) == count and small.contains(hand)
    assert draw(small, 3, rng) == small
    with pytest.raises(TileError):
        draw(small, 4, rng)
    # Many draws: never more of a letter than the bag holds.
    for _ in range(200):
        hand = draw(bag, int(rng.integers(0, 145)), rng)
        assert bag.contains(hand)


def test_draw_sequence_from_one_generator_is_reproducible():
    def deal(seed):
        rng = np.random.default_rng(seed)
        bag = FRENCH
        hands = []
        for _ in range(6):
            hand = draw(bag, 21, rng)
            bag = bag - hand
            hands.append(hand.letters())
        return hands, bag

    hands, rest = deal(3)
    assert deal(3) == (hands, rest)
    assert len(rest) == 144 - 6 * 21
    total = TileCounts()
    for letters in hands:
        total = total + TileCounts.from_letters(letters)
    assert total + rest == FRENCH


# -- tile specs: one reading of "letters or a distribution?" --------------------------------


@pytest.mark.parametrize(
    "spec, letters, kind",
    [
        ("en", True, "name"),
        (" fr ", False, "name"),
        ("CATMAP", True, "letters"),
        ("cat map", True, "letters"),
        ("CATMAP", False, "file"),  # where letters are not allowed, a word names a file
        ("A13,B3", True, "inline"),
        ("a:2 ; b=3", True, "inline"),
        ("Z9", True, "inline"),  # even when a file Z9 exists: see test_inline_spec_never_reads_a_file
        ("tiles.txt", True, "file"),
        ("dir/A13", True, "file"),
        ("CAFÉ", True, "letters"),  # accents folded, as a typed hand's (issue 65)
        ("CAFÉ", False, "file"),
        ("ΩMEGA", True, "file"),  # no folding makes Ω a tile
        ("", True, "file"),
    ],
)
def test_spec_kind(spec, letters, kind):
    assert spec_kind(spec, letters) == kind


def test_parse_tiles_reads_names_letters_and_inline_and_bounds_the_total():
    assert parse_tiles("en") == ENGLISH
    assert parse_tiles("catmap") == TileCounts.from_letters("AACMPT")
    assert parse_tiles("A2,B1") == TileCounts.from_letters("AAB")
    assert len(parse_tiles("E" * 288, max_tiles=288)) == 288
    for too_many in ("E" * 289, "A9999", "en"):
        with pytest.raises(TileError, match="at most"):
            parse_tiles(too_many, max_tiles=100 if too_many == "en" else 288)
    with pytest.raises(TileError, match="unknown tiles"):
        parse_tiles("CATMAP", letters=False)


def test_inline_spec_never_reads_a_file(tmp_path, monkeypatch):
    """Finding 4 of issue 15: a spec that reads as inline is parsed, even when a file of that
    name exists; parse_tiles never looks at the filesystem at all."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Z9").write_text("TOPSECRET\n")
    assert load_tiles("Z9") == parse_tiles("Z9") == TileCounts.from_letters("Z" * 9)
    assert load_tiles("./Z9") == TileCounts.from_letters("TOPSECRET")  # a path is read, locally
    for spec in (str(tmp_path / "Z9"), "./Z9"):
        with pytest.raises(TileError) as error:
            parse_tiles(spec)
        assert "SECRET" not in str(error.value)


@pytest.mark.parametrize(
    "text",
    [
        "A1" + " " * 800 + "B" + " " * 800 + "!",  # finding 1: cubic in a backtracking regex
        "A1" + "," * 100_000 + "B",
        " ".join(f"{chr(65 + i % 26)}{i}" for i in range(200)),  # finding 5: 200 entries
        "A99999999999999999999",  # finding 5: overflow
        "A" + "0" * 50_000 + "1" + "9" * 5,
    ],
    ids=["spaces", "commas", "200-entries", "overflow", "long-count"],
)
def test_hostile_distributions_fail_fast_with_a_tile_error(text):
    import time

    started = time.perf_counter()
    with pytest.raises(TileError):
        parse_tiles(text)
    with pytest.raises(TileError):
        load_tiles(text)
    assert time.perf_counter() - started < 1.0


def test_counts_up_to_four_digits_and_leading_zeros():
    assert parse_distribution("A0009,B9999")["B"] == 9999
    with pytest.raises(TileError, match="at most 9999"):
        parse_distribution("A10000")


def test_tile_files_are_bounded_and_may_hold_letters(tmp_path):
    letters = tmp_path / "hand.txt"
    letters.write_text("# my hand\nCATMAP\n")
    assert load_tiles(str(letters)) == TileCounts.from_letters("CATMAP")
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"A1 " * 40_000)
    with pytest.raises(TileError, match="larger than"):
        load_tiles(str(huge))
    with pytest.raises(TileError):
        load_tiles("/dev/zero")


@given(st.text(alphabet="abcxyzABCQZ \t\né1!ſı", max_size=30))
@settings(max_examples=300, deadline=None)
def test_from_letters_counts_as_the_letter_by_letter_definition(text):
    """The one-pass count (plain A-Z strings) and the letter-by-letter path agree, errors included."""
    try:
        expected = np.zeros(26, dtype=np.int64)
        for letter in text:
            if not letter.isspace():
                expected[letter_code(letter) - 1] += 1
    except TileError:
        with pytest.raises(TileError):
            TileCounts.from_letters(text)
        return
    tiles = TileCounts.from_letters(text)
    assert tiles.counts.tolist() == expected.tolist() and not tiles.counts.flags.writeable
    assert (tiles + tiles - tiles).counts.tolist() == expected.tolist()
