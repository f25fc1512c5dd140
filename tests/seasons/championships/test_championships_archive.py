"""A peña's archive carries the championships it runs or is a centre of
(seasons/championships/archive.py): exported, the peña's rows deleted, imported, and the same
championship stands (its rules, centres, stages and quotas, its tournaments here and elsewhere,
the qualified pairs derived again); a championship of that name that is not the peña's
refuses the whole archive."""

from __future__ import annotations

import pytest

from clubs.models import Club, Pair
from seasons.championships.models import Championship, Qualification
from seasons.championships.services import tournament_flow
from tests.factories import MembershipFactory, UserFactory
from tests.seasons.championships.helpers import finish, qualifier, season
from tournaments.models import Match, Phase, Tournament
from tournaments.selectors.archive import club_archive
from tournaments.services.archive import archive_import

pytestmark = pytest.mark.django_db


def seen(championship: Championship) -> tuple:
    centres = sorted(
        (c.club.slug, c.rank, c.quota) for c in championship.centres.select_related("club")
    )
    stages = [
        (s.order, s.name, s.kind, s.quota_rule, s.quota_number, s.quota_minimum, s.deadline)
        for s in championship.stages.order_by("order")
    ]
    stops = sorted(
        (
            s.stage.order,
            s.tournament.club.slug,
            s.tournament.slug,
            s.centre.club.slug if s.centre else None,
        )
        for s in championship.stops.select_related("stage", "tournament__club", "centre__club")
    )
    qualified = sorted(
        (q.stop.tournament.slug, q.position, q.place, str(q.pair))
        for q in Qualification.objects.filter(stop__championship=championship).select_related(
            "stop__tournament", "pair__player_one", "pair__player_two"
        )
    )
    rules = (championship.name, championship.member_changes, championship.is_public)
    return rules, centres, stages, stops, qualified


def wipe(club: Club) -> None:
    Championship.objects.filter(clubs=club).delete()
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.filter(club=club).delete()
    club.delete()


@pytest.fixture
def played():
    s = season()
    s.centre(0).rank = 2
    s.centre(0).save()
    for n, pairs in ((0, 5), (1, 4)):
        tournament, entries = qualifier(s, n, pairs=pairs)
        finish(tournament, entries)
        tournament_flow(tournament_id=tournament.pk)
    return s


def test_the_organizing_peñas_archive_brings_its_championship_back(
    played, django_capture_on_commit_callbacks
):
    s = played
    before = seen(s.championship)
    assert len(before[4]) == 2  # one pair from each finished qualifier
    archive = club_archive(club=s.host)
    [exported] = archive["championships"]
    assert [st["kind"] for st in exported["stages"]] == ["qualifiers", "final"]
    assert {t["club"] for t in exported["stage_tournaments"]} == {
        s.host.slug,
        s.centre(0).club.slug,
        s.centre(1).club.slug,
    }
    wipe(s.host)
    with django_capture_on_commit_callbacks(execute=True):
        result = archive_import(raw=archive, actor=UserFactory(username="otra"))
    assert result.club.slug == s.host.slug
    assert seen(Championship.objects.get()) == before


def test_a_championship_of_that_name_that_is_not_the_peñas_refuses_the_archive(played):
    s = played
    archive = club_archive(club=s.host)
    slug = s.championship.slug
    wipe(s.host)
    Championship.objects.create(name="Otro", slug=slug).clubs.add(MembershipFactory().club)
    counts = (Club.objects.count(), Tournament.objects.count())
    from config.errors import Conflict

    with pytest.raises(Conflict) as error:
        archive_import(raw=archive, actor=UserFactory(username="otra"))
    assert error.value.code == "archive_championship_exists"
    assert (Club.objects.count(), Tournament.objects.count()) == counts
