"""A pair changes one of its players on the day, through the API: before it plays, in any
tournament of pairs; refused once it has played, for a player already entered, and by a
championship's rules (tests/seasons/championships)."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Membership
from tests.api.test_api_registration import assert_error
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
)
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.ORGANIZER)


@pytest.fixture
def desk(organizer) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer.user)
    return client


def member_url(entry) -> str:
    return f"{API}/tournaments/{entry.tournament_id}/entries/{entry.pk}/member"


def test_a_pair_changes_a_player_before_it_plays(desk, organizer):
    entry = EntryFactory(tournament=TournamentFactory(club=organizer.club))
    match = MatchFactory(round__phase__tournament=entry.tournament, entry_a=entry)
    newcomer = PlayerFactory(first_name="Koldo", last_name="Berria")
    response = desk.post(
        member_url(entry),
        {"replaced_player_id": entry.pair.player_two_id, "player_id": newcomer.pk},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["pair"]["player_two"]["id"] == newcomer.pk
    match.refresh_from_db()
    assert match.entry_a_id == entry.pk  # the drawn partida keeps the entry
    audit = AuditEntry.objects.get(action="entry_member_changed")
    assert audit.new["player"] == {"id": newcomer.pk, "name": "Koldo Berria"}


def test_a_pair_that_has_played_keeps_its_players(desk, organizer):
    entry = EntryFactory(tournament=TournamentFactory(club=organizer.club))
    MatchFactory(
        round__phase__tournament=entry.tournament, entry_a=entry, status=Match.Status.CONFIRMED
    )
    response = desk.post(
        member_url(entry),
        {"replaced_player_id": entry.pair.player_two_id, "player_id": PlayerFactory().pk},
        content_type="application/json",
    )
    assert_error(response, 409, "member_change_played")


def test_the_new_player_is_not_in_another_entry(desk, organizer):
    tournament = TournamentFactory(club=organizer.club)
    entry, other = EntryFactory(tournament=tournament), EntryFactory(tournament=tournament)
    response = desk.post(
        member_url(entry),
        {"replaced_player_id": entry.pair.player_two_id, "player_id": other.pair.player_one_id},
        content_type="application/json",
    )
    assert_error(response, 409, "player_already_entered")
    response = desk.post(
        member_url(entry),
        {"replaced_player_id": other.pair.player_one_id, "player_id": PlayerFactory().pk},
        content_type="application/json",
    )
    assert_error(response, 400, "replaced_not_in_pair")


def test_only_the_organizers_change_a_pair(organizer):
    entry = EntryFactory(tournament=TournamentFactory(club=organizer.club, is_public=True))
    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    stranger.force_login(MembershipFactory().user)
    response = stranger.post(
        member_url(entry),
        {"replaced_player_id": entry.pair.player_two_id, "player_id": PlayerFactory().pk},
        content_type="application/json",
    )
    assert_error(response, 403, "not_organizer")
