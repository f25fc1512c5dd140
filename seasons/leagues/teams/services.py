"""Writes of a league of peñas (liga de peñas): the league with its peñas and calendar, each
fixture opened as an interpeña, and a fixture postponed or decided without being played.

Responsible for:

- ``team_league_create``: an organizer of the owning peña names the peñas (at least two, any
  peña of the service), the dates, the boards of every meeting, the points for a team win,
  draw, loss and walkover lost, and the tiebreaks (seasons.leagues.table.TEAM_TIEBREAKS). The
  schedule is the circle method (tournaments.draw.round_robin_schedule) over the peñas in the
  order given; a double league plays it twice, the second time with home and away swapped; an
  odd number of peñas: one rests each jornada. The calendar must have exactly one date per
  jornada of that schedule; every fixture is written at once (home, away, jornada);
- ``team_fixture_open`` / ``team_jornada_open``: a fixture is played as an interpeña
  (seasons.interpenas.services.interpena_create with ``league_key``), of the league's boards,
  public when the league is, on the jornada's date (or its postponement's deadline). The
  interpeña is a tournament of the home peña, so an organizer of the **home** peña opens it
  (``team_jornada_open`` opens every fixture of the jornada the caller may open). From then on,
  each peña's organizers field their pairs and confirm their boards, and the captains confirm
  the team result, exactly as in any interpeña; the standings read it once both confirmed;
- ``team_fixture_postpone`` / ``team_fixture_decide``: the league's organizers (the owning
  peña's) postpone a fixture not confirmed to a deadline, and decide one not confirmed as a
  walkover of one peña (the other wins) or a double loss (both lose, as a walkover lost).

Every write: one transaction, the league row locked first, then the fixture; the caller
checked through clubs.roles; a private league does not exist (NotFound) for somebody who may
not see it.

Must not: compute standings (seasons.leagues.table through its selectors), or touch a board's
result but through the interpeña's and the tournaments' services.

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, tablero (board), descanso
(rest), aplazada (postponed), no presentada (walkover), doble derrota (double loss).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs import roles
from clubs.models import Club
from config.errors import Conflict, Forbidden, Invalid, NotFound
from seasons.interpenas.models import Interpena
from seasons.interpenas.services import MAX_BOARDS, interpena_create
from seasons.leagues import table
from seasons.leagues.models import TeamFixture, TeamJornada, TeamLeague
from seasons.leagues.services import free_slug, name_and_season
from seasons.leagues.teams import selectors as team_selectors
from tournaments.draw import Group as DrawGroup
from tournaments.draw import round_robin_schedule

User = team_selectors.User

MAX_POINTS = 20
MAX_PENAS = 24


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Invalid(
            "'{field}' is a whole number from {low} to {high}.",
            code="team_league_number",
            field=name,
            low=low,
            high=high,
        )
    return value


def _tiebreaks(order: Any) -> list[str]:
    if order is None:
        return list(table.DEFAULT_TEAM_TIEBREAKS)
    if (
        not isinstance(order, list | tuple)
        or any(t not in table.TEAM_TIEBREAKS for t in order)
        or len(set(order)) != len(order)
    ):
        raise Invalid(
            "The tiebreaks of a league of peñas are a list of {tiebreaks}, each named once.",
            code="team_league_tiebreaks",
            tiebreaks=list(table.TEAM_TIEBREAKS),
        )
    return list(order)


def _dates(dates: Any, needed: int) -> list[dt.date]:
    if not isinstance(dates, list | tuple):
        dates = []
    out = []
    for value in dates:
        day = value
        if isinstance(value, str):
            try:
                day = dt.date.fromisoformat(value)
            except ValueError:
                day = None
        if not isinstance(day, dt.date):
            raise Invalid(
                "'{value}' is not a date; write it as 2026-10-01.",
                code="league_calendar_date",
                value=str(value)[:20],
            )
        out.append(day)
    if len(out) != needed:
        raise Invalid(
            "This league has {needed} jornadas: give one date for each, not {given}.",
            code="team_league_dates_count",
            needed=needed,
            given=len(out),
        )
    if any(b <= a for a, b in zip(out, out[1:], strict=False)):
        raise Invalid(
            "The calendar's dates go forward, one jornada a day at most.",
            code="league_calendar_order",
        )
    return out


def _clubs(club_ids: Any) -> list[Club]:
    if (
        not isinstance(club_ids, list | tuple)
        or any(isinstance(c, bool) or not isinstance(c, int) for c in club_ids)
        or not 2 <= len(club_ids) <= MAX_PENAS
    ):
        raise Invalid(
            "A league of peñas is played by 2 to {max_penas} peñas: give their ids.",
            code="team_league_clubs",
            max_penas=MAX_PENAS,
        )
    if len(set(club_ids)) != len(club_ids):
        raise Invalid("A peña is named twice in the league.", code="team_league_club_twice")
    found = {c.pk: c for c in Club.objects.filter(pk__in=club_ids)}
    for club_id in club_ids:
        if club_id not in found:
            raise NotFound("There is no peña {club_id}.", code="club_not_found", club_id=club_id)
    return [found[c] for c in club_ids]


Plan = list[tuple[list[tuple[int, int]], int | None]]


def schedule_of(club_ids: Sequence[int], legs: int) -> Plan:
    """Each jornada's (home, away) fixtures and the peña resting, for ``legs`` legs."""
    rounds = round_robin_schedule(DrawGroup("liga", tuple(club_ids)))
    out = []
    for leg in range(legs):
        for pairings in rounds:
            fixtures, resting = [], None
            for p in pairings:
                if p.is_bye:
                    resting = p.a_id
                elif leg % 2:
                    fixtures.append((p.b_id, p.a_id))
                else:
                    fixtures.append((p.a_id, p.b_id))
            out.append((fixtures, resting))
    return out


