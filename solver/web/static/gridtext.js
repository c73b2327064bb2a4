// The grid in words, for the screen reader: positions, a row or a column, the words, where a
// letter is, what a change placed or picked up. Cells are the board's Map "row,col" -> letter.
//
// Positions are said as the player types them: row and column numbers, the board's own
// coordinates plus one, so the first tile typed on an empty board is at row 1, column 1 (a grid
// built up or left of it reaches 0 and below). docs/ACCESSIBILITY.md documents the notation.

import { parseKey } from "./cells.js";
import { t, tCount } from "./i18n.js";

const SPOKEN = 1; // the board's (0, 0) is said "row 1, column 1"

/** The board's coordinate of a number the player says or types. */
export const fromSpoken = (number) => number - SPOKEN;

/** "row 3, column 5". */
export const position = (row, col) => t("at_position", { row: row + SPOKEN, col: col + SPOKEN });

const cellsOf = (cells) => [...cells].map(([cell, letter]) => {
  const [row, col] = parseKey(cell);
  return { row, col, letter };
});

/** The runs of consecutive tiles along one line: [{from, to, letters}], by position. */
function runs(line) {
  const sorted = [...line].sort((a, b) => a.at - b.at);
  const found = [];
  for (const { at, letter } of sorted) {
    const last = found[found.length - 1];
    if (last && last.to === at - 1) {
      last.to = at;
      last.letters += letter;
    } else found.push({ from: at, to: at, letters: letter });
  }
  return found;
}

/** One row ("row") or column ("col") of the grid read out: its runs of letters and where they are. */
export function readLine(cells, axis, number) {
  const across = axis === "row";
  const line = cellsOf(cells).filter((c) => (across ? c.row : c.col) === number)
    .map((c) => ({ at: across ? c.col : c.row, letter: c.letter }));
  const name = t(across ? "line_row" : "line_col", { number: number + SPOKEN });
  if (!line.length) return t("line_empty", { line: name });
  const parts = runs(line).map((run) => t(run.from === run.to ? "run_one" : "run_many", {
    letters: run.letters, from: run.from + SPOKEN, to: run.to + SPOKEN,
    unit: t(across ? (run.from === run.to ? "unit_col" : "unit_cols") : (run.from === run.to ? "unit_row" : "unit_rows")),
  }));
  return t("listed", { what: name, items: parts.join(t("list_sep")) });
}

/** Every row of the grid, top to bottom (an empty grid says so). */
export function readGrid(cells) {
  if (!cells.size) return t("grid_empty");
  const rows = [...new Set(cellsOf(cells).map((c) => c.row))].sort((a, b) => a - b);
  return rows.map((row) => readLine(cells, "row", row)).join(" ");
}

/** The grid's words (runs of two or more letters): [{word, row, col, across}]. */
export function wordsOf(cells) {
  const all = cellsOf(cells);
  const words = [];
  for (const across of [true, false]) {
    const lines = new Map();
    for (const c of all) {
      const line = across ? c.row : c.col;
      if (!lines.has(line)) lines.set(line, []);
      lines.get(line).push({ at: across ? c.col : c.row, letter: c.letter });
    }
    for (const [line, letters] of lines) {
      for (const run of runs(letters)) {
        if (run.letters.length < 2) continue;
        words.push({ word: run.letters, row: across ? line : run.from, col: across ? run.from : line, across });
      }
    }
  }
  return words;
}

/** The words read out, each with where it starts; those the spellcheck refused said so. */
export function readWords(cells, badWords = []) {
  const words = wordsOf(cells);
  if (!words.length) return t("no_words");
  const bad = new Set(badWords);
  const said = words.map((w) => t(bad.has(w.word) ? "word_at_bad" : "word_at", {
    word: w.word, direction: t(w.across ? "hint_across" : "hint_down"), at: position(w.row, w.col),
  }));
  return t("listed", { what: t(words.length === 1 ? "words_one" : "words_count", { count: words.length }), items: said.join(t("list_sep")) });
}

/** Where a letter is: each cell holding it, and how many are in the rack. */
export function whereLetter(cells, rackLetters, letter) {
  const places = cellsOf(cells).filter((c) => c.letter === letter).map((c) => position(c.row, c.col));
  const inRack = rackLetters.filter((l) => l === letter).length;
  const grid = places.length ? t("where_grid", { letter, places: places.join(t("list_sep")) }) : t("where_not_grid", { letter });
  return `${grid} ${t("where_rack", { count: inRack })}`;
}

/** The rack read out: its size and its letters in alphabetical order. */
export function readRack(rackLetters) {
  if (!rackLetters.length) return t("rack_empty");
  return tCount("rack_read", rackLetters.length, { letters: [...rackLetters].sort().join(" ") });
}

/** "hint_across" or "hint_down" when sorted `cells` (two or more) are consecutive in a row or a column. */
function lineOf(cells) {
  if (cells.length < 2) return null;
  const next = (step) => cells.every((c, i) => !i || (c.row === cells[0].row + i * step[0] && c.col === cells[0].col + i * step[1]));
  return next([0, 1]) ? "hint_across" : next([1, 0]) ? "hint_down" : null;
}

/** What went from `before` to `after` (two cell Maps): placed and picked-up tiles, in one line. */
export function describeChange(before, after) {
  const placed = cellsOf(after).filter((c) => before.get(`${c.row},${c.col}`) !== c.letter);
  const lifted = cellsOf(before).filter((c) => after.get(`${c.row},${c.col}`) !== c.letter);
  const say = (list) => {
    list.sort((a, b) => a.row - b.row || a.col - b.col);
    const line = lineOf(list);
    if (line) return t("tiles_line", { letters: list.map((c) => c.letter).join(""), direction: t(line), at: position(list[0].row, list[0].col) });
    return list.map((c) => t("tile_at", { letter: c.letter, at: position(c.row, c.col) })).join(t("list_sep"));
  };
  if (!after.size && before.size > 1) return t("said_recalled", { count: before.size });
  const parts = [];
  if (placed.length) parts.push(t("said_placed", { tiles: say(placed) }));
  if (lifted.length) parts.push(t("said_lifted", { tiles: say(lifted) }));
  return parts.join(" ");
}
