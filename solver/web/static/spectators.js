// Who watches the room, shown to everyone, and a spectator's way to a seat: they ask (`sit`),
// the host answers between hands (`sit_answer`; docs/ROOMS.md). One panel, drawn in the lobby
// and on the end screen; the table shows the watchers as a chip in its players' strip.

import { send } from "./connection.js";
import { t } from "./i18n.js";
import { shownName } from "./names.js";
import { $, toast } from "./page.js";
import { get } from "./state.js";

const PANELS = ["lobby-watchers", "end-watchers", "table-watchers"];

/** "Watching: Dee, Eve", or "" when nobody watches. */
export function watchersText(room = get("room")) {
  const names = room?.spectators ?? [];
  return names.length ? t("watching", { names: names.map(shownName).join(", ") }) : "";
}

/** Whether this page is a spectator's (watching, no seat of its own). */
function watching(room) {
  return get("spectator") && !room.seats.some((seat) => seat.you);
}

let heard = new Set(); // the requests the host has been told of

export function renderWatchers() {
  const room = get("room");
  const asking = new Set(room?.sit_requests ?? []);
  if (room?.you_host) for (const name of asking) if (!heard.has(name)) toast(t("sit_request", { name: shownName(name) }));
  heard = asking;
  for (const id of PANELS) {
    const panel = $(id);
    if (!room || !room.spectators.length) {
      panel.replaceChildren();
      panel.hidden = true;
      continue;
    }
    panel.hidden = false;
    const parts = [];
    if (id !== "table-watchers") parts.push(paragraph(watchersText(room), "muted watchers-names"));
    if (watching(room)) parts.push(...askParts(room));
    else if (room.you_host && id !== "table-watchers") parts.push(...requestParts(room));
    if (!parts.length) panel.hidden = true;
    panel.replaceChildren(...parts);
  }
}

/** A spectator's side: ask for a seat, or the request waiting for the host. */
function askParts(room) {
  if (room.sit_requests.includes(get("myName"))) {
    return [paragraph(t(room.phase === "playing" ? "sit_asked_playing" : "sit_asked"), "note")];
  }
  const ask = button(t("sit_ask"), () => send({ type: "sit" }), "sit-ask");
  const why = room.free_seats ? "" : t("sit_no_seat");
  return [ask, ...(why ? [paragraph(why, "muted")] : [])];
}

/** The host's side: each request, to seat now (when a seat is free) or turn down. */
function requestParts(room) {
  return room.sit_requests.map((name) => {
    const row = document.createElement("p");
    row.className = "sit-request";
    row.dataset.name = name;
    const text = document.createElement("span");
    text.textContent = t("sit_request", { name: shownName(name) });
    const yes = button(t("sit_yes", { name: shownName(name) }), () => send({ type: "sit_answer", name, accept: true }));
    yes.classList.add("primary");
    yes.disabled = room.free_seats === 0 || room.phase === "playing";
    const no = button(t("sit_no"), () => send({ type: "sit_answer", name, accept: false }));
    no.classList.add("quiet");
    no.disabled = room.phase === "playing";
    row.append(text, " ", yes, " ", no);
    if (room.free_seats === 0) row.append(" ", paragraph(t("sit_no_seat_host"), "muted"));
    return row;
  });
}

function paragraph(text, className) {
  const element = document.createElement("p");
  element.className = className;
  element.textContent = text;
  return element;
}

function button(text, onClick, className) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  if (className) element.className = className;
  element.addEventListener("click", onClick);
  return element;
}
