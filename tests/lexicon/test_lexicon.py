"""Lexicons: shipped word lists, the DAWG arrays, the on-disk cache, levels, formable words."""

from __future__ import annotations

import gzip
import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.tiles import TileCounts, TileError
from solver.lexicon import dawg
from solver.lexicon.dawg import build_dawg, dawg_words
from solver.lexicon.files import split_level
from solver.lexicon.loader import (
    SHIPPED_DIR,
    LexiconError,
    get_lexicon,
    load_lexicon,
    read_words,
)


def graph_arrays(graph) -> dict[str, np.ndarray]:
    return {name: getattr(graph, name) for name in dawg.ARRAY_NAMES}


# -- shipped word lists ----------------------------------------------------------------------


def test_english_words(en):
    for word in ("qi", "za", "aa", "cat", "cats", "colour", "color", "CAT", "Colour"):
        assert word in en, word
    for word in ("bs", "kb", "ls", "", "c", "cat s", "caté", "zzzzqx"):
        assert word not in en, word
    assert 3 not in en and None not in en
    assert len(en) > 200_000


def test_english_two_letter_words(en):
    twos = [w for w in en.trie.keys() if len(w) == 2]
    assert 90 <= len(twos) <= 110
    assert all(len(w) >= 2 for w in en.trie.keys())


def test_french_words(fr):
    for word in ("manger", "mangeons", "chevaux", "taches", "coeur", "etre", "noel"):
        assert word in fr, word
    for word in ("tâches", "cœur", "xq"):
        assert word not in fr, word
    assert all(word.isascii() and word.isalpha() and word.islower() for word in itertools.islice(fr.trie.keys(), 5000))


def test_word_ids(en):
    word_id = en.word_id("cat")
    assert word_id is not None and en.trie.restore_key(word_id) == "cat"
    assert en.word_id("CAT") == word_id
    assert en.word_id("bs") is None


def test_formable_words_take_letters_as_a_string_or_tiles(en):
    """A newcomer's `formable_words("AEIRST")` raised AttributeError (it wanted TileCounts)."""
    from_tiles = en.formable_words(TileCounts.from_letters("AEIRST"), 3, limit=20)
    assert en.formable_words("AEIRST", 3, limit=20) == from_tiles
    assert en.formable_words("aeirst", 3, limit=20) == from_tiles
    assert from_tiles[0] in {"airest", "satire", "striae", "terais"} and "sat" in en.formable_words("AEIRST", 3)
    with pytest.raises(TileError):
        en.formable_words("C4T")


# -- DAWG arrays ----------------------------------------------------------------------------

SMALL = ["a", "ab", "abc", "abd", "b", "bat", "bats", "cat", "cats", "cot", "cots", "dog", "dogs", "zebra"]


def test_dawg_small_list_spells_exactly_the_words():
    arrays = build_dawg(SMALL)
    assert dawg_words(arrays) == SMALL
    # Minimal: the shared suffix -s / -ts nodes are merged, so fewer nodes than a trie.
    trie_nodes = len({w[:i] for w in SMALL for i in range(len(w) + 1)})
    assert len(arrays["terminal"]) < trie_nodes


@pytest.mark.parametrize(
    "words", [["x"], ["aa", "ab"], ["abc"], sorted({"".join(p) for p in itertools.product("ab", repeat=3)})]
)
def test_dawg_tiny_lists(words):
    assert dawg_words(build_dawg(words)) == words


def test_dawg_minimal_on_a_language_of_all_strings():
    # All 2^k strings over {a, b} of length 1..4 share every suffix: one node per depth.
    words = sorted("".join(p) for n in range(1, 5) for p in itertools.product("ab", repeat=n))
    arrays = build_dawg(words)
    assert dawg_words(arrays) == words
    assert len(arrays["terminal"]) == 5


def reference_dawg(sorted_words: list[str]) -> dict[str, np.ndarray]:
    """The minimal DAWG the plain way: a trie of dicts, nodes merged bottom-up by (final, edges)
    signature, numbered breadth-first with children in letter order; the same CSR layout."""
    trie: dict = {}
    for word in sorted_words:
        node = trie
        for letter in word:
            node = node.setdefault(letter, {})
        node["$"] = True
    register: dict[tuple, int] = {}
    graph: list[tuple[bool, list[tuple[int, int]]]] = []  # class -> (final, [(code, class)])

    def classify(node: dict) -> int:
        edges = [(ord(letter) - 96, classify(child)) for letter, child in sorted(node.items()) if letter != "$"]
        key = ("$" in node, tuple(edges))
        if key not in register:
            register[key] = len(graph)
            graph.append(("$" in node, edges))
        return register[key]

    root = classify(trie)
    order, number = [root], {root: 0}
    for node in order:
        for _, target in graph[node][1]:
            if target not in number:
                number[target] = len(order)
                order.append(target)
    first_edge = np.cumsum([0] + [len(graph[node][1]) for node in order]).astype(np.int32)
    labels = np.array([code for node in order for code, _ in graph[node][1]], dtype=np.uint8)
    targets = np.array([number[target] for node in order for _, target in graph[node][1]], dtype=np.int32)
    terminal = np.array([graph[node][0] for node in order], dtype=np.uint8)
    return dawg.arrays_from_csr(first_edge, labels, targets, terminal)


