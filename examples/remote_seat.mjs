// A front-end's bot in JavaScript: plays the remote seat of a game the engine hosts, by asking
// the engine for its moves. Written from docs/PROTOCOL.md alone; node's own WebSocket, no
// packages (node 22 or later; on node 20 the script restarts itself with
// --experimental-websocket).
//
//     bananas serve --port 8765 &
//     node examples/remote_seat.mjs --url ws://127.0.0.1:8765/engine --bots easy --advisor medium --seed 3
//
// Two sessions on the server's /engine endpoint:
//   the table   host mode: start_game seats our bots and one remote player ("js"), deals, and
//               referees every call (it is the judge: PEEL, DUMP, BANANAS, inspection);
//   the advisor seat mode: a bot that plays our seat. It is told our tiles (new_hand, draw)
//               and the table's changes (table), and says what to do (call, stuck); each of its
//               calls goes to the table with the grid it has built, and the table's verdict
//               goes back to it (a refusal as notice refused, so it decides again).
// Tiles counts as the protocol says (`seen`): the table counts the `tiles` messages it sent
// us, the advisor the `draw` and `table` messages we sent it; a call the advisor made on
// state k goes to the table with the table count of that moment, so a call that crossed new
// tiles is answered `stale` and the advisor, told of the tiles, calls again.
//
// The table plays on the wall clock (`clock: realtime`): its bots work at --time-scale times a
// practised player's pace; the advisor answers at once (`clock: instant`), so the remote seat
// thinks in round trips.
//
// Prints one JSON line (the outcome, the winners, our seat, our grid, the calls made and
// refused); exit code 0 when the game ended under the rules, 1 on a protocol error or a
// game that did not end within --timeout seconds.

if (typeof WebSocket === "undefined") {
  // node 20: the WebSocket client is behind a flag. Start again with it, same arguments.
  const { spawnSync } = await import("node:child_process");
  const again = spawnSync(process.execPath, ["--experimental-websocket", ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(again.status ?? 1);
}

const { parseArgs } = await import("node:util");
const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: "ws://127.0.0.1:8765/engine" },
    bots: { type: "string", default: "easy" }, // our bots at the table, comma-separated
    advisor: { type: "string", default: "medium" }, // the preset that plays the remote seat
    seed: { type: "string", default: "1" },
    "time-scale": { type: "string", default: "20" }, // the table's simulated seconds per second
    timeout: { type: "string", default: "120" },
  },
});

/** One session on /engine: send JSON, hand every message that comes to `onMessage`. */
function openSession(url, onMessage) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.addEventListener("open", () =>
      resolve({ send: (message) => socket.send(JSON.stringify(message)), close: () => socket.close() }),
    );
    socket.addEventListener("error", () => reject(new Error(`cannot connect to ${url}`)));
    socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (!finished) fail(`${url} closed the connection (code ${event.code})`);
    });
  });
}

const bots = options.bots.split(",").filter(Boolean);
const me = bots.length; // the remote seat comes after our bots
const summary = { seat: me, calls: {}, refused: {}, stale: 0 };
let finished = false;

function fail(reason) {
  finished = true;
  console.log(JSON.stringify({ ...summary, error: reason }));
  process.exit(1);
}
const timer = setTimeout(() => fail(`no game_over within ${options.timeout} s`), Number(options.timeout) * 1000);

// What the remote seat knows of the table.
const state = {
  tilesSeen: 0, // tiles messages the table sent us (the table's `seen`)
  advisorSent: 0, // draw and table messages we sent the advisor (the advisor's `seen`)
  tableSeenAt: [0], // tableSeenAt[k]: our tilesSeen when the advisor had been sent k messages
  bunch: 0,
  active: bots.length + 1,
  dealt: "", // the split's tiles, until the split event says how many are left in the bunch
  dumpInFlight: null, // the tile of a DUMP the table has not yet answered with three tiles
  grid: null, // the advisor's last grid
};

let table, advisor;
let nextId = 1;
const waiting = new Map(); // request id -> the function that takes its reply

function ask(session, message) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    session.send({ ...message, id });
  });
}

function answered(message) {
  const resolve = waiting.get(message.id);
  if (message.id === undefined || !resolve) return false;
  waiting.delete(message.id);
  resolve(message);
  return true;
}

