"""Writes of a championship's shape: the championship, its centres, its stages and quotas,
and the tournaments of each stage.

Responsible for: each write in its own transaction with the championship row locked, after
the manager check (seasons.championships.selectors: an organizer of any of its peñas, or one
it names; a centre's organizers add their own qualifier). Its name, peñas and organizers are
every competition's (seasons.competitions.services, in a championship's words).

Rules of a championship's shape:

- its stages go in this order: the qualifiers first, then any intermediate finals
  (provincial, regional), then one final, which is the last; a stage takes its place at the
  end (``stage_add``), and a stage with tournaments is not taken out;
- each stage but the final sets its quota: ``fixed`` (so many pairs per centre, a centre's
  own number first; 0–64), ``proportional`` (one pair per N pairs that played, 1–1,000, at
  least the minimum, 0–64) or ``ranking`` (a table of up to 64 numbers by the centres' ranking,
  qualifiers only); its deadline, when given, makes a tournament not finished by then late;
- a centre is a peña, added by the championship's organizers (with its rank and its own quota,
  both optional); a peña is a centre once;
- a tournament of pairs, public, joins one stage of one championship: a qualifier is a
  tournament of its centre's peña, added by the championship's organizers or the centre's;
  the tournament of an intermediate final or the final is one of the championship's peñas',
  added by the championship's organizers; a tournament of a stage that is not the final may
  say which tournament of the next stage its qualified pairs go to (``feeds``; by default the
  next stage's only one);
- the pairs a pair may change on the day (``member_changes``): 0, 1 or 2.

A change that can move who qualifies (a quota, a tournament added or its ``feeds``) queues
``championships.stage_flow`` by name for the stage's finished tournaments (services.flow).

Must not: register pairs (the flow does, through tournaments' services) or check eligibility
(services.eligibility does, at registration).

Terms: campeonato (championship), centro (centre), fase (stage), clasificatoria (qualifier),
cupo (quota), plazo (deadline).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from clubs.models import Club
from clubs.roles import can_organize
from config.errors import Conflict, Forbidden, Invalid, NotFound
from config.queue import enqueue_on_commit
from seasons.championships.models import Centre, Championship, Stage, StageTournament
from seasons.championships.quotas import QUOTA_RULES, QuotaRule
from seasons.championships.selectors import (
    CHAMPIONSHIP,
    User,
    championship_can_manage,
    championship_require_manager,
    stage_next,
)
from seasons.competitions import services as competitions
from tournaments.models import Tournament

MAX_QUOTA = 64
MAX_PER = 1000
MAX_STAGES = 10
FIELDS = ("name", "region", "season", "is_public", "member_changes")
STAGE_FIELDS = (
    "name",
    "quota_rule",
    "quota_number",
    "quota_minimum",
    "quota_table",
    "deadline",
)


# --- Checks --------------------------------------------------------------------------------


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Invalid(
            "'{field}' is a whole number from {low} to {high}.",
            code="championship_number",
            field=field,
            low=low,
            high=high,
        )
    return value


def _member_changes(value: Any) -> int:
    return _whole(value, "member_changes", 0, 2)


CHECKS = {
    **competitions.common_checks(CHAMPIONSHIP),
    "member_changes": _member_changes,
}


def _stage_name(value: Any) -> str:
    name = " ".join(str(value or "").split())
    if not name or len(name) > 120:
        raise Invalid(
            "Give the stage a name of at most 120 characters.", code="championship_stage_name"
        )
    return name


def _quota_rule(value: Any) -> str:
    if value not in QUOTA_RULES:
        raise Invalid(
            "Unknown quota '{quota}'; a stage's quota is one of {known}.",
            code="championship_quota_unknown",
            quota=str(value)[:40],
            known=list(QUOTA_RULES),
        )
    return value


def _quota_table(value: Any) -> list[int]:
    if not isinstance(value, list) or len(value) > MAX_QUOTA:
        raise Invalid(
            "The quotas by ranking are a list of up to {most} whole numbers: the pairs of the "
            "centre ranked 1st, 2nd, and so on.",
            code="championship_quota_table",
            most=MAX_QUOTA,
        )
    return [_whole(v, "quota_table", 0, MAX_QUOTA) for v in value]


def _deadline(value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise Invalid(
            "The deadline is a date (2026-05-31), not '{value}'.",
            code="championship_deadline",
            value=str(value)[:40],
        ) from None


STAGE_CHECKS = {
    "name": _stage_name,
    "quota_rule": _quota_rule,
    "quota_number": lambda v: _whole(v, "quota_number", 0, MAX_PER),
    "quota_minimum": lambda v: _whole(v, "quota_minimum", 0, MAX_QUOTA),
    "quota_table": _quota_table,
    "deadline": _deadline,
}


def stage_consistent(stage: Stage) -> None:
    """What one field alone cannot say: a proportional quota counts one pair per at least
    one, and a quota by ranking is for qualifiers (an intermediate final has no centre)."""
    if stage.quota_rule == QuotaRule.PROPORTIONAL and stage.quota_number < 1:
        raise Invalid(
            "A proportional quota is one pair per so many pairs: at least 1.",
            code="championship_quota_per",
        )
    if stage.quota_rule == QuotaRule.FIXED and stage.quota_number > MAX_QUOTA:
        raise Invalid(
            "A fixed quota is at most {most} pairs.",
            code="championship_quota_fixed",
            most=MAX_QUOTA,
        )
    if stage.quota_rule == QuotaRule.RANKING and stage.kind != Stage.Kind.QUALIFIERS:
        raise Invalid(
            "A quota by the centres' ranking is for the qualifiers, whose tournaments are "
            "the centres'; {stage} has no centre.",
            code="championship_quota_ranking_stage",
            stage=stage.name,
        )


def _lock(championship: Championship) -> Championship:
    return competitions.competition_lock(CHAMPIONSHIP, championship)


def _queue_stage_flow(stage: Stage) -> None:
    enqueue_on_commit("championships.stage_flow", stage_id=stage.pk)


# --- The championship ----------------------------------------------------------------------


def championship_create(*, actor: User, club: Club, slug: str = "", **fields: Any) -> Championship:
    """A new championship with ``club`` as its first peña (the actor organizes it)."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    return competitions.competition_create(
        CHAMPIONSHIP, actor=actor, club=club, slug=slug, fields=fields, checks=CHECKS
    )