def assert_same_arrays(actual: dict[str, np.ndarray], expected: dict[str, np.ndarray]) -> None:
    assert actual.keys() == expected.keys()
    for name in expected:
        assert actual[name].dtype == expected[name].dtype, name
        assert np.array_equal(actual[name], expected[name]), name


@settings(max_examples=300, deadline=None)
@given(st.sets(st.text(alphabet="abcz", min_size=1, max_size=7), max_size=60))
def test_dawg_arrays_match_the_reference_construction(words):
    words = sorted(words)
    arrays = build_dawg(words)
    assert_same_arrays(arrays, reference_dawg(words))
    assert dawg_words(arrays) == words


def test_dawg_of_a_shipped_list_matches_the_reference_construction():
    words = read_words(SHIPPED_DIR / "en.txt.gz", 35)[0]  # SCOWL size 35: 41k words, a second
    assert_same_arrays(build_dawg(words), reference_dawg(words))


# fr is slow (9 s of the quick tier on a 2-core machine): the same construction and walk as en,
# on a list 1.6 times longer; the quick tier's other fr tests load its arrays too.
@pytest.mark.parametrize("name", ["en", pytest.param("fr", marks=pytest.mark.slow)])
def test_dawg_arrays_spell_the_word_list(name):
    lexicon = get_lexicon(name)
    keys = sorted(lexicon.trie.keys())
    assert dawg_words(graph_arrays(lexicon.forward)) == keys
    assert dawg_words(graph_arrays(lexicon.reverse)) == sorted(word[::-1] for word in keys)


