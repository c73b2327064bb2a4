"""A whole hand in a French browser against a bot, from the home page to the end screen, its
review and its replay: no English string is ever shown or announced. What is checked at each
moment: the page's visible text, the names read to a screen reader (aria-label, alt, title,
the hidden reasons of the calls) and every line of the announcements log, against the English
of the page's own word list (i18n_en.js: each value that differs from its French, cut at its
placeholders) and a short list of English words."""

from __future__ import annotations

import re

import pytest
from helpers import SLOW_BOT
from test_browser import add_bot, new_page
from test_browser_access import Listener
from test_browser_keyboard_hand import HEAR_ALL

from solver.core.grid import Grid, validate
from solver.search import solve

pytestmark = pytest.mark.browser

# 44 tiles: two hands of 21 and one PEEL, then the bunch is empty and BANANAS ends the hand.
TWO_HANDS_SET = "A6,E10,I4,L3,N3,O3,R4,S5,T4,U2"

# English words no French page says, as whole words (the page's word list is the rest of the check).
ENGLISH_WORDS = (
    "the",
    "tiles",
    "tile",
    "wins",
    "bot",
    "placed",
    "picked",
    "your",
    "grid",
    "rack",
    "peeled",
    "dumped",
    "called",
    "row",
    "column",
    "across",
    "down",
    "cursor",
    "left",
    "empty",
    "hand",
    "words",
)

# Each value of the English word list that the French one says otherwise, as the runs of text
# between its placeholders ({name}); runs of at least two words, as a sentence would show them.
ENGLISH_PHRASES = """async () => {
  const { EN } = await import('/static/i18n_en.js');
  const { FR } = await import('/static/i18n_fr.js');
  const runs = new Set();
  for (const [key, text] of Object.entries(EN)) {
    if (FR[key] === text) continue;
    for (const run of text.split(/\\{\\w+\\}/)) {
      const words = run.trim().replace(/^[^\\p{L}]+|[^\\p{L}]+$/gu, '');
      if (/\\p{L}+[\\s'’-]+\\p{L}+/u.test(words)) runs.add(words);
    }
  }
  return [...runs];
}"""

# What the page shows and says now: the visible text, the accessible names and descriptions of
# the elements in view, and the announcements log.
SHOWN = """() => {
  const shown = (e) => !e.closest('[hidden]');
  const names = [...document.querySelectorAll('[aria-label], [alt], [title]')].filter(shown)
    .map(e => [e.getAttribute('aria-label'), e.getAttribute('alt'), e.getAttribute('title')].join(' '));
  const described = [...document.querySelectorAll('[aria-describedby]')].filter(shown)
    .flatMap(e => e.getAttribute('aria-describedby').split(/\\s+/))
    .map(id => document.getElementById(id)?.textContent ?? '');
  return [document.body.innerText, ...names, ...described].join('\\n');
}"""


class EveryLine(Listener):
    """A listener that hears every line said, not only those the log still keeps (HEAR_ALL)."""

    def lines(self) -> list[str]:
        return self.log.page.evaluate("window.heard")


def english_in(text: str, phrases: list[str]) -> list[str]:
    """The English phrases and words found in `text`."""
    found = [phrase for phrase in phrases if phrase in text]
    found += [word for word in ENGLISH_WORDS if re.search(rf"(?<![\w-]){word}(?![\w-])", text, re.IGNORECASE)]
    return found


def unspaced(text: str) -> list[str]:
    """French punctuation without its space: a word glued to its ':', ';', '!' or '?'."""
    return [match.group(0) for match in re.finditer(r"[^\W\d_]+[:;!?](?=\s|$)", text)]


class FrenchWatch:
    """The page read at each moment of the hand; what English it showed and where."""

    def __init__(self, page):
        self.page = page
        self.phrases = page.evaluate(ENGLISH_PHRASES)
        assert len(self.phrases) > 200  # the word list was read
        self.found: dict[str, list[str]] = {}

    def look(self, moment: str) -> None:
        shown = self.page.evaluate(SHOWN)
        found = english_in(shown, self.phrases) + unspaced(shown)
        if found:
            self.found[moment] = found


# The call buttons in view whose label does not fit them or that lie past the screen's edge.
CALLS_CUT = """() => [...document.querySelectorAll('#table .actions button')].filter(b => !b.hidden).filter(b => {
  const r = b.getBoundingClientRect();
  return r.left < 0 || r.right > innerWidth + 0.5 || b.scrollWidth > b.clientWidth + 1; }).map(b => b.textContent)"""


def calls_cut(page) -> list[str]:
    return page.evaluate(CALLS_CUT)


