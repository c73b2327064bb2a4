// The Bananagrams table view: the board and rack (board.js), the others' progress, the calls
// (PEEL, DUMP, BANANAS, stuck), a hint, and the watch view of a player out of the hand. The
// board's grid goes to the server as it changes, one message for a burst of moves.

import { announce } from "./announce.js";
import { Board, countLetters } from "./board.js";
import { initCommands, renderCommandHelp, verdictText } from "./commands.js";
import { send } from "./connection.js";
import { describeChange, position, readRack } from "./gridtext.js";
import { miniGrid } from "./grids.js";
import { t, tCount } from "./i18n.js";
import { shownName } from "./names.js";
import { $, currentView, onShow, toast } from "./page.js";
import { get, subscribe, update, you } from "./state.js";
import { hideRotten } from "./log.js";
import { watchersText } from "./spectators.js";
import { clockText, sentence } from "./text.js";

export const board = new Board({
  board: $("board"),
  layer: $("board-layer"),
  rack: $("rack"),
  onChange: () => {
    $("hint-text").hidden = true; // a hint is for the grid it was asked for: this one moved on
    scheduleGrid();
    scheduleChangeSaid();
    if (get("table")) renderPlayers(); // this page's own counts follow its board at once
  },
  onRender: () => updateButtons(),
  onNotice: (key, values) => toast(t(key, values)),
  onCursor: sayCursor,
  onSay: sayBoard,
});

/** The calls' buttons and their keys (Alt and the key; aria-keyshortcuts in the page says them). */
const CALL_KEYS = { KeyP: "peel", KeyD: "dump", KeyB: "bananas", KeyS: "stuck" };

export function initTable() {
  renderCommandHelp();
  onShow("table", () => requestAnimationFrame(() => board.restoreView() || board.centre()));
  $("shuffle").addEventListener("click", () => board.shuffle());
  let vowelsFirst = false; // each Sort alternates: A to Z, then vowels first
  $("sort").addEventListener("click", () => {
    board.sort(vowelsFirst);
    toast(t(vowelsFirst ? "sorted_vowels" : "sorted_az"));
    vowelsFirst = !vowelsFirst;
  });
  $("recall").addEventListener("click", () => board.recallAll());
  for (const name of Object.values(CALL_KEYS)) $(name).addEventListener("click", () => press(name));
  document.addEventListener("keydown", shortcut);
  initCommands(board, call, progressOf);
  $("hint").addEventListener("click", askHint);
  $("zoom-in").addEventListener("click", () => board.zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => board.zoomBy(0.8));
  $("center").addEventListener("click", () => board.fit());
  $("select-mode").addEventListener("click", toggleSelectMode);
  window.addEventListener("resize", () => board.render());
}

/** Keep the board's zoom and place for this room across a reload. */
export function keepViewFor(roomId) {
  board.viewKey = `bananas.view.${roomId}`;
}

// -- the grid, sent as it changes -------------------------------------------------------------
let gridTimer = null;
let seq = 0; // the number of the last grid sent: its check answers with it
let answered = 0; // the number of the last grid whose check came

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

/** A call's button pressed (or its key): made, or why it cannot be made now said. Focus stays put. */
function press(name) {
  const button = $(name);
  updateButtons(); // the state now: a tile chosen since the last redraw makes Dump possible
  if (button.getAttribute("aria-disabled") === "true") {
    toast($(`${name}-why`).textContent);
    return;
  }
  const doubt = doubtOf(name);
  if (doubt && !confirm(t(doubt))) return;
  if (name === "dump") {
    call("dump", { tile: board.selectedTile().letter });
    board.unselect(); // that tile goes: another of its letter must not stay chosen for the next DUMP
  } else call(name);
}

/** Why a call deserves a second thought (an i18n key), or null: BANANAS on a grid the
 * spellcheck finds bad is a rotten banana; "I'm stuck" when everyone else still in is stuck
 * ends the hand for all. */
function doubtOf(name) {
  if (name === "bananas" && verdictIsCurrent() && get("check").valid === false) return "bananas_confirm_bad";
  const players = get("table")?.players ?? [];
  const others = players.filter((player) => player.active && player.name !== you());
  if (name === "stuck" && others.length && others.every((player) => player.status === "stuck")) {
    return "stuck_confirm_end";
  }
  return null;
}

/** Whether the spellcheck's verdict answers the grid as it is now: none of the player's moves
 * waits to be sent, and the last check is the last grid's (a verdict on the grid before the
 * last tile must not call the finished grid a rotten banana; the server judges the call). */
function verdictIsCurrent() {
  const check = get("check");
  return gridTimer === null && check != null && (check.seq == null || check.seq === seq);
}

/** Alt+P, Alt+D, Alt+B, Alt+S make the calls; "/" goes to the command field. */
function shortcut(event) {
  if (currentView() !== "table" || event.ctrlKey || event.metaKey) return;
  const name = event.altKey && !event.shiftKey && CALL_KEYS[event.code];
  if (name && !$(name).hidden) {
    event.preventDefault();
    press(name);
  } else if (event.key === "/" && !event.altKey && !event.target.closest("input, select, textarea")) {
    event.preventDefault();
    $("command").focus();
  }
}

