"""How a page comes back after its socket drops (solver/web/static/connection.js), run in node
with a stand-in WebSocket and clock: a joined page retries soon and at most every 3 s (spread,
so a restarted server's pages do not all come at once), and at once when the device is back
online or the page is shown again. The browser tests restart real servers (test_crash_recovery.py,
test_browser_restart.py); these pin the timing, in a second."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import node_json

STATIC = Path(__file__).resolve().parents[2] / "solver" / "web" / "static"

SCRIPT = """
const handlers = { window: {}, document: {} };
const listen = (where) => (type, handler) => { handlers[where][type] = handler; };
const element = { textContent: "" };
globalThis.window = { addEventListener: listen("window") };
globalThis.document = { addEventListener: listen("document"), visibilityState: "visible",
  getElementById: () => element, documentElement: {}, querySelectorAll: () => [] };
globalThis.location = { protocol: "http:", host: "example" };
globalThis.localStorage = { getItem: () => "token-or-name" };
const timers = [];
globalThis.setTimeout = (callback, ms) => { timers.push({ callback, ms }); return timers.length; };
globalThis.clearTimeout = (id) => { if (id) timers[id - 1].cancelled = true; };
const sockets = [];
globalThis.WebSocket = class {
  static OPEN = 1;
  constructor(url) { this.url = url; this.sent = []; this.listeners = {}; sockets.push(this); }
  addEventListener(type, handler) { this.listeners[type] = handler; }
  send(text) { this.sent.push(JSON.parse(text)); }
};
const state = await import(%(state)s);
const connection = await import(%(connection)s);
state.update({ roomId: "r1" });
connection.open({ type: "join", name: "Ann" }, () => {});
sockets[0].listeners.open();
state.update({ joined: true });
const delays = [];
for (let drop = 0; drop < 7; drop++) {  // the server stays down: each retry's socket closes too
  sockets.at(-1).listeners.close();
  const timer = timers.at(-1);
  delays.push(timer.ms);
  timer.callback();
}
const before = sockets.length;
sockets.at(-1).listeners.close();  // down again: a retry waits ...
handlers.window.online();          // ... and the network coming back tries at once
const online = sockets.length - before;
const waiting = timers.at(-1);
sockets.at(-1).listeners.close();  // down again, and the page hidden: it waits for its timer
const closed = sockets.length;
document.visibilityState = "hidden";
handlers.document.visibilitychange();
const hidden = sockets.length - closed;
document.visibilityState = "visible";
handlers.document.visibilitychange();  // shown again: it tries at once
console.log(JSON.stringify({ delays, online, cancelled: Boolean(waiting.cancelled), hiddenTried: hidden,
  shownTried: sockets.length - closed - hidden, rejoin: sockets.at(-1).url }));
"""


@pytest.fixture(scope="module")
def retries():
    paths = {name: json.dumps((STATIC / f"{name}.js").as_uri()) for name in ("state", "connection")}
    return node_json(SCRIPT % paths)


def test_a_dropped_page_retries_soon_and_at_most_every_3_s(retries):
    delays = retries["delays"]
    bases = [250, 500, 1000, 2000, 3000, 3000, 3000]
    assert all(0.8 * base <= delay <= 1.2 * base for base, delay in zip(bases, delays, strict=True)), delays
    assert len(set(delays)) == len(delays)  # spread: not the same instant for every page


def test_the_network_or_the_page_coming_back_retries_at_once(retries):
    assert retries["online"] == 1 and retries["cancelled"]  # the waiting retry is not made as well
    assert retries["hiddenTried"] == 0  # a hidden page waits for its timer ...
    assert retries["shownTried"] == 1  # ... and tries when it is shown again
    assert retries["rejoin"] == "ws://example/r/r1/ws"
