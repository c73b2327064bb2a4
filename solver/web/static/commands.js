// The command field of the table (lichess's blind mode is the model): the whole hand can be
// played by typed commands, and the grid read on demand. Every answer goes to the announcements
// log and under the field. Commands take their English or French words whatever the page's
// language; docs/ACCESSIBILITY.md lists them.
//
//   QUIZ 3 5 across     lay a word from row 3, column 5 (across or down; grid letters are used)
//   read row 3          read col 5      grid     rack     words     where Q     check
//   take 3 5            peel     dump Q     bananas     stuck     players     time     help

import { announce, onAnnounce } from "./announce.js";
import { fromSpoken, position, readGrid, readLine, readRack, readWords, whereLetter } from "./gridtext.js";
import { t, tCount } from "./i18n.js";
import { shownName } from "./names.js";
import { $ } from "./page.js";
import { get } from "./state.js";
import { clockText, sentence } from "./text.js";

const VERBS = {
  read: "read", lire: "read", grid: "grid", grille: "grid", rack: "rack", chevalet: "rack",
  words: "words", mots: "words", where: "where", "où": "where", ou: "where",
  check: "check", "vérifier": "check", verifier: "check", take: "take", prendre: "take",
  peel: "peel", piocher: "peel", dump: "dump", "échanger": "dump", echanger: "dump",
  bananas: "bananas", stuck: "stuck", "bloqué": "stuck", bloque: "stuck",
  players: "players", joueurs: "players", time: "time", temps: "time", help: "help", aide: "help",
};
const LINES = { row: "row", ligne: "row", col: "col", column: "col", colonne: "col" };
const DIRECTIONS = {
  across: "across", a: "across", h: "across", horizontal: "across", horizontale: "across",
  down: "down", d: "down", v: "down", vertical: "down", verticale: "down",
};
/** What the help says, in order: each command's key in the i18n table (`cmd_<name>`). */
export const COMMAND_HELP = ["place", "read", "grid", "rack", "words", "where", "check", "take", "peel", "dump",
  "bananas", "stuck", "players", "time", "help", "keys", "move"];

const isNumber = (text) => /^-?\d{1,4}$/.test(text ?? "");
const isLetter = (text) => /^[A-Z]$/.test(text ?? "");
const folded = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toUpperCase(); // É -> E

/** A command line as {name, ...its arguments}, or {error: an i18n key} when it cannot be read. */
export function parseCommand(text) {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  if (!tokens.length) return { error: "cmd_empty" };
  const [first, ...rest] = tokens;
  // A word and a cell lays the word; `take 1 2` is the command (the word TAKE needs its direction).
  const verbFirst = VERBS[first.toLowerCase()] && rest.length < 3;
  if (/^[\p{L}]+$/u.test(first) && isNumber(rest[0]) && isNumber(rest[1]) && !verbFirst) {
    const direction = DIRECTIONS[(rest[2] ?? "across").toLowerCase()];
    if (!direction || rest.length > 3) return { error: "cmd_bad_place" };
    return { name: "place", word: folded(first), row: fromSpoken(+rest[0]), col: fromSpoken(+rest[1]), direction };
  }
  const name = VERBS[first.toLowerCase()];
  if (!name) return { error: "cmd_unknown" };
  if (name === "read") {
    if (!rest.length) return { name: "grid" };
    const axis = LINES[rest[0].toLowerCase()];
    return axis && isNumber(rest[1]) ? { name, axis, number: fromSpoken(+rest[1]) } : { error: "cmd_bad_read" };
  }
  if (name === "where" || name === "dump") {
    const letter = folded(rest[0] ?? "");
    return isLetter(letter) ? { name, letter } : { error: `cmd_bad_${name}` };
  }
  if (name === "take") {
    return isNumber(rest[0]) && isNumber(rest[1]) ? { name, row: fromSpoken(+rest[0]), col: fromSpoken(+rest[1]) } :
      { error: "cmd_bad_take" };
  }
  return { name };
}

let board = null;
let progressOf = null; // a player's tiles left and placed (table.js: this page's own from its board)
let call = null;
let answerPending = false; // a command was run whose answer is the next announcement

