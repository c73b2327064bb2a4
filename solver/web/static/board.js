// Your rack and your unbounded grid: placing tiles (drag, tap-tap, keyboard), panning and
// zooming. The board owns the local model (cells and rack); the server is told every change
// and stays the referee (it checks the grid against the tiles it dealt).

import { CELL, DRAG_START, boardTile, key, parseKey } from "./cells.js";
import * as group from "./selection.js";

const MIN_ZOOM = 0.35;
const MAX_ZOOM = 2.5;

const FOLLOW_MARGIN = 1; // cells kept between the cursor and the board's edge when the view follows it

const STEPS = { across: [0, 1], down: [1, 0] };

export function countLetters(letters) {
  const counts = new Map();
  for (const letter of letters) counts.set(letter, (counts.get(letter) || 0) + 1);
  return counts;
}

export class Board {
  constructor({ board, layer, rack, onChange, onNotice, onRender, onCursor, onSay }) {
    this.boardEl = board;
    this.layer = layer;
    this.rackEl = rack;
    this.onChange = onChange;
    this.onNotice = onNotice;
    this.onRender = onRender || (() => {});
    this.onCursor = onCursor || (() => {}); // the cursor moved by the keyboard or a tap: say where it is
    this.onSay = onSay || (() => {}); // (text, describesChange): a group chosen or moved, said (selection.js)
    this.cells = new Map(); // "row,col" -> letter
    this.rack = []; // [{id, letter, fresh}]
    this.nextId = 1;
    this.selected = null; // id of the selected rack tile
    this.cursor = null; // {row, col}: where typed letters go
    this.direction = "across";
    this.rackFocus = null; // id of the rack's one Tab stop (arrows move it)
    this.invalid = new Set();
    this.loose = new Set();
    this.hint = { lay: new Map(), lift: new Set() }; // a hint shown (setHint)
    this.enabled = false;
    this.zoom = matchMedia("(max-width: 600px)").matches ? 0.8 : 1; // a phone starts with room for long words
    this.pan = { x: 0, y: 0 };
    this.viewKey = null; // where the zoom and position are kept across a reload (set by the page)
    this.pointers = new Map(); // active pointers on the board (pinch zoom)
    this.press = null; // the current press: what it started on, where, whether it drags
    group.clearGroup(this); // grid tiles chosen to move together (selection.js): group, box, preview
    this.selectMode = false; // a drag on empty space draws a box and a tap chooses a tile, for touch too
    this.bind();
  }

  // -- the model ------------------------------------------------------------------------
  reset() {
    this.cells.clear();
    this.rack = [];
    this.selected = null;
    this.cursor = null;
    this.invalid.clear();
    this.loose.clear();
    this.hint = { lay: new Map(), lift: new Set() };
    group.clearGroup(this);
    this.centre();
  }

  /** A hint to show: the tiles to lay (ghost letters on empty cells) and those to pick up
   * first. It goes when the grid changes. */
  setHint(cells, lift) {
    this.hint = {
      lay: new Map(cells.map(([row, col, letter]) => [key(row, col), letter])),
      lift: new Set(lift.map(([row, col]) => key(row, col))),
    };
    this.fit(); // the grid and the hint, both in view
  }

  /** The server says which tiles you hold (grid + rack); `cells` restores the grid. */
  setHeld(held, cells) {
    const hadTiles = this.rack.length + this.cells.size > 0;
    if (cells) this.cells = new Map(cells.map(([row, col, letter]) => [key(row, col), letter]));
    const pool = countLetters(held);
    let gridChanged = false;
    for (const [cell, letter] of [...this.cells]) {
      if (pool.get(letter) > 0) pool.set(letter, pool.get(letter) - 1);
      else {
        this.cells.delete(cell); // a tile the server no longer gives you (a dump's race)
        gridChanged = true;
      }
    }
    const next = [];
    for (const tile of this.rack) {
      if (pool.get(tile.letter) > 0) {
        pool.set(tile.letter, pool.get(tile.letter) - 1);
        next.push({ ...tile, fresh: false });
      }
    }
    for (const [letter, count] of pool) {
      for (let i = 0; i < count; i++) next.push({ id: this.nextId++, letter, fresh: hadTiles });
    }
    this.revealFresh = next.some((tile) => tile.fresh); // new tiles brought into the rack's view
    this.rack = next;
    if (!this.rack.some((tile) => tile.id === this.selected)) this.selected = null;
    this.render();
    if (gridChanged) this.onChange();
  }

