"""Every code the server sends the page has its words in both of the page's languages.

The page says a server's code in its own language by a key built from the code
(`static/text.js`, `end.js`, `log.js`): `err_CODE` for a refused call or room message,
`sp_why_CODE` for a refused Spellevate play, `reason_CODE` and `why_CODE` for a hand's end,
`fault_CODE` for a grid's fault, `log_KIND` for a log entry. The codes are read from the
engine and the rooms themselves, so a new one fails here until `i18n_en.js` and `i18n_fr.js`
both say it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from solver.core.grid import Grid, Report, validate
from solver.play import events
from solver.play import spellevate_events as sp
from solver.play.refusals import HintRefusal
from solver.play.rules import END_REASONS, REFUSAL_CODES, WHY
from solver.play.spellevate import SPELLEVATE_REFUSALS
from solver.web.spellevate_table import LOG_KINDS

WEB = Path(__file__).resolve().parents[2] / "solver" / "web"
# `key: "words"`, the key bare or quoted; matching the words too keeps a colon in them from reading as a key
ENTRY = re.compile(r'(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*))\s*:\s*"(?:[^"\\]|\\.)*"')
# Room errors the page words otherwise: a refused play by its engine reason (`sp_why_`)
WORDED_OTHERWISE = {"bad_play"}
# Engine events a room's log leaves out (`BananagramsTable.log_entry`): the end and the grids say them
NOT_LOGGED = {events.INSPECTION, events.SNAPSHOT}


def page_keys(language: str) -> set[str]:
    text = (WEB / "static" / f"i18n_{language}.js").read_text(encoding="utf-8")
    text = re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)
    return {quoted or bare for quoted, bare in ENTRY.findall(text)}


def room_error_codes() -> set[str]:
    """The code of every `RoomError` the web layer raises (its first argument)."""
    codes = set()
    for path in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RoomError" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
    return codes


def fault_codes(en) -> set[str]:
    """The codes of a grid's faults, from grids that have each."""
    cat = Grid.from_rows(["CAT"])
    reports = [
        Report(empty=True),
        validate(Grid.from_rows(["CTA"]), en),  # not a word
        validate(Grid.from_rows(["CAT.DOG"]), en),  # not connected
        validate(cat, en, Grid.from_rows(["CATS"]).tiles()),  # a tile missing
        validate(cat, en, Grid.from_rows(["AT"]).tiles()),  # a tile extra
    ]
    return {fault["code"] for report in reports for fault in report.faults()}


def server_keys(en) -> set[str]:
    keys = {f"reason_{code}" for code in END_REASONS} | {f"why_{why}" for why in WHY}
    keys |= {f"err_{code}" for code in (*REFUSAL_CODES, *HintRefusal.__args__)}
    keys |= {f"err_{code}" for code in room_error_codes() - WORDED_OTHERWISE}
    keys |= {f"sp_why_{code}" for code in SPELLEVATE_REFUSALS}
    keys |= {f"fault_{code}" for code in fault_codes(en)}
    keys |= {f"log_{kind}" for kind in set(events.KINDS) - NOT_LOGGED}
    keys |= {f"log_{kind}" for kind in [*LOG_KINDS.values(), "sp_lead"]}
    return keys


def test_the_codes_are_read_from_the_server(en):
    keys = server_keys(en)
    assert {"reason_event_limit", "err_no_peel", "err_hint_limit", "sp_why_too_short", "log_sp_left"} <= keys
    assert {"err_not_host", "err_room_full", "fault_not_connected", "fault_extra"} <= keys
    assert not {key for key in keys if key.startswith("log_") and key[4:] in {sp.DEAL, sp.LEAD_DRAW}}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_server_code_has_words_in_the_page(language, en):
    missing = server_keys(en) - page_keys(language)
    assert not missing, f"i18n_{language}.js has no words for {sorted(missing)}"


def test_both_languages_say_the_same_reasons_the_engine_gives(en):
    """The page's English for a hand's end is the engine's own (`END_REASONS`)."""
    english = (WEB / "static" / "i18n_en.js").read_text(encoding="utf-8")
    for code, reason in END_REASONS.items():
        assert f'reason_{code}: "{reason}"' in english
