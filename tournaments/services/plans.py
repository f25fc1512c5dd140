"""Writes of a tournament's plan: importing a plan (JSON, a peña's preset or a built-in plan),
saving it as a peña's preset, and moving a pair between groups before the first round.

Responsible for: `plan_import` (the tournament's phases not yet started are replaced by the
plan's, each made by phase_create with its own checks, the whole plan checked with the pairs
registered), `plan_preset_save` / `plan_preset_delete` (a peña's saved plans),
`plan_preset_apply` (a preset or a built-in plan, by its key), `phase_group_move` (a pair to
another group of a liguilla or an a-tres-ceros in groups while its round 1 has not started:
round 1 is drawn again) and `tournament_plan_check` (the plan for the pairs that play, when
the tournament starts).

Every write draws its own transaction and locks the tournament (plan writes) or the phase,
then the round (a group move), as tournaments.services.rounds does.

Must not: decide who plays whom (tournaments.draw and draw_manager do).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from config.errors import Conflict, Invalid
from tournaments import draw_manager
from tournaments.models import Entry, Phase, PlanPreset, Round, Tournament
from tournaments.selectors.plans import (
    BUILT_IN_PLANS,
    plan_of,
    plan_phases_from_json,
    plan_problem,
)
from tournaments.selectors.tournaments import tournament_check_organizer
from tournaments.services.base import tournament_check_not_managed
from tournaments.services.rounds.common import (
    User,
    _after_commit_email,
    _after_commit_standings,
    _audit,
    _lock_phase,
    _lock_round,
)
from tournaments.services.rounds.phases import phase_create
from tournaments.services.rounds.tables import _changeable_matches


def _lock_tournament(tournament: Tournament, actor: User) -> Tournament:
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )
    tournament_check_organizer(user=actor, tournament=tournament)
    return tournament


def plan_import(
    *, tournament: Tournament, actor: User, plan: Any, managed: bool = False
) -> list[Phase]:
    """Replace the tournament's phases by the plan's (``amarrako.plan`` JSON). Refused once a
    phase has a round (Conflict ``plan_started``); a phase or rule that cannot work is refused
    naming it, and nothing changes."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament, actor)
        tournament_check_not_managed(tournament=tournament, managed=managed)
        phases = plan_phases_from_json(plan)
        if Round.objects.filter(phase__tournament=tournament).exists():
            raise Conflict(
                "{tournament} has started its first phase; its plan can no longer be replaced.",
                code="plan_started",
                tournament=tournament.name,
            )
        for old in Phase.objects.filter(tournament=tournament).order_by("-order"):
            old.delete()
        made = [
            phase_create(tournament=tournament, actor=actor, managed=managed, **options)
            for options in phases
        ]
        _audit(tournament, "plan_imported", actor, new={"phases": [p.id for p in made]})
    return made


def plan_preset_apply(
    *, tournament: Tournament, actor: User, preset_id: int | None = None, key: str | None = None
) -> list[Phase]:
    """Import a peña's preset (``preset_id``) or a built-in plan (``key``)."""
    if key is not None:
        if key not in BUILT_IN_PLANS:
            raise Invalid(
                "Unknown built-in plan '{plan}'; choose one of {plans}.",
                code="plan_builtin_unknown",
                plan=str(key)[:40],
                plans=sorted(BUILT_IN_PLANS),
            )
        return plan_import(tournament=tournament, actor=actor, plan=BUILT_IN_PLANS[key])
    preset = PlanPreset.objects.filter(pk=preset_id, club_id=tournament.club_id).first()
    if preset is None:
        raise Invalid(
            "Plan {preset} is not one of the peña's plans.",
            code="plan_preset_unknown",
            preset=preset_id,
        )
    return plan_import(tournament=tournament, actor=actor, plan=preset.plan)


