"""Reads of a tournament's plan: its phases and how entrants flow between them, as data.

Responsible for: the plan of a tournament as the plain JSON that is exported, imported and
saved as a peña's preset (`plan_of`, format ``amarrako.plan`` version 1), reading such a JSON
back into phase options (`plan_phases_from_json`, DrawError or Invalid naming what is wrong),
the tournament's phases as tournaments.draw.plan specs (`plan_specs`) for checking the plan as
a whole (`plan_problem`), the picture of the plan (`plan_picture`: each phase with where its
entrants come from and its state, for the organizer's desk and the public page), and the
built-in plans an organizer can start from in one click (`BUILT_IN_PLANS`).

Must not: write anything (tournaments.services.plans does).
"""

from __future__ import annotations

from typing import Any

from config.errors import Invalid
from scoring.messages import Term
from tournaments.draw import DrawError
from tournaments.draw.plan import (
    KINDS,
    SEEDINGS,
    PhaseSpec,
    plan_check,
    rule_from_dict,
    rule_to_dict,
)
from tournaments.models import Phase, PlanPreset, Tournament

PLAN_FORMAT = "amarrako.plan"
PLAN_VERSION = 1

#: a phase's options as the plan's JSON holds them (besides name, format and entrants)
PHASE_OPTIONS = (
    "rounds_planned",
    "group_size",
    "group_sizes",
    "seeding",
    "lives",
    "third_place",
    "grand_final_reset",
    "separate_clubs_rounds",
    "stones_per_game",
    "games_per_vaca",
    "vacas_per_match",
)


def _phase_json(phase: Phase, orders: dict[int, int] | None = None) -> dict[str, Any]:
    """``orders``: the tournament's phases' order by id, when the caller has them."""
    entrants = list(phase.entrants or [])
    if not entrants and phase.source_id is not None:
        # a knockout from its source's groups, as the plan's rule says it
        source_order = (orders or {}).get(phase.source_id) or phase.source.order
        entrants = [
            {
                "rule": "top_of_each_group",
                "phase": source_order,
                "count": phase.qualifiers_per_group or 1,
            }
        ]
    out: dict[str, Any] = {"name": phase.name, "format": phase.format, "entrants": entrants}
    for name in PHASE_OPTIONS:
        value = getattr(phase, name)
        if name == "rounds_planned" and phase.format == "round_robin":
            # a liguilla's rounds are derived at its first draw; the organizer's are a partial
            # round robin's (kept apart)
            value = partial_rounds(phase)
        elif name == "rounds_planned" and phase.format != "swiss":
            continue
        if name == "lives" and phase.format != "lives":
            continue
        if name == "grand_final_reset" and phase.format != "double_elimination":
            continue
        if value in (None, "", []) or (name == "third_place" and not value):
            continue
        if name == "separate_clubs_rounds" and not value:
            continue
        out[name] = value
    return out


def partial_rounds(phase: Phase) -> int | None:
    """The rounds a liguilla's groups play when the organizer asked for fewer than the full
    round robin ("three matches each"), else None."""
    return (phase.settings or {}).get("partial_rounds")


def plan_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's plan as plain JSON (what `plan_phases_from_json` reads back)."""
    phases = Phase.objects.filter(tournament=tournament).select_related("source").order_by("order")
    return {
        "format": PLAN_FORMAT,
        "version": PLAN_VERSION,
        "name": tournament.name,
        "phases": [_phase_json(p) for p in phases],
    }


def _invalid_plan(reason: Term, **params: Any) -> Invalid:
    return Invalid(
        "This is not a plan Amarrako can read: {reason}",
        code="plan_unreadable",
        reason=reason,
        **params,
    )


