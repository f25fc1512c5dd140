"""The championships' part of a peña's archive: the championships it runs or is a centre of.

Responsible for: the section ``championships`` of a peña's archive (format version 5,
tournaments.archive): the shape of its records and their references, reading them for an
export (``championships_export``: five queries whatever their size) and creating them in an
import (``championships_import``), and ``register``, which adds them to tournaments' archive
when Django starts (ChampionshipsConfig.ready). The import runs inside tournaments' import
transaction, after the tournaments and the other sections, so anything it refuses refuses the
whole archive: nothing is imported half.

What a peña's archive carries, since a championship spans many peñas: every championship the
peña is a peña or a centre of, with its rules (its member changes on the day, public or
private), its peñas and centres by slug and name (a centre with its rank and own quota), its
stages with their quotas and deadlines, and its tournaments: those in the archive by their
archive id (``tournament``), every one by its peña's and its own slug (``club``, ``slug``),
with its stage (by order), its centre and the tournament it feeds (by slugs). Import: a
championship whose slug this instance does not have is created; one it has already takes the
archive's tournaments if the peña is one of its peñas or centres (its rules stay as they are
there), and is refused otherwise (409 ``archive_championship_exists``). Its other peñas and
centres are found by slug or created as placeholders; a tournament elsewhere is linked if this
instance holds it and left out otherwise. The qualified pairs are derived again at once from
the tournaments' standings (services.flow, ``register=False``: nothing is registered or
withdrawn in another tournament), as the qualifiers' quotas give them.

Must not: hold a championship's rule (services, the pure cores), or check the archive's
envelope (tournaments.archive does).

Terms: campeonato (championship), centro (centre), fase (stage), cupo (quota).
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q

from clubs.models import Club
from config.errors import Conflict, DomainError
from seasons.championships.models import Centre, Championship, Stage, StageTournament
from seasons.championships.services.championships import (
    CHECKS,
    STAGE_CHECKS,
    stage_consistent,
)
from seasons.championships.services.flow import stop_flow
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

#: the format version that added this section
SINCE = 5

FIELDS: dict[str, dict[str, str]] = {
    "championships": {
        "id": "int",
        "name": "str",
        "slug": "str",
        "region": "str",
        "season": "str",
        "is_public": "bool",
        "member_changes": "int",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "championship_clubs": {"slug": "str", "name": "str"},
    "centres": {"club": "str", "name": "str", "rank": "int?", "quota": "int?"},
    "stages": {
        "order": "int",
        "name": "str",
        "kind": "str",
        "quota_rule": "str",
        "quota_number": "int",
        "quota_minimum": "int",
        "quota_table": "list",
        "deadline": "date?",
    },
    "stage_tournaments": {
        "tournament": "int?",
        "club": "str",
        "slug": "str",
        "stage": "int",
        "centre": "str?",
        "feeds_club": "str?",
        "feeds_slug": "str?",
    },
}
CHILDREN = {"championships": ("championship_clubs", "centres", "stages", "stage_tournaments")}
REFERENCES = {"stage_tournaments": {"tournament": "tournaments"}}
RULES = ("name", "region", "season", "is_public", "member_changes")


def register() -> None:
    """Add the championships to tournaments' archive (shape, export, import)."""
    section_register("championships", FIELDS, CHILDREN, references=REFERENCES, since=SINCE)
    SECTION_EXPORTERS["championships"] = championships_export
    SECTION_IMPORTERS["championships"] = championships_import


# --- Export ------------------------------------------------------------------------------


def championships_export(*, club: Club, tournament_ids: list[int]) -> list[dict]:
    """The championships the peña is a peña or a centre of (five queries)."""
    own = set(tournament_ids)
    rows = list(
        Championship.objects.filter(Q(clubs=club) | Q(centres__club=club))
        .distinct()
        .order_by("id")
        .values(
            *(f for f in FIELDS["championships"] if f != "created_by"),
            created_by_shown=archived_name("created_by"),
        )
    )
    ids = [c["id"] for c in rows]
    clubs = rows_by(
        Championship.clubs.through.objects.filter(championship_id__in=ids)
        .order_by("club__slug")
        .values("championship_id", slug=F("club__slug"), name=F("club__name")),
        "championship_id",
    )
    centres = rows_by(
        Centre.objects.filter(championship_id__in=ids)
        .order_by("club__slug")
        .values(
            "championship_id", "rank", "quota", club_slug=F("club__slug"), name=F("club__name")
        ),
        "championship_id",
    )
    stages = rows_by(
        Stage.objects.filter(championship_id__in=ids)
        .order_by("order")
        .values("championship_id", *FIELDS["stages"]),
        "championship_id",
    )
    stops = rows_by(
        StageTournament.objects.filter(championship_id__in=ids)
        .order_by("stage__order", "tournament__starts_on", "tournament_id")
        .values(
            "championship_id",
            "tournament_id",
            club=F("tournament__club__slug"),
            slug=F("tournament__slug"),
            stage_order=F("stage__order"),
            centre_club=F("centre__club__slug"),
            feeds_club=F("feeds__tournament__club__slug"),
            feeds_slug=F("feeds__tournament__slug"),
        ),
        "championship_id",
    )
    for c in rows:
        c["created_by"] = c.pop("created_by_shown")
        c["championship_clubs"] = [{"slug": r["slug"], "name": r["name"]} for r in clubs[c["id"]]]
        c["centres"] = [
            {"club": r["club_slug"], "name": r["name"], "rank": r["rank"], "quota": r["quota"]}
            for r in centres[c["id"]]
        ]
        c["stages"] = stages[c["id"]]
        c["stage_tournaments"] = [
            {
                "tournament": s["tournament_id"] if s["tournament_id"] in own else None,
                "club": s["club"],
                "slug": s["slug"],
                "stage": s["stage_order"],
                "centre": s["centre_club"],
                "feeds_club": s["feeds_club"],
                "feeds_slug": s["feeds_slug"],
            }
            for s in stops[c["id"]]
        ]
    return rows


