"""One round of an individual tournament and one of trios, end to end on phones (390×844).

The organizer registers the entrants on the desk's page (players alone, one per line; trios,
three names a line), adds a Swiss phase, starts the tournament, draws and publishes round 1;
each table's two phones enter the result quickly and confirm it; an anonymous phone reads the
public clasificación: the players' own standings (points = juegos won) for the individual
tournament, the trios' for the trios one.

Rules (tests.factories.TournamentFactory): juegos a 40 piedras, 2 juegos the vaca, 1 vaca the
partida. Screenshots go to test-results/screenshots/forms-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubs.models import Membership
from tests.browser.test_browser_full_day import submit_and_confirm
from tests.browser.test_browser_organizer import log_in, no_horizontal_overflow
from tests.factories import ClubFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import Match, Round, Tournament

A_WINS = [(40, 21), (40, 33)]
PLAYERS = [
    "Ana García",
    "Luis Pérez",
    "Miren Etxeberria",
    "Jon Agirre",
    "Carmen Ruiz",
    "Pedro Sanz",
    "Itziar Goñi",
    "Mikel Arana",
]
TRIOS = [
    "Ana García / Luis Pérez / Eva Ruiz",
    "Miren Etxeberria / Jon Agirre / Iker Goñi",
    "Carmen Ruiz / Pedro Sanz / Rosa Gil",
    "Itziar Goñi / Mikel Arana / Txema Ortiz",
]


@pytest.fixture
def organizer():
    user = UserFactory(username="maite")
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=user, role=Membership.Role.OWNER)
    return user


def tournament(organizer, kind: str, name: str) -> Tournament:
    return TournamentFactory(
        club=organizer.memberships.get().club,
        name=name,
        entrant_kind=kind,
        tables_available=0,
        status=Tournament.Status.REGISTRATION,
    )


def register_and_draw(desk, base: str, t: Tournament, lines: list[str], registered: str) -> Round:
    """Paste the entrants on the desk, add a Swiss phase, start, draw and publish round 1."""
    log_in(desk, base, f"/organizador/torneos/{t.pk}/parejas")
    desk.locator("textarea[name=text]").fill("\n".join(lines))
    # The preview first: what would be registered, nothing stored, the list kept in the form.
    desk.get_by_role("button", name="Vista previa").click()
    players = sum(line.count("/") + 1 for line in lines)
    expect(desk.get_by_test_id("preview")).to_contain_text(f"{players} jugadores nuevos")
    expect(desk.get_by_test_id("preview").locator("tbody tr")).to_have_count(len(lines))
    no_horizontal_overflow(desk)
    desk.get_by_role("button", name="Inscribir la lista").click()
    expect(desk.locator(".messages")).to_contain_text(registered)
    no_horizontal_overflow(desk)
    desk.get_by_role("link", name="Volver al torneo").click()
    desk.locator(".actionbar").get_by_role("link", name="Añadir una fase").click()
    desk.fill("#id_rounds_planned", "3")
    desk.get_by_role("button", name="Añadir fase").click()
    desk.get_by_role("button", name="Empezar el torneo").click()
    expect(desk.locator(".messages")).to_contain_text("El torneo ha empezado")
    desk.get_by_role("button", name="Sortear la ronda 1").click()
    expect(desk.locator("h1")).to_contain_text("Ronda 1")
    expect(desk.locator(".table-row")).to_have_count(2)
    desk.get_by_role("button", name="Publicar la ronda").click()
    expect(desk.locator(".messages")).to_contain_text("Publicada: Ronda 1")
    return Round.objects.get(phase__tournament=t, number=1)


@pytest.mark.django_db(transaction=True)
def test_one_round_of_an_individual_tournament(new_phone, live_server, organizer, screenshot):
    base = live_server.url
    t = tournament(organizer, Tournament.EntrantKind.INDIVIDUALS, "Individual de San Martín")
    desk = new_phone()
    round_1 = register_and_draw(desk, base, t, PLAYERS, "8 jugadores inscritos.")
    screenshot(desk, "forms-individual-round")
    matches = list(round_1.matches.select_related("entry_a__pair", "entry_b__pair"))
    seated = [
        p
        for m in matches
        for e in (m.entry_a, m.entry_b)
        for p in (e.pair.player_one_id, e.pair.player_two_id)
    ]
    assert len(set(seated)) == 8  # every player at one table, with a drawn partner

    for m in matches:
        phone = new_phone()
        phone.goto(f"{base}/mesa/{m.token}/")
        expect(phone.locator(".t-pairs")).to_contain_text(str(m.entry_a.pair))
        phone.close()
        submit_and_confirm(new_phone, f"{base}/mesa/{m.token}/", A_WINS)
    assert all(m.status == Match.Status.CONFIRMED for m in round_1.matches.all())

    public = new_phone()
    public.goto(f"{base}/torneos/{t.club.slug}/{t.slug}/clasificacion/")
    rows = public.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    winners = {
        str(p) for m in matches for p in (m.entry_a.pair.player_one, m.entry_a.pair.player_two)
    }
    top = set(rows.locator("[data-testid=player-row]").all_inner_texts()[:4])
    assert top == winners  # the four players of the winning partnerships lead, 2 juegos each
    expect(public.locator("table.standings thead")).to_contain_text("Jugador")
    assert rows.nth(0).locator("td.num b").first.inner_text() == "2"
    no_horizontal_overflow(public)
    screenshot(public, "forms-individual-standings")


@pytest.mark.django_db(transaction=True)
def test_one_round_of_trios(new_phone, live_server, organizer, screenshot):
    base = live_server.url
    t = tournament(organizer, Tournament.EntrantKind.TRIOS, "Tríos de Santa Águeda")
    desk = new_phone()
    round_1 = register_and_draw(desk, base, t, TRIOS, "4 tríos inscritos.")
    expect(desk.locator(".tables")).to_contain_text("Ana García / Luis Pérez / Eva Ruiz")
    screenshot(desk, "forms-trios-round")
    for m in round_1.matches.all():
        submit_and_confirm(new_phone, f"{base}/mesa/{m.token}/", A_WINS, side="trío")
    winners = [str(m.entry_a.pair) for m in round_1.matches.select_related("entry_a__pair")]

    public = new_phone()
    public.goto(f"{base}/torneos/{t.club.slug}/{t.slug}/clasificacion/")
    rows = public.locator("table.standings tbody tr")
    expect(rows).to_have_count(4)
    names = rows.locator("td.nm a").all_inner_texts()
    assert set(names[:2]) == set(winners) and set(names) == set(TRIOS)
    no_horizontal_overflow(public)
    screenshot(public, "forms-trios-standings")


@pytest.mark.django_db(transaction=True)
def test_a_mus_frances_table_on_two_phones(new_phone, live_server, organizer, screenshot):
    from tournaments.models import FrancesTable
    from tournaments.services.entrants import individual_register_pasted
    from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

    t = tournament(organizer, Tournament.EntrantKind.FRANCES, "Mus francés de Reyes")
    individual_register_pasted(tournament=t, actor=organizer, text="\n".join(PLAYERS[:4]))
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    table = FrancesTable.objects.get(round=rnd)
    seats = list(table.seats.select_related("entry__player").order_by("seat"))
    url = f"{live_server.url}/mesa-frances/{table.token}/"

    first = new_phone()
    first.goto(url)
    expect(first.get_by_test_id("frances-seats")).to_contain_text(str(seats[0].entry))
    first.select_option("#order-seat", "1")
    for n, seat in enumerate(reversed(seats), start=1):
        first.select_option(f"#place{n}", str(seat.entry_id))
    no_horizontal_overflow(first)
    screenshot(first, "forms-frances-order")
    first.get_by_test_id("frances-submit").click()
    expect(first.get_by_test_id("frances-latest")).to_contain_text(str(seats[-1].entry))

    second = new_phone()
    second.goto(url)
    second.select_option("#confirm-seat", "2")
    second.get_by_test_id("frances-confirm").click()
    expect(second.get_by_test_id("frances-final")).to_contain_text(str(seats[-1].entry))
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    assert table.order == [s.entry_id for s in reversed(seats)]
