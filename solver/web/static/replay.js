// The hand's event log on the end view: asked for once, then replayed (every player's grid at
// a moment the timeline picks: the server's frames, each what the table showed then, a bot's
// grid built a tile at a time as it was shown) or downloaded as JSON lines.

import { send } from "./connection.js";
import { figureOf } from "./grids.js";
import { t } from "./i18n.js";
import { $ } from "./page.js";
import { reviewName } from "./review.js";
import { get, update } from "./state.js";
import { clockText } from "./text.js";

let frames = []; // the replay's moments: {t, grids}, as the server reads them from the log (the table as it showed)

export function initReplay() {
  $("replay").addEventListener("click", openReplay);
  $("download-log").addEventListener("click", downloadLog);
  $("replay-range").addEventListener("input", renderFrame);
}

/** A new hand: the last one's replay goes. */
export function closeReplay() {
  frames = [];
  $("replay-view").hidden = true;
}

/** The `hand_log` message: keep the log, then do what was waiting for it. */
export function onHandLog(message) {
  const next = get("afterLog");
  update({ handLog: { hand: message.hand, text: message.log, frames: message.frames }, afterLog: null });
  if (next === "replay") openReplay();
  else if (next === "download") downloadLog();
}

/** True when the hand's log is here; otherwise ask for it, and do `next` when it comes. */
function needLog(next) {
  if (get("handLog")?.hand === get("hand")) return true;
  update({ afterLog: next });
  send({ type: "hand_log", hand: get("hand") });
  return false;
}

function openReplay() {
  if (!needLog("replay")) return;
  frames = get("handLog").frames;
  const range = $("replay-range");
  range.max = String(frames.length - 1);
  range.value = range.max;
  $("replay-view").hidden = false;
  renderFrame();
  $("replay-view").scrollIntoView({ block: "nearest" });
}

function renderFrame() {
  const frame = frames[Number($("replay-range").value)];
  if (!frame) return;
  const moment = t("replay_at", { clock: clockText(frame.t) });
  $("replay-clock").textContent = moment;
  $("replay-range").setAttribute("aria-valuetext", moment); // a screen reader says the moment, not the frame's index
  $("replay-boards").replaceChildren(...frame.grids.map((rows, index) => {
    const figure = figureOf(rows, reviewName(index));
    figure.className = "final";
    figure.dataset.player = index;
    return figure;
  }));
}

function downloadLog() {
  if (!needLog("download")) return;
  const handLog = get("handLog");
  const blob = new Blob([handLog.text], { type: "application/x-ndjson" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `bananas-${get("roomId")}-hand-${handLog.hand}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
