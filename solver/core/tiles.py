"""Tiles: letter codes, tile multisets and the shipped tile distributions.

Letters are coded 1..26 (a=1 .. z=26) everywhere a grid or kernel sees them, so that
0 can mean "empty cell". A multiset of tiles is a `TileCounts`: 26 counts, index 0 = A.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from solver.core.limits import MAX_COUNT_DIGITS, MAX_GAME_TILES, MAX_HAND_LETTERS, MAX_TILE_FILE_BYTES

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALPHABET_SIZE = 26
# Letters from hardest to easiest to place (English), in tiers of equal hardness (alphabetical
# within a tier): the one order of hardness the project uses. Bots dump the first letter of it,
# the search's move-ordering weights fall tier by tier along it, and the search's first word holds
# the hand's first letter in it. Z before X: the English list has one two-letter word with Z (ZA),
# five with X (AX, EX, OX, XI, XU); S last: it hooks onto almost any word.
HARDNESS_TIERS = ("Q", "JZ", "X", "V", "K", "W", "BCFGHMPY", "U", "ADEILNORT", "S")
HARD_FIRST = "".join(HARDNESS_TIERS)


LIGATURES = {"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss"}


def fold(word: str) -> str:
    """Lower case, accents stripped, ligatures spelled out: tiles carry no accents
    (docs/RULES.md lexicon.accents), so é is E and œ is OE. The one folding of both sides: the
    word lists are read through it (`solver.lexicon.loader.read_words`) and so are the letters
    a person types (`solver.cli.common.parse_hand`: ÉCOLE is the tiles ECOLE)."""
    for ligature, spelled in LIGATURES.items():
        word = word.replace(ligature, spelled)
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


class TileError(ValueError):
    """Bad tile input: unknown letters, malformed distribution, negative counts."""


# -- what a person types: letters and grid cells, accents folded ------------------------------
# The one reading of typed tiles, shared by every front-end: the command line's hands
# (`solver.cli.common.parse_hand`), the grids people type (`solver.core.grid.Grid.from_rows` with
# accents=True: the CLI's grid files, the solve API's grids) and the solve API's letters
# (`solver.web.solve_api`). The engine protocol stays strict: a program sends A-Z.


def fold_cell(char: str) -> str | None:
    """The tile (A-Z, upper case) one grid cell's character stands for, its accent folded as
    `fold` folds it (É is E, ç is C); None for anything else: a digit, a symbol, or a ligature
    (Œ is two tiles, OE: a cell holds one)."""
    folded = fold(char)  # lower case: 'ı'.upper() would be 'I', and 'ı' is no tile
    return folded.upper() if len(folded) == 1 and folded.isascii() and folded.isalpha() else None


def shown_characters(chars: Iterable[str]) -> str:
    """Characters of a refused input as a user can read them: each quoted, a printable one as
    itself (a backslash is one backslash, a space ' '), any other as its code ('\\x00', '\\x09'), and a
    byte that was not UTF-8 (a command line's surrogate escape) as that byte: '\\xff'."""
    shown = []
    for char in chars:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's escape of the byte code - 0xDC00
            text = f"\\x{code - 0xDC00:02x}"
        elif char.isprintable():  # a space too: ' '
            text = char
        elif code <= 0xFF:
            text = f"\\x{code:02x}"
        else:
            text = f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
        shown.append(f"'{text}'")
    return ", ".join(shown)


def typed_letters(text: str, most: int = MAX_GAME_TILES, name: str = "tiles", spaces: bool = True) -> str:
    """The tiles a person typed ('catmap', 'ÉCOLE', 'a e i') as upper-case A-Z: whitespace left
    out (unless `spaces` is False: then a space is a bad character), accents and ligatures
    folded (`fold`: É is E, Œ is OE), at most `most` letters (by default a double set, the most
    any game holds). TileError, naming the input `name`, for no letters, too many, or
    characters that are no letters (`shown_characters`)."""
    if len(text) > MAX_HAND_LETTERS:  # before folding: fold's work stays bounded
        raise TileError(f"{name}: {len(text)} characters, at most {most} letters")
    letters = "".join(text.split()) if spaces else text
    if not letters.isascii():
        letters = fold(letters)
    if not letters:
        raise TileError(f"{name}: no letters")
    if len(letters) > most:
        raise TileError(f"{name}: {len(letters)} letters, at most {most}")
    if not letters.isalpha() or not letters.isascii():
        bad = sorted({char for char in letters if not (char.isascii() and char.isalpha())})
        raise TileError(f"{name} holds characters other than the letters A-Z: {shown_characters(bad)}")
    return letters.upper()


def letter_code(letter: str) -> int:
    """Code 1..26 of a letter (either case); TileError for anything else."""
    upper = letter.upper() if letter.isascii() else ""  # 'ſ'.upper() is 'S': not a tile
    if len(upper) != 1 or upper not in ALPHABET:
        raise TileError(f"not a tile letter: {letter!r} (tiles are A-Z)")
    return ord(upper) - ord("A") + 1


class TileCounts:
    """A multiset of tiles: how many of each letter A-Z.

    Immutable in spirit: the arithmetic returns new objects. `counts` is a read-only
    int64 array of length 26 (index 0 = A), the form the numba kernels take.
    """

    __slots__ = ("_counts", "_total")

    def __init__(self, counts: Iterable[int] | np.ndarray | None = None):
        array = np.zeros(ALPHABET_SIZE, dtype=np.int64) if counts is None else np.array(counts, dtype=np.int64)
        if array.shape != (ALPHABET_SIZE,):
            raise TileError("a tile multiset has exactly 26 counts")
        if (array < 0).any():
            raise TileError("tile counts cannot be negative")
        array.setflags(write=False)
        self._counts = array

    @classmethod
    def _trusted(cls, array: np.ndarray, total: int | None = None) -> TileCounts:
        """Wrap an int64[26] array known to be non-negative and not shared (no checks, no copy):
        the arithmetic's results, on the hot paths of the rooms and the search. `total`, when the
        caller knows it, is the tile count (`len` then sums nothing)."""
        counts = cls.__new__(cls)
        array.setflags(write=False)
        counts._counts = array
        if total is not None:
            counts._total = total
        return counts

    # -- construction -------------------------------------------------------------
    @classmethod
    def of(cls, tiles: TileCounts | str) -> TileCounts:
        """`tiles` itself, or the tiles of a string of letters (`from_letters`): what every API
        that takes tiles accepts, so that `solve("AEIRST")` and `formable_words("AEIRST")` work."""
        return cls.from_letters(tiles) if isinstance(tiles, str) else tiles

    @classmethod
    def from_letters(cls, letters: str) -> TileCounts:
        """Tiles from a string of letters such as 'AEEIRSTQU' (case and spaces ignored); TileError for
        anything but the letters A-Z."""
        if letters.isascii() and letters.isalpha():  # the common case, counted in one pass
            codes = np.frombuffer(letters.upper().encode(), dtype=np.uint8)  # the bytes 65..90
            by_byte = np.bincount(codes, minlength=ord("Z") + 1)
            return cls._trusted(by_byte[ord("A") :].astype(np.int64, copy=False), len(letters))
        counts = np.zeros(ALPHABET_SIZE, dtype=np.int64)
        for letter in letters:
            if letter.isspace():
                continue
            counts[letter_code(letter) - 1] += 1
        return cls._trusted(counts)

    @classmethod
    def parse(cls, text: str) -> TileCounts:
        """Tiles from a name, letters or an inline distribution: `parse_tiles` (never a file)."""
        return parse_tiles(text)

    # -- views --------------------------------------------------------------------
    @property
    def counts(self) -> np.ndarray:
        """The 26 counts as a numpy int array, index 0 = A (the array itself: do not modify it)."""
        return self._counts

    def __getitem__(self, letter: str) -> int:
        return int(self._counts[letter_code(letter) - 1])

    def __len__(self) -> int:
        try:
            return self._total
        except AttributeError:  # counted once: the counts never change
            self._total: int = int(self._counts.sum())
            return self._total

    def __iter__(self) -> Iterator[str]:
        """Letters in alphabetical order, each repeated by its count."""
        for index, count in enumerate(self._counts):
            yield from ALPHABET[index] * int(count)

    def letters(self) -> str:
        """The tiles as a string in alphabetical order, each letter repeated by its count ('AACMPT')."""
        return "".join(self)

    def distribution(self) -> str:
        """The 'A13,B3,...' form (letters with a zero count left out)."""
        return ",".join(f"{ALPHABET[i]}{int(c)}" for i, c in enumerate(self._counts) if c)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TileCounts) and bool((self._counts == other._counts).all())

    def __hash__(self) -> int:
        return hash(self._counts.tobytes())

    def __repr__(self) -> str:
        return f"TileCounts({self.letters()!r})"

    # -- arithmetic ---------------------------------------------------------------
    def __add__(self, other: TileCounts) -> TileCounts:
        return TileCounts._trusted(self._counts + other._counts)

    def __sub__(self, other: TileCounts) -> TileCounts:
        difference = self._counts - other._counts
        if (difference < 0).any():
            raise TileError(f"cannot take {other.letters()} out of {self.letters()}")
        return TileCounts._trusted(difference)

    def contains(self, other: TileCounts) -> bool:
        """True when `other` is a sub-multiset of these tiles."""
        return bool((other._counts <= self._counts).all())


