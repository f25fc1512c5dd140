"""Reads of the leagues: who may see a league, its divisions, calendar, jornadas and standings.

Responsible for: finding a league by id or by its peña's and its own short name, with the
visibility rule (a public league is public; a private one exists only for the peña's members —
anybody else gets NotFound); a jornada's matches per division; the standings of a division
(whole season or up to a jornada) through seasons.leagues.table. Every list is read in a fixed
number of queries, whatever the number of pairs, matches or jornadas.

Must not: write, or compute anything table.py computes.

Terms: liga, división, jornada, aplazada (postponed), no presentada (walkover), doble derrota,
descanso, pareja, clasificación (standings).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from clubs import roles
from clubs.models import Club, Membership, Player
from config.errors import NotFound
from seasons.leagues import table
from seasons.leagues.individual import history_of
from seasons.leagues.models import Division, Jornada, League, Postponement
from tournaments.models import Entry, Match, Round

User = AbstractBaseUser | AnonymousUser | None


def _member(user: User, club: Club) -> bool:
    return roles.club_role(user, club) is not None


def league_readable(*, league: League, user: User) -> bool:
    return league.is_public or _member(user, league.club)


def league_not_found(league_id: int | str) -> NotFound:
    return NotFound(
        "There is no league {league}, or it is private to its peña.",
        code="league_not_found",
        league=str(league_id)[:80],
    )


def _leagues() -> QuerySet[League]:
    return League.objects.select_related("club")


def league_get(*, league_id: int, user: User) -> League:
    league = _leagues().filter(pk=league_id).first()
    if league is None or not league_readable(league=league, user=user):
        raise league_not_found(league_id)
    return league


def league_get_by_slug(*, club_slug: str, league_slug: str, user: User) -> League:
    league = _leagues().filter(club__slug=club_slug, slug=league_slug).first()
    if league is None or not league_readable(league=league, user=user):
        raise league_not_found(league_slug)
    return league


def league_list(*, user: User, club: Club | None = None) -> QuerySet[League]:
    """The leagues ``user`` may see (public ones, and every league of their peñas)."""
    qs = _leagues()
    if club is not None:
        qs = qs.filter(club=club)
    if user is not None and user.is_authenticated and user.is_superuser:
        return qs
    clubs = (
        Membership.objects.filter(user=user).values("club_id")
        if user is not None and user.is_authenticated
        else Membership.objects.none().values("club_id")
    )
    return qs.filter(Q(is_public=True) | Q(club_id__in=clubs))


def league_can_organize(*, league: League, user: User) -> bool:
    return roles.can_organize(user, league.club)


def divisions_of(*, league: League) -> list[Division]:
    return list(Division.objects.filter(league=league).order_by("level"))


def jornadas_of(*, league: League) -> list[Jornada]:
    return list(Jornada.objects.filter(league=league).order_by("number"))


def jornada_get(*, league: League, number: int) -> Jornada:
    jornada = Jornada.objects.filter(league=league, number=number).first()
    if jornada is None:
        raise NotFound(
            "The league has no jornada {number}.", code="jornada_not_found", number=number
        )
    jornada.league = league
    return jornada


def division_get(*, league: League, division_id: int) -> Division:
    division = Division.objects.filter(league=league, pk=division_id).first()
    if division is None:
        raise NotFound(
            "The league has no division {division}.",
            code="division_not_found",
            division=division_id,
        )
    division.league = league
    return division


# --- A jornada's matches ------------------------------------------------------------------------


@dataclass
class JornadaMatch:
    match: Match
    division: Division
    name_a: str
    name_b: str
    players_a: tuple[int, ...]
    players_b: tuple[int, ...]
    postponement: Postponement | None
    #: "pending", "confirmed", "walkover", "double_loss", "postponed", "disputed", "submitted"
    state: str


@dataclass
class DivisionJornada:
    division: Division
    round: Round | None
    matches: list[JornadaMatch] = field(default_factory=list)
    resting: list[str] = field(default_factory=list)


def _entry_name(entry: Entry | None) -> str:
    return "" if entry is None else str(entry.pair)


def _state(match: Match, post: Postponement | None) -> str:
    if match.kind == Match.Kind.DOUBLE_LOSS or (
        post is not None and post.outcome == Postponement.Outcome.DOUBLE_LOSS
    ):
        return "double_loss"
    if match.status == Match.Status.CONFIRMED:
        return "walkover" if match.kind == Match.Kind.FORFEIT else "confirmed"
    if post is not None and not post.outcome:
        return "postponed"
    return match.status


def jornada_matches(*, jornada: Jornada, organizer: bool = False) -> list[DivisionJornada]:
    """Each division's matches of the jornada (a draft only for organizers), in four queries."""
    league = jornada.league
    divisions = divisions_of(league=league)
    rounds_qs = Round.objects.filter(phase__league_division__league=league, number=jornada.number)
    if not organizer:
        rounds_qs = rounds_qs.exclude(status=Round.Status.DRAFT)
    rounds = {r.phase_id: r for r in rounds_qs}
    matches = (
        Match.objects.filter(round__in=list(rounds.values()))
        .select_related(
            "entry_a__pair__player_one",
            "entry_a__pair__player_two",
            "entry_b__pair__player_one",
            "entry_b__pair__player_two",
            "postponement",
        )
        .order_by("table_number", "id")
    )
    phase_of_round = {rnd.pk: phase_id for phase_id, rnd in rounds.items()}
    by_phase: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_phase[phase_of_round[m.round_id]].append(m)
    out = []
    for division in divisions:
        rnd = rounds.get(division.phase_id)
        item = DivisionJornada(division, rnd)
        for m in by_phase.get(division.phase_id, []):
            post = getattr(m, "postponement", None)
            a = m.entry_a.pair if m.entry_a else None
            b = m.entry_b.pair if m.entry_b else None
            item.matches.append(
                JornadaMatch(
                    match=m,
                    division=division,
                    name_a=_entry_name(m.entry_a),
                    name_b=_entry_name(m.entry_b),
                    players_a=(a.player_one_id, a.player_two_id) if a else (),
                    players_b=(b.player_one_id, b.player_two_id) if b else (),
                    postponement=post,
                    state=_state(m, post),
                )
            )
        out.append(item)
    return out


