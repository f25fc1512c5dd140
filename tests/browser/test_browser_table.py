"""The table's phones in a real browser (Chromium at 390×844): two phones on one table's link,
the anotador's buttons, the quick entry's running tally, confirmation, a submission made
without connection, and the errors a person reads.

Rules (tests.factories.TournamentFactory): games to 40 stones, 2 games win the vaca, 1 vaca the
match — the best of three games.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import HandEntry, Match, ResultSubmission, Tournament
from tournaments.services import results as svc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, name="Torneo de San Fermín")
    match = MatchFactory(round__phase__tournament=tournament, table_number=4)
    names = (("Ana", "Bea"), ("Carlos", "Dani"))
    for entry, (one, two) in zip((match.entry_a, match.entry_b), names, strict=True):
        entry.pair.player_one.first_name, entry.pair.player_two.first_name = one, two
        entry.pair.player_one.save()
        entry.pair.player_two.save()
    return match


def link(live_server, match: Match, tail: str = "") -> str:
    return f"{live_server.url}/mesa/{match.token}/{tail}"


def shot(screenshot, page, name: str) -> None:
    # At the end of the page, so that the sticky bottom bar sits where the form ends (a full
    # page screenshot keeps sticky elements where the viewport put them).
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    screenshot(page, name)


def tap(page, lance: str, pair: str, act: str) -> None:
    page.locator(
        f'.t-lance[data-lance="{lance}"] .t-pad-col[data-pair="{pair}"] button[data-act="{act}"]'
    ).click()


def winner(page, lance: str, label: str) -> None:
    page.locator(f'.t-lance[data-lance="{lance}"] .t-win label', has_text=label).click()


def test_two_phones_one_plays_hand_by_hand_and_quickly_the_other_confirms(
    new_phone, live_server, match, screenshot, transferred
):
    first = new_phone()
    size = transferred(first, link(live_server, match))
    assert size < 60_000, f"the table page took {size} bytes"
    assert first.locator("h1").inner_text() == "Mesa 4"
    assert "Ana García" in first.locator(".t-seats").inner_text()
    shot(screenshot, first, "table-page")

    # Hand 1, A1 mano: A envida la grande y B quiere; chica en paso; nadie tiene pares ni juego
    first.get_by_role("link", name="Mano a mano").click()
    tap(first, "grande", "A", "envido")
    tap(first, "grande", "B", "quiero")
    winner(first, "grande", "Pareja A")
    winner(first, "chica", "Pareja B")  # en paso: nothing to say but who won
    winner(first, "juego", "Pareja A")  # punto: nobody has juego
    assert first.locator("#bets_grande").input_value() == "A: envido, B: quiero"
    assert first.locator(".t-last-name").inner_text() == "Punto"
    shot(screenshot, first, "table-anotador-mid-hand")
    first.get_by_role("button", name="Anotar mano").click()
    first.wait_for_selector("#t-last")
    # A: grande querida 2 + punto 1; B: chica en paso 1
    assert first.locator(".t-big").all_inner_texts() == ["3", "1"]

    # Hand 2, B1 mano: órdago de B a la grande, A lo quiere y gana: juego para A
    tap(first, "grande", "B", "órdago")
    tap(first, "grande", "A", "quiero")
    winner(first, "grande", "Pareja A")
    first.get_by_role("button", name="Anotar mano").click()
    first.wait_for_selector(".t-banner")
    assert "¡Juego para la pareja A!" in first.locator(".t-banner").inner_text()
    shot(screenshot, first, "table-anotador-game-closed")

    # The rest quickly: game 1 comes from the hands, game 2 is typed
    first.get_by_role("link", name="Juego a juego").click()
    assert first.locator('input[name="g1_o"]').is_checked()
    first.locator('input[name="g2_a"]').fill("40")
    first.locator('input[name="g2_b"]').fill("25")
    tally = first.locator("#t-tally")
    assert "Partida decidida: gana la pareja A" in tally.inner_text()
    assert first.locator('input[name="g3_a"]').is_hidden()  # no third game after a 2-0
    first.locator(".t-who label", has_text="Pareja A").click()
    shot(screenshot, first, "table-quick-entry-tally")
    first.get_by_role("button", name="Enviar resultado").click()
    first.wait_for_selector("#t-receipt")
    assert "Enviado por la pareja A" in first.locator("#t-receipt").inner_text()
    screenshot(first, "table-receipt")

    second = new_phone()
    second.goto(link(live_server, match))
    assert "La pareja A ha enviado este resultado" in second.locator("#t-submitted").inner_text()
    shot(screenshot, second, "table-confirm")
    second.get_by_role("button", name="Confirmar (pareja B)").click()
    second.wait_for_selector("#t-confirmed")
    assert "Este resultado ya está confirmado" in second.locator("#t-confirmed").inner_text()
    screenshot(second, "table-confirmed")

    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.entry_a_id
    assert (match.games_a, match.games_b) == (2, 0)
    assert HandEntry.objects.filter(match=match).count() == 2
    # the first phone's link is closed too
    first.goto(link(live_server, match))
    assert "Este resultado ya está confirmado" in first.locator("#t-confirmed").inner_text()


def test_a_result_sent_without_connection_is_kept_and_recorded_once(phone, live_server, match):
    phone.goto(link(live_server, match))
    phone.locator(".t-who label", has_text="Pareja B").click()
    for name, value in (("g1_a", "40"), ("g1_b", "12"), ("g2_a", "40"), ("g2_b", "39")):
        phone.locator(f'input[name="{name}"]').fill(value)

    phone.context.set_offline(True)
    phone.get_by_role("button", name="Enviar resultado").click()
    # The status says "Enviando…" first and changes once the request fails: wait for the
    # change (reading it as soon as it shows raced the failing request).
    expect(phone.locator("#t-status")).to_contain_text(
        "Guardado en este móvil; se enviará solo", timeout=10_000
    )
    kept = json.loads(phone.evaluate("localStorage.getItem('amarrako:pending')"))
    assert len(kept) == 1 and "g2_b=39" in kept[0]["body"]

    # Back online, the first try reaches the server but its answer is lost on the way back:
    # the phone tries again with the same key, and the server answers what it answered first.
    tries = []

    def lose_the_first_answer(route):
        tries.append(route.request.post_data)
        if len(tries) == 1:
            route.fetch()
            route.abort()
        else:
            route.continue_()

    # the context's route: the post goes through the table's service worker once it runs
    phone.context.route("**/resultado/", lose_the_first_answer)
    phone.context.set_offline(False)
    phone.wait_for_selector("#t-receipt", timeout=20_000)

    assert len(tries) == 2 and tries[0] == tries[1]
    assert ResultSubmission.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.SUBMITTED
    assert phone.evaluate("localStorage.getItem('amarrako:pending')") == "[]"


def test_errors_tell_the_person_what_to_do(new_phone, live_server, match, screenshot):
    first, second = new_phone(), new_phone()
    first.goto(link(live_server, match))
    second.goto(link(live_server, match))

    # an impossible score: the engine's reason, in Spanish, and the input kept
    first.locator(".t-who label", has_text="Pareja A").click()
    first.locator('input[name="g1_a"]').fill("40")
    first.locator('input[name="g1_b"]').fill("41")
    first.get_by_role("button", name="Enviar resultado").click()
    error = first.locator("#table-errors .t-error")
    error.wait_for()
    assert "Juego 1: las dos parejas tienen 40 o más (40-41)" in error.inner_text()
    assert first.locator('input[name="g1_b"]').input_value() == "41"
    shot(screenshot, first, "table-error-impossible-score")

    # a stale page: the other phone sent its result meanwhile
    second.locator(".t-who label", has_text="Pareja B").click()
    for name, value in (("g1_a", "10"), ("g1_b", "40"), ("g2_a", "22"), ("g2_b", "40")):
        second.locator(f'input[name="{name}"]').fill(value)
    second.get_by_role("button", name="Enviar resultado").click()
    second.wait_for_selector("#t-receipt")
    first.locator('input[name="g1_b"]').fill("30")
    first.locator('input[name="g2_a"]').fill("40")
    first.locator('input[name="g2_b"]').fill("20")
    first.get_by_role("button", name="Enviar resultado").click()
    # a locator's expectation, not wait_for_function: polling a string predicate is an eval,
    # which the pages' CSP (script-src 'self') refuses when the first check comes out false
    expect(first.locator("#table-errors")).to_contain_text("recarga")
    assert "La otra pareja ya envió un resultado; recarga la página" in error.inner_text()
    first.get_by_role("link", name="Recargar la página").click()
    assert "La pareja B ha enviado este resultado" in first.locator("#t-submitted").inner_text()
    assert ResultSubmission.objects.filter(match=match).count() == 1

    # an unknown link, and the link of a match already confirmed
    first.goto(f"{live_server.url}/mesa/no-es-una-mesa/")
    assert "Este enlace de mesa no es válido" in first.locator("#table-errors").inner_text()
    other = MatchFactory(round=match.round, table_number=5)
    svc.match_result_submit(
        match=other,
        side="a",
        payload={"games": [{"winner": "A"}, {"winner": "A"}]},
        idempotency_key="a",
        version=0,
        via="link",
    )
    svc.match_result_confirm(match=other, side="b", idempotency_key="b", version=1, via="link")
    first.goto(link(live_server, other))
    assert "Este resultado ya está confirmado" in first.locator("#t-confirmed").inner_text()
    assert first.locator("form[data-queue]").count() == 0


def test_a_long_match_gets_more_rows_as_they_fill(phone, live_server):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, games_per_vaca=9)
    match = MatchFactory(round__phase__tournament=tournament)  # up to 17 games, 15 rows shown
    phone.goto(link(live_server, match))
    phone.locator(".t-who label", has_text="Pareja A").click()
    for n in range(1, 16):  # A 8 - B 7: still open
        label = "Gana A" if n % 2 else "Gana B"
        phone.locator(f'.t-game:has(input[name="g{n}_a"]) label', has_text=label).click()
    assert phone.locator(".t-game").count() == 16
    assert phone.locator(".t-game").last.locator("strong").inner_text() == "Juego 16"
    phone.locator('.t-game:has(input[name="g16_a"]) label', has_text="Gana A").click()
    assert "Partida decidida: gana la pareja A" in phone.locator("#t-tally").inner_text()
    phone.get_by_role("button", name="Enviar resultado").click()
    phone.wait_for_selector("#t-receipt")
    summary = ResultSubmission.objects.get(match=match).summary
    assert len(summary["games"]) == 16 and summary["winner"] == "A"


def test_the_phone_refuses_an_impossible_count_and_asks_about_a_rare_one(
    phone, live_server, match, screenshot
):
    phone.goto(link(live_server, match))
    phone.locator(".t-who label", has_text="Pareja A").click()
    # an órdago game with no winner yet is not "sin terminar": the row asks who won it
    ordago = phone.locator('.t-game:has(input[name="g1_o"]) label', has_text="Órdago")
    ordago.click()
    state = phone.locator(".t-game").first.locator(".t-game-state")
    assert state.inner_text() == "órdago: ¿quién lo ganó?"
    ordago.click()
    phone.locator('input[name="g1_a"]').fill("14000")
    phone.locator('input[name="g1_b"]').fill("10")
    phone.locator('input[name="g2_a"]').fill("40")
    phone.locator('input[name="g2_b"]').fill("22")
    # past the limit: the browser will not send it, and the field names the limit
    message = phone.locator('input[name="g1_a"]').evaluate("i => i.validationMessage")
    assert "14000 piedras es más de lo que puede acabar un juego a 40" in message
    assert "como mucho con 10038" in message
    phone.get_by_role("button", name="Enviar resultado").click()
    phone.wait_for_timeout(300)
    assert not ResultSubmission.objects.filter(match=match).exists()

    # possible but rare (a big envite accepted at the end): asked first, then sent
    phone.locator('input[name="g1_a"]').fill("70")
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        if len(asked) == 1:
            dialog.dismiss()
        else:
            dialog.accept()

    phone.on("dialog", answer)
    phone.get_by_role("button", name="Enviar resultado").click()
    phone.wait_for_timeout(300)
    assert len(asked) == 1 and "70 piedras es mucho más de 40" in asked[0]
    assert "¿Seguro" in asked[0]
    assert not ResultSubmission.objects.filter(match=match).exists()  # "no": nothing sent
    phone.get_by_role("button", name="Enviar resultado").click()
    phone.wait_for_selector("#t-receipt")
    assert len(asked) == 2
    games = ResultSubmission.objects.get(match=match).payload["games"]
    assert games[0] == {"stones": [70, 10]}
    shot(screenshot, phone, "table-rare-score-sent")