def plan_phases_from_json(data: Any) -> list[dict[str, Any]]:
    """The phases of a plan's JSON, each as the keyword options of phase_create (``entrants``
    as rules' JSON); Invalid ``plan_unreadable`` or DrawError naming what is wrong."""
    if not isinstance(data, dict) or data.get("format") != PLAN_FORMAT:
        raise _invalid_plan(Term("its format is not 'amarrako.plan'"))
    if data.get("version") != PLAN_VERSION:
        raise _invalid_plan(Term("its version is not 1"))
    phases = data.get("phases")
    if not isinstance(phases, list) or not phases:
        raise _invalid_plan(Term("it has no phases"))
    out = []
    for phase in phases:
        if not isinstance(phase, dict) or not isinstance(phase.get("name"), str):
            raise _invalid_plan(Term("a phase has no name"))
        unknown = set(phase) - {"name", "format", "entrants", *PHASE_OPTIONS}
        if unknown:
            raise _invalid_plan(Term("a phase has an option Amarrako does not know"))
        rules = phase.get("entrants") or []
        if not isinstance(rules, list):
            raise _invalid_plan(Term("a phase's entrants are not a list of rules"))
        parsed = []
        for n, r in enumerate(rules, start=1):
            try:
                parsed.append(rule_to_dict(rule_from_dict(r)))
            except DrawError as error:
                raise error.add_context(
                    "{phase}, entrants rule {rule}: {error}", phase=phase["name"], rule=n
                ) from None
        options = {k: phase[k] for k in PHASE_OPTIONS if k in phase}
        if len(phase["name"]) > 80 or not isinstance(phase.get("format"), str):
            raise _invalid_plan(Term("a phase's name is too long, or it has no format"))
        for name, value in options.items():
            if not _option_ok(name, value):
                raise _invalid_plan(Term("a phase's option has a value of the wrong kind"))
        out.append(
            {"name": phase["name"], "format": phase.get("format"), **options, "entrants": parsed}
        )
    return out


def _option_ok(name: str, value: Any) -> bool:
    """A plan's phase option of the kind phase_create takes (its range is phase_create's to
    check, naming it)."""
    if value is None:
        return True
    if name in ("third_place", "grand_final_reset"):
        return isinstance(value, bool)
    if name == "seeding":
        return isinstance(value, str)
    if name == "group_sizes":
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in value
        )
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000


def plan_specs(tournament: Tournament) -> list[PhaseSpec]:
    """The tournament's phases as tournaments.draw.plan specs (a knockout with a source reads
    as its rule: the first N of each group of its source)."""
    specs = []
    for phase in (
        Phase.objects.filter(tournament=tournament).select_related("source").order_by("order")
    ):
        rules = [rule_from_dict(r) for r in _phase_json(phase)["entrants"]]
        specs.append(
            PhaseSpec(
                order=phase.order,
                name=phase.name,
                format=phase.format,
                rules=tuple(rules),
                group_size=phase.group_size,
                group_sizes=tuple(phase.group_sizes or ()),
                rounds=partial_rounds(phase) if phase.format == "round_robin" else None,
                groups=(
                    ((phase.settings or {}).get("ladder") or {}).get("groups")
                    if phase.format == Phase.Format.GROUP_LADDER
                    else None
                ),
            )
        )
    return specs


def plan_problem(tournament: Tournament, field_size: int) -> DrawError | None:
    """What in the tournament's plan cannot work for ``field_size`` pairs, or None."""
    specs = plan_specs(tournament)
    if not any(s.rules for s in specs):
        return None
    try:
        plan_check(specs, field_size)
    except DrawError as error:
        return error
    return None


