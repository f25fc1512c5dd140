"""Reads of championships, and who may see, manage and run them.

Responsible for: finding a championship from a URL (a private one exists only for the
organizers and members of its peñas and centres and its named organizers:
seasons.competitions.selectors, in a championship's words, ``CHAMPIONSHIP``), who manages it
(an organizer of any of its peñas, or one it names) and who runs a centre's qualifier (its
peña's organizers); its stages, centres and tournaments with their progress
(``championship_board``: every tournament's status, pairs, rounds and partidas played, its
quota, its qualified pairs and whether it is late), a centre's part of it, the final's bracket,
and what the eligibility rules read (``eligibility_inputs``).

Must not: write, compute standings (it reads the stored snapshots and the flow's rows), or
decide a rule (the pure cores and the services do).

``eligibility_conflicts`` lists the registrations the rules would refuse now (after two
players were merged into one person, the desk shows what the merge brought to light).

Cost: the board is seven queries whatever the number of centres, tournaments and pairs; the
eligibility's inputs four (the championship's tournaments, the players' entries, their
substitutions, the qualified pairs).

Terms: campeonato (championship), centro (centre), fase (stage), clasificatoria (qualifier),
cupo (quota), clasificado (qualified), con retraso (late).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from clubs.models import Player
from clubs.roles import can_organize
from config.errors import Conflict, Forbidden, Invalid, NotFound
from seasons.championships import eligibility
from seasons.championships.models import (
    Centre,
    Championship,
    Qualification,
    Stage,
    StageTournament,
)
from seasons.competitions import selectors as competitions
from seasons.competitions.selectors import CompetitionErrors, CompetitionKind, User
from tournaments.models import Entry, Match, Phase, Round, Substitution, Tournament
from tournaments.selectors.rounds import ELIMINATION_FORMATS, bracket_for_phase
from tournaments.selectors.tournaments import ACTIVE_ENTRY_STATUSES


class ChampionshipErrors(CompetitionErrors):
    """A championship's words for what every competition may refuse."""

    def not_found(self, slug: str) -> NotFound:
        return NotFound(
            "There is no championship '{slug}'.", code="championship_not_found", slug=slug
        )

    def not_found_id(self, competition_id: int) -> NotFound:
        return NotFound(
            "There is no championship {championship_id}.",
            code="championship_id_not_found",
            championship_id=competition_id,
        )

    def not_manager(self, competition) -> Forbidden:
        return Forbidden(
            "Only the organizers of the championship {championship} can change it.",
            code="not_championship_organizer",
            championship=competition.name,
        )

    def gone(self) -> NotFound:
        return NotFound("This championship no longer exists.", code="championship_gone")

    def name_required(self) -> Invalid:
        return Invalid("Give the championship a name.", code="championship_name_required")

    def name_long(self) -> Invalid:
        return Invalid(
            "The championship's name is too long: at most 160 characters.",
            code="championship_name_long",
        )

    def text_long(self, field: str) -> Invalid:
        return Invalid(
            "'{field}' is too long: at most 120 characters.",
            code="championship_text_long",
            field=field,
        )

    def public_flag(self) -> Invalid:
        return Invalid(
            "Whether the championship is public is true or false.",
            code="championship_public_flag",
        )

    def slug_required(self) -> Invalid:
        return Invalid(
            "Give the championship a short name of letters and digits.",
            code="championship_slug_required",
        )

    def slug_taken(self, slug: str) -> Conflict:
        return Conflict(
            "There is already a championship '{slug}'; choose another short name.",
            code="championship_slug_taken",
            slug=slug,
        )

    def user_unknown(self, username: str) -> NotFound:
        return NotFound(
            "There is no user '{username}'.", code="championship_user_unknown", username=username
        )


#: a championship as the shared reads and writes of competitions see it; the organizers and
#: members of its centres see a private one too
CHAMPIONSHIP = CompetitionKind(
    model=Championship,
    stops="championship_stops",
    stop_field="championship",
    errors=ChampionshipErrors(),
    seen_through=("centres__club",),
)


def championship_list(*, user: User) -> QuerySet[Championship]:
    """The championships ``user`` may see: the public ones, and the private ones of their
    peñas and centres."""
    return competitions.competition_list(CHAMPIONSHIP, user=user)


