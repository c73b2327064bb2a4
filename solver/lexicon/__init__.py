"""Word lists: the shipped `en` / `fr` lexicons and user files, loaded into a marisa-trie and
minimal DAWGs stored as flat arrays (`dawg` documents the layout), cached on disk (`loader`)."""

from solver.lexicon.loader import (
    LEVELS,
    SHIPPED,
    Lexicon,
    LexiconError,
    WordGraph,
    get_lexicon,
    load_lexicon,
)

__all__ = ["LEVELS", "SHIPPED", "Lexicon", "LexiconError", "WordGraph", "get_lexicon", "load_lexicon"]
