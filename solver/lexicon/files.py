"""Where word lists and their caches live, and the cache key: the part of loading a lexicon that
needs neither numpy nor marisa-trie (the numpy-free `bananas solve` path, `solver.search.bare`,
maps the cached arrays itself). `solver.lexicon.loader` builds and loads the caches.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

CACHE_FORMAT = 4


def shipped_dir() -> Path:
    """Where the shipped word lists are: $BANANAS_LEXICONS if set; else the package data of an
    installed wheel or sdist; else (a source checkout on sys.path) the repository's lexicons/."""
    override = os.environ.get("BANANAS_LEXICONS")
    if override:
        return Path(override)
    # Installed packages sit on the file system (wheels are unpacked): the data is beside this
    # file (importlib.resources would say the same, for some 15 ms of import a solve need not pay).
    packaged = Path(__file__).with_name("data")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "lexicons"


SHIPPED_DIR = shipped_dir()
SHIPPED = ("en", "fr")
LEVELS = (35, 50, 60, 70, 80)


LEVELLED = ("en",)  # the shipped lists with a levels file (lexicons/README.md)
LEVEL_SEPARATOR = "@"
# A shipped list's name followed by this keeps its offensive words in the word graphs too
# ('en+offensive', 'en@50+offensive'); without it, no search lays or suggests them.
OFFENSIVE_MARK = "+offensive"


class LexiconError(ValueError):
    """A word list that cannot be found, read or used."""


def split_level(spec: str) -> tuple[str, int | None]:
    """A lexicon spec and its vocabulary level: 'en@50' -> ('en', 50), the words of SCOWL size
    50 or less (the common ones; the name `Lexicon.name` gives such a list); any other spec ->
    (spec, None). Only a shipped name takes a level, so a path holding '@' is still a path.
    LexiconError for a level that is not one of LEVELS, or a list that has no levels.
    The offensive mark stays with the name: 'en@50+offensive' -> ('en+offensive', 50)."""
    base, offensive = split_offensive(spec)
    name, separator, level = base.rpartition(LEVEL_SEPARATOR)
    if not separator or name not in SHIPPED:
        return spec, None
    if name not in LEVELLED:
        raise LexiconError(f"the {name} word list has no vocabulary levels (only {', '.join(LEVELLED)} has)")
    levels = ", ".join(map(str, LEVELS))
    if not (level.isascii() and level.isdigit() and int(level) in LEVELS):
        raise LexiconError(f"vocabulary level must be one of {levels} ({name}@50: common words), got {level!r}")
    return name + (OFFENSIVE_MARK if offensive else ""), int(level)


def split_offensive(spec: str) -> tuple[str, bool]:
    """A spec without its offensive mark, and whether it had one: 'en+offensive' -> ('en', True),
    'en@50+offensive' -> ('en@50', True), 'en' -> ('en', False). Only a shipped list takes the
    mark (a path ending in it is a path)."""
    base = spec.removesuffix(OFFENSIVE_MARK)
    if base != spec and base.partition(LEVEL_SEPARATOR)[0] in SHIPPED:
        return base, True
    return spec, False


def with_offensive(spec: str, allow: bool) -> str:
    """`spec` with the offensive mark when `allow` and it names a shipped list, else `spec` as it is."""
    base, marked = split_offensive(spec)
    shipped = base.partition(LEVEL_SEPARATOR)[0] in SHIPPED
    return base + OFFENSIVE_MARK if (allow or marked) and shipped else spec


def language_of(spec: str) -> str | None:
    """The shipped list a spec names, without level or mark ('en@50+offensive' -> 'en'), or None for a path."""
    name = split_offensive(spec)[0].partition(LEVEL_SEPARATOR)[0]
    return name if name in SHIPPED else None


def offensive_path(spec: str) -> Path | None:
    """The offensive words of a shipped list the word graphs leave out (lexicons/<name>.offensive.txt,
    built by scripts/build_offensive.py), or None: a path, or a spec with the offensive mark."""
    base, offensive = split_offensive(spec)
    name = base.partition(LEVEL_SEPARATOR)[0]
    if offensive or name not in SHIPPED:
        return None
    return SHIPPED_DIR / f"{name}.offensive.txt"


