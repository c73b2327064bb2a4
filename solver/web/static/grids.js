// Small pictures of grids: the players' thumbnails, the end screen's, the review's and the replay's.

import { t } from "./i18n.js";

/** A small picture of a grid: `rows` of letters, "#" (a tile, letter hidden) and ".". */
export function miniGrid(rows, badCells = [], className = "mini") {
  const grid = document.createElement("div");
  grid.className = className;
  if (!rows) return grid;
  const bad = new Set(badCells.map(([row, col]) => `${row},${col}`));
  grid.style.gridTemplateColumns = `repeat(${rows[0].length}, var(--cell))`;
  grid.style.setProperty("--columns", rows[0].length); // a wide grid's cells shrink to fit a phone
  grid.style.setProperty("--rows", rows.length); // a thumbnail's cells fill its box
  rows.forEach((row, r) => {
    [...row].forEach((letter, c) => {
      const cell = document.createElement("span");
      cell.className = letter === "." ? "empty" : bad.has(`${r},${c}`) ? "tile bad" : "tile";
      // A thumbnail's 4-5 px cells show the grid's shape: letters there are black blobs.
      cell.textContent = letter === "." || letter === "#" || className === "thumb" ? "" : letter;
      grid.append(cell);
    });
  });
  return grid;
}

/** A captioned grid ("no grid" when there is none). */
export function figureOf(rows, caption, bad = []) {
  const figure = document.createElement("figure");
  const text = document.createElement("figcaption");
  text.textContent = caption;
  figure.append(rows && rows.length ? miniGrid(rows, bad) : document.createTextNode(t("no_grid")), text);
  return figure;
}
