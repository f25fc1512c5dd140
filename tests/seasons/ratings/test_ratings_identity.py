"""The ratings follow one person's identity (clubs.identity): after two player rows are made one
person, every rating, entry and ranking row is what rating everything from scratch with the
merged identity gives; after the undo, what it was before the merge."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse

from clubs.identity.services import player_merge, player_merge_undo
from clubs.models import PlayerMerge
from seasons.ratings.models import RankingRow, RatedMatch, RatingEntry
from seasons.ratings.services import ratings_merges_reconcile, ratings_rebuild
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PhaseFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tests.seasons.ratings.ratings_data import START, everything
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def two_peñas(seed: int):
    """Two peñas whose tournaments' rounds alternate in time; one person plays in both, as a
    row of each peña ("Ana Uno"), with the same partners' pool around her. Returns (keep,
    other, an organizer of both)."""
    rng = random.Random(seed)
    clubs = [ClubFactory(), ClubFactory()]
    organizer = UserFactory()
    for club in clubs:
        MembershipFactory(club=club, user=organizer)
    ana = [PlayerFactory(first_name="Ana", last_name="Uno") for _ in clubs]
    for row, club in zip(ana, clubs, strict=True):
        row.clubs.add(club)
    pool = [PlayerFactory() for _ in range(10)]
    for n, club in enumerate(clubs):
        tournament = TournamentFactory(club=club, status=Tournament.Status.RUNNING)
        people = [ana[n], *rng.sample(pool, 7)]
        rng.shuffle(people)
        entries = [
            EntryFactory(
                tournament=tournament,
                pair=PairFactory(player_one=people[i], player_two=people[i + 1], club=club),
            )
            for i in range(0, 8, 2)
        ]
        phase = PhaseFactory(tournament=tournament)
        for number in range(1, 5):
            # the peñas' rounds alternate: 1 of one, 1 of the other, 2 of one…
            rnd = RoundFactory(
                phase=phase,
                number=number,
                published_at=START + dt.timedelta(hours=2 * number + n),
            )
            order = entries[:]
            rng.shuffle(order)
            for a, b in zip(order[::2], order[1::2], strict=True):
                winner = rng.choice([a, b])
                MatchFactory(
                    round=rnd,
                    entry_a=a,
                    entry_b=b,
                    status=Match.Status.CONFIRMED,
                    winner=winner,
                    kind=rng.choice([Match.Kind.PLAYED] * 5 + [Match.Kind.FORFEIT]),
                    games_a=2 if winner == a else 1,
                    games_b=2 if winner == b else 1,
                )
    keep, other = (ana[0], ana[1]) if rng.random() < 0.5 else (ana[1], ana[0])
    return keep, other, organizer


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_merge_rates_as_from_scratch_and_its_undo_as_before(
    seed, django_capture_on_commit_callbacks
):
    keep, other, organizer = two_peñas(seed)
    ratings_rebuild()
    before = everything()
    assert RatingEntry.objects.filter(player=other).count() == 4

    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(actor=organizer, keep=keep, other=other)

    merged = everything()
    assert merged != before
    assert not RatingEntry.objects.filter(player=other).exists()
    assert not RankingRow.objects.filter(player=other).exists()
    assert RatingEntry.objects.filter(player=keep).count() == 8
    assert RankingRow.objects.filter(player=keep).count() == 2  # a row in each peña
    assert not RatedMatch.objects.filter(players_a__contains=[other.pk]).exists()
    merge.refresh_from_db()
    assert merge.pending == []
    ratings_rebuild()
    assert everything() == merged, "the merge re-rated differently from rating from scratch"

    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(actor=organizer, merge=merge)
    assert everything() == before


def test_a_lost_re_rating_is_done_by_the_ratings_beat_task():
    keep, other, organizer = two_peñas(4)
    ratings_rebuild()
    merge = player_merge(actor=organizer, keep=keep, other=other)  # its tasks never ran
    assert PlayerMerge.objects.get().pending
    assert RatingEntry.objects.filter(player=other).exists()
    assert ratings_merges_reconcile() == 1
    merged = everything()
    ratings_rebuild()
    assert everything() == merged
    merge.refresh_from_db()
    assert "ratings.players_merged" not in merge.pending
    assert ratings_merges_reconcile() == 0


def test_a_merged_rows_ratings_page_leads_to_the_persons(
    client, django_capture_on_commit_callbacks
):
    keep, other, organizer = two_peñas(5)
    ratings_rebuild()
    with django_capture_on_commit_callbacks(execute=True):
        player_merge(actor=organizer, keep=keep, other=other)
    page = client.get(reverse("ratings:player-ratings", kwargs={"player_id": other.pk}))
    assert page.status_code == 302
    assert page["Location"] == reverse("ratings:player-ratings", kwargs={"player_id": keep.pk})
    assert client.get(page["Location"]).status_code == 200
    api = client.get(f"/api/v1/players/{other.pk}/ratings", HTTP_ACCEPT_LANGUAGE="en")
    assert api.status_code == 404
    body = api.json()["error"]
    assert (body["code"], body["params"]["into_id"]) == ("rated_player_merged", keep.pk)
