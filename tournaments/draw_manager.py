"""The only adapter between the database and the pure draw algorithms of tournaments.draw.

Responsible for: loading the rows a draw needs (the pairs that play, the phase's earlier
results, pins and tables), turning them into tournaments.draw values, running the format's
algorithm, and saving what it returns: liguilla groups, the bracket structure (Phase.bracket,
as plain JSON), a Round in draft and its Matches with their reason codes, bracket keys and
tables. Byes are saved as confirmed matches won with the format's full score.

Must not: check permissions or round and phase states, open its own transaction, queue tasks
or write audit entries — the services in tournaments/services/rounds/ do that and call this
module inside their transaction, with the phase row locked.

Choices (documented in the API too):

- Who plays: the checked-in entries that have not withdrawn; if nobody checked in at all, every
  registered entry (a club night without a check-in desk). The waiting list never plays.
- Lots: every random choice is drawn from ``draw_seed * 1_000_000 + phase.order * 1_000 +
  round number``, so the same tournament seed gives the same draw.
- A bye (descanso) is a match with no ``entry_b``, kind bye, confirmed, won by the pair with
  the format's full score: ``games_per_vaca * vacas_per_match`` juegos, ``vacas_per_match``
  vacas (the round's length: selectors.rounds.round_rules), 0 piedras (no stones were played).
- A liguilla's resting pair has no match row at all: everybody rests once, so a rest is not a
  win. A liguilla match whose pair has withdrawn is not created (the other pair rests).
- Tables: ``Tournament.tables_available`` (0 means no limit: one table per match); pinned
  entries sit at their table; the best match takes the lowest free table.

- Players alone (`draw_alone`): an individual tournament's round pairs the playing players
  (checked in, or every registered one if nobody checked in) with
  tournaments.draw.individual.pair_individuals; each partnership is saved as an Entry with
  ``drawn`` set (the peña's Pair of the two players, made if new; the same two players
  partnered again reuse it), so the round's matches are ordinary pair matches. The rests are
  kept in ``phase.settings["rests"]`` (round number → IndividualEntry ids). A Mus francés
  round seats them with seat_frances at FrancesTables of ``Tournament.frances_table_size``.
  Tables are numbered 1, 2, … in the draw's order (best placed first), within
  ``tables_available``.

Terms: pareja (Entry), ronda, mesa, descanso (bye), liguilla (round robin group), cuadro
(bracket), repesca (losers' bracket), a tres ceros (elimination after N losses), vaca, juego.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db.models import Max, Q
from django.utils import timezone

from clubs.models import Pair
from tournaments.draw import (
    Bracket,
    DrawError,
    Entrant,
    Pairing,
    Result,
    advance,
    assign_tables,
    bracket_pairings,
    double_elimination,
    first_round,
    initial_order,
    knockout_from_groups,
    lives_left,
    make_rng,
    pair_lives,
    pair_swiss,
    resolve,
    round_robin_groups,
    round_robin_schedule,
    single_elimination,
)
from tournaments.draw import Group as DrawGroup
from tournaments.draw.individual import PastTable, pair_individuals, seat_frances
from tournaments.draw.plan import (
    SourceResult,
    group_sizes,
    partial_schedule,
    resolve_entrants,
    rule_from_dict,
    seed_groups,
)
from tournaments.models import (
    AuditEntry,
    Entry,
    FrancesSeat,
    FrancesTable,
    Group,
    IndividualEntry,
    Match,
    Phase,
    Round,
    Tournament,
)
from tournaments.selectors.rounds import bracket_from_json, round_rules
from tournaments.selectors.standings import individual_rows, standings_compute

log = logging.getLogger(__name__)


# --- Loading ----------------------------------------------------------------------------------


def playing_entries(tournament: Tournament) -> list[Entry]:
    """Checked-in, not withdrawn; or every registered entry if nobody checked in."""
    entries = list(
        Entry.objects.filter(
            tournament=tournament,
            status__in=(Entry.Status.CHECKED_IN, Entry.Status.REGISTERED),
        ).select_related("pair")
    )
    checked_in = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    return checked_in or entries


def phase_entries(phase: Phase) -> list[Entry]:
    """The entries that play ``phase``: those its entrants rules chose (kept in
    ``settings["entrants"]`` at its first draw, in seed order, withdrawn pairs left out), else
    every pair that plays (`playing_entries`)."""
    ids = phase_entrant_ids(phase)
    if ids is None:
        return playing_entries(phase.tournament)
    rows = Entry.objects.filter(pk__in=ids, tournament_id=phase.tournament_id).exclude(
        status=Entry.Status.WITHDRAWN
    )
    by_id = {e.id: e for e in rows.select_related("pair")}
    return [by_id[i] for i in ids if i in by_id]


def phase_entrant_ids(phase: Phase) -> list[int] | None:
    """The entry ids ``phase``'s entrants rules choose, in seed order (None: it has none):
    the ones kept at its first draw, else chosen now from its sources' final standings."""
    stored = (phase.settings or {}).get("entrants")
    if stored is not None:
        return list(stored)
    if not phase.entrants:
        return None
    rules = [rule_from_dict(r) for r in phase.entrants]
    phases = {p.order: p for p in Phase.objects.filter(tournament_id=phase.tournament_id)}
    wanted = {r.phase for r in rules if r.phase is not None}
    sources = {order: source_result(phases[order]) for order in wanted if order in phases}
    others = [
        rule_from_dict(r) for p in phases.values() if p.pk != phase.pk for r in (p.entrants or [])
    ]
    field_ids = [e.id for e in playing_entries(phase.tournament)]
    withdrawn = set(
        Entry.objects.filter(
            tournament_id=phase.tournament_id, status=Entry.Status.WITHDRAWN
        ).values_list("id", flat=True)
    )
    chosen = resolve_entrants(rules, sources, field_ids=field_ids, other_rules=others)
    own = set(Entry.objects.filter(tournament_id=phase.tournament_id).values_list("id", flat=True))
    return [e for e, _ in chosen if e in own and e not in withdrawn]


