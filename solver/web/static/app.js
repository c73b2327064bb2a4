// The browser game: home, room, table and end views over one WebSocket to the room.
// The server referees; this page shows what it is told and sends what the player does.

import { Board } from "./board.js";
import { has, setLanguage, t } from "./i18n.js";
import { initSpellevate, onHand, onTable, renderScores, reset as resetSpellevate } from "./spellevate.js";

const $ = (id) => document.getElementById(id);
const store = {
  get: (name) => localStorage.getItem(`bananas.${name}`),
  set: (name, value) => localStorage.setItem(`bananas.${name}`, value),
};

const state = {
  roomId: null,
  socket: null,
  joined: false,
  finished: false, // the room closed or we left: no reconnecting
  retries: 0,
  room: null,
  table: null,
  me: { active: false, waiting: false },
  seq: 0,
  gridTimer: null,
  log: [],
  hand: 0, // the room's hand number this page shows
  lastEnd: null, // the last hand's end message (the room's tally of wins comes just after it)
  typedName: "", // the name as typed, to tell the person when the server shortened it
  hintPending: false, // a hint asked for, not yet come
  review: null, // the coach's review of the hand shown (the `review` message)
  handLog: null, // {hand, text}: the hand's event log, once asked for (Replay, Download)
  afterLog: null, // what to do when the log comes: "replay" or "download"
  frames: [], // the replay's moments: {t, grids}
};

const MAX_NAME = 24; // solver/core/limits.py MAX_ROOM_NAME_CHARS

const board = new Board({
  board: $("board"),
  layer: $("board-layer"),
  rack: $("rack"),
  onChange: scheduleGrid,
  onRender: () => updateButtons(),
  onNotice: (key, values) => toast(t(key, values)),
});

// -- views ------------------------------------------------------------------------------------
function show(view) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== view;
  document.body.dataset.view = view;
  $("leave").hidden = !(view === "table" || view === "spell");
  if (view === "table") requestAnimationFrame(() => board.restoreView() || board.centre());
}

/** A name as the server will keep it (spaces folded, at most MAX_NAME characters), or a message. */
function checkName(field, message) {
  const name = field.value.trim().replace(/\s+/g, " ");
  $(message).hidden = Boolean(name);
  if (!name) {
    $(message).textContent = t("name_needed");
    field.focus();
  }
  return name;
}

let toastTimer = null;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4000);
}

const isSpellevate = () => state.room?.game === "spellevate"; // the kind of table, from the variant catalogue

function errorText(message) {
  if (message.code === "bad_play") {
    const why = `sp_why_${message.params?.reason}`; // the engine's reason, by its code
    return t("sp_refused", { reason: has(why) ? t(why, message.params) : message.message });
  }
  const key = `err_${message.code}`;
  if (!has(key)) return message.message;
  return t(key, { count: state.room?.max_seats ?? 4, ...(message.params ?? {}) });
}

// -- home -------------------------------------------------------------------------------------
function initHome() {
  $("name").value = store.get("name") || "";
  $("language").value = store.get("language") || (navigator.language?.startsWith("fr") ? "fr" : "en");
  setLanguage($("language").value);
  $("language").addEventListener("change", () => {
    store.set("language", $("language").value);
    setLanguage($("language").value);
  });
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    // Spellevate has no grids to check: its spellcheck setting means nothing.
    radio.addEventListener("change", () => {
      const spellevate = radio.dataset.game === "spellevate" && radio.checked;
      $("spellcheck").disabled = $("hints").disabled = spellevate; // ... nor hints, nor a review
    });
  }
  $("home-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = checkName($("name"), "home-message");
    if (!name) return;
    store.set("name", name);
    store.set("language", $("language").value);
    const variant = document.querySelector("input[name=variant]:checked").value;
    $("create").disabled = true;
    try {
      const response = await fetch("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          language: $("language").value,
          spellcheck: $("spellcheck").checked,
          show_letters: $("show-letters").checked,
          hints: $("hints").checked,
          variant,
        }),
      });
      const body = await response.json();
      if (!response.ok) {
        toast(errorText(body));
        return;
      }
      sessionStorage.setItem(`bananas.autojoin.${body.id}`, "1");
      location.assign(`/r/${body.id}`);
    } catch (error) {
      toast(String(error));
    } finally {
      $("create").disabled = false;
    }
  });
  show("home");
}

