"""Why a move is refused: one reason, said the same way by every front-end.

Each game's engine is the one judge of its moves (`solver.play.hand.Hand.call_error` for
Bananagrams calls, `solver.play.spellevate.RoundState.move_error` for Spellevate plays). A
`Refusal` is the English reason itself (a `str`, so it reads and prints as one) that also
carries a stable `code` and the `params` the reason names, for a front-end to say it in
another language (the browser's `static/i18n.js`) or to answer with a code of its own.
"""

from __future__ import annotations


class Refusal(str):
    """The reason a move is refused: its English text, with `code` and `params`."""

    code: str
    params: dict

    def __new__(cls, code: str, message: str, params: dict | None = None) -> Refusal:
        refusal = super().__new__(cls, message)
        refusal.code = code
        refusal.params = dict(params or {})
        return refusal

    @property
    def message(self) -> str:
        """The English sentence (the string itself); front-ends translate `code` instead."""
        return str(self)