function call(name, extra = {}) {
  flushGrid(); // the server judges the grid as it is now
  send({ type: "call", call: name, ...extra });
}

// -- the server's messages --------------------------------------------------------------------
/** A new hand: nothing of the last one stays on the table while this one is dealt. */
export function clearTable() {
  hideRotten();
  saidCells = new Map();
  update({ check: null });
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
  sayBunch(table, message);
  update({ table: message });
  clockAt = { clock: message.clock, seen: performance.now(), running: !message.over };
  showClock();
  renderPlayers();
  renderWatch();
  updateButtons();
}

// The game clock: the server's (each `table` message's `clock`), run on between messages while
// the socket is open. Disconnected, it stands still: the server's clock may have stopped too (a
// restart), and the next `table` message says where it is.
let clockAt = { clock: 0, seen: 0, running: false };
function clockNow() {
  return clockAt.clock + (clockAt.running ? (performance.now() - clockAt.seen) / 1000 : 0);
}
function showClock() {
  $("clock").textContent = clockText(clockNow());
}
setInterval(() => clockAt.running && showClock(), 1000);
subscribe((changed) => {
  if (changed.includes("connected") && !get("connected")) {
    clockAt = { clock: clockNow(), seen: performance.now(), running: false };
    showClock();
  }
});

/** The `tiles` message: this page's tiles (and, after a reload, its grid). */
export function onTiles(message) {
  const wasActive = get("me").active;
  const before = [...board.rack.map((tile) => tile.letter), ...board.cells.values()];
  update({ me: { active: message.active, waiting: message.waiting } });
  if ("hints_left" in message) update({ hintsLeft: message.hints_left });
  board.enabled = message.active;
  const kept = message.cells && message.active ? ownGridKept(message) : 0;
  board.setHeld(message.held, kept ? board.cellList() : message.cells || null);
  if (kept) {
    flushGrid(); // the server's copy of the grid is this page's again
    const text = t(kept === 1 ? "grid_restored_one" : "grid_restored", { count: kept });
    toast(text);
    announce(text);
  }
  if (message.cells) saidCells = new Map(board.cells); // a grid restored, not placed
  sayReceived(before, message.held);
  if (message.cells && !board.restoreView()) board.centre(); // a reload keeps its zoom and place
  if (wasActive && !message.active) board.render();
  updateButtons();
}

/** After a reconnect, whether the page keeps its own grid rather than the server's (`cells`):
 * when the server's lacks moves the page sent but never heard answered (the server restarted
 * before it saved them; with spellcheck off, no grid is answered) and the page's grid uses
 * only tiles the server says it holds. The number of the page's tiles the server lacked, or 0. */
function ownGridKept(message) {
  const mine = board.cellList();
  const theirs = new Set(message.cells.map(([row, col, letter]) => `${row},${col},${letter}`));
  const lacking = mine.filter(([row, col, letter]) => !theirs.has(`${row},${col},${letter}`)).length;
  const unanswered = seq > answered || !get("room")?.spellcheck;
  if (!mine.length || (!lacking && mine.length === message.cells.length) || !unanswered) return 0;
  const held = countLetters([...message.held]);
  for (const [letter, count] of countLetters(mine.map(([, , letter]) => letter))) {
    if ((held.get(letter) ?? 0) < count) return 0;
  }
  return lacking;
}

/** The `check` message: the invalid and loose cells of the grid last sent. */
export function onCheck(message) {
  if (message.seq !== null) answered = Math.max(answered, message.seq);
  if (message.seq !== null && message.seq !== seq) return; // an older grid's check
  board.setMarks(message.invalid_cells, message.loose_cells);
  if (changeTimer) sayChange(); // the move first, then its verdict
  const said = get("check") && verdictText(get("check"));
  update({ check: message });
  if (verdictText(message) !== said && board.cells.size) announce(verdictText(message)); // said when it changes
}

// -- what the screen reader hears of the table ------------------------------------------------
let saidCells = new Map(); // the grid as last announced
let changeTimer = null;

function scheduleChangeSaid() {
  clearTimeout(changeTimer);
  changeTimer = setTimeout(sayChange, 60); // a burst of moves (a word laid) is one line
}

function sayChange() {
  clearTimeout(changeTimer);
  changeTimer = null;
  const table = get("table");
  if (table && !table.over && get("me").active) announce(describeChange(saidCells, board.cells)); // the player's own moves
  saidCells = new Map(board.cells);
}

/** What the board says of tiles chosen or moved together (selection.js); a move's line stands
 * for the grid's change, which is then not said again. */
function sayBoard(text, describesChange) {
  if (describesChange) {
    clearTimeout(changeTimer);
    changeTimer = null;
    saidCells = new Map(board.cells);
  }
  announce(text);
}

/** Select mode (the board's ⬚ button): a drag on empty space draws a box and a tap chooses a
 * tile, with a finger as with a mouse; off, a finger's drag pans the board. */
