// The calls log of both tables: who peeled, dumped, called BANANAS or played, at what time.

import { announce } from "./announce.js";
import { t } from "./i18n.js";
import { $, toast } from "./page.js";
import { shownName } from "./names.js";
import { saved } from "./saved.js";
import { you } from "./state.js";
import { faultText } from "./text.js";

/** The `log` message: entries to add, after forgetting the old ones when it says `reset`. */
export function onLog(message) {
  if (message.reset) {
    $("log").replaceChildren();
    $("sp-log").replaceChildren();
  }
  for (const entry of message.entries) {
    const text = addLog(entry);
    // A page catching up reads the log back itself; the end is said by the end screen.
    if (!message.reset && entry.kind !== "end") announce(text);
    // Someone's PEEL or DUMP changes every rack: seen at once on a phone, where the calls list
    // is below the fold (the announcement above already says it to a screen reader).
    if (!message.reset && ["peel", "dump"].includes(entry.kind)) {
      toast(text, { said: false, view: "table" });
      buzz();
    }
    if (!message.reset && entry.kind === "rotten") showRotten(entry);
  }
}

/** A short vibration for a PEEL or DUMP, when the person turned it on (off by default). */
function buzz() {
  if (saved.get("vibrate") === "on") navigator.vibrate?.(80);
}

// The vibration's toggles (the lobby's and the table's): one setting, kept in this browser.
for (const toggle of document.querySelectorAll(".vibrate-toggle")) {
  toggle.checked = saved.get("vibrate") === "on";
  toggle.addEventListener("change", () => {
    saved.set("vibrate", toggle.checked ? "on" : "off");
    for (const other of document.querySelectorAll(".vibrate-toggle")) other.checked = toggle.checked;
    if (toggle.checked) navigator.vibrate?.(80); // what it will feel like
  });
}

/** A rotten banana as a banner on every screen size (the log's line is below the fold on a
 * phone): who, and each reason in the page's language, until dismissed. Not a live region:
 * the log entry's announcement says it once. */
function showRotten(entry) {
  const reasons = entry.faults ? entry.faults.map(faultText) : entry.problems || [];
  $("rotten-title").textContent = entry.who === you() ? t("rotten_you") : t("rotten_title", { who: shownName(entry.who) });
  $("rotten-reasons").replaceChildren(...reasons.map((reason) => {
    const item = document.createElement("li");
    item.textContent = reason;
    return item;
  }));
  $("rotten-banner").hidden = false;
}

/** The banner goes when dismissed, and with the hand it belongs to. */
export function hideRotten() {
  $("rotten-banner").hidden = true;
}

$("rotten-dismiss").addEventListener("click", hideRotten);

/** One entry at the top of its table's calls list; its text. */
function addLog(entry) {
  const problems = entry.faults ? entry.faults.map(faultText) : entry.problems || []; // by code: in the page's language
  const values = { who: entry.who && shownName(entry.who), count: entry.hand_size, problems: problems.join(t("list_sep")),
    letters: entry.letters, left: entry.left };
  const kind = entry.kind === "sp_lead" && !entry.letters ? "sp_lead_winner" : entry.kind;
  const text = t(`log_${kind}`, values);
  const item = document.createElement("li");
  item.className = `log-${entry.kind}`;
  const minutes = Math.floor(entry.t / 60);
  const seconds = String(Math.floor(entry.t % 60)).padStart(2, "0");
  item.textContent = `${minutes}:${seconds} ${text}`;
  $(entry.kind.startsWith("sp_") ? "sp-log" : "log").prepend(item);
  return text;
}
