"""The circuits' part of a peña's archive: the circuits it takes part in.

Responsible for: the section ``circuits`` of a peña's archive (format version 3,
tournaments.archive): the shape of its records and their references, reading them for an export
(``circuits_export``: a fixed number of queries) and creating them in an import
(``circuits_import``), and ``register``, which adds them to tournaments' archive when Django
starts (CircuitsConfig.ready). The import runs inside tournaments' import transaction, after
the tournaments and the leagues, so anything it refuses refuses the whole archive: nothing is
imported half.

What a peña's archive carries, since a circuit spans several peñas: every circuit the peña
belongs to, with its rules (points table, participation, best N, tiebreaks, public or
private), all its peñas by slug and name, its tournaments that are in the archive (the peña's
own: ``tournaments``, archive ids) and the others by their peña's and their own slug
(``stops_elsewhere``). Import: a circuit whose slug this instance does not have is created; one
it has already joins the archive's tournaments if the peña is one of its peñas (its rules stay
as they are there), and is refused otherwise (409 ``archive_circuit_exists``). Its other peñas
are found by slug or created as placeholders (name and slug, no organizers: as a visiting
pair's peña); a tournament elsewhere is linked if this instance holds it, and left out
otherwise (it joins when an organizer adds it). The ranking is rebuilt at once: with the same
tournaments, it is the same ranking. Named organizers are users, and users are not exported.

Must not: hold a circuit's rule (services.py, ranking.py), or check the archive's envelope
(tournaments.archive does).

Terms: circuito, puesto (place), peña.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F

from clubs.models import Club
from config.errors import Conflict, DomainError
from seasons.circuits.models import Circuit, CircuitTournament
from seasons.circuits.services import CHECKS, circuit_ranking_refresh
from tournaments.archive import parse_datetime, section_register
from tournaments.models import Tournament
from tournaments.selectors.archive import SECTION_EXPORTERS, archived_name, rows_by
from tournaments.services.archive import (
    SECTION_IMPORTERS,
    ArchiveIds,
    archive_checked,
    archive_other_club,
    archive_value_refused,
)
from tournaments.services.base import User

#: the format version that added these sections
SINCE = 3

CIRCUIT_FIELDS: dict[str, dict[str, str]] = {
    "circuits": {
        "id": "int",
        "name": "str",
        "slug": "str",
        "region": "str",
        "season": "str",
        "points_table": "list",
        "participation_points": "int",
        "best_results": "int?",
        "tiebreaks": "list",
        "is_public": "bool",
        "tournaments": "list",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "circuit_clubs": {"slug": "str", "name": "str"},
    "stops_elsewhere": {"club": "str", "tournament": "str"},
}
CIRCUIT_CHILDREN = {"circuits": ("circuit_clubs", "stops_elsewhere")}
CIRCUIT_REFERENCES = {"circuits": {"tournaments": "tournaments[]"}}


def register() -> None:
    """Add the circuits to tournaments' archive (shape, export, import)."""
    section_register(
        "circuits",
        CIRCUIT_FIELDS,
        CIRCUIT_CHILDREN,
        references=CIRCUIT_REFERENCES,
        since=SINCE,
    )
    SECTION_EXPORTERS["circuits"] = circuits_export
    SECTION_IMPORTERS["circuits"] = circuits_import


# --- Export ------------------------------------------------------------------------------


def circuits_export(*, club: Club, tournament_ids: list[int]) -> list[dict]:
    """The circuits the peña belongs to (three queries whatever their size)."""
    own = set(tournament_ids)
    circuits = list(
        Circuit.objects.filter(clubs=club)
        .order_by("id")
        .values(
            *(f for f in CIRCUIT_FIELDS["circuits"] if f not in ("tournaments", "created_by")),
            created_by_shown=archived_name("created_by"),
        )
    )
    ids = [c["id"] for c in circuits]
    clubs = rows_by(
        Circuit.clubs.through.objects.filter(circuit_id__in=ids)
        .order_by("club__slug")
        .values("circuit_id", slug=F("club__slug"), name=F("club__name")),
        "circuit_id",
    )
    stops = rows_by(
        CircuitTournament.objects.filter(circuit_id__in=ids)
        .order_by("tournament__starts_on", "tournament_id")
        .values("circuit_id", "tournament_id", "tournament__slug", "tournament__club__slug"),
        "circuit_id",
    )
    for c in circuits:
        c["created_by"] = c.pop("created_by_shown")
        c["circuit_clubs"] = [{"slug": r["slug"], "name": r["name"]} for r in clubs[c["id"]]]
        mine = [s for s in stops[c["id"]] if s["tournament_id"] in own]
        c["tournaments"] = [s["tournament_id"] for s in mine]
        c["stops_elsewhere"] = [
            {"club": s["tournament__club__slug"], "tournament": s["tournament__slug"]}
            for s in stops[c["id"]]
            if s["tournament_id"] not in own
        ]
    return circuits


# --- Import ------------------------------------------------------------------------------


def _rules(row: dict, where: str) -> dict[str, Any]:
    """The circuit's rules as its own services check them (an archive edited by hand cannot
    store a points table the ranking would refuse)."""
    values = {}
    for name in CHECKS:
        try:
            values[name] = CHECKS[name](row[name])
        except DomainError:
            raise archive_value_refused(where, name) from None
    return values


def circuits_import(*, club: Club, rows: list[dict], ids: ArchiveIds, actor: User) -> None:
    """Create (or join) the archive's circuits, inside the import's transaction."""
    for n, row in enumerate(rows):
        where = f"circuits[{n}]"
        stops = ids.refs("circuits", row, where)["tournaments"]
        rules = _rules(row, where)
        circuit = Circuit.objects.select_for_update().filter(slug=row["slug"]).first()
        if circuit is not None and not circuit.clubs.filter(pk=club.pk).exists():
            raise Conflict(
                "There is already a circuit '{slug}' here, and {club_name} is not one of its "
                "peñas; nothing was imported.",
                code="archive_circuit_exists",
                slug=str(row["slug"])[:80],
                club_name=club.name,
            )
        if circuit is None:
            circuit = archive_checked(
                Circuit(slug=row["slug"], created_by_name=row["created_by"] or "", **rules), where
            )
            circuit.save()
            Circuit.objects.filter(pk=circuit.pk).update(
                created_at=parse_datetime(row["created_at"])
            )
        others = [
            archive_other_club(slug=c["slug"], name=c["name"], where=f"{where}.circuit_clubs[{k}]")
            for k, c in enumerate(row["circuit_clubs"])
        ]
        circuit.clubs.add(club, *others)
        for k, stop in enumerate(row["stops_elsewhere"]):
            found = Tournament.objects.filter(
                club__slug=stop["club"], slug=stop["tournament"]
            ).first()
            if found is not None:
                stops.append(found.pk)
            elif stop["club"] == club.slug:
                raise archive_value_refused(f"{where}.stops_elsewhere[{k}]", "club")
        have = set(
            CircuitTournament.objects.filter(circuit=circuit).values_list(
                "tournament_id", flat=True
            )
        )
        CircuitTournament.objects.bulk_create(
            [
                CircuitTournament(circuit=circuit, tournament_id=pk)
                for pk in dict.fromkeys(stops)
                if pk not in have
            ]
        )
        circuit_ranking_refresh(circuit=circuit)
