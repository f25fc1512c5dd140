"""The circuits' part of a peña's archive: the circuits it takes part in and the interpeñas it
hosted.

Responsible for: the sections ``circuits`` and ``interpenas`` of a peña's archive (format
version 3, tournaments.archive): the shape of their records and their references, reading them
for an export (``circuits_export``, ``interpenas_export``: a fixed number of queries) and
creating them in an import (``circuits_import``, ``interpenas_import``), and ``register``,
which adds them to tournaments' archive when Django starts (CircuitsConfig.ready). The imports
run inside tournaments' import transaction, after the tournaments and the leagues, so anything
they refuse refuses the whole archive: nothing is imported half.

What a peña's archive carries, since a circuit and an interpeña span several peñas:

- **circuits**: every circuit the peña belongs to, with its rules (points table,
  participation, best N, tiebreaks, public or private), all its peñas by slug and name, its
  tournaments that are in the archive (the peña's own: ``tournaments``, archive ids) and the
  others by their peña's and their own slug (``stops_elsewhere``). Import: a circuit whose
  slug this instance does not have is created; one it has already joins the archive's
  tournaments if the peña is one of its peñas (its rules stay as they are there), and is
  refused otherwise (409 ``archive_circuit_exists``). Its other peñas are found by slug or
  created as placeholders (name and slug, no organizers: as a visiting pair's peña); a
  tournament elsewhere is linked if this instance holds it, and left out otherwise (it joins
  when an organizer adds it). The ranking is rebuilt at once: with the same tournaments, it
  is the same ranking. Named organizers are users, and users are not exported.
- **interpenas**: the interpeñas the peña hosted (their container tournament is the peña's,
  so its boards, matches and pairs are in the archive), the other peña by slug and name (found
  or created as a placeholder, as above), each board's pairs and match, the team result each
  captain confirmed (remapped to the new match ids, so a confirmed interpeña stays
  confirmed), and the league key. The captains are users and are not exported: the imported
  interpeña has none (any organizer of a side confirms for it). The interpeñas the peña
  played away travel in the archive of the peña that hosted them.

Must not: hold a circuit or interpeña rule (services.py, interpenas.py, ranking.py), or check
the archive's envelope (tournaments.archive does).

Terms: circuito, interpeñas, tablero (board), capitán (captain), peña.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import F
from django.urls import reverse

from clubs.circuits.models import Circuit, CircuitTournament, Interpena, InterpenaBoard
from clubs.circuits.services import CHECKS, circuit_ranking_refresh
from clubs.models import Club
from config.errors import Conflict, DomainError
from tournaments.archive import parse_date, parse_datetime, section_register
from tournaments.models import Round, Tournament
from tournaments.selectors.archive import SECTION_EXPORTERS, archived_name
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

INTERPENA_FIELDS: dict[str, dict[str, str]] = {
    "interpenas": {
        "id": "int",
        "name": "str",
        "venue": "str",
        "played_on": "date",
        "boards": "int",
        "is_public": "bool",
        "status": "str",
        "tournament": "int",
        "round": "int?",
        "away_club": "str",
        "away_club_name": "str",
        "home_confirmed": "str",
        "away_confirmed": "str",
        "confirmed_at": "datetime?",
        "league_key": "str",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "interpena_boards": {
        "number": "int",
        "home_pair": "int?",
        "away_pair": "int?",
        "match": "int?",
    },
}
INTERPENA_CHILDREN = {"interpenas": ("interpena_boards",)}
INTERPENA_REFERENCES = {
    "interpenas": {"tournament": "tournaments"},
    "interpena_boards": {"home_pair": "pairs", "away_pair": "pairs", "match": "matches"},
}


def register() -> None:
    """Add the circuits and the interpeñas to tournaments' archive (shape, export, import).
    The interpeñas import after the circuits, both after the leagues."""
    section_register(
        "circuits",
        CIRCUIT_FIELDS,
        CIRCUIT_CHILDREN,
        references=CIRCUIT_REFERENCES,
        since=SINCE,
    )
    section_register(
        "interpenas",
        INTERPENA_FIELDS,
        INTERPENA_CHILDREN,
        references=INTERPENA_REFERENCES,
        since=SINCE,
    )
    SECTION_EXPORTERS["circuits"] = circuits_export
    SECTION_EXPORTERS["interpenas"] = interpenas_export
    SECTION_IMPORTERS["circuits"] = circuits_import
    SECTION_IMPORTERS["interpenas"] = interpenas_import


def _by(rows, key: str) -> dict[Any, list[dict]]:
    out: dict[Any, list[dict]] = defaultdict(list)
    for row in rows:
        out[row[key]].append(row)
    return out


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
    clubs = _by(
        Circuit.clubs.through.objects.filter(circuit_id__in=ids)
        .order_by("club__slug")
        .values("circuit_id", slug=F("club__slug"), name=F("club__name")),
        "circuit_id",
    )
    stops = _by(
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


def interpenas_export(*, club: Club, tournament_ids: list[int]) -> list[dict]:
    """The interpeñas the peña hosted, with their boards (two queries)."""
    interpenas = list(
        Interpena.objects.filter(home_club=club, tournament_id__in=tournament_ids)
        .order_by("played_on", "id")
        .values(
            *(
                f
                for f in INTERPENA_FIELDS["interpenas"]
                if f not in ("tournament", "round", "away_club", "away_club_name", "created_by")
            ),
            "tournament_id",
            "round__number",
            "away_club__slug",
            "away_club__name",
            created_by_shown=archived_name("created_by"),
        )
    )
    boards = _by(
        InterpenaBoard.objects.filter(interpena_id__in=[i["id"] for i in interpenas])
        .order_by("number")
        .values("interpena_id", "number", "home_pair_id", "away_pair_id", "match_id"),
        "interpena_id",
    )
    for i in interpenas:
        i.update(
            tournament=i.pop("tournament_id"),
            round=i.pop("round__number"),
            away_club=i.pop("away_club__slug"),
            away_club_name=i.pop("away_club__name"),
            created_by=i.pop("created_by_shown"),
        )
        i["interpena_boards"] = [
            {
                "number": b["number"],
                "home_pair": b["home_pair_id"],
                "away_pair": b["away_pair_id"],
                "match": b["match_id"],
            }
            for b in boards[i["id"]]
        ]
    return interpenas


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


def _signature(value: str, ids: ArchiveIds, where: str, field: str) -> str:
    """A captain's confirmed signature (``"<match>.<version> …"``) with the new match ids."""
    if not value:
        return ""
    parts = []
    for part in value.split():
        match, _, version = part.partition(".")
        if not (match.isdigit() and version.isdigit()):
            raise archive_value_refused(where, field)
        new = ids.pk("matches", int(match), f"{where}.{field}") if int(match) else 0
        parts.append(f"{new}.{version}")
    return " ".join(parts)