  setMarks(invalid, loose) {
    this.invalid = new Set(invalid.map(([row, col]) => key(row, col)));
    this.loose = new Set(loose.map(([row, col]) => key(row, col)));
    this.render();
  }

  cellList() {
    return [...this.cells].map(([cell, letter]) => [...parseKey(cell), letter]);
  }

  selectedTile() {
    return this.rack.find((tile) => tile.id === this.selected) || null;
  }

  changed() {
    this.invalid.clear(); // stale until the server's next check
    this.loose.clear();
    this.hint = { lay: new Map(), lift: new Set() }; // followed or not, the grid moved on
    this.render();
    this.onChange();
  }

  place(tileId, row, col) {
    const index = this.rack.findIndex((tile) => tile.id === tileId);
    if (index < 0) return false;
    const cell = key(row, col);
    const [tile] = this.rack.splice(index, 1);
    const occupant = this.cells.get(cell);
    if (occupant) this.rack.splice(index, 0, { id: this.nextId++, letter: occupant, fresh: false }); // a swap
    this.cells.set(cell, tile.letter);
    if (this.selected === tileId) this.selected = null;
    return true;
  }

  pickUp(row, col) {
    const cell = key(row, col);
    const letter = this.cells.get(cell);
    if (!letter) return;
    this.cells.delete(cell);
    this.rack.push({ id: this.nextId++, letter, fresh: false });
  }

  recallAll() {
    for (const cell of [...this.cells.keys()]) this.pickUp(...parseKey(cell));
    this.changed();
  }

  /** Lay `word` from (row, col) going `direction`, using the grid's letters where they match
   * and rack tiles elsewhere: all of it, or nothing. Returns null when laid, else why not:
   * {reason: "clash", row, col, letter} (another letter on the way), {reason: "missing", letters}
   * or {reason: "already"} (the word is on the grid). */
  layWord(word, row, col, direction) {
    const [dr, dc] = STEPS[direction];
    const cells = [...word].map((letter, i) => ({ row: row + i * dr, col: col + i * dc, letter }));
    const clash = cells.find((c) => this.cells.has(key(c.row, c.col)) && this.cells.get(key(c.row, c.col)) !== c.letter);
    if (clash) return { reason: "clash", row: clash.row, col: clash.col, letter: this.cells.get(key(clash.row, clash.col)) };
    const toLay = cells.filter((c) => !this.cells.has(key(c.row, c.col)));
    if (!toLay.length) return { reason: "already" };
    const pool = countLetters(this.rack.map((tile) => tile.letter));
    const missing = [];
    for (const { letter } of toLay) {
      if (pool.get(letter) > 0) pool.set(letter, pool.get(letter) - 1);
      else missing.push(letter);
    }
    if (missing.length) return { reason: "missing", letters: missing.join("") };
    for (const c of toLay) this.place(this.rack.find((tile) => tile.letter === c.letter).id, c.row, c.col);
    this.reveal(cells);
    this.changed();
    return null;
  }

  /** Pick up the tile at (row, col), if there is one: true when one was lifted. */
  lift(row, col) {
    if (!this.cells.has(key(row, col))) return false;
    this.pickUp(row, col);
    this.changed();
    return true;
  }

  /** Sort the rack: A to Z, or (`vowelsFirst`) the vowels first, each part A to Z. */
  sort(vowelsFirst) {
    const rank = (letter) => (vowelsFirst && "AEIOU".includes(letter) ? "0" : "1") + letter;
    this.rack.sort((a, b) => rank(a.letter).localeCompare(rank(b.letter)));
    this.render();
  }

