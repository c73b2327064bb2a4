// The browser game's page: the home view at /, a room's views at /r/ROOM over one WebSocket.
// This module only starts the others; docs/ARCHITECTURE.md lists what each one owns.

import { open, send } from "./connection.js";
import { initEnd } from "./end.js";
import { initHome } from "./home.js";
import { setLanguage, t } from "./i18n.js";
import { enterRoom, renderJoinAbout } from "./join.js";
import { initLobby } from "./lobby.js";
import { receive } from "./messages.js";
import { $ } from "./page.js";
import { onReview } from "./review.js";
import { saved } from "./saved.js";
import { get } from "./state.js";
import { initReplay } from "./replay.js";
import { initSpellevate } from "./spellevate.js";
import { initTable, keepViewFor } from "./table.js";

initLobby();
initTable();
initEnd();
initReplay();
initSpellevate(send);
$("leave").addEventListener("click", () => {
  if (confirm(t("leave_confirm"))) send({ type: "leave" });
});

/** A room's page in another language, for this person only: kept for this room, and what is on
 * screen drawn again from the last messages (the static labels follow setLanguage). */
function switchLanguage(roomId, language) {
  saved.set(`language.${roomId}`, language);
  setLanguage(language);
  for (const name of ["room", "table"]) if (get(name)) receive(get(name)); // the room redraws the end too
  if (get("review")) onReview(get("review"));
  renderJoinAbout();
}

const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/);
if (match) {
  $("ui-language").hidden = false;
  $("ui-language").addEventListener("change", (event) => switchLanguage(match[1], event.target.value));
  keepViewFor(match[1]);
  open(enterRoom(match[1]), receive);
} else {
  initHome();
}
