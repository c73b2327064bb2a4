// "Solve my tiles" (/solve): type or tap the letters, get a grid, add each PEEL's tile, ask
// which tile to DUMP, check a grid. Every answer comes from the JSON API (docs/SOLVE_API.md);
// the page's state is in its address, so a link or a reload shows the same grid.

import { has, setLanguage, t } from "./i18n.js";
import { faultText } from "./text.js";

const $ = (id) => document.getElementById(id);
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const MAX_TILES = 288; // solver/core/limits.py MAX_API_TILES
const MAX_DUMP_TRIALS = 64; // solver/core/limits.py MAX_API_DUMP_TRIALS
const TABS = ["solve", "peel", "dump", "check"];
const ROW_SEPARATOR = "-"; // rows of a grid in the address: '.', '-' and A-Z need no escaping

const state = {
  tiles: "", // every tile the person has: on the grid and in hand
  grid: null, // the current grid's rows, or null
  hand: "", // tiles not on the grid (a peel that could not place them)
  tab: "solve",
  ui: "en",
};

// -- letters --------------------------------------------------------------------------------
/** Letters as tiles: accents dropped (É is an E tile), upper case, A-Z only. */
function tileLetters(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toUpperCase().replace(/[^A-Z]/g, "");
}

const sorted = (letters) => [...letters].sort().join("");

/** `letters` without one of each letter of `taken`, or null when `taken` is not in `letters`. */
function without(letters, taken) {
  const left = [...letters];
  for (const letter of taken) {
    const index = left.indexOf(letter);
    if (index < 0) return null;
    left.splice(index, 1);
  }
  return left.join("");
}

const gridLetters = (rows) => rows.join("").replaceAll(".", "");

/** Every run of two or more letters, across then down (the order of solver.core.grid.find_words). */
function wordsOf(rows) {
  const words = [];
  const at = (r, c) => (rows[r] && rows[r][c] && rows[r][c] !== "." ? rows[r][c] : "");
  for (const [dr, dc] of [[0, 1], [1, 0]]) {
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < rows[r].length; c++) {
        if (!at(r, c) || at(r - dr, c - dc)) continue;
        let word = "";
        for (let i = 0; at(r + i * dr, c + i * dc); i++) word += at(r + i * dr, c + i * dc);
        if (word.length >= 2) words.push(word);
      }
    }
  }
  return words;
}

