// The server's codes and figures in the page's language: refusals, clocks.

import { has, t } from "./i18n.js";
import { get } from "./state.js";

/** A grid's fault (`solver.core.grid.Report.faults`: by code) in the page's language. */
export function faultText(fault) {
  const values = { ...fault, direction: t(`hint_${fault.direction}`), count: fault.sizes?.length,
    sizes: (fault.sizes || []).join(", ") };
  return has(`fault_${fault.code}`) ? t(`fault_${fault.code}`, values) : fault.code;
}

/** An error message (or a refused play) as the page says it. */
export function errorText(message) {
  if (message.code === "bad_play") {
    const why = `sp_why_${message.params?.reason}`; // the engine's reason, by its code
    return t("sp_refused", { reason: has(why) ? t(why, message.params) : message.message });
  }
  const key = `err_${message.code}`;
  if (!has(key)) return message.message;
  return t(key, { count: get("room")?.max_seats ?? 4, ...(message.params ?? {}) });
}

/** `text` as a sentence: a full stop added unless it ends in one already (".", "!", "?", "…"). */
export const sentence = (text) => (/[.!?…]["»)]?$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** Several texts said one after the other, each a sentence of its own (no "wins!." nor run-ons). */
export const sentences = (...texts) => texts.filter(Boolean).map(sentence).join(" ");

/** Seconds since the deal as m:ss ("–" when there is no time). */
export const clockText = (seconds) =>
  seconds === null || seconds === undefined ? "–" : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
