"""Reads of a league of peñas: who may see and manage it, its calendar of fixtures with each
one's state and team result, and its standings (whole season or up to a jornada).

Responsible for: finding a league of peñas by id or by its peña's and its own short name with
the visibility rule (a public league is public; a private one exists only for the members of
its peñas, the owning one and those that play it — anybody else gets NotFound); the calendar
(jornadas, fixtures, the interpeña of each, its boards' team result through
seasons.circuits.selectors.board_result and seasons.interpenas.result.team_result); the standings
through seasons.leagues.table.league_table — the same table and tiebreaks as a league of pairs,
each peña one competitor.

A fixture counts for the standings when it was decided (a walkover: the other peña wins; a
double loss: both lose, as a walkover lost), or when its interpeña is confirmed by both
captains on the boards' current results (a board corrected afterwards waits for them again).
Its board points are the boards each peña won, its juegos the sum over the boards.

Cost: the calendar is four queries (jornadas, fixtures with their peñas and interpeñas, the
boards with their matches, the league's peñas), the standings the same three plus the peñas,
whatever the number of peñas, jornadas or boards.

Must not: write, or compute what table.py and teams.py compute.

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, tablero (board), descanso,
aplazada, no presentada, doble derrota, clasificación (standings).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs import roles
from clubs.models import Club, Membership
from config.errors import NotFound
from seasons.interpenas.models import Interpena, InterpenaBoard
from seasons.interpenas.result import AWAY, DRAW, HOME, TeamResult, signature, team_result
from seasons.interpenas.selectors import board_result
from seasons.leagues import table
from seasons.leagues.models import TeamFixture, TeamJornada, TeamLeague

User = AbstractBaseUser | AnonymousUser | None


def team_league_not_found(league_id: int | str) -> NotFound:
    return NotFound(
        "There is no league of peñas {league}, or it is private to its peñas.",
        code="team_league_not_found",
        league=str(league_id)[:80],
    )


def _member_clubs(user: User) -> QuerySet:
    if user is None or not user.is_authenticated:
        return Membership.objects.none().values("club_id")
    return Membership.objects.filter(user=user).values("club_id")


def team_league_readable(*, league: TeamLeague, user: User) -> bool:
    if league.is_public:
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    mine = set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    return league.club_id in mine or bool(mine & set(league.schedule or []))


def team_league_can_manage(*, league: TeamLeague, user: User) -> bool:
    return roles.can_organize(user, league.club)


def _leagues() -> QuerySet[TeamLeague]:
    return TeamLeague.objects.select_related("club")


def team_league_get(*, league_id: int, user: User) -> TeamLeague:
    league = _leagues().filter(pk=league_id).first()
    if league is None or not team_league_readable(league=league, user=user):
        raise team_league_not_found(league_id)
    return league


def team_league_get_by_slug(*, club_slug: str, league_slug: str, user: User) -> TeamLeague:
    league = _leagues().filter(club__slug=club_slug, slug=league_slug).first()
    if league is None or not team_league_readable(league=league, user=user):
        raise team_league_not_found(league_slug)
    return league


def team_league_list(*, user: User, club: Club | None = None) -> QuerySet[TeamLeague]:
    """The leagues of peñas ``user`` may see (``club``: those it runs or plays)."""
    qs = _leagues()
    if club is not None:
        qs = qs.filter(Q(club=club) | Q(clubs=club)).distinct()
    if user is not None and user.is_authenticated and user.is_superuser:
        return qs
    mine = _member_clubs(user)
    visible = TeamLeague.objects.filter(
        Q(is_public=True) | Q(club_id__in=mine) | Q(clubs__in=mine)
    ).values("pk")
    return qs.filter(pk__in=visible)


def team_league_clubs(*, league: TeamLeague) -> list[Club]:
    """The league's peñas in its schedule's order (one query)."""
    found = {c.pk: c for c in Club.objects.filter(pk__in=league.schedule or [])}
    return [found[c] for c in league.schedule if c in found]


# --- The calendar -------------------------------------------------------------------------------


@dataclass
class FixtureRow:
    fixture: TeamFixture
    #: "scheduled" (no interpeña yet), "lineups", "playing", "to_confirm" (every board
    #: confirmed, the captains not both), "confirmed", "postponed", "home_absent",
    #: "away_absent", "double_loss"
    state: str
    result: TeamResult | None
    #: the result the standings count, None while it does not count
    counted: table.LeagueResult | None


@dataclass
class JornadaRow:
    jornada: TeamJornada
    fixtures: list[FixtureRow] = field(default_factory=list)


def _counted(
    fixture: TeamFixture, result: TeamResult | None, confirmed: bool
) -> table.LeagueResult | None:
    number = fixture.jornada.number
    home, away = (fixture.home_club_id,), (fixture.away_club_id,)
    if fixture.decision == TeamFixture.Decision.HOME_ABSENT:
        return table.LeagueResult(number, home, away, table.B_WINS, walkover=True)
    if fixture.decision == TeamFixture.Decision.AWAY_ABSENT:
        return table.LeagueResult(number, home, away, table.A_WINS, walkover=True)
    if fixture.decision == TeamFixture.Decision.DOUBLE_LOSS:
        return table.LeagueResult(number, home, away, table.DOUBLE_LOSS, walkover=True)
    if not confirmed or result is None or result.winner is None:
        return None
    outcome = {HOME: table.A_WINS, AWAY: table.B_WINS, DRAW: table.DRAW}[result.winner]
    return table.LeagueResult(
        number,
        home,
        away,
        outcome,
        games_a=result.games_home,
        games_b=result.games_away,
        boards_a=result.boards_home,
        boards_b=result.boards_away,
    )


def _state(fixture: TeamFixture, result: TeamResult | None, confirmed: bool) -> str:
    if fixture.decision:
        return fixture.decision
    if confirmed:
        return "confirmed"
    interpena: Interpena | None = fixture.interpena
    if interpena is not None and result is not None and result.complete:
        return "to_confirm"
    if fixture.postponed_to is not None:
        return "postponed"
    if interpena is None:
        return "scheduled"
    return "lineups" if interpena.status == Interpena.Status.LINEUPS else "playing"


def team_league_calendar(*, league: TeamLeague) -> list[JornadaRow]:
    """Every jornada with its fixtures, their state and team result (three queries)."""
    jornadas = {
        j.pk: JornadaRow(j) for j in TeamJornada.objects.filter(league=league).order_by("number")
    }
    fixtures = list(
        TeamFixture.objects.filter(jornada__league=league)
        .select_related("home_club", "away_club", "interpena")
        .order_by("jornada__number", "number")
    )
    boards: dict[int, list] = defaultdict(list)
    interpenas = [f.interpena_id for f in fixtures if f.interpena_id is not None]
    if interpenas:
        for board in (
            InterpenaBoard.objects.filter(interpena_id__in=interpenas)
            .select_related("match")
            .order_by("interpena_id", "number")
        ):
            boards[board.interpena_id].append(board_result(board))
    for fixture in fixtures:
        row = jornadas[fixture.jornada_id]
        fixture.jornada = row.jornada
        fixture.jornada.league = league
        result, confirmed = None, False
        if fixture.interpena_id is not None:
            mine = boards.get(fixture.interpena_id, [])
            result = team_result(mine)
            interpena = fixture.interpena
            current = signature(mine)
            confirmed = (
                interpena.status == Interpena.Status.CONFIRMED
                and interpena.home_confirmed == current
                and interpena.away_confirmed == current
            )
        row.fixtures.append(
            FixtureRow(
                fixture,
                _state(fixture, result, confirmed),
                result,
                _counted(fixture, result, confirmed),
            )
        )
    return list(jornadas.values())


def team_jornada_get(*, league: TeamLeague, number: int) -> TeamJornada:
    jornada = TeamJornada.objects.filter(league=league, number=number).first()
    if jornada is None:
        raise NotFound(
            "The league has no jornada {number}.", code="jornada_not_found", number=number
        )
    jornada.league = league
    return jornada


# --- Standings ----------------------------------------------------------------------------------


@dataclass
class TeamStandingRow:
    position: int
    club: Club
    played: int
    won: int
    drawn: int
    lost: int
    walkovers_lost: int
    points: int
    boards_for: int
    boards_against: int
    games_for: int
    games_against: int
    tiebreak: str
    form: list[str]

    @property
    def boards_diff(self) -> int:
        return self.boards_for - self.boards_against

    @property
    def games_diff(self) -> int:
        return self.games_for - self.games_against


def team_league_points(league: TeamLeague) -> table.Points:
    return table.Points(
        win=league.points_win,
        draw=league.points_draw,
        loss=league.points_loss,
        walkover_loss=league.points_walkover_loss,
    )


def team_league_tiebreaks(league: TeamLeague) -> tuple[str, ...]:
    return tuple(league.tiebreaks) if league.tiebreaks else table.DEFAULT_TEAM_TIEBREAKS


def team_league_standings(
    *,
    league: TeamLeague,
    upto: int | None = None,
    calendar: list[JornadaRow] | None = None,
) -> list[TeamStandingRow]:
    """The standings (up to jornada ``upto``) from the fixtures that count."""
    if calendar is None:
        calendar = team_league_calendar(league=league)
    results = [f.counted for j in calendar for f in j.fixtures if f.counted is not None]
    clubs = {c.pk: c for c in team_league_clubs(league=league)}
    rows = table.league_table(
        list(league.schedule or []),
        results,
        points=team_league_points(league),
        tiebreaks=team_league_tiebreaks(league),
        upto=upto,
    )
    return [
        TeamStandingRow(
            position=r.position,
            club=clubs[r.competitor],
            played=r.played,
            won=r.won,
            drawn=r.drawn,
            lost=r.lost,
            walkovers_lost=r.walkovers_lost,
            points=r.points,
            boards_for=r.boards_for,
            boards_against=r.boards_against,
            games_for=r.games_for,
            games_against=r.games_against,
            tiebreak=r.tiebreak,
            form=r.form,
        )
        for r in rows
        if r.competitor in clubs
    ]
