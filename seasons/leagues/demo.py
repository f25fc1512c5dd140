"""The demo's league: "Liga de los jueves" (2026-27), the demo peña's league of fixed pairs.

Responsible for: a Primera and a Segunda of four pairs each (one up, one down), jornadas 1 and
2 played through the tables' links and jornada 3 published and half played, one of its
matches postponed to a deadline; through the leagues' services, the matches played by the
tournaments' demo player (tournaments/demo.py's ``TablePlayer``) as the phones would.
``league_demo_delete`` for ``--reset``.

Must not: write a row a service could write (the exception: the deletion).

Terms: liga, jornada, división (Primera, Segunda), ascenso / descenso, aplazada (postponed).
"""

from __future__ import annotations

import datetime as dt

from clubs.models import Club, Pair
from seasons.leagues import selectors, services
from seasons.leagues.models import League
from tournaments.demo import TablePlayer
from tournaments.models import Match

LEAGUE_NAME = "Liga de los jueves"
LEAGUE_START = dt.date(2026, 10, 1)


def league_demo_load(
    *, user, club: Club, pairs: list[Pair], player: TablePlayer, log=print
) -> League:
    """The peña's Thursday league: two divisions of four pairs, two jornadas and a half
    played on the tables' result flow, one match postponed."""
    dates = [LEAGUE_START + dt.timedelta(weeks=k) for k in range(3)]
    league = services.league_create(
        club=club, actor=user, name=LEAGUE_NAME, season="2026-27", dates=dates
    )
    for k, name in enumerate(("Primera", "Segunda")):
        services.division_create(
            league=league,
            actor=user,
            name=name,
            pair_ids=[p.pk for p in pairs[4 * k : 4 * k + 4]],
            promote=1 if k else 0,
            relegate=0 if k else 1,
        )
    for number in (1, 2, 3):
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_draw(jornada=jornada, actor=user)
        services.jornada_publish(jornada=jornada, actor=user)
        matches = list(
            Match.objects.filter(
                round__phase__league_division__league=league, round__number=number
            ).order_by("table_number")
        )
        played = matches if number < 3 else matches[:3]
        for match in played:
            player.play_confirmed(match)
    services.match_postpone(
        league=league,
        actor=user,
        match_id=matches[-1].pk,
        deadline=dates[2] + dt.timedelta(days=5),
        reason="Una pareja de viaje",
    )
    log(f"{LEAGUE_NAME}: jornadas 1 and 2 played, jornada 3 half played.")
    return league


def league_demo_delete(club: Club) -> None:
    """The peña's leagues (their divisions protect the tournaments they are played as, which
    tournaments' demo deletes with the peña's other tournaments)."""
    League.objects.filter(club=club).delete()
