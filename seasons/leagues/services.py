"""Writes of the leagues: a league and its calendar, its points and tiebreaks changed after
its creation, divisions (added; removed while none of their matches has a result), each
jornada's draw and its publishing, postponed matches and what is decided after their
deadline, the next season.

Responsible for: the league's own rows, and playing each division as a tournament of the peña
through tournaments' services (created, pairs registered, started, one liguilla phase) so that
everything after the draw — publishing the round (e-mails, webhooks), the table's link and QR,
both pairs' entries and confirmation, disputes, corrections, substitutes, forfeits, ratings —
is the tournaments' result flow, unchanged. The jornada's draw saves its rounds through
tournaments.draw_manager, like the rounds services, with the phase locked.

Every write: one transaction; the league row locked first (then phases, rounds, matches: the
order tournaments' services use), the caller checked as an organizer of the league's peña
(somebody who may not see a private league gets NotFound), the state re-checked.

Choices:

- A fixed-pairs division's schedule is the circle method (tournaments.draw.roundrobin) over
  its pairs in the order the organizer gave; a double league plays it twice, the second time
  with the sides swapped. An odd number of pairs: one rests each jornada (descanso: no match,
  no points).
- Tables are numbered across the whole night: Primera's from 1, then Segunda's after them…
- An individual jornada: the organizer says who came; seasons.leagues.individual draws it; each
  drawn pair is the peña's pair of those two players (created the first time) and is entered
  in the division's tournament.
- A postponed match keeps its table link: a result entered before the organizer decides
  counts as played. After the deadline the organizer applies a walkover (the tournaments'
  forfeit, with its full score) or a double loss (tournaments' match_double_loss: the match is
  confirmed with no winner, so its round can close; both lose, as a walkover lost).

Two player rows made one person (clubs.identity, which LeaguesConfig.ready tells): two rows in
one individual division are two people (``players_merge_check``); an individual division keeps
who rested as player ids in a JSON column, which model meta cannot see, so ``players_merged``
writes ``keep`` for ``other`` there and ``players_unmerged`` puts ``other`` back where it was.

Must not: compute standings (table.py) or touch a result but through tournaments' services.

Terms: liga, temporada, división, jornada, descanso, aplazada, no presentada, doble derrota,
ascenso / descenso, pareja, mesa.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from clubs import roles
from clubs import services as club_services
from clubs.models import Club, Pair, Player
from config.errors import Conflict, Invalid, NotFound
from seasons.leagues import individual, selectors, table
from seasons.leagues.models import Division, Jornada, League, Postponement
from tournaments import draw_manager
from tournaments.draw import Group as DrawGroup
from tournaments.draw import Pairing, Reason, round_robin_schedule
from tournaments.models import AuditEntry, Entry, Match, Phase, ResultSubmission, Round, Tournament
from tournaments.services import registration as registration_services
from tournaments.services import results as results_services
from tournaments.services import rounds as rounds_services
from tournaments.services import tournaments as tournament_services

User = AbstractBaseUser | AnonymousUser | None

MAX_POINTS = 20
MAX_JORNADAS = 60
PHASE_NAME = "Liga"


# --- Checks -------------------------------------------------------------------------------------


def _lock_league(league: League, actor: User) -> League:
    locked = League.objects.select_for_update(of=("self",)).filter(pk=league.pk).first()
    if locked is None:
        raise selectors.league_not_found(league.pk)
    locked.club = Club.objects.get(pk=locked.club_id)
    if not selectors.league_readable(league=locked, user=actor):
        raise selectors.league_not_found(league.pk)
    roles.require_organizer(actor, locked.club)
    return locked


def tidy_text(value: Any, *, field: str, max_length: int) -> str:
    """``value`` with its spaces tidied ("" when empty); Invalid when too long."""
    text = " ".join(str(value or "").split())
    if len(text) > max_length:
        raise Invalid(
            "'{text}' is too long: at most {max_length} characters.",
            code="league_text_too_long",
            field=field,
            text=text[:40],
            max_length=max_length,
        )
    return text


def _points(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise Invalid(
            "'{field}' is a whole number of league points from 0 to {max_points}.",
            code="league_points",
            field=name,
            max_points=MAX_POINTS,
        )
    return value


def _tiebreaks(order: Any) -> list[str]:
    if order is None:
        return list(table.DEFAULT_TIEBREAKS)
    if not isinstance(order, list | tuple) or any(t not in table.TIEBREAKS for t in order):
        raise Invalid(
            "The league's tiebreaks are a list of {tiebreaks}.",
            code="league_tiebreaks",
            tiebreaks=list(table.TIEBREAKS),
        )
    if len(set(order)) != len(order):
        raise Invalid(
            "A tiebreak is named twice in the league's order.", code="league_tiebreak_twice"
        )
    return list(order)


def _dates(dates: Any) -> list[dt.date]:
    if not isinstance(dates, list | tuple) or len(dates) > MAX_JORNADAS:
        raise Invalid(
            "The calendar is a list of at most {max_jornadas} dates.",
            code="league_calendar",
            max_jornadas=MAX_JORNADAS,
        )
    out = []
    for value in dates:
        if isinstance(value, str):
            try:
                value = dt.date.fromisoformat(value)
            except ValueError:
                raise Invalid(
                    "'{value}' is not a date; write it as 2026-10-01.",
                    code="league_calendar_date",
                    value=value[:20],
                ) from None
        if not isinstance(value, dt.date):
            raise Invalid(
                "'{value}' is not a date; write it as 2026-10-01.",
                code="league_calendar_date",
                value=str(value)[:20],
            )
        out.append(value)
    if any(b <= a for a, b in zip(out, out[1:], strict=False)):
        raise Invalid(
            "The calendar's dates go forward, one jornada a day at most.",
            code="league_calendar_order",
        )
    return out


def name_and_season(name: Any, season: Any) -> tuple[str, str]:
    """A league's name and season (of pairs or of peñas), tidied; both are needed."""
    name = tidy_text(name, field="name", max_length=120)
    season = tidy_text(season, field="season", max_length=20)
    if not name or not season:
        raise Invalid(
            "A league needs its name and its season, e.g. 'Liga de los jueves' and '2026-27'.",
            code="league_name_season",
            field="name" if not name else "season",
        )
    return name, season