def championship_update(
    *, actor: User, championship: Championship, data: Mapping[str, Any]
) -> Championship:
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    values = {name: CHECKS[name](value) for name, value in data.items()}
    with transaction.atomic():
        championship = _lock(championship)
        championship_require_manager(user=actor, championship=championship)
        for name, value in values.items():
            setattr(championship, name, value)
        championship.save()
    return championship


def championship_club_add(*, actor: User, championship: Championship, club_id: int) -> Club:
    """A peña joins the organizing peñas: the actor manages it and organizes the peña."""
    return competitions.competition_club_add(
        CHAMPIONSHIP, actor=actor, competition=championship, club_id=club_id
    )


def championship_organizer_add(*, actor: User, championship: Championship, username: str) -> None:
    competitions.competition_organizer_add(
        CHAMPIONSHIP, actor=actor, competition=championship, username=username
    )


# --- Centres -------------------------------------------------------------------------------


def centre_add(
    *,
    actor: User,
    championship: Championship,
    club_id: int,
    rank: int | None = None,
    quota: int | None = None,
) -> Centre:
    """A peña becomes a centre of the championship (its organizers then run its qualifier)."""
    rank = None if rank is None else _whole(rank, "rank", 1, 10000)
    quota = None if quota is None else _whole(quota, "quota", 0, MAX_QUOTA)
    with transaction.atomic():
        championship = _lock(championship)
        championship_require_manager(user=actor, championship=championship)
        club = competitions.club_for_id(club_id)
        if Centre.objects.filter(championship=championship, club=club).exists():
            raise Conflict(
                "{club} is already a centre of {championship}.",
                code="championship_centre_twice",
                club=club.name,
                championship=championship.name,
            )
        centre = Centre.objects.create(championship=championship, club=club, rank=rank, quota=quota)
        championship.save(update_fields=["updated_at"])
    return centre


def centre_update(
    *, actor: User, championship: Championship, centre_id: int, data: Mapping[str, Any]
) -> Centre:
    """Set a centre's rank and its own quota (None: none)."""
    unknown = set(data) - {"rank", "quota"}
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    values = {
        name: None
        if value is None
        else _whole(value, name, 1 if name == "rank" else 0, 10000 if name == "rank" else MAX_QUOTA)
        for name, value in data.items()
    }
    with transaction.atomic():
        championship = _lock(championship)
        championship_require_manager(user=actor, championship=championship)
        centre = _centre(championship, centre_id)
        for name, value in values.items():
            setattr(centre, name, value)
        centre.save()
        championship.save(update_fields=["updated_at"])
        for stage in Stage.objects.filter(championship=championship, kind=Stage.Kind.QUALIFIERS):
            _queue_stage_flow(stage)
    return centre


