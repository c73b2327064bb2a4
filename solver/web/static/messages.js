// What the page does with each message of the room (docs/ROOMS.md): the state it keeps, and the
// view that shows it. The server referees; the page shows what it is told.

import { announce } from "./announce.js";
import { send } from "./connection.js";
import { renderEnd, renderEndControls, showEndOf } from "./end.js";
import { setLanguage, t } from "./i18n.js";
import { refuseJoin, roomLanguage } from "./join.js";
import { renderLobby } from "./lobby.js";
import { renderWatchers } from "./spectators.js";
import { onLog } from "./log.js";
import { MAX_NAME } from "./names.js";
import { $, currentView, gone, show, toast } from "./page.js";
import { closeReplay, onHandLog } from "./replay.js";
import { onReview } from "./review.js";
import { autojoin, saved } from "./saved.js";
import { onHand, onTable as onSpellevateTable, renderScores, reset as resetSpellevate } from "./spellevate.js";
import { get, isSpellevate, update, you } from "./state.js";
import { clearTable, onCheck, onHint, onTable, onTiles, renderPlayers } from "./table.js";
import { errorText, sentence, sentences } from "./text.js";

/** A new hand, or (a page that joins after it) a hand this page did not see dealt: nothing of
 * the last one stays on screen while this one is dealt. */
function newHand(number) {
  update({ hand: number, lastEnd: null, review: null, handLog: null, afterLog: null, hintPending: false, hintsLeft: null,
    table: null, me: { active: !get("spectator"), waiting: false } });
  closeReplay();
  clearTable();
}

const handlers = {
  welcome(message) {
    const spectator = Boolean(message.spectator); // came while a hand ran: watches it, plays the next
    update({ joined: true, spectator, myName: message.name, ...(spectator ? { me: { active: false, waiting: false } } : {}) });
    saved.set(`token.${get("roomId")}`, message.token);
    autojoin.clear(get("roomId"));
    const typed = get("typedName") || saved.get("name") || "";
    if (typed && message.name !== typed && typed.length > MAX_NAME) toast(t("name_cut", { name: message.name, count: MAX_NAME }));
    else if (typed && message.name !== typed) toast(t("name_taken", { name: message.name }));
    update({ typedName: "" });
  },
  room(message) {
    update({ room: message });
    if (get("spectator") && message.seats.some((seat) => seat.you)) update({ spectator: false }); // seated
    setLanguage(roomLanguage(get("roomId"), message.language));
    const tableView = isSpellevate() ? "spell" : "table";
    if (message.phase !== "lobby" && message.hand !== get("hand")) newHand(message.hand);
    if (message.phase === "lobby") {
      resetSpellevate();
      renderLobby();
      show("lobby");
    } else if (message.phase === "playing" && currentView() !== tableView) {
      show(tableView);
    }
    const lastEnd = get("lastEnd");
    if (message.phase === "ended" && lastEnd && !isSpellevate()) renderEnd(lastEnd); // the tally of wins
    else if (message.phase === "ended") renderEndControls();
    renderWatchers();
    if (get("table")) renderPlayers(); // the watchers' chip
  },
  log(message) {
    onLog(message);
  },
  table(message) {
    onTable(message);
  },
  tiles(message) {
    onTiles(message);
  },
  check(message) {
    onCheck(message);
  },
  end(message) {
    update({ lastEnd: message });
    // The coach's review is worked out when a page asks (seconds of search): this page shows it.
    if (!get("review")) send({ type: "review", hand: get("hand") });
    renderEnd(message);
    show("end");
    announce(sentences(t("end_said", { result: $("end-title").textContent }), $("end-reason").textContent));
    $("end-title").focus(); // the table's controls are gone: the keyboard starts again at the result
  },
  hint(message) {
    onHint(message);
  },
  review(message) {
    onReview(message);
  },
  hand_log(message) {
    onHandLog(message);
  },
  spellevate(message) {
    onSpellevateTable(message, you());
  },
  hand(message) {
    onHand(message);
  },
  spellevate_end(message) {
    showEndOf("spellevate");
    renderScores(message);
    renderEndControls();
    show("end");
    announce(sentence(t("end_said", { result: $("end-title").textContent })));
    $("end-title").focus();
  },
  error(message) {
    const text = errorText(message);
    update({ hintPending: false }); // whatever was refused, a hint asked for is not coming
    if (message.code === "no_log") update({ afterLog: null });
    if (message.code === "no_review") { // the end view says there is none: no toast
      onReview({ type: "review", hand: get("hand"), review: null });
      return;
    }
    if (get("joined") && message.code === "no_room") {
      // The server restarted (or the room closed) while this page was away: it is gone for good.
      update({ finished: true });
      $("connection").textContent = "";
      gone(text);
      return;
    }
    if (!get("joined") && ["room_full", "game_running", "no_room", "room_busy"].includes(message.code)) {
      refuseJoin(text);
      if (message.code === "no_room") update({ finished: true });
      return;
    }
    toast(text);
  },
  restarting() {
    // The server restarts with its rooms saved: the socket closes, and this page comes back
    // with its token once the server is up again (connection.js), to the hand where it was.
    $("connection").textContent = t("restarting");
  },
  closed(message) {
    update({ finished: true });
    gone(t(`closed_${message.reason}`));
  },
  bye() {
    update({ finished: true });
    saved.set(`token.${get("roomId")}`, "");
    gone(t("bye"));
  },
};

/** Hand one message from the room to its handler (a type this page does not know is ignored). */
export function receive(message) {
  handlers[message.type]?.(message);
}
