"""Eligibility follows a merge of two players into one person
(``clubs.identity.services.player_merge``): the rules read registrations by Player id at each
registration, so once the merged row's registrations point at the kept row, the kept row
carries its history — nothing to recompute. What the merge brings to light (the same person
now registered for two centres) is listed on the desk and named by the task
``championships.players_merged``, which the merge queues by name."""

from __future__ import annotations

import pytest
from celery import current_app
from django.db.models import Q
from django.test import Client

from clubs.identity.services import player_merge
from clubs.models import Membership, Pair, Player, PlayerMerge
from config.errors import Conflict
from seasons.championships.selectors import eligibility_conflicts
from seasons.championships.services import tournament_flow
from tests.factories import MembershipFactory, PairFactory, UserFactory
from tests.seasons.championships.helpers import finish, qualifier, season
from tournaments.services.registration import entry_register

pytestmark = pytest.mark.django_db


def merge(kept: Player, merged: Player) -> None:
    """clubs.identity's player_merge, by an organizer of every peña either row plays for."""
    clubs = (
        {
            pair.club
            for pair in Pair.objects.filter(
                Q(player_one__in=[kept, merged]) | Q(player_two__in=[kept, merged])
            )
        }
        | set(kept.clubs.all())
        | set(merged.clubs.all())
    )
    organizer = UserFactory()
    for club in clubs:
        MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    player_merge(actor=organizer, keep=kept, other=merged)


def test_after_a_merge_the_kept_player_carries_the_merged_ones_history():
    s = season()
    q0, e0 = qualifier(s, 0, pairs=4)
    finish(q0, e0)
    tournament_flow(tournament_id=q0.pk)  # e0[3] went out
    q1, _ = qualifier(s, 1, pairs=1)
    kept = player_of(s, 1)
    merge(kept, e0[3].pair.player_one)
    with pytest.raises(Conflict) as error:
        entry_register(
            tournament=q1,
            pair_id=PairFactory(club=s.centre(1).club, player_one=kept).pk,
            actor=s.centre_organizers[1],
        )
    assert error.value.code == "championship_eliminated"
    assert error.value.params["other_tournament"] == q0.name


def test_what_a_merge_brings_to_light_is_on_the_desk_and_named_by_the_task():
    s = season()
    q0, e0 = qualifier(s, 0, pairs=2)
    q1, e1 = qualifier(s, 1, pairs=2)
    ana_in_0, ana_in_1 = e0[0].pair.player_one, e1[0].pair.player_one
    assert eligibility_conflicts(championship=s.championship) == []
    merge(ana_in_0, ana_in_1)  # two centres' rows were the same person
    [conflict] = eligibility_conflicts(championship=s.championship)
    assert (conflict.player_id, conflict.rule) == (ana_in_0.pk, "one_centre")
    assert {conflict.tournament, conflict.other_tournament} == {q0.name, q1.name}
    # the merge queued the task by name (run here at once): it names the breach too
    [done] = PlayerMerge.objects.filter(keep=ana_in_0)
    task = current_app.tasks["championships.players_merged"]
    assert task(merge_id=done.pk, version=done.version) == 1
    done.refresh_from_db()
    assert "championships.players_merged" not in done.pending
    desk = Client()
    desk.force_login(s.organizer)
    html = desk.get(f"/organizador/campeonatos/{s.championship.slug}/").content.decode()
    assert 'id="conflicts"' in html and "representa a dos centros" in html


def player_of(s, n: int) -> Player:
    """A player of centre n's peña."""
    from tests.factories import PlayerFactory

    player = PlayerFactory()
    player.clubs.add(s.centre(n).club)
    return player