def interpenas_import(*, club: Club, rows: list[dict], ids: ArchiveIds, actor: User) -> None:
    """Create the interpeñas the peña hosted, inside the import's transaction."""
    for n, row in enumerate(rows):
        where = f"interpenas[{n}]"
        tournament = ids.refs("interpenas", row, where)["tournament"]
        away = archive_other_club(
            slug=row["away_club"], name=row["away_club_name"], where=f"{where}.away_club"
        )
        if away.pk == club.pk:
            raise archive_value_refused(where, "away_club")
        rnd = None
        if row["round"] is not None:
            rnd = Round.objects.filter(phase__tournament=tournament, number=row["round"]).first()
            if rnd is None:
                raise archive_value_refused(where, "round")
        interpena = Interpena(
            home_club=club,
            away_club=away,
            tournament=tournament,
            round=rnd,
            name=row["name"],
            venue=row["venue"],
            played_on=parse_date(row["played_on"]),
            boards=row["boards"],
            is_public=row["is_public"],
            status=row["status"],
            home_confirmed=_signature(row["home_confirmed"], ids, where, "home_confirmed"),
            away_confirmed=_signature(row["away_confirmed"], ids, where, "away_confirmed"),
            confirmed_at=parse_datetime(row["confirmed_at"]),
            league_key=row["league_key"],
            created_by_name=row["created_by"] or "",
        )
        archive_checked(interpena, where)
        interpena.save()
        Interpena.objects.filter(pk=interpena.pk).update(
            created_at=parse_datetime(row["created_at"])
        )
        boards = []
        for k, b in enumerate(row["interpena_boards"]):
            at = f"{where}.interpena_boards[{k}]"
            board = InterpenaBoard(
                interpena=interpena, number=b["number"], **ids.refs("interpena_boards", b, at)
            )
            match = board.match
            if match is not None and match.round_id != (rnd.pk if rnd else None):
                raise archive_value_refused(at, "match")
            boards.append(archive_checked(board, at))
        InterpenaBoard.objects.bulk_create(boards)
        # its container is managed by the interpeña again (kept out of the lists, its desk
        # linking to the interpeña's page), as interpena_create leaves it
        Tournament.objects.filter(pk=tournament.pk).update(
            managed_by=Tournament.ManagedBy.INTERPENA,
            managed_label=interpena.name,
            managed_url=reverse("circuits:interpena", kwargs={"interpena_id": interpena.pk}),
        )