def team_league_create(
    *,
    club: Club,
    actor: User,
    name: str,
    season: str,
    club_ids: Sequence[int],
    dates: Sequence[Any],
    boards: int = 3,
    legs: int = 1,
    is_public: bool = True,
    preset: str = "",
    points_win: int = 3,
    points_draw: int = 1,
    points_loss: int = 0,
    points_walkover_loss: int = 0,
    tiebreaks: list[str] | None = None,
    slug: str = "",
) -> TeamLeague:
    """A league of peñas run by ``club``, with its whole calendar of fixtures."""
    roles.require_organizer(actor, club)
    name, season = name_and_season(name, season)
    if legs not in (1, 2) or isinstance(legs, bool):
        raise Invalid(
            "A league is played over one leg or two (ida y vuelta), not {legs}.",
            code="league_legs",
            legs=str(legs)[:10],
        )
    boards = _whole("boards", boards, 1, MAX_BOARDS)
    points = {
        f"points_{k}": _whole(f"points_{k}", v, 0, MAX_POINTS)
        for k, v in (
            ("win", points_win),
            ("draw", points_draw),
            ("loss", points_loss),
            ("walkover_loss", points_walkover_loss),
        )
    }
    if not points["points_win"] > points["points_draw"] >= points["points_loss"]:
        raise Invalid(
            "A win must give more league points than a draw, and a draw no fewer than a loss.",
            code="team_league_points_order",
        )
    order = _tiebreaks(tiebreaks)
    clubs = _clubs(list(club_ids) if isinstance(club_ids, list | tuple) else club_ids)
    ids = [c.pk for c in clubs]
    plan = schedule_of(ids, legs)
    calendar = _dates(list(dates) if isinstance(dates, list | tuple) else dates, len(plan))
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        league = TeamLeague.objects.create(
            club=club,
            name=name,
            season=season,
            slug=free_slug(club, name, season, slug, model=TeamLeague, fallback="liga-penas"),
            schedule=ids,
            legs=legs,
            boards=boards,
            is_public=bool(is_public),
            preset_name=preset or "",
            tiebreaks=order,
            created_by=actor if actor is not None and actor.is_authenticated else None,
            **points,
        )
        league.clubs.set(clubs)
        fixtures = []
        for number, ((pairs, resting), day) in enumerate(zip(plan, calendar, strict=True), 1):
            jornada = TeamJornada.objects.create(
                league=league, number=number, date=day, resting_id=resting
            )
            fixtures += [
                TeamFixture(jornada=jornada, number=k, home_club_id=h, away_club_id=a)
                for k, (h, a) in enumerate(pairs, start=1)
            ]
        TeamFixture.objects.bulk_create(fixtures)
    return league


# --- Fixtures -----------------------------------------------------------------------------------


def _lock(league: TeamLeague, actor: User) -> TeamLeague:
    locked = (
        TeamLeague.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=league.pk)
        .first()
    )
    if locked is None or not team_selectors.team_league_readable(league=locked, user=actor):
        raise team_selectors.team_league_not_found(league.pk)
    return locked


def _fixture(league: TeamLeague, fixture_id: int) -> TeamFixture:
    fixture = (
        TeamFixture.objects.select_for_update(of=("self",))
        .select_related("jornada", "home_club", "away_club", "interpena")
        .filter(pk=fixture_id, jornada__league=league)
        .first()
    )
    if fixture is None:
        raise NotFound(
            "The league has no fixture {fixture}.",
            code="team_fixture_not_found",
            fixture=str(fixture_id)[:20],
        )
    return fixture


