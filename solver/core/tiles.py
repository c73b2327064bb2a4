"""Tiles: letter codes, tile multisets and the shipped tile distributions.

Letters are coded 1..26 (a=1 .. z=26) everywhere a grid or kernel sees them, so that
0 can mean "empty cell". A multiset of tiles is a `TileCounts`: 26 counts, index 0 = A.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALPHABET_SIZE = 26
# Letters from hardest to easiest to place (English), in tiers of equal hardness (alphabetical
# within a tier): the one order of hardness the project uses. Bots dump the first letter of it,
# the search's move-ordering weights fall tier by tier along it, and the search's first word holds
# the hand's first letter in it. Z before X: the English list has one two-letter word with Z (ZA),
# five with X (AX, EX, OX, XI, XU); S last: it hooks onto almost any word.
HARDNESS_TIERS = ("Q", "JZ", "X", "V", "K", "W", "BCFGHMPY", "U", "ADEILNORT", "S")
HARD_FIRST = "".join(HARDNESS_TIERS)


class TileError(ValueError):
    """Bad tile input: unknown letters, malformed distribution, negative counts."""


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

    __slots__ = ("_counts",)

    def __init__(self, counts: Iterable[int] | np.ndarray | None = None):
        array = np.zeros(ALPHABET_SIZE, dtype=np.int64) if counts is None else np.array(counts, dtype=np.int64)
        if array.shape != (ALPHABET_SIZE,):
            raise TileError("a tile multiset has exactly 26 counts")
        if (array < 0).any():
            raise TileError("tile counts cannot be negative")
        array.setflags(write=False)
        self._counts = array

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_letters(cls, letters: str) -> TileCounts:
        """Tiles from a string of letters such as 'AEEIRSTQU' (case and spaces ignored)."""
        counts = np.zeros(ALPHABET_SIZE, dtype=np.int64)
        for letter in letters:
            if letter.isspace():
                continue
            counts[letter_code(letter) - 1] += 1
        return cls(counts)

    @classmethod
    def parse(cls, text: str) -> TileCounts:
        """Tiles from letters ('CATS') or a distribution ('A13,B3,...'), see `parse_distribution`."""
        if re.search(r"\d", text):
            return parse_distribution(text)
        return cls.from_letters(text)

    # -- views --------------------------------------------------------------------
    @property
    def counts(self) -> np.ndarray:
        return self._counts

    def __getitem__(self, letter: str) -> int:
        return int(self._counts[letter_code(letter) - 1])

    def __len__(self) -> int:
        return int(self._counts.sum())

    def __iter__(self) -> Iterator[str]:
        """Letters in alphabetical order, each repeated by its count."""
        for index, count in enumerate(self._counts):
            yield from ALPHABET[index] * int(count)

    def letters(self) -> str:
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
        return TileCounts(self._counts + other._counts)

    def __sub__(self, other: TileCounts) -> TileCounts:
        difference = self._counts - other._counts
        if (difference < 0).any():
            raise TileError(f"cannot take {other.letters()} out of {self.letters()}")
        return TileCounts(difference)

    def contains(self, other: TileCounts) -> bool:
        """True when `other` is a sub-multiset of these tiles."""
        return bool((other._counts <= self._counts).all())


def parse_distribution(text: str) -> TileCounts:
    """Parse 'A13,B3,C3' (commas, spaces or newlines between entries; letters any case).

    Each letter may appear once and every count must be positive: a user-supplied
    distribution is validated rather than silently merged.
    """
    entries = [entry for entry in re.split(r"[,\s;]+", text.strip()) if entry]
    if not entries:
        raise TileError("empty tile distribution")
    counts = np.zeros(ALPHABET_SIZE, dtype=np.int64)
    for entry in entries:
        match = re.fullmatch(r"([A-Za-z])\s*[:=]?\s*(\d+)", entry)
        if not match:
            raise TileError(f"bad distribution entry {entry!r}: expected a letter and a count, e.g. A13")
        letter, count = match.group(1), int(match.group(2))
        code = letter_code(letter)
        if counts[code - 1]:
            raise TileError(f"letter {letter.upper()} given twice in the distribution")
        if count <= 0:
            raise TileError(f"count for {letter.upper()} must be positive, got {count}")
        counts[code - 1] = count
    return TileCounts(counts)


# The official English 144-tile set.
ENGLISH = parse_distribution("A13,B3,C3,D6,E18,F3,G4,H3,I12,J2,K2,L5,M3,N8,O11,P3,Q2,R9,S6,T9,U6,V3,W3,X2,Y3,Z2")
# Unofficial, derived: no per-letter counts of the French edition are published. French
# Scrabble counts x 1.44, rare letters floored at 2, adjusted to total 144.
FRENCH = parse_distribution("A13,B3,C3,D4,E21,F3,G3,H3,I11,J2,K2,L7,M4,N9,O8,P3,Q2,R8,S8,T8,U8,V3,W2,X2,Y2,Z2")
DISTRIBUTIONS = {"en": ENGLISH, "fr": FRENCH}
DISTRIBUTION_NOTES = {"en": "official English 144-tile set", "fr": "unofficial, derived (French Scrabble x 1.44)"}


def load_distribution(spec: str) -> TileCounts:
    """A distribution by name ('en', 'fr'), inline ('A13,B3,...') or from a file holding that form."""
    if spec in DISTRIBUTIONS:
        return DISTRIBUTIONS[spec]
    looks_like_path = "/" in spec or "\\" in spec or spec.endswith((".txt", ".tsv", ".csv"))
    if re.search(r"\d", spec) and not looks_like_path and not Path(spec).is_file():
        return parse_distribution(spec)
    path = Path(spec)
    if not path.is_file():
        raise TileError(f"unknown distribution {spec!r}: give en, fr, 'A13,B3,...' or a file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise TileError(f"cannot read distribution file {spec}: {error}") from None
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    return parse_distribution(text)


def draw(bag: TileCounts, count: int, rng: np.random.Generator) -> TileCounts:
    """Draw `count` tiles uniformly without replacement from `bag` (seeded by `rng`)."""
    if count > len(bag):
        raise TileError(f"cannot draw {count} tiles from a bag of {len(bag)}")
    pool = np.repeat(np.arange(ALPHABET_SIZE), bag.counts)
    chosen = rng.choice(pool, size=count, replace=False)
    return TileCounts(np.bincount(chosen, minlength=ALPHABET_SIZE))
