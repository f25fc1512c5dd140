"""Reads of a tournament's calendar: when each round and match is played, and which are late.

Responsible for: ``round_dates`` (each round's date: its own, else the n-th evening of the
tournament's calendar pattern, n its place among all the tournament's rounds in phase order —
tournaments.draw.calendar), ``match_when`` (a match's date, its deadline and whether it is late,
for the table's page and the match's page), ``late_matches`` (the organizer's desk: matches of
published rounds not decided whose due day is over) and ``calendar_of_tournament`` (the whole
calendar as the API and the calendar page show it: every round, the evenings still to come,
the matches with a date or a deadline of their own). A few queries each, whatever the field.

Must not: write, or decide what happens to a late match.

Terms: ronda (round), jornada, tarde (an evening of play), aplazada (postponed), fecha límite
(deadline), descanso (bye).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from tournaments.draw.calendar import due_date, evenings, is_late
from tournaments.models import Match, Round, Tournament
from tournaments.selectors.rounds import phases_for_tournament
from tournaments.selectors.tournaments import User, tournament_get

#: how many evenings still to come the calendar lists
UPCOMING = 6


def _aware(moment: dt.datetime) -> dt.datetime:
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _local_day(moment: dt.datetime | None) -> dt.date | None:
    return timezone.localtime(moment).date() if moment is not None else None


def round_dates(*, tournament: Tournament) -> dict[int, dt.datetime | None]:
    """Every round's date (aware), its own or its evening of the calendar pattern. One query."""
    rows = list(
        Round.objects.filter(phase__tournament=tournament)
        .order_by("phase__order", "number", "id")
        .values_list("id", "scheduled_at")
    )
    return _dates(tournament, rows)


def dates_of_rounds(
    *, tournament: Tournament, rounds: list[Round]
) -> dict[int, dt.datetime | None]:
    """``round_dates`` of rounds already loaded, every one of the tournament's up to the last
    (a page's phases with their rounds: a draft left out at the end moves no date). No query."""
    return _dates(tournament, [(r.id, r.scheduled_at) for r in rounds])


def _dates(
    tournament: Tournament, rows: list[tuple[int, dt.datetime | None]]
) -> dict[int, dt.datetime | None]:
    pattern = evenings(tournament.calendar or {}, len(rows))
    dates: dict[int, dt.datetime | None] = {}
    for n, (pk, own) in enumerate(rows):
        dates[pk] = own if own is not None else (_aware(pattern[n]) if n < len(pattern) else None)
    return dates


@dataclass(frozen=True)
class MatchWhen:
    """When a match is played: its own date or its round's (``at``), moved by agreement
    (``own``), its deadline once postponed and why, and whether it is late."""

    at: dt.datetime | None
    own: bool
    deadline: dt.date | None
    reason: str
    late: bool


def _when(match: Match, round_at: dt.datetime | None, today: dt.date) -> MatchWhen:
    at = match.scheduled_at or round_at
    due = due_date(
        deadline=match.deadline,
        scheduled=_local_day(match.scheduled_at),
        round_scheduled=_local_day(round_at),
    )
    decided = match.status == Match.Status.CONFIRMED or match.kind == Match.Kind.BYE
    published = match.round.status != Round.Status.DRAFT
    return MatchWhen(
        at=at,
        own=match.scheduled_at is not None,
        deadline=match.deadline,
        reason=match.postponed_reason,
        late=published and is_late(due=due, decided=decided, today=today),
    )


def match_when(*, match: Match, today: dt.date | None = None) -> MatchWhen:
    """When ``match`` (with its round, phase and tournament loaded) is played and whether it is
    late: no query when the match or its round has a date, or the tournament no calendar
    pattern; one (the rounds' dates) otherwise."""
    tournament = match.round.phase.tournament
    round_at = match.round.scheduled_at
    if round_at is None and match.scheduled_at is None and tournament.calendar:
        round_at = round_dates(tournament=tournament).get(match.round_id)
    return _when(match, round_at, today or timezone.localdate())


def late_matches(*, tournament: Tournament, today: dt.date | None = None) -> list[dict[str, Any]]:
    """The matches of published rounds not decided whose due day is over, the longest late
    first: each with its match, its due day and whether it was postponed. Two queries."""
    today = today or timezone.localdate()
    dates = round_dates(tournament=tournament)
    matches = (
        Match.objects.filter(round__phase__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .exclude(status=Match.Status.CONFIRMED)
        .exclude(kind=Match.Kind.BYE)
        .select_related(
            "round__phase",
            "entry_a__pair__player_one",
            "entry_a__pair__player_two",
            "entry_b__pair__player_one",
            "entry_b__pair__player_two",
        )
    )
    late = []
    for match in matches:
        when = _when(match, dates.get(match.round_id), today)
        if when.late:
            due = due_date(
                deadline=match.deadline,
                scheduled=_local_day(match.scheduled_at),
                round_scheduled=_local_day(dates.get(match.round_id)),
            )
            late.append({"match": match, "due": due, "postponed": match.deadline is not None})
    return sorted(late, key=lambda m: (m["due"], m["match"].round_id, m["match"].table_number or 0))


@dataclass
class TournamentCalendar:
    tournament: Tournament
    pattern: dict[str, Any]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    upcoming: list[dt.datetime] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)


def calendar_of_tournament(
    *, user: User, tournament_id: int, today: dt.date | None = None
) -> TournamentCalendar:
    """The tournament's calendar for ``user`` (a published tournament for everybody; the draft
    rounds only for its organizers): its rounds with their dates, the evenings of its pattern
    still to come, and the matches with a date or a deadline of their own or late. NotFound for
    a tournament the user may not see. A few queries whatever the field."""
    today = today or timezone.localdate()
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    dates = round_dates(tournament=tournament)
    phases = phases_for_tournament(tournament=tournament, user=user)
    rounds = [rnd for phase in phases for rnd in phase.visible_rounds]
    for phase in phases:
        for rnd in phase.visible_rounds:
            rnd.phase = phase  # the phase is loaded already
    out = TournamentCalendar(tournament=tournament, pattern=dict(tournament.calendar or {}))
    readable = {r.id for r in rounds}
    for rnd in rounds:
        out.rounds.append(
            {
                "round": rnd,
                "scheduled_at": dates.get(rnd.id),
                "own": rnd.scheduled_at is not None,
            }
        )
    if out.pattern:
        pattern = evenings(out.pattern, len(dates) + UPCOMING)
        out.upcoming = [_aware(moment) for moment in pattern[len(dates) :]]
    matches = (
        Match.objects.filter(round_id__in=readable)
        .exclude(kind=Match.Kind.BYE)
        .select_related(
            "round__phase",
            "entry_a__pair__player_one",
            "entry_a__pair__player_two",
            "entry_b__pair__player_one",
            "entry_b__pair__player_two",
        )
        .order_by("round__phase__order", "round__number", "table_number", "id")
    )
    for match in matches:
        when = _when(match, dates.get(match.round_id), today)
        if when.own or when.deadline or when.late:
            out.matches.append({"match": match, "when": when})
    return out
