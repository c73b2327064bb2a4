// The way into a room: its page rejoins with a kept token, joins by itself when this tab just
// created the room, or shows the join form (and, after a refusal, why).

import { send } from "./connection.js";
import { setLanguage, t } from "./i18n.js";
import { checkName, shownName } from "./names.js";
import { $, show } from "./page.js";
import { autojoin, saved } from "./saved.js";
import { update } from "./state.js";

/** The language this page shows room `roomId` in: the one its person chose in the room, else
 * the room's own (the server writes it into the page, so even the join form has it). */
export function roomLanguage(roomId, spoken = document.documentElement.dataset.roomLanguage) {
  return saved.get(`language.${roomId}`) || spoken || saved.get("language") || "en";
}

/** What the server wrote into the page of who sits in the room and what is played (null: none). */
function preview() {
  const element = document.getElementById("room-preview");
  try {
    return element ? JSON.parse(element.textContent) : null;
  } catch {
    return null;
  }
}

/** The join form's card: the game and its language, the names seated (bots too), and whether a
 * hand is under way (the newcomer watches it) or every seat is taken. */
export function renderJoinAbout() {
  const room = preview();
  const box = $("join-about");
  box.hidden = !room;
  if (!room) return;
  const game = t(room.game === "spellevate" ? "settings_spellevate" : "settings_line", {
    language: t(room.language), variant: t(room.variant), spellcheck: t(room.spellcheck ? "on" : "off"),
  });
  const names = room.seats.map((seat) => shownName(seat.name) + (seat.host ? ` (${t("host")})` : ""));
  const lines = [t("join_plays", { game }), names.length ? t("join_seated", { names: names.join(", ") }) : t("join_nobody")];
  if (room.phase === "playing") lines.push(t("join_playing"));
  else if (room.seats.length >= room.max_seats) lines.push(t("join_full", { count: room.max_seats }));
  box.replaceChildren(...lines.map((text) => {
    const line = document.createElement("p");
    line.textContent = text;
    return line;
  }));
}

/** The page of room `roomId`: the join message to send once connected, or null (the form shows). */
export function enterRoom(roomId) {
  update({ roomId });
  setLanguage(roomLanguage(roomId));
  const token = saved.get(`token.${roomId}`);
  const joinsItself = autojoin.isMarked(roomId) && saved.get("name");
  $("join-name").value = saved.get("name") || "";
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = checkName($("join-name"), "join-name-message");
    if (!name) return;
    saved.set("name", name);
    update({ typedName: name });
    $("join-message").hidden = true;
    send({ type: "join", name });
  });
  if (!token && !joinsItself) {
    renderJoinAbout();
    show("join");
    return null;
  }
  return { type: "join", name: saved.get("name") || "", token: token || undefined };
}

/** A join the server refused (full, running, busy or no such room): the form again, and why. */
export function refuseJoin(text) {
  $("join-message").textContent = text;
  $("join-message").hidden = false;
  show("join");
}
