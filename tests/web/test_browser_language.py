"""The room's language from the first screen (issue 40), in a real browser: a French room's
invitee, whose browser speaks English, is never shown English - the join form, the page's own
message for an empty name (not the browser's), a full room's refusal, the labels read to a
screen reader - and can switch the page to English in the room, for themself only.
"""

from __future__ import annotations

import pytest
from test_browser import add_bot, create_room, new_page

pytestmark = pytest.mark.browser

# English a French page must not show (the visible text and the accessible names).
ENGLISH = ("Join the room", "Your name", "Please enter a name", "This room is full", "Room link", "Bot preset")


def french_room(browser, server, bots: int = 0) -> tuple:
    host = new_page(browser, locale="fr-FR")
    host.goto(server.url + "/")
    host.select_option("#language", "fr")
    link = create_room(host, server, "Ana")
    for _ in range(bots):
        add_bot(host, "easy")
    return host, link


def english_left(page) -> list[str]:
    """The English strings the page shows or names (aria-label, alt, title)."""
    names = "els => els.filter(e => !e.closest('[hidden]')).map(e => [e.ariaLabel, e.alt, e.title].join(' '))"
    text = page.inner_text("body") + " ".join(page.eval_on_selector_all("[aria-label], [alt], [title]", names))
    return [phrase for phrase in ENGLISH if phrase in text]


def test_a_french_rooms_invitee_sees_french_from_the_join_form_on(browser, serve):
    server = serve()
    host, link = french_room(browser, server)
    guest = new_page(browser, locale="en-US")  # an English browser, never here before
    guest.goto(link)
    guest.wait_for_selector("#join:not([hidden])")
    assert guest.evaluate("document.documentElement.lang") == "fr"
    assert guest.inner_text("#join h1") == "Rejoindre la salle"
    guest.click("#join-button")  # no name: the page's own message, in French
    assert guest.inner_text("#join-name-message").startswith("Entrez un nom")
    assert guest.evaluate("document.querySelector('#join-form').noValidate")  # no English bubble of the browser's
    assert english_left(guest) == []
    guest.fill("#join-name", "Ben")
    guest.click("#join-button")
    guest.wait_for_selector("#lobby:not([hidden])")
    assert english_left(guest) == [] and english_left(host) == []

    # Ben switches his page to English; the room, and Ana's page, stay French.
    guest.select_option("#ui-language", "en")
    assert guest.inner_text("#lobby h1") != host.inner_text("#lobby h1")
    assert "Room link" in guest.get_attribute("#room-link", "aria-label")
    guest.reload()
    guest.wait_for_selector("#lobby:not([hidden])")
    assert guest.evaluate("document.documentElement.lang") == "en"  # kept for this room
    assert host.evaluate("document.documentElement.lang") == "fr"
    assert guest.errors == [] and host.errors == []


def test_a_full_french_room_refuses_in_french(browser, serve):
    server = serve()
    host, link = french_room(browser, server, bots=3)  # four seats taken
    guest = new_page(browser, locale="en-US")
    guest.goto(link)
    guest.fill("#join-name", "Cy")
    guest.click("#join-button")
    guest.wait_for_selector("#join-message:not([hidden])")
    assert guest.inner_text("#join-message") == "Cette salle est pleine : 4 joueurs sont assis."
    assert english_left(guest) == []
    # The bots' names follow French word order ("robot facile", not "facile robot").
    assert any(name.startswith("robot ") for name in host.locator(".seat").all_inner_texts())
