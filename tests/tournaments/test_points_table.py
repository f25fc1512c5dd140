"""A tournament's points table ("2 puntos por partida ganada, 1 por perdida"): the service that
sets it, the standings ranked and shown by points, the API and the organizer's and public
pages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import Invalid
from tests.factories import tournament_field
from tournaments.models import AuditEntry, Match, Phase, Tournament
from tournaments.selectors.standings import standings_for_phase, tiebreak_order
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.services.standings import standings_refresh
from tournaments.services.tournaments import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def confirm(match: Match, winner_id: int, kind=Match.Kind.PLAYED) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.kind = kind
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 1) if a_wins else (1, 2)
    match.stones_a, match.stones_b = (120, 60) if a_wins else (60, 120)
    match.save()


def played_round(pairs: int = 4, **tournament):
    """A Swiss round of ``pairs`` pairs, published, every match won by its pair A."""
    t, organizer, entries = tournament_field(pairs, **tournament)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    for match in rnd.matches.exclude(kind=Match.Kind.BYE):
        confirm(match, match.entry_a_id)
    return t, organizer, phase, rnd


# --- Service --------------------------------------------------------------------------------


def test_a_tournament_created_with_a_points_table_keeps_it(django_user_model):
    t, organizer, _ = tournament_field(2)
    created = tournament_create(
        club_slug=t.club.slug,
        actor=organizer,
        name="Liguilla de los jueves",
        starts_on=t.starts_on,
        points_win=2,
        points_loss=1,
    )
    created.refresh_from_db()
    assert (created.points_win, created.points_loss, created.points_walkover_loss) == (2, 1, 0)


def test_a_points_table_out_of_range_or_for_players_alone_is_refused():
    t, organizer, _ = tournament_field(2)
    with pytest.raises(Invalid) as caught:
        tournament_update(tournament=t, actor=organizer, changes={"points_win": 100})
    assert caught.value.code == "points_table_value"
    assert caught.value.params["field"] == "points_win"
    with pytest.raises(Invalid) as caught:
        tournament_update(tournament=t, actor=organizer, changes={"points_loss": None})
    assert caught.value.code == "points_table_value"

    alone, organizer, _ = tournament_field(0, entrant_kind=Tournament.EntrantKind.INDIVIDUALS)
    with pytest.raises(Invalid) as caught:
        tournament_update(tournament=alone, actor=organizer, changes={"points_win": 2})
    assert caught.value.code == "points_table_alone"
    alone.refresh_from_db()
    assert alone.points_win is None


def test_setting_a_points_table_reranks_the_stored_standings_and_is_audited(
    django_capture_on_commit_callbacks,
):
    t, organizer, phase, rnd = played_round(5)
    standings_refresh(phase=phase)
    (table,) = standings_for_phase(phase=phase)
    assert "points" not in table["rows"][0]  # no table: the standings count matches won

    with django_capture_on_commit_callbacks(execute=True):  # the refresh queued on commit
        tournament_update(
            tournament=t, actor=organizer, changes={"points_win": 3, "points_loss": 1}
        )

    (table,) = standings_for_phase(phase=phase)
    for row in table["rows"]:
        assert row["points"] == 3 * row["won"] + 1 * row["lost"]
    assert tiebreak_order(Phase.objects.get(pk=phase.pk))[0] == "points"
    audit = AuditEntry.objects.get(tournament=t, action="tournament_settings_changed")
    assert audit.old == {"points_loss": 0, "points_win": None}
    assert audit.new == {"points_loss": 1, "points_win": 3}


def test_points_rank_before_matches_won():
    # a forfeit lost gives nothing, a match played and lost gives a point: two pairs with no
    # win are ordered by those points whatever the tiebreaks say after them
    t, organizer, phase, rnd = played_round(4, points_win=2, points_loss=1)
    t.tiebreaks = ["matches_won", "lots"]
    t.save()
    forfeit = rnd.matches.order_by("table_number").last()
    confirm(forfeit, forfeit.entry_a_id, kind=Match.Kind.FORFEIT)
    standings_refresh(phase=phase)

    rows = standings_for_phase(phase=phase)[0]["rows"]
    last_two = {row["entry_id"]: row for row in rows[2:]}
    assert rows[-1]["entry_id"] == forfeit.entry_b_id
    assert last_two[forfeit.entry_b_id]["points"] == 0
    assert rows[2]["points"] == 1
    assert rows[-1]["separated_by"] == "points"


# --- API ------------------------------------------------------------------------------------


def api(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_api_sets_and_shows_the_points_table_and_the_standings_points(
    django_capture_on_commit_callbacks,
):
    t, organizer, phase, rnd = played_round(4)
    client = api(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/tournaments/{t.pk}/update",
            {"points_win": 2, "points_loss": 1, "points_walkover_loss": 0},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["points_win"], body["points_loss"], body["points_walkover_loss"]) == (2, 1, 0)

    rows = client.get(f"/api/v1/phases/{phase.pk}/standings").json()["groups"][0]["rows"]
    assert {row["points"] for row in rows} == {2, 1}

    response = client.post(
        f"/api/v1/tournaments/{t.pk}/update", {"points_loss": -1}, content_type="application/json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "points_table_value"
    assert error["params"]["field"] == "points_loss"
    assert "whole number from 0 to 99" in error["message"]


# --- Pages ----------------------------------------------------------------------------------


def test_the_public_standings_show_points_as_the_bases_write_them():
    t, organizer, phase, rnd = played_round(4, points_win=2, points_loss=1, is_public=True)
    standings_refresh(phase=phase)
    url = reverse("web:public-standings", args=[t.club.slug, t.slug])

    page = Client().get(url).content.decode()
    assert "2 puntos por partida ganada, 1 por partida perdida" in page
    assert ">Pts<" in page
    home = Client().get(reverse("web:tournament", args=[t.club.slug, t.slug])).content.decode()
    assert "clasificación por puntos: 2 puntos por partida ganada" in home

    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    assert "2 points a match won, 1 a match lost" in english


def test_without_a_points_table_the_standings_show_matches_won_only():
    t, organizer, phase, rnd = played_round(4, is_public=True)
    standings_refresh(phase=phase)
    page = Client().get(reverse("web:public-standings", args=[t.club.slug, t.slug])).content
    assert b">Pts<" not in page


def test_the_organizer_sets_the_points_table_on_the_tournament_form():
    t, organizer, _ = tournament_field(2)
    client = Client()
    client.force_login(organizer)
    url = reverse("web:organizer-tournament-edit", args=[t.pk])
    form = client.get(url).content.decode()
    assert 'name="points_win"' in form and "Clasificación por puntos" in form

    response = client.post(
        url,
        {
            "name": t.name,
            "starts_on": t.starts_on.isoformat(),
            "tables_available": 0,
            "points_win": 2,
            "points_loss": 1,
            "points_walkover_loss": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    t.refresh_from_db()
    assert (t.points_win, t.points_loss, t.points_walkover_loss) == (2, 1, 0)
