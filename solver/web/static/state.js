// The page's one state: what the server has told this page and what the person is waiting for.
// Every module reads it with get(), changes it with update() (never by assignment), and may
// hear each change with subscribe(). What only one module uses (the socket, the grid's send
// timer, the replay's frames) stays inside that module.

const state = {
  roomId: null, // the room this page shows (null on the home page)
  joined: false, // the server welcomed this page to a seat
  finished: false, // the room closed or we left: no reconnecting
  connected: false, // the room's socket is open (while it is not, the game clock shown stands still)
  spectator: false, // came while a hand ran: watches it, plays the next
  myName: "", // the name the server gave this page (`welcome`)
  room: null, // the last `room` message: seats, phase, settings
  table: null, // the last `table` message of this hand
  check: null, // the spellcheck's last verdict on this page's grid (the `check` message)
  me: { active: false, waiting: false }, // this page's player in the hand (the `tiles` message)
  hand: 0, // the room's hand number this page shows
  lastEnd: null, // the last hand's end message (the room's tally of wins comes just after it)
  typedName: "", // the name as typed, to tell the person when the server shortened it
  hintPending: false, // a hint asked for, not yet come
  hintsLeft: null, // the hints this person may still be shown this hand (the server's count), or null
  review: null, // the coach's review of the hand shown (the `review` message)
  handLog: null, // {hand, text}: the hand's event log, once asked for (Replay, Download)
  afterLog: null, // what to do when the log comes: "replay" or "download"
};

const listeners = new Set();

/** The value of one field. Objects are the server's messages: read them, do not change them. */
export function get(name) {
  if (!(name in state)) throw new Error(`the page's state has no field ${name}`);
  return state[name];
}

/** Change some fields at once; then each listener hears the names of those that changed. */
export function update(changes) {
  const changed = Object.keys(changes).filter((name) => get(name) !== changes[name]);
  Object.assign(state, changes);
  if (changed.length) for (const listener of listeners) listener(changed);
}

/** Call `listener(changedNames)` after every update that changes something; returns the way out. */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** This page's player's name in the room (undefined before a seat). */
export const you = () => state.room?.seats.find((seat) => seat.you)?.name;

/** The kind of table, from the variant catalogue. */
export const isSpellevate = () => state.room?.game === "spellevate";