def source_path(spec: str) -> tuple[str, Path]:
    """(name, file) of a lexicon named 'en' / 'fr' (with or without the offensive mark) or given
    by path; LexiconError if unusable."""
    spec = split_offensive(spec)[0]
    if spec in SHIPPED:
        path = SHIPPED_DIR / f"{spec}.txt.gz"
        if not path.is_file():
            raise LexiconError(f"shipped lexicon {spec!r} is missing at {path}")
        return spec, path
    path = Path(spec)
    try:
        if path.is_dir():
            raise LexiconError(f"lexicon {spec!r} is a directory, not a word-list file")
        if not path.is_file():
            raise LexiconError(f"no lexicon named {spec!r} and no such file (names: {', '.join(SHIPPED)})")
        from solver.core.limits import MAX_WORD_LIST_BYTES  # a user's file only: dataclasses' import spared

        if path.stat().st_size > MAX_WORD_LIST_BYTES:
            raise LexiconError(f"word list {spec} is larger than {MAX_WORD_LIST_BYTES >> 20} MiB")
    except (OSError, ValueError) as error:  # a name too long for the filesystem, a NUL byte
        if isinstance(error, LexiconError):
            raise
        raise LexiconError(f"no lexicon named {spec[:60]!r}: {error}") from None
    return path.name, path


def cache_root() -> Path:
    """The folder of the on-disk caches: $BANANAS_CACHE, else ~/.cache/bananas (a Path; not created here)."""
    return Path(os.environ.get("BANANAS_CACHE", Path.home() / ".cache" / "bananas"))


_WARNED: set[str] = set()


def cache_unwritable(error: OSError) -> None:
    """Say once per process, on one stderr line, that the cache cannot be written and the work
    is done without it (a read-only home, a BANANAS_CACHE that is a file, a full disk): the
    caller then carries on in memory. Nothing fails for want of a cache."""
    if "cache" in _WARNED:
        return
    _WARNED.add("cache")
    reason = error.strerror or str(error)
    where = error.filename or cache_root()
    sys.stderr.write(
        f"bananas: warning: cannot write the cache at {where} ({reason}); working without it "
        "(set BANANAS_CACHE to a writable folder to keep it)\n"
    )


COMMON_LEVEL = 50  # SCOWL sizes up to this one are the common words: their obscure ones are left out


def obscure_path(path: Path, max_level: int | None) -> Path | None:
    """The words a common-word list (`max_level` <= COMMON_LEVEL) of the list at `path` leaves
    out, rare in use though SCOWL counts them common (lexicons/en.obscure.txt, built by
    scripts/build_obscure.py), when the list has such a file; else None."""
    if max_level is None or max_level > COMMON_LEVEL:
        return None
    obscure = path.with_name(path.name.replace(".txt.gz", ".obscure.txt"))
    return obscure if obscure != path and obscure.is_file() else None


def cache_key(path: Path, max_level: int | None, offensive: Path | None = None) -> str:
    """The cache folder's name for a word list: its bytes (and levels), the level, the format, and
    the offensive words its graphs leave out (`offensive_path`; None: none left out)."""
    try:
        digest = hashlib.sha256(path.read_bytes())
        if max_level is not None:  # the levels file decides which words are in
            levels_path = path.with_name(path.name.replace(".txt.gz", ".levels.gz"))
            digest.update(levels_path.read_bytes() if levels_path.is_file() else b"")
            obscure = obscure_path(path, max_level)
            digest.update(b"|obscure=" + (obscure.read_bytes() if obscure is not None else b""))
        if offensive is not None:
            digest.update(b"|offensive=" + offensive.read_bytes())
    except OSError as error:
        raise LexiconError(f"cannot read word list {error.filename or path}: {error.strerror or error}") from None
    digest.update(f"|level={max_level}|format={CACHE_FORMAT}".encode())
    return digest.hexdigest()[:24]


# What the package's build made ahead of time (solver.search.prebuilt): <key>/ as in the cache.
PREBUILT_ARRAYS = Path(__file__).with_name("arrays")


def prebuilt_wanted() -> bool:
    """False when BANANAS_PREBUILT=0: what the install built is ignored (the cache serves)."""
    return os.environ.get("BANANAS_PREBUILT", "1") != "0"


def arrays_dir(key: str) -> Path:
    """Where a word list's arrays are: built into the package at install, else the cache."""
    prebuilt = PREBUILT_ARRAYS / key
    if prebuilt_wanted() and (prebuilt / "skipped").is_file():
        return prebuilt
    return cache_root() / key


def arrays_key(spec: str) -> str:
    """The folder name of a word list's arrays (all its words, offensive ones aside unless the
    spec has the offensive mark), in the cache or the package."""
    return cache_key(source_path(spec)[1], None, offensive_path(spec))
