// Spellevate at the browser table: your hand, the play on the table, whose turn it is.
// The server referees (the engine of `bananas spellevate`); this view shows its state and
// sends `play` (a word or a letter from the hand) or `pass`. The app module routes messages here.

import { t, tCount } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const view = { send: null, table: null, hand: null, you: null };

export function initSpellevate(send) {
  view.send = send;
  $("sp-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const letters = $("sp-word").value.trim();
    if (letters) play(letters);
  });
  $("sp-pass").addEventListener("click", () => view.send({ type: "pass" }));
  $("sp-clear").addEventListener("click", () => {
    $("sp-word").value = "";
    markUsed();
  });
  $("sp-word").addEventListener("input", () => {
    $("sp-word").value = $("sp-word").value.toUpperCase().replace(/[^A-Z]/g, "");
    markUsed();
  });
}

function play(letters) {
  view.send({ type: "play", letters });
}

// -- messages -------------------------------------------------------------------------------------
export function onTable(message, you) {
  const first = view.table === null;
  view.table = message;
  view.you = you;
  if (first) $("sp-word").value = "";
  render();
}

export function onHand(message) {
  const changed = view.hand?.letters !== message.letters;
  view.hand = message;
  if (changed) $("sp-word").value = ""; // the play went down (or a new round was dealt)
  render();
}

export function reset() {
  view.table = view.hand = null;
  $("sp-word").value = "";
}

// -- the view -------------------------------------------------------------------------------------
function tiles(letters, className = "tile") {
  return [...letters].map((letter) => {
    const tile = document.createElement("span");
    tile.className = className;
    tile.textContent = letter;
    return tile;
  });
}

function render() {
  const table = view.table;
  if (!table) return;
  const name = (seat) => table.players[seat].name;
  const players = table.players.map((player) => {
    const item = document.createElement("li");
    item.className = `player${player.name === view.you ? " me" : ""}${player.seat === table.turn && !table.over ? " turn" : ""}`;
    item.dataset.name = player.name;
    item.innerHTML = "<span class=name></span> <b class=count></b> <span class=state></span>";
    item.querySelector(".name").textContent = player.name;
    item.querySelector(".count").textContent = tCount("sp_tiles", player.tiles);
    item.querySelector(".state").textContent = player.connected ? "" : t("status_disconnected");
    return item;
  });
  $("sp-players").replaceChildren(...players);
  if (table.table) {
    $("sp-table-label").textContent = `${t("sp_table")} · ${t("sp_by", { who: name(table.table_by) })}`;
    $("sp-table").replaceChildren(...tiles(table.table));
  } else {
    $("sp-table-label").textContent = t("sp_empty", { who: name(table.turn) });
    $("sp-table").replaceChildren();
  }
  const mine = Boolean(view.hand?.your_turn) && !table.over;
  $("sp-turn").textContent = table.over ? "" : mine ? t(table.table ? "sp_your_turn" : "sp_your_lead") :
    t("sp_waiting", { who: name(table.turn) });
  $("sp-turn").classList.toggle("mine", mine);
  $("sp-play").disabled = !mine;
  $("sp-pass").disabled = !mine || !table.table;
  renderHand(mine);
}

function renderHand(mine) {
  const letters = view.hand?.letters ?? "";
  $("sp-hand-label").textContent = t("sp_hand", { count: letters.length });
  const buttons = [...letters].map((letter) => {
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "tile";
    tile.textContent = letter;
    tile.addEventListener("click", () => {
      if (tile.classList.contains("used")) return;
      $("sp-word").value += letter;
      markUsed();
    });
    return tile;
  });
  $("sp-hand").replaceChildren(...buttons);
  markUsed();
  const plays = mine ? view.hand.plays : [];
  $("sp-plays-label").textContent = !mine ? "" : plays.length ? t("sp_plays") : t("sp_nothing");
  $("sp-plays").replaceChildren(...plays.map((letters) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sp-option";
    button.textContent = letters;
    button.addEventListener("click", () => play(letters));
    return button;
  }));
}

function markUsed() {
  // The letters typed so far take tiles from the hand, left to right: those are marked.
  const wanted = [...$("sp-word").value];
  for (const tile of $("sp-hand").children) {
    const at = wanted.indexOf(tile.textContent);
    tile.classList.toggle("used", at >= 0);
    if (at >= 0) wanted.splice(at, 1);
  }
}

// -- the end of a round -----------------------------------------------------------------------------
export function renderScores(message) {
  $("end-title").textContent = t("sp_win", { who: message.winner });
  $("end-reason").textContent = "";
  const head = document.createElement("tr");
  for (const key of ["sp_name", "sp_left_col", "sp_score"]) {
    const cell = document.createElement("th");
    cell.textContent = t(key);
    head.append(cell);
  }
  const rows = message.scores.map((entry) => {
    const row = document.createElement("tr");
    row.className = entry.name === message.winner ? "winner" : "";
    row.dataset.name = entry.name;
    for (const value of [entry.name, entry.tiles, entry.score > 0 ? `+${entry.score}` : entry.score]) {
      const cell = document.createElement("td");
      cell.textContent = String(value);
      row.append(cell);
    }
    return row;
  });
  $("sp-scores").replaceChildren(head, ...rows);
}
