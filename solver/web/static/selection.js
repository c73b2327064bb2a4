// Moving many tiles at once. A group of grid tiles is chosen with a box (dragged on empty
// space, or stretched from the cursor with Shift+arrows), tile by tile (Shift+click, a tap in
// select mode, Shift+Space) or as the word under the cursor (Space); a drag of one of its tiles
// or the arrows move it all. A move lands whole or not at all: it is refused, and said why,
// where it would cover a tile outside the group or leave the grid's bounds. One tile moved onto
// another swaps the two. board.js calls these from its pointer and key handlers; what happens
// is said through the board's onSay (a move's line stands for the grid's change) and onNotice.

import { CELL, DRAG_START, MAX_COORD, boardTile, key, parseKey } from "./cells.js";
import { position } from "./gridtext.js";
import { t, tCount } from "./i18n.js";

const ARROWS = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };

// -- the model: pure functions of the cells (a Map "row,col" -> letter) --------------------------

/** The keys of the tiles inside the rectangle whose corners are cells `a` and `b`. */
export function tilesInBox(cells, a, b) {
  const [top, bottom] = [Math.min(a.row, b.row), Math.max(a.row, b.row)];
  const [left, right] = [Math.min(a.col, b.col), Math.max(a.col, b.col)];
  return new Set([...cells.keys()].filter((cell) => {
    const [row, col] = parseKey(cell);
    return row >= top && row <= bottom && col >= left && col <= right;
  }));
}

/** The keys of the run of tiles through (row, col) along `direction`: a word, or the lone tile. */
export function wordThrough(cells, row, col, direction) {
  const [dr, dc] = direction === "down" ? [1, 0] : [0, 1];
  const found = new Set();
  let [r, c] = [row, col];
  while (cells.has(key(r - dr, c - dc))) [r, c] = [r - dr, c - dc];
  for (; cells.has(key(r, c)); r += dr, c += dc) found.add(key(r, c));
  return found;
}

/** Why the `chosen` tiles cannot move by (dr, dc): {reason: "bounds"}, {reason: "overlap", row,
 * col, letter} (the first tile in the way), or null when they can. A lone tile onto another is a
 * swap, not an overlap. */
export function moveRefusal(cells, chosen, dr, dc) {
  for (const cell of chosen) {
    const [row, col] = parseKey(cell);
    const [r, c] = [row + dr, col + dc];
    if (Math.abs(r) > MAX_COORD || Math.abs(c) > MAX_COORD) return { reason: "bounds" };
    const target = key(r, c);
    if (chosen.size > 1 && cells.has(target) && !chosen.has(target)) {
      return { reason: "overlap", row: r, col: c, letter: cells.get(target) };
    }
  }
  return null;
}

/** Move the `chosen` tiles by (dr, dc) in `cells` (moveRefusal found nothing against it); a lone
 * tile landing on another swaps with it. The moved tiles' keys. */
export function shiftCells(cells, chosen, dr, dc) {
  const moving = [...chosen].map((cell) => [cell, cells.get(cell)]);
  for (const [cell] of moving) cells.delete(cell);
  const moved = new Set();
  for (const [cell, letter] of moving) {
    const [row, col] = parseKey(cell);
    const target = key(row + dr, col + dc);
    const occupant = cells.get(target);
    if (occupant) cells.set(cell, occupant);
    cells.set(target, letter);
    moved.add(target);
  }
  return moved;
}

/** The chosen tiles in reading order (top to bottom, left to right): [{row, col, letter}]. */
function inOrder(cells, chosen) {
  return [...chosen].map((cell) => {
    const [row, col] = parseKey(cell);
    return { row, col, letter: cells.get(cell) };
  }).sort((a, b) => a.row - b.row || a.col - b.col);
}

const lettersOf = (cells, chosen) => inOrder(cells, chosen).map((tile) => tile.letter).join("");

// -- what is said ---------------------------------------------------------------------------------

/** "2 rows down, 1 column left". */
function offsetText(dr, dc) {
  const parts = [];
  if (dr) parts.push(tCount(dr > 0 ? "rows_down" : "rows_up", Math.abs(dr)));
  if (dc) parts.push(tCount(dc > 0 ? "cols_right" : "cols_left", Math.abs(dc)));
  return parts.join(", ");
}

function sayChosen(board) {
  const text = board.group.size ?
    tCount("group_selected", board.group.size, { letters: lettersOf(board.cells, board.group) }) : t("group_none");
  board.onSay(text, false);
}

