"""A sheet of lance points read from its JSON form (docs/scoring-json.md).

Responsible for: a hand's ``lances`` and ``totals`` into a ``LancePoints``: each lance's
``to`` (between two sides 'mano' or 'postre'; where each player is a side, a seat counted from
mano, a number or 'mano' / 'postre' for the first and the last), its ``how`` in the words an
anotador uses (``deje`` or ``no quiero``, ``querido``, ``quiero`` or ``envite``, ``órdago``),
``stones`` and ``bonus``; the totals as ``{"mano", "postre"}`` or a list in seat order. A field
of the wrong shape, or one the form does not have, is a FormatError that names it.

Must not: check whether a figure is possible (checks.py and sheet.py do, once it is read).

Terms: lance, paso, deje, querido, órdago, mano, postre, anotador (who keeps the score).
"""

from __future__ import annotations

from typing import Any

from scoring.betting import SIDE_NAMES
from scoring.cards import HandValue
from scoring.errors import FormatError, lance_term, shown
from scoring.hand import Declarations
from scoring.lances.points import LancePoint
from scoring.lances.sheet import LancePoints
from scoring.messages import Term
from scoring.rules import Form, RuleSet

_POINT_KEYS = frozenset(("to", "how", "stones", "bonus"))
_HOW_WORDS = {
    "paso": "paso",
    "deje": "deje",
    "no quiero": "deje",
    "no_querido": "deje",
    "querido": "querido",
    "quiero": "querido",
    "envite": "querido",
    "ordago": "ordago",
    "órdago": "ordago",
}


def points_from_json(
    data: dict,
    cards: tuple[HandValue, ...] | None,
    declarations: Declarations | None,
    rules: RuleSet | None = None,
) -> LancePoints:
    """A LancePoints from a hand's ``lances`` and ``totals`` (docs/scoring-json.md). Between
    two sides a lance's ``to`` is 'mano' or 'postre' and the totals ``{"mano", "postre"}``;
    where each player is a side, ``to`` is a seat counted from mano (a number, or 'mano' /
    'postre' for the first and last) and the totals a list in seat order."""
    two = rules is None or rules.form is Form.PAIRS or rules.form is Form.TRIOS
    seats = 0 if two else rules.players
    raw_lances = data.get("lances")
    lances: dict[str, LancePoint] = {}
    if raw_lances is not None:
        if not isinstance(raw_lances, dict):
            raise FormatError("{field} must be a JSON object.", code="not_object", field="lances")
        for name, raw in raw_lances.items():
            if raw is None:
                continue
            lances[str(name)[:40]] = _point_from_json(str(name)[:40], raw, seats)
    totals = data.get("totals")
    if totals is not None:
        totals = _totals_from_json(totals, seats)
    return LancePoints(lances, totals, cards, declarations)  # type: ignore[arg-type]


def _point_from_json(name: str, raw: Any, seats: int = 0) -> LancePoint:
    field = f"lances.{name}"
    if not isinstance(raw, dict):
        raise FormatError("{field} must be a JSON object.", code="not_object", field=field)
    unknown = raw.keys() - _POINT_KEYS
    if unknown:
        raise FormatError(
            "Unknown field '{field}' in {where}; the fields are {fields}.",
            code="unknown_field",
            field=str(sorted(unknown)[0])[:40],
            where=Term("a lance"),
            fields=sorted(_POINT_KEYS),
        )
    to = raw.get("to")
    if seats:
        seat = _seat_from_json(to, seats)
        if seat is None:
            raise FormatError(
                "Who took {lance} is a seat counted from mano: a number from 0 to {last}, "
                "'mano' or 'postre', not {value}.",
                code="lance_to_seat",
                field=field,
                lance=lance_term(name),
                last=seats - 1,
                value=shown(to),
            )
    elif to not in SIDE_NAMES:
        raise FormatError(
            "Who took {lance} is 'mano' or 'postre', not {value}.",
            code="lance_to_word",
            field=field,
            lance=lance_term(name),
            value=shown(to),
        )
    else:
        seat = SIDE_NAMES.index(to)
    how = raw.get("how", "paso")
    how = _HOW_WORDS.get(how.strip().lower(), how) if isinstance(how, str) else how
    return LancePoint(seat, how, raw.get("stones"), raw.get("bonus"))


def _seat_from_json(raw: Any, seats: int) -> int | None:
    """A seat counted from mano: a number, or 'mano' / 'postre' for the first and the last;
    None for anything else."""
    if raw == "mano":
        return 0
    if raw == "postre":
        return seats - 1
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < seats:
        return raw
    return None


def _totals_from_json(raw: Any, seats: int = 0) -> tuple[Any, ...]:
    if seats:
        if not isinstance(raw, list) or len(raw) != seats:
            raise FormatError(
                "{field} is a list of {count} totals, one per player in seat order from mano.",
                code="totals_list",
                field="totals",
                count=seats,
            )
        return tuple(raw)
    if isinstance(raw, dict):
        unknown = raw.keys() - set(SIDE_NAMES)
        if unknown:
            raise FormatError(
                "Unknown field '{field}' in {where}; the fields are {fields}.",
                code="unknown_field",
                field=str(sorted(unknown)[0])[:40],
                where=Term("the totals"),
                fields=list(SIDE_NAMES),
            )
        return raw.get("mano", 0), raw.get("postre", 0)
    raise FormatError("{field} must be a JSON object.", code="not_object", field="totals")
