"""Writes of an import: a peña's or a tournament's archive (tournaments.archive) into this
instance, whole or not at all.

Responsible for: ``archive_import``. It opens the archive (tournaments.archive refuses a
foreign, newer, corrupted or malformed one), then, in ONE transaction:

- finds the peña by its slug, or creates it with the importing user as its owner; into a peña
  that exists, only one of its organizers imports;
- refuses the whole archive if one of its tournaments' slugs is taken in that peña (importing
  the same archive twice is a Conflict, not a copy);
- reuses what the peña already has — a preset of the same name, a player of the peña with the
  same name and e-mail, a pair of the same two players and peña — and creates the rest; a
  pair's other peña (a visiting pair) is found by its slug or created bare (name and slug);
- creates the tournaments with every entry (a trio's third player, a drawn partnership), player
  entered alone, phase, group, round, match, submission, hand, substitution, lateness
  penalty, Mus francés table (its seats and submissions) and audit row, with new ids
  (references and the ids in the JSON columns follow: brackets, groups, rests, finishing
  orders), new table links, and the timestamps of the archive; who created each row or made
  each audited change is kept by the name the archive gives (``created_by_name``,
  ``actor_name``: the row points at no user of this instance), so it survives the next export;
- then hands each section of the apps above tournaments (tournaments.archive.SECTIONS: the
  leagues, the circuits, the interpeñas) to the importer it registered in SECTION_IMPORTERS,
  in the same transaction, with the archive's ids of what was created (ArchiveIds);
- resolves every reference a record holds through one table (tournaments.archive.REFERENCES,
  which the sections extend; ``ArchiveIds.refs``), for the tournaments and the sections alike;
- finds another peña an archive names by its slug, or creates a placeholder of it (name and
  slug, no organizers: ``archive_other_club``);
- derives again every figure a tournament's records hold that follows from others (a match's
  juegos from its result, its result from its last submission, that one from its games or
  hands; a round's pairs, a liguilla's schedule, a bracket's, a finished phase's rounds:
  ``archive_checks.tournament_check``) and refuses the archive (``archive_inconsistent``,
  naming what contradicts what) where one does not follow;
- recomputes each phase's standings (tournaments.services.standings), so the imported
  tournament shows the same standings at once; and writes one audit row per tournament
  (``tournament_imported``).

Any value the models refuse (a status that does not exist, a text too long, a number out of
range, a reference to a record the archive does not hold, a constraint) refuses the whole
archive with an Invalid that says where, and nothing is stored.

Must not: shape or check the archive's format (tournaments.archive does), or read for an
export (tournaments.selectors.archive does).

Terms: peña (club), pareja (pair), fase, liguilla (group), ronda, partida (match).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction

from clubs.models import Club, Membership, Pair, Player, RuleSetPreset
from clubs.roles import require_organizer
from config.errors import Conflict, Forbidden, Invalid
from scoring import Form
from scoring.errors import RuleSetError
from scoring.messages import Term
from tournaments.archive import (
    FIELDS,
    REFERENCES,
    RULES,
    SECTIONS,
    archive_open,
    bracket_remap,
    order_remap,
    parse_date,
    parse_datetime,
    phase_entrants_remap,
    phase_settings_remap,
)
from tournaments.draw import DrawError
from tournaments.draw.calendar import calendar_clean
from tournaments.draw.entries import field_sizes_clean, format_rules
from tournaments.draw.prizes import prize_to_dict, prizes_from_list
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
from tournaments.selectors.rounds import ROUND_LENGTHS, round_lengths_check, rule_form
from tournaments.services.archive_checks import (
    ImportedPhase,
    ImportedRound,
    ImportedTournament,
    archive_inconsistent,
    tournament_check,
)
from tournaments.services.base import User
from tournaments.services.standings import standings_refresh

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ImportResult:
    club: Club
    club_created: bool
    tournaments: list[Tournament]
    players_created: int
    pairs_created: int


def _round_lengths_checked(phase: Phase, where: str) -> None:
    """A phase's lengths per round as the engine and tournaments.draw.lengths read them (an
    archive of before they existed has none: every round plays its phase's length)."""
    lengths = (
        (phase.settings or {}).get(ROUND_LENGTHS) if isinstance(phase.settings, dict) else None
    )
    if lengths is None:
        return
    try:
        round_lengths_check(phase, lengths)
    except (DrawError, RuleSetError):
        raise _value_refused(where, "settings") from None


