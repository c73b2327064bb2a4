// The Bananagrams table view: the board and rack (board.js), the others' progress, the calls
// (PEEL, DUMP, BANANAS, stuck), a hint, and the watch view of a player out of the hand. The
// board's grid goes to the server as it changes, one message for a burst of moves.

import { Board } from "./board.js";
import { send } from "./connection.js";
import { miniGrid } from "./grids.js";
import { t } from "./i18n.js";
import { shownName } from "./names.js";
import { $, onShow, toast } from "./page.js";
import { get, update, you } from "./state.js";

export const board = new Board({
  board: $("board"),
  layer: $("board-layer"),
  rack: $("rack"),
  onChange: scheduleGrid,
  onRender: () => updateButtons(),
  onNotice: (key, values) => toast(t(key, values)),
});

export function initTable() {
  onShow("table", () => requestAnimationFrame(() => board.restoreView() || board.centre()));
  $("shuffle").addEventListener("click", () => board.shuffle());
  $("recall").addEventListener("click", () => board.recallAll());
  $("peel").addEventListener("click", () => call("peel"));
  $("bananas").addEventListener("click", () => call("bananas"));
  $("stuck").addEventListener("click", () => call("stuck"));
  $("dump").addEventListener("click", () => {
    const tile = board.selectedTile();
    if (!tile) toast(t("dump_hint"));
    else call("dump", { tile: tile.letter });
  });
  $("hint").addEventListener("click", askHint);
  $("zoom-in").addEventListener("click", () => board.zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => board.zoomBy(0.8));
  $("center").addEventListener("click", () => board.fit());
  window.addEventListener("resize", () => board.render());
}

/** Keep the board's zoom and place for this room across a reload. */
export function keepViewFor(roomId) {
  board.viewKey = `bananas.view.${roomId}`;
}

// -- the grid, sent as it changes -------------------------------------------------------------
let gridTimer = null;
let seq = 0; // the number of the last grid sent: its check answers with it

function scheduleGrid() {
  if (gridTimer) return;
  gridTimer = setTimeout(flushGrid, 40); // one message for a burst of moves
}

function flushGrid() {
  clearTimeout(gridTimer);
  gridTimer = null;
  if (!get("me").active) return;
  seq += 1;
  send({ type: "grid", seq, cells: board.cellList() });
}

function call(name, extra = {}) {
  flushGrid(); // the server judges the grid as it is now
  send({ type: "call", call: name, ...extra });
}

// -- the server's messages --------------------------------------------------------------------
/** A new hand: nothing of the last one stays on the table while this one is dealt. */
export function clearTable() {
  $("hint-text").hidden = true;
  board.reset();
  $("players").replaceChildren();
  $("watch").replaceChildren();
  $("bunch").textContent = "…";
  const note = $("table-note");
  note.textContent = t("dealing");
  note.hidden = false;
}

/** The `table` message: the bunch and every player's progress. */
export function onTable(message) {
  const table = get("table");
  if (!table || message.over === false && table.over) board.reset();
  update({ table: message });
  renderPlayers();
  renderWatch();
  updateButtons();
}

/** The `tiles` message: this page's tiles (and, after a reload, its grid). */
export function onTiles(message) {
  const wasActive = get("me").active;
  update({ me: { active: message.active, waiting: message.waiting } });
  board.enabled = message.active;
  board.setHeld(message.held, message.cells || null);
  if (message.cells && !board.restoreView()) board.centre(); // a reload keeps its zoom and place
  if (wasActive && !message.active) board.render();
  updateButtons();
}

/** The `check` message: the invalid and loose cells of the grid last sent. */
export function onCheck(message) {
  if (message.seq !== null && message.seq !== seq) return; // an older grid's check
  board.setMarks(message.invalid_cells, message.loose_cells);
}

// -- the view ---------------------------------------------------------------------------------
function playerState(player) {
  if (player.status === "left") return "left"; // gone for good, not reconnecting
  return player.connected ? player.status : "disconnected";
}

function renderPlayers() {
  const table = get("table");
  $("bunch").textContent = table.bunch;
  const me = you();
  const items = table.players.map((player) => {
    const item = document.createElement("li");
    const status = playerState(player);
    item.className = `player ${status}${player.name === me ? " me" : ""}`;
    item.dataset.name = player.name;
    item.dataset.left = player.tiles_left;
    item.innerHTML = "<span class=name></span> <b class=count></b> <span class=state></span>";
    item.querySelector(".name").textContent = shownName(player.name);
    item.querySelector(".count").textContent = t("tiles_progress", { left: player.tiles_left, placed: player.on_grid });
    item.querySelector(".state").textContent = t(`status_${status}`);
    if (player.name !== me) item.append(miniGrid(player.grid, [], "thumb"));
    return item;
  });
  $("players").replaceChildren(...items);
}

/** Out of the hand: every other grid in full, live, instead of an empty board. */
function renderWatch() {
  const table = get("table");
  const watching = table && !table.over && !get("me").active;
  $("watch").hidden = !watching;
  $("board").hidden = $("rack").hidden = document.querySelector("#table .actions").hidden = watching;
  if (!watching) return;
  const me = you();
  $("watch").replaceChildren(...table.players.filter((player) => player.name !== me).map((player) => {
    const figure = document.createElement("figure");
    figure.className = `final ${player.status}`;
    const caption = document.createElement("figcaption");
    caption.textContent = `${shownName(player.name)} · ${t(`status_${playerState(player)}`)}`;
    figure.append(player.grid ? miniGrid(player.grid) : document.createTextNode(t("no_grid")), caption);
    return figure;
  }));
}

function updateButtons() {
  const table = get("table");
  const me = get("me");
  const spectator = get("spectator");
  const playing = table && !table.over && me.active;
  const rackEmpty = board.rack.length === 0 && board.cells.size > 0;
  const canDraw = table?.peel_and_dump;
  $("peel").disabled = !(playing && canDraw && rackEmpty && table.bunch >= table.active);
  $("dump").disabled = !(playing && canDraw && board.selected !== null && table.bunch + 1 >= 3);
  $("bananas").disabled = !(playing && rackEmpty && (!canDraw || table.bunch < table.active));
  $("stuck").disabled = !playing || me.waiting;
  $("shuffle").disabled = $("recall").disabled = !playing;
  $("hint").hidden = !(table?.hints && me.active && !spectator);
  $("hint").disabled = !playing || get("hintPending");
  $("peel").hidden = $("dump").hidden = table ? !canDraw : false;
  const note = $("table-note");
  const text = !table ? t("dealing") : table.over ? "" : spectator ? t("you_watch") :
    !me.active ? t("you_are_out") :
    me.waiting ? t("you_wait") : "";
  note.textContent = text;
  note.hidden = !text;
}

// -- a hint from the coach --------------------------------------------------------------------
function askHint() {
  update({ hintPending: true });
  flushGrid(); // the hint is for the grid as it is now
  send({ type: "hint" });
  updateButtons();
}

/** The `hint` message: a word to lay, in words and as ghost tiles on the board (or none). */
export function onHint(message) {
  update({ hintPending: false });
  showHint(message.hint);
  updateButtons();
}

function showHint(hint) {
  const note = $("hint-text");
  note.hidden = false;
  if (!hint) {
    note.textContent = t("hint_none");
    return;
  }
  const direction = t(hint.across ? "hint_across" : "hint_down");
  note.textContent = t(`hint_${hint.kind}`, { word: hint.word, direction });
  board.setHint(hint.cells, hint.lift || []);
}
