"""The leagues of peñas in a peña's archive: the leagues it runs, their peñas, calendar and
fixtures.

Responsible for: the section ``team_leagues`` of a peña's archive (format version 4,
tournaments.archive): the shape of its records and their references, reading them for an
export (``team_leagues_export``: four queries whatever their size) and creating them in an
import (``team_leagues_import``), and ``register``, which adds them to tournaments' archive
when Django starts (through seasons.leagues.archive.register). The import runs inside
tournaments' import transaction after the interpeñas (register makes sure the circuits'
sections are registered first), so a fixture finds the interpeña the archive created, and
anything refused refuses the whole archive: nothing is imported half.

In the archive, a league of peñas is::

    {"id", "name", "slug", "season", "legs", "boards", "is_public", "preset_name",
     "points_win", "points_draw", "points_loss", "points_walkover_loss", "tiebreaks",
     "created_by", "created_at",
     "team_league_clubs": [{"slug", "name"}],        # the peñas, in the schedule's order
     "team_jornadas": [{"number", "date", "resting",  # resting: a peña's slug or null
        "team_fixtures": [{"number", "home_club", "away_club", "interpena_tournament",
                           "interpena_elsewhere", "postponed_to", "decision", "decided_at"}]}]}

- The peñas go by slug and name: one this instance has is found by its slug, an absent one is
  created as a placeholder (name and slug, no organizers), as the interpeñas' rival peña is.
- A fixture played at the peña's home points at its interpeña through the archive id of the
  interpeña's tournament (``interpena_tournament``, remapped through tournaments.archive
  REFERENCES like every id; the interpeña is one to one with that tournament, which the
  archive carries with its boards and matches). The import links the fixture to the
  interpeña the ``interpenas`` section created for that tournament and gives it the new
  league's key, so its confirmed team result counts again: the same standings.
- A fixture hosted by another peña: its interpeña is that peña's and travels in that peña's
  archive; the fixture names it by the host's and the tournament's slugs
  (``interpena_elsewhere``: ``{"club", "tournament"}``). The import links it if this
  instance holds that interpeña (and no other fixture has it), and leaves the fixture not
  opened otherwise (its home peña opens it again).
- Postponements (``postponed_to``) and the organizers' decisions (walkover, double loss, with
  ``decided_at``) are kept. The standings are not stored: they are computed from the fixtures.

Must not: hold a league rule (team_services.py, table.py), or check the archive's envelope
(tournaments.archive does).

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, descanso (rest),
aplazada (postponed), no presentada (walkover), doble derrota (double loss).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from clubs.models import Club
from seasons.interpenas.models import Interpena
from seasons.leagues import table
from seasons.leagues.models import TeamFixture, TeamJornada, TeamLeague
from tournaments.archive import parse_date, parse_datetime, section_register
from tournaments.selectors.archive import SECTION_EXPORTERS, archived_name
from tournaments.services.archive import (
    SECTION_IMPORTERS,
    ArchiveIds,
    archive_checked,
    archive_other_club,
    archive_value_refused,
)
from tournaments.services.base import User

SECTION = "team_leagues"

#: the format version that added this section
SINCE = 4

FIELDS: dict[str, dict[str, str]] = {
    "team_leagues": {
        "id": "int",
        "name": "str",
        "slug": "str",
        "season": "str",
        "legs": "int",
        "boards": "int",
        "is_public": "bool",
        "preset_name": "str",
        "points_win": "int",
        "points_draw": "int",
        "points_loss": "int",
        "points_walkover_loss": "int",
        "tiebreaks": "list",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "team_league_clubs": {"slug": "str", "name": "str"},
    "team_jornadas": {"number": "int", "date": "date", "resting": "str?"},
    "team_fixtures": {
        "number": "int",
        "home_club": "str",
        "away_club": "str",
        "interpena_tournament": "int?",
        "interpena_elsewhere": "json",
        "postponed_to": "date?",
        "decision": "str",
        "decided_at": "datetime?",
    },
}

CHILDREN = {
    "team_leagues": ("team_league_clubs", "team_jornadas"),
    "team_jornadas": ("team_fixtures",),
}

#: the ids the import resolves through tournaments' one table (ArchiveIds.refs): a fixture's
#: interpeña by its tournament (the peñas go by slug, not by id)
REFERENCES = {"team_fixtures": {"interpena_tournament": "tournaments"}}

_LEAGUE_COLUMNS = [f for f in FIELDS["team_leagues"] if f != "created_by"]


def register() -> None:
    """Add the leagues of peñas to tournaments' archive (shape, export, import), after the
    interpeñas they point at (registering the circuits' and the interpeñas' sections first if
    they are not yet: that registration is idempotent, and keeps the archive's sections in the
    order they have always had: leagues, circuits, interpeñas, leagues of peñas)."""
    from seasons.circuits.archive import register as circuits_register
    from seasons.interpenas.archive import register as interpenas_register

    circuits_register()
    interpenas_register()
    section_register(SECTION, FIELDS, CHILDREN, references=REFERENCES, since=SINCE)
    SECTION_EXPORTERS[SECTION] = team_leagues_export
    SECTION_IMPORTERS[SECTION] = team_leagues_import


# --- Export ------------------------------------------------------------------------------------


def team_leagues_export(*, club: Club, tournament_ids: list[int]) -> list[dict]:
    """The leagues of peñas ``club`` runs (four queries whatever their size)."""
    own = set(tournament_ids)
    leagues = list(
        TeamLeague.objects.filter(club=club)
        .order_by("id")
        .values(*_LEAGUE_COLUMNS, "schedule", created_by_shown=archived_name("created_by"))
    )
    ids = [row["id"] for row in leagues]
    clubs = {
        c["id"]: c
        for c in Club.objects.filter(
            pk__in={pk for row in leagues for pk in row["schedule"] or []}
        ).values("id", "slug", "name")
    }
    jornadas: dict[int, list[dict]] = defaultdict(list)
    for j in (
        TeamJornada.objects.filter(league_id__in=ids)
        .order_by("number")
        .values("id", "league_id", "number", "date", "resting__slug")
    ):
        jornadas[j["league_id"]].append(j)
    fixtures: dict[int, list[dict]] = defaultdict(list)
    for f in (
        TeamFixture.objects.filter(jornada__league_id__in=ids)
        .order_by("number")
        .values(
            "jornada_id",
            "number",
            "home_club__slug",
            "away_club__slug",
            "interpena_id",
            "interpena__home_club_id",
            "interpena__tournament_id",
            "interpena__tournament__slug",
            "interpena__tournament__club__slug",
            "postponed_to",
            "decision",
            "decided_at",
        )
    ):
        fixtures[f["jornada_id"]].append(f)
    out = []
    for row in leagues:
        league = {f: row[f] for f in _LEAGUE_COLUMNS}
        league["created_by"] = row["created_by_shown"]
        league["team_league_clubs"] = [
            {"slug": clubs[pk]["slug"], "name": clubs[pk]["name"]}
            for pk in row["schedule"] or []
            if pk in clubs
        ]
        league["team_jornadas"] = [
            {
                "number": j["number"],
                "date": j["date"],
                "resting": j["resting__slug"],
                "team_fixtures": [_fixture_row(f, club, own) for f in fixtures[j["id"]]],
            }
            for j in jornadas[row["id"]]
        ]
        out.append(league)
    return out


def _fixture_row(f: dict, club: Club, own: set[int]) -> dict:
    here = f["interpena_id"] is not None and (
        f["interpena__home_club_id"] == club.pk and f["interpena__tournament_id"] in own
    )
    elsewhere = None
    if f["interpena_id"] is not None and not here:
        elsewhere = {
            "club": f["interpena__tournament__club__slug"],
            "tournament": f["interpena__tournament__slug"],
        }
    return {
        "number": f["number"],
        "home_club": f["home_club__slug"],
        "away_club": f["away_club__slug"],
        "interpena_tournament": f["interpena__tournament_id"] if here else None,
        "interpena_elsewhere": elsewhere,
        "postponed_to": f["postponed_to"],
        "decision": f["decision"],
        "decided_at": f["decided_at"],
    }


# --- Import ------------------------------------------------------------------------------------


def team_leagues_import(*, club: Club, rows: list[dict], ids: ArchiveIds, actor: User) -> None:
    """Create the archive's leagues of peñas in ``club`` (inside the import's transaction)."""
    linked: set[int] = set()
    for n, row in enumerate(rows):
        where = f"team_leagues[{n}]"
        peñas = {club.slug: club}
        for k, c in enumerate(row["team_league_clubs"]):
            if c["slug"] not in peñas:
                peñas[c["slug"]] = archive_other_club(
                    slug=c["slug"], name=c["name"], where=f"{where}.team_league_clubs[{k}]"
                )
        order = [peñas[c["slug"]] for c in row["team_league_clubs"]]
        if len({c.pk for c in order}) != len(order) or len(order) < 2:
            raise archive_value_refused(where, "team_league_clubs")
        tiebreaks = row["tiebreaks"]
        if not isinstance(tiebreaks, list) or any(t not in table.TEAM_TIEBREAKS for t in tiebreaks):
            raise archive_value_refused(where, "tiebreaks")
        league = TeamLeague(
            club=club,
            schedule=[c.pk for c in order],
            created_by_name=row["created_by"] or "",
            **{f: row[f] for f in _LEAGUE_COLUMNS if f not in ("id", "created_at")},
        )
        archive_checked(league, where)
        league.save()
        TeamLeague.objects.filter(pk=league.pk).update(created_at=parse_datetime(row["created_at"]))
        league.clubs.set(order)
        playing = {c.slug: c for c in order}

        def peña(slug: Any, at: str, field: str, *, playing=playing) -> Club:
            found = playing.get(slug) if isinstance(slug, str) else None
            if found is None:
                raise archive_value_refused(at, field)
            return found

        for j_n, j in enumerate(row["team_jornadas"]):
            at = f"{where}.team_jornadas[{j_n}]"
            resting = None if j["resting"] is None else peña(j["resting"], at, "resting")
            jornada = TeamJornada(
                league=league, number=j["number"], date=parse_date(j["date"]), resting=resting
            )
            archive_checked(jornada, at)
            jornada.save()
            for f_n, f in enumerate(j["team_fixtures"]):
                _fixture(f, f"{at}.team_fixtures[{f_n}]", jornada, club, ids, peña, linked)


def _fixture(
    f: dict,
    where: str,
    jornada: TeamJornada,
    club: Club,
    ids: ArchiveIds,
    peña: Any,
    linked: set[int],
) -> None:
    home = peña(f["home_club"], where, "home_club")
    away = peña(f["away_club"], where, "away_club")
    if home.pk == away.pk:
        raise archive_value_refused(where, "away_club")
    tournament = ids.refs("team_fixtures", f, where)["interpena_tournament"]
    interpena = None
    if tournament is not None:
        interpena = Interpena.objects.filter(tournament=tournament).first()
        if (
            interpena is None
            or interpena.home_club_id != home.pk
            or interpena.away_club_id != away.pk
            or interpena.pk in linked
        ):
            raise archive_value_refused(where, "interpena_tournament")
    elif f["interpena_elsewhere"] is not None:
        interpena = _elsewhere(f["interpena_elsewhere"], where, home, away, linked)
    fixture = TeamFixture(
        jornada=jornada,
        number=f["number"],
        home_club=home,
        away_club=away,
        interpena=interpena,
        postponed_to=parse_date(f["postponed_to"]),
        decision=f["decision"],
        decided_at=parse_datetime(f["decided_at"]),
    )
    archive_checked(fixture, where)
    fixture.save()
    if interpena is not None:
        linked.add(interpena.pk)
        # the interpeña counts for this league again: the key the fixture's opening gives it
        Interpena.objects.filter(pk=interpena.pk).update(
            league_key=f"team-league:{jornada.league_id}:{fixture.pk}"
        )


def _elsewhere(
    value: Any, where: str, home: Club, away: Club, linked: set[int]
) -> Interpena | None:
    """The interpeña another peña hosted, if this instance holds it and no fixture has it."""
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("club"), str)
        or not isinstance(value.get("tournament"), str)
    ):
        raise archive_value_refused(where, "interpena_elsewhere")
    found = Interpena.objects.filter(
        tournament__club__slug=value["club"][:80],
        tournament__slug=value["tournament"][:200],
        home_club=home,
        away_club=away,
        team_fixture__isnull=True,
    ).first()
    if found is None or found.pk in linked:
        return None
    return found
