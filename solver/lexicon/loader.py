"""Lexicons: word lists loaded by name or path, cached on disk in two forms.

1. a marisa-trie (storage, membership, stable word ids), and
2. flat numpy arrays for the numba kernels: a minimal DAWG of the words and one of the
   reversed words (see `solver.lexicon.dawg` for the layout, bit by bit).

Shipped lists (`en`, `fr`) live in the repository's `lexicons/` folder, which installs as the
package data `solver/lexicon/data/` (see pyproject.toml); any other argument is a path to a
user word list (one word per line, optionally gzipped; `#` comment lines and blank lines are
skipped; case is folded; entries with characters outside a-z are skipped and counted).

Offensive words: a shipped list's slurs and profanity (lexicons/<name>.offensive.txt) are
valid words (`word in lexicon` accepts them, so `check` and the referee do) but sit in no word
graph and not in `trie`: no search lays or suggests them (bots, hints, reviews, solve, words).
The offensive mark ('en+offensive', 'en@50+offensive') keeps them in.

Cache: `$BANANAS_CACHE` (default ~/.cache/bananas)/<key>/, where the key hashes the word
list's bytes, the vocabulary level and the cache format. A warm load memory-maps the
arrays and the trie, so it costs milliseconds. The package's build puts the default list's
arrays in solver/lexicon/arrays/<key>/ (`solver.search.prebuilt`), found before the cache, so
a first run need not build them (BANANAS_PREBUILT=0 ignores them).
"""

from __future__ import annotations

import gzip
import io
import time
import zlib
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import marisa_trie
import numpy as np

from solver.core.limits import MAX_WORD_LIST_BYTES
from solver.core.tiles import TileCounts, fold
from solver.lexicon.dawg import ARRAY_NAMES, build_dawg

# The numpy-free part of loading (where lists and caches live), re-exported from here as before.
from solver.lexicon.files import LEVELS as LEVELS
from solver.lexicon.files import OFFENSIVE_MARK as OFFENSIVE_MARK
from solver.lexicon.files import SHIPPED as SHIPPED
from solver.lexicon.files import SHIPPED_DIR as SHIPPED_DIR
from solver.lexicon.files import LexiconError as LexiconError
from solver.lexicon.files import (
    arrays_dir,
    cache_key,
    obscure_path,
    offensive_path,
    source_path,
    split_level,
    split_offensive,
)
from solver.lexicon.files import arrays_key as arrays_key
from solver.lexicon.files import cache_root as cache_root
from solver.lexicon.files import cache_unwritable as cache_unwritable
from solver.lexicon.files import language_of as language_of
from solver.lexicon.files import prebuilt_wanted as prebuilt_wanted
from solver.lexicon.files import shipped_dir as shipped_dir
from solver.lexicon.files import with_offensive as with_offensive


@dataclass(frozen=True)
class WordGraph:
    """The flat arrays of one DAWG (forward or reversed); see `solver.lexicon.dawg`."""

    first_edge: np.ndarray
    edge_label: np.ndarray
    edge_target: np.ndarray
    child: np.ndarray
    terminal: np.ndarray
    next_mask: np.ndarray
    end_mask: np.ndarray
    reach: np.ndarray
    below_mask: np.ndarray

    @property
    def node_count(self) -> int:
        """The number of DAWG nodes (an int)."""
        return len(self.terminal)


