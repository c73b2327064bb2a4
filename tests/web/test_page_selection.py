"""The model of moving many tiles at once (solver/web/static/selection.js), run in node: which
tiles a box and a word take, which moves are refused (a tile outside the group in the way, the
grid's bounds the server holds to) and what a move or a swap leaves. The browser tests play it
with real gestures (test_browser_move.py); these cover the cases one by one, in a second."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import node_json

from solver.core.limits import MAX_PAGE_COORD

STATIC = Path(__file__).resolve().parents[2] / "solver" / "web" / "static"

# Q U I Z on row 0 from column 0, U P down from (0, 1), a lone A at (0, 6).
SCRIPT = """
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => null };
const s = await import(%(selection)s);
const i18n = await import(%(i18n)s);
const grid = () => new Map([["0,0","Q"],["0,1","U"],["0,2","I"],["0,3","Z"],["1,1","P"],["0,6","A"]]);
const sorted = (set) => [...set].sort();
const after = (chosen, dr, dc) => { const cells = grid(); const moved = s.shiftCells(cells, new Set(chosen), dr, dc);
  return { cells: Object.fromEntries([...cells].sort()), moved: sorted(moved) }; };
const edge = %(edge)s;
/** What a move says in `language`: [line, key] said or noticed (a refusal's key and values filled in). */
const said = (language, chosen, dr, dc) => {
  i18n.setLanguage(language);
  const heard = [];
  const board = { cells: grid(), group: new Set(), changed: () => {}, onSay: (text) => heard.push(text),
    onNotice: (key, values) => heard.push(i18n.t(key, values)) };
  s.moveChosen(board, new Set(chosen), dr, dc);
  return heard;
};
console.log(JSON.stringify({
  saidEn: [said("en", ["0,0", "0,1", "0,2", "0,3"], 2, -1), said("en", ["0,0", "0,1", "0,2", "0,3"], 0, 3),
    said("en", ["0,3"], 0, -1)],
  saidFr: [said("fr", ["0,0", "0,1", "0,2", "0,3"], 2, -1), said("fr", ["0,0", "0,1", "0,2", "0,3"], 0, 3),
    said("fr", ["0,3"], 0, -1)],
  box: sorted(s.tilesInBox(grid(), {row: 1, col: 2}, {row: -1, col: 0})),
  across: sorted(s.wordThrough(grid(), 0, 2, "across")),
  down: sorted(s.wordThrough(grid(), 1, 1, "down")),
  lone: sorted(s.wordThrough(grid(), 0, 6, "down")),
  none: sorted(s.wordThrough(grid(), 5, 5, "across")),
  overlap: s.moveRefusal(grid(), new Set(["0,0", "0,1", "0,2", "0,3"]), 0, 3),
  alongItself: s.moveRefusal(grid(), new Set(["0,0", "0,1", "0,2", "0,3"]), 0, 1),
  swap: s.moveRefusal(grid(), new Set(["0,3"]), 0, -1),
  lastRow: s.moveRefusal(new Map([[`${edge - 1},0`, "A"]]), new Set([`${edge - 1},0`]), 1, 0),
  pastIt: s.moveRefusal(new Map([[`${edge},0`, "A"]]), new Set([`${edge},0`]), 1, 0),
  pastLeft: s.moveRefusal(new Map([[`0,${-edge}`, "A"]]), new Set([`0,${-edge}`]), 0, -1),
  shifted: after(["0,0", "0,1", "0,2", "0,3", "1,1"], 2, 1),
  swapped: after(["0,3"], 0, -1),
}));
"""


@pytest.fixture(scope="module")
def found():
    script = SCRIPT % {
        "selection": json.dumps(str(STATIC / "selection.js")),
        "i18n": json.dumps(str(STATIC / "i18n.js")),
        "edge": MAX_PAGE_COORD,
    }
    return node_json(script)


def test_a_box_takes_the_tiles_inside_it_and_a_word_its_run(found):
    assert found["box"] == ["0,0", "0,1", "0,2", "1,1"]  # corners in either order
    assert found["across"] == ["0,0", "0,1", "0,2", "0,3"]
    assert found["down"] == ["0,1", "1,1"]
    assert found["lone"] == ["0,6"] and found["none"] == []


def test_a_move_is_refused_onto_other_tiles_and_past_the_servers_bounds(found):
    assert found["overlap"] == {"reason": "overlap", "row": 0, "col": 6, "letter": "A"}
    assert found["alongItself"] is None  # the group's own cells are free for it
    assert found["swap"] is None  # one tile onto another swaps
    assert found["lastRow"] is None  # the server takes a cell at MAX_PAGE_COORD
    assert found["pastIt"] == {"reason": "bounds"} and found["pastLeft"] == {"reason": "bounds"}


def test_a_group_moves_whole_and_a_lone_tile_swaps(found):
    shifted = found["shifted"]
    assert shifted["cells"] == {"0,6": "A", "2,1": "Q", "2,2": "U", "2,3": "I", "2,4": "Z", "3,2": "P"}
    assert shifted["moved"] == ["2,1", "2,2", "2,3", "2,4", "3,2"]
    swapped = found["swapped"]
    assert swapped["cells"] == {"0,0": "Q", "0,1": "U", "0,2": "Z", "0,3": "I", "0,6": "A", "1,1": "P"}
    assert swapped["moved"] == ["0,2"]


def test_a_move_a_refusal_and_a_swap_are_said_in_english_and_in_french(found):
    assert found["saidEn"] == [
        ["Moved QUIZ 2 rows down, 1 column left, now from row 3, column 0."],
        ["Cannot move there: A at row 1, column 7 is in the way."],
        ["Swapped Z, now at row 1, column 3, and I, now at row 1, column 4."],
    ]
    assert found["saidFr"] == [
        ["QUIZ déplacé de 2 lignes vers le bas, 1 colonne vers la gauche, commence maintenant en ligne 3, colonne 0."],
        ["Déplacement impossible : le A en ligne 1, colonne 7 est sur le chemin."],
        ["Z et I intervertis : Z en ligne 1, colonne 3, I en ligne 1, colonne 4."],
    ]
