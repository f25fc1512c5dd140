"""How many pairs a championship's tournament sends on, and which: a pure function.

Responsible for:

- ``quota``: the pairs a tournament of a stage sends to the next, by the rule its
  championship's organizers set for the stage:

  - ``fixed``: a fixed number per centre (the centre's own number when it has one, else the
    stage's);
  - ``proportional``: one pair per N pairs that played there, rounded down, and at least the
    minimum ("one per 8 pairs, at least one": 7 pairs send 1, 16 send 2, 23 send 2);
  - ``ranking``: by the centre's place in the championship's ranking of centres: the stage's
    table gives the pairs of the centre ranked 1st, 2nd, …; a centre beyond the table, or
    unranked, sends the minimum;

  never more than the pairs that played.
- ``qualified``: the first ``quota`` pairs of the tournament's final places (in the order
  seasons.competitions.places gives them), and whether the cut falls between pairs that
  share a place (the desk says so: the order the standings list them decided).

Must not: import Django or anything of the project but the other pure cores (import-linter's
``pure-cores``); read the clock or draw lots.

Terms: cupo (quota), centro (centre), puesto (place), clasificado (qualified).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class QuotaRule(StrEnum):
    FIXED = "fixed"
    PROPORTIONAL = "proportional"
    RANKING = "ranking"


#: the rules' names, as the API takes them
QUOTA_RULES = tuple(r.value for r in QuotaRule)


def quota(
    rule: str,
    *,
    pairs: int,
    number: int,
    minimum: int = 1,
    table: Sequence[int] = (),
    rank: int | None = None,
    own: int | None = None,
) -> int:
    """The pairs a tournament with ``pairs`` pairs that played sends on (see the module)."""
    chosen = QuotaRule(rule)
    if chosen is QuotaRule.FIXED:
        wanted = own if own is not None else number
    elif chosen is QuotaRule.PROPORTIONAL:
        wanted = max(minimum, pairs // max(1, number))
    elif rank is not None and 1 <= rank <= len(table):
        wanted = table[rank - 1]
    else:
        wanted = minimum
    return max(0, min(wanted, pairs))


@dataclass(frozen=True)
class Cut:
    #: (pair id, final place) of the qualified, in their order
    qualified: tuple[tuple[int, int], ...]
    #: the last qualified pair shares its place with the first pair left out
    tie_at_cut: bool


def qualified(places: Sequence[tuple[int, int]], quota_: int) -> Cut:
    """The first ``quota_`` of ``places`` ((pair id, place) from the first down)."""
    chosen = tuple(places[: max(0, quota_)])
    tie = 0 < len(chosen) < len(places) and places[len(chosen)][1] == chosen[-1][1]
    return Cut(chosen, tie)
