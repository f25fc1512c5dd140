"""Reads of an export: a peña, or one of its tournaments, as the archive tournaments.archive
defines, and the CSV of a phase's standings and of a tournament's results.

Responsible for: ``archive_for_club`` and ``archive_for_tournament`` (organizers of the peña
only: an archive holds the players' e-mails and phones; ``club_archive`` and
``tournament_archive`` are the same without the check, for the management command), reading
every row as plain values in a fixed number of queries whatever the size (about 25: one
per kind of row), with, in a peña's archive, the sections that the apps above tournaments
registered in SECTION_EXPORTERS (the leagues: seasons/leagues/archive.py), and
``standings_csv`` / ``results_csv`` (public wherever the standings and the rounds are).

Must not: write, or shape the archive (tournaments.archive does: this module only reads).

Terms: peña (club), pareja (pair), fase, liguilla (group), ronda, partida (match), mano
(hand), clasificación (standings).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone

from clubs.models import Club, Pair, Player, RuleSetPreset
from clubs.roles import require_organizer
from tournaments.archive import FIELDS, archive_build
from tournaments.models import (
    AuditEntry,
    Entry,
    FrancesSeat,
    FrancesSubmission,
    FrancesTable,
    Group,
    HandEntry,
    IndividualEntry,
    LatePenalty,
    Match,
    Phase,
    ResultSubmission,
    Round,
    Substitution,
    Tournament,
)
from tournaments.selectors.standings import standings_for_phase
from tournaments.selectors.tournaments import User

#: the export of each section an app above tournaments registered (tournaments.archive
#: SECTIONS) in a peña's archive: name → function(club=, tournament_ids=) → its rows, nested
#: as tournaments.archive.archive_build takes them (a tournament's archive holds none)
SECTION_EXPORTERS: dict[str, Callable[..., list[dict]]] = {}


def archive_for_club(*, club: Club, user: User) -> dict[str, Any]:
    """The whole peña: its presets, players, pairs and every tournament. Organizers only."""
    require_organizer(user, club)
    return club_archive(club=club)


def archive_for_tournament(*, tournament: Tournament, user: User) -> dict[str, Any]:
    """One tournament with the pairs and players it needs. Organizers of its peña only."""
    require_organizer(user, tournament.club)
    return tournament_archive(tournament=tournament)


def club_archive(*, club: Club) -> dict[str, Any]:
    """The peña's archive without a permission check: for ``manage.py archive_export``, which
    runs with the server's rights."""
    return _archive("club", club, Tournament.objects.filter(club=club).order_by("id"))


def tournament_archive(*, tournament: Tournament) -> dict[str, Any]:
    """The tournament's archive without a permission check (``manage.py archive_export``)."""
    return _archive("tournament", tournament.club, Tournament.objects.filter(pk=tournament.pk))


def rows_by(rows: Iterable[dict], key: str) -> dict[Any, list[dict]]:
    """The rows grouped by the value of ``key`` (the sections' exports nest children so)."""
    out: dict[Any, list[dict]] = defaultdict(list)
    for row in rows:
        out[row[key]].append(row)
    return out


