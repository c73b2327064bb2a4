// The frame every view shares: which view shows, the header's Leave, the passing notice.

import { announce } from "./announce.js";

export const $ = (id) => document.getElementById(id);

const whenShown = new Map(); // view -> what to do each time it shows

/** Show one view (a section.view by id) and hide the others. */
export function show(view) {
  // A new view starts at its top: the last one's scroll (a lobby scrolled to its Start button)
  // would otherwise leave a phone's table part-way down.
  const changed = document.body.dataset.view !== view;
  if (changed) window.scrollTo(0, 0);
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== view;
  document.body.dataset.view = view;
  $("leave").hidden = !(view === "table" || view === "spell");
  whenShown.get(view)?.();
  const notice = $("toast");
  if (notice.dataset.view && notice.dataset.view !== view) notice.hidden = true; // a view's notice goes with it
  if (changed) keepFocus(view);
}

/** The focus, when the view that held it went (Create room, Start), on the new view's heading:
 * not dropped on the page's body, where a keyboard or a screen reader starts again at the top. */
function keepFocus(view) {
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest("[hidden]")) return; // still on something shown
  const heading = document.querySelector(`#${view} h1`);
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/** The view on screen. */
export const currentView = () => document.body.dataset.view;

/** What a view does each time it shows (one callback a view). */
export function onShow(view, callback) {
  whenShown.set(view, callback);
}

let toastTimer = null;

/** A notice for a few seconds, seen on screen and said by the announcements log; `view`: the
 * view it is about, whose going hides it (a PEEL's notice is not left over the end's title). */
export function toast(text, { said = true, view = "" } = {}) {
  if (said) announce(text); // `said: false`: the announcements log says it already
  const box = $("toast");
  box.textContent = text;
  box.dataset.view = view;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4000);
}

/** The end of this page's room: why, and a way to a new one. */
export function gone(text) {
  $("gone-title").textContent = text;
  show("gone");
}
