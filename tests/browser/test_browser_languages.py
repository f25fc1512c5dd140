"""The table page (and its hands pad) and the standings in each of the four languages, on a phone
(390×844): chosen from the language menu, which names each language in its own words, the page
says its language, reads in it, names every control in it (what a screen reader reads), and has
no serious accessibility violation. Screenshots: test-results/screenshots/lang-<code>-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.test_browser_a11y import CONTROL_NAMES, untranslated, violations
from tests.browser.test_browser_public import swiss_in_play
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

#: what the language menu shows, in the order of settings.LANGUAGES
MENU = ["Español", "English", "Euskara", "Français"]

#: language → phrases its table page, hands pad and standings must show
PHRASES = {
    "es": {
        "table": ["¿Qué pareja sois?", "Juego a juego", "Enviar resultado"],
        "pad": ["Anotar mano", "Grande", "Chica"],
        "standings": ["Clasificación", "Orden de desempate:"],
    },
    "en": {
        "table": ["Which pair are you?", "Game by game", "Send result"],
        "pad": ["Record hand", "Grande", "Chica"],
        "standings": ["Standings", "Tiebreak order:"],
    },
    "eu": {
        "table": ["Zein bikote zarete?", "Jokoz joko", "Bidali emaitza"],
        "pad": ["Idatzi jokaldia", "Handia", "Txikia"],
        "standings": ["Sailkapena", "Berdinketa hausteko ordena:"],
    },
    "fr": {
        "table": ["Quel couple êtes-vous ?", "Jeu par jeu", "Envoyer le résultat"],
        "pad": ["Noter la manche", "Grand", "Petit"],
        "standings": ["Classement", "Ordre de départage :"],
    },
}


def choose(page, language: str) -> None:
    """Pick ``language`` in the page's language menu, as a person does."""
    menu = page.locator("#lang-select")
    assert menu.locator("option").all_inner_texts() == MENU
    code = page.evaluate("document.documentElement.lang")
    if code != language:
        with page.expect_navigation():  # site.js sends the menu as soon as it changes
            menu.select_option(language)
    assert page.evaluate("document.documentElement.lang") == language


def read(page, language: str, what: str, screenshot) -> list[str]:
    """The problems of the page on screen, in ``language`` (empty when it is right)."""
    problems = []
    text = page.locator("body").inner_text()
    for phrase in PHRASES[language][what]:
        if phrase not in text:
            problems.append(f"{language} {what}: {phrase!r} is not on the page")
    spanish = untranslated(language) & set(page.evaluate(CONTROL_NAMES))
    if spanish:
        problems.append(f"{language} {what}: controls named in Spanish: {sorted(spanish)}")
    problems += [f"{language} {what}: {v}" for v in violations(page)]
    screenshot(page, f"lang-{language}-{what}")
    return problems


@pytest.mark.parametrize("language", list(PHRASES))
def test_the_table_and_the_standings_in_each_language(new_phone, live_server, screenshot, language):
    t, phase, entries, current, organizer = swiss_in_play(8)
    table = current.matches.filter(status=Match.Status.PENDING).order_by("table_number").first()
    link = f"{live_server.url}/mesa/{table.token}/"
    phone = new_phone()

    phone.goto(link)
    choose(phone, language)
    problems = read(phone, language, "table", screenshot)

    phone.goto(link + "anotador/")
    assert phone.evaluate("document.documentElement.lang") == language
    problems += read(phone, language, "pad", screenshot)

    phone.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/clasificacion/")
    assert phone.evaluate("document.documentElement.lang") == language
    problems += read(phone, language, "standings", screenshot)
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_control_left_in_spanish(phone, live_server):
    phone.goto(live_server.url + "/")
    choose(phone, "fr")
    phone.evaluate(
        """() => document.querySelector('main').insertAdjacentHTML(
            'beforeend', '<button type="button">Anotar mano</button>')"""
    )
    assert "Anotar mano" in untranslated("fr") & set(phone.evaluate(CONTROL_NAMES))