def championship_get(*, slug: str, user: User) -> Championship:
    """The championship from a URL; a private one does not exist for who may not see it."""
    return competitions.competition_get(CHAMPIONSHIP, slug=slug, user=user)


def championship_get_by_id(*, championship_id: int, user: User) -> Championship:
    return competitions.competition_get_by_id(
        CHAMPIONSHIP, competition_id=championship_id, user=user
    )


def championship_can_manage(*, user: User, championship: Championship) -> bool:
    return competitions.competition_can_manage(CHAMPIONSHIP, user=user, competition=championship)


def championship_require_manager(*, user: User, championship: Championship) -> None:
    competitions.competition_require_manager(CHAMPIONSHIP, user=user, competition=championship)


def championships_managed_by(*, user: User) -> QuerySet[Championship]:
    return competitions.competitions_managed_by(CHAMPIONSHIP, user=user)


def championship_tournaments(*, championship: Championship) -> list[Tournament]:
    """The championship's tournaments by date, with their peña (one query)."""
    return competitions.competition_tournaments(CHAMPIONSHIP, competition=championship)


def centre_get(*, championship: Championship, club_slug: str) -> Centre:
    """A centre of the championship by its peña's short name."""
    centre = (
        Centre.objects.select_related("club")
        .filter(championship=championship, club__slug=str(club_slug)[:80])
        .first()
    )
    if centre is None:
        raise NotFound(
            "{club} is not a centre of {championship}.",
            code="championship_centre_unknown",
            club=str(club_slug)[:80],
            championship=championship.name,
        )
    return centre


def centre_can_run(*, user: User, centre: Centre) -> bool:
    """A centre's organizers run its qualifiers (its peña's organizers)."""
    return can_organize(user, centre.club)


def centres_run_by(*, user: User, championship: Championship) -> list[Centre]:
    """The centres of the championship whose peña ``user`` organizes (one query)."""
    if user is None or not user.is_authenticated:
        return []
    centres = Centre.objects.filter(championship=championship).select_related("club")
    if not user.is_superuser:
        centres = centres.filter(
            club__memberships__user=user, club__memberships__role__in=("owner", "organizer")
        )
    return list(centres.order_by("club__name"))


def stages_of(*, championship: Championship) -> list[Stage]:
    return list(Stage.objects.filter(championship=championship).order_by("order"))


def stage_next(stage: Stage, stages: Iterable[Stage]) -> Stage | None:
    later = [s for s in stages if s.order > stage.order]
    return min(later, key=lambda s: s.order) if later else None


# --- The board: every tournament's progress ----------------------------------------------------


@dataclass
class StopView:
    """A tournament of the championship as its pages and API show it."""

    stop: StageTournament
    entries: int = 0
    rounds_closed: int = 0
    rounds: int = 0
    matches_confirmed: int = 0
    matches: int = 0
    late: bool = False
    qualified: list[Qualification] = field(default_factory=list)
    #: the pairs that came from the previous stage, by the tournament they came from
    incoming: list[Qualification] = field(default_factory=list)

    @property
    def tournament(self) -> Tournament:
        return self.stop.tournament

    @property
    def finished(self) -> bool:
        return self.stop.tournament.status == Tournament.Status.FINISHED


@dataclass
class StageView:
    stage: Stage
    stops: list[StopView]

    @property
    def late(self) -> list[StopView]:
        return [s for s in self.stops if s.late]


@dataclass
class Board:
    championship: Championship
    centres: list[Centre]
    stages: list[StageView]

    @property
    def stops(self) -> list[StopView]:
        return [s for stage in self.stages for s in stage.stops]

    @property
    def late(self) -> list[StopView]:
        return [s for s in self.stops if s.late]

    def stage(self, kind: str) -> StageView | None:
        return next((s for s in self.stages if s.stage.kind == kind), None)


