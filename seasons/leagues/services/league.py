"""A league and its calendar: created, its dates to come, its points and tiebreaks changed.

Responsible for: ``league_create`` (a league of the peña for a season, of fixed pairs or
individual, over one leg or two, with its points, tiebreaks and calendar of jornadas),
``league_calendar_set`` (the dates of the jornadas not drawn yet, after those drawn) and
``league_rules_update`` (points and tiebreaks changed at any time, audited on every division's
tournament; the standings follow on their next read).

Must not: touch a division or its tournament (divisions.py) or draw a jornada (jornadas.py).

Terms: liga, temporada, jornada, ida y vuelta, desempate (tiebreak).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from clubs import roles
from clubs.models import Club
from config.errors import Invalid
from seasons.leagues import selectors
from seasons.leagues.models import Jornada, League
from seasons.leagues.services.checks import (
    User,
    _audit_divisions,
    _dates,
    _lock_league,
    _points,
    _tiebreaks,
    free_slug,
    name_and_season,
)


def league_create(
    *,
    club: Club,
    actor: User,
    name: str,
    season: str,
    kind: str = League.Kind.PAIRS,
    legs: int = 1,
    is_public: bool = True,
    preset: str = "",
    points_win: int = 2,
    points_loss: int = 1,
    points_walkover_loss: int = 0,
    tiebreaks: list[str] | None = None,
    dates: Sequence[Any] = (),
    slug: str = "",
    previous: League | None = None,
) -> League:
    """A league of ``club`` for ``season``, with its calendar of jornadas (``dates``)."""
    roles.require_organizer(actor, club)
    name, season = name_and_season(name, season)
    if kind not in League.Kind.values:
        raise Invalid(
            "A league is of fixed pairs or individual: {kinds}, not '{kind}'.",
            code="league_kind",
            kind=str(kind)[:40],
            kinds=list(League.Kind.values),
        )
    if legs not in (1, 2):
        raise Invalid(
            "A league is played over one leg or two (ida y vuelta), not {legs}.",
            code="league_legs",
            legs=str(legs)[:10],
        )
    values = {
        "points_win": _points("points_win", points_win),
        "points_loss": _points("points_loss", points_loss),
        "points_walkover_loss": _points("points_walkover_loss", points_walkover_loss),
    }
    if values["points_win"] <= values["points_loss"]:
        raise Invalid("A win must give more league points than a loss.", code="league_points_order")
    order = _tiebreaks(tiebreaks)
    calendar = _dates(list(dates))
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        league = League.objects.create(
            club=club,
            name=name,
            season=season,
            slug=free_slug(club, name, season, slug),
            kind=kind,
            legs=legs,
            is_public=bool(is_public),
            preset_name=preset or "",
            tiebreaks=order,
            previous=previous,
            created_by=actor if actor is not None and actor.is_authenticated else None,
            **values,
        )
        Jornada.objects.bulk_create(
            Jornada(league=league, number=n, date=d) for n, d in enumerate(calendar, start=1)
        )
    return league


def league_calendar_set(*, league: League, actor: User, dates: Sequence[Any]) -> list[Jornada]:
    """The dates of the jornadas not drawn yet; those drawn keep theirs (and come first)."""
    calendar = _dates(list(dates))
    with transaction.atomic():
        league = _lock_league(league, actor)
        drawn = list(
            Jornada.objects.filter(league=league)
            .exclude(status=Jornada.Status.PLANNED)
            .order_by("number")
        )
        if drawn and calendar and calendar[0] <= drawn[-1].date:
            raise Invalid(
                "Jornada {number} was drawn for {date}; the dates still to come must be later.",
                code="league_calendar_after_drawn",
                number=drawn[-1].number,
                date=drawn[-1].date.isoformat(),
            )
        Jornada.objects.filter(league=league, status=Jornada.Status.PLANNED).delete()
        start = len(drawn) + 1
        Jornada.objects.bulk_create(
            Jornada(league=league, number=n, date=d) for n, d in enumerate(calendar, start=start)
        )
    return selectors.jornadas_of(league=league)


#: what an organizer may change in a league after creating it (league_rules_update)
RULES = ("points_win", "points_loss", "points_walkover_loss", "tiebreaks")


def league_rules_update(*, league: League, actor: User, via: str = "api", **changes: Any) -> League:
    """Change the league's points (``points_win``, ``points_loss``, ``points_walkover_loss``)
    and ``tiebreaks`` at any time. The standings are computed from the results with the
    league's rules on every read, so they follow at once; the change is audited on every
    division's tournament (``league_rules_changed``, old and new values)."""
    unknown = set(changes) - set(RULES)
    if unknown:
        raise TypeError(f"unknown league rules {sorted(unknown)}")
    checked = {
        name: (_tiebreaks(value) if name == "tiebreaks" else _points(name, value))
        for name, value in changes.items()
    }
    with transaction.atomic():
        league = _lock_league(league, actor)
        old = {name: getattr(league, name) for name in checked}
        new = {name: value for name, value in checked.items() if old[name] != value}
        if not new:
            return league
        for name, value in new.items():
            setattr(league, name, value)
        if league.points_win <= league.points_loss:
            raise Invalid(
                "A win must give more league points than a loss.", code="league_points_order"
            )
        league.save(update_fields=list(new))
        _audit_divisions(
            league,
            action="league_rules_changed",
            actor=actor,
            via=via,
            old={name: old[name] for name in new},
            new=new,
        )
    return league
