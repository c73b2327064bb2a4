// The home view: a name, a language, the settings and variant of a new room, and Create.

import { setLanguage } from "./i18n.js";
import { checkName } from "./names.js";
import { $, show, toast } from "./page.js";
import { autojoin, saved } from "./saved.js";
import { errorText } from "./text.js";

export function initHome() {
  $("name").value = saved.get("name") || "";
  $("language").value = saved.get("language") || (navigator.language?.startsWith("fr") ? "fr" : "en");
  setLanguage($("language").value);
  $("language").addEventListener("change", () => {
    saved.set("language", $("language").value);
    setLanguage($("language").value);
  });
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    // Spellevate has no grids to check: its spellcheck setting means nothing.
    radio.addEventListener("change", () => {
      const spellevate = radio.dataset.game === "spellevate" && radio.checked;
      $("spellcheck").disabled = $("hints").disabled = $("hint-count").disabled = spellevate; // ... nor hints, nor a review
    });
  }
  $("home-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = checkName($("name"), "home-message");
    if (!name) return;
    saved.set("name", name);
    saved.set("language", $("language").value);
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
          offensive_words: $("offensive-words").checked,
          hint_count: Number($("hint-count").value), // also a solo hand's, which has hints anyway
          variant,
        }),
      });
      const body = await response.json();
      if (!response.ok) {
        toast(errorText(body));
        return;
      }
      autojoin.mark(body.id);
      location.assign(`/r/${body.id}`);
    } catch (error) {
      toast(String(error));
    } finally {
      $("create").disabled = false;
    }
  });
  show("home");
}
