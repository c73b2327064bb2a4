"""Build lexicons/en.obscure.txt: the words of SCOWL's common sizes (levels 35 and 50 of
lexicons/en.levels.gz) that are rare in use, which en@35 and en@50 (the common-word lists the
hints, reviews and beginner bots draw on) leave out (lexicons/README.md, "Obscure words").

A word is rare when neither it nor any word of its family is: the family is the word, the
stems its suffixes leave (s, es, ed, ing, er, est, ly, ness, ier, iest...: AMORTIZING ->
AMORTIZE) that the list holds, and the same in American spelling (ise -> ize, our -> or, tre
-> ter, a doubled l single), so a plural or a British form of a common word stays common. Its
use is the family's highest Zipf frequency in the `wordfreq` package (3.1.1: its English data
ships inside the package, so the build runs offline), and below ZIPF_FLOOR it is obscure.
SCOWL puts JINRIKISHA (1.0), OAKUM (1.5) and AMORTIZE (1.8) at size 50; HOUSE is 5.7.

    pip install wordfreq==3.1.1
    python scripts/build_obscure.py           # rewrite lexicons/en.obscure.txt
    python scripts/build_obscure.py --check   # compare with the shipped file (exit 1 if not)
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

LEXICONS = Path(__file__).resolve().parents[1] / "lexicons"
WORDFREQ_VERSION = "3.1.1"
ZIPF_FLOOR = 2.0  # once in 10 million words: below it, a word and its family are obscure
COMMON_LEVELS = (35, 50)
SUFFIXES = (
    "s",
    "es",
    "ed",
    "d",
    "ing",
    "er",
    "ers",
    "est",
    "r",
    "st",
    "ly",
    "ness",
    "ies",
    "ied",
    "ier",
    "iest",
    "ily",
)
AMERICAN = (
    (re.compile(r"is(e|es|ed|ing|er|ers|ation|ations)$"), r"iz\1"),
    (re.compile(r"our"), "or"),
    (re.compile(r"tre(s?)$"), r"ter\1"),
    (re.compile(r"ll(ed|ing|er|ers)$"), r"l\1"),
)


def stems(word: str, known: set[str]) -> set[str]:
    """The word and the stems its suffixes leave that `known` holds."""
    found = {word}
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            candidates = {base, base + "e", base + "y" if suffix.startswith("i") else base}
            if base[-1] == base[-2]:
                candidates.add(base[:-1])  # a doubled consonant: RUNNING -> RUN
            found |= candidates & known
    return found


def family(word: str, known: set[str]) -> set[str]:
    """The word's stems, in its own spelling and in American spelling (module docstring)."""
    american = word
    for pattern, replacement in AMERICAN:
        american = pattern.sub(replacement, american)
    return stems(word, known) | {american} | stems(american, known)


def obscure_words(words: list[str], levels: list[int], zipf) -> list[str]:
    """The words of the common levels whose family's highest frequency (`zipf(word)`) is under
    ZIPF_FLOOR, sorted."""
    known = set(words)
    common = [word for word, level in zip(words, levels, strict=True) if level in COMMON_LEVELS]
    return sorted(word for word in common if max(zipf(stem) for stem in family(word, known)) < ZIPF_FLOOR)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    args = parser.parse_args()
    from importlib.metadata import PackageNotFoundError, version

    try:
        found_version = version("wordfreq")
    except PackageNotFoundError:
        found_version = None
    if found_version != WORDFREQ_VERSION:
        print(f"error: needs wordfreq {WORDFREQ_VERSION} (pip install wordfreq=={WORDFREQ_VERSION}),"
              f" found {found_version or 'none'}", file=sys.stderr)  # fmt: skip
        return 1
    import wordfreq

    words = gzip.decompress((LEXICONS / "en.txt.gz").read_bytes()).decode().split()
    levels = [int(level) for level in gzip.decompress((LEXICONS / "en.levels.gz").read_bytes()).split()]
    found = obscure_words(words, levels, lambda word: wordfreq.zipf_frequency(word, "en"))
    text = "".join(f"{word}\n" for word in found)
    target = LEXICONS / "en.obscure.txt"
    listed = set(found)
    by_level = {level: sum(1 for w, lv in zip(words, levels, strict=True) if lv == level and w in listed)
                for level in COMMON_LEVELS}  # fmt: skip
    print(f"{len(found)} obscure words ({', '.join(f'level {k}: {v}' for k, v in by_level.items())})")
    if args.check:
        same = target.is_file() and target.read_text() == text
        print("en.obscure.txt is up to date" if same else "error: en.obscure.txt differs from a rebuild")
        return 0 if same else 1
    target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
