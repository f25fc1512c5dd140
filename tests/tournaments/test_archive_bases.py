"""The archive carries what a tournament's bases declare beyond its rule set (format version
5): the points table, the prizes, the field, the calendar; the entries dropped and refunded, the
dates of rounds and matches and a postponed match's deadline. An export imported into an empty
database gives the same tournament, with its prizes awarded again; a prize it cannot mean is
refused naming where."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from clubs.models import Club, Pair, Player
from config.errors import Invalid
from tests.tournaments.test_prizes import finished
from tournaments.archive import VERSION, checksum
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.archive import archive_import

pytestmark = pytest.mark.django_db


def wipe(club: Club) -> None:
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.all().delete()
    Player.objects.all().delete()
    club.delete()


def bases_of(t: Tournament) -> dict:
    """The bases and the prizes awarded, winners by name (an import gives new ids)."""
    out = {
        name: getattr(t, name)
        for name in (
            "points_win",
            "points_loss",
            "points_walkover_loss",
            "prizes",
            "prize_awards",
            "min_entries",
            "field_sizes",
            "rules_by_entries",
            "calendar",
        )
    }
    for award in out["prize_awards"]:
        award["winners"] = [w["name"] for w in award["winners"]]
    return out


def test_the_bases_and_the_calendar_survive_export_and_import():
    t, organizer, entries, (first, second) = finished(4, points_win=2, points_loss=1)
    now = timezone.now().replace(microsecond=0)
    Tournament.objects.filter(pk=t.pk).update(
        min_entries=4,
        field_sizes=[4, 8],
        rules_by_entries=[{"from": 8, "rules": {"games_per_vaca": 2}}],
        calendar={"first": "2026-10-05", "weekdays": [1, 3], "time": "20:00"},
    )
    Entry.objects.filter(pk=entries[0].pk).update(dropped_at=now, refunded_at=now)
    rnd = first.rounds.order_by("number").first()
    Round.objects.filter(pk=rnd.pk).update(scheduled_at=now)
    match = rnd.matches.exclude(kind=Match.Kind.BYE).first()
    Match.objects.filter(pk=match.pk).update(
        scheduled_at=now, deadline=dt.date(2026, 10, 15), postponed_reason="Viaje"
    )
    t.refresh_from_db()
    before = bases_of(t)
    assert before["prize_awards"]
    archive = tournament_archive(tournament=t)
    assert archive["version"] == VERSION == 6
    wipe(t.club)

    result = archive_import(raw=archive, actor=organizer)

    (imported,) = result.tournaments
    imported.refresh_from_db()
    assert bases_of(imported) == before  # the awards given again, the same
    dropped = Entry.objects.get(tournament=imported, dropped_at__isnull=False)
    assert dropped.dropped_at == now and dropped.refunded_at == now
    assert (
        Round.objects.get(phase__tournament=imported, scheduled_at__isnull=False).scheduled_at
        == now
    )
    postponed = Match.objects.get(round__phase__tournament=imported, deadline__isnull=False)
    assert (postponed.deadline, postponed.postponed_reason, postponed.scheduled_at) == (
        dt.date(2026, 10, 15),
        "Viaje",
        now,
    )


def test_a_prize_an_archive_cannot_mean_is_refused_naming_where():
    t, organizer, entries, _phases = finished(4)
    archive = tournament_archive(tournament=t)
    archive["tournaments"][0]["prizes"] = [{"name": "Peor", "kind": "worst"}]
    archive["checksum"] = checksum(archive)
    wipe(t.club)
    with pytest.raises(Invalid) as caught:
        archive_import(raw=archive, actor=organizer)
    assert caught.value.code == "archive_value"
    assert caught.value.params == {"where": "tournaments[0]", "field": "prizes"}
    assert not Tournament.objects.exists()