def _open(league: TeamLeague, fixture: TeamFixture, actor: User) -> TeamFixture:
    if fixture.decision:
        raise Conflict(
            "This fixture was decided without being played.", code="team_fixture_decided"
        )
    if fixture.interpena_id is not None:
        return fixture
    day = fixture.postponed_to or fixture.jornada.date
    fixture.interpena = interpena_create(
        actor=actor,
        home_club=fixture.home_club,
        away_club_id=fixture.away_club_id,
        played_on=day,
        boards=league.boards,
        name=f"{league.name} J{fixture.jornada.number}: "
        f"{fixture.home_club.name} – {fixture.away_club.name}"[:160],
        is_public=league.is_public,
        preset=league.preset_name or None,
        league_key=f"team-league:{league.pk}:{fixture.pk}",
    )
    fixture.save(update_fields=["interpena"])
    return fixture


def team_fixture_open(*, league: TeamLeague, fixture_id: int, actor: User) -> TeamFixture:
    """The fixture's interpeña, made by an organizer of the home peña (idempotent)."""
    with transaction.atomic():
        league = _lock(league, actor)
        fixture = _fixture(league, fixture_id)
        roles.require_organizer(actor, fixture.home_club)
        return _open(league, fixture, actor)


def team_jornada_open(*, league: TeamLeague, number: int, actor: User) -> list[TeamFixture]:
    """Open every fixture of jornada ``number`` whose home peña the caller organizes."""
    with transaction.atomic():
        league = _lock(league, actor)
        jornada = TeamJornada.objects.filter(league=league, number=number).first()
        if jornada is None:
            raise NotFound(
                "The league has no jornada {number}.", code="jornada_not_found", number=number
            )
        fixtures = list(
            TeamFixture.objects.select_for_update(of=("self",))
            .select_related("jornada", "home_club", "away_club")
            .filter(jornada=jornada)
            .order_by("number")
        )
        mine = [f for f in fixtures if not f.decision and roles.can_organize(actor, f.home_club)]
        if not mine:
            raise Forbidden(
                "Only the organizers of a fixture's home peña open its interpeña.",
                code="team_fixture_not_home",
            )
        return [_open(league, f, actor) for f in mine]


def _not_confirmed(fixture: TeamFixture) -> None:
    if fixture.interpena_id is not None and fixture.interpena.status == Interpena.Status.CONFIRMED:
        raise Conflict(
            "Both captains confirmed this fixture's team result: it was played.",
            code="team_fixture_confirmed",
        )


def team_fixture_postpone(
    *, league: TeamLeague, fixture_id: int, actor: User, deadline: Any
) -> TeamFixture:
    """Postpone a fixture not played yet to ``deadline`` (its interpeña's date moves too)."""
    with transaction.atomic():
        league = _lock(league, actor)
        roles.require_organizer(actor, league.club)
        fixture = _fixture(league, fixture_id)
        _not_confirmed(fixture)
        if fixture.decision:
            raise Conflict(
                "This fixture was decided without being played.", code="team_fixture_decided"
            )
        if not isinstance(deadline, dt.date) or deadline < fixture.jornada.date:
            raise Invalid(
                "The deadline of a postponed fixture is a date from its jornada's, {date}.",
                code="team_fixture_deadline",
                date=fixture.jornada.date.isoformat(),
            )
        fixture.postponed_to = deadline
        fixture.save(update_fields=["postponed_to"])
        if fixture.interpena_id is not None:
            Interpena.objects.filter(pk=fixture.interpena_id).update(played_on=deadline)
    return fixture


def team_fixture_decide(
    *, league: TeamLeague, fixture_id: int, actor: User, decision: str
) -> TeamFixture:
    """A walkover of one peña (``home_absent``, ``away_absent``) or a ``double_loss``."""
    choices = [c for c in TeamFixture.Decision.values if c]
    if decision not in choices:
        raise Invalid(
            "Decide a fixture as one of {choices}, not '{decision}'.",
            code="team_fixture_decision",
            choices=choices,
            decision=str(decision)[:40],
        )
    with transaction.atomic():
        league = _lock(league, actor)
        roles.require_organizer(actor, league.club)
        fixture = _fixture(league, fixture_id)
        _not_confirmed(fixture)
        fixture.decision = decision
        fixture.decided_at = timezone.now()
        fixture.save(update_fields=["decision", "decided_at"])
    return fixture


__all__ = [
    "schedule_of",
    "team_fixture_decide",
    "team_fixture_open",
    "team_fixture_postpone",
    "team_jornada_open",
    "team_league_create",
]
