"""The organizer's desk as a person reads it (tournaments/web/organizer/): the words of its
messages — plurals, the things named, swaps with both ends — and the check-in without a reload."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Membership
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PhaseFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, Entry, Tournament
from tournaments.services import rounds as round_services
from tournaments.services.registration import entry_register_pasted

pytestmark = pytest.mark.django_db

NAMES = [
    "Ana García / Luis Pérez",
    "Miren Etxeberria / Jon Agirre",
    "Carmen Ruiz / Pedro Sanz",
    "Itziar Goñi / Mikel Arana",
    "Rosa Martín / Juan López",
    "Elena Díaz / Andrés Gil",
]


def url(name: str, *args) -> str:
    return reverse(f"web:{name}", args=args)


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def tournament(organizer):
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    return TournamentFactory(club=club, name="Open de Otoño", tables_available=6)


@pytest.fixture
def client_org(client, organizer, tournament):
    client.force_login(organizer)
    return client


@pytest.fixture
def registered(tournament, organizer):
    return entry_register_pasted(tournament=tournament, text="\n".join(NAMES), actor=organizer)


@pytest.fixture
def drawn(registered, tournament, organizer):
    phase = PhaseFactory(tournament=tournament, order=1, rounds_planned=3)
    return round_services.round_draw_generate(phase=phase, actor=organizer)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_swap_of_pairs_names_both_pairs_and_both_tables(client_org, drawn):
    two, three = drawn.matches.filter(table_number__in=(2, 3)).order_by("table_number")
    moving, other = two.entry_a, three.entry_b
    response = client_org.post(
        url("organizer-round-swap-entries", drawn.pk),
        {"entry_id": str(moving.pk), "other_entry_id": str(other.pk)},
        follow=True,
    )
    assert messages_of(response) == [
        f"Parejas cambiadas: {moving.pair} (mesa 2) ↔ {other.pair} (mesa 3)."
    ]
    # the trail keeps the other end, and the partida's history shows it
    audit = AuditEntry.objects.filter(action="match_entries_swapped").order_by("id")
    assert [a.new["swapped_with"]["table"] for a in audit] == [3, 2]
    page = client_org.get(url("organizer-match", two.pk)).content.decode()
    assert f"mesa 2 ↔ mesa 3: {moving.pair} → mesa 3, {other.pair} → mesa 2" in page


def test_a_swap_of_tables_is_shown_with_both_tables(client_org, drawn):
    one, three = drawn.matches.filter(table_number__in=(1, 3)).order_by("table_number")
    response = client_org.post(
        url("organizer-round-swap-tables", drawn.pk),
        {"match_id": str(one.pk), "other_match_id": str(three.pk)},
        follow=True,
    )
    assert messages_of(response)[0].startswith("Mesas cambiadas: mesa 1 ↔ mesa 3.")
    assert f"{one.entry_a.pair} – {one.entry_b.pair} juega en la mesa 3" in messages_of(response)[0]
    page = client_org.get(url("organizer-match", one.pk)).content.decode()
    assert "mesa 1 ↔ mesa 3" in page


def test_the_desk_links_the_public_page_and_the_tv_once_published(client_org, tournament):
    desk = url("organizer-tournament", tournament.pk)
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    page = client_org.get(desk).content.decode()
    public = url("tournament", tournament.club.slug, tournament.slug)
    assert public not in page and "aparecen al abrir la inscripción" in page
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    page = client_org.get(desk).content.decode()
    assert f'href="{public}"' in page
    assert f'href="{url("public-screen", tournament.club.slug, tournament.slug)}"' in page
    assert client_org.get(public).status_code == 200


def test_plurals_follow_the_count(client_org, tournament, organizer):
    entry_register_pasted(tournament=tournament, text=NAMES[0], actor=organizer)
    response = client_org.post(
        url("organizer-entries-paste", tournament.pk), {"text": NAMES[1]}, follow=True
    )
    assert messages_of(response) == ["1 pareja inscrita."]
    response = client_org.post(
        url("organizer-entries-paste", tournament.pk), {"text": "\n".join(NAMES[2:])}, follow=True
    )
    assert messages_of(response) == ["4 parejas inscritas."]
    desk = client_org.get(url("organizer-tournament", tournament.pk)).content.decode()
    assert "<dt>parejas inscritas</dt>" in desk and "<dt>parejas presentes</dt>" in desk
    assert "(s)" not in desk


def test_the_next_step_counts_who_is_missing_and_never_asks_for_what_is_done(
    client_org, tournament, organizer, registered
):
    from tournaments.services.registration import entry_check_in

    desk = url("organizer-tournament", tournament.pk)
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    PhaseFactory(tournament=tournament, order=1, rounds_planned=2)
    assert "Pasa lista a las parejas" in client_org.get(desk).content.decode()
    entries = list(tournament.entries.order_by("id"))
    for entry in entries[:-1]:
        entry_check_in(tournament=tournament, entry_id=entry.pk, actor=organizer)
    page = client_org.get(desk).content.decode()
    assert "Falta 1 pareja por pasar lista" in page
    entry_check_in(tournament=tournament, entry_id=entries[-1].pk, actor=organizer)
    page = client_org.get(desk).content.decode()
    assert "Todas las parejas están presentes" in page
    assert "pasa lista" not in page.lower().replace("inscribir y pasar lista", "")
    assert "Inscribe las parejas" not in page
    assert "<dt>parejas presentes</dt>" in page


def test_all_present_then_one_tap_per_absent_pair(client_org, tournament, registered):
    page = client_org.get(url("organizer-entries", tournament.pk)).content.decode()
    assert "Todos presentes (faltan 6)" in page
    response = client_org.post(url("organizer-entries-check-in-all", tournament.pk), follow=True)
    assert messages_of(response) == ["6 parejas marcadas presentes."]
    assert tournament.entries.filter(status=Entry.Status.CHECKED_IN).count() == 6
    assert "Todas las parejas están presentes." in response.content.decode()
    # the absent pair: one tap, answered with the row and the counts only (no reload)
    absent = tournament.entries.order_by("id").first()
    response = client_org.post(
        url("organizer-entry-check-in-undo", tournament.pk, absent.pk), HTTP_X_FRAGMENT="1"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('class="entry ') == 1 and f'id="e{absent.pk}"' in body
    assert 'id="entry-counts"' in body and "Todos presentes (falta 1)" in body
    assert "<html" not in body
    absent.refresh_from_db()
    assert absent.status == Entry.Status.REGISTERED
    # the same tap without JavaScript: a redirect back to the row, as before
    response = client_org.post(url("organizer-entry-check-in", tournament.pk, absent.pk))
    assert response.status_code == 302 and response["Location"].endswith(f"#e{absent.pk}")
    # twice is harmless
    response = client_org.post(
        url("organizer-entries-check-in-all", tournament.pk), HTTP_X_FRAGMENT="1"
    )
    assert response.status_code == 200 and 'id="entries-roll"' in response.content.decode()


def test_all_present_leaves_the_waiting_list_alone(client_org, tournament, organizer):
    tournament.max_pairs = 4
    tournament.save()
    entry_register_pasted(tournament=tournament, text="\n".join(NAMES), actor=organizer)
    client_org.post(url("organizer-entries-check-in-all", tournament.pk))
    statuses = sorted(tournament.entries.values_list("status", flat=True))
    assert statuses.count(Entry.Status.CHECKED_IN) == 4
    assert statuses.count(Entry.Status.WAITING) == 2


def test_a_message_about_a_partida_names_its_mesa_and_pairs(
    client_org, tournament, organizer, drawn
):
    tournament.late_minutes_per_game = 10
    tournament.save()
    round_services.round_publish(round=drawn, actor=organizer)
    match = drawn.matches.get(table_number=2)
    response = client_org.post(
        url("organizer-match-late", match.pk),
        {"late-version": str(match.version), "late-side": "a", "late-minutes_late": "25"},
        follow=True,
    )
    assert messages_of(response) == [
        f"Mesa 2 · {match.entry_a.pair} – {match.entry_b.pair}: Retraso apuntado."
    ]


def test_round_messages_use_the_round_names(client_org, drawn):
    response = client_org.post(url("organizer-round-publish", drawn.pk), follow=True)
    assert messages_of(response)[0].startswith("Publicada: Ronda 1.")
