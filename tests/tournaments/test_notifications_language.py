"""The organizers' notifications speak the reader's language: stored as a message id (``kind``)
and ``params``, rendered by the page or API call that shows them — the desk in Spanish unless
the organizer chooses another language, the API in the language of Accept-Language. A row
written before ``params`` existed shows its stored text."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.factories import tournament_field
from tests.tournaments.test_rounds_bracket import confirm, field, knockout
from tournaments.models import Match, Notification, Tournament
from tournaments.selectors.notifications import notification_text
from tournaments.services.results import round_completion_notify
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_draw_generate,
    round_publish,
)

pytestmark = pytest.mark.django_db

SPANISH = (
    "Open de Otoño: todas las partidas de Suizo, ronda 1, están confirmadas. Ya se puede "
    "cerrar la ronda."
)
ENGLISH = "Open de Otoño: every match of Suizo, round 1, is confirmed. The round can be closed."
BASQUE = "Open de Otoño: Suizo, 1. txandako partida guztiak berretsita daude. Txanda itxi daiteke."
FRENCH = (
    "Open de Otoño : toutes les parties de Suizo, tour 1, sont confirmées. Le tour peut être "
    "clôturé."
)


@pytest.fixture
def complete_round():
    t, organizer, entries = tournament_field(
        4, name="Open de Otoño", status=Tournament.Status.RUNNING
    )
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    for match in rnd.matches.all():
        Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    assert round_completion_notify(round=rnd)
    return t, organizer


def test_a_round_complete_notification_is_stored_as_message_and_params(complete_round):
    t, _ = complete_round
    note = Notification.objects.get(tournament=t)
    assert note.kind == "round_complete"
    assert note.params == {"tournament": "Open de Otoño", "phase": "Suizo", "round": 1}
    for language, expected in (("es", SPANISH), ("en", ENGLISH), ("eu", BASQUE), ("fr", FRENCH)):
        with translation.override(language):
            assert notification_text(note) == expected


def test_the_desk_shows_it_in_the_page_language(client, complete_round):
    t, organizer = complete_round
    client.force_login(organizer)
    desk = reverse("web:organizer-tournament", args=[t.pk])

    spanish = client.get(desk).content.decode()
    assert "Avisos" in spanish and SPANISH in spanish

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(desk).content.decode()
    assert "Notices" in english and ENGLISH in english and SPANISH not in english


def test_the_api_lists_it_in_the_language_asked_for(client, complete_round):
    t, organizer = complete_round
    client.force_login(organizer)
    url = f"/api/v1/tournaments/{t.pk}/notifications"

    english = client.get(url).json()  # the API's default
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").json()
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").json()

    assert [n["text"] for n in english] == [ENGLISH]
    assert [n["text"] for n in french] == [FRENCH]
    assert [n["text"] for n in spanish] == [SPANISH]
    assert english[0]["kind"] == french[0]["kind"] == "round_complete"
    assert english[0]["params"] == french[0]["params"]


def test_only_the_organizers_read_them(client, complete_round):
    t, _ = complete_round
    url = f"/api/v1/tournaments/{t.pk}/notifications"
    assert client.get(url).status_code == 403  # anonymous
    assert client.get("/api/v1/tournaments/999999/notifications").status_code in (403, 404)


def test_an_old_row_without_params_shows_its_stored_text(client, complete_round):
    t, organizer = complete_round
    Notification.objects.filter(tournament=t).update(params={}, text="Old English text.")
    client.force_login(organizer)
    body = client.get(f"/api/v1/tournaments/{t.pk}/notifications", HTTP_ACCEPT_LANGUAGE="es")
    assert [n["text"] for n in body.json()] == ["Old English text."]


def test_a_bracket_conflict_renders_the_draws_error_in_each_language():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    first, second = rnd.matches.order_by("bracket_key")
    confirm(first, first.entry_a_id)
    confirm(second, second.entry_a_id)
    bracket_advance(phase=phase)
    final = Match.objects.get(round__phase=phase, bracket_key="W2-1")
    confirm(final, first.entry_a_id)
    confirm(first, first.entry_b_id)  # now the final's winner did not reach it
    assert bracket_advance(phase=phase) == 0

    note = Notification.objects.get(tournament=t, kind="bracket_conflict")
    assert note.params["phase"] == phase.name and note.params["error"]["code"]
    with translation.override("en"):
        english = notification_text(note)
    with translation.override("es"):
        spanish = notification_text(note)
    assert english == note.text  # the English stored then is the English rendered now
    assert spanish.startswith(f"{phase.name}: ") and spanish != english
    assert "W2-1" in spanish
