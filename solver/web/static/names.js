// People's names: as typed into a form, and as the page shows them.

import { $ } from "./page.js";
import { has, t } from "./i18n.js";

export const MAX_NAME = 24; // solver/core/limits.py MAX_ROOM_NAME_CHARS

/** A name as the server will keep it (spaces folded, at most MAX_NAME characters), or a message. */
export function checkName(field, message) {
  const name = field.value.trim().replace(/\s+/g, " ");
  $(message).hidden = Boolean(name);
  if (!name) {
    $(message).textContent = t("name_needed");
    field.focus();
  }
  return name;
}

/** A player's name as the page shows it: a bot's preset name in the page's language. */
export function shownName(name) {
  const match = name.match(/^(\w+) bot( \d+)?$/);
  if (!match || !has(`preset_${match[1]}`)) return name;
  return t("bot_named", { preset: t(`preset_${match[1]}`) }) + (match[2] || ""); // "expert bot", "robot expert"
}
