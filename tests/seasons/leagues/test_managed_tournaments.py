"""Tournaments a league or an interpeña runs stay theirs: out of the lists, their desk links to
the league or interpeña and refuses draws, phases and status changes (409 ``tournament_managed``)
unless the league's or interpeña's own services make them; a league's double loss is a decided
match in tournaments."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import Conflict
from seasons.leagues import selectors, services
from tests.factories import TournamentFactory
from tests.seasons.circuits.helpers import fielded
from tests.seasons.leagues.conftest import pairs_league, win
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.selectors.standings import standings_compute
from tournaments.selectors.tournaments import tournament_list
from tournaments.services import results as results_services
from tournaments.services import rounds as rounds_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _published_jornada(league, number=1):
    jornada = selectors.jornada_get(league=league, number=number)
    services.jornada_draw(jornada=jornada, actor=league.created_by)
    services.jornada_publish(jornada=jornada, actor=league.created_by)
    return list(
        Match.objects.filter(
            round__phase__league_division__league=league, round__number=number
        ).order_by("table_number")
    )


def test_a_division_is_run_by_its_league_and_left_out_of_the_lists(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    division = league.divisions.get()
    tournament = division.tournament
    assert tournament.managed_by == Tournament.ManagedBy.LEAGUE
    assert tournament.managed_label == "Liga de otoño 2026 · Primera"
    assert tournament.managed_url == reverse(
        "leagues:organizer-league", kwargs={"league_id": league.pk}
    )
    ordinary = TournamentFactory(club=club, status=Tournament.Status.REGISTRATION)
    for user in (None, organizer):
        listed = set(tournament_list(user=user).values_list("pk", flat=True))
        assert ordinary.pk in listed and tournament.pk not in listed
    # its public pages still open (the jornada's table links lead there)
    page = Client().get(reverse("web:tournament", args=[club.slug, tournament.slug]))
    assert page.status_code == 200
    assert tournament.name not in Client().get(reverse("web:public-tournaments")).content.decode()


def test_the_desk_of_a_division_links_to_its_league_and_refuses_its_writes(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    matches = _published_jornada(league)
    tournament = league.divisions.get().tournament
    phase = Phase.objects.get(tournament=tournament)
    rnd = Round.objects.get(phase=phase, number=1)
    client = Client()
    client.force_login(organizer)
    desk = client.get(reverse("web:organizer-tournament", args=[tournament.pk]))
    html = desk.content.decode()
    assert "Este torneo lo lleva la liga «Liga de otoño 2026 · Primera»" in html
    assert tournament.managed_url in html
    assert "Sortear la siguiente ronda" not in html and "Añadir fase" not in html
    # a forged POST of the desk's old buttons: refused, and nothing drawn
    answer = client.post(reverse("web:organizer-round-generate", args=[phase.pk]))
    assert answer.status_code == 409 and "lo lleva la liga" in answer.content.decode()
    assert Round.objects.filter(phase=phase).count() == 1
    for write in (
        lambda: rounds_services.round_draw_generate(phase=phase, actor=organizer),
        lambda: rounds_services.round_close(round=rnd, actor=organizer),
        lambda: rounds_services.phase_finish(phase=phase, actor=organizer),
        lambda: rounds_services.phase_create(
            tournament=tournament, actor=organizer, name="Final", format="swiss", rounds_planned=1
        ),
        lambda: tournament_services.tournament_status_change(
            tournament=tournament, actor=organizer, status=Tournament.Status.FINISHED
        ),
        lambda: tournament_services.tournament_update(
            tournament=tournament, actor=organizer, changes={"name": "Otro"}
        ),
    ):
        with pytest.raises(Conflict) as caught:
            write()
        assert caught.value.code == "tournament_managed"
        assert caught.value.params["url"] == tournament.managed_url
    # the result flow stays the tournaments' own: a table's result is entered as ever
    win(matches[0], "a", organizer)
    assert Match.objects.get(pk=matches[0].pk).status == Match.Status.CONFIRMED


def test_the_api_answers_409_with_the_errors_body(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    tournament = league.divisions.get().tournament
    phase = Phase.objects.get(tournament=tournament)
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organizer)
    answer = client.post(
        f"{API}/phases/{phase.pk}/rounds/generate", content_type="application/json"
    )
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert error["code"] == "tournament_managed"
    assert "lo lleva la liga «Liga de otoño 2026 · Primera»" in error["message"]
    status = client.post(
        f"{API}/tournaments/{tournament.pk}/status",
        {"status": "finished"},
        content_type="application/json",
    )
    assert status.status_code == 409 and status.json()["error"]["code"] == "tournament_managed"
    listed = client.get(f"{API}/tournaments").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert tournament.pk not in [row["id"] for row in rows]


def test_a_double_loss_is_a_decided_match_both_pairs_lost(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    first, second = _published_jornada(league)
    win(first, "a", organizer)
    services.match_postpone(
        league=league, actor=organizer, match_id=second.pk, deadline=dt.date(2026, 10, 10)
    )
    services.postponement_decide(
        league=league,
        actor=organizer,
        match_id=second.pk,
        outcome="double_loss",
        today=dt.date(2026, 10, 11),
    )
    second.refresh_from_db()
    assert second.status == Match.Status.CONFIRMED
    assert second.kind == Match.Kind.DOUBLE_LOSS and second.winner_id is None
    # every match of the jornada decided: nothing left pending on the pages
    assert not Match.objects.filter(round=second.round).exclude(status="confirmed").exists()
    # the tournament's standings charge both pairs a match played and lost
    rows = {
        row.pair: row for group in standings_compute(phase=second.round.phase) for row in group.rows
    }
    for entry in (second.entry_a_id, second.entry_b_id):
        assert rows[entry].played == 1 and rows[entry].won == 0
    points = {r.competitor: r.points for r in selectors.league_standings(league=league)[0].rows}
    assert points[second.entry_a_id] == points[second.entry_b_id] == 0
    # only the league records it on its own tournament
    third, fourth = _published_jornada(league, 2)
    with pytest.raises(Conflict) as caught:
        results_services.match_double_loss(match=third, version=third.version, actor=organizer)
    assert caught.value.code == "tournament_managed"


def test_an_interpenas_tournament_is_run_by_the_interpena():
    interpena, home_org, _away = fielded(2)
    tournament = interpena.tournament
    assert tournament.managed_by == Tournament.ManagedBy.INTERPENA
    assert tournament.managed_url == reverse(
        "interpenas:interpena", kwargs={"interpena_id": interpena.pk}
    )
    assert tournament.pk not in tournament_list(user=home_org).values_list("pk", flat=True)
    phase = Phase.objects.get(tournament=tournament)
    with pytest.raises(Conflict) as caught:
        rounds_services.round_draw_generate(phase=phase, actor=home_org)
    assert caught.value.code == "tournament_managed"
    assert Round.objects.filter(phase=phase).count() == 1
    client = Client()
    client.force_login(home_org)
    html = client.get(reverse("web:organizer-tournament", args=[tournament.pk])).content.decode()
    assert "Este torneo lo lleva el interpeñas" in html and tournament.managed_url in html
    home = client.get(reverse("web:organizer-home")).content.decode()
    assert tournament.name not in home


def test_the_migration_marks_the_divisions_and_interpenas_made_before_it(club, organizer):
    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0004_managed_by")
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    interpena, _home, _away = fielded(2)
    ids = [league.divisions.get().tournament_id, interpena.tournament_id]
    Tournament.objects.filter(pk__in=ids).update(managed_by="", managed_label="", managed_url="")

    class Then:
        """The app registry as the migration met it: interpeñas were the circuits app's rows
        then (interpenas 0001 took them over later)."""

        def get_model(self, app_label: str, name: str):
            moved = (app_label, name) == ("circuits", "Interpena")
            return apps.get_model("interpenas" if moved else app_label, name)

    migration.mark_managed(Then(), None)
    rows = {t.pk: t for t in Tournament.objects.filter(pk__in=ids)}
    division, boards = rows[ids[0]], rows[ids[1]]
    assert (division.managed_by, division.managed_label) == (
        "league",
        "Liga de otoño 2026 · Primera",
    )
    assert division.managed_url == reverse(
        "leagues:organizer-league", kwargs={"league_id": league.pk}
    )
    assert boards.managed_by == "interpena" and boards.managed_label == interpena.name


def test_the_league_closes_its_jornadas_once_every_match_is_decided(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    first, second = _published_jornada(league)
    jornada = selectors.jornada_get(league=league, number=1)
    win(first, "a", organizer)
    with pytest.raises(Conflict) as caught:
        services.jornada_close(jornada=jornada, actor=organizer)
    assert caught.value.code == "round_unfinished"
    services.match_postpone(
        league=league, actor=organizer, match_id=second.pk, deadline=dt.date(2026, 10, 10)
    )
    services.postponement_decide(
        league=league,
        actor=organizer,
        match_id=second.pk,
        outcome="double_loss",
        today=dt.date(2026, 10, 11),
    )
    client = Client()
    client.force_login(organizer)
    desk = reverse("leagues:organizer-league", kwargs={"league_id": league.pk})
    assert "Cerrar la jornada 1" in client.get(desk).content.decode()
    answer = client.post(
        reverse("leagues:organizer-jornada-close", kwargs={"league_id": league.pk, "number": 1})
    )
    assert answer.status_code == 302
    assert Round.objects.get(pk=first.round_id).status == Round.Status.CLOSED
    assert "Cerrar la jornada 1" not in client.get(desk).content.decode()
    api = client.post(f"{API}/leagues/{league.pk}/jornadas/2/close")
    assert api.status_code == 409 and api.json()["error"]["code"] == "jornada_not_published"
