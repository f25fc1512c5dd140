"""The pages of trios, players alone and Mus francés tables: the organizer's players and trios
pages, a Mus francés round at the desk, and the table's phone page (Spanish and English)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Membership
from tests.factories import ClubFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import Entry, FrancesTable, IndividualEntry, Match, Tournament
from tournaments.services import rounds as round_services
from tournaments.services.entrants import individual_register_pasted

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"web:{name}", args=args)


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def club(organizer):
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    return club


@pytest.fixture
def desk(client, organizer, club):
    client.force_login(organizer)
    return client


def kind(club, entrant_kind, **fields):
    return TournamentFactory(
        club=club,
        name="Individual de Otoño",
        entrant_kind=entrant_kind,
        tables_available=0,
        **fields,
    )


def test_the_players_page_registers_a_pasted_list_and_checks_players_in(desk, club):
    t = kind(club, Tournament.EntrantKind.INDIVIDUALS)
    page = desk.get(url("organizer-entries", t.pk))
    assert page.status_code == 200 and "Jugadores" in page.content.decode()
    done = desk.post(url("organizer-entries-paste", t.pk), {"text": "Ana García\nLuis Pérez\n"})
    assert done.status_code == 302
    assert IndividualEntry.objects.filter(tournament=t).count() == 2
    row = IndividualEntry.objects.filter(tournament=t).first()
    desk.post(url("organizer-individual-check-in", t.pk, row.pk))
    row.refresh_from_db()
    assert row.status == Entry.Status.CHECKED_IN
    desk.post(url("organizer-individual-withdraw", t.pk, row.pk))
    row.refresh_from_db()
    assert row.status == Entry.Status.WITHDRAWN
    page = desk.get(url("organizer-entries", t.pk)).content.decode()
    assert "Ana García" in page and "Luis Pérez" in page


def test_a_bad_pasted_player_line_keeps_the_text_and_says_which_line(desk, club):
    t = kind(club, Tournament.EntrantKind.INDIVIDUALS)
    response = desk.post(url("organizer-entries-paste", t.pk), {"text": "Ana García\nRosa / Gil"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Línea 2" in body and "Rosa / Gil" in body
    assert not IndividualEntry.objects.filter(tournament=t).exists()


def test_the_trios_page_takes_three_names_a_line_and_refuses_two(desk, club):
    t = kind(club, Tournament.EntrantKind.TRIOS)
    page = desk.get(url("organizer-entries", t.pk)).content.decode()
    assert "Tríos" in page and "Una pareja" not in page
    ok = desk.post(
        url("organizer-entries-paste", t.pk), {"text": "Ana García / Luis Pérez / Eva Ruiz"}
    )
    assert ok.status_code == 302
    assert (
        "Ana García / Luis Pérez / Eva Ruiz"
        in desk.get(url("organizer-entries", t.pk)).content.decode()
    )
    bad = desk.post(
        url("organizer-entries-paste", t.pk), {"text": "Jon Sarasola / Miren Etxeberria"}
    )
    assert bad.status_code == 400 and "trío" in bad.content.decode()


def test_the_tournament_form_chooses_who_enters(desk, club):
    response = desk.post(
        url("organizer-tournament-create", club.slug),
        {
            "preset": "8 reyes a 40",
            "name": "Mus francés de Navidad",
            "starts_on": "2026-12-20",
            "tables_available": 0,
            "entrant_kind": "frances",
            "frances_table_size": 5,
            "is_public": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Mus francés de Navidad")
    assert (t.entrant_kind, t.frances_table_size) == ("frances", 5)


@pytest.fixture
def frances_round(club, organizer):
    t = kind(club, Tournament.EntrantKind.FRANCES, frances_table_size=4)
    individual_register_pasted(
        tournament=t, actor=organizer, text="Ana García\nLuis Pérez\nEva Ruiz\nJon Agirre"
    )
    phase = round_services.phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_services.round_draw_generate(phase=phase, actor=organizer)
    round_services.round_publish(round=rnd, actor=organizer)
    return rnd


def test_the_desk_shows_the_frances_tables_and_takes_the_official_order(desk, frances_round):
    page = desk.get(url("organizer-round", frances_round.pk)).content.decode()
    table = FrancesTable.objects.get(round=frances_round)
    assert "Mesas de mus francés" in page and url("frances-table", table.token) in page
    ids = list(table.seats.values_list("entry_id", flat=True))
    data = {f"t{table.pk}_place{n}": pk for n, pk in enumerate(ids, start=1)}
    done = desk.post(
        url("organizer-frances-result", frances_round.pk, table.pk),
        {**data, "version": 0, "idempotency_key": "k"},
    )
    assert done.status_code == 302
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED and table.order == ids


def test_the_phone_enters_the_order_and_another_seat_confirms_it(client, frances_round):
    table = FrancesTable.objects.get(round=frances_round)
    page = client.get(url("frances-table", table.token))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Orden de llegada" in body and "Ana García" in body
    ids = list(table.seats.values_list("entry_id", flat=True))
    places = {f"place{n}": pk for n, pk in enumerate(ids, start=1)}
    wrong = client.post(
        url("frances-submit", table.token),
        {**places, "place2": ids[0], "seat": 1, "version": 0, "idempotency_key": "a"},
    )
    assert wrong.status_code == 400 and "dos veces" in wrong.content.decode()
    sent = client.post(
        url("frances-submit", table.token),
        {**places, "seat": 1, "version": 0, "idempotency_key": "b"},
    )
    assert sent.status_code == 302
    page = client.get(url("frances-table", table.token)).content.decode()
    assert "El asiento 1 ha apuntado este orden" in page
    done = client.post(
        url("frances-confirm", table.token), {"seat": 2, "version": 1, "idempotency_key": "c"}
    )
    assert done.status_code == 302
    page = client.get(url("frances-table", table.token)).content.decode()
    assert "Resultado confirmado" in page


def test_the_phone_page_in_english_and_an_unknown_link(client, frances_round):
    table = FrancesTable.objects.get(round=frances_round)
    page = client.get(url("frances-table", table.token), HTTP_ACCEPT_LANGUAGE="en")
    assert "Finishing order" in page.content.decode()
    assert client.get(url("frances-table", "nope")).status_code == 404


def test_the_public_round_and_standings_of_mus_frances(
    client, desk, frances_round, django_capture_on_commit_callbacks
):
    table = FrancesTable.objects.get(round=frances_round)
    ids = list(table.seats.values_list("entry_id", flat=True))
    data = {f"t{table.pk}_place{n}": pk for n, pk in enumerate(ids, start=1)}
    with django_capture_on_commit_callbacks(execute=True):
        desk.post(
            url("organizer-frances-result", frances_round.pk, table.pk),
            {**data, "version": 0, "idempotency_key": "k"},
        )
    t = frances_round.phase.tournament
    winner = str(IndividualEntry.objects.get(pk=ids[0]))
    page = client.get(url("public-round", t.club.slug, t.slug, frances_round.pk)).content.decode()
    assert "Mesa 1" in page and winner in page
    standings = client.get(url("public-standings", t.club.slug, t.slug)).content.decode()
    assert "Pts" in standings and winner in standings
    assert "/parejas/" not in standings.split("<tbody>")[1].split("</tbody>")[0]