def french_grid(letters: str) -> Grid:
    result = solve(letters, lexicon="fr", time_limit=10.0)
    assert result.status == "solved", (letters, result.status)
    return result.grid


def command(page, listener: EveryLine, text: str, answer: str) -> str:
    page.fill("#command", text)
    page.press("#command", "Enter")
    return listener.wait_for(answer)


def lay_french(page, listener: EveryLine, grid: Grid, fr) -> None:
    """Every word of `grid` typed in the command field the French way (h: across, v: down)."""
    for word in validate(grid, fr).words:
        (row, col) = min(word.cells)
        direction = "h" if word.direction == "across" else "v"
        command(page, listener, f"{word.text.lower()} {row + 1} {col + 1} {direction}", r"Posé|déjà")


def held(page) -> str:
    return "".join(page.eval_on_selector_all("#rack .tile", "tiles => tiles.map(t => t.dataset.letter)"))


READ_COMMANDS = ("grille", "chevalet", "mots", "où E", "vérifier", "joueurs", "temps", "aide", "lire ligne 1")


VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280", "360"])
def test_a_french_hand_against_a_bot_shows_and_says_no_english(browser, serve, shots, fr, viewport):
    # The easy bot thinks for minutes (Zoé wins the first hand); the hard one wins the second.
    server = serve(distribution=TWO_HANDS_SET, bots={"easy": SLOW_BOT, "hard": "medium:speed=30"})
    phone = viewport["width"] < 500
    page = new_page(browser, locale="fr-FR", viewport=viewport, is_mobile=phone, has_touch=phone)
    page.context.add_init_script(HEAR_ALL)
    page.goto(server.url + "/")
    page.select_option("#language", "fr")
    watch = FrenchWatch(page)
    watch.look("accueil")
    page.fill("#name", "Zoé")
    page.check("#hints")
    page.click("#create")
    page.wait_for_selector("#lobby:not([hidden])")
    add_bot(page, "easy")
    watch.look("salle")
    page.click("#start")
    listener = EveryLine(page)
    listener.wait_for(r"Votre chevalet, 21 tuiles")
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 21")
    watch.look("donne")
    page.click("#hint")
    page.wait_for_selector("#hint-text:not([hidden])")
    watch.look("indice")
    assert calls_cut(page) == []

    first = french_grid(held(page))
    lay_french(page, listener, first, fr)
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 0")
    for text in READ_COMMANDS:
        command(page, listener, text, ".")
    watch.look("grille posée")
    page.screenshot(path=str(shots / f"fr-hand-table-{viewport['width']}.png"))
    command(page, listener, "piocher", r"Nouvelles tuiles|Nouvelle tuile")
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 1")
    watch.look("pioche")
    page.click("#recall")
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 22")
    lay_french(page, listener, french_grid(held(page)), fr)
    page.wait_for_function("document.querySelectorAll('#rack .tile').length === 0")
    command(page, listener, "bananas", r"Zoé gagne")
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_function("document.getElementById('review').children.length > 0")  # the coach's review
    watch.look("fin")
    page.screenshot(path=str(shots / f"fr-hand-end-{viewport['width']}.png"), full_page=True)
    page.click("#replay")
    page.wait_for_selector("#replay-view:not([hidden])")
    watch.look("relecture")

    # A second hand, against the hard bot: it builds, PEELs and calls BANANAS while Zoé reads.
    page.click("#again")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click(".remove-bot")
    page.wait_for_function("document.querySelectorAll('.seat').length === 1")
    add_bot(page, "hard")
    page.click("#start")
    listener.wait_for(r"Votre chevalet, 21 tuiles")
    watch.look("deuxième donne")
    page.wait_for_selector("#log li:has-text('robot difficile pioche')", state="attached", timeout=120_000)
    watch.look("pioche du robot")
    page.wait_for_selector("#end:not([hidden])", timeout=120_000)
    listener.wait_for(r"robot difficile gagne")
    assert "robot difficile pioche" in " ".join(listener.lines()[-2:])  # (one line when they come at once)
    assert page.is_hidden("#toast")  # the PEEL's notice went with the table: not over the end's title
    page.wait_for_function("document.getElementById('review').children.length > 0")
    watch.look("fin du robot")
    page.screenshot(path=str(shots / f"fr-hand-bot-end-{viewport['width']}.png"), full_page=True)

    heard = "\n".join(listener.lines())
    assert english_in(heard, watch.phrases) == [], heard
    assert watch.found == {}

    # The check finds English where there is some: the same end screen, the page switched to English.
    page.select_option("#ui-language", "en")
    assert len(english_in(page.evaluate(SHOWN), watch.phrases)) > 10
    assert page.errors == []
