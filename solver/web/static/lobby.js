// The lobby view: the room's link and QR code, its settings, the seats, and the host's controls
// (add or remove a bot, start).

import { announce } from "./announce.js";
import { send } from "./connection.js";
import { has, language, number, t } from "./i18n.js";
import { shownName } from "./names.js";
import { $, toast } from "./page.js";
import { get, isSpellevate } from "./state.js";

export function initLobby() {
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("room-link").value);
      toast(t("copied"));
    } catch {
      $("room-link").select();
    }
  });
  $("add-bot").addEventListener("click", () => send({ type: "add_bot", preset: $("bot-preset").value }));
  $("add-bot-more").addEventListener("click", () => send({ type: "add_bot", preset: $("bot-preset-more").value }));
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("bot-preset").addEventListener("change", () => renderBotAbout("bot-preset", "bot-about"));
  $("bot-preset-more").addEventListener("change", () => renderBotAbout("bot-preset-more", "bot-about-more"));
}

/** The bots offered first, in plain words; the room's other presets are behind "More bots". */
export const PLAIN_BOTS = ["easy", "medium", "hard", "expert"];

/** The room's presets split in two: the plain list, and the rest (all in the first when none is plain). */
export function botLists(bots) {
  const plain = PLAIN_BOTS.filter((name) => bots.includes(name));
  const first = plain.length ? plain : bots;
  return [first, bots.filter((name) => !first.includes(name))];
}

/** A preset's name as the lobby offers it: "Easy", "Facile". */
function presetLabel(name) {
  const label = has(`preset_${name}`) ? t(`preset_${name}`) : name;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function fillPresets(id, names, language) {
  const select = $(id);
  if (select.dataset.names === names.join() && select.dataset.language === language) return;
  const chosen = select.value;
  select.replaceChildren(...names.map((name) => new Option(presetLabel(name), name)));
  if (names.includes(chosen)) select.value = chosen;
  select.dataset.names = names.join();
  select.dataset.language = language;
}

/** The seats the lobby showed last (by name: a room's names are unique), and whose room. */
let shownSeats = null;

/** Say who came, went, stepped away or came back since the lobby last showed its seats, so a
 * screen reader user waiting for a game hears the room fill (a bot added, a friend joining). */
function announceSeats(room) {
  const seats = new Map(room.seats.map((seat) => [seat.name, seat]));
  if (shownSeats?.room === room.id) {
    for (const [name, seat] of seats) {
      const before = shownSeats.seats.get(name);
      if (!before) announce(t("seat_joined", { name: shownName(name) }));
      else if (before.connected !== seat.connected) {
        announce(t(seat.connected ? "seat_back" : "seat_away", { name: shownName(name) }));
      }
    }
    for (const name of shownSeats.seats.keys()) {
      if (!seats.has(name)) announce(t("seat_left", { name: shownName(name) }));
    }
  }
  shownSeats = { room: room.id, seats };
}

export function renderLobby() {
  const room = get("room");
  announceSeats(room);
  const link = `${location.origin}/r/${room.id}`;
  $("room-link").value = link;
  $("qr").src = `/r/${room.id}/qr.svg`;
  const settings = t(isSpellevate() ? "settings_spellevate" : "settings_line", {
    language: t(room.language),
    variant: t(room.variant),
    spellcheck: t(room.spellcheck ? "on" : "off"),
  });
  const hints = room.hints && !isSpellevate() ? ` · ${t("settings_hints", { count: room.hint_count })}` : "";
  $("room-settings").textContent = settings + hints;
  const items = room.seats.map((seat) => {
    const item = document.createElement("li");
    item.className = `seat ${seat.kind}`;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = shownName(seat.name);
    item.append(name);
    const tags = [];
    if (seat.host) tags.push(t("host"));
    if (seat.you) tags.push(t("you"));
    if (!seat.connected) tags.push(t("away"));
    if (tags.length) {
      const tag = document.createElement("span");
      tag.className = "tags";
      tag.textContent = tags.join(" · ");
      item.append(tag);
    }
    if (room.you_host && seat.kind === "bot") {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "quiet remove-bot";
      remove.textContent = t("remove");
      remove.addEventListener("click", () => send({ type: "remove_bot", seat: seat.seat }));
      item.append(remove);
    }
    return item;
  });
  $("seats").replaceChildren(...items);
  $("host-controls").hidden = !room.you_host;
  $("wait-host").hidden = room.you_host;
  const [first, more] = botLists(room.bots);
  fillPresets("bot-preset", first, language());
  fillPresets("bot-preset-more", more, language());
  $("more-bots").hidden = !more.length;
  renderBotAbout("bot-preset", "bot-about");
  renderBotAbout("bot-preset-more", "bot-about-more");
  const full = room.seats.length >= room.max_seats;
  $("add-bot").disabled = $("add-bot-more").disabled = full;
  const short = room.seats.length < room.min_players; // the variant's own count (Spellevate: 3 or more)
  $("start").disabled = short;
  $("sp-need").hidden = !(short && isSpellevate());
}

/** What the chosen bot preset is like, and how fast it plays (from the server's catalogue). */
function renderBotAbout(selectId, aboutId) {
  const preset = $(selectId).value;
  const about = get("room")?.bot_about?.[preset];
  const key = `about_${preset}`;
  const summary = has(key) ? t(key) : about?.summary || "";
  const pace = about?.pace;
  const speed = pace ? t("pace_line", { time: paceWords(pace.first_grid), rate: number(pace.tiles_per_minute) }) : "";
  $(aboutId).textContent = [summary, speed].filter(Boolean).join(" · ");
}

/** "40 s", "1.5 min", "3 min": a measured time as a person reads it at a glance. */
function paceWords(seconds) {
  const minutes = Math.round(seconds / 30) / 2;
  return seconds < 90 ? t("pace_seconds", { count: Math.round(seconds / 5) * 5 }) :
    t("pace_minutes", { count: number(minutes, Number.isInteger(minutes) ? 0 : 1) });
}