@dataclass
class Lexicon:
    """A loaded word list. `word in lexicon` takes any case and accepts the `offensive` words,
    which `trie` and the graphs leave out (module docstring)."""

    name: str
    trie: marisa_trie.Trie
    forward: WordGraph
    reverse: WordGraph
    skipped: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    offensive: frozenset[str] = frozenset()

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        word = word.lower()
        return word in self.trie or word in self.offensive

    def __len__(self) -> int:
        return len(self.trie) + len(self.offensive)

    def lays(self, word: str) -> bool:
        """Whether a search may lay `word` (any case): a word of the graphs, not an offensive one."""
        return word.lower() in self.trie

    @property
    def laid(self) -> LaidWords:
        """The words a search may lay, as a container (`validate` takes it for a lexicon)."""
        return LaidWords(self)

    def word_id(self, word: str) -> int | None:
        """The trie's id of `word`, or None when it is not a word."""
        try:
            return self.trie.key_id(word.lower())
        except KeyError:
            return None

    def formable_words(
        self, tiles: TileCounts | str, min_length: int = 2, limit: int | None = None, max_length: int | None = None
    ) -> list[str]:
        """Words spelled from a sub-multiset of `tiles` (a `TileCounts` or a string of letters,
        such as "AEIRST"; at most `max_length` letters), longest first, then alphabetical."""
        words: list[str] = []
        remaining = TileCounts.of(tiles).counts.copy()
        graph = self.forward

        def walk(node: int, prefix: str) -> None:  # depth <= word length: recursion is fine
            if graph.terminal[node] and len(prefix) >= min_length:
                words.append(prefix)
            if max_length is not None and len(prefix) >= max_length:
                return
            for edge in range(graph.first_edge[node], graph.first_edge[node + 1]):
                code = int(graph.edge_label[edge])
                if remaining[code - 1]:
                    remaining[code - 1] -= 1
                    walk(int(graph.edge_target[edge]), prefix + chr(96 + code))
                    remaining[code - 1] += 1

        walk(0, "")
        words.sort(key=lambda w: (-len(w), w))
        return words[:limit] if limit is not None else words


# -- reading word lists ---------------------------------------------------------------


@dataclass(frozen=True)
class LaidWords:
    """`Lexicon.laid`: `word in` it when a search may lay the word (`Lexicon.lays`)."""

    lexicon: Lexicon

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.lexicon.lays(word)


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":  # decompressed up to the bound, never further (a gzip bomb)
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
                raw = stream.read(MAX_WORD_LIST_BYTES + 1)
        if len(raw) > MAX_WORD_LIST_BYTES:
            raise LexiconError(f"word list {path} holds more than {MAX_WORD_LIST_BYTES >> 20} MiB of text")
        return raw.decode("utf-8")
    except (OSError, EOFError, zlib.error) as error:  # BadGzipFile is an OSError
        raise LexiconError(f"cannot read word list {path}: {error}") from None
    except UnicodeDecodeError:
        raise LexiconError(f"word list {path} is not UTF-8 text") from None


def _read_levels(path: Path) -> np.ndarray | None:
    levels_path = path.with_name(path.name.replace(".txt.gz", ".levels.gz"))
    if levels_path == path or not levels_path.is_file():
        return None
    return np.array(gzip.decompress(levels_path.read_bytes()).split(), dtype=np.int16)


def read_words(path: Path, max_level: int | None = None) -> tuple[list[str], int]:
    """(sorted unique words, count of skipped entries) from a word-list file."""
    lines = _read_text(path).splitlines()
    if max_level is not None:
        levels = _read_levels(path)
        if levels is None:
            raise LexiconError(f"word list {path} has no vocabulary levels")
        if len(levels) != len(lines):
            raise LexiconError(f"levels file of {path} does not match its words")
        lines = [line for line, level in zip(lines, levels, strict=True) if level <= max_level]
        obscure = obscure_path(path, max_level)
        if obscure is not None:  # common words by SCOWL's size, rare in use (files.obscure_path)
            left_out = set(_read_text(obscure).split())
            lines = [line for line in lines if line not in left_out]
    words: set[str] = set()
    skipped = 0
    for line in lines:
        word = line.strip()
        word = word.lower() if word.isascii() else fold(word)  # folding ASCII is lowering: skip the work
        if not word or word.startswith("#"):
            continue
        if word.isascii() and word.isalpha():
            words.add(word)
        else:
            skipped += 1
    if not words:
        raise LexiconError(f"word list {path} holds no a-z words")
    return sorted(words), skipped


