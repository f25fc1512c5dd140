"""The demo's interpeña: Peña Txoko – Peña Lizarra, four boards, half played.

Responsible for: an interpeña of four boards between the demo peña and the circuit's second
peña (seasons/circuits/demo.py creates it): boards A and B confirmed (one entered by an
organizer and confirmed by the other's, one by both pairs at the table), board C entered by the
home pair and waiting for the away pair, board D still to play; through the interpeñas'
services and the tables' result flow. ``interpena_demo_delete`` for ``--reset``.

Must not: write a row a service could write (the exception: the deletion).

Terms: interpeñas, tablero (board), alineación (line-up), pareja, peña.
"""

from __future__ import annotations

import datetime as dt
import random

from clubs.models import Club, Pair
from seasons.interpenas.models import Interpena
from seasons.interpenas.services import (
    interpena_board_confirm,
    interpena_board_submit,
    interpena_create,
    interpena_lineup_set,
)
from tournaments.demo import demo_games, tournaments_demo_delete
from tournaments.models import Match
from tournaments.services.results import match_result_submit


def interpena_demo_load(
    *,
    user,
    home: Club,
    away: Club,
    home_pairs: list[Pair],
    away_pairs: list[Pair],
    rng: random.Random,
    log=print,
) -> Interpena:
    """The interpeña, half played (the module's docstring)."""
    interpena = _interpena(user, home, away, home_pairs, away_pairs, rng)
    log(f"Interpeñas {home.name} – {away.name}: boards A and B confirmed, C waiting, D to play.")
    return interpena


def interpena_demo_delete(away_slug: str) -> None:
    """The interpeñas the demo peña plays against ``away_slug`` and their container
    tournaments (which hold pairs of both peñas)."""
    interpenas = Interpena.objects.filter(away_club__slug=away_slug)
    tournaments = list(interpenas.values_list("tournament_id", flat=True))
    interpenas.delete()
    tournaments_demo_delete(tournaments)


def _interpena(user, home: Club, away: Club, home_pairs, away_pairs, rng) -> Interpena:
    interpena = interpena_create(
        actor=user,
        home_club=home,
        away_club_id=away.pk,
        played_on=dt.date(2026, 12, 12),
        boards=4,
        name="Txoko – Lizarra",
        venue="Sociedad Txoko, Pamplona",
    )
    interpena_lineup_set(
        actor=user, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
    )
    interpena = interpena_lineup_set(
        actor=user, interpena=interpena, side="away", pair_ids=[p.pk for p in away_pairs]
    )
    # Board A: the home organizer enters it, the away organizer confirms it.
    answer = interpena_board_submit(
        actor=user,
        interpena=interpena,
        board=1,
        side="home",
        payload={"games": demo_games(rng, winner="a")},
        idempotency_key="demo-ip-a-home",
        version=0,
    )
    interpena_board_confirm(
        actor=user,
        interpena=interpena,
        board=1,
        side="away",
        idempotency_key="demo-ip-a-away",
        version=answer.match.version,
    )
    # Board B: both pairs at the table, through its link; board C: only the home pair so far.
    matches = {m.table_number: m for m in Match.objects.filter(round=interpena.round)}
    games = demo_games(rng, winner="b")
    first = match_result_submit(
        match=matches[2],
        side="a",
        payload={"games": games},
        idempotency_key="demo-ip-b-a",
        version=0,
        via="link",
    )
    match_result_submit(
        match=matches[2],
        side="b",
        payload={"games": games},
        idempotency_key="demo-ip-b-b",
        version=first.match.version,
        via="link",
    )
    match_result_submit(
        match=matches[3],
        side="a",
        payload={"games": demo_games(rng, winner="a")},
        idempotency_key="demo-ip-c-a",
        version=0,
        via="link",
    )
    return interpena
