"""What a tournament's bases declare beyond its rule set: the standings' points table and the
prizes across phases.

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

Must not: save the row or write the audit (the caller does), or compute standings.

Terms: bases (a tournament's published rules), puntos (points), partida (a match), no
presentada (walkover).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from config.errors import Invalid
from tournaments.draw.prizes import prize_to_dict, prizes_from_list
from tournaments.models import Tournament

#: the most points a line of the table may give (the column is a small integer)
MAX_POINTS = 99

#: the settings this module checks, as tournament_create and tournament_update take them
EVENT_FIELDS = ("points_win", "points_loss", "points_walkover_loss", "prizes")

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