/** The command field's form, acting on `theBoard` and making calls with `makeCall(name, extra)`. */
export function initCommands(theBoard, makeCall, playerProgress) {
  board = theBoard;
  progressOf = playerProgress;
  call = makeCall;
  $("command-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("command");
    const answer = run(parseCommand(input.value));
    input.value = "";
    $("command-answer").textContent = answer && sentence(answer); // as the announcement says it
    announce(answer);
    // No answer of its own (a word laid, peel, bananas): what is said next answers it, under the field too.
    answerPending = !answer;
  });
  onAnnounce((text) => {
    if (answerPending) $("command-answer").textContent = text;
    answerPending = false;
  });
}

/** The help below the table: every command and what it does, in the page's language. */
export function renderCommandHelp() {
  const list = document.createElement("dl");
  for (const name of COMMAND_HELP) {
    const term = document.createElement("dt");
    term.dataset.i18n = `cmd_${name}_syntax`; // translated again when the room's language is set
    term.textContent = t(term.dataset.i18n);
    const what = document.createElement("dd");
    what.dataset.i18n = `cmd_${name}`;
    what.textContent = t(what.dataset.i18n);
    list.append(term, what);
  }
  $("commands-help").replaceChildren(list);
}

const rackLetters = () => board.rack.map((tile) => tile.letter);

/** Do one parsed command; the answer to say (empty when the server's events will say it). */
function run(command) {
  if (command.error) return t(command.error);
  const playing = get("table") && !get("table").over && get("me").active;
  if (["place", "take", "peel", "dump", "bananas", "stuck"].includes(command.name) && !playing) return t("cmd_not_playing");
  return ANSWERS[command.name](command);
}

const ANSWERS = {
  place({ word, row, col, direction }) {
    const refused = board.layWord(word, row, col, direction);
    if (!refused) return ""; // the placement is said by the board's change, then the spellcheck
    if (refused.reason === "clash") return t("cmd_clash", { at: position(refused.row, refused.col), letter: refused.letter });
    if (refused.reason === "already") return t("cmd_already", { word });
    return t("cmd_missing", { letters: refused.letters });
  },
  read: ({ axis, number }) => readLine(board.cells, axis, number),
  grid: () => readGrid(board.cells),
  rack: () => readRack(rackLetters()),
  words: () => readWords(board.cells, get("check")?.invalid_words || []),
  where: ({ letter }) => whereLetter(board.cells, rackLetters(), letter),
  check: () => checkText(),
  take: ({ row, col }) => (board.lift(row, col) ? "" : t("cmd_nothing_at", { at: position(row, col) })),
  peel: () => call("peel") ?? "",
  dump({ letter }) {
    if (!rackLetters().includes(letter)) return t("no_letter", { letter });
    return call("dump", { tile: letter }) ?? "";
  },
  bananas: () => call("bananas") ?? "",
  stuck: () => call("stuck") ?? "",
  players: () => playersText(),
  time() {
    const table = get("table");
    return table ? t("time_answer", { clock: clockText(table.clock), bunch: table.bunch }) : t("dealing");
  },
  help: () => helpText(),
};

/** What `help` says: each command's syntax and use, a sentence each. */
export function helpText() {
  return COMMAND_HELP.map((name) => t("listed", { what: t(`cmd_${name}_syntax`), items: t(`cmd_${name}`) })).join(" ");
}

/** The spellcheck's last verdict on this grid, and the rack. */
function checkText() {
  const rack = tCount("rack_left", board.rack.length);
  if (!get("room")?.spellcheck) return `${t("check_off")} ${rack}`;
  const check = get("check");
  if (!check || !board.cells.size) return `${t("grid_empty")} ${rack}`;
  return `${verdictText(check)} ${rack}`;
}

/** One line for a `check` message: all good, or which words are not words and how many tiles are loose. */
export function verdictText(check) {
  const parts = [];
  if (check.invalid_words.length) parts.push(t("verdict_bad", { words: check.invalid_words.join(", ") }));
  if (check.loose_cells.length) parts.push(tCount("verdict_loose", check.loose_cells.length));
  return parts.length ? parts.join(" ") : t("verdict_good");
}

function playersText() {
  const table = get("table");
  if (!table) return t("dealing");
  return table.players.map((player) => t("cmd_player", {
    name: shownName(player.name), ...progressOf(player), status: t(`status_${player.status}`),
  })).join(t("list_sep"));
}
