"""The public standings of the ladders: a group ladder's groups in ladder order with who came up
and who came down, a table ladder's table order; in Spanish and in English."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import tournament_field
from tournaments.models import Match, Round, Tournament
from tournaments.services.rounds import (
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


def play(rnd: Round, organizer, winner=min) -> None:
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.all():
        w = winner(m.entry_a_id, m.entry_b_id)
        m.status, m.winner_id = Match.Status.CONFIRMED, w
        m.games_a, m.games_b = (2, 0) if w == m.entry_a_id else (0, 2)
        m.save()
    round_close(round=rnd, actor=organizer)


def standings_url(t: Tournament) -> str:
    return reverse("web:public-standings", args=[t.club.slug, t.slug])


def test_group_ladder_standings_show_who_came_up_and_down(client):
    t, organizer, entries = tournament_field(8, status=Tournament.Status.RUNNING, is_public=True)
    phase = phase_create(
        tournament=t,
        actor=organizer,
        name="Escalera",
        format="group_ladder",
        ladder={"groups": 2, "cycle_rounds": 1, "cycles": 2, "move_by": "place"},
    )
    play(round_draw_generate(phase=phase, actor=organizer), organizer)
    round_draw_generate(phase=phase, actor=organizer)
    standings_refresh(phase=phase)
    page = client.get(standings_url(t)).content.decode()
    assert "Grupo A" in page and "Grupo B" in page
    assert "sube de grupo" in page and "baja de grupo" in page
    english = client.get(standings_url(t), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "moves up a group" in english and "moves down a group" in english


def test_table_ladder_standings_are_the_table_order(client):
    t, organizer, entries = tournament_field(4, status=Tournament.Status.RUNNING, is_public=True)
    phase = phase_create(
        tournament=t, actor=organizer, name="Sube y baja", format="table_ladder", rounds_planned=2
    )
    play(round_draw_generate(phase=phase, actor=organizer), organizer, winner=max)
    standings_refresh(phase=phase)
    page = client.get(standings_url(t)).content.decode()
    names = [str(e.pair) for e in entries]
    # table 1: the second pair beat the first; table 2: the fourth beat the third
    at = [page.index(name) for name in (names[1], names[0], names[3], names[2])]
    assert at == sorted(at)