// -- the room connection ---------------------------------------------------------------------
function initRoom(roomId) {
  state.roomId = roomId;
  board.viewKey = `bananas.view.${roomId}`;
  setLanguage(store.get("language") || "en");
  const token = store.get(`token.${roomId}`);
  const autojoin = sessionStorage.getItem(`bananas.autojoin.${roomId}`) && store.get("name");
  $("join-name").value = store.get("name") || "";
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = checkName($("join-name"), "join-name-message");
    if (!name) return;
    store.set("name", name);
    state.typedName = name;
    $("join-message").hidden = true;
    send({ type: "join", name });
  });
  connect(token || autojoin ? { type: "join", name: store.get("name") || "", token: token || undefined } : null);
  if (!token && !autojoin) show("join");
}

function connect(join) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/r/${state.roomId}/ws`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.retries = 0;
    $("connection").textContent = "";
    if (join) socket.send(JSON.stringify(join));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (state.socket !== socket || state.finished) return;
    if (!state.joined) {
      if (state.retries++ < 3) setTimeout(() => connect(join), 1000);
      return;
    }
    $("connection").textContent = t("reconnecting");
    const delay = Math.min(8000, 500 * 2 ** state.retries++);
    setTimeout(() => connect({ type: "join", name: store.get("name") || "",
      token: store.get(`token.${state.roomId}`) }), delay);
  });
}

function send(message) {
  if (state.socket?.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function scheduleGrid() {
  if (state.gridTimer) return;
  state.gridTimer = setTimeout(flushGrid, 40); // one message for a burst of moves
}

function flushGrid() {
  clearTimeout(state.gridTimer);
  state.gridTimer = null;
  if (!state.me.active) return;
  state.seq += 1;
  send({ type: "grid", seq: state.seq, cells: board.cellList() });
}

function call(name, extra = {}) {
  flushGrid(); // the server judges the grid as it is now
  send({ type: "call", call: name, ...extra });
}

const handlers = {
  welcome(message) {
    state.joined = true;
    state.spectator = Boolean(message.spectator); // came while a hand ran: watches it, plays the next
    if (state.spectator) state.me = { active: false, waiting: false };
    store.set(`token.${state.roomId}`, message.token);
    sessionStorage.removeItem(`bananas.autojoin.${state.roomId}`);
    const typed = state.typedName || store.get("name") || "";
    if (typed && message.name !== typed && typed.length > MAX_NAME) toast(t("name_cut", { name: message.name, count: MAX_NAME }));
    else if (typed && message.name !== typed) toast(t("name_taken", { name: message.name }));
    state.typedName = "";
  },
  room(message) {
    state.room = message;
    if (message.phase === "lobby" && state.spectator && message.seats.some((seat) => seat.you)) state.spectator = false;
    setLanguage(message.language);
    const tableView = isSpellevate() ? "spell" : "table";
    // A new hand, or (a page that joins after it) a hand this page did not see dealt.
    if (message.phase !== "lobby" && message.hand !== state.hand) newHand(message.hand);
    if (message.phase === "lobby") {
      resetSpellevate();
      renderLobby();
      show("lobby");
    } else if (message.phase === "playing" && document.body.dataset.view !== tableView) {
      show(tableView);
    }
    if (message.phase === "ended" && state.lastEnd && !isSpellevate()) renderEnd(state.lastEnd); // the tally of wins
    else if (message.phase === "ended") renderEndControls();
  },
  log(message) {
    if (message.reset) {
      state.log = [];
      $("log").replaceChildren();
      $("sp-log").replaceChildren();
    }
    for (const entry of message.entries) addLog(entry);
  },
  table(message) {
    if (!state.table || message.over === false && state.table.over) board.reset();
    state.table = message;
    renderPlayers();
    renderWatch();
    updateButtons();
  },
  tiles(message) {
    const wasActive = state.me.active;
    state.me = { active: message.active, waiting: message.waiting };
    board.enabled = message.active;
    board.setHeld(message.held, message.cells || null);
    if (message.cells && !board.restoreView()) board.centre(); // a reload keeps its zoom and place
    if (wasActive && !message.active) board.render();
    updateButtons();
  },
  check(message) {
    if (message.seq !== null && message.seq !== state.seq) return; // an older grid's check
    board.setMarks(message.invalid_cells, message.loose_cells);
  },
  end(message) {
    state.lastEnd = message;
    renderEnd(message);
    show("end");
  },
  hint(message) {
    state.hintPending = false;
    showHint(message.hint);
    updateButtons();
  },
  review(message) {
    if (message.hand !== state.hand) return;
    state.review = message;
    renderReview();
  },
  hand_log(message) {
    state.handLog = { hand: message.hand, text: message.log };
    const next = state.afterLog;
    state.afterLog = null;
    if (next === "replay") openReplay();
    else if (next === "download") downloadLog();
  },
  spellevate(message) {
    onTable(message, state.room?.seats.find((seat) => seat.you)?.name);
  },
  hand(message) {
    onHand(message);
  },
  spellevate_end(message) {
    showEndOf("spellevate");
    renderScores(message);
    renderEndControls();
    show("end");
  },
  error(message) {
    const text = errorText(message);
    state.hintPending = false; // whatever was refused, a hint asked for is not coming
    if (message.code === "no_log") state.afterLog = null;
    if (state.joined && message.code === "no_room") {
      // The server restarted (or the room closed) while this page was away: it is gone for good.
      state.finished = true;
      $("connection").textContent = "";
      gone(text);
      return;
    }
    if (!state.joined && ["room_full", "game_running", "no_room", "room_busy"].includes(message.code)) {
      $("join-message").textContent = text;
      $("join-message").hidden = false;
      show("join");
      if (message.code === "no_room") state.finished = true;
      return;
    }
    toast(text);
  },
  closed(message) {
    state.finished = true;
    gone(t(`closed_${message.reason}`));
  },
  bye() {
    state.finished = true;
    store.set(`token.${state.roomId}`, "");
    gone(t("bye"));
  },
};

function receive(message) {
  handlers[message.type]?.(message);
}

function gone(text) {
  $("gone-title").textContent = text;
  show("gone");
}

// -- lobby ----------------------------------------------------------------------------------------
function renderLobby() {
  const room = state.room;
  const link = `${location.origin}/r/${room.id}`;
  $("room-link").value = link;
  $("qr").src = `/r/${room.id}/qr.svg`;
  $("room-settings").textContent = t(isSpellevate() ? "settings_spellevate" : "settings_line", {
    language: t(room.language),
    variant: t(room.variant),
    spellcheck: t(room.spellcheck ? "on" : "off"),
  });
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
  const presets = $("bot-preset");
  if (presets.options.length !== room.bots.length || presets.dataset.language !== room.language) {
    presets.replaceChildren(...room.bots.map((name) => new Option(has(`preset_${name}`) ? t(`preset_${name}`) : name, name)));
    presets.dataset.language = room.language;
  }
  renderBotAbout();
  const full = room.seats.length >= room.max_seats;
  $("add-bot").disabled = full;
  const short = room.seats.length < room.min_players; // the variant's own count (Spellevate: 3 or more)
  $("start").disabled = short;
  $("sp-need").hidden = !(short && isSpellevate());
}

/** What the chosen bot preset is like, and how fast it plays (from the server's catalogue). */
function renderBotAbout() {
  const preset = $("bot-preset").value;
  const about = state.room?.bot_about?.[preset];
  const key = `about_${preset}`;
  const summary = has(key) ? t(key) : about?.summary || "";
  const pace = about?.pace;
  const speed = pace ? t("pace_line", { time: paceWords(pace.first_grid), rate: pace.tiles_per_minute.toFixed(1) }) : "";
  $("bot-about").textContent = [summary, speed].filter(Boolean).join(" · ");
}

/** "40 s", "1.5 min", "3 min": a measured time as a person reads it at a glance. */
function paceWords(seconds) {
  return seconds < 90 ? t("pace_seconds", { count: Math.round(seconds / 5) * 5 }) :
    t("pace_minutes", { count: Math.round(seconds / 30) / 2 });
}

// -- table ------------------------------------------------------------------------------------------
/** A new hand: nothing of the last one stays on screen while this one is dealt. */
function newHand(number) {
  state.hand = number;
  state.lastEnd = null;
  state.review = null;
  state.handLog = null;
  state.afterLog = null;
  state.hintPending = false;
  state.frames = [];
  $("hint-text").hidden = true;
  $("replay-view").hidden = true;
  state.table = null;
  state.me = { active: !state.spectator, waiting: false };
  board.reset();
  $("players").replaceChildren();
  $("watch").replaceChildren();
  $("bunch").textContent = "…";
  const note = $("table-note");
  note.textContent = t("dealing");
  note.hidden = false;
}

const you = () => state.room?.seats.find((seat) => seat.you)?.name;

/** A player's name as the page shows it: a bot's preset name in the page's language. */
function shownName(name) {
  const match = name.match(/^(\w+) bot( \d+)?$/);
  return match && has(`preset_${match[1]}`) ? `${t(`preset_${match[1]}`)} ${t("bot")}${match[2] || ""}` : name;
}

/** A small picture of a grid: `rows` of letters, "#" (a tile, letter hidden) and ".". */
function miniGrid(rows, badCells = [], className = "mini") {
  const grid = document.createElement("div");
  grid.className = className;
  if (!rows) return grid;
  const bad = new Set(badCells.map(([row, col]) => `${row},${col}`));
  grid.style.gridTemplateColumns = `repeat(${rows[0].length}, var(--cell))`;
  rows.forEach((row, r) => {
    [...row].forEach((letter, c) => {
      const cell = document.createElement("span");
      cell.className = letter === "." ? "empty" : bad.has(`${r},${c}`) ? "tile bad" : "tile";
      cell.textContent = letter === "." || letter === "#" ? "" : letter;
      grid.append(cell);
    });
  });
  return grid;
}

function playerState(player) {
  if (player.status === "left") return "left"; // gone for good, not reconnecting
  return player.connected ? player.status : "disconnected";
}

function renderPlayers() {
  const table = state.table;
  $("bunch").textContent = table.bunch;
  const me = you();
  const items = table.players.map((player) => {
    const item = document.createElement("li");
    const status = playerState(player);
    item.className = `player ${status}${player.name === me ? " me" : ""}`;
    item.dataset.name = player.name;
    item.dataset.left = player.tiles_left;
    item.innerHTML = "<span class=name></span> <b class=count></b> <span class=state></span>";
    item.querySelector(".name").textContent = shownName(player.name);
    item.querySelector(".count").textContent = t("tiles_progress", { left: player.tiles_left, placed: player.on_grid });
    item.querySelector(".state").textContent = t(`status_${status}`);
    if (player.name !== me) item.append(miniGrid(player.grid, [], "thumb"));
    return item;
  });
  $("players").replaceChildren(...items);
}

/** Out of the hand: every other grid in full, live, instead of an empty board. */
function renderWatch() {
  const table = state.table;
  const watching = table && !table.over && !state.me.active;
  $("watch").hidden = !watching;
  $("board").hidden = $("rack").hidden = document.querySelector("#table .actions").hidden = watching;
  if (!watching) return;
  const me = you();
  $("watch").replaceChildren(...table.players.filter((player) => player.name !== me).map((player) => {
    const figure = document.createElement("figure");
    figure.className = `final ${player.status}`;
    const caption = document.createElement("figcaption");
    caption.textContent = `${shownName(player.name)} · ${t(`status_${playerState(player)}`)}`;
    figure.append(player.grid ? miniGrid(player.grid) : document.createTextNode(t("no_grid")), caption);
    return figure;
  }));
}

function updateButtons() {
  const table = state.table;
  const playing = table && !table.over && state.me.active;
  const rackEmpty = board.rack.length === 0 && board.cells.size > 0;
  const canDraw = table?.peel_and_dump;
  $("peel").disabled = !(playing && canDraw && rackEmpty && table.bunch >= table.active);
  $("dump").disabled = !(playing && canDraw && board.selected !== null && table.bunch + 1 >= 3);
  $("bananas").disabled = !(playing && rackEmpty && (!canDraw || table.bunch < table.active));
  $("stuck").disabled = !playing || state.me.waiting;
  $("shuffle").disabled = $("recall").disabled = !playing;
  $("hint").hidden = !(table?.hints && state.me.active && !state.spectator);
  $("hint").disabled = !playing || state.hintPending;
  $("peel").hidden = $("dump").hidden = table ? !canDraw : false;
  const note = $("table-note");
  const text = !table ? t("dealing") : table.over ? "" : state.spectator ? t("you_watch") :
    !state.me.active ? t("you_are_out") :
    state.me.waiting ? t("you_wait") : "";
  note.textContent = text;
  note.hidden = !text;
}

function addLog(entry) {
  const values = { who: entry.who, count: entry.hand_size, problems: (entry.problems || []).join("; "),
    letters: entry.letters, left: entry.left };
  const kind = entry.kind === "sp_lead" && !entry.letters ? "sp_lead_winner" : entry.kind;
  const text = t(`log_${kind}`, values);
  const item = document.createElement("li");
  item.className = `log-${entry.kind}`;
  const minutes = Math.floor(entry.t / 60);
  const seconds = String(Math.floor(entry.t % 60)).padStart(2, "0");
  item.textContent = `${minutes}:${seconds} ${text}`;
  $(entry.kind.startsWith("sp_") ? "sp-log" : "log").prepend(item);
}

// -- end ----------------------------------------------------------------------------------------------
function showEndOf(game) {
  const spellevate = game === "spellevate";
  $("final-grids").hidden = $("boards").hidden = $("coach").hidden = spellevate;
  $("sp-scores-title").hidden = $("sp-scores").hidden = $("sp-scores-note").hidden = !spellevate;
}

const clockText = (seconds) =>
  seconds === null || seconds === undefined ? "–" : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

/** Why the hand ended, in the page's language (the engine's reason code and its values). */
function reasonText(message) {
  const params = { ...(message.reason_params || {}) };
  if (params.why) params.why = t(`why_${params.why}`);
  const key = `reason_${message.reason_code}`;
  return has(key) ? t(key, params) : message.reason;
}

/** How the hand ended for a player: a loser who was still building did not finish. */
function endStatus(entry) {
  return ["winner", "tied", "rotten", "left", "stuck"].includes(entry.status) ? entry.status : "lost";
}

function renderEnd(message) {
  showEndOf("bananagrams");
  const names = message.winners.map(shownName).join(", ");
  const title = message.outcome === "win" ? t("win_one", { names }) :
    message.outcome === "shared" ? t("win_shared", { names }) :
      message.outcome === "replay" ? t("replay") : t("no_winner");
  $("end-title").textContent = title;
  const scores = message.scores?.time !== undefined ? ` · ${t("solo_score", message.scores)}` : "";
  $("end-reason").textContent = reasonText(message) + scores;
  const head = document.createElement("tr");
  for (const key of ["player", "col_status", "col_left", "col_first_grid", "col_peels", "col_dumps", "col_wins"]) {
    const cell = document.createElement("th");
    cell.textContent = t(key);
    head.append(cell);
  }
  const wins = state.room?.wins || {};
  const rows = message.boards.map((entry) => {
    const row = document.createElement("tr");
    row.className = endStatus(entry);
    const values = [shownName(entry.name), t(`status_${endStatus(entry)}`), entry.tiles_left, clockText(entry.first_grid),
      entry.peels, entry.dumps, wins[entry.name] || 0];
    for (const value of values) {
      const cell = document.createElement("td");
      cell.textContent = String(value);
      row.append(cell);
    }
    return row;
  });
  $("end-stats").replaceChildren(head, ...rows);
  $("tally").textContent = state.room?.hand > 1 ? t("tally", { count: state.room.hand }) : "";
  const boards = message.boards.map((entry) => {
    const figure = document.createElement("figure");
    figure.className = `final ${entry.status}`;
    figure.dataset.name = entry.name;
    const grid = entry.grid ? miniGrid(entry.grid, entry.invalid_cells || []) : document.createTextNode(t("no_grid"));
    const caption = document.createElement("figcaption");
    caption.textContent = `${shownName(entry.name)} · ${t(`status_${endStatus(entry)}`)}`;
    figure.append(grid, caption);
    return figure;
  });
  $("boards").replaceChildren(...boards);
  $("coach").hidden = false;
  renderReview();
  renderEndControls();
}

function renderEndControls() {
  const host = state.room?.you_host;
  $("again").hidden = !host;
  $("rematch").hidden = !host;
  $("wait-again").hidden = host;
}

// -- the coach: a hint, the review, the replay ---------------------------------------------------------
function askHint() {
  state.hintPending = true;
  flushGrid(); // the hint is for the grid as it is now
  send({ type: "hint" });
  updateButtons();
}

function showHint(hint) {
  const note = $("hint-text");
  note.hidden = false;
  if (!hint) {
    note.textContent = t("hint_none");
    return;
  }
  const direction = t(hint.across ? "hint_across" : "hint_down");
  note.textContent = t(`hint_${hint.kind}`, { word: hint.word, direction });
  board.setHint(hint.cells, hint.lift || []);
}

/** A player's name in the review: "You" for this page's person. */
const reviewName = (index) => {
  const name = state.lastEnd?.boards[index]?.name ?? `P${index + 1}`;
  return name === you() ? `${shownName(name)} (${t("review_you")})` : shownName(name);
};

function figureOf(rows, caption, bad = []) {
  const figure = document.createElement("figure");
  const text = document.createElement("figcaption");
  text.textContent = caption;
  figure.append(rows && rows.length ? miniGrid(rows, bad) : document.createTextNode(t("no_grid")), text);
  return figure;
}

function line(className, text) {
  const paragraph = document.createElement("p");
  paragraph.className = className;
  paragraph.textContent = text;
  return paragraph;
}

function renderReview() {
  const hand = state.review?.review;
  $("review-note").textContent = !state.review ? t("review_wait") : hand ? "" : t("review_none");
  $("review-note").hidden = Boolean(hand);
  const alone = (hand?.players.length ?? 0) < 2; // a solo hand has no lead to change hands
  const turns = (alone ? [] : hand?.lead || []).map((turn) => t("review_turn", { name: reviewName(turn.player),
    clock: clockText(turn.t), placed: turn.placed }));
  $("review-lead").textContent = turns.length ? t("review_lead", { turns: turns.join(", ") }) : "";
  $("review-lead").hidden = !turns.length;
  if (!hand) {
    $("review").replaceChildren();
    return;
  }
  const cards = hand.players.map((player) => {
    const card = document.createElement("article");
    card.className = "review-player";
    card.dataset.player = player.player;
    const title = document.createElement("h3");
    title.textContent = reviewName(player.player);
    const pair = document.createElement("div");
    pair.className = "review-pair";
    const best = player.best;
    const bestCaption = best ? `${t("review_best")} · ${t("review_best_words", best)}` : t("review_best");
    const mine = figureOf(player.grid, t("review_yours"), state.lastEnd?.boards[player.player]?.invalid_cells || []);
    const ideal = best ? figureOf(best.grid, bestCaption) : figureOf(null, `${t("review_best")} · ${t("review_no_best")}`);
    mine.className = "review-mine";
    ideal.className = "review-best";
    pair.append(mine, ideal);
    card.append(title, pair);
    const tpm = player.tiles_per_minute === null ? "–" : player.tiles_per_minute.toFixed(1);
    card.append(line("review-stats", t("review_stats", { first: clockText(player.first_grid_s), tpm,
      peels: player.peels, dumps: player.dumps.length, hints: player.hints })));
    if (player.dumps.length) {
      const dumps = player.dumps.map((dump) => t(dump.advised && dump.advised !== dump.returned ? "review_dump" :
        "review_dump_same", { returned: dump.returned, advised: dump.advised || dump.returned }));
      card.append(line("review-dumps", dumps.join(" · ")));
    }
    if (player.rotten) {
      const nearest = player.rotten.nearest;
      card.append(line("review-rotten", t("review_rotten", { words: player.rotten.invalid.join(", ") || "–",
        moved: nearest?.tiles_moved ?? "–" })));
      if (nearest) card.append(figureOf(nearest.grid, ""));
    }
    return card;
  });
  $("review").replaceChildren(...cards);
}

function needLog(next) {
  if (state.handLog?.hand === state.hand) return true;
  state.afterLog = next;
  send({ type: "hand_log", hand: state.hand });
  return false;
}

/** The replay's moments from the log: every player's grid after each snapshot, then the final grids. */
function replayFrames(text) {
  const events = text.split("\n").filter(Boolean).map((row) => JSON.parse(row));
  const players = events[0]?.players ?? 0;
  let grids = Array(players).fill(null);
  const frames = [{ t: 0, grids }];
  let last = 0;
  for (const event of events) {
    if (event.event === "snapshot") {
      grids = grids.slice();
      grids[event.player] = event.grid.length ? event.grid : null;
      if (frames[frames.length - 1].t === event.t) frames[frames.length - 1].grids = grids;
      else frames.push({ t: event.t, grids });
    } else if (event.event === "grids") {
      frames.push({ t: last, grids: event.grids });
    }
    if (typeof event.t === "number") last = Math.max(last, event.t);
  }
  return frames;
}

function openReplay() {
  if (!needLog("replay")) return;
  state.frames = replayFrames(state.handLog.text);
  const range = $("replay-range");
  range.max = String(state.frames.length - 1);
  range.value = range.max;
  $("replay-view").hidden = false;
  renderFrame();
  $("replay-view").scrollIntoView({ block: "nearest" });
}

function renderFrame() {
  const frame = state.frames[Number($("replay-range").value)];
  if (!frame) return;
  $("replay-clock").textContent = t("replay_at", { clock: clockText(frame.t) });
  $("replay-boards").replaceChildren(...frame.grids.map((rows, index) => {
    const figure = figureOf(rows, reviewName(index));
    figure.className = "final";
    figure.dataset.player = index;
    return figure;
  }));
}

function downloadLog() {
  if (!needLog("download")) return;
  const blob = new Blob([state.handLog.text], { type: "application/x-ndjson" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `bananas-${state.roomId}-hand-${state.handLog.hand}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// -- buttons ----------------------------------------------------------------------------------------
