"""A tournament's plan as data: which phases it plays and how entrants flow between them.

Responsible for: the rules by which a phase takes its entrants from earlier phases
(`Rule`, read from plain JSON by `rule_from_dict`), checking a whole plan before the tournament
starts (`plan_check`: a rule that cannot work is refused with a message that names the phase and
the rule), choosing a phase's entrants from its sources' final standings (`resolve_entrants`:
every entrant comes from exactly one rule, in seed order), the sizes of a phase's groups
(`group_sizes`, unequal sizes allowed), seeding groups from a ranking (`seed_groups`: snake,
by level, by lot within pots, or by lot) and a partial round robin (`partial_schedule`: a group
plays N rounds of its round robin, so nobody meets anybody twice).

A rule names the phase it takes from by its **order** in the tournament (1 the first phase), so
a plan holds for any tournament (a preset, an exported plan). Kinds, in the organizer's words:

- ``all``: every entrant of phase ``phase`` (without ``phase``: every pair that plays);
- ``top``: the first ``count`` of phase ``phase`` overall (a phase with groups is ranked by
  place in the group, then by the standings' own order);
- ``top_of_each_group``: the first ``count`` of each group of phase ``phase``;
- ``group_winners``: the winner of each group of phase ``phase``;
- ``places``: places ``first``–``last`` of phase ``phase`` overall;
- ``group``: the entrants of group ``group`` (1 the first) of phase ``phase``, optionally only
  its places ``first``–``last`` (a final per group after a group ladder or a group stage);
- ``not_qualified``: the entrants of phase ``phase`` that no other rule of the plan takes from
  it (a "Cuadro B", a consolation for the rest);
- ``losers``: the losers of round (stage) ``stage`` of phase ``phase`` (a knockout's
  quarter-finals…);
- ``fixed``: the entries the organizer lists (``entries``, entry ids).

Must not: import Django, read the database or the clock, or use randomness but the seed given.

Terms: fase (phase), grupo (group), pareja (entrant), cuadro B / consolación, bombo (pot),
serpiente (snake), liguilla (round robin).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.draw.base import DrawError, Lot, make_rng
from tournaments.draw.bracket import bracket_size
from tournaments.draw.roundrobin import Group, group_name, round_robin_schedule

__all__ = [
    "GROUPED_FORMATS",
    "KINDS",
    "SEEDINGS",
    "PhaseSpec",
    "Rule",
    "SourceResult",
    "group_sizes",
    "partial_schedule",
    "plan_check",
    "resolve_entrants",
    "rule_from_dict",
    "rule_to_dict",
    "seed_groups",
]

KINDS = (
    "all",
    "top",
    "top_of_each_group",
    "group_winners",
    "places",
    "group",
    "not_qualified",
    "losers",
    "fixed",
)
#: how a phase's groups are filled from its entrants' seed order
SEEDINGS = ("lot", "snake", "level", "pots")
#: the formats whose phases may have groups (a ladder of groups, added later, reads them too)
GROUPED_FORMATS = ("round_robin", "lives")
KNOCKOUTS = ("single_elimination", "double_elimination")

_NEEDS = {
    "all": (),
    "top": ("phase", "count"),
    "top_of_each_group": ("phase", "count"),
    "group_winners": ("phase",),
    "places": ("phase", "first", "last"),
    "group": ("phase", "group"),
    "not_qualified": ("phase",),
    "losers": ("phase", "stage"),
    "fixed": ("entries",),
}


@dataclass(frozen=True)
class Rule:
    """One way a phase takes entrants; see the module docstring for the kinds."""

    kind: str
    phase: int | None = None
    count: int | None = None
    first: int | None = None
    last: int | None = None
    group: int | None = None
    stage: int | None = None
    entries: tuple[int, ...] = ()


def _positive(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DrawError(
            "The rule's {option} must be a whole number of at least 1, not {value}.",
            code="plan_rule_number",
            option=name,
            value=str(value)[:20],
        )
    return value


def rule_from_dict(data: Any) -> Rule:
    """A rule from its plain JSON (``{"rule": "top", "phase": 1, "count": 8}``); DrawError
    naming what is wrong or missing."""
    if not isinstance(data, Mapping) or data.get("rule") not in KINDS:
        kind = data.get("rule") if isinstance(data, Mapping) else data
        raise DrawError(
            "Unknown entrants rule '{rule}'; choose one of {rules}.",
            code="plan_rule_unknown",
            rule=str(kind)[:40],
            rules=list(KINDS),
        )
    kind = data["rule"]
    entries = data.get("entries") or ()
    if not isinstance(entries, list | tuple) or not all(
        isinstance(e, int) and not isinstance(e, bool) for e in entries
    ):
        raise DrawError(
            "A fixed list of entrants is a list of entry numbers.", code="plan_rule_entries"
        )
    rule = Rule(
        kind=kind,
        phase=_positive(data, "phase"),
        count=_positive(data, "count"),
        first=_positive(data, "first"),
        last=_positive(data, "last"),
        group=_positive(data, "group"),
        stage=_positive(data, "stage"),
        entries=tuple(entries),
    )
    for name in _NEEDS[kind]:
        if not getattr(rule, name):
            raise DrawError(
                "The rule '{rule}' needs its {option}.",
                code="plan_rule_missing",
                rule=kind,
                option=name,
            )
    if (rule.first is None) != (rule.last is None) or (
        rule.first is not None and rule.last is not None and rule.first > rule.last
    ):
        raise DrawError(
            "Places go from a first to a last place, the first not after the last.",
            code="plan_rule_places",
        )
    return rule


def rule_to_dict(rule: Rule) -> dict[str, Any]:
    """The rule as plain JSON (what `rule_from_dict` reads), without the options left out."""
    out: dict[str, Any] = {"rule": rule.kind}
    for name in ("phase", "count", "first", "last", "group", "stage"):
        if getattr(rule, name) is not None:
            out[name] = getattr(rule, name)
    if rule.entries:
        out["entries"] = list(rule.entries)
    return out


# --- Groups -------------------------------------------------------------------------------------


def group_sizes(
    entrants: int, *, group_size: int | None = None, sizes: Sequence[int] = ()
) -> tuple[int, ...]:
    """The sizes of a phase's groups: ``sizes`` as given (they must add up to ``entrants``),
    else as even as possible with none larger than ``group_size`` (the larger groups first)."""
    if sizes:
        if sum(sizes) != entrants or min(sizes) < 2:
            raise DrawError(
                "The groups' sizes {sizes} must add up to the {entrants} entrants of the phase, "
                "each group with at least 2.",
                code="plan_group_sizes",
                sizes=list(sizes),
                entrants=entrants,
            )
        return tuple(sizes)
    if not group_size or group_size < 2:
        raise DrawError("A group needs at least 2 entrants.", code="plan_group_size")
    count = max(1, math.ceil(entrants / group_size))
    base, extra = divmod(entrants, count)
    return tuple(base + 1 if g < extra else base for g in range(count))


def seed_groups(
    ranked: Sequence[int], sizes: Sequence[int], *, method: str, rng: Lot
) -> tuple[Group, ...]:
    """Fill groups of ``sizes`` from ``ranked`` (entrant ids, best first).

    ``snake``: 1st to A, 2nd to B, … the last group, then back (serpentine); ``level``: the
    first ``sizes[0]`` to A, the next to B, … (places 1–8 → group 1, 9–16 → group 2);
    ``pots``: pots of as many entrants as groups, each pot spread over the groups by lot;
    ``lot``: by lot. A full group is skipped. Each group lists its entrants best first.
    """
    if sum(sizes) != len(ranked):
        raise DrawError(
            "The groups' sizes {sizes} must add up to the {entrants} entrants of the phase, "
            "each group with at least 2.",
            code="plan_group_sizes",
            sizes=list(sizes),
            entrants=len(ranked),
        )
    if method not in SEEDINGS:
        raise DrawError(
            "Unknown seeding '{seeding}'; choose one of {seedings}.",
            code="plan_seeding",
            seeding=str(method)[:20],
            seedings=list(SEEDINGS),
        )
    members: list[list[int]] = [[] for _ in sizes]
    order = list(ranked)
    if method == "lot":
        make_rng(rng).shuffle(order)
    if method in ("level", "lot"):
        start = 0
        for g, size in enumerate(sizes):
            members[g] = order[start : start + size]
            start += size
        if method == "lot":
            members = [sorted(m, key=list(ranked).index) for m in members]
    else:
        lot = make_rng(rng)
        forward = True
        k = 0
        while k < len(order):
            open_groups = [g for g, size in enumerate(sizes) if len(members[g]) < size]
            if not forward:
                open_groups.reverse()
            pot = order[k : k + len(open_groups)]
            targets = open_groups[: len(pot)]
            if method == "pots":
                lot.shuffle(targets)
            for entrant_id, g in zip(pot, targets, strict=True):
                members[g].append(entrant_id)
            k += len(pot)
            forward = not forward if method == "snake" else True
    return tuple(Group(group_name(g), tuple(ids)) for g, ids in enumerate(members))


def partial_schedule(group: Group, rounds: int | None) -> tuple[tuple, ...]:
    """The first ``rounds`` rounds of the group's round robin (all of them without
    ``rounds``): a partial round robin in which nobody meets the same entrant twice."""
    schedule = round_robin_schedule(group)
    return schedule if rounds is None else schedule[:rounds]


# --- The plan as a whole ------------------------------------------------------------------------


@dataclass(frozen=True)
class PhaseSpec:
    """A phase of the plan as `plan_check` reads it: its ``order`` (1 the first), name,
    format, entrants rules (none: every pair that plays, as a phase always did), its groups
    (``group_sizes`` or a ``group_size``, for formats with groups; ``groups``, a group
    ladder's count of level groups) and ``rounds`` (a partial
    round robin's rounds, a Swiss's rounds)."""

    order: int
    name: str
    format: str
    rules: tuple[Rule, ...] = ()
    group_size: int | None = None
    group_sizes: tuple[int, ...] = ()
    rounds: int | None = None
    groups: int | None = None

    @property
    def has_groups(self) -> bool:
        return (
            bool(self.group_sizes)
            or bool(self.groups)
            or (self.format in GROUPED_FORMATS and bool(self.group_size))
        )


def _rule_error(spec: PhaseSpec, index: int, error: DrawError) -> DrawError:
    return error.add_context(
        "{phase}, entrants rule {rule}: {error}", phase=spec.name, rule=index + 1
    )


def _sizes_of(spec: PhaseSpec, n: int) -> tuple[int, ...]:
    if spec.group_sizes:
        return group_sizes(n, sizes=spec.group_sizes)
    if spec.groups:  # a group ladder's level groups: as even as can be, the larger first
        base, extra = divmod(n, spec.groups)
        return tuple(base + 1 if g < extra else base for g in range(spec.groups))
    if spec.has_groups:
        return group_sizes(n, group_size=spec.group_size)
    return (n,)


def _losers(source: PhaseSpec, n: int, stage: int) -> int:
    """How many entrants lose in round ``stage`` of a single elimination of ``n``."""
    size = bracket_size(n) if n >= 2 else 2
    stages = int(math.log2(size))
    if stage > stages:
        raise DrawError(
            "{source} has only {stages} rounds; there are no losers of round {stage}.",
            code="plan_losers_stage",
            source=source.name,
            stages=stages,
            stage=stage,
        )
    if stage == 1:
        return n - size // 2
    return size // 2**stage


def plan_check(phases: Sequence[PhaseSpec], field_size: int) -> dict[int, int]:
    """Check the plan as a whole for ``field_size`` entrants; returns each phase's size by
    order. DrawError naming the phase and its rule that cannot work: a rule taking from a
    phase that is not earlier, more entrants than the phase has, a group that does not exist,
    losers of a phase that is not a knockout, a partial round robin longer than the round
    robin, two rules of a phase taking the same places."""
    by_order = {p.order: p for p in phases}
    sizes: dict[int, int] = {}
    groups: dict[int, tuple[int, ...]] = {}
    for spec in sorted(phases, key=lambda p: p.order):
        n = 0
        for index, rule in enumerate(spec.rules):
            try:
                n += _rule_size(spec, rule, by_order, sizes, groups, field_size, phases)
            except DrawError as error:
                raise _rule_error(spec, index, error) from None
        try:
            _check_overlap(spec)
        except DrawError as error:
            raise error.add_context("{phase}: {error}", phase=spec.name) from None
        if not spec.rules:
            n = field_size
        sizes[spec.order] = n
        if n < 2:
            raise DrawError(
                "{phase} would have {count} entrants; a phase needs at least 2.",
                code="plan_phase_too_small",
                phase=spec.name,
                count=n,
            )
        try:
            groups[spec.order] = _sizes_of(spec, n)
        except DrawError as error:
            raise error.add_context("{phase}: {error}", phase=spec.name) from None
        if spec.format == "round_robin" and spec.rounds:
            smallest = min(groups[spec.order])
            most = smallest if smallest % 2 else smallest - 1
            if spec.rounds > most:
                raise DrawError(
                    "{phase}: a group of {size} can play at most {most} rounds without a "
                    "rematch, not {rounds}.",
                    code="plan_partial_rounds",
                    phase=spec.name,
                    size=smallest,
                    most=most,
                    rounds=spec.rounds,
                )
        if spec.format in KNOCKOUTS and n > 256:
            raise DrawError(
                "{phase} would have {count} entrants; a bracket takes at most 256.",
                code="plan_bracket_too_big",
                phase=spec.name,
                count=n,
            )
    return sizes


def _rule_size(
    spec: PhaseSpec,
    rule: Rule,
    by_order: Mapping[int, PhaseSpec],
    sizes: Mapping[int, int],
    groups: Mapping[int, tuple[int, ...]],
    field_size: int,
    phases: Sequence[PhaseSpec],
) -> int:
    if rule.kind == "fixed":
        return len(rule.entries)
    if rule.phase is None:
        return field_size
    if rule.phase >= spec.order or rule.phase not in by_order:
        raise DrawError(
            "it takes from phase {source}, which is not an earlier phase of the plan.",
            code="plan_rule_source",
            source=rule.phase,
        )
    source = by_order[rule.phase]
    n, source_groups = sizes[rule.phase], groups[rule.phase]
    if rule.kind == "all":
        return n
    if rule.kind in ("top", "places"):
        last = rule.count if rule.kind == "top" else rule.last
        if last > n:
            raise DrawError(
                "{source} has {size} entrants; it has no place {place}.",
                code="plan_rule_places_beyond",
                source=source.name,
                size=n,
                place=last,
            )
        return last - (rule.first or 1) + 1
    if rule.kind in ("top_of_each_group", "group_winners"):
        count = rule.count or 1
        if count > min(source_groups):
            raise DrawError(
                "the smallest group of {source} has {size} entrants; it cannot give {count}.",
                code="plan_rule_group_too_small",
                source=source.name,
                size=min(source_groups),
                count=count,
            )
        return count * len(source_groups)
    if rule.kind == "group":
        if rule.group > len(source_groups):
            raise DrawError(
                "{source} has {groups} groups; there is no group {group}.",
                code="plan_rule_group_unknown",
                source=source.name,
                groups=len(source_groups),
                group=rule.group,
            )
        size = source_groups[rule.group - 1]
        if rule.last is not None:
            if rule.last > size:
                raise DrawError(
                    "{source} has {size} entrants; it has no place {place}.",
                    code="plan_rule_places_beyond",
                    source=source.name,
                    size=size,
                    place=rule.last,
                )
            return rule.last - rule.first + 1
        return size
    if rule.kind == "losers":
        if source.format != "single_elimination":
            raise DrawError(
                "only a single elimination has losers of a round; {source} is a {format}.",
                code="plan_rule_losers_format",
                source=source.name,
                format=source.format,
            )
        return _losers(source, n, rule.stage)
    # not_qualified: what the other rules of the plan leave of the source
    others = 0
    for other in phases:
        for r in other.rules:
            if r.phase == rule.phase and r.kind != "not_qualified":
                others += _rule_size(other, r, by_order, sizes, groups, field_size, phases)
    left = n - others
    if left < 1:
        raise DrawError(
            "the other rules take every entrant of {source}; nobody is left for this one.",
            code="plan_rule_nobody_left",
            source=source.name,
        )
    return left


def _check_overlap(spec: PhaseSpec) -> None:
    """Two rules of a phase that take the same places of one source are refused."""
    spans: dict[tuple[int | None, str], list[tuple[int, int, int]]] = {}
    for index, rule in enumerate(spec.rules):
        if rule.kind in ("top", "places"):
            key, span = (rule.phase, "overall"), (rule.first or 1, rule.last or rule.count)
        elif rule.kind in ("top_of_each_group", "group_winners"):
            key, span = (rule.phase, "each"), (1, rule.count or 1)
        elif rule.kind == "all" or (rule.kind == "not_qualified"):
            key, span = (rule.phase, "overall"), (1, 10**6)
        else:
            continue
        for first, last, other in spans.get(key, []):
            if span[0] <= last and first <= span[1]:
                raise DrawError(
                    "entrants rules {one} and {two} take the same places of phase {source}; "
                    "every entrant must come from exactly one rule.",
                    code="plan_rules_overlap",
                    one=other + 1,
                    two=index + 1,
                    source=rule.phase,
                )
        spans.setdefault(key, []).append((*span, index))


# --- Choosing the entrants ----------------------------------------------------------------------


@dataclass(frozen=True)
class SourceResult:
    """A finished phase as the rules read it: each group's entrant ids by final place (a phase
    without groups is one group), and the losers of each round (round number → ids)."""

    groups: tuple[tuple[int, ...], ...]
    losers: Mapping[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def overall(self) -> tuple[int, ...]:
        """Ranked by place in the group, then by group order (1st of A, 1st of B, 2nd of A…)."""
        out = []
        for place in range(max((len(g) for g in self.groups), default=0)):
            out.extend(g[place] for g in self.groups if place < len(g))
        return tuple(out)

    @property
    def everybody(self) -> frozenset[int]:
        return frozenset(e for g in self.groups for e in g)


def _select(rule: Rule, source: SourceResult | None, field_ids: Sequence[int]) -> list[int]:
    if rule.kind == "fixed":
        return list(rule.entries)
    if source is None:
        return list(field_ids)
    if rule.kind == "all":
        return list(source.overall)
    if rule.kind == "top":
        return list(source.overall[: rule.count])
    if rule.kind == "places":
        return list(source.overall[rule.first - 1 : rule.last])
    if rule.kind in ("top_of_each_group", "group_winners"):
        count = rule.count or 1
        return [g[p] for p in range(count) for g in source.groups if p < len(g)]
    if rule.kind == "group":
        if rule.group > len(source.groups):
            return []
        members = source.groups[rule.group - 1]
        if rule.first is not None:
            members = members[rule.first - 1 : rule.last]
        return list(members)
    if rule.kind == "losers":
        return list(source.losers.get(rule.stage, ()))
    raise ValueError(rule.kind)


def resolve_entrants(
    rules: Sequence[Rule],
    sources: Mapping[int, SourceResult],
    *,
    field_ids: Sequence[int] = (),
    other_rules: Sequence[Rule] = (),
) -> list[tuple[int, int]]:
    """The phase's entrants in seed order, each with the index of the rule it came from:
    rule by rule, each rule's entrants in its source's order. ``sources`` by phase order
    (finished phases); ``field_ids``: every pair that plays (for a rule without a phase);
    ``other_rules``: the rules of the plan's other phases, which ``not_qualified`` leaves
    out. DrawError when one entrant comes from two rules."""
    chosen: dict[int, int] = {}
    out: list[tuple[int, int]] = []
    for index, rule in enumerate(rules):
        source = sources.get(rule.phase) if rule.phase is not None else None
        if rule.kind == "not_qualified":
            qualified = {
                e
                for other in (*other_rules, *rules)
                if other.phase == rule.phase and other.kind != "not_qualified"
                for e in _select(other, source, field_ids)
            }
            picked = [e for e in (source.overall if source else ()) if e not in qualified]
        else:
            picked = _select(rule, source, field_ids)
        for entrant_id in picked:
            if entrant_id in chosen:
                raise DrawError(
                    "Entrant {entrant} would come from entrants rules {one} and {two}; every "
                    "entrant must come from exactly one rule.",
                    code="plan_entrant_twice",
                    entrant=entrant_id,
                    one=chosen[entrant_id] + 1,
                    two=index + 1,
                )
            chosen[entrant_id] = index
            out.append((entrant_id, index))
    return out