def check_masks(arrays_or_graph):
    get = (
        (lambda n: arrays_or_graph[n]) if isinstance(arrays_or_graph, dict) else (lambda n: getattr(arrays_or_graph, n))
    )
    child = np.asarray(get("child")).reshape(-1, 26)
    terminal = np.asarray(get("terminal")).astype(bool)
    nodes = child.shape[0]
    assert len(terminal) == nodes and terminal[0] == 0  # the empty word is no word
    bits = 1 << np.arange(26, dtype=np.int64)
    present = child >= 0
    expected_next = (present * bits).sum(axis=1)
    ends = present & terminal[np.where(present, child, 0)]
    expected_end = (ends * bits).sum(axis=1)
    assert np.array_equal(np.asarray(get("next_mask"), dtype=np.int64), expected_next)
    assert np.array_equal(np.asarray(get("end_mask"), dtype=np.int64), expected_end)
    # The CSR edges and the dense table hold the same graph.
    first_edge, label, target = (
        np.asarray(get(n)).astype(np.int64) for n in ("first_edge", "edge_label", "edge_target")
    )
    assert first_edge[0] == 0 and first_edge[-1] == len(label) == present.sum()
    for node in range(0, nodes, max(1, nodes // 2000)):
        edges = range(first_edge[node], first_edge[node + 1])
        assert list(label[edges.start : edges.stop]) == sorted(label[edges.start : edges.stop])
        assert {int(label[e]): int(target[e]) for e in edges} == {
            code + 1: int(child[node, code]) for code in range(26) if child[node, code] >= 0
        }


def test_masks_small():
    check_masks(build_dawg(SMALL))


@pytest.mark.parametrize("name", ["en", "fr"])
def test_masks_agree_with_child_and_terminal(name):
    lexicon = get_lexicon(name)
    check_masks(lexicon.forward)
    check_masks(lexicon.reverse)


def test_reach_table_small():
    """reach[n, j]: letters that are the j-th letter of some path from n (brute force)."""
    if "reach" not in dawg.ARRAY_NAMES:
        pytest.skip("no reach table in this DAWG layout")
    arrays = build_dawg(SMALL)
    width = dawg.REACH
    reach = arrays["reach"].reshape(-1, width)
    child = arrays["child"].reshape(-1, 26)

    def paths(node, depth):
        if depth == 0:
            return [""]
        return [
            chr(97 + code) + rest
            for code in range(26)
            if child[node, code] >= 0
            for rest in paths(int(child[node, code]), depth - 1)
        ] + [""]

    for node in range(child.shape[0]):
        suffixes = set(paths(node, width))
        for j in range(1, width):
            expected = 0
            for suffix in suffixes:
                if len(suffix) >= j:
                    expected |= 1 << (ord(suffix[j - 1]) - 97)
            assert reach[node, j] == expected, (node, j)


def test_below_mask_small():
    """below_mask[n]: every letter on some path from n (brute force over the suffixes)."""
    if "below_mask" not in dawg.ARRAY_NAMES:
        pytest.skip("no below_mask in this DAWG layout")
    arrays = build_dawg(SMALL)
    child = arrays["child"].reshape(-1, 26)
    for node in range(child.shape[0]):
        letters, stack = 0, [node]
        while stack:
            current = stack.pop()
            for code in range(26):
                if child[current, code] >= 0:
                    letters |= 1 << code
                    stack.append(int(child[current, code]))
        assert arrays["below_mask"][node] == letters, node
    assert arrays["below_mask"][0] == sum(1 << (ord(ch) - 97) for ch in set("".join(SMALL)))


# -- cache and user word lists ---------------------------------------------------------------


def test_second_load_is_warm(en):
    again = load_lexicon("en")
    assert "cold_build_s" not in again.timings
    assert again.timings["load_s"] < 5
    assert len(again) == len(en) and "colour" in again


def write_list(path: Path, lines: list[str], gzipped: bool = False) -> Path:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    return path


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("BANANAS_CACHE", str(cache))
    return cache


def cache_entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if not p.name.startswith("."))


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_user_word_list(tmp_path, private_cache, gzipped):
    path = write_list(
        tmp_path / ("mine.txt.gz" if gzipped else "mine.txt"),
        ["# my words", "", "Cat", "CATS", "dog", "  tac  ", "Cœur", "naïve", "don't", "x-ray", "cat"],
        gzipped,
    )
    expected = ["cat", "cats", "coeur", "dog", "naive", "tac"]  # accents folded, ligatures spelled out
    cold = load_lexicon(str(path))
    assert "cold_build_s" in cold.timings
    assert sorted(cold.trie.keys()) == expected
    assert cold.skipped == 2  # don't, x-ray
    assert dawg_words(graph_arrays(cold.forward)) == expected
    assert dawg_words(graph_arrays(cold.reverse)) == sorted(w[::-1] for w in expected)
    warm = load_lexicon(str(path))
    assert "cold_build_s" not in warm.timings
    assert sorted(warm.trie.keys()) == expected and warm.skipped == 2
    assert len(cache_entries(private_cache)) == 1
    assert cold.formable_words(TileCounts.from_letters("ACTS")) == ["cats", "cat", "tac"]


def test_changed_file_gets_a_new_cache_key(tmp_path, private_cache):
    path = write_list(tmp_path / "mine.txt", ["cat", "dog"])
    first = load_lexicon(str(path))
    assert "dog" in first and "emu" not in first
    write_list(path, ["cat", "dog", "emu"])
    second = load_lexicon(str(path))
    assert "cold_build_s" in second.timings
    assert "emu" in second
    assert len(cache_entries(private_cache)) == 2
    # The unchanged first version is still cached.
    write_list(path, ["cat", "dog"])
    assert "cold_build_s" not in load_lexicon(str(path)).timings


def test_bad_word_lists(tmp_path, private_cache):
    with pytest.raises(LexiconError, match="no lexicon named"):
        load_lexicon(str(tmp_path / "missing.txt"))
    with pytest.raises(LexiconError, match="no lexicon named"):
        load_lexicon("klingon")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(LexiconError, match="not UTF-8"):
        load_lexicon(str(junk))
    bad_gzip = tmp_path / "bad.gz"
    bad_gzip.write_bytes(b"\x1f\x8b" + b"\x00" * 40)
    with pytest.raises(LexiconError):
        load_lexicon(str(bad_gzip))
    empty = write_list(tmp_path / "empty.txt", ["# nothing", "", "123", "l'eau"])
    with pytest.raises(LexiconError, match="no a-z words"):
        load_lexicon(str(empty))
    nothing = tmp_path / "zero.txt"
    nothing.write_bytes(b"")
    with pytest.raises(LexiconError):
        load_lexicon(str(nothing))
    words = write_list(tmp_path / "words.txt", ["cat"])
    with pytest.raises(LexiconError, match="no vocabulary levels"):
        load_lexicon(str(words), max_level=35)
    with pytest.raises(LexiconError, match="vocabulary level"):
        load_lexicon("en", max_level=40)
    # Nothing half-built is left behind as a cache entry.
    assert not private_cache.exists() or all((p / "skipped").is_file() for p in cache_entries(private_cache))


def test_lexicon_error_is_a_value_error():
    assert issubclass(LexiconError, ValueError)


# -- vocabulary levels ---------------------------------------------------------------------------


def test_levels(en):
    words = gzip.decompress((SHIPPED_DIR / "en.txt.gz").read_bytes()).decode().split()
    levels = gzip.decompress((SHIPPED_DIR / "en.levels.gz").read_bytes()).split()
    level_of = dict(zip(words, (int(x) for x in levels), strict=True))
    assert level_of["cat"] == 35 and level_of["aahed"] == 80
    small = get_lexicon("en", max_level=35)
    assert small.name == "en@35"
    assert "cat" in small and "cats" in small
    assert "aahed" in en and "aahed" not in small
    obscure = set((SHIPPED_DIR / "en.obscure.txt").read_text().split())  # rare in use: out of the common lists
    assert len(small) == sum(1 for word, level in level_of.items() if level <= 35 and word not in obscure) < len(en)
    middle = get_lexicon("en", max_level=60)
    assert len(small) < len(middle) < len(en)
    sample = [w for w, level in itertools.islice(level_of.items(), 0, None, 997)]
    for word in sample:
        assert (word in middle) == (level_of[word] <= 60), word
    assert read_words(SHIPPED_DIR / "en.txt.gz", 80)[0] == sorted([*en.trie.keys(), *en.offensive])


def test_the_common_lists_leave_out_the_obscure_words_and_the_others_keep_them(en):
    """en@35 and en@50 (the hints', reviews' and beginner bots' words) leave out the words SCOWL
    counts common that are rare in use (lexicons/en.obscure.txt, scripts/build_obscure.py);
    en@60 and above, and the whole list, keep them as words."""
    obscure = (SHIPPED_DIR / "en.obscure.txt").read_text().split()
    assert {"jinrikisha", "oakum", "amortizing"} <= set(obscure)
    common, wider = get_lexicon("en", 50), get_lexicon("en", 60)
    assert not any(word in common for word in obscure)
    assert all(word in wider and word in en for word in obscure)
    assert all(word in common for word in ("house", "houses", "colour", "colours", "running"))  # families kept


def test_a_level_is_named_after_its_list():
    assert split_level("en@50") == ("en", 50)
    assert split_level("en") == ("en", None)
    assert split_level("my@50.txt") == ("my@50.txt", None)  # only a shipped name takes a level
    assert split_level("./en@50") == ("./en@50", None)
    assert get_lexicon("en@35") is get_lexicon("en", max_level=35)  # one list, loaded once
    assert get_lexicon("en@35").name == "en@35"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("en@45", "must be one of 35, 50, 60, 70, 80"),
        ("en@", "must be one of"),
        ("en@common", "must be one of"),
        ("fr@50", "fr word list has no vocabulary levels"),
    ],
)
def test_a_bad_level_is_a_lexicon_error(spec, message):
    with pytest.raises(LexiconError, match=message):
        get_lexicon(spec)


