"""Reads every competition of several peñas makes the same way, and who may see and manage one.

Responsible for: finding a competition from a URL (its kind's NotFound otherwise; a private
one does not exist outside its peñas' organizers and members and its named organizers, and
the peñas its kind adds: a championship's centres), the competitions a user may list, who
manages one (an organizer of any of its peñas, or one it names; clubs.roles decides who
organizes a peña), its tournaments, and the standings tables of finished tournaments as
seasons.competitions.places reads them (``phase_tables``).

Each function takes the kind (``CompetitionKind``: its model, the tournaments' reverse
relation to its rows, its errors), so a circuit and a championship answer the same way with
their own words.

Must not: write, or compute a tournament's standings (it reads the stored snapshots).

Cost: a visibility or manager check is one query; ``phase_tables`` two (the phases, the
snapshots), whatever the number of tournaments.

Terms: peña (club), organizador, puesto (place).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs.roles import clubs_organized_by
from config.errors import Conflict, Forbidden, Invalid, NotFound
from seasons.competitions.models import Competition
from seasons.competitions.places import PhaseTable
from tournaments.models import Phase, StandingsSnapshot, Tournament

User = AbstractBaseUser | AnonymousUser | None


class CompetitionErrors:
    """The errors of one kind of competition, each with its own literal text and code (one
    code, one text): a kind subclasses this and writes them in its own words."""

    def not_found(self, slug: str) -> NotFound:
        raise NotImplementedError

    def not_found_id(self, competition_id: int) -> NotFound:
        raise NotImplementedError

    def not_manager(self, competition: Competition) -> Forbidden:
        raise NotImplementedError

    def gone(self) -> NotFound:
        raise NotImplementedError

    def name_required(self) -> Invalid:
        raise NotImplementedError

    def name_long(self) -> Invalid:
        raise NotImplementedError

    def text_long(self, field: str) -> Invalid:
        raise NotImplementedError

    def public_flag(self) -> Invalid:
        raise NotImplementedError

    def slug_required(self) -> Invalid:
        raise NotImplementedError

    def slug_taken(self, slug: str) -> Conflict:
        raise NotImplementedError

    def user_unknown(self, username: str) -> NotFound:
        raise NotImplementedError


@dataclass(frozen=True)
class CompetitionKind:
    """One kind of competition as the shared reads and writes need it."""

    model: type[Competition]
    #: the tournaments' reverse relation to the kind's rows of its tournaments, and that row's
    #: field back to the competition ("circuit_stops", "circuit")
    stops: str
    stop_field: str
    errors: CompetitionErrors
    #: lookups from the competition to other peñas whose people see it when it is private
    #: besides its own (a championship's centres: "centres__club")
    seen_through: tuple[str, ...] = field(default=())


def competition_can_see(kind: CompetitionKind, *, user: User, competition: Competition) -> bool:
    """A public competition is for everybody; a private one for the organizers and members of
    its peñas (any role), the peñas its kind adds, and the organizers it names."""
    if competition.is_public:
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser or competition.organizers.filter(pk=user.pk).exists():
        return True
    if not kind.seen_through:
        return competition.clubs.filter(memberships__user=user).exists()
    return (
        kind.model.objects.filter(pk=competition.pk)
        .filter(_members(kind, user, ("clubs", *kind.seen_through)))
        .exists()
    )


def _members(kind: CompetitionKind, user: User, through: Iterable[str]) -> Q:
    condition = Q()
    for lookup in through:
        condition |= Q(**{f"{lookup}__memberships__user": user})
    return condition


def competition_list(kind: CompetitionKind, *, user: User) -> QuerySet:
    """The competitions ``user`` may see: the public ones, and the private ones of their
    peñas."""
    qs = kind.model.objects.order_by("-created_at", "name")
    if user is not None and user.is_authenticated and user.is_superuser:
        return qs
    if user is None or not user.is_authenticated:
        return qs.filter(is_public=True)
    through = ("clubs", *kind.seen_through)
    theirs = kind.model.objects.filter(_members(kind, user, through) | Q(organizers=user))
    return qs.filter(Q(is_public=True) | Q(pk__in=theirs.values("pk")))


def _visible(kind: CompetitionKind, competition: Competition | None, user: User):
    if competition is None or not competition_can_see(kind, user=user, competition=competition):
        return None
    return competition


def competition_get(kind: CompetitionKind, *, slug: str, user: User) -> Competition:
    """The competition from a URL; a private one does not exist for who may not see it."""
    found = _visible(kind, kind.model.objects.filter(slug=slug).first(), user)
    if found is None:
        raise kind.errors.not_found(str(slug)[:80])
    return found


def competition_get_by_id(kind: CompetitionKind, *, competition_id: int, user: User):
    found = _visible(kind, kind.model.objects.filter(pk=competition_id).first(), user)
    if found is None:
        raise kind.errors.not_found_id(competition_id)
    return found


def competition_can_manage(kind: CompetitionKind, *, user: User, competition: Competition) -> bool:
    """An organizer of any of its peñas, one it names, or a superuser manages it."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser or competition.organizers.filter(pk=user.pk).exists():
        return True
    return competition.clubs.filter(pk__in=clubs_organized_by(user).values("pk")).exists()


def competition_require_manager(
    kind: CompetitionKind, *, user: User, competition: Competition
) -> None:
    if not competition_can_manage(kind, user=user, competition=competition):
        raise kind.errors.not_manager(competition)


def competitions_managed_by(kind: CompetitionKind, *, user: User) -> QuerySet:
    if user is None or not user.is_authenticated:
        return kind.model.objects.none()
    if user.is_superuser:
        return competition_list(kind, user=user)
    clubs = clubs_organized_by(user).values("pk")
    ids = (
        kind.model.objects.filter(clubs__in=clubs)
        .values("pk")
        .union(kind.model.objects.filter(organizers=user).values("pk"))
    )
    return competition_list(kind, user=user).filter(pk__in=[row["pk"] for row in ids])


def competition_tournaments(kind: CompetitionKind, *, competition: Competition) -> list[Tournament]:
    """The competition's tournaments by date, with their peña (one query)."""
    return list(
        Tournament.objects.filter(**{f"{kind.stops}__{kind.stop_field}": competition})
        .select_related("club")
        .order_by("starts_on", "id")
    )


def phase_tables(tournament_ids: list[int]) -> dict[int, list[list[PhaseTable]]]:
    """tournament id → its phases in order, each the tables of its stored standings (one per
    group, in the groups' order), as seasons.competitions.places reads them. Two queries."""
    phases: dict[int, list[int]] = {t: [] for t in tournament_ids}
    if not tournament_ids:
        return {}
    for phase_id, tournament_id in (
        Phase.objects.filter(tournament_id__in=tournament_ids)
        .order_by("tournament_id", "order")
        .values_list("id", "tournament_id")
    ):
        phases[tournament_id].append(phase_id)
    tables: dict[int, list[PhaseTable]] = {}
    for phase_id, rows in (
        StandingsSnapshot.objects.filter(phase__tournament_id__in=tournament_ids)
        .order_by("phase_id", "group_id", "id")
        .values_list("phase_id", "rows")
    ):
        table = PhaseTable(tuple((row["rank"], row["entry_id"]) for row in rows))
        tables.setdefault(phase_id, []).append(table)
    return {t: [tables.get(p, []) for p in phases[t]] for t in tournament_ids}
