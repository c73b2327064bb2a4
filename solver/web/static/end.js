// The end view: who won and why, each player's figures and final grid, and the next hand's
// buttons (the host's) or the wait for them. The coach's review sits below (review.js).

import { send } from "./connection.js";
import { miniGrid } from "./grids.js";
import { has, number, t } from "./i18n.js";
import { shownName } from "./names.js";
import { $ } from "./page.js";
import { renderReview } from "./review.js";
import { get } from "./state.js";
import { clockText } from "./text.js";

export function initEnd() {
  $("again").addEventListener("click", () => send({ type: "again" }));
  $("rematch").addEventListener("click", () => {
    send({ type: "again" }); // the same seats, straight into the next hand
    send({ type: "start" });
  });
}

/** The end view's parts for one game: grids and a review, or Spellevate's scores. */
export function showEndOf(game) {
  const spellevate = game === "spellevate";
  $("final-grids").hidden = $("boards").hidden = $("coach").hidden = spellevate;
  $("sp-scores-title").hidden = $("sp-scores").hidden = $("sp-scores-note").hidden = !spellevate;
}

/** Why the hand ended, in the page's language (the engine's reason code and its values). */
function reasonText(message) {
  const params = { ...(message.reason_params || {}) };
  if (params.why) params.why = t(`why_${params.why}`);
  const key = `reason_${message.reason_code}`;
  return has(key) ? t(key, params) : message.reason;
}

/** How the hand ended for a player: a loser who was still building did not finish. */
function endStatus(entry) {
  return ["winner", "tied", "rotten", "left", "stuck"].includes(entry.status) ? entry.status : "lost";
}

/** A Bananagrams hand's end (the `end` message, with the room's tally of wins). */
export function renderEnd(message) {
  showEndOf("bananagrams");
  const names = message.winners.map(shownName).join(", ");
  const title = message.outcome === "win" ? t("win_one", { names }) :
    message.outcome === "shared" ? t("win_shared", { names }) :
      message.outcome === "replay" ? t("replay") : t("no_winner");
  $("end-title").textContent = title;
  const solo = message.scores?.time !== undefined; // a solo hand's time as a clock reads: 10:30, not 630.101 s
  const scores = solo ? ` · ${t("solo_score", { ...message.scores, time: clockText(message.scores.time) })}` : "";
  $("end-reason").textContent = reasonText(message) + scores;
  // Explicit roles: a phone lays each row out as a card (style.css), which must stay a table to a screen reader.
  const head = document.createElement("tr");
  head.setAttribute("role", "row");
  const labels = ["player", "col_status", "col_left", "col_first_grid", "col_tpm", "col_peels", "col_dumps",
    "col_wins"].map((key) => t(key));
  for (const label of labels) {
    const cell = document.createElement("th");
    cell.setAttribute("role", "columnheader");
    cell.textContent = label;
    head.append(cell);
  }
  const room = get("room");
  const wins = room?.wins || {};
  const rows = message.boards.map((entry) => {
    const row = document.createElement("tr");
    row.setAttribute("role", "row");
    row.className = endStatus(entry);
    const pace = entry.tiles_per_minute === null || entry.tiles_per_minute === undefined ? "–" :
      number(entry.tiles_per_minute); // the player's own (docs/ROOMS.md, "The end of a hand"), 18,1 in French
    const values = [shownName(entry.name), t(`status_${endStatus(entry)}`), entry.tiles_left, clockText(entry.first_grid),
      pace, entry.peels, entry.dumps, wins[entry.name] || 0];
    values.forEach((value, column) => {
      const cell = document.createElement("td");
      cell.setAttribute("role", "cell");
      cell.dataset.label = t("figure_label", { label: labels[column] }); // a phone's card says what each figure is
      cell.textContent = String(value);
      row.append(cell);
    });
    return row;
  });
  $("end-stats").replaceChildren(head, ...rows);
  $("tally").textContent = room?.hand > 1 ? t("tally", { count: room.hand }) : "";
  const boards = message.boards.map((entry) => {
    const figure = document.createElement("figure");
    figure.className = `final ${entry.status}`;
    figure.dataset.name = entry.name;
    const grid = entry.grid ? miniGrid(entry.grid, entry.invalid_cells || []) : document.createTextNode(t("no_grid"));
    const caption = document.createElement("figcaption");
    caption.textContent = `${shownName(entry.name)} · ${t(`status_${endStatus(entry)}`)}`;
    figure.append(grid, caption);
    return figure;
  });
  $("boards").replaceChildren(...boards);
  $("coach").hidden = false;
  renderReview();
  renderEndControls();
}

/** Rematch and Play again for the host; the others wait for them. */
export function renderEndControls() {
  const host = get("room")?.you_host;
  $("again").hidden = !host;
  $("rematch").hidden = !host;
  $("wait-again").hidden = host;
}