# --- Import ------------------------------------------------------------------------------


def _checked(checks: dict, row: dict, names: tuple[str, ...] | list[str], where: str) -> dict:
    """The values as the championships' own services check them (an archive edited by hand
    cannot store a quota the flow would refuse)."""
    values: dict[str, Any] = {}
    for name in names:
        try:
            values[name] = checks[name](row[name])
        except DomainError:
            raise archive_value_refused(where, name) from None
    return values


def championships_import(*, club: Club, rows: list[dict], ids: ArchiveIds, actor: User) -> None:
    """Create (or join) the archive's championships, inside the import's transaction."""
    for n, row in enumerate(rows):
        where = f"championships[{n}]"
        championship = Championship.objects.select_for_update().filter(slug=row["slug"]).first()
        if championship is not None and not (
            championship.clubs.filter(pk=club.pk).exists()
            or championship.centres.filter(club=club).exists()
        ):
            raise Conflict(
                "There is already a championship '{slug}' here, and {club_name} is none of its "
                "peñas or centres; nothing was imported.",
                code="archive_championship_exists",
                slug=str(row["slug"])[:80],
                club_name=club.name,
            )
        if championship is None:
            rules = _checked(CHECKS, row, RULES, where)
            championship = archive_checked(
                Championship(slug=row["slug"], created_by_name=row["created_by"] or "", **rules),
                where,
            )
            championship.save()
            Championship.objects.filter(pk=championship.pk).update(
                created_at=parse_datetime(row["created_at"])
            )
        others = [
            archive_other_club(
                slug=c["slug"], name=c["name"], where=f"{where}.championship_clubs[{k}]"
            )
            for k, c in enumerate(row["championship_clubs"])
        ]
        championship.clubs.add(*others)
        centres = {c.club.slug: c for c in championship.centres.select_related("club")}
        for k, c in enumerate(row["centres"]):
            at = f"{where}.centres[{k}]"
            if c["club"] in centres:
                continue
            centre_club = archive_other_club(slug=c["club"], name=c["name"], where=at)
            centre = archive_checked(
                Centre(
                    championship=championship, club=centre_club, rank=c["rank"], quota=c["quota"]
                ),
                at,
            )
            centre.save()
            centres[centre_club.slug] = centre
        stages = {s.order: s for s in championship.stages.all()}
        for k, s in enumerate(row["stages"]):
            at = f"{where}.stages[{k}]"
            if s["order"] in stages:
                continue
            values = _checked(STAGE_CHECKS, s, list(STAGE_CHECKS), at)
            if s["kind"] not in Stage.Kind.values:
                raise archive_value_refused(at, "kind")
            stage = Stage(championship=championship, order=s["order"], kind=s["kind"], **values)
            try:
                stage_consistent(stage)
            except DomainError:
                raise archive_value_refused(at, "quota_rule") from None
            archive_checked(stage, at).save()
            stages[stage.order] = stage
        _stops_import(championship, row, ids, where, stages, centres)


def _stops_import(championship, row, ids, where, stages, centres) -> None:
    created: list[StageTournament] = []
    by_slugs: dict[tuple[str, str], StageTournament] = {
        (s.tournament.club.slug, s.tournament.slug): s
        for s in StageTournament.objects.filter(championship=championship).select_related(
            "tournament__club"
        )
    }
    for k, s in enumerate(row["stage_tournaments"]):
        at = f"{where}.stage_tournaments[{k}]"
        tournament = ids.refs("stage_tournaments", s, at)["tournament"]
        if tournament is None:
            tournament = Tournament.objects.filter(club__slug=s["club"], slug=s["slug"]).first()
        if tournament is None or StageTournament.objects.filter(tournament=tournament).exists():
            continue
        stage = stages.get(s["stage"])
        if stage is None:
            raise archive_value_refused(at, "stage")
        centre = centres.get(s["centre"]) if s["centre"] else None
        if s["centre"] and centre is None:
            raise archive_value_refused(at, "centre")
        stop = StageTournament.objects.create(
            championship=championship, stage=stage, tournament=tournament, centre=centre
        )
        by_slugs[(tournament.club.slug, tournament.slug)] = stop
        created.append((stop, s))
    for stop, s in created:
        if s["feeds_club"] and s["feeds_slug"]:
            feeds = by_slugs.get((s["feeds_club"], s["feeds_slug"]))
            if feeds is not None:
                StageTournament.objects.filter(pk=stop.pk).update(feeds=feeds)
    for stop, _ in sorted(created, key=lambda item: item[0].stage.order):
        stop_flow(stop=stop, register=False)