def _centre(championship: Championship, centre_id: Any) -> Centre:
    centre = (
        Centre.objects.select_related("club")
        .filter(championship=championship, pk=centre_id if isinstance(centre_id, int) else None)
        .first()
    )
    if centre is None:
        raise NotFound(
            "There is no centre {centre} in {championship}.",
            code="championship_centre_not_found",
            centre=centre_id if isinstance(centre_id, int) else str(centre_id)[:20],
            championship=championship.name,
        )
    return centre


# --- Stages --------------------------------------------------------------------------------

KIND_ORDER = {Stage.Kind.QUALIFIERS: 0, Stage.Kind.INTERMEDIATE: 1, Stage.Kind.FINAL: 2}


def stage_add(*, actor: User, championship: Championship, kind: str, **fields: Any) -> Stage:
    """A stage at the end of the championship: qualifiers first, then intermediate finals,
    then the final."""
    if kind not in KIND_ORDER:
        raise Invalid(
            "Unknown stage '{kind}'; a stage is one of {known}.",
            code="championship_stage_kind",
            kind=str(kind)[:40],
            known=list(KIND_ORDER),
        )
    unknown = set(fields) - set(STAGE_FIELDS)
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    values = {name: STAGE_CHECKS[name](value) for name, value in fields.items()}
    if "name" not in values:
        values["name"] = _stage_name("")
    with transaction.atomic():
        championship = _lock(championship)
        championship_require_manager(user=actor, championship=championship)
        stages = list(Stage.objects.filter(championship=championship).order_by("order"))
        last = stages[-1] if stages else None
        if len(stages) >= MAX_STAGES:
            raise Conflict(
                "{championship} has {most} stages, the most a championship may have.",
                code="championship_stages_most",
                championship=championship.name,
                most=MAX_STAGES,
            )
        if last is not None and last.kind == Stage.Kind.FINAL:
            raise Conflict(
                "{championship} already ends with its final ({stage}); no stage comes after "
                "the final.",
                code="championship_stage_after_final",
                championship=championship.name,
                stage=last.name,
            )
        wrong_first = last is None and kind != Stage.Kind.QUALIFIERS
        backwards = last is not None and KIND_ORDER[kind] < KIND_ORDER[Stage.Kind(last.kind)]
        twice = kind == Stage.Kind.QUALIFIERS and last is not None
        if wrong_first or backwards or twice:
            raise Conflict(
                "A championship's stages go in this order: the qualifiers, then any "
                "intermediate finals, then the final; {kind} cannot come next.",
                code="championship_stage_order",
                kind=Stage.Kind(kind).label,
            )
        stage = Stage(championship=championship, order=len(stages) + 1, kind=kind, **values)
        stage_consistent(stage)
        stage.save()
        championship.save(update_fields=["updated_at"])
    return stage


def stage_update(
    *, actor: User, championship: Championship, stage_id: int, data: Mapping[str, Any]
) -> Stage:
    """Change a stage's name, quota or deadline; the finished tournaments of the stage flow
    again (their qualified pairs change while the next stage has not started)."""
    unknown = set(data) - set(STAGE_FIELDS)
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    values = {name: STAGE_CHECKS[name](value) for name, value in data.items()}
    with transaction.atomic():
        championship = _lock(championship)
        championship_require_manager(user=actor, championship=championship)
        stage = _stage(championship, stage_id)
        for name, value in values.items():
            setattr(stage, name, value)
        stage_consistent(stage)
        stage.save()
        championship.save(update_fields=["updated_at"])
        _queue_stage_flow(stage)
    return stage


def _stage(championship: Championship, stage_id: Any) -> Stage:
    stage = (
        Stage.objects.filter(
            championship=championship, pk=stage_id if isinstance(stage_id, int) else None
        )
        .select_for_update()
        .first()
    )
    if stage is None:
        raise NotFound(
            "There is no stage {stage} in {championship}.",
            code="championship_stage_not_found",
            stage=stage_id if isinstance(stage_id, int) else str(stage_id)[:20],
            championship=championship.name,
        )
    return stage


# --- Tournaments ---------------------------------------------------------------------------


