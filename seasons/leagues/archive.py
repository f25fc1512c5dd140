"""The leagues' part of a peña's archive: its leagues, divisions, calendars and postponements.

Responsible for: the section ``leagues`` of a peña's archive (tournaments.archive): the shape
of its records, reading them for an export (``leagues_export``, one query per kind of row) and
creating them in an import (``leagues_import``), and ``register``, which adds all three to
tournaments' archive when Django starts (LeaguesConfig.ready). A league sits above tournaments
(each division is a tournament of the peña), so tournaments never import this module: they
call what it registered. The import runs inside tournaments' import transaction, after the
tournaments, so a division points at its tournament, phase and entries as the archive created
them, and a refused league refuses the whole archive.

In the archive, a league is::

    {"id", "name", "slug", "season", "kind", "legs", "is_public", "preset_name", "points_win",
     "points_loss", "points_walkover_loss", "tiebreaks", "previous", "created_by",
     "created_at", "jornadas": [{"number", "date", "status"}],
     "divisions": [{"name", "level", "promote", "relegate", "tournament", "phase", "schedule",
                    "resting", "players", "postponements": [{"match", "deadline", "reason",
                    "outcome", "decided_at", "created_by", "created_at"}]}]}

``tournament``, ``phase``, ``match``, the entry ids of ``schedule`` and ``resting`` (player ids
in an individual league's ``resting``), ``players`` and ``previous`` are the archive's ids. The
league's standings are not stored: they are computed from its matches, so an imported league
shows the same standings. A postponement decided after its deadline (a walkover, a double
loss, or played) has its match confirmed: an archive that says otherwise is refused
(``archive_inconsistent``).

Must not: hold a league rule (services.py, table.py), or check the archive's envelope
(tournaments.archive does).

Terms: liga (league), temporada (season), división, jornada, descanso, aplazada (postponed).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from clubs.models import Club
from config.errors import Invalid
from seasons.leagues.models import Division, Jornada, League, Postponement
from tournaments.archive import parse_date, parse_datetime, section_register
from tournaments.models import Match, Tournament
from tournaments.selectors.archive import SECTION_EXPORTERS, archived_name, rows_by
from tournaments.services.archive import (
    SECTION_IMPORTERS,
    ArchiveIds,
    archive_checked,
    archive_inconsistent,
    archive_value_refused,
)
from tournaments.services.base import User

SECTION = "leagues"

FIELDS: dict[str, dict[str, str]] = {
    "leagues": {
        "id": "int",
        "name": "str",
        "slug": "str",
        "season": "str",
        "kind": "str",
        "legs": "int",
        "is_public": "bool",
        "preset_name": "str",
        "points_win": "int",
        "points_loss": "int",
        "points_walkover_loss": "int",
        "tiebreaks": "list",
        "previous": "int?",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "jornadas": {"number": "int", "date": "date", "status": "str"},
    "divisions": {
        "name": "str",
        "level": "int",
        "promote": "int",
        "relegate": "int",
        "tournament": "int",
        "phase": "int",
        "schedule": "list",
        "resting": "json",
        "players": "list",
    },
    "postponements": {
        "match": "int",
        "deadline": "date",
        "reason": "str",
        "outcome": "str",
        "decided_at": "datetime?",
        "created_by": "str?",
        "created_at": "datetime",
    },
}

CHILDREN = {"leagues": ("jornadas", "divisions"), "divisions": ("postponements",)}

#: the references the import resolves through tournaments' one table (ArchiveIds.refs); a
#: division's ``resting`` points at entries or players by the league's kind, so it is mapped
#: here
REFERENCES = {
    "divisions": {
        "tournament": "tournaments",
        "phase": "phases",
        "schedule": "entries[]",
        "players": "players[]",
    },
    "postponements": {"match": "matches"},
}


def register() -> None:
    """Add the leagues to tournaments' archive (its shape, export and import)."""
    section_register(SECTION, FIELDS, CHILDREN, references=REFERENCES, since=2)
    SECTION_EXPORTERS[SECTION] = leagues_export
    SECTION_IMPORTERS[SECTION] = leagues_import


# --- Export ------------------------------------------------------------------------------------


