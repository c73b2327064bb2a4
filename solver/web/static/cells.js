// The board's cells: their keys ("row,col"), their size on screen, and how far the grid may
// reach (the server refuses a grid beyond it).

export const CELL = 40; // px per cell at zoom 1
export const DRAG_START = 6; // px a pointer moves before a press becomes a drag
export const MAX_COORD = 200; // the server's MAX_PAGE_COORD (solver.core.limits): cells from -200 to 200

export const key = (row, col) => `${row},${col}`;
export const parseKey = (text) => text.split(",").map(Number);

/** A tile on the board's layer at `cell` ("row,col"), positioned in board pixels. */
export function boardTile(cell, letter, className) {
  const [row, col] = parseKey(cell);
  const tile = document.createElement("div");
  tile.className = className;
  tile.dataset.row = row;
  tile.dataset.col = col;
  tile.textContent = letter;
  tile.style.left = `${col * CELL}px`;
  tile.style.top = `${row * CELL}px`;
  return tile;
}
