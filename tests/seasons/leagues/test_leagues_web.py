"""The leagues' pages: public standings and jornadas (small on a phone), the TV view, and the
organizer's desk running a night; a private league is a 404 outside its peña."""

from __future__ import annotations

import pytest

from seasons.leagues import selectors
from tests.factories import UserFactory
from tests.seasons.leagues.conftest import pairs_league, win
from tournaments.models import Match

pytestmark = pytest.mark.django_db

PHONE_LIMIT = 60 * 1024


def _played(club, organizer, client, size=5):
    league = pairs_league(club, organizer, divisions=((size, 0, 1), (size, 1, 0)))
    client.force_login(organizer)
    desk = f"/organizador/ligas/{league.pk}/"
    assert client.post(desk + "jornadas/1/sortear").status_code == 302
    page = client.get(desk)
    assert "Hojas de mesa con QR" in page.content.decode()
    assert client.post(desk + "jornadas/1/publicar").status_code == 302
    for m in Match.objects.filter(round__phase__league_division__league=league):
        win(m, "b", organizer)
    client.logout()
    return league


def test_the_public_reads_standings_and_the_jornada_in_spanish_and_english(client, club, organizer):
    league = _played(club, organizer, client)
    url = f"/ligas/{club.slug}/{league.slug}/"
    page = client.get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert "Clasificación" in body and "Primera" in body and "Segunda" in body
    assert "asciende" in body and "desciende" in body
    # the pair that won 3–1 shows its games' difference
    assert '<td class="num">2</td>' in body
    assert len(page.content) < PHONE_LIMIT
    page = client.get(url + "jornadas/1/")
    assert page.status_code == 200
    assert "descansa esta jornada" in page.content.decode()
    assert len(page.content) < PHONE_LIMIT
    page = client.get(url + "?jornada=1")
    assert "Clasificación tras la jornada 1" in page.content.decode()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "Standings" in page.content.decode()
    assert client.get(url + "pantalla/").status_code == 200


def test_the_pages_cost_the_same_queries_for_a_big_league(
    client, club, organizer, django_assert_max_num_queries
):
    league = _played(club, organizer, client, size=15)
    with django_assert_max_num_queries(12):
        page = client.get(f"/ligas/{club.slug}/{league.slug}/")
    assert len(page.content) < PHONE_LIMIT
    with django_assert_max_num_queries(12):
        client.get(f"/ligas/{club.slug}/{league.slug}/jornadas/1/")


def test_a_private_league_is_not_found_outside_its_pena(client, club, organizer):
    league = pairs_league(club, organizer, is_public=False)
    url = f"/ligas/{club.slug}/{league.slug}/"
    assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    assert client.get(f"/organizador/ligas/{league.pk}/").status_code == 404
    client.force_login(organizer)
    assert client.get(url).status_code == 200


def test_a_domain_error_on_the_desk_is_shown_with_the_form_kept(client, club, organizer):
    league = pairs_league(club, organizer, divisions=())
    client.force_login(organizer)
    page = client.post(
        f"/organizador/ligas/{league.pk}/divisiones",
        {"name": "Primera", "pairs": "Ana García / Luis Pérez"},
    )
    assert page.status_code == 400
    body = page.content.decode()
    assert "al menos 2 parejas" in body
    assert "Ana García / Luis Pérez" in body
    assert selectors.divisions_of(league=league) == []


def test_the_organizer_creates_a_league_from_the_form(client, club, organizer):
    client.force_login(organizer)
    page = client.post(
        f"/organizador/penas/{club.slug}/ligas/",
        {
            "name": "Liga de los lunes",
            "season": "2026",
            "kind": "pairs",
            "legs": "2",
            "points_win": "3",
            "points_loss": "1",
            "points_walkover_loss": "0",
            "is_public": "1",
            "dates": "2026-10-05\n2026-10-12\n",
        },
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    desk = client.get(page["Location"])
    assert "Liga de los lunes" in desk.content.decode()