/** The advisor counts draw and table messages: remember the table's count at each. */
function tellAdvisor(message) {
  advisor.send(message);
  state.advisorSent += 1;
  state.tableSeenAt[state.advisorSent] = state.tilesSeen;
}

function count(field, call) {
  summary[field][call] = (summary[field][call] ?? 0) + 1;
}

// -- the table (host mode) -------------------------------------------------------------------
function onTableMessage(message) {
  if (answered(message)) return;
  switch (message.type) {
    case "tiles":
      if (message.player !== me) return;
      state.tilesSeen += 1;
      if (message.reason === "split") {
        state.dealt = message.tiles;
      } else if (state.dumpInFlight && message.tiles.length === 3) {
        state.dumpInFlight = null;
        state.bunch -= 2; // one tile back, three out
        tellAdvisor({ type: "draw", tiles: message.tiles, reason: "dump", bunch: state.bunch, active: state.active });
      } else {
        state.bunch -= state.active; // a PEEL: a tile for every active player
        tellAdvisor({ type: "draw", tiles: message.tiles, reason: "peel", bunch: state.bunch, active: state.active });
      }
      return;
    case "event":
      return onEvent(message);
    case "game_over":
      return gameOver(message);
    case "error":
      if (message.code === "stale") return; // the advisor, told of the new tiles, calls again
      return fail(`the table says ${message.code}: ${message.message}`);
  }
}

function onEvent(event) {
  if ("bunch" in event) state.bunch = event.bunch;
  if (event.event === "split") {
    state.active = event.hands.length;
    advisor.send({ type: "new_hand", tiles: state.dealt, bunch: state.bunch, active: state.active });
  } else if (event.event === "rotten") {
    state.active -= 1;
    tellAdvisor({ type: "table", bunch: state.bunch, active: state.active });
  } else if (event.event === "dump" && event.player !== me) {
    tellAdvisor({ type: "table", bunch: state.bunch, active: state.active });
  }
}

function gameOver(message) {
  finished = true;
  clearTimeout(timer);
  advisor.send({ type: "notice", event: "end", player: message.winners[0] ?? 0 });
  const grid = message.grids?.[me] ?? state.grid;
  console.log(JSON.stringify({ ...summary, outcome: message.outcome, winners: message.winners, reason: message.reason, grid }));
  table.close();
  advisor.close();
}

// -- the advisor (seat mode) -----------------------------------------------------------------
function onAdvisorMessage(message) {
  if (answered(message) || finished) return;
  if (message.type === "call") return forward(message).catch((error) => fail(String(error)));
  if (message.type === "stuck") {
    count("calls", "stuck");
    return table.send({ type: "call", player: me, call: "stuck", seen: state.tableSeenAt[message.seen] });
  }
  if (message.type === "error") fail(`the advisor says ${message.code}: ${message.message}`);
}

/** One of the advisor's calls, to the table with its grid; a refusal goes back to it. */
async function forward(call) {
  const shown = await ask(advisor, { type: "grid" });
  state.grid = shown.grid;
  const message = { type: "call", player: me, call: call.call, grid: shown.grid, seen: state.tableSeenAt[call.seen] };
  if (call.call === "dump") {
    message.tile = call.tile;
    state.dumpInFlight = call.tile;
  }
  count("calls", call.call);
  const verdict = await ask(table, message);
  if (verdict.type === "ok") return;
  if (verdict.code === "stale") {
    summary.stale += 1;
  } else {
    count("refused", call.call);
  }
  if (call.call === "dump") state.dumpInFlight = null; // the tile comes back to the hand
  const notice = { type: "notice", event: "refused", call: call.call, seen: call.seen };
  if (call.tile) notice.tile = call.tile;
  advisor.send({ ...notice, bunch: state.bunch, active: state.active });
}

// -- start -----------------------------------------------------------------------------------
try {
  table = await openSession(options.url, onTableMessage);
  advisor = await openSession(options.url, onAdvisorMessage);
} catch (error) {
  fail(error.message);
}
await ask(advisor, { type: "options", bot: options.advisor, clock: "instant" });
await ask(table, { type: "options", clock: "realtime", time_scale: Number(options["time-scale"]) });
const players = [...bots.map((bot) => ({ bot })), { remote: "js" }];
const started = await ask(table, { type: "start_game", players, seed: Number(options.seed) });
if (started.type !== "game") fail(`start_game: ${JSON.stringify(started)}`);
