"""What a tournament's bases declare beyond its rule set: the standings' points table, the
prizes across phases, the size of the field and the calendar of evenings.

Responsible for: checking the values an organizer gives for these settings and setting them on
the tournament row (``event_settings_apply``, called by tournament_create and
tournament_update inside their transaction, with the tournament locked), and saying which of
them change what is already computed (a new points table re-ranks the standings:
``RESTANDING``).

The points table ("2 puntos por partida ganada, 1 por perdida, 0 por no presentada"):
``points_win`` empty means no table (the standings count matches won); with one, the
standings rank by points first (scoring.standings, ``points``) and show them. Players alone
(individual, Mus francés) have their own points (juegos won, places at the table) and no table.

The prizes (tournaments.draw.prizes reads and checks each: its name, kind, measure, the phases
it counts by their order, its tiebreaks and how a tie left standing is settled) are stored in
their full JSON form, so a prize reads back as it was written; awarding them is
services/prizes.py's (``REAWARD``: a change of the prizes of a finished tournament awards them
again).

The field (tournaments.draw.entries): ``min_entries`` (below it the tournament does not start;
empty, no minimum), ``field_sizes`` (the sizes the bases allow, "12 o 16": none below the
minimum nor above the maximum of pairs) and ``rules_by_entries`` (the match format chosen by the
number of entries when the tournament starts: each rule's values checked by the engine over the
tournament's rules). Applying them when registration closes is services/field.py's.

The calendar pattern ("martes y jueves a las 20:00 desde el 6 de octubre": tournaments.draw.
calendar reads it) dates every round that has no date of its own.

Must not: save the row or write the audit (the caller does), or compute standings.

Terms: bases (a tournament's published rules), puntos (points), partida (a match), no
presentada (walkover).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from config.errors import Invalid
from tournaments.draw.calendar import calendar_clean
from tournaments.draw.entries import field_sizes_clean, format_rules
from tournaments.draw.prizes import prize_to_dict, prizes_from_list
from tournaments.models import Tournament
from tournaments.selectors.rounds import tournament_rules
from tournaments.services.base import MAX_PAIRS

#: the most points a line of the table may give (the column is a small integer)
MAX_POINTS = 99

#: the settings this module checks, as tournament_create and tournament_update take them
EVENT_FIELDS = (
    "points_win",
    "points_loss",
    "points_walkover_loss",
    "prizes",
    "min_entries",
    "field_sizes",
    "rules_by_entries",
    "calendar",
)

#: the settings whose change re-ranks the stored standings
RESTANDING = frozenset(("points_win", "points_loss", "points_walkover_loss"))

#: the settings whose change awards the prizes of a finished tournament again
REAWARD = frozenset(("points_win", "points_loss", "points_walkover_loss", "prizes"))

ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)


def event_settings_apply(tournament: Tournament, values: Mapping[str, Any]) -> set[str]:
    """Check ``values`` (any of EVENT_FIELDS; the others are left alone) and set them on
    ``tournament``; the names of those whose value changed. Invalid naming the first wrong
    one; nothing is set then."""
    current = {name: getattr(tournament, name) for name in EVENT_FIELDS}
    wanted = {**current, **{k: v for k, v in values.items() if k in EVENT_FIELDS}}
    _check_points(tournament, wanted)
    # DrawError (400) naming the prize that is wrong
    wanted["prizes"] = [prize_to_dict(p) for p in prizes_from_list(wanted["prizes"])]
    _check_field(tournament, wanted)
    wanted["calendar"] = calendar_clean(wanted["calendar"])  # DrawError: 400
    changed = {name for name in EVENT_FIELDS if wanted[name] != current[name]}
    for name in changed:
        setattr(tournament, name, wanted[name])
    return changed


def _check_points(tournament: Tournament, wanted: dict[str, Any]) -> None:
    for name in ("points_win", "points_loss", "points_walkover_loss"):
        value = wanted[name]
        if value is None and name == "points_win":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
            raise Invalid(
                "The points of the points table ({field}) are a whole number from 0 to "
                "{most}, not {value}.",
                code="points_table_value",
                field=name,
                most=MAX_POINTS,
                value=str(value)[:20],
            )
    if wanted["points_win"] is not None and tournament.entrant_kind in ALONE:
        raise Invalid(
            "Players alone are ranked by their own points (juegos won, or places at a Mus "
            "francés table); a points table is for pairs and trios. Leave the points empty.",
            code="points_table_alone",
        )


def _check_field(tournament: Tournament, wanted: dict[str, Any]) -> None:
    minimum = wanted["min_entries"]
    if minimum is not None and (
        isinstance(minimum, bool) or not isinstance(minimum, int) or not 2 <= minimum <= MAX_PAIRS
    ):
        raise Invalid(
            "The minimum of entries is a whole number from 2 to {most}, not {value}; leave it "
            "empty for no minimum.",
            code="min_entries",
            most=MAX_PAIRS,
            value=str(minimum)[:20],
        )
    sizes = field_sizes_clean(wanted["field_sizes"])  # DrawError: 400
    wanted["field_sizes"] = sizes
    if minimum is not None and sizes and sizes[0] < minimum:
        raise Invalid(
            "A field of {size} is below the minimum of {minimum} entries; remove it or lower "
            "the minimum.",
            code="field_size_below_minimum",
            size=sizes[0],
            minimum=minimum,
        )
    if tournament.max_pairs is not None and sizes and sizes[-1] > tournament.max_pairs:
        raise Invalid(
            "A field of {size} is more than the maximum of {most} pairs; remove it or raise "
            "the maximum.",
            code="field_size_above_maximum",
            size=sizes[-1],
            most=tournament.max_pairs,
        )
    rules = format_rules(wanted["rules_by_entries"])  # DrawError: 400
    for rule in rules:
        playing = copy.copy(tournament)
        for name, value in rule["rules"].items():
            setattr(playing, name, value)
        tournament_rules(playing)  # the engine's word on each format (RuleSetError: 400)
    wanted["rules_by_entries"] = rules