def source_result(source: Phase) -> SourceResult:
    """A finished phase as the entrants rules read it: its groups' final places and the
    losers of each of its rounds."""
    tables, _ = qualifier_standings(source)
    losers: dict[int, list[int]] = {}
    for number, a, b, winner in (
        Match.objects.filter(round__phase=source, status=Match.Status.CONFIRMED)
        .exclude(kind=Match.Kind.BYE)
        .exclude(winner=None)
        .values_list("round__number", "entry_a_id", "entry_b_id", "winner_id")
        .order_by("round__number", "table_number", "id")
    ):
        losers.setdefault(number, []).extend(e for e in (a, b) if e is not None and e != winner)
    return SourceResult(
        groups=tuple(tuple(t) for t in tables),
        losers={k: tuple(v) for k, v in losers.items()},
    )


def phase_entrants(phase: Phase) -> list[Entrant]:
    """`phase_entries` as draw entrants; a phase fed by its entrants rules is seeded by the
    order they gave (1 the best), the others keep their entries' seeds."""
    entries = phase_entries(phase)
    if not phase.entrants:
        return [entrant(e) for e in entries]
    return [replace(entrant(e), seed=n) for n, e in enumerate(entries, start=1)]


def keep_entrants(phase: Phase) -> None:
    """Keep the entrants ``phase``'s rules chose (at its first draw): later rounds, the
    standings and an archive read them, whatever the sources' standings become."""
    ids = phase_entrant_ids(phase)
    if ids is None or "entrants" in (phase.settings or {}):
        return
    phase.settings = {**(phase.settings or {}), "entrants": ids}
    phase.save(update_fields=["settings"])


def entrant(entry: Entry) -> Entrant:
    club = entry.pair.club_id
    return Entrant(id=entry.id, seed=entry.seed, club=None if club is None else str(club))