# --- Standings ----------------------------------------------------------------------------------


@dataclass
class StandingRow:
    position: int
    competitor: int
    name: str
    played: int
    won: int
    lost: int
    walkovers_lost: int
    points: int
    games_for: int
    games_against: int
    stones_for: int
    stones_against: int
    tiebreak: str
    form: list[str]
    #: "up", "down" or "" (the season's promotion and relegation places)
    zone: str = ""
    player_id: int | None = None

    @property
    def games_diff(self) -> int:
        return self.games_for - self.games_against

    @property
    def stones_diff(self) -> int:
        return self.stones_for - self.stones_against


@dataclass
class DivisionStandings:
    division: Division
    rows: list[StandingRow]
    upto: int | None


def league_points(league: League) -> table.Points:
    return table.Points(
        win=league.points_win, loss=league.points_loss, walkover_loss=league.points_walkover_loss
    )


def league_tiebreaks(league: League) -> tuple[str, ...]:
    return tuple(league.tiebreaks) if league.tiebreaks else table.DEFAULT_TIEBREAKS


_MATCH_VALUES = (
    "id",
    "round__number",
    "round__phase_id",
    "entry_a_id",
    "entry_b_id",
    "winner_id",
    "kind",
    "status",
    "games_a",
    "games_b",
    "stones_a",
    "stones_b",
    "entry_a__pair__player_one_id",
    "entry_a__pair__player_two_id",
    "entry_b__pair__player_one_id",
    "entry_b__pair__player_two_id",
    "postponement__outcome",
)


def _results(phase_ids: list[int], *, individual: bool) -> dict[int, list[table.LeagueResult]]:
    """Each phase's league results: confirmed matches of published rounds, and double losses."""
    rows = (
        Match.objects.filter(round__phase_id__in=phase_ids)
        .exclude(round__status=Round.Status.DRAFT)
        .exclude(entry_b=None)
        .values_list(*_MATCH_VALUES)
        .order_by("round__number", "id")
    )
    out: dict[int, list[table.LeagueResult]] = defaultdict(list)
    for (
        _id,
        number,
        phase_id,
        a,
        b,
        winner,
        kind,
        status,
        ga,
        gb,
        sa,
        sb,
        a1,
        a2,
        b1,
        b2,
        outcome,
    ) in rows:
        side_a, side_b = ((a1, a2), (b1, b2)) if individual else ((a,), (b,))
        # recorded in tournaments (kind double_loss) since the league calls match_double_loss;
        # a postponement decided before that holds it alone
        if kind == Match.Kind.DOUBLE_LOSS or outcome == Postponement.Outcome.DOUBLE_LOSS:
            out[phase_id].append(
                table.LeagueResult(number, side_a, side_b, table.DOUBLE_LOSS, walkover=True)
            )
            continue
        if status != Match.Status.CONFIRMED or winner is None:
            continue
        out[phase_id].append(
            table.LeagueResult(
                number,
                side_a,
                side_b,
                table.A_WINS if winner == a else table.B_WINS,
                walkover=kind == Match.Kind.FORFEIT,
                games_a=ga,
                games_b=gb,
                stones_a=sa,
                stones_b=sb,
            )
        )
    return out


