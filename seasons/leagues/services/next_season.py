"""A league's next season, its divisions filled from this season's final standings.

Responsible for: ``league_next_season`` (once every jornada is published: a new league with
the same settings and divisions, each division's members from this season's final standings)
and ``season_moves``, who goes where: each division's top ``promote`` go up one division, its
bottom ``relegate`` down one (Primera promotes nobody, the last division relegates nobody);
who stays keeps their order, who comes down goes first, who comes up last.

Must not: compute the standings (seasons.leagues.selectors and table.py do).

Terms: temporada, ascenso / descenso, división.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from config.errors import Conflict
from seasons.leagues import selectors
from seasons.leagues.models import Jornada, League
from seasons.leagues.services.checks import (
    User,
    _lock_league,
)
from seasons.leagues.services.divisions import division_create
from seasons.leagues.services.league import league_create
from tournaments.models import Entry


def league_next_season(
    *, league: League, actor: User, season: str, dates: Sequence[Any] = (), name: str = ""
) -> League:
    """Next season's league: the same settings and divisions, filled from this season's final
    standings — each division's top ``promote`` go up one division, its bottom ``relegate`` go
    down one (Primera promotes nobody, the last division relegates nobody)."""
    with transaction.atomic():
        league = _lock_league(league, actor)
        open_ = Jornada.objects.filter(league=league).exclude(status=Jornada.Status.PUBLISHED)
        if open_.exists() or not Jornada.objects.filter(league=league).exists():
            raise Conflict(
                "The season is not over: every jornada must be published first.",
                code="league_season_open",
            )
        standings = selectors.league_standings(league=league)
        moved = season_moves(
            [
                ([row.competitor for row in s.rows], s.division.promote, s.division.relegate)
                for s in standings
            ]
        )
        new = league_create(
            club=league.club,
            actor=actor,
            name=name or league.name,
            season=season,
            kind=league.kind,
            legs=league.legs,
            is_public=league.is_public,
            preset=league.preset_name,
            points_win=league.points_win,
            points_loss=league.points_loss,
            points_walkover_loss=league.points_walkover_loss,
            tiebreaks=list(selectors.league_tiebreaks(league)),
            dates=dates,
            previous=league,
        )
        pair_of = dict(
            Entry.objects.filter(tournament__league_division__league=league).values_list(
                "id", "pair_id"
            )
        )
        for s, members in zip(standings, moved, strict=True):
            if league.kind == League.Kind.PAIRS:
                division_create(
                    league=new,
                    actor=actor,
                    name=s.division.name,
                    pair_ids=[pair_of[e] for e in members],
                    promote=s.division.promote,
                    relegate=s.division.relegate,
                )
            else:
                division_create(
                    league=new,
                    actor=actor,
                    name=s.division.name,
                    player_ids=members,
                    promote=s.division.promote,
                    relegate=s.division.relegate,
                )
    return new


def season_moves(divisions: list[tuple[list[int], int, int]]) -> list[list[int]]:
    """Each division's members next season from (final order, promote, relegate), top
    division first: who stays keeps their order; who comes down goes first, who comes up
    last (they start below those who stayed)."""
    staying: list[list[int]] = []
    up: list[list[int]] = [[] for _ in divisions]
    down: list[list[int]] = [[] for _ in divisions]
    last = len(divisions) - 1
    for i, (order, promote, relegate) in enumerate(divisions):
        promoted = order[:promote] if i > 0 else []
        relegated = order[len(order) - relegate :] if i < last and relegate else []
        relegated = [c for c in relegated if c not in promoted]
        staying.append([c for c in order if c not in promoted and c not in relegated])
        if promoted:
            up[i - 1].extend(promoted)
        if relegated:
            down[i + 1].extend(relegated)
    return [down[i] + staying[i] + up[i] for i in range(len(divisions))]
