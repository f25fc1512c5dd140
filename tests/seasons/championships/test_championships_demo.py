"""`manage.py demo` loads a championship with qualifiers in three peñas, quotas and the
eligibility rules at work, and its final played to its champion; its pages answer."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from seasons.championships.models import Championship, Qualification
from tournaments.models import AuditEntry, Entry, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_championship_from_its_qualifiers_to_its_champion(
    client, django_capture_on_commit_callbacks
):
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=out)
    championship = Championship.objects.get(slug="campeonato-de-navarra-2026")
    assert sorted(championship.centres.values_list("club__slug", flat=True)) == [
        "pena-erribera",
        "pena-lizarra",
        "pena-txoko",
    ]
    qualifiers = championship.stops.filter(stage__kind="qualifiers").order_by(
        "tournament__starts_on"
    )
    # one pair per 4 that play, at least one: 8 pairs send 2, 4 send 1, 6 send 1
    assert [(s.pairs_played, s.players_played, s.quota) for s in qualifiers] == [
        (8, 16, 2),
        (4, 8, 1),
        (6, 12, 1),
    ]
    assert set(qualifiers.values_list("tournament__status", flat=True)) == {"finished"}
    final = Tournament.objects.get(championship_stops__stage__kind="final")
    assert final.status == Tournament.Status.FINISHED
    assert Entry.objects.filter(tournament=final).count() == 4
    assert Qualification.objects.filter(stop__championship=championship).count() == 4
    # the eligibility at work: an eliminated player refused, then a change on the day allowed
    assert "quedó eliminado en Clasificatoria de Peña Txoko" in out.getvalue()
    assert AuditEntry.objects.filter(tournament=final, action="entry_member_changed").count() == 1
    page = client.get(f"/campeonatos/{championship.slug}/")
    assert page.status_code == 200 and "Campeones" in page.content.decode()
    centre = client.get(f"/campeonatos/{championship.slug}/centros/pena-erribera/")
    assert centre.status_code == 200