function toggleSelectMode() {
  board.selectMode = !board.selectMode;
  $("select-mode").setAttribute("aria-pressed", String(board.selectMode));
  $("board").classList.toggle("selecting", board.selectMode);
  toast(t(board.selectMode ? "select_mode_on" : "select_mode_off"));
}

/** The cursor's place, direction and letter (the board's description, and said as it moves). */
function sayCursor() {
  const cursor = board.cursor;
  $("cursor-status").textContent = !cursor ? t("cursor_none") : t("cursor_at", {
    at: position(cursor.row, cursor.col), direction: t(board.direction === "across" ? "hint_across" : "hint_down"),
    letter: board.underCursor() ?? t("cursor_empty"),
  });
}

/** The tiles a deal, a PEEL or a DUMP brought: all of them at the deal, the new ones after. */
function sayReceived(before, held) {
  if (!before.length) {
    if (held.length) announce(readRack([...held]));
    return;
  }
  const had = countLetters(before);
  const added = [];
  for (const letter of held) {
    if (had.get(letter) > 0) had.set(letter, had.get(letter) - 1);
    else added.push(letter);
  }
  if (added.length) announce(t("received", { letters: added.join(" ") }));
}

/** The bunch is said each time it shrinks while it is low (BANANAS is near). */
function sayBunch(last, table) {
  const low = table.bunch <= 2 * table.active;
  if (last && !table.over && low && table.bunch < last.bunch) announce(tCount("bunch_low", table.bunch));
}

// -- the view ---------------------------------------------------------------------------------
function playerState(player) {
  if (player.status === "left") return "left"; // gone for good, not reconnecting
  return player.connected ? player.status : "disconnected";
}

/** A player's tiles left in the rack and placed on the grid. This page's own come from its board:
 * the server shows a person's rack changes at the hand's next tick (within a second), and the
 * board has them now. The others' come from the table. */
export function progressOf(player) {
  if (player.name === you()) return { left: board.rack.length, placed: board.cells.size };
  return { left: player.tiles_left, placed: player.on_grid };
}

export function renderPlayers() {
  const table = get("table");
  $("bunch").textContent = table.bunch;
  const me = you();
  const items = table.players.map((player) => {
    const item = document.createElement("li");
    const status = playerState(player);
    item.className = `player ${status}${player.name === me ? " me" : ""}`;
    item.dataset.name = player.name;
    const { left, placed } = progressOf(player);
    item.dataset.left = left;
    item.innerHTML = "<span class=who><span class=name></span> <span class=state></span></span> <b class=count></b>";
    item.querySelector(".name").textContent = shownName(player.name);
    item.querySelector(".count").textContent = t("tiles_progress", { left, placed });
    item.querySelector(".state").textContent = t(`status_${status}`);
    if (player.name !== me) item.append(miniGrid(player.grid, [], "thumb"));
    return item;
  });
  const watchers = watchersText();
  if (watchers) { // who watches, seen by the players too
    const chip = document.createElement("li");
    chip.className = "player watchers";
    chip.textContent = watchers;
    items.push(chip);
  }
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

/** A call's button: usable, or aria-disabled with the reason (`why`, an i18n key) as its description. */
function setCall(name, why, values) {
  const button = $(name);
  button.setAttribute("aria-disabled", String(Boolean(why)));
  $(`${name}-why`).textContent = why ? sentence(t(why, values)) : ""; // each a sentence: read in turn, none runs on
}

function updateButtons() {
  const table = get("table");
  const me = get("me");
  const spectator = get("spectator");
  const playing = table && !table.over && me.active;
  const rackEmpty = board.rack.length === 0 && board.cells.size > 0;
  const canDraw = table?.peel_and_dump;
  const left = board.rack.length;
  const notPlaying = !table || table.over ? "err_hand_over" : !me.active ? "you_are_out" : null;
  // A call that cannot be made now stays focusable (aria-disabled) and says why: the server's
  // word on the table (`calls`), the page's own only on its rack and its chosen tile.
  const refusal = (name) => table?.calls?.[name] ?? null;
  const why = (name) => (refusal(name) ? `err_${refusal(name).code}` : null);
  setCall("peel", notPlaying ?? (!rackEmpty ? "err_rack_not_empty" : why("peel")), { left, ...refusal("peel")?.params });
  setCall("dump", notPlaying ?? (board.selected === null ? "dump_hint" : why("dump")), { ...refusal("dump")?.params });
  setCall("bananas", notPlaying ?? (!rackEmpty ? "err_rack_not_empty" : why("bananas")), { left, ...refusal("bananas")?.params });
  setCall("stuck", notPlaying ?? (me.waiting ? "you_wait" : null), {});
  $("shuffle").disabled = $("sort").disabled = $("recall").disabled = !playing;
  $("hint").hidden = !(table?.hints && me.active && !spectator);
  const hintsLeft = get("hintsLeft");
  $("hint").disabled = !playing || get("hintPending") || hintsLeft === 0;
  $("hints-left").textContent = hintsLeft === null ? "" : t("hints_left", { count: hintsLeft });
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
  update({ hintPending: false, hintsLeft: message.hints_left ?? get("hintsLeft") });
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