def lot_seed(phase: Phase, number: int) -> int:
    return phase.tournament.draw_seed * 1_000_000 + phase.order * 1_000 + number


def history(phase: Phase, *, before: int) -> list[Result]:
    """Every pairing of the phase's rounds before ``before``; a winner only once confirmed."""
    rows = (
        Match.objects.filter(round__phase=phase, round__number__lt=before)
        .exclude(entry_a=None)
        .values_list("round__number", "entry_a_id", "entry_b_id", "winner_id", "status")
        .order_by("round__number", "id")
    )
    return [
        Result(
            round=number,
            a_id=a,
            b_id=b,
            winner_id=winner if status == Match.Status.CONFIRMED else None,
        )
        for number, a, b, winner, status in rows
    ]


def ranking(phase: Phase, entrants: Sequence[Entrant]) -> list[int] | None:
    """Entrant ids best first by the phase's current standings (None before any result);
    pairs without a result yet follow, by seed and then id."""
    computed = standings_compute(phase=phase)
    rows = [row for table in computed for row in table.rows]
    if not any(row.played for row in rows):
        return None
    wanted = {e.id for e in entrants}
    order = [row.pair for row in rows if row.pair in wanted]
    placed = set(order)
    rest = sorted(
        (e for e in entrants if e.id not in placed),
        key=lambda e: (e.seed is None, e.seed or 0, e.id),
    )
    return order + [e.id for e in rest]


# --- Planning a round -------------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """A pairing of the round to save, with its liguilla group if any."""

    pairing: Pairing
    group: Group | None = None


def plan_round(phase: Phase, number: int) -> list[Planned]:
    """The pairings of round ``number`` of ``phase`` by its format; for the first round of a
    liguilla or a bracket this also saves the groups or the bracket on the phase."""
    fmt = phase.format
    if number == 1:
        keep_entrants(phase)
    if fmt in (Phase.Format.SINGLE_ELIMINATION, Phase.Format.DOUBLE_ELIMINATION):
        bracket = _new_bracket(phase, number)
        phase.bracket = bracket_to_json(bracket)
        phase.save(update_fields=["bracket"])
        return [Planned(p) for p in first_round(bracket)]
    if fmt == Phase.Format.ROUND_ROBIN:
        return _round_robin(phase, number)
    if fmt == Phase.Format.LIVES and has_groups(phase):
        return _lives_in_groups(phase, number)
    entrants = phase_entrants(phase)
    past = history(phase, before=number)
    order = ranking(phase, entrants) if past else None
    rng = lot_seed(phase, number)
    if fmt == Phase.Format.LIVES:
        pairings = pair_lives(
            entrants,
            past,
            lives=phase.lives,
            rng=rng,
            standings=order,
            separate_clubs_rounds=phase.separate_clubs_rounds,
        )
    else:
        pairings = pair_swiss(
            entrants,
            past,
            rng=rng,
            standings=order,
            separate_clubs_rounds=phase.separate_clubs_rounds,
        )
    return [Planned(p) for p in pairings]


def _new_bracket(phase: Phase, number: int) -> Bracket:
    rng = lot_seed(phase, number)
    crossing = _crossing(phase)
    if crossing is not None:
        source, qualifiers = crossing
        tables, names = qualifier_standings(source)
        return knockout_from_groups(
            tables,
            qualifiers=qualifiers,
            third_place=phase.third_place,
            group_names=names,
        )
    entrants = phase_entrants(phase)
    if phase.format == Phase.Format.DOUBLE_ELIMINATION:
        return double_elimination(entrants, rng=rng, reset=phase.grand_final_reset)
    return single_elimination(entrants, rng=rng, third_place=phase.third_place)


