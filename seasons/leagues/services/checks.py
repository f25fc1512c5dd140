"""What every write of the leagues shares: its checks, and the audit of a league-wide change.

Responsible for: the league row locked for a write and its caller checked (an organizer of the
league's peña; somebody who may not see a private league gets NotFound), and what an organizer
types checked and tidied before anything is written — a text's spaces and length, a league's
name and season, league points (0 to ``MAX_POINTS``), the tiebreaks (seasons.leagues.table's),
a calendar (at most ``MAX_JORNADAS`` dates, going forward), a list of ids, the peña's players a
league names — a slug no league of the peña holds (for a league of pairs, or of peñas in
seasons.leagues.teams), and a change of the whole league audited on each division's
tournament.

Must not: write a league's rows (the other modules of this package do, each in its own
transaction).

Terms: liga, temporada, jornada, peña, desempate (tiebreak).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.text import slugify

from clubs import roles
from clubs.models import Club, Player
from config.errors import Invalid, NotFound
from seasons.leagues import selectors, table
from seasons.leagues.models import Division, League
from tournaments.models import AuditEntry

User = AbstractBaseUser | AnonymousUser | None

MAX_POINTS = 20
MAX_JORNADAS = 60


def _lock_league(league: League, actor: User) -> League:
    locked = League.objects.select_for_update(of=("self",)).filter(pk=league.pk).first()
    if locked is None:
        raise selectors.league_not_found(league.pk)
    locked.club = Club.objects.get(pk=locked.club_id)
    if not selectors.league_readable(league=locked, user=actor):
        raise selectors.league_not_found(league.pk)
    roles.require_organizer(actor, locked.club)
    return locked


def _audit_divisions(
    league: League, *, action: str, actor: User, via: str, old: Any, new: Any = None
) -> None:
    """A change of the whole league, audited on the tournament of each of its divisions."""
    AuditEntry.objects.bulk_create(
        AuditEntry(
            tournament_id=tournament_id,
            action=action,
            actor=actor if actor is not None and actor.is_authenticated else None,
            via=via,
            old=old,
            new=new,
        )
        for tournament_id in Division.objects.filter(league=league).values_list(
            "tournament_id", flat=True
        )
    )


def tidy_text(value: Any, *, field: str, max_length: int) -> str:
    """``value`` with its spaces tidied ("" when empty); Invalid when too long."""
    text = " ".join(str(value or "").split())
    if len(text) > max_length:
        raise Invalid(
            "'{text}' is too long: at most {max_length} characters.",
            code="league_text_too_long",
            field=field,
            text=text[:40],
            max_length=max_length,
        )
    return text


def _points(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise Invalid(
            "'{field}' is a whole number of league points from 0 to {max_points}.",
            code="league_points",
            field=name,
            max_points=MAX_POINTS,
        )
    return value


def _tiebreaks(order: Any) -> list[str]:
    if order is None:
        return list(table.DEFAULT_TIEBREAKS)
    if not isinstance(order, list | tuple) or any(t not in table.TIEBREAKS for t in order):
        raise Invalid(
            "The league's tiebreaks are a list of {tiebreaks}.",
            code="league_tiebreaks",
            tiebreaks=list(table.TIEBREAKS),
        )
    if len(set(order)) != len(order):
        raise Invalid(
            "A tiebreak is named twice in the league's order.", code="league_tiebreak_twice"
        )
    return list(order)


def _dates(dates: Any) -> list[dt.date]:
    if not isinstance(dates, list | tuple) or len(dates) > MAX_JORNADAS:
        raise Invalid(
            "The calendar is a list of at most {max_jornadas} dates.",
            code="league_calendar",
            max_jornadas=MAX_JORNADAS,
        )
    out = []
    for value in dates:
        if isinstance(value, str):
            try:
                value = dt.date.fromisoformat(value)
            except ValueError:
                raise Invalid(
                    "'{value}' is not a date; write it as 2026-10-01.",
                    code="league_calendar_date",
                    value=value[:20],
                ) from None
        if not isinstance(value, dt.date):
            raise Invalid(
                "'{value}' is not a date; write it as 2026-10-01.",
                code="league_calendar_date",
                value=str(value)[:20],
            )
        out.append(value)
    if any(b <= a for a, b in zip(out, out[1:], strict=False)):
        raise Invalid(
            "The calendar's dates go forward, one jornada a day at most.",
            code="league_calendar_order",
        )
    return out


def name_and_season(name: Any, season: Any) -> tuple[str, str]:
    """A league's name and season (of pairs or of peñas), tidied; both are needed."""
    name = tidy_text(name, field="name", max_length=120)
    season = tidy_text(season, field="season", max_length=20)
    if not name or not season:
        raise Invalid(
            "A league needs its name and its season, e.g. 'Liga de los jueves' and '2026-27'.",
            code="league_name_season",
            field="name" if not name else "season",
        )
    return name, season


def free_slug(
    club: Club, name: str, season: str, slug: str, *, model=League, fallback="liga"
) -> str:
    """The slug asked for (or one made of name and season), numbered until no league of the
    peña (``model``: a league of pairs or of peñas) holds it."""
    base = slugify(slug or f"{name} {season}")[:70] or fallback
    candidate, n = base, 1
    while model.objects.filter(club=club, slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _league_players(league: League, player_ids: Sequence[int]) -> list[Player]:
    ids = _ids(player_ids, field="player_ids")
    found = {p.pk: p for p in Player.objects.filter(pk__in=ids, clubs=league.club)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            "The peña has no player {players}; add them to the peña first.",
            code="league_player_unknown",
            players=missing,
        )
    return [found[i] for i in ids]


def _ids(values: Any, *, field: str) -> list[int]:
    if not isinstance(values, list | tuple) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in values
    ):
        raise Invalid("'{field}' is a list of ids.", code="league_ids", field=field)
    if len(set(values)) != len(values):
        raise Invalid("'{field}' names an id twice.", code="league_ids_twice", field=field)
    return list(values)
