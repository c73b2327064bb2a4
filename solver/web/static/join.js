// The way into a room: its page rejoins with a kept token, joins by itself when this tab just
// created the room, or shows the join form (and, after a refusal, why).

import { send } from "./connection.js";
import { setLanguage } from "./i18n.js";
import { checkName } from "./names.js";
import { $, show } from "./page.js";
import { autojoin, saved } from "./saved.js";
import { update } from "./state.js";

/** The language this page shows room `roomId` in: the one its person chose in the room, else
 * the room's own (the server writes it into the page, so even the join form has it). */
export function roomLanguage(roomId, spoken = document.documentElement.dataset.roomLanguage) {
  return saved.get(`language.${roomId}`) || spoken || saved.get("language") || "en";
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