def free_slug(
    club: Club, name: str, season: str, slug: str, *, model=League, fallback="liga"
) -> str:
    """The slug asked for (or one made of name and season), numbered until no league of the
    peña (``model``: a league of pairs or of peñas) holds it."""
    base = slugify(slug or f"{name} {season}")[:70] or fallback
    candidate, n = base, 1
    while model.objects.filter(club=club, slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


# --- A league and its calendar ------------------------------------------------------------------


def league_create(
    *,
    club: Club,
    actor: User,
    name: str,
    season: str,
    kind: str = League.Kind.PAIRS,
    legs: int = 1,
    is_public: bool = True,
    preset: str = "",
    points_win: int = 2,
    points_loss: int = 1,
    points_walkover_loss: int = 0,
    tiebreaks: list[str] | None = None,
    dates: Sequence[Any] = (),
    slug: str = "",
    previous: League | None = None,
) -> League:
    """A league of ``club`` for ``season``, with its calendar of jornadas (``dates``)."""
    roles.require_organizer(actor, club)
    name, season = name_and_season(name, season)
    if kind not in League.Kind.values:
        raise Invalid(
            "A league is of fixed pairs or individual: {kinds}, not '{kind}'.",
            code="league_kind",
            kind=str(kind)[:40],
            kinds=list(League.Kind.values),
        )
    if legs not in (1, 2):
        raise Invalid(
            "A league is played over one leg or two (ida y vuelta), not {legs}.",
            code="league_legs",
            legs=str(legs)[:10],
        )
    values = {
        "points_win": _points("points_win", points_win),
        "points_loss": _points("points_loss", points_loss),
        "points_walkover_loss": _points("points_walkover_loss", points_walkover_loss),
    }
    if values["points_win"] <= values["points_loss"]:
        raise Invalid("A win must give more league points than a loss.", code="league_points_order")
    order = _tiebreaks(tiebreaks)
    calendar = _dates(list(dates))
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        league = League.objects.create(
            club=club,
            name=name,
            season=season,
            slug=free_slug(club, name, season, slug),
            kind=kind,
            legs=legs,
            is_public=bool(is_public),
            preset_name=preset or "",
            tiebreaks=order,
            previous=previous,
            created_by=actor if actor is not None and actor.is_authenticated else None,
            **values,
        )
        Jornada.objects.bulk_create(
            Jornada(league=league, number=n, date=d) for n, d in enumerate(calendar, start=1)
        )
    return league


def league_calendar_set(*, league: League, actor: User, dates: Sequence[Any]) -> list[Jornada]:
    """The dates of the jornadas not drawn yet; those drawn keep theirs (and come first)."""
    calendar = _dates(list(dates))
    with transaction.atomic():
        league = _lock_league(league, actor)
        drawn = list(
            Jornada.objects.filter(league=league)
            .exclude(status=Jornada.Status.PLANNED)
            .order_by("number")
        )
        if drawn and calendar and calendar[0] <= drawn[-1].date:
            raise Invalid(
                "Jornada {number} was drawn for {date}; the dates still to come must be later.",
                code="league_calendar_after_drawn",
                number=drawn[-1].number,
                date=drawn[-1].date.isoformat(),
            )
        Jornada.objects.filter(league=league, status=Jornada.Status.PLANNED).delete()
        start = len(drawn) + 1
        Jornada.objects.bulk_create(
            Jornada(league=league, number=n, date=d) for n, d in enumerate(calendar, start=start)
        )
    return selectors.jornadas_of(league=league)


#: what an organizer may change in a league after creating it (league_rules_update)
RULES = ("points_win", "points_loss", "points_walkover_loss", "tiebreaks")


def league_rules_update(*, league: League, actor: User, via: str = "api", **changes: Any) -> League:
    """Change the league's points (``points_win``, ``points_loss``, ``points_walkover_loss``)
    and ``tiebreaks`` at any time. The standings are computed from the results with the
    league's rules on every read, so they follow at once; the change is audited on every
    division's tournament (``league_rules_changed``, old and new values)."""
    unknown = set(changes) - set(RULES)
    if unknown:
        raise TypeError(f"unknown league rules {sorted(unknown)}")
    checked = {
        name: (_tiebreaks(value) if name == "tiebreaks" else _points(name, value))
        for name, value in changes.items()
    }
    with transaction.atomic():
        league = _lock_league(league, actor)
        old = {name: getattr(league, name) for name in checked}
        new = {name: value for name, value in checked.items() if old[name] != value}
        if not new:
            return league
        for name, value in new.items():
            setattr(league, name, value)
        if league.points_win <= league.points_loss:
            raise Invalid(
                "A win must give more league points than a loss.", code="league_points_order"
            )
        league.save(update_fields=list(new))
        AuditEntry.objects.bulk_create(
            AuditEntry(
                tournament_id=tournament_id,
                action="league_rules_changed",
                actor=actor if actor is not None and actor.is_authenticated else None,
                via=via,
                old={name: old[name] for name in new},
                new=new,
            )
            for tournament_id in Division.objects.filter(league=league).values_list(
                "tournament_id", flat=True
            )
        )
    return league


# --- Divisions ----------------------------------------------------------------------------------


def division_create(
    *,
    league: League,
    actor: User,
    name: str,
    pair_ids: Sequence[int] = (),
    player_ids: Sequence[int] = (),
    promote: int = 0,
    relegate: int = 0,
    pair_lines: Sequence[str] = (),
) -> Division:
    """The league's next division (Primera first), played as a tournament of the peña.

    Fixed pairs: ``pair_ids`` (at least two, the peña's pairs) in the schedule's order, or
    ``pair_lines`` ("Ana García / Luis Pérez", the peña's pair of those players, made if new).
    Individual: ``player_ids``, the division's players (others may still come on a night).
    """
    name = tidy_text(name, field="name", max_length=60)
    if not name:
        raise Invalid("Give the division a name, e.g. 'Primera'.", code="division_name")
    for label, value in (("promote", promote), ("relegate", relegate)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
            raise Invalid(
                "'{field}' is how many pairs go up or down: a whole number from 0 to 20.",
                code="division_moves",
                field=label,
            )
    with transaction.atomic():
        league = _lock_league(league, actor)
        if Jornada.objects.filter(league=league).exclude(status=Jornada.Status.PLANNED).exists():
            raise Conflict(
                "The league has started; divisions are added before its first jornada is drawn.",
                code="league_started",
            )
        if pair_lines:
            pair_ids = [
                club_services.pair_get_or_create_from_names(club=league.club, text=line).pk
                for line in pair_lines
            ]
        pairs = _league_pairs(league, pair_ids) if league.kind == League.Kind.PAIRS else []
        players = (
            _league_players(league, player_ids) if league.kind == League.Kind.INDIVIDUAL else []
        )
        first = Jornada.objects.filter(league=league).order_by("number").first()
        tournament = tournament_services.tournament_create(
            club_slug=league.club.slug,
            actor=actor,
            name=f"{league.name} {league.season} · {name}"[:160],
            starts_on=first.date if first else timezone.localdate(),
            is_public=league.is_public,
            preset=league.preset_name or None,
            managed_by=Tournament.ManagedBy.LEAGUE,
            managed_label=f"{league.name} {league.season} · {name}",
            managed_url=reverse("leagues:organizer-league", kwargs={"league_id": league.pk}),
        )
        tournament = tournament_services.tournament_status_change(
            tournament=tournament,
            actor=actor,
            status=Tournament.Status.REGISTRATION,
            managed=True,
        )
        entries = [
            registration_services.entry_register(tournament=tournament, pair_id=p.pk, actor=actor)
            for p in pairs
        ]
        if pairs:
            tournament = tournament_services.tournament_status_change(
                tournament=tournament,
                actor=actor,
                status=Tournament.Status.RUNNING,
                managed=True,
            )
        phase = rounds_services.phase_create(
            tournament=tournament,
            actor=actor,
            name=PHASE_NAME,
            format=Phase.Format.ROUND_ROBIN,
            group_size=max(2, len(entries)),
            managed=True,
        )
        level = (
            Division.objects.filter(league=league)
            .order_by("-level")
            .values_list("level", flat=True)
            .first()
            or 0
        ) + 1
        division = Division.objects.create(
            league=league,
            name=name,
            level=level,
            promote=promote,
            relegate=relegate,
            tournament=tournament,
            phase=phase,
            schedule=[e.pk for e in entries],
        )
        if players:
            division.players.set(players)
    return division


def division_remove(*, league: League, actor: User, division_id: int, via: str = "api") -> None:
    """Remove a division and its tournament while none of its matches has a result (none
    entered, confirmed, forfeited or decided: Conflict ``division_has_results`` otherwise, and
    it stays). The divisions below move up a level; the removal is audited on the tournaments
    of the divisions that stay (``league_division_removed``)."""
    with transaction.atomic():
        league = _lock_league(league, actor)
        division = (
            Division.objects.select_for_update().filter(league=league, pk=division_id).first()
        )
        if division is None:
            raise NotFound(
                "The league has no division {division}.",
                code="division_not_found",
                division=str(division_id)[:20],
            )
        # its matches locked (only their rows, in id order, as the result services lock one):
        # a result on its way waits for the removal, then finds no match
        statuses = list(
            Match.objects.select_for_update(of=("self",))
            .filter(round__phase_id=division.phase_id)
            .order_by("pk")
            .values_list("status", flat=True)
        )
        decided = any(status != Match.Status.PENDING for status in statuses)
        entered = ResultSubmission.objects.filter(match__round__phase_id=division.phase_id)
        if decided or entered.exists():
            raise Conflict(
                "The division {division} has results already; a division is removed only "
                "while none of its matches has one.",
                code="division_has_results",
                division=division.name,
            )
        tournament = Tournament.objects.select_for_update().get(pk=division.tournament_id)
        level, name = division.level, division.name
        division.delete()
        Match.objects.filter(round__phase__tournament=tournament).delete()
        for phase in Phase.objects.filter(tournament=tournament).order_by("-order"):
            phase.delete()
        tournament.delete()
        for below in Division.objects.filter(league=league, level__gt=level).order_by("level"):
            below.level -= 1
            below.save(update_fields=["level"])
        AuditEntry.objects.bulk_create(
            AuditEntry(
                tournament_id=tournament_id,
                action="league_division_removed",
                actor=actor if actor is not None and actor.is_authenticated else None,
                via=via,
                old={"division": name, "level": level},
            )
            for tournament_id in Division.objects.filter(league=league).values_list(
                "tournament_id", flat=True
            )
        )


def _league_pairs(league: League, pair_ids: Sequence[int]) -> list[Pair]:
    ids = _ids(pair_ids, field="pair_ids")
    if len(ids) < 2:
        raise Invalid(
            "A division of fixed pairs needs at least 2 pairs; it has {count}.",
            code="division_too_few_pairs",
            count=len(ids),
        )
    found = {p.pk: p for p in Pair.objects.filter(pk__in=ids, club=league.club)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            "The peña has no pair {pairs}; create the pairs first.",
            code="division_pair_unknown",
            pairs=missing,
        )
    taken = list(
        Entry.objects.filter(tournament__league_division__league=league, pair_id__in=ids)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("pair_id", flat=True)
    )
    if taken:
        raise Conflict(
            "Pair {pairs} already plays in another division of this league.",
            code="division_pair_taken",
            pairs=taken,
        )
    return [found[i] for i in ids]


def _league_players(league: League, player_ids: Sequence[int]) -> list[Player]:
    ids = _ids(player_ids, field="player_ids")
    found = {p.pk: p for p in Player.objects.filter(pk__in=ids, clubs=league.club)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            "The peña has no player {players}; add them to the peña first.",
            code="league_player_unknown",
            players=missing,
        )
    return [found[i] for i in ids]


def _ids(values: Any, *, field: str) -> list[int]:
    if not isinstance(values, list | tuple) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in values
    ):
        raise Invalid("'{field}' is a list of ids.", code="league_ids", field=field)
    if len(set(values)) != len(values):
        raise Invalid("'{field}' names an id twice.", code="league_ids_twice", field=field)
    return list(values)


# --- A jornada: draw and publish ----------------------------------------------------------------


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


# --- Postponed matches --------------------------------------------------------------------------


def _league_match(league: League, match_id: int) -> tuple[Match, Division]:
    match = (
        Match.objects.select_for_update(of=("self",))
        .filter(pk=match_id, round__phase__league_division__league=league)
        .first()
    )
    if match is None:
        raise NotFound(
            "The league has no match {match}.", code="league_match_not_found", match=match_id
        )
    division = Division.objects.get(phase_id=match.round.phase_id)
    return match, division


def match_postpone(
    *, league: League, actor: User, match_id: int, deadline: dt.date, reason: str = ""
) -> Postponement:
    """Postpone a match not played on its night until ``deadline`` (again: a new deadline)."""
    with transaction.atomic():
        league = _lock_league(league, actor)
        match, division = _league_match(league, match_id)
        if match.round.status == Round.Status.DRAFT:
            raise Conflict(
                "The jornada of this match is not published yet; publish it first.",
                code="postpone_draft",
            )
        if match.status == Match.Status.CONFIRMED:
            raise Conflict(
                "This match has a confirmed result; there is nothing to postpone.",
                code="postpone_played",
            )
        date = (
            Jornada.objects.filter(league=league, number=match.round.number)
            .values_list("date", flat=True)
            .first()
        )
        if date is not None and deadline <= date:
            raise Invalid(
                "The deadline must come after the jornada's date ({date}).",
                code="postpone_deadline",
                date=date.isoformat(),
            )
        post, _ = Postponement.objects.update_or_create(
            match=match,
            defaults={
                "division": division,
                "deadline": deadline,
                "reason": " ".join(str(reason or "").split())[:200],
                "outcome": "",
                "decided_at": None,
                "created_by": actor if actor is not None and actor.is_authenticated else None,
            },
        )
    return post


def postponement_decide(
    *,
    league: League,
    actor: User,
    match_id: int,
    outcome: str,
    absent_side: str = "",
    today: dt.date | None = None,
) -> Postponement:
    """After the deadline: a walkover (``absent_side`` lost, the tournaments' forfeit) or a
    double loss (both lose as a walkover lost)."""
    today = today or timezone.localdate()
    if outcome not in (Postponement.Outcome.WALKOVER, Postponement.Outcome.DOUBLE_LOSS):
        raise Invalid(
            "After the deadline the organizer applies a walkover or a double loss: {outcomes}.",
            code="postponement_outcome",
            outcomes=[Postponement.Outcome.WALKOVER.value, Postponement.Outcome.DOUBLE_LOSS.value],
        )
    with transaction.atomic():
        league = _lock_league(league, actor)
        match, _division = _league_match(league, match_id)
        post = Postponement.objects.select_for_update().filter(match=match).first()
        if post is None:
            raise Conflict(
                "This match was not postponed; record its result or its forfeit instead.",
                code="postponement_missing",
            )
        if post.outcome:
            raise Conflict("This postponed match is already decided.", code="postponement_decided")
        if today <= post.deadline:
            raise Conflict(
                "The deadline of this match is {deadline}; it can still be played until then.",
                code="postponement_before_deadline",
                deadline=post.deadline.isoformat(),
            )
        if match.status == Match.Status.CONFIRMED:
            post.outcome = Postponement.Outcome.PLAYED
        elif outcome == Postponement.Outcome.WALKOVER:
            results_services.match_forfeit(
                match=match, absent_side=absent_side, version=match.version, actor=actor
            )
            post.outcome = outcome
        else:
            # both lose, recorded in tournaments: the match is decided, the round can close
            results_services.match_double_loss(
                match=match, version=match.version, actor=actor, managed=True
            )
            post.outcome = outcome
        post.decided_at = timezone.now()
        post.save(update_fields=["outcome", "decided_at"])
    return post


# --- The next season ----------------------------------------------------------------------------


def league_next_season(
    *, league: League, actor: User, season: str, dates: Sequence[Any] = (), name: str = ""
) -> League:
    """Next season's league: the same settings and divisions, filled from this season's final
    standings — each division's top ``promote`` go up one division, its bottom ``relegate`` go
    down one (Primera promotes nobody, the last division relegates nobody)."""
    with transaction.atomic():
        league = _lock_league(league, actor)
        open_ = Jornada.objects.filter(league=league).exclude(status=Jornada.Status.PUBLISHED)
        if open_.exists() or not Jornada.objects.filter(league=league).exists():
            raise Conflict(
                "The season is not over: every jornada must be published first.",
                code="league_season_open",
            )
        standings = selectors.league_standings(league=league)
        moved = season_moves(
            [
                ([row.competitor for row in s.rows], s.division.promote, s.division.relegate)
                for s in standings
            ]
        )
        new = league_create(
            club=league.club,
            actor=actor,
            name=name or league.name,
            season=season,
            kind=league.kind,
            legs=league.legs,
            is_public=league.is_public,
            preset=league.preset_name,
            points_win=league.points_win,
            points_loss=league.points_loss,
            points_walkover_loss=league.points_walkover_loss,
            tiebreaks=list(selectors.league_tiebreaks(league)),
            dates=dates,
            previous=league,
        )
        pair_of = dict(
            Entry.objects.filter(tournament__league_division__league=league).values_list(
                "id", "pair_id"
            )
        )
        for s, members in zip(standings, moved, strict=True):
            if league.kind == League.Kind.PAIRS:
                division_create(
                    league=new,
                    actor=actor,
                    name=s.division.name,
                    pair_ids=[pair_of[e] for e in members],
                    promote=s.division.promote,
                    relegate=s.division.relegate,
                )
            else:
                division_create(
                    league=new,
                    actor=actor,
                    name=s.division.name,
                    player_ids=members,
                    promote=s.division.promote,
                    relegate=s.division.relegate,
                )
    return new


def season_moves(divisions: list[tuple[list[int], int, int]]) -> list[list[int]]:
    """Each division's members next season from (final order, promote, relegate), top
    division first: who stays keeps their order; who comes down goes first, who comes up
    last (they start below those who stayed)."""
    staying: list[list[int]] = []
    up: list[list[int]] = [[] for _ in divisions]
    down: list[list[int]] = [[] for _ in divisions]
    last = len(divisions) - 1
    for i, (order, promote, relegate) in enumerate(divisions):
        promoted = order[:promote] if i > 0 else []
        relegated = order[len(order) - relegate :] if i < last and relegate else []
        relegated = [c for c in relegated if c not in promoted]
        staying.append([c for c in order if c not in promoted and c not in relegated])
        if promoted:
            up[i - 1].extend(promoted)
        if relegated:
            down[i + 1].extend(relegated)
    return [down[i] + staying[i] + up[i] for i in range(len(divisions))]


# --- One person, one identity (clubs.identity) ----------------------------------------------


def players_merge_check(keep: Player, other: Player) -> None:
    """Two rows that are players of one individual division are two people."""
    division = (
        Division.objects.filter(players=keep)
        .filter(pk__in=Division.objects.filter(players=other).values("pk"))
        .select_related("league")
        .order_by("pk")
        .first()
    )
    if division is not None:
        raise Conflict(
            "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
            "person: both are players of {division} of the league {league}.",
            code="player_merge_same_division",
            keep=str(keep),
            keep_id=keep.pk,
            other=str(other),
            other_id=other.pk,
            division=division.name,
            league=division.league.name,
            division_id=division.pk,
        )


def players_merged(keep: Player, other: Player) -> dict:
    """Write ``keep`` for ``other`` in the rests of its individual divisions; returns where
    (division id → jornada numbers) for the undo."""
    changed: dict[str, list[str]] = {}
    divisions = Division.objects.filter(
        players=other, league__kind=League.Kind.INDIVIDUAL
    ).select_for_update(of=("self",))
    for division in divisions.order_by("pk"):
        numbers = [n for n, ids in (division.resting or {}).items() if other.pk in ids]
        if not numbers:
            continue
        division.resting = {
            n: [keep.pk if pk == other.pk else pk for pk in ids] if n in numbers else ids
            for n, ids in division.resting.items()
        }
        division.save(update_fields=["resting"])
        changed[str(division.pk)] = numbers
    return {"resting": changed}


def players_unmerged(keep: Player, other: Player, state: dict) -> None:
    """Put ``other`` back in the rests ``players_merged`` gave to ``keep``."""
    for division_id, numbers in sorted((state or {}).get("resting", {}).items()):
        division = Division.objects.select_for_update().filter(pk=int(division_id)).first()
        if division is None:
            continue
        division.resting = {
            n: [other.pk if pk == keep.pk else pk for pk in ids] if n in numbers else ids
            for n, ids in (division.resting or {}).items()
        }
        division.save(update_fields=["resting"])
