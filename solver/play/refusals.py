"""Why a move is refused: one reason, said the same way by every front-end.

Each game's engine is the one judge of its moves (`solver.play.hand.Hand.call_error` for
Bananagrams calls, `solver.play.spellevate.RoundState.move_error` for Spellevate plays). A
`Refusal` is the English reason itself (a `str`, so it reads and prints as one) that also
carries a stable `code` and the `params` the reason names, for a front-end to say it in
another language (the browser's `static/i18n.js`) or to answer with a code of its own.
"""

from __future__ import annotations

from typing import Literal

# Why the rules refuse a Bananagrams call (`Hand.call_error`).
CallRefusal = Literal[
    "hand_over",
    "out_of_hand",
    "no_peel",
    "no_dump",
    "bunch_too_small",
    "rack_not_empty",
    "not_your_tile",
    "bananas_too_early",
]
# Why the rules refuse a Spellevate play (`RoundState.move_error`).
PlayRefusal = Literal[
    "round_over",
    "not_your_turn",
    "leader_must_play",
    "not_in_hand",
    "too_many_tiles",
    "too_short",
    "not_a_word",
    "letter_too_early",
    "table_holds_a_letter",
    "wrong_length",
    "word_too_early",
]
# Why a room refuses a person a hint (`solver.web.bananagrams_table`).
HintRefusal = Literal["hints_off", "hint_busy", "hint_limit"]
RefusalCode = CallRefusal | PlayRefusal | HintRefusal


class Refusal(str):
    """The reason a move is refused: its English text, with `code` and `params`."""

    code: RefusalCode
    params: dict

    def __new__(cls, code: RefusalCode, message: str, params: dict | None = None) -> Refusal:
        refusal = super().__new__(cls, message)
        refusal.code = code
        refusal.params = dict(params or {})
        return refusal

    @property
    def message(self) -> str:
        """The English sentence (the string itself); front-ends translate `code` instead."""
        return str(self)
