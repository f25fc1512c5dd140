"""The interpeñas' part of a peña's archive: the interpeñas it hosted.

Responsible for: the section ``interpenas`` of a peña's archive (format version 3,
tournaments.archive): the shape of its records and their references, reading them for an
export (``interpenas_export``: two queries) and creating them in an import
(``interpenas_import``), and ``register``, which adds the section to tournaments' archive when
Django starts (after the circuits' section: the leagues of peñas register both before their
own, seasons/leagues/teams/archive.py). The import runs inside tournaments' import transaction,
so anything it refuses refuses the whole archive: nothing is imported half.

What it carries: the interpeñas the peña hosted (their container tournament is the peña's, so
its boards, matches and pairs are in the archive), the other peña by slug and name (found or
created as a placeholder, as a visiting pair's peña), each board's pairs and match, the team
result each captain confirmed (remapped to the new match ids, so a confirmed interpeña stays
confirmed), and the league key. The captains are users and are not exported: the imported
interpeña has none (any organizer of a side confirms for it). The interpeñas the peña played
away travel in the archive of the peña that hosted them.

Must not: hold an interpeña rule (services.py, result.py), or check the archive's envelope
(tournaments.archive does).

Terms: interpeñas, tablero (board), capitán (captain), peña.
"""

from __future__ import annotations

from django.urls import reverse

from clubs.models import Club
from seasons.interpenas.models import Interpena, InterpenaBoard
from tournaments.archive import parse_date, parse_datetime, section_register
from tournaments.models import Round, Tournament
from tournaments.selectors.archive import SECTION_EXPORTERS, archived_name, rows_by
from tournaments.services.archive import (
    SECTION_IMPORTERS,
    ArchiveIds,
    archive_checked,
    archive_other_club,
    archive_value_refused,
)
from tournaments.services.base import User

#: the format version that added this section
SINCE = 3


def register() -> None:
    """Add the interpeñas to tournaments' archive (shape, export, import)."""
    section_register(
        "interpenas",
        INTERPENA_FIELDS,
        INTERPENA_CHILDREN,
        references=INTERPENA_REFERENCES,
        since=SINCE,
    )
    SECTION_EXPORTERS["interpenas"] = interpenas_export
    SECTION_IMPORTERS["interpenas"] = interpenas_import


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
    boards = rows_by(
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
            managed_url=reverse("interpenas:interpena", kwargs={"interpena_id": interpena.pk}),
        )