def championship_board(
    *, championship: Championship, today: dt.date, centre: Centre | None = None
) -> Board:
    """The championship's stages, centres and tournaments with their progress (seven queries
    whatever its size; a centre's board, its tournaments only). ``today``: a tournament of a
    stage whose deadline has passed and that has not finished is late."""
    centres = list(
        Centre.objects.filter(championship=championship)
        .select_related("club")
        .order_by("club__name", "id")
    )
    stages = stages_of(championship=championship)
    stops = StageTournament.objects.filter(championship=championship).select_related(
        "tournament__club", "centre__club", "stage", "feeds__tournament"
    )
    if centre is not None:
        stops = stops.filter(Q(centre=centre) | Q(incoming__centre=centre)).distinct()
    stops = list(stops.order_by("stage__order", "tournament__starts_on", "tournament_id"))
    ids = [s.tournament_id for s in stops]
    entries = dict(
        Entry.objects.filter(tournament_id__in=ids, status__in=ACTIVE_ENTRY_STATUSES)
        .values("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    rounds: dict[int, tuple[int, int]] = {}
    for row in (
        Round.objects.filter(phase__tournament_id__in=ids)
        .values("phase__tournament_id")
        .annotate(n=Count("id"), closed=Count("id", filter=Q(status=Round.Status.CLOSED)))
    ):
        rounds[row["phase__tournament_id"]] = (row["closed"], row["n"])
    matches: dict[int, tuple[int, int]] = {}
    for row in (
        Match.objects.filter(round__phase__tournament_id__in=ids)
        .exclude(kind=Match.Kind.BYE)
        .values("round__phase__tournament_id")
        .annotate(n=Count("id"), done=Count("id", filter=Q(status=Match.Status.CONFIRMED)))
    ):
        matches[row["round__phase__tournament_id"]] = (row["done"], row["n"])
    qualifications = list(
        Qualification.objects.filter(stop__championship=championship)
        .select_related(
            "pair__player_one",
            "pair__player_two",
            "centre__club",
            "stop__tournament__club",
            "target__tournament",
        )
        .order_by("stop_id", "position")
    )
    views = []
    for stop in stops:
        closed, total_rounds = rounds.get(stop.tournament_id, (0, 0))
        done, total = matches.get(stop.tournament_id, (0, 0))
        deadline = stop.stage.deadline
        views.append(
            StopView(
                stop=stop,
                entries=entries.get(stop.tournament_id, 0),
                rounds_closed=closed,
                rounds=total_rounds,
                matches_confirmed=done,
                matches=total,
                late=(
                    deadline is not None
                    and deadline < today
                    and stop.tournament.status != Tournament.Status.FINISHED
                ),
                qualified=[q for q in qualifications if q.stop_id == stop.pk],
                incoming=[q for q in qualifications if q.target_id == stop.pk],
            )
        )
    return Board(
        championship=championship,
        centres=centres,
        stages=[
            StageView(stage=stage, stops=[v for v in views if v.stop.stage_id == stage.pk])
            for stage in stages
        ],
    )


def final_bracket(*, board: Board) -> dict | None:
    """The bracket of the final's last elimination phase, filled in as far as its public
    results go (tournaments.selectors.rounds.bracket_for_phase), with its tournament; None
    before it is drawn. Three queries."""
    final = board.stage(Stage.Kind.FINAL)
    if final is None or not final.stops:
        return None
    tournament = final.stops[0].tournament
    phase = (
        Phase.objects.filter(tournament=tournament, format__in=ELIMINATION_FORMATS)
        .exclude(bracket=None)
        .select_related("tournament__club")
        .order_by("-order")
        .first()
    )
    if phase is None:
        return None
    data = bracket_for_phase(phase=phase, user=None)
    data["tournament"] = tournament
    data["phase_name"] = phase.name
    return data


def final_bracket_required(*, board: Board) -> dict:
    """``final_bracket``, or NotFound before the final's bracket is drawn."""
    bracket = final_bracket(board=board)
    if bracket is None:
        raise NotFound(
            "The final of {championship} has no bracket yet: it is drawn once its pairs are in.",
            code="championship_bracket_none",
            championship=board.championship.name,
        )
    return bracket


# --- What the eligibility rules read -----------------------------------------------------------


@dataclass(frozen=True)
class EligibilityInputs:
    championship: Championship
    stop: StageTournament
    stops: dict[int, eligibility.Stop]
    registrations: list[eligibility.Registration]
    #: entry id → the centre it represents, for the entries read
    entry_centres: dict[int, int | None]
    #: club id → the championship's centre of that peña
    club_centres: dict[int, int]
    #: the pairs qualified into ``stop``: (their two players, the centre they represent)
    incoming: list[tuple[frozenset[int], int | None]]
    names: dict[int, str]  # stop id → its tournament's name
    pair_names: dict[int, str]  # entry id → its pair's name
    centre_names: dict[int, str]  # centre id → its peña's name

    def centre_for(
        self, *, players: Iterable[int], club_id: int | None, entry_id: int | None
    ) -> int | None:
        """The centre a registration in ``stop`` represents: the stop's own (a qualifier's);
        an entry's (a substitute's, a member change's); the qualification that brings these
        players; else the centre of the pair's peña, if it is one."""
        if self.stop.centre_id is not None:
            return self.stop.centre_id
        if entry_id is not None and entry_id in self.entry_centres:
            return self.entry_centres[entry_id]
        wanted = frozenset(players)
        for pair, centre in self.incoming:
            if wanted and (wanted <= pair or pair <= wanted):
                return centre
        return self.club_centres.get(club_id) if club_id is not None else None


def eligibility_stop(*, tournament_id: int) -> StageTournament | None:
    """The championship's row of this tournament, if it is a stage of one (one query)."""
    return (
        StageTournament.objects.filter(tournament_id=tournament_id)
        .select_related("championship", "stage", "centre")
        .first()
    )


def eligibility_inputs(
    *, stop: StageTournament, players: Iterable[int] | None, entry_ids: Iterable[int] = ()
) -> EligibilityInputs:
    """Every registration of ``players`` (None: of everybody) in the championship of ``stop``
    (as a pair's player or a substitute) and what the rules need to judge them; ``entry_ids``:
    entries of this tournament whose centre is wanted (a substitute's, a member change's).
    Five queries."""
    everybody = players is None
    players = [] if everybody else sorted({p for p in players if p is not None})
    championship = stop.championship
    rows = list(
        StageTournament.objects.filter(championship=championship).select_related(
            "tournament", "stage"
        )
    )
    final_order = max((r.stage.order for r in rows if r.stage.kind == Stage.Kind.FINAL), default=0)
    stops = {
        r.pk: eligibility.Stop(
            id=r.pk,
            finished=r.tournament.status == Tournament.Status.FINISHED,
            qualifies=r.stage.kind != Stage.Kind.FINAL and r.stage.order != final_order,
            centre=r.centre_id,
        )
        for r in rows
    }
    by_tournament = {r.tournament_id: r.pk for r in rows}
    entries = (
        Entry.objects.filter(tournament_id__in=list(by_tournament), drawn=False)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("pair__player_one", "pair__player_two")
    )
    substitutions = Substitution.objects.filter(
        match__round__phase__tournament_id__in=list(by_tournament)
    )
    if not everybody:
        entries = entries.filter(
            Q(pair__player_one__in=players)
            | Q(pair__player_two__in=players)
            | Q(player_three__in=players)
            | Q(pk__in=list(entry_ids))
        )
        substitutions = substitutions.filter(substitute__in=players)
    entries = list(entries)
    substitutions = list(
        substitutions.values_list(
            "substitute_id", "entry_id", "entry__tournament_id", "entry__pair__club_id"
        )
    )
    if everybody:
        players = sorted(
            {p for e in entries for p in (e.pair.player_one_id, e.pair.player_two_id)}
            | {e.player_three_id for e in entries if e.player_three_id}
            | {row[0] for row in substitutions}
        )
    qualifications = list(
        Qualification.objects.filter(stop__championship=championship).values_list(
            "stop_id",
            "entry_id",
            "target_id",
            "target_entry_id",
            "centre_id",
            "pair__player_one_id",
            "pair__player_two_id",
        )
    )
    club_centres, centre_names = {}, {}
    for pk, club_id, name in Centre.objects.filter(championship=championship).values_list(
        "pk", "club_id", "club__name"
    ):
        club_centres[club_id] = pk
        centre_names[pk] = name
    qualified = {(q[0], q[1]) for q in qualifications}
    came_with = {q[3]: q[4] for q in qualifications if q[3] is not None}
    pair_clubs = {e.pk: e.pair.club_id for e in entries}
    for _, entry_id, _, club_id in substitutions:
        pair_clubs.setdefault(entry_id, club_id)

    def centre_of(stop_id: int, entry_id: int) -> int | None:
        own = stops[stop_id].centre
        if own is not None:
            return own
        if entry_id in came_with:
            return came_with[entry_id]
        return club_centres.get(pair_clubs.get(entry_id))

    registrations = []
    entry_centres: dict[int, int | None] = {}
    for e in entries:
        where = by_tournament[e.tournament_id]
        entry_centres[e.pk] = centre_of(where, e.pk)
        for player in (e.pair.player_one_id, e.pair.player_two_id, e.player_three_id):
            if player in players:
                registrations.append(
                    eligibility.Registration(
                        player=player,
                        stop=where,
                        entry=e.pk,
                        centre=entry_centres[e.pk],
                        qualified=(where, e.pk) in qualified,
                    )
                )
    for substitute, entry_id, tournament_id, _ in substitutions:
        where = by_tournament[tournament_id]
        registrations.append(
            eligibility.Registration(
                player=substitute,
                stop=where,
                entry=entry_id,
                centre=centre_of(where, entry_id),
                substitute=True,
            )
        )
    return EligibilityInputs(
        championship=championship,
        stop=stop,
        stops=stops,
        registrations=registrations,
        entry_centres=entry_centres,
        club_centres=club_centres,
        incoming=[(frozenset((q[5], q[6])), q[4]) for q in qualifications if q[2] == stop.pk],
        names={r.pk: r.tournament.name for r in rows},
        pair_names={e.pk: str(e.pair) for e in entries},
        centre_names=centre_names,
    )


@dataclass(frozen=True)
class EligibilityConflict:
    """A registration that breaks a rule as things stand now (two players merged into one
    person, a correction after the fact): the player, the rule, and the two registrations."""

    player: str
    player_id: int
    rule: str
    tournament: str
    pair: str
    other_tournament: str
    other_pair: str


def eligibility_conflicts(
    *, championship: Championship, players: Iterable[int] | None = None
) -> list[EligibilityConflict]:
    """Every registration in the championship's tournaments (of ``players``, or of everybody)
    that its rules would refuse now, each pair of registrations once. Seven queries."""
    first = (
        StageTournament.objects.filter(championship=championship)
        .select_related("championship", "stage", "centre")
        .first()
    )
    if first is None:
        return []
    inputs = eligibility_inputs(stop=first, players=players)
    mine: dict[int, list[eligibility.Registration]] = {}
    for r in inputs.registrations:
        mine.setdefault(r.player, []).append(r)
    found: dict[tuple, tuple[eligibility.Registration, eligibility.Refusal]] = {}
    for player, registrations in mine.items():
        for here in registrations:
            others = [r for r in registrations if r is not here]
            refused = eligibility.refusal(
                players=[player],
                stop=here.stop,
                centre=here.centre,
                stops=inputs.stops,
                registrations=others,
            )
            if refused is None or refused.other is None:
                continue
            both = frozenset(((here.stop, here.entry), (refused.other.stop, refused.other.entry)))
            found.setdefault((player, refused.rule, both), (here, refused))
    if not found:
        return []
    names = {
        p.pk: str(p)
        for p in Player.objects.filter(pk__in={key[0] for key in found}).only(
            "pk", "first_name", "last_name"
        )
    }
    return [
        EligibilityConflict(
            player=names.get(here.player, str(here.player)),
            player_id=here.player,
            rule=refused.rule.value,
            tournament=inputs.names.get(here.stop, ""),
            pair=inputs.pair_names.get(here.entry, ""),
            other_tournament=inputs.names.get(refused.other.stop, ""),
            other_pair=inputs.pair_names.get(refused.other.entry, ""),
        )
        for here, refused in found.values()
    ]


def championships_of_player(*, player_id: int) -> list[Championship]:
    """The championships in whose tournaments the player is registered, in a pair or as a
    substitute (one query)."""
    return list(
        Championship.objects.filter(
            Q(stops__tournament__entries__pair__player_one=player_id)
            | Q(stops__tournament__entries__pair__player_two=player_id)
            | Q(stops__tournament__entries__player_three=player_id)
            | Q(stops__tournament__entries__substitutions__substitute=player_id)
        ).distinct()
    )
