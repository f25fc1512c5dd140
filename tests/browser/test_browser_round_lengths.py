"""A final longer than the semi-finals on the phone (Chromium at 390×844): the bases say
"semifinales al mejor de 3 juegos, final al mejor de 5"; the final's table page says so at the
top, its quick entry does not call the partida decided after two games won (a semi-final's
length), and a 3-1 is sent and accepted.

Rules (tests.factories.TournamentFactory): games to 40 stones, 2 games win the vaca, 1 vaca the
match; the final's round sets 3 games a vaca.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import tournament_field
from tournaments.models import Match, Round, Tournament
from tournaments.services.rounds import bracket_advance, phase_create, round_draw_generate

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def final():
    t, organizer, entries = tournament_field(4, status=Tournament.Status.RUNNING)
    ko = phase_create(
        tournament=t,
        actor=organizer,
        name="Cuadro",
        format="single_elimination",
        round_lengths={"semifinal": {"games_per_vaca": 2}, "final": {"games_per_vaca": 3}},
    )
    semis = round_draw_generate(phase=ko, actor=organizer)
    for m in semis.matches.all():
        m.status, m.winner_id, m.games_a = Match.Status.CONFIRMED, m.entry_a_id, 2
        m.save()
    Round.objects.filter(pk=semis.pk).update(status=Round.Status.CLOSED)
    bracket_advance(phase=ko)
    match = Match.objects.get(round__phase=ko, bracket_key="W2-1")
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.PUBLISHED)
    return match


def test_the_finals_phone_asks_for_the_longer_match(phone, live_server, final, screenshot):
    phone.goto(f"{live_server.url}/mesa/{final.token}/")
    expect(phone.get_by_test_id("table-length")).to_have_text("Final: al mejor de 5 juegos")
    tally = phone.locator("#t-tally")
    phone.locator('input[name="g3_a"]').wait_for(state="attached")
    for n, (a, b) in enumerate((("40", "12"), ("40", "30")), start=1):
        phone.locator(f'input[name="g{n}_a"]').fill(a)
        phone.locator(f'input[name="g{n}_b"]').fill(b)
    # two games won decide a semi-final, not this final
    assert "decidida" not in tally.inner_text()
    phone.locator('input[name="g3_a"]').fill("20")
    phone.locator('input[name="g3_b"]').fill("40")
    phone.locator('input[name="g4_a"]').fill("40")
    phone.locator('input[name="g4_b"]').fill("8")
    expect(tally).to_have_text("Partida decidida: gana la pareja A. Revisa y envía.")
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, "table-final-best-of-5")
    phone.locator('input[name="side"][value="a"]').check()
    phone.get_by_role("button", name="Enviar resultado").click()
    phone.wait_for_url("**/recibo/**")
    final.refresh_from_db()
    assert final.status == Match.Status.SUBMITTED
    assert (final.games_a, final.games_b) == (0, 0)  # confirmed by the other pair later
    summary = final.submissions.get().summary
    assert summary["rules"]["games_per_vaca"] == 3 and summary["finished"]
    assert [g["winner"] for g in summary["games"]] == ["A", "A", "B", "A"]