// -- the API --------------------------------------------------------------------------------
async function api(route, body) {
  const response = await fetch(`/api/${route}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const reply = await response.json();
  if (!response.ok) throw Object.assign(new Error(reply.message), { reply });
  return reply;
}

function errorText(error) {
  const code = error.reply?.code;
  if (!code) return t("solve_error_network", { error: error.message });
  return has(`solve_err_${code}`) ? t(`solve_err_${code}`) : error.reply.message;
}

function say(text) {
  $("solve-message").textContent = text || "";
  $("solve-message").hidden = !text;
}

/** Run one request with its button disabled and "Working…" shown; errors are said once. */
async function working(button, job) {
  const label = button.textContent;
  button.disabled = true;
  button.textContent = t("solve_working");
  say("");
  try {
    await job();
  } catch (error) {
    say(errorText(error));
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

// -- drawing --------------------------------------------------------------------------------
/** The server's SVG (the picture `bananas solve --svg` draws), its tiles marked new or moved.
 * The SVG lists its tiles in reading order, the order of the grid's letters. */
function drawGrid(container, svg, rows, marks = {}) {
  container.innerHTML = svg || "";
  const picture = container.querySelector("svg");
  if (!picture) return;
  const columns = rows[0]?.length || 1;
  picture.style.minWidth = `${Math.min(columns * 22 + 12, 4000)}px`; // big grids scroll rather than shrink
  const cells = [];
  rows.forEach((row, r) => [...row].forEach((letter, c) => letter !== "." && cells.push(`${r},${c}`)));
  const kind = new Map();
  for (const [r, c] of marks.fresh ?? []) kind.set(`${r},${c}`, "new");
  for (const [r, c] of marks.moved ?? []) kind.set(`${r},${c}`, "moved");
  picture.querySelectorAll("rect.tile").forEach((rect, index) => {
    // Renamed: the page's own .tile rule (the game's tiles) would resize the picture's squares.
    rect.setAttribute("class", `grid-tile ${kind.get(cells[index]) ?? ""}`.trim());
    rect.dataset.cell = cells[index];
  });
}

function listWords(list, words, bad = new Set()) {
  list.replaceChildren(
    ...words.map((word) => {
      const item = document.createElement("li");
      item.textContent = word;
      if (bad.has(word)) item.className = "bad";
      return item;
    }),
  );
}

function showGrid(statusText, svg, marks = null) {
  $("result").hidden = false;
  $("status").textContent = statusText;
  const rows = state.grid ?? [];
  drawGrid($("picture"), state.grid ? svg : "", rows, marks ?? {});
  $("legend").hidden = !marks || (!marks.fresh.length && !marks.moved.length);
  $("moved").hidden = !marks;
  listWords($("words"), wordsOf(rows));
  $("check-this").hidden = !state.grid;
  // On a phone the pad fills the screen: bring the answer into view.
  const top = $("result").getBoundingClientRect().top;
  if (top > window.innerHeight * 0.6) $("result").scrollIntoView({ block: "start" });
}

// -- the word list --------------------------------------------------------------------------
// English has vocabulary levels (the API's "en@50": common words); French has none.
const COMMON_WORDS_LEVEL = 50;

function lexiconSpec() {
  const language = $("lexicon").value;
  return language === "en" && $("vocabulary").value === "common" ? `en@${COMMON_WORDS_LEVEL}` : language;
}

function updateVocabulary() {
  const levelled = $("lexicon").value === "en";
  $("vocabulary").disabled = !levelled;
  if (!levelled) $("vocabulary").value = "all";
}

// -- the address ----------------------------------------------------------------------------
function saveAddress() {
  const query = new URLSearchParams();
  if (state.tiles) query.set("tiles", state.tiles);
  query.set("lang", $("lexicon").value);
  if ($("vocabulary").value === "common") query.set("words", "common");
  if ($("objective").value !== "any") query.set("objective", $("objective").value);
  if (state.grid) query.set("grid", state.grid.join(ROW_SEPARATOR));
  if (state.tab !== "solve") query.set("view", state.tab);
  if (state.ui !== $("lexicon").value) query.set("ui", state.ui);
  const checked = checkRows();
  if (state.tab === "check" && checked.length) query.set("check", checked.join(ROW_SEPARATOR));
  history.replaceState(null, "", `/solve?${query}`);
}

/** The grid typed to check, its rows padded with '.' to one width: a person types the letters
 * of a short row without the empty cells after them. */
function checkRows() {
  const rows = $("check-grid")
    .value.split("\n")
    .map((row) => row.trim())
    .filter((row) => row && !row.startsWith("#"));
  const width = Math.max(0, ...rows.map((row) => row.length));
  return rows.map((row) => row.padEnd(width, "."));
}

// -- solve ----------------------------------------------------------------------------------
async function solveTiles() {
  const tiles = tileLetters($("tiles").value);
  if (!tiles) {
    say(t("solve_need_letters")); // empty, or digits and signs only: say so rather than nothing
    return;
  }
  const objective = $("objective").value;
  // 'any' stops at its first grid; the other aims use all their time.
  const reply = await api("solve", {
    tiles,
    lexicon: lexiconSpec(),
    objective,
    time_limit: objective === "any" ? 5 : 3,
    svg: true,
  });
  state.tiles = sorted(tiles);
  state.grid = reply.grid;
  state.hand = reply.grid ? "" : state.tiles;
  const ms = Math.round(reply.elapsed_ms);
  const text =
    reply.status === "solved"
      ? t("solve_solved", { tiles: tiles.length, words: reply.words.length, ms })
      : reply.status === "no-grid"
        ? t("solve_no_grid", { proof: reply.proof ?? "" })
        : reply.status === "timeout"
          ? t("solve_timeout", { seconds: objective === "any" ? 5 : 3 })
          : t("solve_exhausted");
  showGrid(text, reply.svg);
  saveAddress();
}

// -- peel -----------------------------------------------------------------------------------
function movedText(count) {
  if (count === 0) return t("solve_moved_none");
  return count === 1 ? t("solve_moved_one") : t("solve_moved_many", { count });
}

async function peel() {
  const letters = tileLetters($("peel-letters").value);
  if (!state.grid) return say(t("solve_need_grid"));
  if (!letters) return;
  const reply = await api("peel", {
    grid: state.grid,
    letters: state.hand + letters,
    lexicon: lexiconSpec(),
    svg: true,
  });
  state.tiles = sorted(state.tiles + letters);
  $("tiles").value = state.tiles;
  $("peel-letters").value = "";
  updateCount();
  if (reply.tier === "failed") {
    state.hand = reply.hand;
    $("dump-hand").value = state.hand;
    showGrid(t("solve_peel_failed", { letters: reply.hand }), reply.svg);
  } else {
    state.grid = reply.grid;
    state.hand = "";
    showGrid(t("solve_peel_done", { letters, ms: Math.round(reply.elapsed_ms) }), reply.svg, {
      fresh: reply.new_cells,
      moved: reply.moved_cells,
    });
    $("moved").textContent = movedText(reply.moved);
    $("moved").dataset.moved = reply.moved;
  }
  saveAddress();
}

// -- dump -----------------------------------------------------------------------------------
async function dump() {
  const hand = tileLetters($("dump-hand").value);
  if (!state.grid) return say(t("solve_need_grid"));
  if (!hand) return;
  const letters = new Set(hand).size;
  const samples = Math.max(1, Math.min(16, Math.floor(MAX_DUMP_TRIALS / letters)));
  const reply = await api("dump", { grid: state.grid, hand, lexicon: lexiconSpec(), samples });
  $("dump-result").hidden = false;
  $("dump-recommended").textContent = reply.complete_without_dump
    ? t("solve_dump_not_needed")
    : reply.recommended
      ? t("solve_dump_recommended", { letter: reply.recommended })
      : t("solve_dump_none");
  $("dump-keep").textContent = t(reply.complete_without_dump ? "solve_dump_keep_yes" : "solve_dump_keep_no");
  $("dump-options").replaceChildren(
    ...reply.options.map((option) => {
      const item = document.createElement("li");
      const chance = Math.round(option.chance * 100);
      const bar = document.createElement("span");
      bar.className = "chance";
      bar.style.setProperty("--chance", `${chance}%`);
      const label = document.createElement("span");
      label.textContent = t("solve_dump_chance", { ...option, chance });
      item.append(bar, label);
      item.dataset.letter = option.letter;
      return item;
    }),
  );
  $("dump-note").textContent = t("solve_dump_note", { samples });
}

// -- check ----------------------------------------------------------------------------------
async function check() {
  const rows = checkRows();
  if (!rows.length) return say(t("check_need_grid"));
  const reply = await api("check", { grid: rows.join("\n"), lexicon: lexiconSpec(), svg: true });
  $("check-result").hidden = false;
  const tiles = gridLetters(reply.grid).length;
  $("check-status").textContent = reply.valid
    ? t("solve_check_valid", { words: reply.words.length, tiles })
    : t("solve_check_invalid");
  $("check-status").className = `result-status ${reply.valid ? "good" : "bad"}`;
  const bad = new Set(reply.invalid_words.map((word) => word.word));
  const problems = reply.faults.filter((fault) => fault.code !== "not_a_word").map(faultText);
  const chips = [...bad].map((word) => Object.assign(document.createElement("li"), { className: "bad", textContent: word }));
  $("check-problems").replaceChildren(
    ...chips,
    ...problems.map((line) => Object.assign(document.createElement("li"), { textContent: line })),
  );
  drawGrid($("check-picture"), reply.svg, reply.grid);
  listWords($("check-words"), reply.words, bad);
  saveAddress();
}

/** A grid from the address, shown again: checked (its words and picture), and kept only when
 * it is valid and its letters are among the tiles. */
async function restoreGrid(rows) {
  const reply = await api("check", { grid: rows, lexicon: lexiconSpec(), svg: true });
  const hand = without(state.tiles, gridLetters(reply.grid));
  if (!reply.valid || hand === null) return false;
  state.grid = reply.grid;
  state.hand = hand;
  $("dump-hand").value = hand;
  showGrid(t("solve_summary", { tiles: gridLetters(reply.grid).length, words: reply.words.length }), reply.svg);
  return true;
}

// -- the page -------------------------------------------------------------------------------
function updateCount() {
  const count = tileLetters($("tiles").value).length;
  const full = $("tiles").value.length >= MAX_TILES; // the field stops taking letters there
  $("tile-count").textContent =
    count === 0 ? "" : full ? t("solve_count_full", { count, most: MAX_TILES }) : t(count === 1 ? "solve_count_one" : "solve_count", { count });
}

function showTab(tab) {
  state.tab = TABS.includes(tab) ? tab : "solve";
  for (const button of document.querySelectorAll("[data-tab]")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === state.tab));
  }
  for (const panel of document.querySelectorAll("[data-panel]")) {
    const shown = panel.dataset.panel.split(" ").includes(state.tab);
    // Results stay hidden until there is something to show.
    if (panel.id === "result") panel.hidden = !shown || !$("status").textContent;
    else if (panel.id === "check-result") panel.hidden = !shown || !$("check-status").textContent;
    else panel.hidden = !shown;
  }
  if (state.tab !== "solve" && state.tab !== "check" && !state.grid) say(t("solve_need_grid"));
  else say("");
}

/** The input the letter pad types into: the one of the tab shown. */
function padTarget() {
  return { solve: $("tiles"), peel: $("peel-letters"), dump: $("dump-hand") }[state.tab];
}

function buildPad() {
  const keys = [...ALPHABET].map((letter) => [letter, letter, "tile"]);
  keys.push(["⌫", "back", "key"], ["✕", "clear", "key"]);
  $("pad").replaceChildren(
    ...keys.map(([label, key, kind]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = kind === "tile" ? "pad-letter" : "pad-key";
      button.textContent = label;
      button.dataset.key = key;
      if (kind === "key") button.setAttribute("aria-label", t(key === "back" ? "solve_backspace" : "solve_clear"));
      if (kind === "key") button.title = button.getAttribute("aria-label");
      return button;
    }),
  );
}

function pressPad(key) {
  const input = padTarget();
  if (!input) return;
  if (key === "back") input.value = input.value.slice(0, -1);
  else if (key === "clear") input.value = "";
  else if (input.value.length < input.maxLength) input.value += key;
  input.dispatchEvent(new Event("input"));
}

function applyLanguage(ui) {
  state.ui = ui === "fr" ? "fr" : "en";
  localStorage.setItem("bananas.language", state.ui);
  setLanguage(state.ui);
  buildPad();
  updateCount();
  for (const button of document.querySelectorAll("[data-ui]")) {
    button.setAttribute("aria-pressed", String(button.dataset.ui === state.ui));
  }
}

function init() {
  const query = new URLSearchParams(location.search);
  const lang = query.get("lang") === "fr" ? "fr" : query.get("lang") === "en" ? "en" : null;
  const stored = localStorage.getItem("bananas.language");
  const ui = query.get("ui") || lang || stored || (navigator.language?.startsWith("fr") ? "fr" : "en");
  $("lexicon").value = lang || (ui === "fr" ? "fr" : "en");
  $("vocabulary").value = query.get("words") === "common" ? "common" : "all";
  updateVocabulary();
  if (["any", "fewest-words", "compact", "longest-word"].includes(query.get("objective"))) {
    $("objective").value = query.get("objective");
  }
  applyLanguage(ui);

  for (const input of document.querySelectorAll("input.letters")) {
    input.addEventListener("input", () => {
      const clean = tileLetters(input.value).slice(0, input.maxLength);
      if (clean !== input.value) input.value = clean;
      if (input.id === "tiles") updateCount();
    });
  }
  $("pad").addEventListener("click", (event) => {
    const key = event.target.closest("button")?.dataset.key;
    if (key) pressPad(key);
  });
  for (const button of document.querySelectorAll("[data-tab]")) {
    button.addEventListener("click", () => {
      showTab(button.dataset.tab);
      saveAddress();
    });
  }
  for (const button of document.querySelectorAll("[data-ui]")) {
    button.addEventListener("click", () => {
      applyLanguage(button.dataset.ui);
      // The word list follows the page's language (a French page checks French words); the
      // list can still be chosen apart below.
      $("lexicon").value = state.ui;
      updateVocabulary();
      saveAddress();
    });
  }
  const submit = (form, button, job) =>
    $(form).addEventListener("submit", (event) => {
      event.preventDefault();
      working($(button), job);
    });
  submit("solve-form", "solve", solveTiles);
  submit("peel-form", "peel", peel);
  submit("dump-form", "dump", dump);
  submit("check-form", "check", check);
  $("check-this").addEventListener("click", () => {
    $("check-grid").value = (state.grid ?? []).join("\n");
    showTab("check");
    working($("check"), check);
  });
  $("lexicon").addEventListener("change", () => {
    updateVocabulary();
    saveAddress();
  });
  $("vocabulary").addEventListener("change", saveAddress);
  $("objective").addEventListener("change", saveAddress);

  const tiles = tileLetters(query.get("tiles") || "").slice(0, MAX_TILES);
  const rows = (query.get("grid") || "").split(ROW_SEPARATOR).filter(Boolean);
  $("tiles").value = tiles;
  $("check-grid").value = (query.get("check") || "").split(ROW_SEPARATOR).filter(Boolean).join("\n");
  updateCount();
  showTab(query.get("view"));
  restore(tiles, rows, query.get("view") === "check");
}

/** What the address says, shown again: the grid (re-checked), else the tiles solved again. */
async function restore(tiles, rows, checking) {
  if (tiles) {
    state.tiles = sorted(tiles);
    await working($("solve"), async () => {
      if (!(rows.length && (await restoreGrid(rows)))) await solveTiles();
    });
    showTab(state.tab);
  }
  if (checking && $("check-grid").value) await working($("check"), check);
}

init();