SPEC_SEPARATORS = ",;"  # between distribution entries, besides whitespace


def parse_distribution(text: str) -> TileCounts:
    """Parse 'A13,B3,C3' (commas, semicolons, spaces or newlines between entries; 'A:13' and
    'A=13' too; letters any case).

    Each letter may appear once and every count must be positive (at most 9999): a
    user-supplied distribution is validated rather than silently merged. The parse is one
    linear pass with no regular expression, so its time is proportional to the text.
    """
    for separator in SPEC_SEPARATORS:
        text = text.replace(separator, " ")
    entries = text.split()
    if not entries:
        raise TileError("empty tile distribution")
    counts = np.zeros(ALPHABET_SIZE, dtype=np.int64)
    for entry in entries:
        letter, count = _distribution_entry(entry)
        code = letter_code(letter)
        if counts[code - 1]:
            raise TileError(f"letter {letter.upper()} given twice in the distribution")
        if count <= 0:
            raise TileError(f"count for {letter.upper()} must be positive, got {count}")
        counts[code - 1] = count
    return TileCounts(counts)


def _distribution_entry(entry: str) -> tuple[str, int]:
    """'A13', 'A:13' or 'A=13' -> ('A', 13); TileError for anything else."""
    letter, digits = entry[:1], entry[1:]
    if digits[:1] in (":", "="):
        digits = digits[1:]
    if not (letter.isascii() and letter.isalpha() and digits.isascii() and digits.isdigit()):
        raise TileError(f"bad distribution entry {_shown(entry)}: {_entry_fault(letter, digits)}")
    if len(digits.lstrip("0")) > MAX_COUNT_DIGITS:
        raise TileError(f"bad distribution entry {_shown(entry)}: a count is at most {'9' * MAX_COUNT_DIGITS}")
    return letter, int(digits)