def _value_refused(where: str, field: str) -> Invalid:
    return Invalid(
        "The archive is damaged at {where}: this Amarrako does not accept the value of '{field}'.",
        code="archive_value",
        where=where,
        field=field,
    )


def _reference(where: str, kind: Term, ref: Any) -> Invalid:
    return Invalid(
        "The archive is damaged at {where}: it refers to {kind} {id}, which it does not hold.",
        code="archive_reference",
        where=where,
        kind=kind,
        id=str(ref)[:40],
    )


class _Ids:
    """The archive's ids of one kind → the rows created (or reused) for them."""

    def __init__(self, kind: Term) -> None:
        self.kind = kind
        self.rows: dict[int, Any] = {}

    def __setitem__(self, ref: int, row: Any) -> None:
        self.rows[ref] = row

    def get(self, ref: int | None, where: str) -> Any:
        if ref is None:
            return None
        try:
            return self.rows[ref]
        except (KeyError, TypeError):
            raise _reference(where, self.kind, ref) from None

    def pk(self, ref: int | None, where: str) -> int | None:
        row = self.get(ref, where)
        return None if row is None else row.pk


def _kinds() -> dict[str, Term]:
    return {
        "players": Term("player"),
        "pairs": Term("pair"),
        "tournaments": Term("tournament"),
        "entries": Term("entry"),
        "individual_entries": Term("player entered alone"),
        "phases": Term("phase"),
        "groups": Term("group"),
        "matches": Term("match"),
    }


#: the kinds whose ids an import resolves within one tournament only (a match points at the
#: entries of its own tournament, never another's)
_PER_TOURNAMENT = ("entries", "individual_entries", "phases", "groups", "matches")


class ArchiveIds:
    """The archive's ids → the rows an import created (or reused), by kind: players, pairs,
    tournaments, entries, individual_entries, phases, groups, matches. ``get`` refuses an id
    the archive does not hold, naming where; ``refs`` resolves every reference of a record
    through tournaments.archive.REFERENCES (one table for the tournaments and every section:
    no importer remaps an id by hand)."""

    def __init__(self, *, players: _Ids | None = None, pairs: _Ids | None = None) -> None:
        self._kinds = {kind: _Ids(term) for kind, term in _kinds().items()}
        if players is not None:
            self._kinds["players"] = players
        if pairs is not None:
            self._kinds["pairs"] = pairs

    def of(self, kind: str) -> _Ids:
        return self._kinds[kind]

    @property
    def players(self) -> _Ids:
        return self._kinds["players"]

    @property
    def pairs(self) -> _Ids:
        return self._kinds["pairs"]

    @property
    def tournaments(self) -> _Ids:
        return self._kinds["tournaments"]

    def get(self, kind: str, ref: Any, where: str) -> Any:
        return self._kinds[kind].get(ref, where)

    def pk(self, kind: str, ref: Any, where: str) -> int | None:
        return self._kinds[kind].pk(ref, where)

    def refs(self, kind: str, row: Mapping[str, Any], where: str) -> dict[str, Any]:
        """The record's references (REFERENCES[kind]) as the rows they point at: a row (or
        None) for a single id, a list of primary keys for a list of ids. Refuses an id the
        archive does not hold (archive_reference) or a list that is not one (archive_value)."""
        out: dict[str, Any] = {}
        for field, target in REFERENCES.get(kind, {}).items():
            at = f"{where}.{field}"
            if target.endswith("[]"):
                values = row[field]
                if not isinstance(values, list):
                    raise _value_refused(where, field)
                out[field] = [self.pk(target[:-2], ref, at) for ref in values]
            else:
                out[field] = self.get(target, row[field], at)
        return out

    def scoped(self) -> ArchiveIds:
        """The ids of one tournament's import: the peña's players, pairs and tournaments, and
        fresh entries, phases, groups and matches (merged back with ``merge``)."""
        local = ArchiveIds(players=self.players, pairs=self.pairs)
        local._kinds["tournaments"] = self.tournaments
        return local

    def merge(self, local: ArchiveIds) -> None:
        for kind in _PER_TOURNAMENT:
            self._kinds[kind].rows.update(local.of(kind).rows)


