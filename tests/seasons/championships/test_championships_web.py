"""The championships' pages: the public page (stages, qualifiers with their status and
qualified pairs, the final's bracket), a centre's page (its organizers add their qualifier
there), the organizers' desk (progress, what is late, its forms and their errors) and the form
that creates one; in Spanish and in English."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from seasons.championships.models import Championship, Stage, StageTournament
from seasons.championships.services import tournament_flow
from tests.factories import MembershipFactory, TournamentFactory
from tests.seasons.championships.helpers import finish, qualifier, season
from tournaments.models import Phase, Tournament
from tournaments.services.registration import entries_check_in_all
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = pytest.mark.django_db


def client_of(user=None, language="es") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def drawn():
    """Three qualifiers played and flowed, the final's bracket drawn."""
    s = season()
    for n, pairs in ((0, 8), (1, 4), (2, 4)):
        tournament, entries = qualifier(s, n, pairs=pairs)
        finish(tournament, entries)
        tournament_flow(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=s.final.pk).update(status=Tournament.Status.RUNNING)
    s.final.refresh_from_db()
    entries_check_in_all(tournament=s.final, actor=s.organizer)
    phase = phase_create(
        tournament=s.final,
        actor=s.organizer,
        name="Eliminatoria",
        format=Phase.Format.SINGLE_ELIMINATION,
    )
    round_publish(round=round_draw_generate(phase=phase, actor=s.organizer), actor=s.organizer)
    return s


def test_the_public_page_shows_stages_qualifiers_qualified_pairs_and_the_final_bracket(drawn):
    s = drawn
    response = client_of().get(f"/campeonatos/{s.championship.slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Clasificatorias" in html and "Cuadro de la final" in html
    assert "Pasa una pareja por cada 4 que juegan, al menos 1." in html
    assert html.count('<li class="ch-stop') == 4  # three qualifiers and the final
    assert "Jugaron 8 parejas (16 jugadores)." in html
    for entry in s.final.entries.select_related("pair__player_one", "pair__player_two"):
        assert str(entry.pair) in html  # in its qualifier's list and in the bracket
    english = client_of(language="en").get(f"/campeonatos/{s.championship.slug}/")
    assert "bracket</h2>" in english.content.decode()  # "The final's bracket", escaped
    assert "One pair goes on for every 4 that play, at least 1." in english.content.decode()


def test_a_centres_page_and_its_organizers_add_their_qualifier():
    s = season()
    centre = s.centre(1)
    url = f"/campeonatos/{s.championship.slug}/centros/{centre.club.slug}/"
    assert "Añadir vuestra clasificatoria" not in client_of().get(url).content.decode()
    own = TournamentFactory(club=centre.club, is_public=True, name="Torneo del Bar Txiki")
    runner = client_of(s.centre_organizers[1])
    page = runner.get(url)
    assert "Torneo del Bar Txiki" in page.content.decode()
    response = runner.post(url, {"stage_id": s.qualifiers.pk, "tournament_id": own.pk})
    assert response.status_code == 302
    assert StageTournament.objects.get(tournament=own).centre == centre
    assert "Torneo del Bar Txiki" in client_of().get(url).content.decode()


def test_the_desk_shows_progress_and_what_is_late_and_its_errors():
    s = season()
    qualifier(s, 0, pairs=2)
    Stage.objects.filter(pk=s.qualifiers.pk).update(deadline=dt.date(2020, 1, 1))
    desk = client_of(s.organizer)
    url = f"/organizador/campeonatos/{s.championship.slug}/"
    html = desk.get(url).content.decode()
    assert 'id="late"' in html and "Clasificatoria 0" in html.split('id="progress"')[0]
    response = desk.post(url, {"action": "stage", "kind": "final", "name": "Otra final"})
    assert response.status_code == 400
    assert "ninguna fase va después de la final" in response.content.decode()
    other = MembershipFactory().club
    response = desk.post(url, {"action": "centre", "club_id": other.pk, "rank": "3"})
    assert response.status_code == 302
    assert s.championship.centres.get(club=other).rank == 3
    assert client_of(s.centre_organizers[0]).get(url).status_code == 403
    assert client_of().get(url).status_code == 302  # to the login


def test_a_championship_is_created_from_its_form():
    membership = MembershipFactory()
    response = client_of(membership.user).post(
        "/organizador/campeonatos/nuevo/",
        {"club_id": membership.club.pk, "name": "Campeonato de Araba", "region": "Araba"},
    )
    championship = Championship.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/organizador/campeonatos/{championship.slug}/"
    assert list(championship.clubs.all()) == [membership.club]
    assert "Campeonato de Araba" in client_of().get("/campeonatos/").content.decode()