def rule_words(rule: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A rule as the picture shows it: its kind and the values its sentence fills."""
    source = names.get(rule.get("phase"), "") if rule.get("phase") else ""
    return {**rule, "source": source}


def plan_shown(tournament: Tournament) -> bool:
    """Whether the plan is worth a picture: more than one phase."""
    return Phase.objects.filter(tournament=tournament).count() > 1


def plan_picture(tournament: Tournament, phases: list[Phase] | None = None) -> list[dict[str, Any]]:
    """The plan as one picture: each phase in order with its format, state, the rules that
    feed it (each with its source phase's name) and whether it is where the tournament is now
    (the phases being played, else the first not finished). ``phases``: the tournament's, in
    order, when the caller has loaded them (no query then)."""
    if phases is None:
        phases = list(
            Phase.objects.filter(tournament=tournament).select_related("source").order_by("order")
        )
    names = {p.order: p.name for p in phases}
    orders = {p.pk: p.order for p in phases}
    # where the tournament is: the phases being played (parallel ones too), else the next one
    current = {p.pk for p in phases if p.status == Phase.Status.RUNNING} or {
        next((p.pk for p in phases if p.status != Phase.Status.FINISHED), None)
    }
    running = tournament.status == Tournament.Status.RUNNING
    out = []
    for phase in phases:
        rules = _phase_json(phase, orders)["entrants"]
        out.append(
            {
                "phase": phase,
                "rules": [rule_words(r, names) for r in rules],
                "everybody": not rules,
                "partial": partial_rounds(phase),
                "current": running and phase.pk in current,
                "groups": len((phase.settings or {}).get("groups", []))
                or len(phase.group_sizes or []),
            }
        )
    return out


def plan_presets(club_id: int) -> list[PlanPreset]:
    return list(PlanPreset.objects.filter(club_id=club_id).order_by("name"))


def _plan(name: str, *phases: dict[str, Any]) -> dict[str, Any]:
    return {"format": PLAN_FORMAT, "version": PLAN_VERSION, "name": name, "phases": list(phases)}


#: plans organizers publish often, one click away (keys are stable; names in Spanish, as
#: bases write them)
BUILT_IN_PLANS: dict[str, dict[str, Any]] = {
    "groups_knockout": _plan(
        "Liguillas de 4 y eliminatoria de los dos primeros",
        {"name": "Liguillas", "format": "round_robin", "entrants": [], "group_size": 4},
        {
            "name": "Eliminatoria",
            "format": "single_elimination",
            "entrants": [{"rule": "top_of_each_group", "phase": 1, "count": 2}],
        },
    ),
    "groups_cuadro_b": _plan(
        "Liguillas, cuadro A de los dos primeros y cuadro B del resto",
        {"name": "Liguillas", "format": "round_robin", "entrants": [], "group_size": 4},
        {
            "name": "Cuadro A",
            "format": "single_elimination",
            "entrants": [{"rule": "top_of_each_group", "phase": 1, "count": 2}],
        },
        {
            "name": "Cuadro B",
            "format": "single_elimination",
            "entrants": [{"rule": "not_qualified", "phase": 1}],
        },
    ),
    "swiss_level_groups": _plan(
        "Suizo, grupos por nivel a tres partidas y final de cada grupo",
        {"name": "Suizo", "format": "swiss", "entrants": [], "rounds_planned": 4},
        {
            "name": "Grupos por nivel",
            "format": "round_robin",
            "entrants": [{"rule": "all", "phase": 1}],
            "group_size": 8,
            "seeding": "level",
            "rounds_planned": 3,
        },
        {
            "name": "Final grupo 1",
            "format": "single_elimination",
            "entrants": [{"rule": "group", "phase": 2, "group": 1, "first": 1, "last": 4}],
        },
        {
            "name": "Final grupo 2",
            "format": "single_elimination",
            "entrants": [{"rule": "group", "phase": 2, "group": 2, "first": 1, "last": 4}],
        },
    ),
    "tres_ceros_groups": _plan(
        "A tres ceros en cada grupo y final de los ganadores",
        {
            "name": "Grupos a tres ceros",
            "format": "lives",
            "entrants": [],
            "group_size": 8,
            "lives": 3,
        },
        {
            "name": "Final",
            "format": "single_elimination",
            "entrants": [{"rule": "group_winners", "phase": 1}],
        },
    ),
}

__all__ = [
    "BUILT_IN_PLANS",
    "KINDS",
    "PLAN_FORMAT",
    "PLAN_VERSION",
    "SEEDINGS",
    "plan_of",
    "plan_phases_from_json",
    "plan_picture",
    "plan_presets",
    "plan_problem",
    "plan_specs",
]