def plan_preset_save(*, tournament: Tournament, actor: User, name: str) -> PlanPreset:
    """Save the tournament's plan as a preset of its peña, under ``name`` (a name already
    used is replaced: the organizer saves the plan again)."""
    name = (name or "").strip()[:80]
    if not name:
        raise Invalid("Give the plan a name, e.g. 'Liguillas y cuadro B'.", code="plan_name")
    with transaction.atomic():
        tournament = _lock_tournament(tournament, actor)
        plan = plan_of(tournament)
        if not plan["phases"]:
            raise Conflict(
                "{tournament} has no phases yet; add them before saving its plan.",
                code="plan_empty",
                tournament=tournament.name,
            )
        # a fixed list names this tournament's entries: it means nothing elsewhere
        for phase in plan["phases"]:
            phase["entrants"] = [r for r in phase["entrants"] if r.get("rule") != "fixed"]
        plan["name"] = name
        try:
            preset, _ = PlanPreset.objects.update_or_create(
                club=tournament.club, name=name, defaults={"plan": plan}
            )
        except IntegrityError:  # pragma: no cover - two saves of one name at once
            raise Conflict(
                "Plan {name} was saved at the same time by somebody else; reload the page.",
                code="plan_saved_twice",
                name=name,
            ) from None
        _audit(tournament, "plan_preset_saved", actor, new={"preset": preset.id, "name": name})
    return preset


def plan_preset_delete(*, tournament: Tournament, actor: User, preset_id: int) -> None:
    with transaction.atomic():
        tournament = _lock_tournament(tournament, actor)
        deleted, _ = PlanPreset.objects.filter(pk=preset_id, club_id=tournament.club_id).delete()
        if not deleted:
            raise Invalid(
                "Plan {preset} is not one of the peña's plans.",
                code="plan_preset_unknown",
                preset=preset_id,
            )


def tournament_plan_check(*, tournament: Tournament, playing: int) -> None:
    """Conflict ``plan_cannot_work`` naming the rule of the plan that cannot work with
    ``playing`` pairs (when the tournament starts)."""
    problem = plan_problem(tournament, playing)
    if problem is not None:
        raise Conflict(
            "The plan cannot work with {count} pairs: {reason}",
            code="plan_cannot_work",
            count=playing,
            reason=problem,
        )


def phase_group_move(*, phase: Phase, actor: User, entry_id: int, group: str) -> Phase:
    """Move a pair to another group of the phase while its round 1 has not started (drafted
    or published, no match begun): the groups change and round 1 is drawn again. A group
    keeps at least 2 pairs."""
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        tournament_check_organizer(user=actor, tournament=phase.tournament)
        if not draw_manager.has_groups(phase):
            raise Invalid(
                "{phase} plays no groups; only a liguilla or an a tres ceros in groups has "
                "pairs to move between groups.",
                code="group_move_no_groups",
                phase=phase.name,
            )
        rounds = list(Round.objects.filter(phase=phase).order_by("number"))
        if len(rounds) != 1:
            raise Conflict(
                "The groups of {phase} are drawn with its round 1 and fixed once it is played; "
                "pairs move between groups only between the draw of round 1 and its start.",
                code="group_move_not_now",
                phase=phase.name,
            )
        rnd = _lock_round(rounds[0].pk)
        _changeable_matches(rnd)
        stored = [dict(g, entry_ids=list(g["entry_ids"])) for g in phase.settings["groups"]]
        source = next((g for g in stored if entry_id in g["entry_ids"]), None)
        target = next((g for g in stored if g["name"] == group), None)
        if source is None:
            raise Invalid(
                "Pair {entry} plays in no group of {phase}.",
                code="group_move_entry_unknown",
                entry=entry_id,
                phase=phase.name,
            )
        if target is None or target is source:
            raise Invalid(
                "Choose another group of {phase} ({groups}).",
                code="group_move_group_unknown",
                phase=phase.name,
                groups=[g["name"] for g in stored if g is not source],
            )
        if len(source["entry_ids"]) <= 2:
            raise Invalid(
                "Group {group} would be left with one pair; a group keeps at least 2.",
                code="group_move_too_few",
                group=source["name"],
            )
        source["entry_ids"].remove(entry_id)
        target["entry_ids"].append(entry_id)
        phase.settings = {**phase.settings, "groups": stored}
        draw_manager.groups_redraw(phase, rnd)
        pair = Entry.objects.select_related("pair").get(pk=entry_id).pair
        _audit(
            phase.tournament,
            "group_entry_moved",
            actor,
            old={"phase": phase.id, "group": source["name"], "entry": entry_id},
            new={"phase": phase.id, "group": target["name"], "entry": entry_id, "pair": str(pair)},
        )
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
            _after_commit_standings(phase.id)
    return phase
