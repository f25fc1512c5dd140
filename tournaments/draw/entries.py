"""The field as the bases size it, over plain values: who stays when registration closes, and
which match format the number of entries chooses.

Responsible for:

- ``field_cut``: how many entrants a tournament plays with when registration closes, from the
  bases' minimum and allowed field sizes ("12 o 16 parejas": with 14 registered it plays with
  12), or why it cannot start (fewer than the minimum, or than the smallest size);
- ``entrants_dropped``: who drops out to reach that size: the last registered first — and,
  once the organizer has called the roll (somebody is checked in), those not present before
  anybody present, the last registered of them first;
- ``format_rules`` / ``format_for_entries``: reading the rule that chooses the match format by
  the number of entries ("al mejor de 3 juegos con 16 parejas o más; si no, a 4 juegos") and
  choosing the format for a count.

Must not: import Django, read the database or the clock, or choose at random.

Terms: inscripción (registration), cuadro (the field: how many play), pareja (an entrant),
presente (checked in), juego (game), vaca, piedras (stones).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.draw.base import DrawError

__all__ = [
    "FORMAT_OPTIONS",
    "Cut",
    "Registered",
    "entrants_dropped",
    "field_cut",
    "field_sizes_clean",
    "format_for_entries",
    "format_rules",
]

#: the rule-set options a format by entries may set: the match's length
FORMAT_OPTIONS = ("stones_per_game", "games_per_vaca", "vacas_per_match")
#: the most field sizes and format rules the bases list, and the largest count they name
MAX_SIZES = 12
MAX_ENTRIES = 10000


@dataclass(frozen=True)
class Cut:
    """What closing registration does: ``kept`` entrants play, ``dropped`` drop out.
    ``short``: the tournament cannot start, it has fewer than ``needed`` entrants (the minimum
    or the smallest allowed size: ``reason`` "minimum" or "size")."""

    kept: int
    dropped: int
    short: bool = False
    needed: int = 0
    reason: str = ""


def field_cut(count: int, *, minimum: int | None, sizes: Sequence[int]) -> Cut:
    """The cut of ``count`` registered entrants under the bases' ``minimum`` and allowed
    ``sizes`` (empty: any size)."""
    if minimum is not None and count < minimum:
        return Cut(count, 0, short=True, needed=minimum, reason="minimum")
    # a size below the minimum is never played (the services refuse declaring one)
    playable = [s for s in sizes if minimum is None or s >= minimum]
    if not playable:
        return Cut(count, 0)
    allowed = [s for s in playable if s <= count]
    if not allowed:
        return Cut(count, 0, short=True, needed=min(playable), reason="size")
    kept = max(allowed)
    return Cut(kept, count - kept)


@dataclass(frozen=True)
class Registered:
    """A registered entrant: its id, its place in the order of registration (lower: earlier)
    and whether it is checked in (present)."""

    id: int
    order: int
    present: bool = False


def entrants_dropped(entrants: Iterable[Registered], keep: int) -> list[int]:
    """The ids that drop out so that ``keep`` remain, the first to drop first: once anybody is
    checked in, those not present drop before any present one; among equals, the last
    registered first."""
    entrants = list(entrants)
    roll_called = any(e.present for e in entrants)
    # the first to drop first: not present (when the roll was called), then the latest
    ordered = sorted(entrants, key=lambda e: (roll_called and e.present, -e.order, -e.id))
    return [e.id for e in ordered[: max(len(entrants) - keep, 0)]]


def field_sizes_clean(value: Any) -> list[int]:
    """The allowed field sizes, ascending; DrawError for anything else than a short list of
    distinct whole numbers from 2."""
    if (
        not isinstance(value, list)
        or len(value) > MAX_SIZES
        or any(isinstance(s, bool) or not isinstance(s, int) for s in value)
        or any(not 2 <= s <= MAX_ENTRIES for s in value)
        or len(set(value)) != len(value)
    ):
        raise DrawError(
            "The allowed field sizes are a list of at most {most} different whole numbers "
            "from 2 to {largest}, e.g. [12, 16]; empty for any size.",
            code="field_sizes",
            most=MAX_SIZES,
            largest=MAX_ENTRIES,
        )
    return sorted(value)


def format_rules(value: Any) -> list[dict[str, Any]]:
    """The format by entries as the bases write it: a list of ``{"from": n, "rules": {…}}``,
    each the match format from ``n`` entries up (its options among FORMAT_OPTIONS; the
    engine checks their values), in the order of ``from``; DrawError naming what is wrong."""
    if not isinstance(value, list) or len(value) > MAX_SIZES:
        raise DrawError(
            'The format by entries is a list of at most {most} rules, each with "from" '
            '(entries) and "rules" (the match format from that many up).',
            code="format_rules_shape",
            most=MAX_SIZES,
        )
    out = []
    for n, rule in enumerate(value, start=1):
        if not isinstance(rule, Mapping) or set(rule) != {"from", "rules"}:
            raise DrawError(
                'Rule {rule} of the format by entries needs exactly "from" (entries) and '
                '"rules" (the match format from that many up).',
                code="format_rule_keys",
                rule=n,
            )
        start, rules = rule["from"], rule["rules"]
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= MAX_ENTRIES:
            raise DrawError(
                'Rule {rule} of the format by entries starts "from" {value}; give a whole '
                "number of entries from 0 to {largest}.",
                code="format_rule_from",
                rule=n,
                value=str(start)[:20],
                largest=MAX_ENTRIES,
            )
        if not isinstance(rules, Mapping) or not rules or set(rules) - set(FORMAT_OPTIONS):
            raise DrawError(
                "Rule {rule} of the format by entries sets the match's length only: one or "
                "more of {options}.",
                code="format_rule_options",
                rule=n,
                options=list(FORMAT_OPTIONS),
            )
        out.append({"from": start, "rules": {k: rules[k] for k in FORMAT_OPTIONS if k in rules}})
    starts = [rule["from"] for rule in out]
    if len(set(starts)) != len(starts):
        raise DrawError(
            'Two rules of the format by entries start "from" the same number of entries; '
            "give each its own.",
            code="format_rules_twice",
        )
    return sorted(out, key=lambda rule: rule["from"])


def format_for_entries(rules: Sequence[Mapping[str, Any]], count: int) -> dict[str, Any] | None:
    """The match format ``count`` entries play under ``rules`` (format_rules' form): the rule
    with the highest ``from`` not above ``count``; None when none applies (the tournament's
    own format stands)."""
    applying = [rule for rule in rules if rule["from"] <= count]
    if not applying:
        return None
    return dict(max(applying, key=lambda rule: rule["from"])["rules"])