def _crossing(phase: Phase) -> tuple[Phase, int] | None:
    """The source phase and qualifiers per group when ``phase`` is a knockout drawn from
    groups by crossing (1A–2B, 1B–2A, …): a ``source`` with qualifiers per group, or one
    entrants rule taking the first N (or the winner) of each group of a phase with groups."""
    if phase.source_id is not None:
        return phase.source, phase.qualifiers_per_group or 1
    if len(phase.entrants or []) != 1 or phase.entrants[0].get("rule") not in (
        "top_of_each_group",
        "group_winners",
    ):
        return None
    rule = rule_from_dict(phase.entrants[0])
    source = Phase.objects.filter(tournament_id=phase.tournament_id, order=rule.phase).first()
    if source is None or not Group.objects.filter(phase=source).exists():
        return None
    return source, rule.count or 1


def qualifier_standings(source: Phase) -> tuple[list[list[int]], list[str]]:
    """Each group's entry ids by final place (withdrawn pairs left out) and the group names;
    a phase without groups is one unnamed group (labels read 1, 2, …)."""
    computed = standings_compute(phase=source)
    tables, names = [], []
    for table in computed:
        tables.append(
            [
                row.pair
                for row in table.rows
                if table.entries[row.pair].status != Entry.Status.WITHDRAWN
            ]
        )
        names.append(table.group.name if table.group is not None else "")
    return tables, names


def _round_robin(phase: Phase, number: int, *, create: bool = True) -> list[Planned]:
    if number == 1 and create:
        _create_groups(phase)
    groups = {g.name: g for g in Group.objects.filter(phase=phase)}
    withdrawn = set(
        Entry.objects.filter(
            tournament=phase.tournament_id, status=Entry.Status.WITHDRAWN
        ).values_list("id", flat=True)
    )
    planned = []
    for stored in phase.settings.get("groups", []):
        group = DrawGroup(stored["name"], tuple(stored["entry_ids"]))
        schedule = partial_schedule(group, phase.rounds_planned)
        if number > len(schedule):
            continue
        for p in schedule[number - 1]:
            if p.is_bye or p.a_id in withdrawn or p.b_id in withdrawn:
                continue
            planned.append(Planned(p, groups[stored["name"]]))
    # One table order across the groups: group A's matches first, then B's, …
    return [
        Planned(replace(item.pairing, table_order=n), item.group)
        for n, item in enumerate(planned, start=1)
    ]


def has_groups(phase: Phase) -> bool:
    """A liguilla always plays in groups; an a-tres-ceros does when given their size."""
    if phase.format == Phase.Format.ROUND_ROBIN:
        return True
    return phase.format == Phase.Format.LIVES and bool(phase.group_size or phase.group_sizes)


def _create_groups(phase: Phase) -> None:
    """Draw the phase's groups: by lot with peña-mates apart (as always), or, with a seeding
    or the groups' sizes given, seeded from its entrants' order (tournaments.draw.plan)."""
    entrants = phase_entrants(phase)
    if phase.seeding or phase.group_sizes or phase.format != Phase.Format.ROUND_ROBIN:
        sizes = group_sizes(len(entrants), group_size=phase.group_size, sizes=phase.group_sizes)
        ranked = [e.id for e in initial_order(entrants, make_rng(lot_seed(phase, 1)))]
        drawn = seed_groups(ranked, sizes, method=phase.seeding or "snake", rng=lot_seed(phase, 1))
    else:
        drawn = round_robin_groups(
            entrants,
            rng=lot_seed(phase, 1),
            group_size=phase.group_size,
            separate_clubs=True,
        )
    stored = []
    for g in drawn:
        row = Group.objects.create(phase=phase, name=g.name)
        row.entries.set(g.entrant_ids)
        # The M2M keeps no order, and the schedule depends on the pot order: keep it here.
        stored.append({"name": g.name, "entry_ids": list(g.entrant_ids)})
    phase.settings = {**(phase.settings or {}), "groups": stored}
    if phase.format == Phase.Format.ROUND_ROBIN:
        # a partial round robin (the organizer's rounds) plays no more than the full one
        full = max(len(round_robin_schedule(g)) for g in drawn)
        phase.rounds_planned = min(phase.rounds_planned or full, full)
    phase.save(update_fields=["settings", "rounds_planned"])