def _entry_fault(letter: str, digits: str) -> str:
    """What is wrong with a distribution entry (a letter, then its count): the first character
    out of place, named, then what an entry is."""
    form = "an entry is a letter and its count, e.g. A13 (plain letters, e.g. CAT, are tiles)"
    if not (letter.isascii() and letter.isalpha()):
        return f"it starts with {shown_characters(letter)}, not a letter: {form}"
    if not digits:
        return f"no count after {letter.upper()}: {form}"
    count = "".join(itertools.takewhile(lambda char: char.isascii() and char.isdigit(), digits))
    wrong = shown_characters(digits[len(count)])
    if not count:
        return f"{wrong} where the count of {letter.upper()} should be: {form}"
    return f"{wrong} after the count {count}: {form}"


def _shown(text: str, limit: int = 20) -> str:
    """A piece of user input for an error message, cut short."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# The official English 144-tile set.
ENGLISH = parse_distribution("A13,B3,C3,D6,E18,F3,G4,H3,I12,J2,K2,L5,M3,N8,O11,P3,Q2,R9,S6,T9,U6,V3,W3,X2,Y3,Z2")
# Unofficial, derived: no per-letter counts of the French edition are published. French
# Scrabble counts x 1.44, rare letters floored at 2, adjusted to total 144.
FRENCH = parse_distribution("A13,B3,C3,D4,E21,F3,G3,H3,I11,J2,K2,L7,M4,N9,O8,P3,Q2,R8,S8,T8,U8,V3,W2,X2,Y2,Z2")
DISTRIBUTIONS = {"en": ENGLISH, "fr": FRENCH}
DISTRIBUTION_NOTES = {"en": "official English 144-tile set", "fr": "unofficial, derived (French Scrabble x 1.44)"}


# -- tile specs: "letters or a distribution?" -----------------------------------------
# One reading everywhere (CLI --tiles/--bunch, the protocol's distribution option):
#   name     en, fr: a shipped distribution
#   letters  CATMAP: exactly these tiles (where plain letters are allowed)
#   inline   A13,B3,...: a distribution written out
#   file     anything else: a path to a file holding letters or a distribution
# `parse_tiles` reads the first three and never touches the filesystem (the network-safe
# reader); `load_tiles` also reads files (local use only).


def spec_kind(spec: str, letters: bool = True) -> str:
    """Which of name / letters / inline / file `spec` is (see above). With letters=False a
    word that is not a shipped name is taken for a file name."""
    text = spec.strip()
    if text in DISTRIBUTIONS:
        return "name"
    if not text.isascii():
        folded = fold(text[:MAX_HAND_LETTERS])  # accented letters are letters (ÉCOLE), as a hand's
        if not (letters and folded.isascii() and len(text) <= MAX_HAND_LETTERS):
            return "file"
        text = folded
    if letters and all(char.isalpha() or char.isspace() for char in text) and any(map(str.isalpha, text)):
        return "letters"
    inline_chars = all(char.isalnum() or char.isspace() or char in SPEC_SEPARATORS + ":=" for char in text)
    if inline_chars and any(map(str.isdigit, text)):
        return "inline"
    return "file"


def parse_tiles(spec: str, max_tiles: int | None = None, letters: bool = True) -> TileCounts:
    """Tiles from a name (en, fr), plain letters (when `letters`) or an inline distribution.
    Never reads a file: a spec of the file kind is an error. `max_tiles` bounds the total."""
    kind = spec_kind(spec, letters)
    if kind == "name":
        tiles = DISTRIBUTIONS[spec.strip()]
    elif kind == "letters":
        count = len(spec) - sum(map(str.isspace, spec))
        if max_tiles is not None and count > max_tiles:
            raise TileError(f"{count} letters, at most {max_tiles}")  # as `typed_letters` says it
        tiles = TileCounts.from_letters(spec if spec.isascii() else fold(spec))
    elif kind == "inline":
        tiles = parse_distribution(spec)
    else:
        wanted = "en, fr, letters or 'A13,B3,...'" if letters else "en, fr or 'A13,B3,...'"
        raise TileError(f"unknown tiles {_shown(spec)}: give {wanted}")
    if max_tiles is not None and len(tiles) > max_tiles:
        raise TileError(f"{len(tiles)} tiles, at most {max_tiles}")
    return tiles


def load_tiles(spec: str, max_tiles: int | None = None, letters: bool = True) -> TileCounts:
    """`parse_tiles`, or, for a spec of the file kind, the tiles in that file (letters or a
    distribution; '#' lines are comments). For local use: network input goes to `parse_tiles`."""
    if spec_kind(spec, letters) != "file":
        return parse_tiles(spec, max_tiles, letters)
    path = Path(spec)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):  # a name too long for the filesystem, a NUL byte
        is_file = False
    if not is_file:
        raise TileError(f"unknown distribution {_shown(spec, 60)}: give en, fr, 'A13,B3,...' or a file")
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_TILE_FILE_BYTES + 1)
        if len(data) > MAX_TILE_FILE_BYTES:
            raise TileError(f"tile file {spec} is larger than {MAX_TILE_FILE_BYTES // 1024} KB")
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise TileError(f"cannot read tile file {spec}: {error}") from None
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    if not text.strip():
        raise TileError(f"empty tile distribution in {spec}")
    kind = spec_kind(text, letters)
    if kind not in ("letters", "inline"):
        return parse_distribution(text)  # its error names the bad entry
    return parse_tiles(text, max_tiles, letters)


def load_distribution(spec: str) -> TileCounts:
    """A distribution by name, inline or from a file (`load_tiles` without plain letters)."""
    return load_tiles(spec, letters=False)


def draw(bag: TileCounts, count: int, rng: np.random.Generator) -> TileCounts:
    """Draw `count` tiles uniformly without replacement from `bag` (seeded by `rng`)."""
    if count > len(bag):
        raise TileError(f"cannot draw {count} tiles from a bag of {len(bag)}")
    pool = np.repeat(np.arange(ALPHABET_SIZE), bag.counts)
    chosen = rng.choice(pool, size=count, replace=False)
    return TileCounts(np.bincount(chosen, minlength=ALPHABET_SIZE))