#: the import of each section an app above tournaments registered (tournaments.archive
#: SECTIONS), run in the import's transaction after the tournaments:
#: name → function(club=, rows=, ids=ArchiveIds, actor=)
SECTION_IMPORTERS: dict[str, Callable[..., None]] = {}


def archive_value_refused(where: str, field: str) -> Invalid:
    """The archive's value of ``field`` at ``where`` is one this instance refuses."""
    return _value_refused(where, field)


def archive_other_club(*, slug: Any, name: Any, where: str) -> Club:
    """Another peña an archive names (a visiting pair's, a circuit's, an interpeña's rival):
    the one of this instance with that slug, or else a placeholder created with its name and
    slug only (no organizers, no players) so that what refers to it keeps its meaning."""
    other = Club.objects.filter(slug=str(slug)[:80]).first()
    if other is None:
        other = _checked(Club(slug=slug, name=name), where)
        other.save()
    return other


def archive_checked(obj: models.Model, where: str) -> models.Model:
    """``obj`` once its values pass the model's own field checks; archive_value otherwise."""
    return _checked(obj, where)


def _checked(obj: models.Model, where: str, exclude: tuple[str, ...] = ()) -> models.Model:
    """``obj`` once its values pass the model's own field checks (choices, lengths, ranges)."""
    skip = [f.name for f in obj._meta.fields if f.is_relation] + list(exclude)
    try:
        obj.clean_fields(exclude=skip)
    except ValidationError as error:
        field = next(iter(error.message_dict), "?")
        raise _value_refused(where, field) from None
    return obj


def _insert(model: type[models.Model], rows: list[tuple[models.Model, dict[str, Any]]]) -> None:
    """Create the rows, then give them the archive's timestamps (creating sets ``auto_now_add``
    columns to now; an update after it keeps them as they were)."""
    if not rows:
        return
    objs = [obj for obj, _ in rows]
    model.objects.bulk_create(objs, batch_size=500)
    stamps = sorted({name for _, s in rows for name in s})
    if stamps:
        for obj, values in rows:
            for name, value in values.items():
                setattr(obj, name, value)
        model.objects.bulk_update(objs, stamps, batch_size=500)


def archive_import(*, raw: Any, actor: User) -> ImportResult:
    """Import an archive (its bytes, text or parsed JSON); see the module docstring."""
    if actor is None or not actor.is_authenticated:
        raise Forbidden("Log in to import an archive.", code="archive_login")
    archive = archive_open(raw)
    try:
        with transaction.atomic():
            result = _import(archive, actor)
    except (IntegrityError, DataError) as error:
        log.warning("archive refused by the database: %s", error)
        raise archive_inconsistent(
            Term("rows the database refuses together (two where one is allowed, …)")
        ) from None
    log.info(
        "archive imported into %s: %s tournaments, %s players and %s pairs created",
        result.club.slug,
        len(result.tournaments),
        result.players_created,
        result.pairs_created,
    )
    return result


