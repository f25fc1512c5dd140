"""One name per thing (tournaments.web.names): a knockout's rounds are called as the bracket
calls them — a double elimination's by the bracket rounds each round of play holds."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.factories import tournament_field
from tournaments.models import Match, Round
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.web.names import round_name

pytestmark = pytest.mark.django_db


def _play_all(phase, organizer, seed):
    played = [round_draw_generate(phase=phase, actor=organizer)]
    while True:
        rnd = played[-1]
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            better = min((m.entry_a_id, m.entry_b_id), key=seed.get)
            worse = max((m.entry_a_id, m.entry_b_id), key=seed.get)
            m.status = Match.Status.CONFIRMED
            m.winner_id = worse if m.bracket_key == "GF1" else better
            m.games_a, m.games_b = (2, 0) if m.winner_id == m.entry_a_id else (0, 2)
            m.save()
            bracket_advance(phase=phase)
        round_close(round=rnd, actor=organizer)
        following = Round.objects.filter(phase=phase, number=rnd.number + 1).first()
        if following is None:
            return played
        played.append(following)


def test_double_elimination_rounds_are_named_by_their_bracket_rounds():
    t, organizer, entries = tournament_field(8)
    phase = phase_create(tournament=t, actor=organizer, name="Cuadro", format="double_elimination")
    rounds = _play_all(phase, organizer, {e.id: e.seed for e in entries})
    phase.refresh_from_db()
    with translation.override("es"):
        names = [round_name(r, phase) for r in rounds]
    assert names[0] == "Cuartos de final de ganadores"
    assert names[1] == "Semifinales de ganadores · Ronda 1 de perdedores"
    assert "Final de ganadores" in names[2]
    assert "Final de perdedores" in names[-3]
    assert names[-2:] == ["Gran final", "Gran final: desempate"]
    assert not any(name.startswith("Ronda ") and "perdedores" not in name for name in names)
    with translation.override("en"):
        assert round_name(rounds[0], phase) == "Quarter-finals (winners)"