def _archive(scope: str, club: Club, tournaments_qs) -> dict[str, Any]:
    tournaments = list(
        tournaments_qs.values(
            *[f for f in FIELDS["tournaments"] if f != "created_by"],
            created_by_shown=archived_name("created_by"),
        )
    )
    t_ids = [t["id"] for t in tournaments]
    for t in tournaments:
        t["created_by"] = t.pop("created_by_shown")

    entries = list(Entry.objects.filter(tournament_id__in=t_ids).order_by("id").values())
    individuals = list(
        IndividualEntry.objects.filter(tournament_id__in=t_ids).order_by("id").values()
    )
    phases = list(Phase.objects.filter(tournament_id__in=t_ids).order_by("order", "id").values())
    phase_ids = [p["id"] for p in phases]
    groups = list(Group.objects.filter(phase_id__in=phase_ids).order_by("name").values())
    members = rows_by(
        Group.entries.through.objects.filter(group__phase_id__in=phase_ids)
        .order_by("entry_id")
        .values("group_id", "entry_id"),
        "group_id",
    )
    rounds = list(Round.objects.filter(phase_id__in=phase_ids).order_by("number").values())
    matches = list(
        Match.objects.filter(round__phase_id__in=phase_ids).order_by("id").values(),
    )
    tables = list(
        FrancesTable.objects.filter(round__phase_id__in=phase_ids)
        .order_by("table_number", "id")
        .values()
    )
    seats = rows_by(
        FrancesSeat.objects.filter(table__round__phase_id__in=phase_ids)
        .order_by("seat", "id")
        .values(),
        "table_id",
    )
    table_submissions = rows_by(
        FrancesSubmission.objects.filter(table__round__phase_id__in=phase_ids)
        .order_by("id")
        .values(
            *FIELDS["frances_submissions"].keys() - {"created_by"},
            "table_id",
            created_by_shown=archived_name("created_by"),
        ),
        "table_id",
    )
    match_filter = {"match__round__phase_id__in": phase_ids}
    submissions = rows_by(
        ResultSubmission.objects.filter(**match_filter)
        .order_by("id")
        .values(
            *FIELDS["submissions"].keys() - {"created_by"},
            "match_id",
            created_by_shown=archived_name("created_by"),
        ),
        "match_id",
    )
    hands = rows_by(HandEntry.objects.filter(**match_filter).order_by("id").values(), "match_id")
    substitutions = list(Substitution.objects.filter(**match_filter).order_by("id").values())
    lates = rows_by(LatePenalty.objects.filter(**match_filter).order_by("id").values(), "match_id")
    audit = rows_by(
        AuditEntry.objects.filter(tournament_id__in=t_ids)
        .order_by("id")
        .values(
            *FIELDS["audit"].keys() - {"actor", "match"},
            "match_id",
            "tournament_id",
            actor_shown=archived_name("actor", "actor_name"),
        ),
        "tournament_id",
    )

    # Who plays: the peña's own pairs and players (a whole peña), and those of its tournaments.
    pair_ids = {e["pair_id"] for e in entries}
    pair_filter = Q(pk__in=pair_ids) | (Q(club=club) if scope == "club" else Q(pk__in=[]))
    pairs = list(
        Pair.objects.filter(pair_filter).order_by("id").values(*FIELDS["pairs"], "club__slug")
    )
    player_ids = {p[k] for p in pairs for k in ("player_one", "player_two")}
    player_ids |= {s[k] for s in substitutions for k in ("replaced_id", "substitute_id")}
    player_ids |= {e["player_three_id"] for e in entries if e["player_three_id"] is not None}
    player_ids |= {i["player_id"] for i in individuals}
    members_of_club = set(club.players.values_list("id", flat=True))
    player_filter = Q(pk__in=player_ids)
    if scope == "club":
        player_filter |= Q(pk__in=members_of_club)
    players = list(Player.objects.filter(player_filter).order_by("id").values())
    for player in players:
        player["member"] = player["id"] in members_of_club
    other_slugs = {p["club__slug"] for p in pairs} - {club.slug, None}
    clubs = list(Club.objects.filter(slug__in=other_slugs).order_by("slug").values("slug", "name"))
    for pair in pairs:
        pair["club"] = pair.pop("club__slug")

    # Nest the rows as the archive holds them, with the references the archive uses.
    groups_of = rows_by(groups, "phase_id")
    rounds_of = rows_by(rounds, "phase_id")
    matches_of = rows_by(matches, "round_id")
    subs_of = rows_by(substitutions, "match_id")
    for g in groups:
        g["entries"] = [m["entry_id"] for m in members.get(g["id"], [])]
    for m in matches:
        m.update(group=m["group_id"], entry_a=m["entry_a_id"], entry_b=m["entry_b_id"])
        m["winner"] = m["winner_id"]
        m["submissions"] = [
            {**s, "created_by": s["created_by_shown"]} for s in submissions.get(m["id"], [])
        ]
        m["hands"] = hands.get(m["id"], [])
        m["substitutions"] = [
            {
                **s,
                "entry": s["entry_id"],
                "replaced": s["replaced_id"],
                "substitute": s["substitute_id"],
            }
            for s in subs_of.get(m["id"], [])
        ]
        m["late_penalties"] = [{**p, "entry": p["entry_id"]} for p in lates.get(m["id"], [])]
    tables_of = rows_by(tables, "round_id")
    for t in tables:
        t["seats"] = [{**s, "entry": s["entry_id"]} for s in seats.get(t["id"], [])]
        t["frances_submissions"] = [
            {**s, "created_by": s["created_by_shown"]} for s in table_submissions.get(t["id"], [])
        ]
    for r in rounds:
        r["matches"] = matches_of.get(r["id"], [])
        r["frances_tables"] = tables_of.get(r["id"], [])
    for p in phases:
        p.update(source=p["source_id"], groups=groups_of.get(p["id"], []))
        p["rounds"] = rounds_of.get(p["id"], [])
    phases_of = rows_by(phases, "tournament_id")
    entries_of = rows_by(entries, "tournament_id")
    individuals_of = rows_by(individuals, "tournament_id")
    for t in tournaments:
        t["entries"] = [
            {**e, "pair": e["pair_id"], "player_three": e["player_three_id"]}
            for e in entries_of.get(t["id"], [])
        ]
        t["individual_entries"] = [
            {**i, "player": i["player_id"]} for i in individuals_of.get(t["id"], [])
        ]
        t["phases"] = phases_of.get(t["id"], [])
        t["audit"] = [
            {**a, "match": a["match_id"], "actor": a["actor_shown"]} for a in audit.get(t["id"], [])
        ]

    presets = list(RuleSetPreset.objects.filter(club=club).order_by("name").values())
    club_row = {
        **{f: getattr(club, f) for f in FIELDS["club"] if f != "default_preset"},
        "default_preset": club.default_preset.name if club.default_preset_id else None,
    }
    sections = (
        {
            name: export(club=club, tournament_ids=t_ids)
            for name, export in SECTION_EXPORTERS.items()
        }
        if scope == "club"
        else {}
    )
    return archive_build(
        scope=scope,
        sections=sections,
        exported_at=timezone.now(),
        club=club_row,
        clubs=clubs,
        presets=presets,
        players=players,
        pairs=pairs,
        tournaments=tournaments,
    )


