"""The pages of a league of peñas: the public standings and calendar linking each fixture's
interpeña, the TV view, and the organizers' desk (create, open, postpone, decide)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seasons.leagues.models import TeamFixture, TeamLeague
from tests.factories import UserFactory
from tests.seasons.leagues.team_helpers import SUNDAYS, peñas, play, team_league

pytestmark = pytest.mark.django_db

PHONE_LIMIT = 60 * 1024


def _url(league):
    return f"/ligas-penas/{league.club.slug}/{league.slug}/"


def test_the_public_page_shows_standings_and_a_calendar_linking_each_interpeña():
    league, teams = team_league(5, boards=2)
    fixture = TeamFixture.objects.filter(jornada__league=league, jornada__number=1).first()
    fixture = play(league, teams, fixture, ["home", "home"])
    page = Client().get(_url(league))
    assert page.status_code == 200
    text = page.content.decode()
    assert len(page.content) < PHONE_LIMIT
    assert f"/interpenas/{fixture.interpena_id}/" in text
    assert "Descansa:" in text
    winner = fixture.home_club.name
    assert text.index(winner) < text.index("Calendario")  # first row of the standings
    after = Client().get(_url(league) + "?jornada=1")
    assert "Clasificación tras la jornada 1" in after.content.decode()
    screen = Client().get(_url(league) + "pantalla/")
    assert screen.status_code == 200 and winner in screen.content.decode()


def _queries(path: str, user=None) -> int:
    client = Client()
    if user is not None:
        client.force_login(user)
        client.get(path)  # the session's first read
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


def test_the_public_page_costs_the_same_queries_whatever_the_league_size():
    small, small_teams = team_league(3, boards=1, name="Pequeña")
    big, big_teams = team_league(8, boards=3, legs=2, name="Grande")
    for league, teams, n in ((small, small_teams, 1), (big, big_teams, 3)):
        for fixture in TeamFixture.objects.filter(jornada__league=league, jornada__number=1):
            play(league, teams, fixture, ["away"] * n)
    assert _queries(_url(small)) == _queries(_url(big))
    assert len(Client().get(_url(big)).content) < PHONE_LIMIT
    desk = "/organizador/ligas-penas/{}/"
    assert _queries(desk.format(small.pk), small_teams[0][1]) == _queries(
        desk.format(big.pk), big_teams[0][1]
    )


def test_a_private_league_of_peñas_page_is_a_404_for_strangers():
    league, _teams = team_league(3, is_public=False)
    assert Client().get(_url(league)).status_code == 404
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(_url(league)).status_code == 404


def test_the_organizer_creates_a_league_then_opens_postpones_and_decides_on_the_desk():
    teams = peñas(4, boards=1)
    owner = Client()
    owner.force_login(teams[0][1])
    url = f"/organizador/penas/{teams[0][0].slug}/ligas-penas/"
    assert owner.get(url).status_code == 200
    bad = owner.post(url, {"name": "Liga", "season": "2026", "clubs": [teams[0][0].pk]})
    assert bad.status_code == 400
    assert "2 a 24 peñas" in bad.content.decode()
    answer = owner.post(
        url,
        {
            "name": "Liga del valle",
            "season": "2026",
            "clubs": [c.pk for c, _u, _p in teams],
            "boards": "1",
            "legs": "1",
            "points_win": "3",
            "points_draw": "1",
            "points_loss": "0",
            "is_public": "1",
            "dates": "\n".join(d.isoformat() for d in SUNDAYS[:3]),
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    league = TeamLeague.objects.get()
    desk = owner.get(answer["Location"])
    assert desk.status_code == 200
    hosted = TeamFixture.objects.filter(jornada__league=league, home_club=teams[0][0]).first()
    opened = owner.post(f"/organizador/ligas-penas/{league.pk}/enfrentamientos/{hosted.pk}/abrir")
    assert opened.status_code == 302
    hosted.refresh_from_db()
    assert hosted.interpena_id is not None
    other = TeamFixture.objects.filter(jornada__league=league).exclude(pk=hosted.pk).first()
    late = owner.post(
        f"/organizador/ligas-penas/{league.pk}/enfrentamientos/{other.pk}/aplazar",
        {"deadline": "2020-01-01"},
    )
    assert late.status_code == 400
    decided = owner.post(
        f"/organizador/ligas-penas/{league.pk}/enfrentamientos/{other.pk}/decidir",
        {"decision": "away_absent"},
    )
    assert decided.status_code == 302
    other.refresh_from_db()
    assert other.decision == "away_absent"
    # an organizer of a peña that does not play it cannot reach the desk
    outsider_club = peñas(1)[0]
    outsider = Client()
    outsider.force_login(outsider_club[1])
    assert outsider.get(f"/organizador/ligas-penas/{league.pk}/").status_code == 403
    assert (
        outsider.post(
            f"/organizador/ligas-penas/{league.pk}/enfrentamientos/{other.pk}/decidir",
            {"decision": "double_loss"},
        ).status_code
        == 403
    )