def _import(archive: Mapping[str, Any], actor: User) -> ImportResult:
    data = archive["club"]
    club = Club.objects.select_for_update().filter(slug=data["slug"]).first()
    created = club is None
    if created:
        club = _checked(
            Club(**{f: data[f] for f in FIELDS["club"] if f != "default_preset"}), "club"
        )
        club.save()
        Membership.objects.create(club=club, user=actor, role=Membership.Role.OWNER)
    else:
        require_organizer(actor, club)

    taken = set(
        Tournament.objects.filter(
            club=club, slug__in=[t["slug"] for t in archive["tournaments"]]
        ).values_list("slug", flat=True)
    )
    if taken:
        raise Conflict(
            "{club_name} already has a tournament '{slug}'; nothing was imported. An archive "
            "is imported once.",
            code="archive_tournament_exists",
            club_name=club.name,
            slug=sorted(taken)[0],
        )

    presets = {p.name: p for p in RuleSetPreset.objects.filter(club=club)}
    for n, row in enumerate(archive["presets"]):
        if row["name"] not in presets:
            preset = _checked(RuleSetPreset(club=club, **row), f"presets[{n}]")
            preset.save()
            presets[preset.name] = preset
    if created and data["default_preset"] in presets:
        club.default_preset = presets[data["default_preset"]]
        club.save(update_fields=["default_preset"])

    clubs = {club.slug: club}
    for n, row in enumerate(archive["clubs"]):
        if row["slug"] not in clubs:
            other = archive_other_club(slug=row["slug"], name=row["name"], where=f"clubs[{n}]")
            clubs[other.slug] = other

    players, players_created = _players(archive["players"], club)
    ids = ArchiveIds(players=players)
    pairs_created = _pairs(archive["pairs"], clubs, ids)
    tournaments = [
        _tournament(row, f"tournaments[{n}]", club, actor, ids)
        for n, row in enumerate(archive["tournaments"])
    ]
    for name in SECTIONS:
        importer = SECTION_IMPORTERS.get(name)
        if importer is not None and archive[name]:
            importer(club=club, rows=archive[name], ids=ids, actor=actor)
    return ImportResult(club, created, tournaments, players_created, pairs_created)


def _name_key(first: str, last: str, email: str) -> tuple[str, str, str]:
    return (first.casefold().strip(), last.casefold().strip(), email.casefold().strip())


def _players(rows: list[dict], club: Club) -> tuple[_Ids, int]:
    ids = _Ids(Term("player"))
    known = {_name_key(p.first_name, p.last_name, p.email): p for p in club.players.all()}
    new: list[tuple[Player, dict]] = []
    members = []
    for n, row in enumerate(rows):
        player = known.get(_name_key(row["first_name"], row["last_name"], row["email"]))
        if player is None:  # a player the peña has is a member already
            values = {f: row[f] for f in ("first_name", "last_name", "email", "phone")}
            player = _checked(Player(**values), f"players[{n}]")
            new.append((player, {}))
            if row["member"]:
                members.append(player)
        ids[row["id"]] = player
    _insert(Player, new)
    club.players.add(*members)
    return ids, len(new)


def _pairs(rows: list[dict], clubs: dict[str, Club], archive_ids: ArchiveIds) -> int:
    ids = archive_ids.pairs
    known = {
        (frozenset((p.player_one_id, p.player_two_id)), p.club_id): p
        for p in Pair.objects.filter(
            player_one_id__in=[p.pk for p in archive_ids.players.rows.values()],
            club__in=clubs.values(),
        )
    }
    new: list[tuple[Pair, dict]] = []
    for n, row in enumerate(rows):
        where = f"pairs[{n}]"
        refs = archive_ids.refs("pairs", row, where)
        one, two = refs["player_one"].pk, refs["player_two"].pk
        if row["club"] is not None and row["club"] not in clubs:
            raise _reference(f"{where}.club", Term("peña"), row["club"])
        club = clubs.get(row["club"]) if row["club"] else None
        pair = known.get((frozenset((one, two)), club.pk if club else None))
        if pair is None:
            pair = Pair(player_one_id=one, player_two_id=two, name=row["name"], club=club)
            _checked(pair, where)
            new.append((pair, {"created_at": parse_datetime(row["created_at"])}))
            known[(frozenset((one, two)), club.pk if club else None)] = pair
        ids[row["id"]] = pair
    _insert(Pair, new)
    return len(new)


_TOURNAMENT_COPIED = (
    "name",
    "slug",
    "venue",
    "is_public",
    "status",
    "tables_available",
    "max_pairs",
    "tiebreaks",
    "late_minutes_per_game",
    "draw_seed",
    "preset_name",
    *RULES,
    "entrant_kind",
    "frances_table_size",
    "points_win",
    "points_loss",
    "points_walkover_loss",
    "min_entries",
)

_PHASE_COPIED = tuple(
    f for f in FIELDS["phases"] if f not in ("id", "source", "bracket", "settings", "entrants")
)

