"""The standings API: reads stored snapshots only, in a constant number of queries."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import EntryFactory, MembershipFactory, TournamentFactory
from tournaments.models import Entry, Match, Phase, Tournament
from tournaments.services.rounds import round_draw_generate, round_publish
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


def standings_url(phase: Phase) -> str:
    return reverse("api:tournaments:rounds-phase-standings", kwargs={"phase_id": phase.id})


def played_phase(pairs: int, **tournament) -> Phase:
    """A Swiss phase whose first round is published and confirmed (entry a wins)."""
    tournament.setdefault("status", Tournament.Status.RUNNING)
    t = TournamentFactory(tables_available=0, **tournament)
    organizer = MembershipFactory(club=t.club).user
    for i in range(pairs):
        EntryFactory(tournament=t, status=Entry.Status.CHECKED_IN, seed=i + 1)
    phase = Phase.objects.create(
        tournament=t, order=1, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    rnd.matches.update(status=Match.Status.CONFIRMED, games_a=2, stones_a=80, stones_b=50)
    for m in rnd.matches.all():
        m.winner_id = m.entry_a_id
        m.save(update_fields=["winner"])
    return phase


def test_before_any_snapshot_the_standings_are_an_empty_list(client):
    phase = played_phase(4)
    response = client.get(standings_url(phase))
    assert response.status_code == 200
    assert response.json() == {"phase_id": phase.id, "groups": []}


def test_the_api_shows_the_snapshot_not_a_recomputation(client):
    phase = played_phase(4)
    standings_refresh(phase=phase)
    body = client.get(standings_url(phase)).json()
    (table,) = body["groups"]
    assert table["group"] is None
    rows = table["rows"]
    assert [r["won"] for r in rows] == [1, 1, 0, 0]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[1]["separated_by"] is not None  # which tiebreak put it below the first
    assert rows[0]["tiebreaks"][0] == {"tiebreak": "matches_won", "value": 1}
    assert len(rows[0]["players"]) == 2
    # A new result does not show until the next refresh: reads never compute.
    Match.objects.filter(round__phase=phase).update(winner=None, status=Match.Status.DISPUTED)
    assert client.get(standings_url(phase)).json()["groups"][0]["rows"] == rows


def test_standings_of_a_private_tournament_are_404_to_the_public(client):
    phase = played_phase(2, is_public=False)
    standings_refresh(phase=phase)
    assert client.get(standings_url(phase)).status_code == 404


def test_standings_take_the_same_queries_for_8_and_64_pairs(client, django_assert_max_num_queries):
    counts = []
    for pairs in (8, 64):
        phase = played_phase(pairs)
        assert standings_refresh(phase=phase) == pairs
        # The phase (with tournament and peña), its snapshots' stamps, then their rows.
        with django_assert_max_num_queries(3):
            response = client.get(standings_url(phase))
        assert len(response.json()["groups"][0]["rows"]) == pairs
        # Read again: the answer built for these snapshots is kept, their rows not read.
        with CaptureQueriesContext(connection) as queries:
            again = client.get(standings_url(phase))
        assert again.json() == response.json()
        counts.append(len(queries))
    assert counts == [2, 2]


def test_a_kept_answer_gives_way_to_the_next_refresh(client):
    phase = played_phase(4)
    standings_refresh(phase=phase)
    before = client.get(standings_url(phase)).json()["groups"][0]["rows"]
    assert client.get(standings_url(phase)).json()["groups"][0]["rows"] == before  # kept
    # A correction: the first pair's match now goes to its opponent, and the refresh stores it.
    match = Match.objects.filter(round__phase=phase, winner=before[0]["entry_id"]).first()
    loser = match.entry_b_id if match.winner_id == match.entry_a_id else match.entry_a_id
    Match.objects.filter(pk=match.pk).update(winner=loser)
    standings_refresh(phase=phase)

    after = client.get(standings_url(phase)).json()["groups"][0]["rows"]
    won = {r["entry_id"]: r["won"] for r in after}
    assert won[before[0]["entry_id"]] == 0 and won[loser] == 1


def test_the_standings_are_read_when_the_cache_is_down(client, caplog):
    phase = played_phase(4)
    standings_refresh(phase=phase)
    with mock.patch("tournaments.selectors.standings.cache.get", side_effect=ConnectionError):
        response = client.get(standings_url(phase))
    assert response.status_code == 200
    assert len(response.json()["groups"][0]["rows"]) == 4
    assert "cache is unreachable" in caplog.text