def _lives_in_groups(phase: Phase, number: int, *, create: bool = True) -> list[Planned]:
    """An a-tres-ceros in each group: every group paired apart by its own results (out after
    ``lives`` losses inside the group); one table order across the groups."""
    if number == 1 and create:
        _create_groups(phase)
    groups = {g.name: g for g in Group.objects.filter(phase=phase)}
    entrants = {e.id: e for e in phase_entrants(phase)}
    past = history(phase, before=number)
    planned = []
    for stored in phase.settings.get("groups", []):
        ids = [i for i in stored["entry_ids"] if i in entrants]
        members = set(ids)
        own = [r for r in past if r.a_id in members]
        alive = lives_left([entrants[i] for i in ids], own, lives=phase.lives)
        if sum(1 for left in alive.values() if left) < 2:
            continue
        pairings = pair_lives(
            [entrants[i] for i in ids],
            own,
            lives=phase.lives,
            rng=lot_seed(phase, number),
            standings=None,
            separate_clubs_rounds=phase.separate_clubs_rounds,
        )
        planned.extend(Planned(p, groups[stored["name"]]) for p in pairings)
    if not planned:
        raise DrawError(
            "Every group of {phase} has its last pair standing; finish the phase.",
            code="lives_groups_done",
            phase=phase.name,
        )
    return [
        Planned(replace(item.pairing, table_order=n), item.group)
        for n, item in enumerate(planned, start=1)
    ]


def groups_redraw(phase: Phase, rnd: Round) -> None:
    """After the organizer moved pairs between groups before round 1 started: the Group rows
    follow ``settings["groups"]``, a liguilla's rounds follow its groups' new sizes, and round
    1's matches are drawn again (tables too)."""
    stored = phase.settings["groups"]
    for g in stored:
        Group.objects.get(phase=phase, name=g["name"]).entries.set(g["entry_ids"])
    if phase.format == Phase.Format.ROUND_ROBIN:
        full = max(
            len(round_robin_schedule(DrawGroup(g["name"], tuple(g["entry_ids"])))) for g in stored
        )
        partial = (phase.settings or {}).get("partial_rounds")
        phase.rounds_planned = min(partial or full, full)
    phase.save(update_fields=["settings", "rounds_planned"])
    # the trail of the old matches stays (its rows no longer point at them)
    AuditEntry.objects.filter(match__round=rnd).update(match=None)
    Match.objects.filter(round=rnd).delete()
    if phase.format == Phase.Format.ROUND_ROBIN:
        planned = _round_robin(phase, 1, create=False)
    else:
        planned = _lives_in_groups(phase, 1, create=False)
    tabled = table_pairings(phase.tournament, [item.pairing for item in planned])
    items = [replace(item, pairing=p) for item, p in zip(planned, tabled, strict=True)]
    save_matches(phase, rnd, items)


# --- Saving -----------------------------------------------------------------------------------


def reasons_json(pairing: Pairing) -> list[dict]:
    return [{"code": r.code, "params": dict(r.params)} for r in pairing.reasons]


def save_round(phase: Phase, number: int, planned: Sequence[Planned]) -> Round:
    """Tables for ``planned`` (raises DrawError, e.g. too few tables), then the draft Round
    and its Matches."""
    tabled = table_pairings(phase.tournament, [item.pairing for item in planned])
    busy = _tables_busy(phase)
    if busy:
        tabled = [p if p.table is None else replace(p, table=p.table + busy) for p in tabled]
    rnd = Round.objects.create(phase=phase, number=number, status=Round.Status.DRAFT)
    items = [replace(item, pairing=p) for item, p in zip(planned, tabled, strict=True)]
    save_matches(phase, rnd, items)
    return rnd


def _tables_busy(phase: Phase) -> int:
    """The highest table another phase's open round uses, when ``phase`` (fed by its entrants
    rules) is played beside it (a Cuadro B beside the Cuadro A): its tables follow; else 0."""
    if not phase.entrants:
        return 0
    top = (
        Match.objects.filter(round__phase__tournament_id=phase.tournament_id)
        .exclude(round__phase=phase)
        .exclude(round__status=Round.Status.CLOSED)
        .aggregate(top=Max("table_number"))["top"]
    )
    return top or 0