def test_a_named_level_and_another_max_level_disagree():
    with pytest.raises(LexiconError, match="at level 60"):
        get_lexicon("en@35", max_level=60)


# -- formable words ------------------------------------------------------------------------------


def brute_formable(lexicon, tiles: TileCounts, min_length: int) -> list[str]:
    have = Counter(tiles.letters().lower())
    found = [w for w in lexicon.trie.keys() if min_length <= len(w) <= len(tiles) and not Counter(w) - have]
    return sorted(found, key=lambda w: (-len(w), w))


@pytest.mark.parametrize("letters, min_length", [("RETAINS", 2), ("QIZAX", 2), ("EEEE", 2), ("BANANAS", 3), ("Q", 2)])
def test_formable_words(en, letters, min_length):
    tiles = TileCounts.from_letters(letters)
    words = en.formable_words(tiles, min_length=min_length)
    assert words == brute_formable(en, tiles, min_length)
    assert words == sorted(words, key=lambda w: (-len(w), w))
    for word in words:
        assert tiles.contains(TileCounts.from_letters(word)) and len(word) >= min_length
    assert en.formable_words(tiles, min_length=min_length, limit=3) == words[:3]


def test_formable_words_examples(en):
    words = en.formable_words(TileCounts.from_letters("RETAINS"))
    assert words[0] in {"anestri", "nastier", "ratines", "retains", "retinas", "retsina", "stainer", "stearin"}
    assert "tin" in words and "tint" not in words and "x" not in words
    assert en.formable_words(TileCounts.from_letters("QQ")) == []


def test_formable_words_french(fr):
    tiles = TileCounts.from_letters("MANGER")
    words = fr.formable_words(tiles)
    assert words[0] == "manger" or len(words[0]) == 6
    assert "mange" in words and "manger" in words
    assert all(tiles.contains(TileCounts.from_letters(w)) for w in words)
