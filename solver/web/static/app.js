// The browser game's page: the home view at /, a room's views at /r/ROOM over one WebSocket.
// This module only starts the others; docs/ARCHITECTURE.md lists what each one owns.

import { open, send } from "./connection.js";
import { initEnd } from "./end.js";
import { initHome } from "./home.js";
import { t } from "./i18n.js";
import { enterRoom } from "./join.js";
import { initLobby } from "./lobby.js";
import { receive } from "./messages.js";
import { $ } from "./page.js";
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

const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/);
if (match) {
  keepViewFor(match[1]);
  open(enterRoom(match[1]), receive);
} else {
  initHome();
}
