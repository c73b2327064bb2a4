// What a screen reader says: one polite live log (#announcements) the player can also read back.
// Each event is one line; lines that come in the same moment (a PEEL's log entry and the tile it
// brought, say) are batched into one item, so the screen reader speaks them as one sentence.

import { sentences } from "./text.js";

const BATCH_MS = 120; // events this close together are one announcement
const KEPT = 60; // items the log keeps for reading back

let pending = [];
let timer = null;
const listeners = [];

/** Call `listener(text)` with each announcement as it is said (a batch: one text). */
export function onAnnounce(listener) {
  listeners.push(listener);
}

/** Say `text` (one event) politely; nothing for an empty text. */
export function announce(text) {
  if (!text) return;
  pending.push(text);
  if (!timer) timer = setTimeout(flush, BATCH_MS);
}

function flush() {
  timer = null;
  const lines = [...new Set(pending)]; // one event said twice at once (a toast and its log) is said once
  pending = [];
  if (!lines.length) return;
  const item = document.createElement("p");
  item.textContent = sentences(...lines); // each event its own sentence: none runs into the next
  const log = document.getElementById("announcements");
  log.append(item);
  while (log.children.length > KEPT) log.firstElementChild.remove();
  for (const listener of listeners) listener(item.textContent);
}