function bindButtons() {
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("room-link").value);
      toast(t("copied"));
    } catch {
      $("room-link").select();
    }
  });
  $("add-bot").addEventListener("click", () => send({ type: "add_bot", preset: $("bot-preset").value }));
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("again").addEventListener("click", () => send({ type: "again" }));
  $("rematch").addEventListener("click", () => {
    send({ type: "again" }); // the same seats, straight into the next hand
    send({ type: "start" });
  });
  $("leave").addEventListener("click", () => {
    if (confirm(t("leave_confirm"))) send({ type: "leave" });
  });
  $("bot-preset").addEventListener("change", () => renderBotAbout());
  $("shuffle").addEventListener("click", () => board.shuffle());
  $("recall").addEventListener("click", () => board.recallAll());
  $("peel").addEventListener("click", () => call("peel"));
  $("bananas").addEventListener("click", () => call("bananas"));
  $("stuck").addEventListener("click", () => call("stuck"));
  $("dump").addEventListener("click", () => {
    const tile = board.selectedTile();
    if (!tile) toast(t("dump_hint"));
    else call("dump", { tile: tile.letter });
  });
  $("hint").addEventListener("click", askHint);
  $("replay").addEventListener("click", openReplay);
  $("download-log").addEventListener("click", downloadLog);
  $("replay-range").addEventListener("input", renderFrame);
  $("zoom-in").addEventListener("click", () => board.zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => board.zoomBy(0.8));
  $("center").addEventListener("click", () => board.fit());
  window.addEventListener("resize", () => board.render());
}

bindButtons();
initSpellevate(send);
const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/);
if (match) initRoom(match[1]);
else initHome();
