// The room's WebSocket: opening it, sending, and opening it again after a drop (rejoining with
// the seat's token). Each message that comes is handed to the receiver given to open().

import { t } from "./i18n.js";
import { $ } from "./page.js";
import { saved } from "./saved.js";
import { get, update } from "./state.js";

let socket = null;
let retries = 0;
let receive = () => {};

/** Connect to the page's room; `join` (or null) is sent as soon as the socket opens. */
export function open(join, receiver) {
  receive = receiver;
  connect(join);
}

function connect(join) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const current = new WebSocket(`${scheme}://${location.host}/r/${get("roomId")}/ws`);
  socket = current;
  current.addEventListener("open", () => {
    retries = 0;
    update({ connected: true });
    $("connection").textContent = "";
    if (join) current.send(JSON.stringify(join));
  });
  current.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  current.addEventListener("close", () => {
    if (socket !== current) return;
    update({ connected: false });
    if (get("finished")) return;
    if (!get("joined")) {
      if (retries++ < 3) setTimeout(() => connect(join), 1000);
      return;
    }
    $("connection").textContent = t("reconnecting");
    const delay = Math.min(8000, 500 * 2 ** retries++);
    setTimeout(() => connect({ type: "join", name: saved.get("name") || "",
      token: saved.get(`token.${get("roomId")}`) }), delay);
  });
}

/** Send a message to the room (dropped while no socket is open). */
export function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
