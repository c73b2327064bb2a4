"""The table's command field and the grid in words (solver/web/static/commands.js, gridtext.js),
run in node: the notation of docs/ACCESSIBILITY.md parsed in both languages, and what a row, the
words, a letter's places and a change are said as. The browser tests play them end to end
(test_browser_access.py); these cover the cases one by one, in a second."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import node_json

STATIC = Path(__file__).resolve().parents[2] / "solver" / "web" / "static"

SCRIPT = """
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => null };
const c = await import(%(commands)s);
const g = await import(%(gridtext)s);
const i18n = await import(%(i18n)s);
const cells = new Map([["0,0","Q"],["0,1","U"],["0,2","I"],["0,3","Z"],["1,1","P"],["0,6","A"]]);
console.log(JSON.stringify({
  parsed: %(lines)s.map(c.parseCommand),
  row: g.readLine(cells, "row", 0),
  col: g.readLine(cells, "col", 1),
  empty: g.readLine(cells, "row", 5),
  words: g.readWords(cells, ["UP"]),
  where: g.whereLetter(cells, ["U", "E"], "U"),
  laid: g.describeChange(new Map([["1,1","P"]]), new Map([["1,1","P"],["2,1","O"],["3,1","T"]])),
  moved: g.describeChange(new Map([["0,0","A"]]), new Map([["4,4","A"]])),
  loose: [[[2,0]], [[2,0],[3,0]]].map(loose => c.verdictText({invalid_words: ["AEE"], loose_cells: loose})),
  french: (() => { i18n.setLanguage("fr"); const said = {
    row: g.readLine(cells, "row", 0), words: g.readWords(cells, ["UP"]),
    bunch: [0, 1, 2].map(n => i18n.tCount("bunch_low", n)), help: c.helpText() };
    i18n.setLanguage("en"); return said; })(),
  help: c.helpText(),
  english: [0, 1, 2].map(n => i18n.tCount("bunch_low", n)),
}));
"""

LINES = [
    "QUIZ 3 5 down",
    "quiz 3 5",
    "été -1 0 v",
    "read row 3",
    "lire colonne 2",
    "read",
    "où q",
    "dump z",
    "échanger",
    "take 1 2",
    "take 1 2 down",
    "PEEL",
    "bananas",
    "frobnicate",
    "QUIZ 3 5 sideways",
    "read diagonal 2",
    "",
]


@pytest.fixture(scope="module")
def said():
    script = SCRIPT % {
        "commands": json.dumps(str(STATIC / "commands.js")),
        "gridtext": json.dumps(str(STATIC / "gridtext.js")),
        "i18n": json.dumps(str(STATIC / "i18n.js")),
        "lines": json.dumps(LINES),
    }
    return node_json(script)


def test_commands_parse_in_either_language_with_positions_counted_from_one(said):
    parsed = dict(zip(LINES, said["parsed"], strict=True))
    assert parsed["QUIZ 3 5 down"] == {"name": "place", "word": "QUIZ", "row": 2, "col": 4, "direction": "down"}
    assert parsed["quiz 3 5"]["direction"] == "across"  # across unless told
    assert parsed["été -1 0 v"] == {"name": "place", "word": "ETE", "row": -2, "col": -1, "direction": "down"}
    assert parsed["read row 3"] == {"name": "read", "axis": "row", "number": 2}
    assert parsed["lire colonne 2"] == {"name": "read", "axis": "col", "number": 1}
    assert parsed["read"] == {"name": "grid"}
    assert parsed["où q"] == {"name": "where", "letter": "Q"}
    assert parsed["dump z"] == {"name": "dump", "letter": "Z"}
    assert parsed["take 1 2"] == {"name": "take", "row": 0, "col": 1}
    assert parsed["take 1 2 down"]["word"] == "TAKE"  # a command's word laid: with its direction
    assert parsed["PEEL"] == {"name": "peel"} and parsed["bananas"] == {"name": "bananas"}
    assert parsed["échanger"] == {"error": "cmd_bad_dump"}
    assert parsed["frobnicate"] == {"error": "cmd_unknown"}
    assert parsed["QUIZ 3 5 sideways"] == {"error": "cmd_bad_place"}
    assert parsed["read diagonal 2"] == {"error": "cmd_bad_read"}
    assert parsed[""] == {"error": "cmd_empty"}


def test_the_grid_is_said_in_runs_words_and_places(said):
    assert said["row"] == "Row 1: QUIZ at columns 1 to 4; A at column 7."
    assert said["col"] == "Column 2: UP at rows 1 to 2."
    assert said["empty"] == "Row 6 is empty."
    assert said["words"] == "2 words: QUIZ across from row 1, column 1; UP down from row 1, column 2, not a word."
    assert said["where"] == "U on the grid at row 1, column 2. In the rack: 1."
    assert said["laid"] == "Placed OT down from row 3, column 2."
    assert said["moved"] == "Placed A at row 5, column 5. Picked up A at row 1, column 1."


def test_a_verdict_counts_loose_tiles_in_the_singular_and_the_plural(said):
    one, two = said["loose"]
    assert one == "Not words: AEE. 1 tile not connected to the grid."
    assert two == "Not words: AEE. 2 tiles not connected to the grid."


def test_french_is_said_with_its_own_punctuation_and_a_singular_zero(said):
    french = said["french"]
    assert french["row"] == "Ligne 1 : QUIZ en colonnes 1 à 4 ; A en colonne 7."
    assert french["words"].startswith("2 mots : QUIZ") and " ; UP " in french["words"]
    zero, one, two = french["bunch"]
    assert (zero, one) == ("Pioche : 0 tuile restante.", "Pioche : 1 tuile restante.")
    assert two == "Pioche : 2 tuiles restantes."
    assert said["english"] == ["Bunch: 0 tiles left.", "Bunch: 1 tile left.", "Bunch: 2 tiles left."]


def test_help_says_each_command_as_a_sentence_of_its_own(said):
    assert "peel: call PEEL (Alt+P). dump LETTER: DUMP a tile" in said["help"]
    assert "piocher : annoncer une pioche (Alt+P). " in said["french"]["help"]
    assert said["help"].endswith(".") and said["french"]["help"].endswith(".")
