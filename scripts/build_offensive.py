#!/usr/bin/env python3
"""Build the offensive-word lists lexicons/en.offensive.txt and lexicons/fr.offensive.txt.

    python scripts/build_offensive.py                     # fetch the packages, rewrite the lists
    python scripts/build_offensive.py --source-dir DIR    # use the packages already in DIR
    python scripts/build_offensive.py --check             # rebuild and compare (exit 1 if not the same)

Each list holds the words of a shipped word list that bots, hints, reviews and the solver's
default never lay or suggest (`solver.lexicon.loader`): the words of LDNOOBW (npm package
`naughty-words`, CC-BY-4.0) changed by the project's lexicons/offensive.project.txt, with their
forms. English forms are the word with a suffix (s, es, ed, er, ers, ing, y...) that the
English list holds; French forms are every form the Hunspell dictionary of the French list
(npm package `dictionary-fr`) makes of an entry that is an offensive word. A `*root` line of
the project file adds every word that contains the root.

Standard library only, plus npm when fetching; the shipped word lists must be built already.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_lexicons as lexicons  # noqa: E402  (the French expansion and the package helpers)

NAUGHTY_VERSION = "1.2.0"
NAUGHTY_FILE = f"naughty-words-{NAUGHTY_VERSION}.tgz"
NAUGHTY_SHA256 = "c34b05e10a97ec7b9e0c3dd91d09888187c0f08d0812eaea79679795585b217e"

LEXICON_DIR = lexicons.LEXICON_DIR
PROJECT_FILE = LEXICON_DIR / "offensive.project.txt"
LANGUAGES = ("en", "fr")
OUTPUT_FILES = ("en.offensive.txt", "fr.offensive.txt", "offensive.LICENSE")

ENGLISH_SUFFIXES = ("s", "es", "ed", "d", "er", "ers", "ing", "ings", "y", "ies", "ier", "iest", "ier", "head", "heads")
FRENCH_SUFFIXES = ("s", "e", "es", "x")  # forms of words the Hunspell entries do not hold

LICENSE_NOTE = """
----------------------------------------------------------------------
lexicons/en.offensive.txt and lexicons/fr.offensive.txt are derived from the
npm package naughty-words {version} (LDNOOBW, "List of Dirty, Naughty, Obscene and
Otherwise Bad Words", by Shutterstock and contributors), licensed CC-BY-4.0 above:
its en.json and fr.json words, changed by the project's lexicons/offensive.project.txt
(words added and words kept playable), with their forms as the shipped word lists hold
them, by scripts/build_offensive.py.
"""


class ProjectChanges:
    """One language's section of offensive.project.txt: words added, words kept (upstream words
    or forms the build made of another word), roots."""

    def __init__(self) -> None:
        self.added: set[str] = set()
        self.kept: set[str] = set()
        self.roots: set[str] = set()


def read_project(text: str) -> dict[str, ProjectChanges]:
    """The project file's sections by language; SystemExit on a line it cannot read."""
    sections = {language: ProjectChanges() for language in LANGUAGES}
    current: ProjectChanges | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]") and line[1:-1] in sections:
            current = sections[line[1:-1]]
            continue
        mark, word = line[0], line[1:]
        if current is None or mark not in "+-*" or not lexicons.A_TO_Z.fullmatch(word):
            sys.exit(f"{PROJECT_FILE.name}:{number}: cannot read {raw!r}")
        {"+": current.added, "-": current.kept, "*": current.roots}[mark].add(word)
    return sections


def upstream_words(tgz: bytes, language: str) -> set[str]:
    """The single words of the package's list for `language`, folded to a-z."""
    entries = json.loads(lexicons.tar_files(tgz, "package/")[f"{language}.json"])
    folded = (lexicons.fold_french(entry.lower()) for entry in entries)
    return {word for word in folded if word and lexicons.A_TO_Z.fullmatch(word)}


def english_forms(word: str, listed: set[str]) -> set[str]:
    """The word and its suffixed forms that the English list holds (a final e dropped, a last
    consonant doubled, a final y turned to i, as English spells them)."""
    stems = {word, word + word[-1]}
    if word.endswith("e"):
        stems.add(word[:-1])
    if word.endswith("y"):
        stems.add(word[:-1] + "i")
    forms = {stem + suffix for stem in stems for suffix in ENGLISH_SUFFIXES} | {word}
    return forms & listed


