"""The field as the bases size it, end to end on the database: the minimum, the allowed field
sizes ("12 o 16": with 14 the last 2 registered drop out, are told by e-mail and refunded),
the match format chosen by the number of entries when the tournament starts; the services, the
task, the desk, the tournament's form and the public pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.errors import Conflict, Invalid
from scoring.messages import MessageError
from tests.factories import PlayerFactory, tournament_field
from tournaments.models import AuditEntry, Entry, IndividualEntry, Tournament
from tournaments.services.field import entries_dropped_email
from tournaments.services.tournaments import tournament_status_change, tournament_update

pytestmark = pytest.mark.django_db


def registered(pairs: int, *, status=Entry.Status.REGISTERED, **tournament):
    """``pairs`` entries registered one minute apart, in order (the first is the earliest)."""
    t, organizer, entries = tournament_field(pairs, entry_status=status, seeded=False, **tournament)
    start = timezone.now() - dt.timedelta(hours=1)
    for n, entry in enumerate(entries):
        Entry.objects.filter(pk=entry.pk).update(registered_at=start + dt.timedelta(minutes=n))
        entry.pair.player_one.email = f"p{n}@example.org"
        entry.pair.player_one.save()
    return t, organizer, entries


def start(t, organizer):
    return tournament_status_change(tournament=t, actor=organizer, status="running")


# --- Closing registration ---------------------------------------------------------------------


def test_between_twelve_and_sixteen_the_last_registered_drop_out_refunded_and_told(
    django_capture_on_commit_callbacks,
):
    t, organizer, entries = registered(14, field_sizes=[12, 16], is_public=True)

    with django_capture_on_commit_callbacks(execute=True):  # the e-mail task after the commit
        start(t, organizer)

    dropped = Entry.objects.filter(tournament=t, dropped_at__isnull=False)
    assert {e.pk for e in dropped} == {entries[12].pk, entries[13].pk}
    for entry in dropped:
        assert entry.status == Entry.Status.WITHDRAWN
        assert entry.refunded_at is not None and entry.withdrawn_at is not None
    assert Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED).count() == 12
    audit = AuditEntry.objects.get(tournament=t, action="entries_dropped")
    assert audit.new["field"] == 12 and len(audit.new["dropped"]) == 2
    told = sorted(m.to[0] for m in mail.outbox)
    assert told == ["p12@example.org", "p13@example.org"]
    message = mail.outbox[0]
    assert t.name in message.subject and "devuelta" in message.body
    assert f"/{t.club.slug}/{t.slug}/" in message.body

    # the task again sends nothing more
    assert entries_dropped_email(tournament=t) == 0


def test_the_dropped_are_told_in_the_penas_language():
    t, organizer, entries = registered(3, field_sizes=[2])
    t.club.language = "en"
    t.club.save()
    start(t, organizer)
    assert entries_dropped_email(tournament=t) == 1
    (message,) = mail.outbox
    assert message.subject == f"{t.name}: you are out of the field"
    assert "Your entry fee is refunded." in message.body
    assert "inscripción" not in message.body


def test_once_the_roll_is_called_the_absent_drop_out_first():
    t, organizer, entries = registered(14, field_sizes=[12])
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(status=Entry.Status.CHECKED_IN)
    absent = [entries[3], entries[5]]
    Entry.objects.filter(pk__in=[e.pk for e in absent]).update(status=Entry.Status.REGISTERED)

    start(t, organizer)

    dropped = set(Entry.objects.filter(dropped_at__isnull=False).values_list("pk", flat=True))
    assert dropped == {e.pk for e in absent}


def test_below_the_minimum_or_the_smallest_size_the_tournament_does_not_start():
    t, organizer, _ = registered(10, min_entries=12)
    with pytest.raises(Conflict) as caught:
        start(t, organizer)
    assert caught.value.code == "too_few_entries"
    assert caught.value.params["minimum"] == 12 and caught.value.params["registered"] == 10
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION

    t, organizer, _ = registered(10, field_sizes=[12, 16])
    with pytest.raises(Conflict) as caught:
        start(t, organizer)
    assert caught.value.code == "field_size_unreached"
    assert caught.value.params["needed"] == 12
    assert not Entry.objects.filter(tournament=t, dropped_at__isnull=False).exists()


def test_the_number_of_entries_chooses_the_match_format_at_the_start():
    # "al mejor de 3 juegos con 16 parejas o más; si no, a 4 juegos"
    rules = [
        {"from": 16, "rules": {"games_per_vaca": 2}},
        {"from": 0, "rules": {"games_per_vaca": 4}},
    ]
    t, organizer, _ = registered(12, rules_by_entries=[])
    tournament_update(tournament=t, actor=organizer, changes={"rules_by_entries": rules})
    start(t, organizer)
    t.refresh_from_db()
    assert t.games_per_vaca == 4
    assert AuditEntry.objects.filter(tournament=t, action="tournament_rules_changed").exists()

    big, organizer, _ = registered(16)
    tournament_update(tournament=big, actor=organizer, changes={"rules_by_entries": rules})
    start(big, organizer)
    big.refresh_from_db()
    assert big.games_per_vaca == 2


def test_players_alone_are_cut_the_same_way():
    t, organizer, _ = tournament_field(
        0, entrant_kind=Tournament.EntrantKind.INDIVIDUALS, field_sizes=[8]
    )
    people = [
        IndividualEntry.objects.create(
            tournament=t, player=PlayerFactory(email=f"j{n}@example.org")
        )
        for n in range(10)
    ]
    start(t, organizer)
    dropped = IndividualEntry.objects.filter(tournament=t, dropped_at__isnull=False)
    assert {i.pk for i in dropped} == {people[8].pk, people[9].pk}
    assert entries_dropped_email(tournament=t) == 2


# --- Declaring the field --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"min_entries": 1}, "min_entries"),
        ({"field_sizes": [12, 12]}, "field_sizes"),
        ({"min_entries": 12, "field_sizes": [8, 16]}, "field_size_below_minimum"),
        ({"max_pairs": 16, "field_sizes": [12, 20]}, "field_size_above_maximum"),
        ({"rules_by_entries": [{"from": 16, "rules": {"kings": 4}}]}, "format_rule_options"),
        ({"rules_by_entries": [{"from": 16, "rules": {"games_per_vaca": 12}}]}, "games_per_vaca"),
    ],
)
def test_a_field_the_bases_cannot_mean_is_refused(changes, code):
    t, organizer, _ = registered(2)
    with pytest.raises(MessageError) as caught:
        tournament_update(tournament=t, actor=organizer, changes=changes)
    assert caught.value.code == code


def test_the_minimum_is_a_whole_number_of_two_or_more():
    t, organizer, _ = registered(2)
    with pytest.raises(Invalid) as caught:
        tournament_update(tournament=t, actor=organizer, changes={"min_entries": True})
    assert caught.value.code == "min_entries"


# --- API --------------------------------------------------------------------------------------


def api(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_api_sets_the_field_and_shows_the_dropped_entries():
    t, organizer, entries = registered(13)
    client = api(organizer)
    body = client.post(
        f"/api/v1/tournaments/{t.pk}/update",
        {
            "min_entries": 8,
            "field_sizes": [16, 12],
            "rules_by_entries": [{"from": 16, "rules": {"games_per_vaca": 2}}],
        },
        content_type="application/json",
    ).json()
    assert body["min_entries"] == 8 and body["field_sizes"] == [12, 16]
    assert body["rules_by_entries"] == [{"from": 16, "rules": {"games_per_vaca": 2}}]

    response = client.post(
        f"/api/v1/tournaments/{t.pk}/status", {"status": "running"}, "application/json"
    )
    assert response.status_code == 200
    listed = client.get(f"/api/v1/tournaments/{t.pk}/entries").json()
    rows = listed if isinstance(listed, list) else listed["results"]
    dropped = [row for row in rows if row["dropped_at"]]
    assert [row["id"] for row in dropped] == [entries[12].pk]
    assert dropped[0]["refunded_at"] and dropped[0]["status"] == "withdrawn"


def test_the_api_says_why_a_tournament_cannot_start():
    t, organizer, _ = registered(10, min_entries=12)
    response = api(organizer).post(
        f"/api/v1/tournaments/{t.pk}/status", {"status": "running"}, "application/json"
    )
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "too_few_entries"
    assert "needs at least 12 entries" in error["message"]


def test_a_wrong_field_is_a_400_with_the_error_body():
    t, organizer, _ = registered(2)
    response = api(organizer).post(
        f"/api/v1/tournaments/{t.pk}/update",
        {"rules_by_entries": [{"from": 16}]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "format_rule_keys"


# --- Pages -------------------------------------------------------------------------------------


def test_the_desk_says_what_starting_would_do_and_the_entries_show_the_dropped():
    t, organizer, entries = registered(14, field_sizes=[12, 16])
    tournament_update(
        tournament=t,
        actor=organizer,
        changes={"rules_by_entries": [{"from": 12, "rules": {"games_per_vaca": 2}}]},
    )
    client = Client()
    client.force_login(organizer)
    desk = client.get(reverse("web:organizer-tournament", args=[t.pk])).content.decode()
    assert "Si empieza ahora se juega con 12: los 2 últimos inscritos se quedan fuera." in desk
    assert "2 juegos por vaca" in desk

    start(t, organizer)
    page = client.get(reverse("web:organizer-entries", args=[t.pk])).content.decode()
    assert page.count("inscripción devuelta") == 2
    assert "fuera del cuadro al cerrar la inscripción" in page


def test_the_public_page_says_the_bases_field_before_the_start():
    t, organizer, _ = registered(3, field_sizes=[12, 16], min_entries=12, is_public=True)
    tournament_update(
        tournament=t,
        actor=organizer,
        changes={
            "rules_by_entries": [
                {"from": 16, "rules": {"games_per_vaca": 2}},
                {"from": 0, "rules": {"games_per_vaca": 4}},
            ]
        },
    )
    page = Client().get(reverse("web:tournament", args=[t.club.slug, t.slug])).content.decode()
    assert "mínimo de 12 inscritos" in page and "cuadro de 12 o 16 inscritos" in page
    assert "con 16 inscritos o más: 2 juegos por vaca" in page
    assert "con menos inscritos: 4 juegos por vaca" in page


def test_the_public_pairs_page_says_who_was_left_out():
    t, organizer, entries = registered(3, field_sizes=[2], is_public=True)
    start(t, organizer)
    page = Client().get(reverse("web:public-pairs", args=[t.club.slug, t.slug])).content.decode()
    assert "fuera del cuadro al cerrar la inscripción" in page


def test_the_organizer_writes_the_field_on_the_tournament_form():
    t, organizer, _ = registered(2)
    client = Client()
    client.force_login(organizer)
    url = reverse("web:organizer-tournament-edit", args=[t.pk])
    response = client.post(
        url,
        {
            "name": t.name,
            "starts_on": t.starts_on.isoformat(),
            "tables_available": 0,
            "min_entries": 8,
            "field_sizes": "12 o 16",
            "format_from": 16,
            "format_games_per_vaca": 2,
            "below_games_per_vaca": 4,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert (t.min_entries, t.field_sizes) == (8, [12, 16])
    assert t.rules_by_entries == [
        {"from": 0, "rules": {"games_per_vaca": 4}},
        {"from": 16, "rules": {"games_per_vaca": 2}},
    ]
    form = client.get(url).content.decode()
    assert 'value="12, 16"' in form and 'name="format_from" value="16"' in form

    response = client.post(
        url,
        {
            "name": t.name,
            "starts_on": t.starts_on.isoformat(),
            "tables_available": 0,
            "field_sizes": "doce",
        },
    )
    assert response.status_code == 400
    assert "Escribe los cuadros como números" in response.content.decode()
