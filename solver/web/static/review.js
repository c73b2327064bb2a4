// The coach's review on the end view: each player's grid beside the best grid their tiles
// allowed, their pace, their dumps, and for a rotten grid the nearest valid one.

import { figureOf } from "./grids.js";
import { t } from "./i18n.js";
import { shownName } from "./names.js";
import { $ } from "./page.js";
import { get, update, you } from "./state.js";
import { clockText } from "./text.js";

/** The `review` message: the review of the hand on screen (an older hand's is dropped). */
export function onReview(message) {
  if (message.hand !== get("hand")) return;
  update({ review: message });
  renderReview();
}

/** A player's name in the review (by their index in the hand): "You" for this page's person. */
export const reviewName = (index) => {
  const name = get("lastEnd")?.boards[index]?.name ?? `P${index + 1}`;
  return name === you() ? `${shownName(name)} (${t("review_you")})` : shownName(name);
};

function line(className, text) {
  const paragraph = document.createElement("p");
  paragraph.className = className;
  paragraph.textContent = text;
  return paragraph;
}

export function renderReview() {
  const review = get("review");
  const lastEnd = get("lastEnd");
  const hand = review?.review;
  $("review-note").textContent = !review ? t("review_wait") : hand ? "" : t("review_none");
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
    const own = lastEnd?.boards[player.player]?.name === you(); // this page's person: "Your grid"
    const mine = figureOf(player.grid, t(own ? "review_mine" : "review_yours"),
      lastEnd?.boards[player.player]?.invalid_cells || []);
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