function sayRefusal(board, refusal) {
  if (refusal.reason === "bounds") board.onNotice("group_bounds", {});
  else board.onNotice("group_overlap", { letter: refusal.letter, at: position(refusal.row, refusal.col) });
}

// -- moves ----------------------------------------------------------------------------------------

/** Move the `chosen` tiles by (dr, dc), or say why not: true when they moved. The group moves
 * with its tiles; the grid goes to the server once, whole. */
export function moveChosen(board, chosen, dr, dc) {
  if (!dr && !dc) return false;
  const refusal = moveRefusal(board.cells, chosen, dr, dc);
  if (refusal) {
    sayRefusal(board, refusal);
    return false;
  }
  const [first] = inOrder(board.cells, chosen);
  const target = key(first.row + dr, first.col + dc);
  const occupant = chosen.size === 1 ? board.cells.get(target) : undefined;
  const letters = lettersOf(board.cells, chosen);
  const moved = shiftCells(board.cells, chosen, dr, dc);
  if (chosen === board.group) board.group = moved;
  board.groupAnchor = null;
  board.box = null;
  board.changed();
  const [start] = inOrder(board.cells, moved);
  board.onSay(occupant ? t("swapped", {
    a: first.letter, at_a: position(start.row, start.col), b: occupant, at_b: position(first.row, first.col),
  }) : t("group_moved", { letters, offset: offsetText(dr, dc), at: position(start.row, start.col) }), true);
  return true;
}

/** The group's tiles back to the rack. */
function liftChosen(board) {
  for (const cell of board.group) board.pickUp(...parseKey(cell));
  clearGroup(board);
  board.changed();
}

export function clearGroup(board) {
  board.group = new Set();
  board.groupAnchor = null;
  board.box = null;
  board.preview = null;
}

/** A tile in or out of the group. */
export function toggleTile(board, cell) {
  if (!board.cells.has(cell)) return;
  if (board.group.has(cell)) board.group.delete(cell);
  else board.group.add(cell);
  board.groupAnchor = null;
  board.box = null;
  board.render();
  sayChosen(board);
}

// -- the keyboard ---------------------------------------------------------------------------------

const plain = (event) => !event.altKey && !event.ctrlKey && !event.metaKey;

/** The group's keys on the grid: true when `event` was one of them (board.key does the rest).
 * Shift+arrows stretch a box from the cursor; Space takes the word under the cursor, Shift+Space
 * one tile; with a group, the arrows move it, Delete sends it to the rack, Escape lets it go. */
export function groupKey(board, event) {
  const arrow = ARROWS[event.key];
  if (!plain(event)) return false;
  if (arrow && event.shiftKey) stretchBox(board, ...arrow);
  else if (arrow && board.group.size) moveGroupByKey(board, ...arrow);
  else if (event.key === " ") chooseUnderCursor(board, event.shiftKey);
  else if (event.key === "Escape" && (board.group.size || board.groupAnchor)) {
    clearGroup(board);
    board.render();
    sayChosen(board);
  } else if (event.key === "Delete" && board.group.size) liftChosen(board);
  else return false;
  event.preventDefault();
  return true;
}

/** Shift+arrow: the cursor moves and the group is every tile in the box from where it started. */
function stretchBox(board, dr, dc) {
  if (!board.cursor) board.cursor = { row: 0, col: 0 };
  else {
    if (!board.groupAnchor) board.groupAnchor = { ...board.cursor };
    board.cursor = { row: board.cursor.row + dr, col: board.cursor.col + dc };
  }
  board.groupAnchor ??= { ...board.cursor };
  board.box = { from: board.groupAnchor, to: board.cursor };
  board.group = tilesInBox(board.cells, board.groupAnchor, board.cursor);
  board.follow();
  board.render();
  board.onCursor();
  sayChosen(board);
}

function moveGroupByKey(board, dr, dc) {
  if (!moveChosen(board, board.group, dr, dc) || !board.cursor) return;
  board.cursor = { row: board.cursor.row + dr, col: board.cursor.col + dc }; // the cursor rides along
  board.follow();
  board.render();
  board.onCursor();
}

/** Space: the word through the cursor's tile in the cursor's direction; Shift+Space: that tile
 * in or out of the group. */
function chooseUnderCursor(board, oneTile) {
  const cursor = board.cursor;
  if (!cursor || !board.cells.has(key(cursor.row, cursor.col))) {
    board.onNotice("group_no_tile", {});
    return;
  }
  if (oneTile) {
    toggleTile(board, key(cursor.row, cursor.col));
    return;
  }
  board.group = wordThrough(board.cells, cursor.row, cursor.col, board.direction);
  board.groupAnchor = null;
  board.box = null;
  board.render();
  sayChosen(board);
}

