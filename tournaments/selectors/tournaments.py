"""Reads of tournaments: who may see which, the presets a peña can start from, the rule lock.

Responsible for: the visibility rule (a published tournament — public and past draft — is seen
by everybody; anything else only by the organizers of its peña, and to everybody else it does
not exist: NotFound, never Forbidden, so a private tournament's existence does not leak), the
tournament list and detail, resolving a preset by name, and telling whether the rule set is
locked because a partida has started.

Must not: write, or decide who may write (clubs.roles does; services call it).

Terms: peña (club), preset (a named rule set such as "8 reyes a 40"), partida (a Match).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from clubs.models import Club, RuleSetPreset
from clubs.roles import can_organize, clubs_organized_by, require_organizer
from config.errors import Invalid, NotFound
from tournaments.models import (
    Entry,
    HandEntry,
    IndividualEntry,
    Match,
    ResultSubmission,
    Tournament,
)

User = AbstractBaseUser | AnonymousUser | None

#: Entries that hold a place (count against max_pairs and play).
ACTIVE_ENTRY_STATUSES = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)


def tournament_is_published(tournament: Tournament) -> bool:
    return tournament.is_public and tournament.status != Tournament.Status.DRAFT


def _published() -> Q:
    return Q(is_public=True) & ~Q(status=Tournament.Status.DRAFT)


def tournament_list(
    *,
    user: User,
    club_slug: str | None = None,
    status: str | None = None,
    with_managed: bool = False,
) -> QuerySet[Tournament]:
    """Published tournaments, plus every tournament of the peñas ``user`` organizes.

    A tournament a league or an interpeña runs (``managed_by``) is left out: the league's or
    the interpeña's own pages list it; ``with_managed`` keeps it (to find one by its slug).
    """
    visible = _published()
    if user is not None and user.is_authenticated:
        visible |= Q(club__in=clubs_organized_by(user))
    qs = Tournament.objects.filter(visible).select_related("club")
    if not with_managed:
        qs = qs.filter(managed_by="")
    if club_slug:
        qs = qs.filter(club__slug=club_slug)
    if status:
        qs = qs.filter(status=status)
    return _with_counts(qs).order_by("-starts_on", "name", "id")


def _with_counts(qs: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Annotate ``registered_count``, ``waiting_count`` and ``rules_locked`` in the same query."""
    started = _started_matches().filter(round__phase__tournament=OuterRef("pk"))
    locked = Q(status=Tournament.Status.FINISHED) | Exists(started)
    # Players alone (IndividualEntry) count as registered too; a subquery, so that the join of
    # the entries is not multiplied. The partnerships an individual draw made are not entries.
    alone = (
        IndividualEntry.objects.filter(tournament=OuterRef("pk"), status__in=ACTIVE_ENTRY_STATUSES)
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    active = Q(entries__status__in=ACTIVE_ENTRY_STATUSES, entries__drawn=False)
    return qs.annotate(
        registered_count=Count("entries", filter=active)
        + Coalesce(Subquery(alone, output_field=IntegerField()), 0),
        waiting_count=Count("entries", filter=Q(entries__status=Entry.Status.WAITING)),
        rules_locked=ExpressionWrapper(locked, output_field=BooleanField()),
    )


def tournament_detail(*, user: User, tournament_id: int) -> Tournament:
    """tournament_get with ``registered_count``, ``waiting_count`` and ``rules_locked``."""
    qs = _with_counts(Tournament.objects.select_related("club").filter(pk=tournament_id))
    return _visible_or_not_found(user, qs.first(), tournament_id)


def tournament_get(*, user: User, tournament_id: int) -> Tournament:
    """The tournament if ``user`` may see it; NotFound otherwise (same answer as missing)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    return _visible_or_not_found(user, tournament, tournament_id)


def _visible_or_not_found(
    user: User, tournament: Tournament | None, tournament_id: int
) -> Tournament:
    if tournament is None or not (
        tournament_is_published(tournament) or can_organize(user, tournament.club)
    ):
        raise tournament_not_found(tournament_id)
    return tournament


def tournament_get_for_organizer(*, user: User, tournament_id: int) -> Tournament:
    """The tournament if ``user`` organizes its peña (for a write, before reading its input).

    NotFound if it does not exist or the user may not see it; Forbidden if the user sees it
    (it is published) but organizes another peña.
    """
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise tournament_not_found(tournament_id)
    tournament_check_organizer(user=user, tournament=tournament)
    return tournament


def tournament_check_organizer(*, user: User, tournament: Tournament) -> None:
    """Raise unless ``user`` organizes the tournament's peña: NotFound for a tournament the
    user cannot see (private or draft), Forbidden for a published one."""
    if can_organize(user, tournament.club):
        return
    if not tournament_is_published(tournament):
        raise tournament_not_found(tournament.pk)
    require_organizer(user, tournament.club)


def tournament_not_found(tournament_id: int) -> NotFound:
    return NotFound(
        "There is no tournament {tournament}, or it is not published and you do not "
        "organize its peña. Check the link, or sign in as one of its organizers.",
        code="tournament_not_found",
        tournament=tournament_id,
    )


def preset_for_club(*, club: Club, name: str) -> RuleSetPreset:
    """The peña's own preset called ``name``, else the built-in one; Invalid if neither.

    The peña's own wins: a peña that saved its own "8 reyes a 40" means its version.
    """
    presets = {
        p.club_id: p for p in RuleSetPreset.objects.filter(Q(club=club) | Q(club=None), name=name)
    }
    preset = presets.get(club.pk) or presets.get(None)
    if preset is None:
        names = sorted(
            RuleSetPreset.objects.filter(Q(club=club) | Q(club=None)).values_list("name", flat=True)
        )
        raise Invalid(
            "There is no preset called '{preset}' for {club}; choose one of: {choices}.",
            code="preset_unknown",
            preset=str(name)[:40],
            club=club.name,
            choices=names,
        )
    return preset


def preset_default_for_club(*, club: Club) -> RuleSetPreset | None:
    """What a tournament starts from when no rules are given: the peña's default preset,
    else the built-in "8 reyes a 40" (the most common tournament format)."""
    if club.default_preset_id is not None:
        return club.default_preset
    return RuleSetPreset.objects.filter(club=None, name="8 reyes a 40").first()


def tournament_first_started_match(*, tournament: Tournament) -> Match | None:
    """The first partida that has started, which locks the rule set; None while none has.

    Started: a start time, a status past pending, a submitted result or a hand recorded. A bye
    is not a partida anybody played, so a bye confirmed when drawn does not lock the rules.
    """
    return (
        _started_matches()
        .filter(round__phase__tournament=tournament)
        .select_related("round__phase")
        .order_by(F("started_at").asc(nulls_last=True), "id")
        .first()
    )


def _started_matches() -> QuerySet[Match]:
    submitted = ResultSubmission.objects.filter(match=OuterRef("pk"))
    hands = HandEntry.objects.filter(match=OuterRef("pk"))
    return Match.objects.exclude(kind=Match.Kind.BYE).filter(
        Q(started_at__isnull=False)
        | ~Q(status=Match.Status.PENDING)
        | Exists(submitted)
        | Exists(hands)
    )
