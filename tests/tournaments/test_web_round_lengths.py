"""Match length per round on the pages: the organizer's phase form sets a knockout's length per
round, the public page writes them as the bases do ("cuartos de final y semifinales al mejor de
3 juegos, final al mejor de 5 juegos"), the table's page of a final says what it is played to
and offers the rows of the longer match, the printed pairings and sheets say it; in English
too."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import tournament_field
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.services.lengths import phase_round_lengths_set
from tournaments.services.rounds import bracket_advance, phase_create, round_draw_generate

pytestmark = pytest.mark.django_db

LENGTHS = {
    "quarterfinal": {"games_per_vaca": 2},
    "semifinal": {"games_per_vaca": 2},
    "final": {"games_per_vaca": 3},
}


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def event():
    """8 pairs, a knockout to the bases' lengths, played up to its final (drawn, published)."""
    t, organizer, entries = tournament_field(
        8, status=Tournament.Status.RUNNING, is_public=True, games_per_vaca=4
    )
    ko = phase_create(
        tournament=t,
        actor=organizer,
        name="Cuadro",
        format="single_elimination",
        round_lengths=LENGTHS,
    )
    round_draw_generate(phase=ko, actor=organizer)
    for number in (1, 2):
        rnd = Round.objects.get(phase=ko, number=number)
        for m in rnd.matches.all():
            m.status, m.winner_id, m.games_a = Match.Status.CONFIRMED, m.entry_a_id, 2
            m.save()
        rnd.status = Round.Status.CLOSED
        rnd.save()
        bracket_advance(phase=ko)
    final = Round.objects.get(phase=ko, number=3)
    final.status = Round.Status.PUBLISHED
    final.save()
    return t, organizer, ko, final


def test_the_phase_form_sets_a_knockouts_length_per_round(client):
    t, organizer, _ = tournament_field(8)
    client.force_login(organizer)
    url = reverse("web:organizer-phase-create", args=[t.pk])
    page = client.get(url).content.decode()
    assert 'id="round-lengths"' in page and "Final: juegos por vaca" in page
    response = client.post(
        url,
        {
            "format": "single_elimination",
            "name": "Cuadro",
            "semifinal_games_per_vaca": "2",
            "quarterfinal_games_per_vaca": "2",
            "final_games_per_vaca": "3",
            "grand_final_reset": "on",
        },
    )
    assert response.status_code == 302, text(response)[:2000]
    phase = Phase.objects.get(tournament=t)
    assert phase.settings["round_lengths"] == LENGTHS
    # a Swiss sends no knockout's lengths, even typed before the format changed
    response = client.post(
        url,
        {"format": "swiss", "name": "Suizo", "rounds_planned": "3", "final_games_per_vaca": "3"},
    )
    assert response.status_code == 302
    assert "round_lengths" not in Phase.objects.get(tournament=t, name="Suizo").settings


def test_the_public_page_writes_the_lengths_as_the_bases_do(client, event):
    t, organizer, ko, final = event
    url = reverse("web:tournament", args=[t.club.slug, t.slug])
    page = text(client.get(url))
    assert (
        "Cuadro: cuartos de final y semifinales al mejor de 3 juegos, final al mejor de 5 juegos"
        in page
    )
    english = text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "quarter-finals and semi-finals best of 3 games, final best of 5 games" in english


def test_the_table_page_of_the_final_asks_for_the_longer_match(client, event):
    t, organizer, ko, final = event
    (match,) = final.matches.all()
    page = client.get(reverse("web:table", args=[match.token])).content.decode()
    assert 'data-testid="table-length"' in page
    assert "Final: al mejor de 5 juegos" in text_of(page)
    assert "3 juegos por vaca" in text_of(page)
    # the quick entry offers the rows of a best of 5
    assert 'name="g5_a"' in page and 'name="g6_a"' not in page
    semi = Match.objects.get(round__phase=ko, bracket_key="W2-1")
    semi_page = client.get(reverse("web:table", args=[semi.token])).content.decode()
    assert "Semifinales: al mejor de 3 juegos" in text_of(semi_page)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_printed_round_says_its_length(client, event):
    t, organizer, ko, final = event
    client.force_login(organizer)
    printed = text(client.get(reverse("web:organizer-round-print", args=[final.pk])))
    assert "al mejor de 5 juegos, juegos a 40 piedras" in printed
    semis = Round.objects.get(phase=ko, number=2)
    sheets = text(client.get(reverse("web:organizer-round-sheets", args=[semis.pk])))
    assert "al mejor de 3 juegos, juegos a 40 piedras" in sheets


def test_a_length_changed_for_the_final_reaches_its_phone(client, event):
    t, organizer, ko, final = event
    phase_round_lengths_set(
        phase=ko, actor=organizer, round_lengths={**LENGTHS, "final": {"vacas_per_match": 2}}
    )
    (match,) = final.matches.all()
    page = text_of(client.get(reverse("web:table", args=[match.token])).content.decode())
    assert "Final: al mejor de 3 vacas de 7 juegos" in page


def test_the_desk_changes_the_length_of_a_round_not_played_yet(client, event):
    t, organizer, ko, final = event
    client.force_login(organizer)
    desk = client.get(reverse("web:organizer-tournament", args=[t.pk])).content.decode()
    assert 'data-testid="phase-lengths"' in desk
    assert 'name="final_games_per_vaca" value="3"' in desk  # what the phase holds now
    url = reverse("web:organizer-phase-lengths", args=[ko.pk])
    kept = {"quarterfinal_games_per_vaca": "2", "semifinal_games_per_vaca": "2"}
    response = client.post(url, {**kept, "final_games_per_vaca": "4"}, follow=True)
    assert "Duración por ronda de Cuadro guardada." in text(response)
    ko.refresh_from_db()
    assert ko.settings["round_lengths"]["final"] == {"games_per_vaca": 4}
    # the quarter-finals and semi-finals were played: their lengths stay, the desk says so
    response = client.post(url, {"final_games_per_vaca": "4"}, follow=True)
    assert response.status_code == 409
    said = text(response)
    assert "ronda 1 de Cuadro tiene partidas ya jugadas" in said, said[:3000]
    ko.refresh_from_db()
    assert ko.settings["round_lengths"]["semifinal"] == {"games_per_vaca": 2}