def league_standings(*, league: League, upto: int | None = None) -> list[DivisionStandings]:
    """Every division's standings (up to jornada ``upto``), in a fixed number of queries."""
    divisions = divisions_of(league=league)
    individual = league.kind == League.Kind.INDIVIDUAL
    results = _results([d.phase_id for d in divisions], individual=individual)
    names: dict[int, str] = {}
    members: dict[int, list[int]] = defaultdict(list)
    if individual:
        through = Division.players.through.objects.filter(division__league=league)
        for division_id, player_id in through.values_list("division_id", "player_id"):
            members[division_id].append(player_id)
        wanted = {p for ids in members.values() for p in ids}
        wanted |= {c for rs in results.values() for r in rs for c in (*r.side_a, *r.side_b)}
        names = {p.pk: str(p) for p in Player.objects.filter(pk__in=wanted)}
    else:
        entries = Entry.objects.filter(tournament__league_division__league=league).select_related(
            "pair__player_one", "pair__player_two"
        )
        phase_of = {d.tournament_id: d.pk for d in divisions}
        for e in entries:
            names[e.pk] = str(e.pair)
            if e.status != Entry.Status.WITHDRAWN:
                members[phase_of[e.tournament_id]].append(e.pk)
    points, tiebreaks = league_points(league), league_tiebreaks(league)
    out = []
    last_level = divisions[-1].level if divisions else 0
    for division in divisions:
        rows = table.league_table(
            members[division.pk],
            results.get(division.phase_id, []),
            points=points,
            tiebreaks=tiebreaks,
            upto=upto,
        )
        n = len(rows)
        shown = []
        for row in rows:
            zone = ""
            if division.level > 1 and row.position <= division.promote:
                zone = "up"
            elif division.level < last_level and row.position > n - division.relegate:
                zone = "down"
            shown.append(
                StandingRow(
                    position=row.position,
                    competitor=row.competitor,
                    name=names.get(row.competitor, "?"),
                    played=row.played,
                    won=row.won,
                    lost=row.lost,
                    walkovers_lost=row.walkovers_lost,
                    points=row.points,
                    games_for=row.games_for,
                    games_against=row.games_against,
                    stones_for=row.stones_for,
                    stones_against=row.stones_against,
                    tiebreak=row.tiebreak,
                    form=row.form,
                    zone=zone,
                    player_id=row.competitor if individual else None,
                )
            )
        out.append(DivisionStandings(division, shown, upto))
    return out


def individual_history(*, division: Division, before: int):
    """(partners, opponents, rests) of an individual division before jornada ``before``."""
    rows = (
        Match.objects.filter(round__phase_id=division.phase_id, round__number__lt=before)
        .exclude(entry_b=None)
        .values_list(
            "entry_a__pair__player_one_id",
            "entry_a__pair__player_two_id",
            "entry_b__pair__player_one_id",
            "entry_b__pair__player_two_id",
        )
    )
    partners, opponents = history_of(((a1, a2), (b1, b2)) for a1, a2, b1, b2 in rows)
    rests: dict[int, int] = defaultdict(int)
    for number, ids in (division.resting or {}).items():
        if int(number) < before:
            for player_id in ids:
                rests[player_id] += 1
    return partners, opponents, dict(rests)


def postponements_due(*, league: League) -> QuerySet[Postponement]:
    return (
        Postponement.objects.filter(division__league=league, outcome="")
        .select_related("match__entry_a__pair", "match__entry_b__pair", "match__round", "division")
        .order_by("deadline", "id")
    )


def prefetch_divisions() -> Prefetch:
    return Prefetch("divisions", queryset=Division.objects.order_by("level"))


def jornada_has_open_rounds(*, league: League, number: int) -> bool:
    """Whether jornada ``number`` has a division's round published and not closed yet."""
    return Round.objects.filter(
        phase__league_division__league=league, number=number, status=Round.Status.PUBLISHED
    ).exists()