_MATCH_COPIED = (
    "bracket_key",
    "table_number",
    "status",
    "kind",
    "games_a",
    "games_b",
    "vacas_a",
    "vacas_b",
    "stones_a",
    "stones_b",
    "result",
    "version",
    "reasons",
    "first_mano",
    "postponed_reason",
)


def _tournament(row: dict, where: str, club: Club, actor: User, ids: ArchiveIds) -> Tournament:
    tournament = Tournament(
        club=club,
        created_by_name=row["created_by"] or "",
        starts_on=parse_date(row["starts_on"]),
        ends_on=parse_date(row["ends_on"]),
        **{f: row[f] for f in _TOURNAMENT_COPIED},
        **_bases(row, where),
    )
    if rule_form(tournament) is not Form.PAIRS:
        # the tío Perete is counted between two pairs only (scoring refuses it in another
        # form): an archive exported before migration 0007 may have it on, never counted
        tournament.tio_perete = False
    _checked(tournament, where)
    tournament.save()
    Tournament.objects.filter(pk=tournament.pk).update(created_at=parse_datetime(row["created_at"]))
    local = ids.scoped()  # a tournament's rows point only at its own entries, phases, matches

    new_entries = []
    for n, e in enumerate(row["entries"]):
        at = f"{where}.entries[{n}]"
        entry = Entry(
            tournament=tournament,
            seed=e["seed"],
            status=e["status"],
            pinned_table=e["pinned_table"],
            checked_in_at=parse_datetime(e["checked_in_at"]),
            withdrawn_at=parse_datetime(e["withdrawn_at"]),
            dropped_at=parse_datetime(e["dropped_at"]),
            refunded_at=parse_datetime(e["refunded_at"]),
            drawn=e["drawn"],
            **local.refs("entries", e, at),
        )
        new_entries.append(
            (_checked(entry, at), {"registered_at": parse_datetime(e["registered_at"])})
        )
        local.of("entries")[e["id"]] = entry
    _insert(Entry, new_entries)
    entry_pks = {ref: entry.pk for ref, entry in local.of("entries").rows.items()}

    new_individuals = []
    for n, i in enumerate(row["individual_entries"]):
        at = f"{where}.individual_entries[{n}]"
        individual = IndividualEntry(
            tournament=tournament,
            status=i["status"],
            checked_in_at=parse_datetime(i["checked_in_at"]),
            withdrawn_at=parse_datetime(i["withdrawn_at"]),
            dropped_at=parse_datetime(i["dropped_at"]),
            refunded_at=parse_datetime(i["refunded_at"]),
            **local.refs("individual_entries", i, at),
        )
        new_individuals.append(
            (_checked(individual, at), {"registered_at": parse_datetime(i["registered_at"])})
        )
        local.of("individual_entries")[i["id"]] = individual
    _insert(IndividualEntry, new_individuals)
    individual_pks = {ref: i.pk for ref, i in local.of("individual_entries").rows.items()}

    imported_phases: list[ImportedPhase] = []
    children: dict[str, list[tuple[models.Model, dict]]] = {
        "submissions": [],
        "hands": [],
        "substitutions": [],
        "late_penalties": [],
        "frances_tables": [],
        "seats": [],
        "frances_submissions": [],
    }
    for n, p in enumerate(row["phases"]):
        at = f"{where}.phases[{n}]"
        try:
            bracket = bracket_remap(p["bracket"], entry_pks)
            settings = phase_settings_remap(p["settings"], entry_pks, individual_pks)
            entrants = phase_entrants_remap(p["entrants"], entry_pks)
        except (KeyError, TypeError, AttributeError):
            raise _value_refused(at, "bracket") from None
        phase = Phase(
            tournament=tournament,
            bracket=bracket,
            settings=settings,
            entrants=entrants,
            **{f: p[f] for f in _PHASE_COPIED},
            **local.refs("phases", p, at),
        )
        _checked(phase, at)
        _round_lengths_checked(phase, at)
        phase.save()
        local.of("phases")[p["id"]] = phase
        held = ImportedPhase(phase, at)
        imported_phases.append(held)
        for g_n, g in enumerate(p["groups"]):
            g_at = f"{at}.groups[{g_n}]"
            members = local.refs("groups", g, g_at)["entries"]
            group = _checked(Group(phase=phase, name=g["name"]), g_at)
            group.save()
            group.entries.set(members)
            local.of("groups")[g["id"]] = group
        for r_n, r in enumerate(p["rounds"]):
            r_at = f"{at}.rounds[{r_n}]"
            rnd = Round(
                phase=phase,
                number=r["number"],
                status=r["status"],
                scheduled_at=parse_datetime(r["scheduled_at"]),
                published_at=parse_datetime(r["published_at"]),
                closed_at=parse_datetime(r["closed_at"]),
            )
            _checked(rnd, r_at)
            rnd.save()
            rnd.created_at = parse_datetime(r["created_at"])
            Round.objects.filter(pk=rnd.pk).update(created_at=rnd.created_at)
            held_round = ImportedRound(rnd, r_at)
            held.rounds.append(held_round)
            new_matches = []
            for m_n, m in enumerate(r["matches"]):
                m_at = f"{r_at}.matches[{m_n}]"
                match = Match(
                    round=rnd,
                    scheduled_at=parse_datetime(m["scheduled_at"]),
                    deadline=parse_date(m["deadline"]),
                    started_at=parse_datetime(m["started_at"]),
                    confirmed_at=parse_datetime(m["confirmed_at"]),
                    **{f: m[f] for f in _MATCH_COPIED},
                    **local.refs("matches", m, m_at),
                )
                new_matches.append(
                    (_checked(match, m_at), {"created_at": parse_datetime(m["created_at"])})
                )
                local.of("matches")[m["id"]] = match
                held_round.matches.append((match, m_at))
                _match_children(m, m_at, match, local, children)
            _insert(Match, new_matches)
            for t_n, t in enumerate(r["frances_tables"]):
                _frances_table(t, f"{r_at}.frances_tables[{t_n}]", rnd, local, children)
                held_round.tables.append(children["frances_tables"][-1][0])
    _insert(FrancesTable, children["frances_tables"])
    for kind, model in (("seats", FrancesSeat), ("frances_submissions", FrancesSubmission)):
        for obj, _ in children[kind]:
            obj.table_id = obj.table.pk  # the tables have their ids now
        _insert(model, children[kind])
    for kind, model in (
        ("submissions", ResultSubmission),
        ("hands", HandEntry),
        ("substitutions", Substitution),
        ("late_penalties", LatePenalty),
    ):
        for obj, _ in children[kind]:
            obj.match_id = obj.match.pk  # the matches have their ids now
        _insert(model, children[kind])

    audit = []
    for n, a in enumerate(row["audit"]):
        at = f"{where}.audit[{n}]"
        entry = AuditEntry(
            tournament=tournament,
            action=a["action"],
            actor_name=a["actor"] or "",
            via=a["via"],
            device=a["device"],
            old=a["old"],
            new=a["new"],
            **local.refs("audit", a, at),
        )
        audit.append((_checked(entry, at), {"created_at": parse_datetime(a["created_at"])}))
    for obj, _ in audit:
        obj.match_id = obj.match.pk if obj.match is not None else None
    _insert(AuditEntry, audit)
    # every figure derived from other records is derived again (services/archive_checks.py)
    submissions: dict[int, list] = {}
    for obj, _ in children["submissions"]:
        submissions.setdefault(obj.match_id, []).append(obj)
    penalties: dict[int, list] = {}
    for obj, _ in children["late_penalties"]:
        penalties.setdefault(obj.match_id, []).append(obj)
    tournament_check(
        ImportedTournament(
            tournament=tournament,
            entries=dict(local.of("entries").rows),
            phases=imported_phases,
            phase_ids=dict(local.of("phases").rows),
            submissions=submissions,
            penalties=penalties,
            with_hands={obj.match_id for obj, _ in children["hands"]},
            audit=[obj for obj, _ in audit],
        )
    )
    AuditEntry.objects.create(
        tournament=tournament,
        action="tournament_imported",
        actor=actor,
        via="import",
        new={"archive_tournament": row["id"]},
    )
    for phase in local.of("phases").rows.values():
        standings_refresh(phase=phase)
    ids.tournaments[row["id"]] = tournament
    ids.merge(local)
    return tournament


