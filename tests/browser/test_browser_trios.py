"""One round of a tournament of trios entered hand by hand on the phones (Chromium at 390×844):
six seats around the table, a chip row per player for pares and juego, the pad by trio, the
one-tap "Órdago · no quiero", the result sent from the anotador and confirmed by the other trio.

Rules (tests.factories.TournamentFactory): games to 40 stones, 2 games win the vaca, 1 vaca the
match — the best of three games.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import MembershipFactory, TournamentFactory
from tournaments.models import HandEntry, Match, Tournament
from tournaments.services.entrants import trio_register_pasted
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = pytest.mark.django_db(transaction=True)

#: counts the touches the page receives (touch taps fire one trusted pointerdown each)
COUNTER = """
document.addEventListener("pointerdown", function (event) {
  if (!event.isTrusted) return;
  sessionStorage.setItem("taps", String(+(sessionStorage.getItem("taps") || 0) + 1));
}, true);
"""


@pytest.fixture
def match():
    tournament = TournamentFactory(
        entrant_kind=Tournament.EntrantKind.TRIOS, tables_available=0, name="Trios de Lekeitio"
    )
    organizer = MembershipFactory(club=tournament.club).user
    trio_register_pasted(
        tournament=tournament,
        actor=organizer,
        text="Ana García / Bea Ruiz / Eneko Agirre\nCarlos Díaz / Dani Sanz / Itziar Otxoa",
    )
    phase = phase_create(
        tournament=tournament, actor=organizer, name="Suizo", format="swiss", rounds_planned=1
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return rnd.matches.get()


def link(live_server, match: Match, tail: str = "") -> str:
    return f"{live_server.url}/mesa/{match.token}/{tail}"


def bet(page, lance: str, trio: str, act: str) -> None:
    page.locator(
        f'.t-lance[data-lance="{lance}"] .t-pad-col[data-pair="{trio}"] button[data-act="{act}"]'
    ).tap()


def winner(page, lance: str, trio: str) -> None:
    page.locator(f'.t-lance[data-lance="{lance}"] .t-win label', has_text=f"Trío {trio}").tap()


def said(page, lance: str, position: str, value: str) -> None:
    page.locator(
        f'.t-lance[data-lance="{lance}"] .t-player[data-position="{position}"] '
        f'label:has(input[value="{value}"])'
    ).tap()


def send(page) -> None:
    page.get_by_role("button", name="Anotar mano").tap()


def taps(page) -> int:
    return int(page.evaluate("sessionStorage.getItem('taps') || '0'"))


def test_a_round_of_trios_hand_by_hand_on_the_phones(new_phone, live_server, match, screenshot):
    first = new_phone()
    first.context.add_init_script(COUNTER)
    first.goto(link(live_server, match))
    seats = first.locator(".t-seats")
    for position in ("A1", "B1", "A2", "B2", "A3", "B3"):
        expect(seats.locator(f".t-s-{position.lower()}")).to_be_visible()
    assert "Eneko Agirre" in seats.inner_text() and "Itziar Otxoa" in seats.inner_text()
    screenshot(first, "trios-table-page")

    first.get_by_role("link", name="Mano a mano").click()
    expect(first.locator(".t-mano")).to_contain_text("el trío A es mano y el B, postre")
    assert first.locator('.t-lance[data-lance="pares"] .t-player').count() == 6
    assert first.locator("#t-points").count() == 1  # lance points: the engine reads trios

    # Hand 1, A1 mano: A envida la grande y B quiere; chica en paso; A3 duples y B2 par (los
    # duples ganan: lo dice lo declarado); solo B3 tiene juego (31): se cuenta sin apuestas
    before = taps(first)
    bet(first, "grande", "A", "envido")
    bet(first, "grande", "B", "quiero")
    winner(first, "grande", "A")
    winner(first, "chica", "B")
    said(first, "pares", "A3", "duples")
    said(first, "pares", "B2", "par")
    said(first, "juego", "B3", "31")
    expect(first.locator('.t-lance[data-lance="pares"] .t-win-note')).to_have_text(
        "Lo dice lo declarado (puedes cambiarlo)."
    )
    expect(first.locator('.t-lance[data-lance="juego"] .t-held')).to_have_text(
        "Solo el trío B tiene: se lo cuenta sin apuestas."
    )
    first.evaluate("window.scrollTo(0, 0)")
    screenshot(first, "trios-anotador-hand-1")
    send(first)
    expect(first.locator("#t-last h2")).to_contain_text("Mano n.º 1:")
    assert taps(first) - before == 8  # an ordinary hand in 8 taps, as at a table of four
    # A: grande querida 2 + duples 3; B: chica en paso 1 + juego 31 (3)
    assert first.locator(".t-big").all_inner_texts() == ["5", "4"]

    # Hand 2, B1 mano: A echa órdago a la grande y B no lo quiere, en un toque
    before = taps(first)
    bet(first, "grande", "A", "órdago no")
    assert first.locator("#bets_grande").input_value() == "A: órdago, B: no quiero"
    expect(first.locator('.t-lance[data-lance="grande"] .t-win .t-seg')).to_be_hidden()
    winner(first, "chica", "A")
    winner(first, "juego", "B")  # punto: nobody has juego
    send(first)
    expect(first.locator("#t-last h2")).to_contain_text("Mano n.º 2:")
    assert taps(first) - before == 4  # a refused órdago in 4 taps
    assert first.locator(".t-big").all_inner_texts() == ["7", "5"]  # deje 1 + chica; punto

    # Hands 3 and 4: an órdago accepted each, both to A: the match is over
    for number in (3, 4):
        bet(first, "grande", "B", "órdago")
        bet(first, "grande", "A", "quiero")
        winner(first, "grande", "A")
        send(first)
        expect(first.locator("#t-last h2")).to_contain_text(f"Mano n.º {number}:")
    expect(first.locator(".t-banner")).to_have_text("¡Juego para el trío A!")
    expect(first.locator("#t-finished h2")).to_have_text("Partida terminada: gana el trío A")
    first.locator(".t-who label", has_text="Trío A").tap()
    screenshot(first, "trios-anotador-finished")
    first.get_by_role("button", name="Enviar el resultado").tap()
    first.wait_for_selector("#t-receipt")

    second = new_phone()
    second.goto(link(live_server, match))
    expect(second.locator("#t-submitted h2")).to_have_text("El trío A ha enviado este resultado")
    second.get_by_role("button", name="Confirmar (trío B)").tap()
    second.wait_for_selector("#t-confirmed")
    screenshot(second, "trios-confirmed")

    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.entry_a_id
    assert (match.games_a, match.games_b) == (2, 0)
    assert HandEntry.objects.filter(match=match).count() == 4
    assert len(HandEntry.objects.get(match=match, number=1).payload["declarations"]["pares"]) == 6