# -- the cache --------------------------------------------------------------------------


def read_offensive(spec: str) -> frozenset[str]:
    """The offensive words a spec's graphs leave out (`files.offensive_path`): none for a path or a
    spec with the offensive mark."""
    path = offensive_path(spec)
    if path is None:
        return frozenset()
    try:
        return frozenset(path.read_text("ascii").split())
    except (OSError, UnicodeDecodeError) as error:
        raise LexiconError(f"cannot read the offensive words {path}: {error}") from None


def split_words(words: list[str], offensive: frozenset[str]) -> tuple[list[str], list[str]]:
    """(the words the graphs hold, the offensive ones among `words`), both sorted."""
    return [word for word in words if word not in offensive], [word for word in words if word in offensive]


def write_arrays(spec: str, directory: Path) -> None:
    """Build a word list's arrays (all its words, offensive ones aside unless the spec has the
    offensive mark) into `directory` unless they are there."""
    if not (directory / "skipped").is_file():
        words, skipped = read_words(source_path(spec)[1])
        _write_cache(directory, *split_words(words, read_offensive(spec)), skipped)


def _graph_from_dir(directory: Path, prefix: str) -> WordGraph:
    # np.asarray drops the memmap subclass: numba takes plain (read-only) arrays.
    return WordGraph(*(np.asarray(np.load(directory / f"{prefix}.{name}.npy", mmap_mode="r")) for name in ARRAY_NAMES))


def _write_cache(directory: Path, words: list[str], offensive: list[str], skipped: int) -> None:
    """Build everything into a temporary folder, then rename it into place (atomic): the graphs
    and trie of `words`, and the `offensive` words (valid, in no graph) in offensive.txt."""
    import shutil  # cache builds only: a warm start need not import them
    import tempfile

    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=directory.parent, prefix=".build-"))
    try:
        marisa_trie.Trie(words).save(str(staging / "words.marisa"))
        for prefix, word_list in (("forward", words), ("reverse", sorted(w[::-1] for w in words))):
            for name, array in build_dawg(word_list).items():
                np.save(staging / f"{prefix}.{name}.npy", array)
        if offensive:
            (staging / "offensive.txt").write_text("".join(f"{word}\n" for word in offensive))
        (staging / "skipped").write_text(str(skipped))  # written last: the folder is complete
        staging.rename(directory)
    except OSError:
        if not (directory / "skipped").is_file():
            raise
    finally:  # another process won the race, or the build failed: no half-built folder stays
        shutil.rmtree(staging, ignore_errors=True)


# Called as notice(what is built, estimated seconds) around every cold build; the CLI installs
# one that shows a spinner on a terminal. None: build silently.
BuildNotice = Callable[[str, float], AbstractContextManager]
_build_notice: BuildNotice | None = None


def set_build_notice(notice: BuildNotice | None) -> None:
    """Set the function told when a word list's arrays must be built (a cold cache: seconds), or None for
    silence; the command line shows it on a terminal.
    """
    global _build_notice
    _build_notice = notice


def estimated_build_seconds(path: Path) -> float:
    """Rough cold-build time: about 3.5 s per MB of gzipped word list (en: 0.7 MB, fr: 1 MB) on
    the benchmark machine; a plain-text list is about four times its gzipped size."""
    with path.open("rb") as file:
        is_gzip = file.read(2) == b"\x1f\x8b"
    size = path.stat().st_size
    return 0.5 + 3.5 * (size if is_gzip else size / 4) / 1e6


def with_level(spec: str, max_level: int | None) -> tuple[str, int | None]:
    """The list and level a (spec, max_level) pair names: 'en@50' is ('en', 50), 'en@50+offensive'
    is ('en+offensive', 50)."""
    name, level = split_level(spec)
    if level is not None and max_level is not None and level != max_level:
        raise LexiconError(f"lexicon {spec} asked for at level {max_level}")
    return name, level if level is not None else max_level