def leagues_export(*, club: Club, tournament_ids: list[int]) -> list[dict]:
    """The peña's leagues as the archive's rows (five queries whatever their size)."""
    leagues = list(
        League.objects.filter(club=club)
        .order_by("id")
        .values(
            *(f for f in FIELDS["leagues"] if f not in ("previous", "created_by")),
            "previous_id",
            created_by_shown=archived_name("created_by"),
        )
    )
    league_ids = [row["id"] for row in leagues]
    jornadas = rows_by(
        Jornada.objects.filter(league_id__in=league_ids).order_by("number").values(), "league_id"
    )
    divisions = list(
        Division.objects.filter(league_id__in=league_ids).order_by("level", "id").values()
    )
    members = rows_by(
        Division.players.through.objects.filter(division__league_id__in=league_ids)
        .order_by("player_id")
        .values("division_id", "player_id"),
        "division_id",
    )
    postponements = rows_by(
        Postponement.objects.filter(division__league_id__in=league_ids)
        .order_by("id")
        .values(
            *FIELDS["postponements"].keys() - {"match", "created_by"},
            "division_id",
            "match_id",
            created_by_shown=archived_name("created_by"),
        ),
        "division_id",
    )
    of_league = rows_by(divisions, "league_id")
    for d in divisions:
        d.update(tournament=d["tournament_id"], phase=d["phase_id"])
        d["players"] = [m["player_id"] for m in members.get(d["id"], [])]
        d["postponements"] = [
            {**p, "match": p["match_id"], "created_by": p["created_by_shown"]}
            for p in postponements.get(d["id"], [])
        ]
    for row in leagues:
        row.update(previous=row["previous_id"], created_by=row["created_by_shown"])
        row["jornadas"] = jornadas.get(row["id"], [])
        row["divisions"] = of_league.get(row["id"], [])
    return leagues


# --- Import ------------------------------------------------------------------------------------


def _remap(values: Any, ids: ArchiveIds, kind: str, where: str) -> list[int]:
    if not isinstance(values, list):
        raise archive_value_refused(where, where.rsplit(".", 1)[-1])
    return [ids.pk(kind, ref, where) for ref in values]


def leagues_import(*, club: Club, rows: list[dict], ids: ArchiveIds, actor: User) -> None:
    """Create the archive's leagues in ``club`` (inside the import's transaction)."""
    leagues: dict[int, League] = {}
    for n, row in enumerate(rows):
        where = f"leagues[{n}]"
        previous = None
        if row["previous"] is not None:
            previous = leagues.get(row["previous"])
            if previous is None:
                raise archive_value_refused(where, "previous")
        league = League(
            club=club,
            previous=previous,
            created_by_name=row["created_by"] or "",
            **{f: row[f] for f in FIELDS["leagues"] if f not in ("id", "previous", "created_by")},
        )
        archive_checked(league, where)
        league.save()
        League.objects.filter(pk=league.pk).update(created_at=parse_datetime(row["created_at"]))
        leagues[row["id"]] = league
        jornadas = []
        for j_n, j in enumerate(row["jornadas"]):
            jornada = Jornada(
                league=league, number=j["number"], date=parse_date(j["date"]), status=j["status"]
            )
            jornadas.append(archive_checked(jornada, f"{where}.jornadas[{j_n}]"))
        Jornada.objects.bulk_create(jornadas)
        for d_n, d in enumerate(row["divisions"]):
            _division(d, f"{where}.divisions[{d_n}]", league, ids)


def _division(d: dict, where: str, league: League, ids: ArchiveIds) -> None:
    refs = ids.refs("divisions", d, where)
    tournament, phase = refs["tournament"], refs["phase"]
    if phase.tournament_id != tournament.pk:
        raise archive_value_refused(where, "phase")
    resting = d["resting"]
    if not isinstance(resting, dict):
        raise archive_value_refused(where, "resting")
    rest_kind = "players" if league.kind == League.Kind.INDIVIDUAL else "entries"
    division = Division(
        league=league,
        name=d["name"],
        level=d["level"],
        promote=d["promote"],
        relegate=d["relegate"],
        tournament=tournament,
        phase=phase,
        schedule=refs["schedule"],
        resting={
            str(number): _remap(rested, ids, rest_kind, f"{where}.resting")
            for number, rested in resting.items()
        },
    )
    archive_checked(division, where)
    division.save()
    # the division's tournament is managed by its league again, as division_create leaves it
    Tournament.objects.filter(pk=tournament.pk).update(
        managed_by=Tournament.ManagedBy.LEAGUE,
        managed_label=f"{league.name} {league.season} · {division.name}",
        managed_url=reverse("leagues:organizer-league", kwargs={"league_id": league.pk}),
    )
    division.players.set(refs["players"])
    postponements = []
    for n, p in enumerate(d["postponements"]):
        at = f"{where}.postponements[{n}]"
        postponement = Postponement(
            division=division,
            **ids.refs("postponements", p, at),
            deadline=parse_date(p["deadline"]),
            reason=p["reason"],
            outcome=p["outcome"],
            decided_at=parse_datetime(p["decided_at"]),
            created_by_name=p["created_by"] or "",
        )
        if postponement.outcome and postponement.match.status != Match.Status.CONFIRMED:
            # decided after its deadline: a walkover or a double loss confirms the match
            raise archive_inconsistent(
                Invalid(
                    "at {where}, the postponed match is decided ({outcome}), but it has no "
                    "confirmed result",
                    code="archive_postponement_unconfirmed",
                    where=at,
                    outcome=str(postponement.outcome)[:20],
                ),
                where=at,
            )
        postponements.append(archive_checked(postponement, at))
    Postponement.objects.bulk_create(postponements)
    for postponement, p in zip(postponements, d["postponements"], strict=True):
        Postponement.objects.filter(pk=postponement.pk).update(
            created_at=parse_datetime(p["created_at"])
        )
