"""The archive carries a tournament's plan (format version 6): each phase's entrants rules (a
fixed list's entries renumbered on import), its groups' seeding and sizes, and the entrants its
rules chose; an archive of version 5 opens with phases that take every pair that plays."""

from __future__ import annotations

import pytest

from tests.factories import tournament_field
from tests.tournaments.test_archive_bases import wipe
from tournaments.archive import VERSION, archive_open, checksum
from tournaments.models import Entry, Phase, Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.archive import archive_import
from tournaments.services.rounds import phase_create, round_draw_generate

pytestmark = pytest.mark.django_db


def planned():
    t, organizer, entries = tournament_field(8, status=Tournament.Status.RUNNING)
    phase_create(tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2)
    guests = phase_create(
        tournament=t,
        actor=organizer,
        name="Invitados",
        format="round_robin",
        entrants=[{"rule": "fixed", "entries": [entries[0].pk, entries[5].pk, entries[6].pk]}],
        group_sizes=[3],
        seeding="snake",
        rounds_planned=2,
    )
    round_draw_generate(phase=guests, actor=organizer)
    return t, organizer, entries


def test_the_plan_survives_export_and_import():
    t, organizer, entries = planned()
    names = {e.pk: str(e.pair) for e in entries}
    chosen = [names[e.pk] for e in (entries[0], entries[5], entries[6])]
    archive = tournament_archive(tournament=t)
    assert archive["version"] == VERSION == 6
    wipe(t.club)

    (imported,) = archive_import(raw=archive, actor=organizer).tournaments
    phase = Phase.objects.get(tournament=imported, order=2)
    assert (phase.seeding, phase.group_sizes) == ("snake", [3])
    assert phase.settings["partial_rounds"] == 2
    by_pk = {e.pk: str(e.pair) for e in Entry.objects.filter(tournament=imported)}
    (rule,) = phase.entrants
    assert [by_pk[pk] for pk in rule["entries"]] == chosen
    assert [by_pk[pk] for pk in phase.settings["entrants"]] == chosen


def test_an_archive_of_version_5_opens_without_a_plan():
    t, organizer, _ = tournament_field(4)
    phase_create(tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2)
    archive = tournament_archive(tournament=t)
    for tournament in archive["tournaments"]:
        for phase in tournament["phases"]:
            for name in ("entrants", "seeding", "group_sizes"):
                del phase[name]
    archive["version"] = 5
    archive["checksum"] = checksum(archive)
    opened = archive_open(archive)
    (phase,) = opened["tournaments"][0]["phases"]
    assert (phase["entrants"], phase["seeding"], phase["group_sizes"]) == ([], "", [])