def load_lexicon(spec: str = "en", max_level: int | None = None) -> Lexicon:
    """Load a lexicon by name ('en', 'fr', 'en@50') or path, building the cache on first use.

    `max_level` (or a name's '@LEVEL') limits an English list to SCOWL sizes <= that level
    (35/50/60/70/80; 50 and below are common words). A shipped list's offensive words are valid
    but in no graph, unless the name ends in the offensive mark ('en+offensive'; module
    docstring). A path names a word list of one word a line (plain or .gz). The first load of a
    list builds its arrays (seconds) into `cache_root()`; later loads map them (milliseconds).
    LexiconError for an unknown name, an unreadable file or a bad level.
    """
    spec, max_level = with_level(spec, max_level)
    if max_level is not None and max_level not in LEVELS:
        raise LexiconError(f"vocabulary level must be one of {LEVELS}, got {max_level}")
    name, path = source_path(spec)
    started = time.perf_counter()
    offensive_words = read_offensive(spec)
    directory = arrays_dir(cache_key(path, max_level, offensive_path(spec)))
    timings: dict[str, float] = {}
    label = name if max_level is None else f"{name}@{max_level}"
    label += OFFENSIVE_MARK if split_offensive(spec)[1] else ""
    if not (directory / "skipped").is_file():
        with (_build_notice or _silent)(f"the {label} word-list arrays", estimated_build_seconds(path)):
            words, skipped = read_words(path, max_level)
            kept, offensive = split_words(words, offensive_words)
            try:
                _write_cache(directory, kept, offensive, skipped)
            except OSError as error:  # no cache to be had: build it in memory, for this process
                cache_unwritable(error)
                lexicon = _in_memory(label, kept, offensive, skipped, timings)
                timings["cold_build_s"] = timings["load_s"] = time.perf_counter() - started
                return lexicon
        timings["cold_build_s"] = time.perf_counter() - started
    trie = marisa_trie.Trie()
    trie.mmap(str(directory / "words.marisa"))
    lexicon = Lexicon(
        name=label,
        trie=trie,
        forward=_graph_from_dir(directory, "forward"),
        reverse=_graph_from_dir(directory, "reverse"),
        skipped=int((directory / "skipped").read_text()),
        timings=timings,
        offensive=_offensive_in(directory),
    )
    timings["load_s"] = time.perf_counter() - started
    return lexicon


def _offensive_in(directory: Path) -> frozenset[str]:
    """The offensive words a cache folder's graphs leave out (none when it has no offensive.txt)."""
    path = directory / "offensive.txt"
    return frozenset(path.read_text("ascii").split()) if path.is_file() else frozenset()


def _in_memory(label: str, words: list[str], offensive: list[str], skipped: int, timings: dict[str, float]) -> Lexicon:
    """The lexicon `load_lexicon` would map from the cache, built in memory: the same arrays,
    read-only as the mapped ones are (the kernels are compiled for read-only word graphs)."""

    def graph(word_list: list[str]) -> WordGraph:
        arrays = build_dawg(word_list)
        for array in arrays.values():
            array.setflags(write=False)
        return WordGraph(*(arrays[name] for name in ARRAY_NAMES))

    reverse = sorted(word[::-1] for word in words)
    return Lexicon(label, marisa_trie.Trie(words), graph(words), graph(reverse), skipped, timings, frozenset(offensive))


def _silent(what: str, seconds: float) -> AbstractContextManager:
    return nullcontext()


_LOADED: dict[tuple[str, int | None], Lexicon] = {}


def get_lexicon(spec: str = "en", max_level: int | None = None) -> Lexicon:
    """`load_lexicon`, memoised per process (bots and batch runs share one copy)."""
    key = with_level(spec, max_level)  # 'en@50' and ('en', 50) are one list
    if key not in _LOADED:
        _LOADED[key] = load_lexicon(*key)
    return _LOADED[key]
