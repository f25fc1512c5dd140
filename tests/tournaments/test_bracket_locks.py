"""The bracket and round services lock their own rows only, never the tournament's.

Found by the soak (benchmarks/soak.py): ``bracket_advance`` (the task that follows each
confirmed knockout result) locked the phase's matches with a plain ``select_for_update()``;
Match's default ordering joins round, phase and tournament, and PostgreSQL's FOR UPDATE then
locks a row of each, the tournament's included. A result confirmed at the same moment holds its
match's lock and, at COMMIT, checks its audit row's foreign key with FOR KEY SHARE on the
tournament row: each waited for the other, PostgreSQL broke the deadlock, and the phone got a
500 (its retry was stored once). The round's lock (``round_close``, ``round_publish``…) and the
phase's in ``bracket_advance`` had the same join. Here another transaction holds the FOR KEY
SHARE a committing result takes, and the services must not wait for it.
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from tests.factories import tournament_field
from tournaments.models import Match, Round, Tournament
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def knockout_semis_played():
    tournament, organizer, _ = tournament_field(4, status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=tournament, actor=organizer, name="KO", format="single_elimination"
    )
    semis = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=semis, actor=organizer)
    for match in semis.matches.exclude(kind=Match.Kind.BYE):
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.CONFIRMED,
            winner_id=match.entry_a_id,
            games_a=2,
            stones_a=80,
            stones_b=31,
        )
    return tournament, organizer, phase, semis


@pytest.fixture
def tournament_key_share():
    """Another transaction holding what a result's COMMIT takes on the tournament row."""
    s = connection.settings_dict
    other = psycopg.connect(
        dbname=s["NAME"], user=s["USER"], host=s["HOST"], port=s["PORT"] or 5432,
        password=s["PASSWORD"] or None,
    )  # fmt: skip

    def hold(tournament: Tournament) -> None:
        other.execute(
            "SELECT 1 FROM tournaments_tournament WHERE id = %s FOR KEY SHARE", [tournament.pk]
        )

    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '3s'")
    yield hold
    other.rollback()
    other.close()
    with connection.cursor() as cursor:
        cursor.execute("RESET lock_timeout")


def test_bracket_advance_does_not_lock_the_tournament(knockout_semis_played, tournament_key_share):
    tournament, _, phase, _ = knockout_semis_played
    tournament_key_share(tournament)

    assert bracket_advance(phase=phase) == 1  # the final, without waiting

    assert Round.objects.filter(phase=phase, number=2).exists()


def test_closing_a_round_does_not_lock_the_tournament(knockout_semis_played, tournament_key_share):
    tournament, organizer, _, semis = knockout_semis_played
    tournament_key_share(tournament)

    closed = round_close(round=semis, actor=organizer)

    assert closed.status == Round.Status.CLOSED
