"""A league's divisions, each played as a tournament of the peña.

Responsible for: ``division_create`` (the league's next division, Primera first, added before
its first jornada is drawn: a tournament of the peña that the league manages, its pairs
registered — the peña's pairs given, or made from two players' names — and started, with one
liguilla phase; an individual division names its players) and ``division_remove`` (a division
and its tournament while none of its matches has a result; the divisions below move up a level;
audited on the tournaments that stay). A pair plays in one division of a league.

Must not: draw a jornada (jornadas.py) or compute standings (table.py).

Terms: división, liguilla, pareja, Primera / Segunda.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Pair
from config.errors import Conflict, Invalid, NotFound
from seasons.leagues.models import Division, Jornada, League
from seasons.leagues.services.checks import (
    User,
    _audit_divisions,
    _ids,
    _league_players,
    _lock_league,
    tidy_text,
)
from tournaments.models import Entry, Match, Phase, ResultSubmission, Tournament
from tournaments.services import registration as registration_services
from tournaments.services import rounds as rounds_services
from tournaments.services import tournaments as tournament_services

PHASE_NAME = "Liga"


def division_create(
    *,
    league: League,
    actor: User,
    name: str,
    pair_ids: Sequence[int] = (),
    player_ids: Sequence[int] = (),
    promote: int = 0,
    relegate: int = 0,
    pair_lines: Sequence[str] = (),
) -> Division:
    """The league's next division (Primera first), played as a tournament of the peña.

    Fixed pairs: ``pair_ids`` (at least two, the peña's pairs) in the schedule's order, or
    ``pair_lines`` ("Ana García / Luis Pérez", the peña's pair of those players, made if new).
    Individual: ``player_ids``, the division's players (others may still come on a night).
    """
    name = tidy_text(name, field="name", max_length=60)
    if not name:
        raise Invalid("Give the division a name, e.g. 'Primera'.", code="division_name")
    for label, value in (("promote", promote), ("relegate", relegate)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
            raise Invalid(
                "'{field}' is how many pairs go up or down: a whole number from 0 to 20.",
                code="division_moves",
                field=label,
            )
    with transaction.atomic():
        league = _lock_league(league, actor)
        if Jornada.objects.filter(league=league).exclude(status=Jornada.Status.PLANNED).exists():
            raise Conflict(
                "The league has started; divisions are added before its first jornada is drawn.",
                code="league_started",
            )
        if pair_lines:
            pair_ids = [
                club_services.pair_get_or_create_from_names(club=league.club, text=line).pk
                for line in pair_lines
            ]
        pairs = _league_pairs(league, pair_ids) if league.kind == League.Kind.PAIRS else []
        players = (
            _league_players(league, player_ids) if league.kind == League.Kind.INDIVIDUAL else []
        )
        first = Jornada.objects.filter(league=league).order_by("number").first()
        tournament = tournament_services.tournament_create(
            club_slug=league.club.slug,
            actor=actor,
            name=f"{league.name} {league.season} · {name}"[:160],
            starts_on=first.date if first else timezone.localdate(),
            is_public=league.is_public,
            preset=league.preset_name or None,
            managed_by=Tournament.ManagedBy.LEAGUE,
            managed_label=f"{league.name} {league.season} · {name}",
            managed_url=reverse("leagues:organizer-league", kwargs={"league_id": league.pk}),
        )
        tournament = tournament_services.tournament_status_change(
            tournament=tournament,
            actor=actor,
            status=Tournament.Status.REGISTRATION,
            managed=True,
        )
        entries = [
            registration_services.entry_register(tournament=tournament, pair_id=p.pk, actor=actor)
            for p in pairs
        ]
        if pairs:
            tournament = tournament_services.tournament_status_change(
                tournament=tournament,
                actor=actor,
                status=Tournament.Status.RUNNING,
                managed=True,
            )
        phase = rounds_services.phase_create(
            tournament=tournament,
            actor=actor,
            name=PHASE_NAME,
            format=Phase.Format.ROUND_ROBIN,
            group_size=max(2, len(entries)),
            managed=True,
        )
        level = (
            Division.objects.filter(league=league)
            .order_by("-level")
            .values_list("level", flat=True)
            .first()
            or 0
        ) + 1
        division = Division.objects.create(
            league=league,
            name=name,
            level=level,
            promote=promote,
            relegate=relegate,
            tournament=tournament,
            phase=phase,
            schedule=[e.pk for e in entries],
        )
        if players:
            division.players.set(players)
    return division


def division_remove(*, league: League, actor: User, division_id: int, via: str = "api") -> None:
    """Remove a division and its tournament while none of its matches has a result (none
    entered, confirmed, forfeited or decided: Conflict ``division_has_results`` otherwise, and
    it stays). The divisions below move up a level; the removal is audited on the tournaments
    of the divisions that stay (``league_division_removed``)."""
    with transaction.atomic():
        league = _lock_league(league, actor)
        division = (
            Division.objects.select_for_update().filter(league=league, pk=division_id).first()
        )
        if division is None:
            raise NotFound(
                "The league has no division {division}.",
                code="division_not_found",
                division=str(division_id)[:20],
            )
        # its matches locked (only their rows, in id order, as the result services lock one):
        # a result on its way waits for the removal, then finds no match
        statuses = list(
            Match.objects.select_for_update(of=("self",))
            .filter(round__phase_id=division.phase_id)
            .order_by("pk")
            .values_list("status", flat=True)
        )
        decided = any(status != Match.Status.PENDING for status in statuses)
        entered = ResultSubmission.objects.filter(match__round__phase_id=division.phase_id)
        if decided or entered.exists():
            raise Conflict(
                "The division {division} has results already; a division is removed only "
                "while none of its matches has one.",
                code="division_has_results",
                division=division.name,
            )
        tournament = Tournament.objects.select_for_update().get(pk=division.tournament_id)
        level, name = division.level, division.name
        division.delete()
        Match.objects.filter(round__phase__tournament=tournament).delete()
        for phase in Phase.objects.filter(tournament=tournament).order_by("-order"):
            phase.delete()
        tournament.delete()
        for below in Division.objects.filter(league=league, level__gt=level).order_by("level"):
            below.level -= 1
            below.save(update_fields=["level"])
        _audit_divisions(
            league,
            action="league_division_removed",
            actor=actor,
            via=via,
            old={"division": name, "level": level},
        )


def _league_pairs(league: League, pair_ids: Sequence[int]) -> list[Pair]:
    ids = _ids(pair_ids, field="pair_ids")
    if len(ids) < 2:
        raise Invalid(
            "A division of fixed pairs needs at least 2 pairs; it has {count}.",
            code="division_too_few_pairs",
            count=len(ids),
        )
    found = {p.pk: p for p in Pair.objects.filter(pk__in=ids, club=league.club)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            "The peña has no pair {pairs}; create the pairs first.",
            code="division_pair_unknown",
            pairs=missing,
        )
    taken = list(
        Entry.objects.filter(tournament__league_division__league=league, pair_id__in=ids)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("pair_id", flat=True)
    )
    if taken:
        raise Conflict(
            "Pair {pairs} already plays in another division of this league.",
            code="division_pair_taken",
            pairs=taken,
        )
    return [found[i] for i in ids]