def table_pairings(tournament: Tournament, pairings: Sequence[Pairing]) -> list[Pairing]:
    """``pairings`` with tables set, in the order given."""
    ids = {e for p in pairings for e in p.entrant_ids}
    pins = dict(
        Entry.objects.filter(pk__in=ids, pinned_table__isnull=False).values_list(
            "id", "pinned_table"
        )
    )
    tabled = assign_tables(pairings, pins=pins, tables=tournament.tables_available or None)
    by_order = {p.table_order: p for p in tabled}
    return [by_order[p.table_order] for p in pairings]


def save_matches(phase: Phase, rnd: Round, planned: Sequence[Planned]) -> list[Match]:
    rules = round_rules(phase, rnd.number)  # a bye wins the round's full length
    now = timezone.now()
    rows = []
    for item in planned:
        p = item.pairing
        match = Match(
            round=rnd,
            group=item.group,
            bracket_key=p.match_id or "",
            table_number=p.table,
            entry_a_id=p.a_id,
            entry_b_id=p.b_id,
            reasons=reasons_json(p),
        )
        if p.is_bye:
            match.kind = Match.Kind.BYE
            match.status = Match.Status.CONFIRMED
            match.winner_id = p.a_id
            match.games_a = rules.games_per_vaca * rules.vacas_per_match
            match.vacas_a = rules.vacas_per_match
            match.confirmed_at = now
            match.table_number = None
        rows.append(match)
    return Match.objects.bulk_create(rows)


def draw_round(phase: Phase, number: int) -> Round:
    """Plan and save round ``number`` of ``phase`` (see `plan_round`, `save_round`; players
    alone: `draw_alone`)."""
    if phase.tournament.entrant_kind in ALONE:
        return draw_alone(phase, number)
    return save_round(phase, number, plan_round(phase, number))


# --- Players alone ------------------------------------------------------------------------------

ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)


def playing_individuals(tournament: Tournament) -> list[IndividualEntry]:
    """Checked-in, not withdrawn; or every registered player if nobody checked in."""
    rows = list(
        IndividualEntry.objects.filter(
            tournament=tournament,
            status__in=(Entry.Status.CHECKED_IN, Entry.Status.REGISTERED),
        ).order_by("id")
    )
    checked_in = [e for e in rows if e.status == Entry.Status.CHECKED_IN]
    return checked_in or rows


def individual_history(phase: Phase, *, before: int) -> list[PastTable]:
    """The tables of the phase's rounds before ``before``, as IndividualEntry ids."""
    tournament = phase.tournament
    by_player = dict(
        IndividualEntry.objects.filter(tournament=tournament).values_list("player_id", "id")
    )
    if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
        tables: dict[int, list[int]] = {}
        for table_id, entry_id in FrancesSeat.objects.filter(
            table__round__phase=phase, table__round__number__lt=before
        ).values_list("table_id", "entry_id"):
            tables.setdefault(table_id, []).append(entry_id)
        return [PastTable(tuple(ids)) for _, ids in sorted(tables.items())]
    rows = (
        Match.objects.filter(round__phase=phase, round__number__lt=before)
        .exclude(entry_a=None)
        .exclude(entry_b=None)
        .values_list(
            "entry_a__pair__player_one_id",
            "entry_a__pair__player_two_id",
            "entry_b__pair__player_one_id",
            "entry_b__pair__player_two_id",
        )
    )
    past = []
    for a1, a2, b1, b2 in rows:
        a = tuple(by_player[p] for p in (a1, a2) if p in by_player)
        b = tuple(by_player[p] for p in (b1, b2) if p in by_player)
        past.append(PastTable(a, b))
    return past