  shuffle() {
    for (let i = this.rack.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [this.rack[i], this.rack[j]] = [this.rack[j], this.rack[i]];
    }
    this.render();
  }

  // -- view: pan and zoom -----------------------------------------------------------------
  /** The cells the view must show: the tiles, and a hint's tiles to lay. */
  shownCells() {
    return [...this.cells.keys(), ...[...this.hint.lay.keys()].filter((cell) => !this.cells.has(cell))];
  }

  centre() {
    const rect = this.boardEl.getBoundingClientRect();
    let top = 0, left = 0, bottom = 0, right = 0;
    const shown = this.shownCells();
    if (shown.length) {
      const cells = shown.map(parseKey);
      top = Math.min(...cells.map((c) => c[0]));
      bottom = Math.max(...cells.map((c) => c[0]));
      left = Math.min(...cells.map((c) => c[1]));
      right = Math.max(...cells.map((c) => c[1]));
    }
    const size = CELL * this.zoom;
    this.pan.x = Math.round(rect.width / 2 - ((left + right + 1) / 2) * size);
    this.pan.y = Math.round(rect.height / 2 - ((top + bottom + 1) / 2) * size);
    this.render();
  }

  /** Centre the grid at the zoom that shows all of it (at most 1): the Centre button. An empty
   * board keeps its zoom. */
  fit() {
    const rect = this.boardEl.getBoundingClientRect();
    const shown = this.shownCells();
    if (shown.length && rect.width > 0) {
      const cells = shown.map(parseKey);
      const rows = Math.max(...cells.map((c) => c[0])) - Math.min(...cells.map((c) => c[0])) + 2;
      const cols = Math.max(...cells.map((c) => c[1])) - Math.min(...cells.map((c) => c[1])) + 2;
      this.zoom = Math.max(MIN_ZOOM, Math.min(1, rect.width / (cols * CELL), rect.height / (rows * CELL)));
    }
    this.centre();
  }

  /** The zoom and position saved before a reload (`viewKey`), if any: true when restored. */
  restoreView() {
    const saved = this.viewKey && sessionStorage.getItem(this.viewKey);
    if (!saved) return false;
    const { zoom, x, y } = JSON.parse(saved);
    if (![zoom, x, y].every(Number.isFinite)) return false;
    this.zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    this.pan = { x, y };
    this.render();
    return true;
  }

