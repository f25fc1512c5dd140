"""A jornada of every division at once: drawn, published, closed.

Responsible for: ``jornada_draw`` (round N of every division, saved as drafts through
tournaments.draw_manager with each phase locked, once the jornadas before it are published: a
division of fixed pairs plays its circle-method schedule, twice with the sides swapped in a
double league, a pair resting (descanso) when their number is odd or the other withdrew; an
individual division plays the night seasons.leagues.individual draws among who came, each
drawn pair the peña's pair of those two players, entered in the division's tournament; tables
numbered across the whole night, Primera's first), ``jornada_publish`` (each division's round
published by tournaments: e-mails, webhooks, table links) and ``jornada_close`` (each round
closed by tournaments, every match decided).

Must not: touch a result (postponements.py does, through tournaments' result services).

Terms: jornada, descanso, mesa, pareja, división.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Club, Pair
from config.errors import Conflict, Invalid, NotFound
from seasons.leagues import individual, selectors
from seasons.leagues.models import Division, Jornada, League
from seasons.leagues.services.checks import (
    User,
    _ids,
    _league_players,
    _lock_league,
)
from tournaments import draw_manager
from tournaments.draw import Group as DrawGroup
from tournaments.draw import Pairing, Reason, round_robin_schedule
from tournaments.models import Entry, Phase, Round, Tournament
from tournaments.services import rounds as rounds_services
from tournaments.services import tournaments as tournament_services


def jornada_draw(
    *, jornada: Jornada, actor: User, present: Mapping[int, Sequence[int]] | None = None
) -> Jornada:
    """Draw jornada N: round N of every division, as drafts the organizer checks and publishes.

    ``present`` (individual leagues): division id → the ids of the players who came.
    """
    with transaction.atomic():
        league = _lock_league(jornada.league, actor)
        jornada = Jornada.objects.select_for_update().get(pk=jornada.pk)
        if jornada.status != Jornada.Status.PLANNED:
            raise Conflict(
                "Jornada {number} is already drawn.", code="jornada_drawn", number=jornada.number
            )
        earlier = list(
            Jornada.objects.filter(league=league, number__lt=jornada.number)
            .exclude(status=Jornada.Status.PUBLISHED)
            .values_list("number", flat=True)
        )
        if earlier:
            raise Conflict(
                "Publish jornada {number} before drawing jornada {next}.",
                code="jornada_previous_open",
                number=earlier[0],
                next=jornada.number,
            )
        divisions = list(Division.objects.filter(league=league).order_by("level"))
        if not divisions:
            raise Conflict(
                "The league has no division yet; add one before drawing.",
                code="league_no_divisions",
            )
        if league.kind == League.Kind.INDIVIDUAL:
            present = _present(divisions, present)
        table_number = 1
        for division in divisions:
            phase = Phase.objects.select_for_update(of=("self",)).get(pk=division.phase_id)
            phase.tournament = Tournament.objects.select_related("club").get(pk=phase.tournament_id)
            division.phase = phase
            if league.kind == League.Kind.PAIRS:
                pairings, resting = _pairs_jornada(league, division, jornada.number)
            else:
                pairings, resting = _individual_jornada(
                    league, division, jornada.number, present.get(division.pk, []), actor
                )
            if resting:
                division.resting = {**division.resting, str(jornada.number): resting}
                division.save(update_fields=["resting"])
            if not pairings:
                continue
            tabled = []
            for p in pairings:
                tabled.append(draw_manager.Planned(p.with_table(table_number)))
                table_number += 1
            rnd = Round.objects.create(phase=phase, number=jornada.number)
            draw_manager.save_matches(phase, rnd, tabled)
            if phase.status == Phase.Status.PENDING:
                phase.status = Phase.Status.RUNNING
                phase.save(update_fields=["status"])
        jornada.status = Jornada.Status.DRAWN
        jornada.save(update_fields=["status"])
    jornada.league = league
    return jornada


def _present(divisions: list[Division], present: Any) -> dict[int, list[int]]:
    if not isinstance(present, Mapping) or not present:
        raise Invalid(
            "Say who came: for each division, the ids of the players present.",
            code="jornada_present_missing",
        )
    known = {d.pk for d in divisions}
    out: dict[int, list[int]] = {}
    for key, ids in present.items():
        try:
            division_id = int(key)
        except (TypeError, ValueError):
            division_id = -1
        if division_id not in known:
            raise NotFound(
                "The league has no division {division}.",
                code="division_not_found",
                division=str(key)[:20],
            )
        out[division_id] = _ids(ids, field="present")
    everybody = [p for ids in out.values() for p in ids]
    if len(set(everybody)) != len(everybody):
        raise Invalid("A player is present in two divisions at once.", code="jornada_present_twice")
    return out


def _pairs_jornada(
    league: League, division: Division, number: int
) -> tuple[list[Pairing], list[int]]:
    withdrawn = set(
        Entry.objects.filter(
            tournament_id=division.tournament_id, status=Entry.Status.WITHDRAWN
        ).values_list("id", flat=True)
    )
    schedule = round_robin_schedule(DrawGroup(division.name, tuple(division.schedule)))
    rounds = len(schedule)
    leg, index = divmod(number - 1, rounds)
    if leg >= league.legs:
        return [], []
    info = {"group": division.name, "round": number, "rounds": rounds * league.legs}
    pairings, resting = [], []
    for p in schedule[index]:
        if p.is_bye:
            resting.append(p.a_id)
            continue
        a, b = (p.b_id, p.a_id) if leg % 2 else (p.a_id, p.b_id)
        if a in withdrawn or b in withdrawn:
            resting.extend(e for e in (a, b) if e not in withdrawn)
            continue
        pairings.append(Pairing(len(pairings) + 1, a, b, (Reason("round_robin", info),)))
    return pairings, resting


def _individual_jornada(
    league: League, division: Division, number: int, present: list[int], actor: User
) -> tuple[list[Pairing], list[int]]:
    if not present:
        return [], []
    players = _league_players(league, present)
    partners, opponents, rests = selectors.individual_history(division=division, before=number)
    tournament = division.phase.tournament
    night = individual.draw_night(
        [p.pk for p in players],
        partners=partners,
        opponents=opponents,
        rests=rests,
        seed=tournament.draw_seed * 1_000 + number,
    )
    division.players.add(*players)
    pairings = []
    for m in night.matches:
        a = _entry_for(tournament, league.club, m.pair_a)
        b = _entry_for(tournament, league.club, m.pair_b)
        pairings.append(Pairing(len(pairings) + 1, a.pk, b.pk))
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament_services.tournament_status_change(
            tournament=tournament,
            actor=actor,
            status=Tournament.Status.RUNNING,
            managed=True,
        )
    return pairings, list(night.resting)


def _entry_for(tournament: Tournament, club: Club, players: tuple[int, int]) -> Entry:
    """The division tournament's entry of the peña's pair of these two players (made once)."""
    one, two = players
    pair = (
        Pair.objects.filter(club=club)
        .filter(Q(player_one_id=one, player_two_id=two) | Q(player_one_id=two, player_two_id=one))
        .order_by("pk")
        .first()
    )
    if pair is None:
        pair = Pair.objects.create(club=club, player_one_id=one, player_two_id=two)
    entry, _ = Entry.objects.get_or_create(
        tournament=tournament,
        pair=pair,
        defaults={"status": Entry.Status.CHECKED_IN, "checked_in_at": timezone.now()},
    )
    return entry


def jornada_publish(*, jornada: Jornada, actor: User) -> Jornada:
    """Publish a drawn jornada: each division's round is published by tournaments (pairs
    e-mailed their table, webhooks told), so its table links and sheets work at once."""
    with transaction.atomic():
        league = _lock_league(jornada.league, actor)
        jornada = Jornada.objects.select_for_update().get(pk=jornada.pk)
        if jornada.status != Jornada.Status.DRAWN:
            raise Conflict(
                "Jornada {number} is not a draft: draw it first, or it is already published.",
                code="jornada_not_drawn",
                number=jornada.number,
            )
        for rnd in Round.objects.filter(
            phase__league_division__league=league, number=jornada.number, status=Round.Status.DRAFT
        ).order_by("phase__league_division__level"):
            rounds_services.round_publish(round=rnd, actor=actor, managed=True)
        jornada.status = Jornada.Status.PUBLISHED
        jornada.save(update_fields=["status"])
    jornada.league = league
    return jornada


def jornada_close(*, jornada: Jornada, actor: User) -> Jornada:
    """Close a published jornada: each division's round N is closed by tournaments (every
    match decided: a result, a walkover or a double loss; Conflict naming the tables that are
    not). The division's tournament refuses a close from its own desk: it is the league's."""
    with transaction.atomic():
        league = _lock_league(jornada.league, actor)
        jornada = Jornada.objects.select_for_update().get(pk=jornada.pk)
        if jornada.status != Jornada.Status.PUBLISHED:
            raise Conflict(
                "Jornada {number} is not published yet; publish and play it before closing it.",
                code="jornada_not_published",
                number=jornada.number,
            )
        for rnd in Round.objects.filter(
            phase__league_division__league=league,
            number=jornada.number,
            status=Round.Status.PUBLISHED,
        ).order_by("phase__league_division__level"):
            rounds_services.round_close(round=rnd, actor=actor, managed=True)
    jornada.league = league
    return jornada