def draw_alone(phase: Phase, number: int) -> Round:
    """Round ``number`` of a tournament of players alone: drawn partnerships in ordinary
    matches (individual) or Mus francés tables; see the module docstring."""
    tournament = phase.tournament
    players = playing_individuals(tournament)
    past = individual_history(phase, before=number)
    standings = None
    if past:
        wanted = {p.id for p in players}
        standings = [r["entry_id"] for r in individual_rows(phase=phase) if r["entry_id"] in wanted]
    rng = lot_seed(phase, number)
    ids = [p.id for p in players]
    if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
        draw = seat_frances(
            ids,
            past,
            size=tournament.frances_table_size,
            rng=rng,
            standings=standings,
            tables=tournament.tables_available or None,
        )
    else:
        rests: dict[int, int] = {}
        for rested in (phase.settings or {}).get("rests", {}).values():
            for pk in rested:
                rests[pk] = rests.get(pk, 0) + 1
        draw = pair_individuals(
            ids,
            past,
            rng=rng,
            standings=standings,
            rests=rests,
            tables=tournament.tables_available or None,
        )
    rnd = Round.objects.create(phase=phase, number=number, status=Round.Status.DRAFT)
    if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
        for table in draw.tables:
            row = FrancesTable.objects.create(
                round=rnd,
                table_number=table.table_order,
                reasons=[{"code": r.code, "params": dict(r.params)} for r in table.reasons],
            )
            FrancesSeat.objects.bulk_create(
                FrancesSeat(table=row, entry_id=pk, seat=seat)
                for seat, pk in enumerate(table.a, start=1)
            )
        return rnd
    player_of = {p.id: p.player_id for p in players}
    matches = []
    for table in draw.tables:
        a = _partnership(tournament, [player_of[pk] for pk in table.a])
        b = _partnership(tournament, [player_of[pk] for pk in table.b])
        matches.append(
            Match(
                round=rnd,
                table_number=table.table_order,
                entry_a=a,
                entry_b=b,
                reasons=[{"code": r.code, "params": dict(r.params)} for r in table.reasons],
            )
        )
    Match.objects.bulk_create(matches)
    settings = dict(phase.settings or {})
    settings["rests"] = {**settings.get("rests", {}), str(number): list(draw.rests)}
    phase.settings = settings
    phase.save(update_fields=["settings"])
    return rnd


def _partnership(tournament: Tournament, players: list[int]) -> Entry:
    """The drawn Entry of these two players in the tournament (made with its Pair if new)."""
    one, two = players
    entry = (
        Entry.objects.filter(tournament=tournament, drawn=True)
        .filter(
            Q(pair__player_one_id=one, pair__player_two_id=two)
            | Q(pair__player_one_id=two, pair__player_two_id=one)
        )
        .first()
    )
    if entry is not None:
        return entry
    pair = (
        Pair.objects.filter(club=tournament.club, name="")
        .filter(Q(player_one_id=one, player_two_id=two) | Q(player_one_id=two, player_two_id=one))
        .exclude(entries__tournament=tournament)
        .order_by("pk")
        .first()
    ) or Pair.objects.create(player_one_id=one, player_two_id=two, club=tournament.club)
    return Entry.objects.create(
        tournament=tournament, pair=pair, drawn=True, status=Entry.Status.CHECKED_IN
    )


#: the drawn partnership of two players, for the table ladder of players alone
#: (tournaments/services/ladders.py)
partnership = _partnership


# --- Brackets ---------------------------------------------------------------------------------


def bracket_to_json(bracket: Bracket) -> dict:
    def slot(s) -> dict:
        return {"entrant_id": s.entrant_id, "winner_of": s.winner_of, "loser_of": s.loser_of}

    return {
        "size": bracket.size,
        "seeded": bracket.seeded,
        "draw_order": list(bracket.draw_order),
        "finals": list(bracket.finals),
        "labels": list(bracket.labels),
        "matches": [
            {
                "id": m.id,
                "side": m.side.value,
                "round": m.round,
                "position": m.position,
                "stage": m.stage,
                "conditional": m.conditional,
                "a": slot(m.a),
                "b": slot(m.b),
            }
            for m in bracket.matches
        ],
    }


