"""Word lists: the shipped `en` / `fr` lexicons and user files, loaded into a marisa-trie and
minimal DAWGs stored as flat arrays (`dawg` documents the layout), cached on disk (`loader`;
where the caches live: `files`, importable without numpy)."""

from __future__ import annotations

from solver.core.lazy import lazy_exports

_LAZY = {
    name: "solver.lexicon.loader"
    for name in ("LEVELS", "SHIPPED", "Lexicon", "LexiconError", "WordGraph", "get_lexicon", "load_lexicon")
}

__getattr__ = lazy_exports(__name__, _LAZY)

__all__ = list(_LAZY)
