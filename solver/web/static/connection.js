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
    // A restarted server is back in a second or two, and a restored hand waits for its people:
    // retry soon (at most every 3 s, spread so a server's pages do not all come at once), and
    // at once when the device is back online or the page is looked at again.
    const delay = Math.min(MAX_RETRY_MS, 250 * 2 ** retries++) * (0.8 + 0.4 * Math.random());
    retryTimer = setTimeout(rejoin, delay);
  });
}

const MAX_RETRY_MS = 3000;
let retryTimer = null;

function rejoin() {
  clearTimeout(retryTimer);
  retryTimer = null;
  connect({ type: "join", name: saved.get("name") || "", token: saved.get(`token.${get("roomId")}`) });
}

/** Retry now if a retry is waiting (the network came back, the page is shown again). */
function retryNow() {
  if (retryTimer !== null && document.visibilityState === "visible") rejoin();
}
window.addEventListener("online", retryNow);
document.addEventListener("visibilitychange", retryNow);

/** Send a message to the room (dropped while no socket is open). */
export function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