def french_forms(words: set[str], dictionary: bytes, listed: set[str]) -> set[str]:
    """Every folded form of the Hunspell entries whose folded spelling is one of `words`, and the
    words with a plural or feminine ending, as far as the French list holds them."""
    files = lexicons.tar_files(dictionary, lexicons.FR_PACKAGE_DIR)
    encoding = lexicons.aff_encoding(files["index.aff"])
    aff = lexicons.parse_aff(files["index.aff"].decode(encoding))
    forms = {word + suffix for word in words for suffix in ("", *FRENCH_SUFFIXES)}
    for entry, flags in lexicons.french_entries(files["index.dic"].decode(encoding), aff):
        if lexicons.fold_french(entry) in words:
            forms.update(filter(None, map(lexicons.fold_french, lexicons.expand(entry, flags, aff))))
    return forms & listed


def shipped_words(language: str) -> set[str]:
    """The words of a shipped word list."""
    return set(gzip.decompress((LEXICON_DIR / f"{language}.txt.gz").read_bytes()).decode("ascii").split())


def build(source_dir: Path, out_dir: Path) -> None:
    """Write the two lists and the licence into `out_dir`, printing what each change caught."""
    naughty = lexicons.verified_bytes(source_dir / NAUGHTY_FILE, NAUGHTY_SHA256)
    dictionary = lexicons.verified_bytes(source_dir / lexicons.DICT_FR_FILE, lexicons.DICT_FR_SHA256)
    changes = read_project(PROJECT_FILE.read_text("utf-8"))
    out_dir.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        listed, change = shipped_words(language), changes[language]
        unknown = change.added - listed
        if unknown:
            sys.exit(f"{language}: {', '.join(sorted(unknown))}: added but not in the {language} word list")
        words = (upstream_words(naughty, language) - change.kept) | change.added
        if language == "en":
            blocked = set().union(*(english_forms(word, listed) for word in words))
        else:
            blocked = french_forms(words, dictionary, listed)
        for root in sorted(change.roots):
            caught = {word for word in listed if root in word}
            print(f"{language} *{root}: {' '.join(sorted(caught - blocked)) or '(nothing more)'}")
            blocked |= caught
        unused = change.kept - blocked - upstream_words(naughty, language)
        if unused:
            sys.exit(f"{language}: {', '.join(sorted(unused))}: kept, but neither upstream nor a form")
        blocked -= change.kept
        (out_dir / f"{language}.offensive.txt").write_text("".join(f"{word}\n" for word in sorted(blocked)))
        print(f"{language}: {len(blocked)} offensive words of {len(listed)}")
    licence = lexicons.tar_files(naughty, "package/")["LICENSE"]
    (out_dir / "offensive.LICENSE").write_bytes(licence + LICENSE_NOTE.format(version=NAUGHTY_VERSION).encode())


def fetch(dest: Path) -> None:
    """Download the two pinned npm packages into `dest`."""
    for package in (f"naughty-words@{NAUGHTY_VERSION}", f"dictionary-fr@{lexicons.DICT_FR_VERSION}"):
        command = ["npm", "pack", "--silent", package]
        print("$", " ".join(command), flush=True)
        if lexicons.subprocess.run(command, cwd=dest).returncode != 0:
            sys.exit(f"{' '.join(command)} failed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--source-dir", type=Path, metavar="DIR", help=f"use {NAUGHTY_FILE} and the French dictionary from DIR"
    )
    parser.add_argument("--check", action="store_true", help="rebuild into a temp dir and compare with lexicons/")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source_dir = args.source_dir
        if source_dir is None:
            source_dir = Path(tmp, "sources")
            source_dir.mkdir()
            fetch(source_dir)
        out_dir = Path(tmp, "out") if args.check else LEXICON_DIR
        build(source_dir, out_dir)
        if args.check:
            different = [
                name for name in OUTPUT_FILES if (out_dir / name).read_bytes() != (LEXICON_DIR / name).read_bytes()
            ]
            print("different: " + ", ".join(different) if different else "same")
            return 1 if different else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