def archived_name(field: str, name_field: str = "") -> Coalesce:
    """Who a row names in an archive (``created_by``, an audit row's ``actor``): the user's
    name, else the name an archive gave it when it was imported (``<field>_name``: users are
    not exported, so an imported row keeps the name only), else None. So who made each change
    survives an export, an import and the next export."""
    return Coalesce(F(f"{field}__username"), NullIf(F(name_field or f"{field}_name"), Value("")))


# --- CSV -------------------------------------------------------------------------------------

STANDINGS_COLUMNS = (
    "group",
    "rank",
    "pair",
    "players",
    "club",
    "played",
    "won",
    "lost",
    "games_won",
    "games_lost",
    "game_difference",
    "stones_won",
    "stones_lost",
    "stone_difference",
    "buchholz",
    "separated_by",
)

RESULTS_COLUMNS = (
    "phase",
    "round",
    "table",
    "bracket",
    "pair_a",
    "pair_b",
    "status",
    "kind",
    "winner",
    "games_a",
    "games_b",
    "stones_a",
    "stones_b",
    "confirmed_at",
)


def _csv(columns: tuple[str, ...], rows: Iterable[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k)) for k in columns})
    return out.getvalue()


def _cell(value: Any) -> Any:
    """A cell as a spreadsheet reads it safely: a text that starts like a formula is quoted
    (CSV injection), None is empty."""
    if value is None:
        return ""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def standings_csv(*, phase: Phase) -> str:
    """The phase's stored standings as CSV, one line per pair (and group). One query."""
    rows = []
    for group in standings_for_phase(phase=phase):
        for row in group["rows"]:
            rows.append(
                {
                    **row,
                    "group": group["group"] or "",
                    "pair": row["name"],
                    "players": " / ".join(row["players"]),
                }
            )
    return _csv(STANDINGS_COLUMNS, rows)


def results_csv(*, tournament: Tournament, organizer: bool) -> str:
    """Every match of the tournament's published rounds (drafts too for an organizer) as CSV,
    by phase, round and table. Two queries."""
    matches = (
        Match.objects.filter(round__phase__tournament=tournament)
        .select_related(
            "round__phase",
            "entry_a__pair__player_one",
            "entry_a__pair__player_two",
            "entry_b__pair__player_one",
            "entry_b__pair__player_two",
            "winner__pair__player_one",
            "winner__pair__player_two",
        )
        .order_by("round__phase__order", "round__number", "table_number", "id")
    )
    if not organizer:
        matches = matches.exclude(round__status=Round.Status.DRAFT)

    def name(entry: Entry | None) -> str:
        return "" if entry is None else str(entry.pair)

    rows = (
        {
            "phase": m.round.phase.name,
            "round": m.round.number,
            "table": m.table_number,
            "bracket": m.bracket_key,
            "pair_a": name(m.entry_a),
            "pair_b": name(m.entry_b),
            "status": m.status,
            "kind": m.kind,
            "winner": name(m.winner),
            "games_a": m.games_a,
            "games_b": m.games_b,
            "stones_a": m.stones_a,
            "stones_b": m.stones_b,
            "confirmed_at": m.confirmed_at.isoformat() if m.confirmed_at else None,
        }
        for m in matches
    )
    return _csv(RESULTS_COLUMNS, rows)