  zoomBy(factor, clientX, clientY) {
    const rect = this.boardEl.getBoundingClientRect();
    const x = clientX === undefined ? rect.width / 2 : clientX - rect.left;
    const y = clientY === undefined ? rect.height / 2 : clientY - rect.top;
    const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.zoom * factor));
    // keep the point under the finger where it is
    this.pan.x = x - ((x - this.pan.x) * zoom) / this.zoom;
    this.pan.y = y - ((y - this.pan.y) * zoom) / this.zoom;
    this.zoom = zoom;
    this.render();
  }

  cellAt(clientX, clientY) {
    const rect = this.boardEl.getBoundingClientRect();
    if (clientX < rect.left || clientX > rect.right || clientY < rect.top || clientY > rect.bottom) return null;
    const size = CELL * this.zoom;
    return {
      row: Math.floor((clientY - rect.top - this.pan.y) / size),
      col: Math.floor((clientX - rect.left - this.pan.x) / size),
    };
  }

  // -- input --------------------------------------------------------------------------------
  bind() {
    this.boardEl.addEventListener("pointerdown", (event) => this.boardDown(event));
    this.boardEl.addEventListener("pointermove", (event) => this.boardMove(event));
    this.boardEl.addEventListener("pointerup", (event) => this.boardUp(event));
    this.boardEl.addEventListener("pointercancel", (event) => this.cancel(event));
    this.boardEl.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        // One wheel event zooms by at most ~18%: a flick of a trackpad is many events, not one leap.
        const delta = Math.max(-50, Math.min(50, event.deltaY));
        if (event.ctrlKey || event.metaKey) this.zoomBy(Math.exp(-delta / 300), event.clientX, event.clientY);
        else {
          this.pan.x -= event.deltaX;
          this.pan.y -= event.deltaY;
          this.render();
        }
      },
      { passive: false },
    );
    this.boardEl.addEventListener("keydown", (event) => this.key(event));
    this.rackEl.addEventListener("pointerdown", (event) => this.rackDown(event));
    this.rackEl.addEventListener("pointermove", (event) => this.dragMove(event));
    this.rackEl.addEventListener("pointerup", (event) => this.rackUp(event));
    this.rackEl.addEventListener("pointercancel", (event) => this.cancel(event));
    this.rackEl.addEventListener("keydown", (event) => this.rackKey(event));
  }

  /** The rack is one Tab stop: arrows, Home and End move along it, Enter or Space selects; a
   * letter or Backspace goes to the board. */
  rackKey(event) {
    const tile = event.target.closest(".tile");
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (tile && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      this.toggleSelect(Number(tile.dataset.id));
    } else if (tile && (event.key in moves || event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      const index = this.rack.findIndex((t) => t.id === Number(tile.dataset.id));
      const last = this.rack.length - 1;
      const next = event.key === "Home" ? 0 : event.key === "End" ? last :
        Math.max(0, Math.min(last, index + moves[event.key]));
      this.rackFocus = this.rack[next].id;
      this.renderRack(); // the focus moves with the Tab stop
    } else if ((/^[a-zA-Z]$/.test(event.key) && !event.altKey && !event.ctrlKey && !event.metaKey) ||
      event.key === "Backspace") {
      this.boardEl.focus();
      this.key(event);
    }
  }

  /** No rack tile chosen any more (the one chosen was dumped). */
  unselect() {
    this.selected = null;
    this.render();
  }

  toggleSelect(id) {
    if (!this.enabled) return;
    this.selected = this.selected === id ? null : id;
    this.rackFocus = id;
    this.render();
  }

  startPress(event, what) {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    this.press = { ...what, x: event.clientX, y: event.clientY, id: event.pointerId, dragging: false, ghost: null };
  }

  rackDown(event) {
    const tile = event.target.closest(".tile");
    if (!tile || !this.enabled || event.button > 0) return;
    event.preventDefault();
    this.startPress(event, { kind: "rack", tileId: Number(tile.dataset.id), letter: tile.dataset.letter });
  }

  boardDown(event) {
    if (event.button > 1 || event.target.closest(".zoom")) return; // the middle button pans
    if (event.button === 1) event.preventDefault(); // not the browser's autoscroll
    this.boardEl.focus({ preventScroll: true });
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 2) {
      this.press = { kind: "pinch", distance: this.pinchDistance(), zoom: this.zoom, mid: this.pinchMiddle() };
      this.box = this.preview = null; // a second finger ends a box or a group's drag: nothing lands
      this.render();
      return;
    }
    const cell = this.cellAt(event.clientX, event.clientY);
    const tile = event.target.closest(".tile.placed");
    if (this.enabled && event.button === 0 && group.groupDown(this, event, tile)) return;
    if (tile && this.enabled && event.button === 0) {
      this.startPress(event, { kind: "cell", cell: key(Number(tile.dataset.row), Number(tile.dataset.col)),
        letter: tile.dataset.letter });
    } else {
      this.startPress(event, { kind: "pan", cell, panX: this.pan.x, panY: this.pan.y });
    }
  }

  pinchMiddle() {
    const [a, b] = [...this.pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  pinchDistance() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  }

  boardMove(event) {
    if (this.pointers.has(event.pointerId)) this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const press = this.press;
    if (!press) return;
    if (press.kind === "pinch") {
      if (this.pointers.size === 2) { // two fingers zoom, and pan as they move together
        const mid = this.pinchMiddle();
        this.pan.x += mid.x - press.mid.x;
        this.pan.y += mid.y - press.mid.y;
        press.mid = mid;
        const factor = (press.zoom * this.pinchDistance()) / press.distance / this.zoom;
        this.zoomBy(factor, mid.x, mid.y);
      }
      return;
    }
    if (press.id !== event.pointerId) return;
    if (press.kind === "pan") {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_START) press.dragging = true;
      if (press.dragging) {
        this.pan.x = press.panX + event.clientX - press.x;
        this.pan.y = press.panY + event.clientY - press.y;
        this.render();
      }
      return;
    }
    if (!group.groupMove(this, event)) this.dragMove(event);
  }

  dragMove(event) {
    const press = this.press;
    if (!press || press.id !== event.pointerId || press.kind === "pan" || press.kind === "pinch") return;
    if (!press.dragging && Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_START) {
      press.dragging = true;
      press.ghost = document.createElement("div");
      press.ghost.className = "tile ghost";
      press.ghost.textContent = press.letter;
      document.body.append(press.ghost);
    }
    if (press.ghost) {
      press.ghost.style.left = `${event.clientX - CELL / 2}px`;
      press.ghost.style.top = `${event.clientY - CELL / 2}px`;
    }
  }

  finishPress(event) {
    const press = this.press;
    this.press = null;
    press?.ghost?.remove();
    return press;
  }

  cancel(event) {
    this.pointers.delete(event.pointerId);
    this.finishPress(event);
  }

  overRack(event) {
    const rect = this.rackEl.getBoundingClientRect();
    return event.clientX >= rect.left && event.clientX <= rect.right &&
      event.clientY >= rect.top - 8 && event.clientY <= rect.bottom + 8;
  }

  rackUp(event) {
    const press = this.press;
    if (!press || press.id !== event.pointerId || press.kind !== "rack") return;
    this.finishPress(event);
    if (!press.dragging) {
      this.toggleSelect(press.tileId);
      return;
    }
    const cell = this.cellAt(event.clientX, event.clientY);
    if (cell && this.place(press.tileId, cell.row, cell.col)) {
      this.changed();
    } else if (this.overRack(event)) {
      this.reorder(press.tileId, event);
    }
  }

  reorder(tileId, event) {
    const over = document.elementFromPoint(event.clientX, event.clientY)?.closest(".rack .tile");
    const from = this.rack.findIndex((tile) => tile.id === tileId);
    if (from < 0) return;
    const [tile] = this.rack.splice(from, 1);
    const to = over ? this.rack.findIndex((t) => t.id === Number(over.dataset.id)) : -1;
    this.rack.splice(to < 0 ? this.rack.length : to, 0, tile);
    this.render();
  }

  boardUp(event) {
    this.pointers.delete(event.pointerId);
    const press = this.press;
    if (!press || press.kind === "pinch") {
      if (this.pointers.size === 0) this.press = null;
      return;
    }
    if (press.id !== event.pointerId || group.groupUp(this, event)) return;
    this.finishPress(event);
    if (press.kind === "pan") {
      if (!press.dragging && press.cell) this.tapEmpty(press.cell.row, press.cell.col);
      return;
    }
    // a press that started on a placed tile
    const [row, col] = parseKey(press.cell);
    if (!press.dragging) {
      if (this.selectMode) group.toggleTile(this, press.cell);
      else this.tapPlaced(row, col);
      return;
    }
    const cell = this.cellAt(event.clientX, event.clientY);
    if (cell) group.moveChosen(this, new Set([press.cell]), cell.row - row, cell.col - col); // onto a tile: a swap
    else if (this.overRack(event)) {
      this.pickUp(row, col);
      this.changed();
    }
  }

  tapEmpty(row, col) {
    if (!this.enabled) return;
    const selected = this.selectedTile();
    if (selected) {
      this.place(selected.id, row, col);
      this.cursor = null;
      this.changed();
    } else {
      this.cursor = { row, col };
      this.render();
      this.onCursor();
    }
  }

  tapPlaced(row, col) {
    const selected = this.selectedTile();
    if (selected) this.place(selected.id, row, col); // the placed tile goes back to the rack
    else this.pickUp(row, col);
    this.changed();
  }

  step(sign) {
    const [dr, dc] = STEPS[this.direction];
    this.cursor = { row: this.cursor.row + sign * dr, col: this.cursor.col + sign * dc };
  }

  /** The letter on the cursor's cell (undefined on an empty one). */
  underCursor() {
    return this.cursor && this.cells.get(key(this.cursor.row, this.cursor.col));
  }

  /** Pan just enough that the cursor's cell is in view (the view follows the keyboard). */
  follow() {
    if (this.cursor) this.reveal([this.cursor]);
  }

  /** Pan just enough that `cells` ({row, col}) are in view, the first of them when they do not
   * all fit: a word laid from the command field is seen where it went. */
  reveal(cells) {
    const size = CELL * this.zoom;
    const margin = FOLLOW_MARGIN * size;
    const { clientWidth: width, clientHeight: height } = this.boardEl;
    const controls = this.boardEl.querySelector(".zoom"); // the zoom buttons sit over the bottom edge
    const bottom = Math.max(margin, (controls?.offsetHeight || 0) + margin / 2);
    const span = (values) => [Math.min(...values) * size, (Math.max(...values) + 1) * size];
    const shift = ([low, high], pan, length, end) => {
      if (pan + high > length - end) pan -= pan + high - (length - end);
      if (pan + low < margin) pan += margin - (pan + low); // the start wins when both ends cannot fit
      return pan;
    };
    this.pan.x = shift(span(cells.map((cell) => cell.col)), this.pan.x, width, margin);
    this.pan.y = shift(span(cells.map((cell) => cell.row)), this.pan.y, height, bottom);
  }

  key(event) {
    if (!this.enabled || group.groupKey(this, event)) return;
    const arrows = { ArrowRight: ["across", 1], ArrowLeft: ["across", -1], ArrowDown: ["down", 1],
      ArrowUp: ["down", -1] };
    if (event.key in arrows) {
      event.preventDefault();
      const [direction, sign] = arrows[event.key];
      if (!this.cursor) this.cursor = { row: 0, col: 0 };
      else if (this.direction === direction) this.step(sign);
      this.direction = direction;
      this.follow();
      this.render();
      this.onCursor();
    } else if (event.key === "Escape") {
      this.cursor = null;
      this.selected = null;
      this.render();
      this.onCursor();
    } else if (event.key === "Backspace") {
      event.preventDefault();
      this.backspace();
    } else if (event.key === "Enter" && this.cursor && this.selectedTile()) {
      event.preventDefault(); // the chosen rack tile to the cursor's cell: a tile there goes back to the rack
      this.place(this.selected, this.cursor.row, this.cursor.col);
      this.changed();
      this.onCursor();
    } else if (event.key === "Delete" && this.cursor) {
      event.preventDefault();
      this.lift(this.cursor.row, this.cursor.col); // the tile under the cursor back to the rack
    } else if (/^[a-zA-Z]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      this.type(event.key.toUpperCase());
    }
  }

  type(letter) {
    if (!this.cursor) {
      // no cursor: a letter selects that tile in the rack
      const tile = this.rack.find((t) => t.letter === letter);
      if (tile) this.toggleSelect(tile.id);
      else this.onNotice("no_letter", { letter });
      return;
    }
    if (this.underCursor() === letter) {
      this.step(1); // the grid's letter is the word's: used, not doubled
      this.follow();
      this.render();
      this.onCursor();
      return;
    }
    while (this.underCursor()) this.step(1); // type through tiles
    const tile = this.selectedTile()?.letter === letter ? this.selectedTile() :
      this.rack.find((t) => t.letter === letter);
    if (!tile) {
      this.onNotice("no_letter", { letter });
      return;
    }
    this.place(tile.id, this.cursor.row, this.cursor.col);
    this.step(1);
    this.follow();
    this.changed();
    this.onCursor(); // the description follows the cursor to its next cell
  }

  /** Back one cell, taking the tile there (the one before the cursor) back to the rack. */
  backspace() {
    if (!this.cursor) return;
    this.step(-1);
    this.follow();
    if (!this.lift(this.cursor.row, this.cursor.col)) this.render();
    this.onCursor();
  }

  // -- drawing ------------------------------------------------------------------------------
  render() {
    const size = CELL * this.zoom;
    const board = this.boardEl;
    board.dataset.panX = this.pan.x;
    board.dataset.panY = this.pan.y;
    board.dataset.zoom = this.zoom;
    board.dataset.cell = CELL;
    board.style.backgroundSize = `${size}px ${size}px`;
    board.style.backgroundPosition = `${this.pan.x}px ${this.pan.y}px`;
    this.layer.style.transform = `translate(${this.pan.x}px, ${this.pan.y}px) scale(${this.zoom})`;
    if (this.viewKey) sessionStorage.setItem(this.viewKey, JSON.stringify({ zoom: this.zoom, ...this.pan }));
    const tiles = [];
    for (const cell of this.group) if (!this.cells.has(cell)) this.group.delete(cell); // picked up meanwhile
    const dragging = this.press?.kind === "group" && this.press.dragging;
    for (const [cell, letter] of this.cells) {
      const tile = boardTile(cell, letter, "tile placed");
      if (this.group.has(cell)) tile.classList.add("grouped", ...(dragging ? ["moving"] : []));
      if (this.invalid.has(cell)) tile.classList.add("bad");
      if (this.loose.has(cell)) tile.classList.add("loose");
      if (this.hint.lift.has(cell)) tile.classList.add("lift");
      tile.dataset.letter = letter;
      tiles.push(tile);
    }
    for (const [cell, letter] of this.hint.lay) {
      // A hint's tiles to lay: ghosts, not placed tiles (no data-letter: they are not the grid).
      if (!this.cells.has(cell)) tiles.push(boardTile(cell, letter, "tile hinted"));
    }
    if (this.cursor) {
      const cursor = document.createElement("div");
      cursor.className = `cursor ${this.direction}`;
      cursor.style.left = `${this.cursor.col * CELL}px`;
      cursor.style.top = `${this.cursor.row * CELL}px`;
      tiles.push(cursor);
    }
    this.layer.replaceChildren(...tiles, ...group.groupOverlay(this));
    this.renderRack();
    this.onRender();
  }

  /** The rack's tiles; the one Tab stop keeps the keyboard's focus across a redraw. */
  renderRack() {
    const hadFocus = this.rackEl.contains(document.activeElement);
    const focusIndex = Math.max(0, [...this.rackEl.children].findIndex((b) => Number(b.dataset.id) === this.rackFocus));
    if (!this.rack.some((tile) => tile.id === this.rackFocus)) {
      this.rackFocus = this.rack[Math.min(focusIndex, this.rack.length - 1)]?.id ?? null;
    }
    const rackTiles = this.rack.map((tile) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "tile";
      if (tile.id === this.selected) button.classList.add("selected");
      if (tile.fresh) button.classList.add("fresh");
      button.dataset.id = tile.id;
      button.dataset.letter = tile.letter;
      button.setAttribute("role", "option");
      button.setAttribute("aria-selected", String(tile.id === this.selected));
      button.textContent = tile.letter;
      button.disabled = !this.enabled;
      button.tabIndex = tile.id === this.rackFocus ? 0 : -1;
      return button;
    });
    this.rackEl.replaceChildren(...rackTiles);
    this.rackEl.classList.toggle("many", this.rack.length > 16); // a phone's rack takes two rows
    if (hadFocus) this.rackEl.querySelector(`[data-id="${this.rackFocus}"]`)?.focus();
    if (this.revealFresh) {
      // The rack scrolls to its first new tile (the page does not: scrollIntoView would).
      this.revealFresh = false;
      const first = this.rackEl.querySelector(".fresh");
      if (first) this.rackEl.scrollLeft = first.offsetLeft - this.rackEl.offsetLeft - 6;
    }
  }
}