def _bases(row: dict, where: str) -> dict[str, Any]:
    """What the tournament's bases declare beyond its rule set, read as the services read it
    (the prizes, the field, the calendar: tournaments.draw refuses what it cannot mean); a
    value refused names its field."""
    values: dict[str, Any] = {}
    readers = {
        "prizes": lambda v: [prize_to_dict(p) for p in prizes_from_list(v)],
        "field_sizes": field_sizes_clean,
        "rules_by_entries": format_rules,
        "calendar": calendar_clean,
    }
    for name, read in readers.items():
        try:
            values[name] = read(row[name])
        except DrawError:
            raise _value_refused(where, name) from None
    return values


def _match_children(
    m: dict,
    where: str,
    match: Match,
    ids: ArchiveIds,
    children: dict[str, list[tuple[models.Model, dict]]],
) -> None:
    for n, s in enumerate(m["submissions"]):
        at = f"{where}.submissions[{n}]"
        obj = ResultSubmission(
            match=match,
            side=s["side"],
            via=s["via"],
            payload=s["payload"],
            summary=s["summary"],
            idempotency_key=s["idempotency_key"],
            based_on_version=s["based_on_version"],
            device=s["device"],
            created_by_name=s["created_by"] or "",
        )
        children["submissions"].append(
            (_checked(obj, at), {"created_at": parse_datetime(s["created_at"])})
        )
    for n, h in enumerate(m["hands"]):
        at = f"{where}.hands[{n}]"
        obj = HandEntry(
            match=match,
            number=h["number"],
            payload=h["payload"],
            idempotency_key=h["idempotency_key"],
        )
        children["hands"].append(
            (_checked(obj, at), {"created_at": parse_datetime(h["created_at"])})
        )
    for n, s in enumerate(m["substitutions"]):
        at = f"{where}.substitutions[{n}]"
        obj = Substitution(match=match, **ids.refs("substitutions", s, at))
        children["substitutions"].append(
            (_checked(obj, at), {"created_at": parse_datetime(s["created_at"])})
        )
    for n, p in enumerate(m["late_penalties"]):
        at = f"{where}.late_penalties[{n}]"
        obj = LatePenalty(
            match=match,
            minutes_late=p["minutes_late"],
            games_lost=p["games_lost"],
            **ids.refs("late_penalties", p, at),
        )
        children["late_penalties"].append(
            (_checked(obj, at), {"created_at": parse_datetime(p["created_at"])})
        )