def bracket_swap_entrants(data: dict, first: int, second: int) -> dict:
    """The stored bracket with two first-round entrants swapped (an organizer's swap)."""
    swap = {first: second, second: first}
    matches = []
    for m in data["matches"]:
        m = dict(m)
        for side in ("a", "b"):
            s = dict(m[side])
            if s.get("entrant_id") in swap:
                s["entrant_id"] = swap[s["entrant_id"]]
            m[side] = s
        matches.append(m)
    return {**data, "matches": matches}


@dataclass(frozen=True)
class Advanced:
    created: list[Match]
    corrected: list[tuple[Match, dict, dict]]  # match, old entries, new entries


def advance_bracket(phase: Phase) -> Advanced:
    """Create the bracket matches whose two pairs are now known (a whole stage at a time, in
    the Round numbered like the stage), and re-point not-yet-started matches whose pairs a
    corrected result changed. Idempotent: a bracket key is never created twice."""
    bracket = bracket_from_json(phase.bracket)
    rows = list(
        Match.objects.select_for_update(of=("self",))
        .filter(round__phase=phase)
        .exclude(bracket_key="")
        .order_by("pk")
    )
    by_key = {m.bracket_key: m for m in rows}
    winners = {
        m.bracket_key: m.winner_id
        for m in rows
        if m.status == Match.Status.CONFIRMED and m.kind != Match.Kind.BYE and m.winner_id
    }
    corrected = _repoint(bracket, winners, by_key)
    ready = [m for m in advance(bracket, winners) if m.id not in by_key]
    created: list[Match] = []
    stages = sorted({m.stage for m in ready})
    for stage in stages:
        pairings = bracket_pairings(bracket, [m for m in ready if m.stage == stage])
        rnd, new = Round.objects.get_or_create(
            phase=phase, number=stage, defaults={"status": Round.Status.DRAFT}
        )
        taken = set(
            Match.objects.filter(round=rnd, table_number__isnull=False).values_list(
                "table_number", flat=True
            )
        )
        tabled = _tables_for_added(phase.tournament, pairings, taken)
        created += save_matches(phase, rnd, [Planned(p) for p in tabled])
    return Advanced(created, corrected)


def _repoint(
    bracket: Bracket, winners: dict[str, int], by_key: dict[str, Match]
) -> list[tuple[Match, dict, dict]]:
    changed = []
    for m in resolve(bracket, winners):
        row = by_key.get(m.id)
        if row is None or row.kind == Match.Kind.BYE:
            continue
        if row.status != Match.Status.PENDING or row.started_at is not None:
            continue
        a, b = m.a.entrant_id, m.b.entrant_id
        if a is None:
            a, b = b, a
        if a is None or b is None or {a, b} == {row.entry_a_id, row.entry_b_id}:
            continue
        old = {"entry_a": row.entry_a_id, "entry_b": row.entry_b_id}
        row.entry_a_id, row.entry_b_id = a, b
        row.save(update_fields=["entry_a", "entry_b", "updated_at"])
        changed.append((row, old, {"entry_a": a, "entry_b": b}))
    return changed


def _tables_for_added(
    tournament: Tournament, pairings: Sequence[Pairing], taken: set[int]
) -> list[Pairing]:
    """Tables for new matches; into a round that already has tables, the lowest free ones.
    Too few tables leaves the new matches without one (the organizer moves them to a table
    before publishing) rather than failing the task that advances the bracket."""
    if not taken:
        try:
            return table_pairings(tournament, pairings)
        except DrawError as error:
            log.warning("bracket matches left without tables: %s", error)
            return [p.with_table(None) for p in pairings]
    limit = tournament.tables_available or None
    free = (t for t in range(1, 10_000) if t not in taken and (limit is None or t <= limit))
    result = []
    for p in sorted(pairings, key=lambda p: p.table_order):
        result.append(p.with_table(None if p.is_bye else next(free, None)))
    return result
