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
};

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
  if (view === "table") requestAnimationFrame(() => board.centre());
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
  if (message.code === "bad_play") return t("sp_refused", { reason: message.message });
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
    radio.addEventListener("change", () => ($("spellcheck").disabled = radio.dataset.game === "spellevate" && radio.checked));
  }
  $("home-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("name").value.trim();
    if (!name) return;
    store.set("name", name);
    store.set("language", $("language").value);
    const variant = document.querySelector("input[name=variant]:checked").value;
    $("create").disabled = true;
    try {
      const response = await fetch("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ language: $("language").value, spellcheck: $("spellcheck").checked, variant }),
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
  setLanguage(store.get("language") || "en");
  const token = store.get(`token.${roomId}`);
  const autojoin = sessionStorage.getItem(`bananas.autojoin.${roomId}`) && store.get("name");
  $("join-name").value = store.get("name") || "";
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) return;
    store.set("name", name);
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
    store.set(`token.${state.roomId}`, message.token);
    sessionStorage.removeItem(`bananas.autojoin.${state.roomId}`);
  },
  room(message) {
    state.room = message;
    setLanguage(message.language);
    const tableView = isSpellevate() ? "spell" : "table";
    if (message.phase === "lobby") {
      resetSpellevate();
      renderLobby();
      show("lobby");
    } else if (message.phase === "playing" && document.body.dataset.view !== tableView) {
      show(tableView);
    }
    if (message.phase === "ended") renderEndControls();
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
    updateButtons();
  },
  tiles(message) {
    const wasActive = state.me.active;
    state.me = { active: message.active, waiting: message.waiting };
    board.enabled = message.active;
    board.setHeld(message.held, message.cells || null);
    if (message.cells) board.centre();
    if (wasActive && !message.active) board.render();
    updateButtons();
  },
  check(message) {
    if (message.seq !== null && message.seq !== state.seq) return; // an older grid's check
    board.setMarks(message.invalid_cells, message.loose_cells);
  },
  end(message) {
    renderEnd(message);
    show("end");
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
    name.textContent = seat.name;
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
  if (presets.options.length !== room.bots.length) {
    presets.replaceChildren(...room.bots.map((name) => new Option(name, name)));
  }
  const full = room.seats.length >= room.max_seats;
  $("add-bot").disabled = full;
  const short = room.seats.length < room.min_players; // the variant's own count (Spellevate: 3 or more)
  $("start").disabled = short;
  $("sp-need").hidden = !(short && isSpellevate());
}

// -- table ------------------------------------------------------------------------------------------
function renderPlayers() {
  const table = state.table;
  $("bunch").textContent = table.bunch;
  const you = state.room?.seats.find((seat) => seat.you)?.name;
  const items = table.players.map((player) => {
    const item = document.createElement("li");
    item.className = `player ${player.status}${player.name === you ? " me" : ""}`;
    item.dataset.name = player.name;
    const status = player.connected ? player.status : "disconnected";
    item.innerHTML = "<span class=name></span> <b class=count></b> <span class=state></span>";
    item.querySelector(".name").textContent = player.name;
    item.querySelector(".count").textContent = t("tiles_left", { count: player.tiles_left });
    item.querySelector(".state").textContent = t(`status_${status}`);
    return item;
  });
  $("players").replaceChildren(...items);
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
  $("peel").hidden = $("dump").hidden = table ? !canDraw : false;
  const note = $("table-note");
  const text = !table || table.over ? "" : !state.me.active ? t("you_are_out") : state.me.waiting ? t("you_wait") : "";
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
  $("final-grids").hidden = $("boards").hidden = spellevate;
  $("sp-scores-title").hidden = $("sp-scores").hidden = $("sp-scores-note").hidden = !spellevate;
}

function renderEnd(message) {
  showEndOf("bananagrams");
  const names = message.winners.join(", ");
  const title = message.outcome === "win" ? t("win_one", { names }) :
    message.outcome === "shared" ? t("win_shared", { names }) :
      message.outcome === "replay" ? t("replay") : t("no_winner");
  $("end-title").textContent = title;
  const scores = message.scores?.time !== undefined ? ` · ${t("solo_score", message.scores)}` : "";
  $("end-reason").textContent = message.reason + scores;
  const boards = message.boards.map((entry) => {
    const figure = document.createElement("figure");
    figure.className = `final ${entry.status}`;
    figure.dataset.name = entry.name;
    const grid = document.createElement("div");
    grid.className = "mini";
    if (entry.grid) {
      const bad = new Set((entry.invalid_cells || []).map(([row, col]) => `${row},${col}`));
      grid.style.gridTemplateColumns = `repeat(${entry.grid[0].length}, var(--mini))`;
      entry.grid.forEach((row, r) => {
        [...row].forEach((letter, c) => {
          const cell = document.createElement("span");
          cell.className = letter === "." ? "empty" : bad.has(`${r},${c}`) ? "tile bad" : "tile";
          cell.textContent = letter === "." ? "" : letter;
          grid.append(cell);
        });
      });
    } else {
      grid.textContent = t("no_grid");
    }
    const caption = document.createElement("figcaption");
    caption.textContent = `${entry.name} · ${t(`status_${entry.status}`)}`;
    figure.append(grid, caption);
    return figure;
  });
  $("boards").replaceChildren(...boards);
  renderEndControls();
}

function renderEndControls() {
  const host = state.room?.you_host;
  $("again").hidden = !host;
  $("wait-again").hidden = host;
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
  $("leave").addEventListener("click", () => send({ type: "leave" }));
  $("sp-leave").addEventListener("click", () => send({ type: "leave" }));
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
  $("zoom-in").addEventListener("click", () => board.zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => board.zoomBy(0.8));
  $("center").addEventListener("click", () => board.centre());
  window.addEventListener("resize", () => board.render());
}

bindButtons();
initSpellevate(send);
const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/);
if (match) initRoom(match[1]);
else initHome();