def stage_tournament_add(
    *,
    actor: User,
    championship: Championship,
    stage_id: int,
    tournament_id: int,
    centre_id: int | None = None,
    feeds_id: int | None = None,
) -> StageTournament:
    """A tournament joins a stage (see the module's rules); if it has finished already, its
    qualified pairs flow at once (after the commit)."""
    with transaction.atomic():
        championship = _lock(championship)
        stage = _stage(championship, stage_id)
        manager = championship_can_manage(user=actor, championship=championship)
        tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
        if tournament is None or not (tournament.is_public or can_organize(actor, tournament.club)):
            raise NotFound(
                "There is no tournament {tournament_id}.",
                code="championship_tournament_unknown",
                tournament_id=tournament_id,
            )
        centre = None
        if stage.kind == Stage.Kind.QUALIFIERS:
            if centre_id is None:
                centre = Centre.objects.filter(
                    championship=championship, club=tournament.club
                ).first()
            else:
                centre = _centre(championship, centre_id)
            if centre is None or centre.club_id != tournament.club_id:
                raise Invalid(
                    "{tournament} is a tournament of {club}, which is not a centre of "
                    "{championship}; a qualifier is a tournament of its centre's peña.",
                    code="championship_qualifier_centre",
                    tournament=tournament.name,
                    club=tournament.club.name,
                    championship=championship.name,
                )
            if not (manager or can_organize(actor, centre.club)):
                raise Forbidden(
                    "Only the organizers of {championship} or of the centre {club} can add its "
                    "qualifier.",
                    code="championship_not_centre_organizer",
                    championship=championship.name,
                    club=centre.club.name,
                )
        else:
            championship_require_manager(user=actor, championship=championship)
            if not championship.clubs.filter(pk=tournament.club_id).exists():
                raise Invalid(
                    "{tournament} is a tournament of {club}, which is not a peña of "
                    "{championship}; add the peña first.",
                    code="championship_tournament_club",
                    tournament=tournament.name,
                    club=tournament.club.name,
                    championship=championship.name,
                )
        if tournament.entrant_kind != Tournament.EntrantKind.PAIRS:
            raise Invalid(
                "{tournament} is not a tournament of pairs; a championship's tournaments are.",
                code="championship_tournament_pairs",
                tournament=tournament.name,
            )
        if not tournament.is_public:
            raise Invalid(
                "{tournament} is private; a championship's pages are public, so only public "
                "tournaments join it.",
                code="championship_tournament_private",
                tournament=tournament.name,
            )
        if tournament.managed_by:
            raise Invalid(
                "{tournament} is run by {label}; a championship's tournament is a tournament "
                "of its own.",
                code="championship_tournament_managed",
                tournament=tournament.name,
                label=tournament.managed_label,
            )
        other = (
            StageTournament.objects.filter(tournament=tournament)
            .select_related("championship")
            .first()
        )
        if other is not None:
            raise Conflict(
                "{tournament} is already a tournament of {championship}; a tournament is a "
                "stage of one championship.",
                code="championship_tournament_twice",
                tournament=tournament.name,
                championship=other.championship.name,
            )
        feeds = _feeds(championship, stage, feeds_id)
        stop = StageTournament.objects.create(
            championship=championship,
            stage=stage,
            tournament=tournament,
            centre=centre,
            feeds=feeds,
        )
        championship.save(update_fields=["updated_at"])
        # its own pairs, if it finished already, and the previous stage's finished tournaments'
        # pairs, which may go to it now
        if tournament.status == Tournament.Status.FINISHED:
            enqueue_on_commit("championships.tournament_changed", tournament_id=tournament.pk)
        previous = Stage.objects.filter(championship=championship, order=stage.order - 1).first()
        if (
            previous is not None
            and StageTournament.objects.filter(
                stage=previous, tournament__status=Tournament.Status.FINISHED
            ).exists()
        ):
            _queue_stage_flow(previous)
    return stop


def _feeds(championship: Championship, stage: Stage, feeds_id: Any) -> StageTournament | None:
    if feeds_id is None:
        return None
    following = stage_next(stage, Stage.objects.filter(championship=championship))
    feeds = (
        StageTournament.objects.select_related("tournament")
        .filter(championship=championship, pk=feeds_id if isinstance(feeds_id, int) else None)
        .first()
    )
    if feeds is None or following is None or feeds.stage_id != following.pk:
        raise Invalid(
            "Its qualified pairs go to a tournament of the next stage; {feeds} is not one.",
            code="championship_feeds",
            feeds=feeds_id if isinstance(feeds_id, int) else str(feeds_id)[:20],
        )
    return feeds