// -- the pointer ----------------------------------------------------------------------------------

/** A press on the board that chooses or moves a group: true when it was one (board.boardDown
 * does the rest). Shift+click a tile: in or out of the group; press a grouped tile: drag the
 * group; press empty space with a mouse, or in select mode: draw a box. */
export function groupDown(board, event, tile) {
  const cell = board.cellAt(event.clientX, event.clientY);
  if (tile) {
    const at = key(Number(tile.dataset.row), Number(tile.dataset.col));
    if (event.shiftKey) toggleTile(board, at);
    else if (board.group.has(at)) board.startPress(event, { kind: "group", cell: at, from: cell });
    else {
      if (!board.selectMode && board.group.size) clearGroup(board);
      return false;
    }
    return true;
  }
  if (!cell || !(board.selectMode || event.pointerType === "mouse")) return false;
  board.startPress(event, { kind: "box", from: cell, to: cell, adding: event.shiftKey });
  return true;
}

/** A box stretched, or a group dragged (its landing place shown, refused or not): true when the
 * press was the group's. */
export function groupMove(board, event) {
  const press = board.press;
  if (!press || press.id !== event.pointerId || (press.kind !== "box" && press.kind !== "group")) return false;
  if (!press.dragging && Math.hypot(event.clientX - press.x, event.clientY - press.y) <= DRAG_START) return true;
  press.dragging = true;
  const cell = board.cellAt(event.clientX, event.clientY);
  if (press.kind === "box") {
    if (cell) press.to = cell;
    board.box = { from: press.from, to: press.to };
  } else if (cell && press.from) {
    const [dr, dc] = [cell.row - press.from.row, cell.col - press.from.col];
    board.preview = { dr, dc, refused: Boolean(moveRefusal(board.cells, board.group, dr, dc)) };
  } else board.preview = null; // off the board: over the rack, the group goes back to it
  board.render();
  return true;
}

/** The end of a group's press: a box chooses its tiles (a click without a drag is the board's
 * tap on empty space), a dragged group lands (on the rack: back to the rack), a tap on a grouped
 * tile takes it out (select mode) or is the board's tap on a tile. True when the press was the group's. */
export function groupUp(board, event) {
  const press = board.press;
  if (!press || press.id !== event.pointerId || (press.kind !== "box" && press.kind !== "group")) return false;
  board.finishPress(event);
  board.box = null;
  board.preview = null;
  if (press.kind === "box") {
    if (!press.dragging) board.tapEmpty(press.from.row, press.from.col);
    else {
      const boxed = tilesInBox(board.cells, press.from, press.to);
      board.group = press.adding ? new Set([...board.group, ...boxed]) : boxed;
      board.render();
      sayChosen(board);
    }
    return true;
  }
  const cell = board.cellAt(event.clientX, event.clientY);
  if (!press.dragging) tapGrouped(board, press.cell);
  else if (cell && press.from) moveChosen(board, board.group, cell.row - press.from.row, cell.col - press.from.col);
  else if (board.overRack(event)) liftChosen(board);
  board.render();
  return true;
}

function tapGrouped(board, cell) {
  if (board.selectMode) toggleTile(board, cell);
  else {
    clearGroup(board);
    board.tapPlaced(...parseKey(cell));
  }
}

// -- drawing --------------------------------------------------------------------------------------

/** What the board's layer shows of the group: the box being drawn, and where a dragged group
 * would land (marked refused where it cannot). */
export function groupOverlay(board) {
  const shown = [];
  if (board.box) {
    const { from, to } = board.box;
    const box = document.createElement("div");
    box.className = "select-box";
    box.style.left = `${Math.min(from.col, to.col) * CELL}px`;
    box.style.top = `${Math.min(from.row, to.row) * CELL}px`;
    box.style.width = `${(Math.abs(from.col - to.col) + 1) * CELL}px`;
    box.style.height = `${(Math.abs(from.row - to.row) + 1) * CELL}px`;
    shown.push(box);
  }
  const preview = board.preview;
  if (preview && (preview.dr || preview.dc)) {
    for (const cell of board.group) {
      const [row, col] = parseKey(cell);
      const className = `tile landing${preview.refused ? " refused" : ""}`;
      shown.push(boardTile(key(row + preview.dr, col + preview.dc), board.cells.get(cell), className));
    }
  }
  return shown;
}