def _frances_table(
    t: dict,
    where: str,
    rnd: Round,
    ids: ArchiveIds,
    children: dict[str, list[tuple[models.Model, dict]]],
) -> None:
    """A Mus francés table of the round, its seats and its submissions (saved with the rest)."""
    individuals = {ref: row.pk for ref, row in ids.of("individual_entries").rows.items()}

    def order(value: Any, at: str) -> Any:
        try:
            return order_remap(value, individuals)
        except (KeyError, TypeError):
            raise _value_refused(at, "order") from None

    table = FrancesTable(
        round=rnd,
        table_number=t["table_number"],
        status=t["status"],
        order=order(t["order"], where),
        version=t["version"],
        reasons=t["reasons"],
        confirmed_at=parse_datetime(t["confirmed_at"]),
    )
    children["frances_tables"].append(
        (_checked(table, where), {"created_at": parse_datetime(t["created_at"])})
    )
    for n, s in enumerate(t["seats"]):
        at = f"{where}.seats[{n}]"
        seat = FrancesSeat(table=table, seat=s["seat"], **ids.refs("seats", s, at))
        children["seats"].append((_checked(seat, at), {}))
    for n, s in enumerate(t["frances_submissions"]):
        at = f"{where}.frances_submissions[{n}]"
        obj = FrancesSubmission(
            table=table,
            seat=s["seat"],
            via=s["via"],
            order=order(s["order"], at),
            confirms=s["confirms"],
            idempotency_key=s["idempotency_key"],
            based_on_version=s["based_on_version"],
            device=s["device"],
            created_by_name=s["created_by"] or "",
        )
        children["frances_submissions"].append(
            (_checked(obj, at), {"created_at": parse_datetime(s["created_at"])})
        )
