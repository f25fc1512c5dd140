"""Writes of a tournament: create it from a preset or explicit rules, edit it, move its status.

Responsible for: the tournament row and its rule set (the columns of scoring.RuleSet, validated
by the engine so its message reaches the organizer), the tiebreak order (validated by
scoring.standings.validate_order), the settings of its bases beyond the rule set (checked by
services/event_settings.py; a change that re-ranks the standings refreshes every phase's), the
rule-set lock once the first partida has started, the status lifecycle draft → registration →
running → finished, and the audit of rule and status changes. Every write starts with
services/base.py's tournament_lock_for_organizer. A tournament that finishes queues
``circuits.tournament_changed`` and ``championships.tournament_changed`` by their names (the
circuits holding it rank its final places, a championship whose stage it is sends its qualified
pairs on; seasons/ sits above this app and is never imported here).

Imports registration.py (a raised max_pairs, or opening registration, promotes waiting pairs)
and rounds.py (finishing the tournament finishes its open phases, in order), never the other
way round: what they need in common lives in services/base.py.

Must not: hold a rule of Mus (scoring/ does) or of pairing (tournaments/draw/ does); register
pairs (services/registration.py does; a raised max_pairs calls its promotion).

Terms: peña (club), preset ("8 reyes a 40", "4 reyes a 30", "4 reyes a 25" or the peña's own),
reyes, piedras, juego, vaca, 31 real, deje, envite (the rule-set options), partida (a Match).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from clubs.models import Club, RuleSetPreset
from clubs.roles import require_organizer
from config.errors import Conflict, Invalid, NotFound
from config.queue import enqueue_on_commit
from scoring import RuleSet
from scoring.standings import Tiebreak, validate_order
from tournaments.models import Entry, Tournament
from tournaments.selectors.rounds import tournament_rules
from tournaments.selectors.tournaments import (
    ACTIVE_ENTRY_STATUSES,
    preset_default_for_club,
    preset_for_club,
    tournament_first_started_match,
)
from tournaments.services.base import (
    MAX_LATE_MINUTES,
    MAX_PAIRS,
    MAX_TABLES,
    REGISTRATION_OPEN,
    STATUS_TERMS,
    User,
    audit_write,
    tournament_check_not_managed,
    tournament_lock_for_organizer,
)
from tournaments.services.event_settings import (
    EVENT_FIELDS,
    REAWARD,
    RESTANDING,
    event_settings_apply,
)
from tournaments.services.field import registration_close
from tournaments.services.plans import tournament_plan_check
from tournaments.services.prizes import prizes_award
from tournaments.services.registration import entry_waiting_promote
from tournaments.services.rounds import phases_finish_open
from tournaments.services.webhooks import webhooks_tournament_finished

__all__ = [
    "DEFAULT_TIEBREAKS",
    "NEXT_STATUS",
    "UPDATABLE",
    "tournament_create",
    "tournament_status_change",
    "tournament_update",
]

DEFAULT_TIEBREAKS: tuple[str, ...] = (
    Tiebreak.MATCHES_WON.value,
    Tiebreak.HEAD_TO_HEAD.value,
    Tiebreak.GAME_DIFFERENCE.value,
    Tiebreak.STONE_DIFFERENCE.value,
    Tiebreak.STONES_WON.value,
    Tiebreak.LOTS.value,
)

#: The lifecycle, one step at a time: each status and the one it may move to.
NEXT_STATUS = {
    Tournament.Status.DRAFT: Tournament.Status.REGISTRATION,
    Tournament.Status.REGISTRATION: Tournament.Status.RUNNING,
    Tournament.Status.RUNNING: Tournament.Status.FINISHED,
}

#: What tournament_update accepts; the rule set comes as ``preset`` and/or ``rules``.
UPDATABLE = frozenset(
    {
        "name",
        "slug",
        "venue",
        "starts_on",
        "ends_on",
        "is_public",
        "tables_available",
        "max_pairs",
        "tiebreaks",
        "late_minutes_per_game",
        "preset",
        "rules",
        "entrant_kind",
        "frances_table_size",
        *EVENT_FIELDS,
    }
)


# --- Create -------------------------------------------------------------------------------


def tournament_create(
    *,
    club_slug: str,
    actor: User,
    name: str,
    starts_on: dt.date,
    slug: str = "",
    venue: str = "",
    ends_on: dt.date | None = None,
    is_public: bool = True,
    tables_available: int = 0,
    max_pairs: int | None = None,
    tiebreaks: list[str] | None = None,
    late_minutes_per_game: int | None = None,
    preset: str | None = None,
    rules: Mapping[str, Any] | None = None,
    entrant_kind: str = Tournament.EntrantKind.PAIRS,
    frances_table_size: int = 4,
    points_win: int | None = None,
    points_loss: int = 0,
    points_walkover_loss: int = 0,
    prizes: list[dict[str, Any]] | None = None,
    min_entries: int | None = None,
    field_sizes: list[int] | None = None,
    rules_by_entries: list[dict[str, Any]] | None = None,
    calendar: dict[str, Any] | None = None,
    managed_by: str = "",
    managed_label: str = "",
    managed_url: str = "",
    via: str = "api",
    device: str = "",
) -> Tournament:
    """A new tournament of the peña ``club_slug``, in draft.

    ``managed_by`` ("league", "interpena"; blank for an ordinary tournament): the app that runs
    it, which names it (``managed_label``) and its page (``managed_url``); only that app's
    services (``managed=True``) then change its status, phases and rounds, and the lists of
    tournaments leave it out.

    ``entrant_kind``: pairs, trios, individuals (partners drawn each round) or frances (Mus
    francés tables of ``frances_table_size``, 3 to 6).

    Its rule set is the preset's (by name: the peña's own, else a built-in one), overridden by
    any explicit ``rules`` values; with neither, the peña's default preset or "8 reyes a 40".
    ``preset_name`` records the preset only while the rules are exactly the preset's.

    ``points_win``, ``points_loss``, ``points_walkover_loss``: the standings' points table
    (services/event_settings.py); ``points_win`` empty, none. ``prizes``: the prizes across
    phases the bases declare (tournaments.draw.prizes), awarded when it finishes.
    ``min_entries``, ``field_sizes``, ``rules_by_entries``: the field as the bases size it,
    applied when registration closes (services/field.py). ``calendar``: the evenings of play
    that date the rounds without a date of their own (tournaments.draw.calendar).
    """
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise NotFound(
            "There is no peña '{club}'; check its short name.",
            code="club_slug_unknown",
            club=str(club_slug)[:40],
        )
    require_organizer(actor, club)
    name = _clean_name(name)
    _check_dates(starts_on, ends_on)
    _check_limits(
        tables_available=tables_available,
        max_pairs=max_pairs,
        late_minutes_per_game=late_minutes_per_game,
    )
    order = _clean_tiebreaks(DEFAULT_TIEBREAKS if tiebreaks is None else tiebreaks)
    _check_entrant_kind(entrant_kind, frances_table_size)
    base = preset_for_club(club=club, name=preset) if preset else None
    if base is None and rules is None:
        base = preset_default_for_club(club=club)
    values, preset_name = _resolve_rules(
        current=RuleSet().as_dict(), current_preset_name="", preset=base, rules=rules
    )

    with transaction.atomic():
        tournament = Tournament(
            club=club,
            name=name,
            slug=_slug_for(club=club, name=name, slug=slug),
            venue=venue,
            starts_on=starts_on,
            ends_on=ends_on,
            is_public=is_public,
            status=Tournament.Status.DRAFT,
            tables_available=tables_available,
            max_pairs=max_pairs,
            tiebreaks=order,
            late_minutes_per_game=late_minutes_per_game,
            entrant_kind=entrant_kind,
            frances_table_size=frances_table_size,
            # A different seed per tournament, stored so any draw can be replayed.
            draw_seed=secrets.randbelow(2**31),
            preset_name=preset_name,
            managed_by=_check_managed_by(managed_by),
            managed_label=str(managed_label or "")[:200],
            managed_url=str(managed_url or "")[:300],
            created_by=actor if actor is not None and actor.is_authenticated else None,
            **values,
        )
        tournament_rules(tournament)  # the engine has the last word, in the tournament's form
        event_settings_apply(
            tournament,
            {
                "points_win": points_win,
                "points_loss": points_loss,
                "points_walkover_loss": points_walkover_loss,
                "prizes": prizes or [],
                "min_entries": min_entries,
                "field_sizes": field_sizes or [],
                "rules_by_entries": rules_by_entries or [],
                "calendar": calendar or {},
            },
        )
        _save_checking_slug(tournament)
        audit_write(
            tournament=tournament,
            action="tournament_created",
            actor=actor,
            via=via,
            device=device,
            new={"rules": values, "preset_name": preset_name},
        )
    return tournament


def _check_managed_by(value: str) -> str:
    if value not in Tournament.ManagedBy.values:  # a caller's bug, never a person's input
        raise TypeError(f"tournament_create got managed_by={value!r}")
    return value


def _check_entrant_kind(kind: Any, size: Any) -> None:
    if kind not in Tournament.EntrantKind.values:
        raise Invalid(
            "Unknown kind of entrant '{kind}'; choose one of {kinds}.",
            code="entrant_kind",
            kind=str(kind)[:40],
            kinds=list(Tournament.EntrantKind.values),
        )
    if isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= 6:
        raise Invalid(
            "A Mus francés table seats 3 to 6 players, not {size}.",
            code="frances_table_size",
            size=str(size)[:20],
        )


def _entrant_kind_update(tournament: Tournament, changes: Mapping[str, Any]) -> None:
    """The kind of entrant changes only while nobody is registered; the table size until the
    first round is drawn."""
    kind = changes.get("entrant_kind", tournament.entrant_kind)
    size = changes.get("frances_table_size", tournament.frances_table_size)
    _check_entrant_kind(kind, size)
    if kind != tournament.entrant_kind:
        registered = (
            tournament.entries.exists() or tournament.individual_entries.exists()
        ) or tournament.phases.exists()
        if registered:
            raise Conflict(
                "{tournament_name} already has entrants; the kind of entrant can change only "
                "before the first registration.",
                code="entrant_kind_frozen",
                tournament_name=tournament.name,
            )
        tournament.entrant_kind = kind
    tournament.frances_table_size = size
    tournament_rules(tournament)  # the rules must be playable in the new form too


# --- Update -------------------------------------------------------------------------------


def tournament_update(
    *,
    tournament: Tournament,
    actor: User,
    changes: Mapping[str, Any],
    via: str = "api",
    device: str = "",
    managed: bool = False,
) -> Tournament:
    """Change any of UPDATABLE; keys absent from ``changes`` stay as they are.

    The rule set (``preset`` and/or ``rules``) can change only until the first partida starts;
    after that a change is a Conflict saying which partida started. Sending the current values
    again is not a change. Raising ``max_pairs`` while registration is open promotes waiting
    pairs into the free places.
    """
    unknown = sorted(set(changes) - UPDATABLE)
    if unknown:
        raise TypeError(f"tournament_update got unknown fields {unknown}")
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        tournament_check_not_managed(tournament=tournament, managed=managed)
        if "name" in changes:
            tournament.name = _clean_name(changes["name"])
        if "venue" in changes:
            tournament.venue = changes["venue"]
        if "is_public" in changes:
            tournament.is_public = changes["is_public"]
        if "slug" in changes and changes["slug"] != tournament.slug:
            tournament.slug = _slug_for(
                club=tournament.club, name=tournament.name, slug=changes["slug"] or ""
            )
        plain = ("starts_on", "ends_on", "tables_available", "max_pairs", "late_minutes_per_game")
        for field in plain:
            if field in changes:
                setattr(tournament, field, changes[field])
        old_tiebreaks = list(tournament.tiebreaks)
        if "tiebreaks" in changes:
            tournament.tiebreaks = _clean_tiebreaks(changes["tiebreaks"])
        _entrant_kind_update(tournament, changes)
        old_settings = {name: getattr(tournament, name) for name in EVENT_FIELDS}
        settings_changed = event_settings_apply(tournament, changes)
        _check_dates(tournament.starts_on, tournament.ends_on)
        _check_limits(
            tables_available=tournament.tables_available,
            max_pairs=tournament.max_pairs,
            late_minutes_per_game=tournament.late_minutes_per_game,
        )
        if "max_pairs" in changes:
            _check_room_for_registered(tournament)
        if "tables_available" in changes:
            _check_pinned_tables_exist(tournament)

        if "preset" in changes or "rules" in changes:
            _update_rules(
                tournament,
                preset_name=changes.get("preset"),
                rules=changes.get("rules"),
                actor=actor,
                via=via,
                device=device,
            )
        _save_checking_slug(tournament)
        if settings_changed:
            audit_write(
                tournament=tournament,
                action="tournament_settings_changed",
                actor=actor,
                via=via,
                device=device,
                old={name: old_settings[name] for name in sorted(settings_changed)},
                new={name: getattr(tournament, name) for name in sorted(settings_changed)},
            )
        if settings_changed & RESTANDING or (
            "tiebreaks" in changes and tournament.tiebreaks != old_tiebreaks
        ):
            # the stored standings rank by the old order: every phase's again
            for phase_id in tournament.phases.values_list("pk", flat=True):
                enqueue_on_commit("tournaments.standings_refresh", phase_id=phase_id)
        if settings_changed & REAWARD and tournament.status == Tournament.Status.FINISHED:
            prizes_award(tournament=tournament)  # published with the final standings

        if "max_pairs" in changes and tournament.status in REGISTRATION_OPEN:
            entry_waiting_promote(tournament=tournament, actor=actor, via=via, device=device)
    return tournament


def _update_rules(
    tournament: Tournament,
    *,
    preset_name: str | None,
    rules: Mapping[str, Any] | None,
    actor: User,
    via: str,
    device: str,
) -> None:
    preset = preset_for_club(club=tournament.club, name=preset_name) if preset_name else None
    old, old_name = tournament.rule_values(), tournament.preset_name
    values, new_preset_name = _resolve_rules(
        current=old,
        current_preset_name=tournament.preset_name,
        preset=preset,
        rules=rules,
    )
    if values == RuleSet.from_dict(old).as_dict() and new_preset_name == tournament.preset_name:
        return
    if values != RuleSet.from_dict(old).as_dict():
        started = tournament_first_started_match(tournament=tournament)
        if started is not None and started.table_number:
            raise Conflict(
                "The rule set can no longer change: the partida at table {table} of "
                "{phase_name}, round {round}, has already started, and results are scored by "
                "the rules it started with. The name, dates, venue, tables, limits and "
                "tiebreaks can still change.",
                code="rules_locked",
                match=started.pk,
                table=started.table_number,
                phase_name=started.round.phase.name,
                round=started.round.number,
            )
        if started is not None:
            raise Conflict(
                "The rule set can no longer change: a partida of {phase_name}, round {round}, "
                "has already started, and results are scored by the rules it started with. "
                "The name, dates, venue, tables, limits and tiebreaks can still change.",
                code="rules_locked_untabled",
                match=started.pk,
                phase_name=started.round.phase.name,
                round=started.round.number,
            )
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict(
                "The rule set of a finished tournament cannot change.", code="rules_final"
            )
    for field, value in values.items():
        setattr(tournament, field, value)
    tournament.preset_name = new_preset_name
    tournament_rules(tournament)
    audit_write(
        tournament=tournament,
        action="tournament_rules_changed",
        actor=actor,
        via=via,
        device=device,
        old={"rules": RuleSet.from_dict(old).as_dict(), "preset_name": old_name},
        new={"rules": values, "preset_name": new_preset_name},
    )


# --- Status -------------------------------------------------------------------------------


def tournament_status_change(
    *,
    tournament: Tournament,
    actor: User,
    status: str,
    via: str = "api",
    device: str = "",
    managed: bool = False,
) -> Tournament:
    """Move the tournament one step along draft → registration → running → finished.

    Conflict for any other move (with the move that is possible) and for starting with fewer
    than two registered pairs. Starting closes registration as the bases say
    (services/field.py): below their minimum or smallest field size it is refused; beyond a
    field size the last registered drop out; the number of entries chooses the match format.
    Moving to the status it already has is a no-op, so a retried request does not fail.

    Finishing finishes the phases not finished yet, in their order (``phases_finish_open``):
    refused (``tournament_phase_open``, naming the phase and why) while a round is not closed
    or a bracket has no champion, because a finished tournament can no longer draw or close
    anything. A Swiss or liguilla with rounds still to draw finishes as it stands.
    """
    if status not in Tournament.Status.values:
        raise Invalid(
            "Unknown status '{status}'; the statuses are {statuses}.",
            code="status_unknown",
            status=str(status)[:40],
            statuses=list(STATUS_TERMS.values()),
        )
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        tournament_check_not_managed(tournament=tournament, managed=managed)
        current = tournament.status
        if status == current:
            return tournament
        allowed = NEXT_STATUS.get(current)
        if allowed is None:
            raise Conflict(
                "The tournament is finished; a finished tournament stays finished.",
                code="status_final",
                current=STATUS_TERMS[current],
                requested=STATUS_TERMS[status],
            )
        if status != allowed:
            raise Conflict(
                "A tournament in {current} can only move to {allowed}, not to {requested}; "
                "the order is draft, registration, running, finished.",
                code="status_transition",
                current=STATUS_TERMS[current],
                allowed=STATUS_TERMS[allowed],
                requested=STATUS_TERMS[status],
            )
        if status == Tournament.Status.RUNNING and tournament.entrant_kind in (
            Tournament.EntrantKind.INDIVIDUALS,
            Tournament.EntrantKind.FRANCES,
        ):
            # players alone: the draw says how many it needs (4 individual, 3 Mus francés)
            alone = tournament.individual_entries.filter(status__in=ACTIVE_ENTRY_STATUSES)
            if alone.count() < 3:
                raise Conflict(
                    "A tournament of players alone needs at least {minimum} registered "
                    "players to start; it has {registered}. Register players first.",
                    code="too_few_players",
                    minimum=3,
                    registered=alone.count(),
                )
        elif status == Tournament.Status.RUNNING:
            active = tournament.entries.filter(status__in=ACTIVE_ENTRY_STATUSES).count()
            if active < 2:
                raise Conflict(
                    "A tournament needs at least two registered pairs to start; it has "
                    "{registered}. Register pairs first.",
                    code="too_few_pairs",
                    registered=active,
                )
        if status == Tournament.Status.RUNNING:
            # registration closes as the bases say: their minimum, their field sizes (the
            # last registered drop out, refunded and told) and the format for that many
            closing = registration_close(tournament=tournament, actor=actor, via=via, device=device)
            if closing.rules:
                _update_rules(
                    tournament,
                    preset_name=None,
                    rules=closing.rules,
                    actor=actor,
                    via=via,
                    device=device,
                )
                tournament.save()  # its rule columns (the status is saved below)
            if tournament.entrant_kind not in (
                Tournament.EntrantKind.INDIVIDUALS,
                Tournament.EntrantKind.FRANCES,
            ):
                # the plan as a whole, for the pairs that will play (tournaments.draw.plan)
                playing = tournament.entries.filter(status__in=ACTIVE_ENTRY_STATUSES).count()
                tournament_plan_check(tournament=tournament, playing=playing)
        if status == Tournament.Status.FINISHED:
            # the phases finish with it, in order; one that cannot (a final still to play)
            # keeps the tournament running, naming it (a finished tournament stays finished:
            # nothing could finish that phase afterwards)
            phases_finish_open(tournament=tournament, actor=actor)
            # the prizes are published with the final standings
            prizes_award(tournament=tournament)
        tournament.status = status
        tournament.save(update_fields=["status", "updated_at"])
        audit_write(
            tournament=tournament,
            action="tournament_status_changed",
            actor=actor,
            via=via,
            device=device,
            old={"status": current},
            new={"status": status},
        )
        if status == Tournament.Status.REGISTRATION:
            entry_waiting_promote(tournament=tournament, actor=actor, via=via, device=device)
        if status == Tournament.Status.FINISHED:
            webhooks_tournament_finished(tournament=tournament)
            # the circuits holding it rank its final places, and a championship whose stage it
            # is sends its qualified pairs on (seasons.circuits, seasons.championships: above
            # this app, told by name)
            enqueue_on_commit("circuits.tournament_changed", tournament_id=tournament.pk)
            enqueue_on_commit("championships.tournament_changed", tournament_id=tournament.pk)
    return tournament


# --- Checks -------------------------------------------------------------------------------


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise Invalid("Give the tournament a name.", code="name_required")
    return name


def _check_dates(starts_on: dt.date, ends_on: dt.date | None) -> None:
    if ends_on is not None and ends_on < starts_on:
        raise Invalid(
            "The tournament ends ({ends}) before it starts ({starts}); fix one of the dates.",
            code="dates_order",
            ends=ends_on.isoformat(),
            starts=starts_on.isoformat(),
        )


def _check_limits(
    *, tables_available: int, max_pairs: int | None, late_minutes_per_game: int | None
) -> None:
    if not 0 <= tables_available <= MAX_TABLES:
        raise Invalid(
            "Tables available must be from 0 to {most}, not {value}.",
            code="tables_available",
            most=MAX_TABLES,
            value=tables_available,
        )
    if max_pairs is not None and not 2 <= max_pairs <= MAX_PAIRS:
        raise Invalid(
            "The maximum of pairs must be from 2 to {most}, not {value}; "
            "leave it empty for no limit.",
            code="max_pairs",
            most=MAX_PAIRS,
            value=max_pairs,
        )
    if late_minutes_per_game is not None and not 1 <= late_minutes_per_game <= MAX_LATE_MINUTES:
        raise Invalid(
            "Minutes late per game lost must be from 1 to {most}, not {value}; leave it empty "
            "for no penalty.",
            code="late_minutes_per_game",
            most=MAX_LATE_MINUTES,
            value=late_minutes_per_game,
        )


def _check_room_for_registered(tournament: Tournament) -> None:
    if tournament.max_pairs is None:
        return
    active = tournament.entries.filter(status__in=ACTIVE_ENTRY_STATUSES).count()
    if active > tournament.max_pairs:
        raise Conflict(
            "{registered} pairs are already registered, more than a maximum of {most}; "
            "withdraw pairs first or set the maximum to at least {registered}.",
            code="max_pairs_below_registered",
            registered=active,
            most=tournament.max_pairs,
        )


def _check_pinned_tables_exist(tournament: Tournament) -> None:
    if not tournament.tables_available:
        return
    pinned = (
        tournament.entries.filter(pinned_table__gt=tournament.tables_available)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("pair__player_one", "pair__player_two")
        .first()
    )
    if pinned is not None:
        raise Conflict(
            "{pair} is pinned to table {table}, which would no longer exist with {tables} "
            "tables; unpin it first.",
            code="pinned_table_missing",
            entry=pinned.pk,
            pair=str(pinned.pair),
            table=pinned.pinned_table,
            tables=tournament.tables_available,
        )


def _clean_tiebreaks(order: Any) -> list[str]:
    return [t.value for t in validate_order(order)]  # StandingsError: 400 with its message


#: scoring.RuleSet's fields that the entrant kind decides (the form, its seats and chips)
FORM_OPTIONS = frozenset(("form", "players", "chips"))


def _resolve_rules(
    *,
    current: Mapping[str, Any],
    current_preset_name: str,
    preset: RuleSetPreset | None,
    rules: Mapping[str, Any] | None,
) -> tuple[dict[str, Any], str]:
    """The rule values (validated by scoring.RuleSet) and the preset name to record. The
    form (pairs, trios, Mus francés) is not an option: who enters says it
    (selectors.rounds.rule_form)."""
    given = sorted(FORM_OPTIONS.intersection(rules or {}))
    if given:
        raise Invalid(
            "The rule set's '{option}' follows who enters the tournament (entrant_kind: "
            "pairs, trios, individuals or frances); it is not a rule option.",
            code="rules_form_read_only",
            option=str(given[0]),
        )
    base = preset.rule_values() if preset is not None else dict(current)
    values = RuleSet.from_dict({**base, **dict(rules or {})}).as_dict()
    if preset is not None:
        reference, name = RuleSet.from_dict(preset.rule_values()).as_dict(), preset.name
    else:
        reference, name = RuleSet.from_dict(dict(current)).as_dict(), current_preset_name
    # A preset's name on rules that are not the preset's would mislead whoever reads it.
    return values, name if values == reference else ""


def _slug_for(*, club: Club, name: str, slug: str) -> str:
    taken = Tournament.objects.filter(club=club)
    if slug:
        if slug != slugify(slug):
            raise Invalid(
                "The short name '{slug}' may only hold lowercase letters, digits and hyphens, "
                "e.g. '{example}'.",
                code="slug_format",
                slug=slug[:40],
                example=slugify(slug) or "torneo-de-navidad",
            )
        if taken.filter(slug=slug).exists():
            raise _slug_taken(club, slug)
        return slug
    stem = (slugify(name) or "torneo")[:72]
    existing = set(taken.filter(slug__startswith=stem).values_list("slug", flat=True))
    candidate, n = stem, 2
    while candidate in existing:
        candidate, n = f"{stem}-{n}", n + 1
    return candidate


def _slug_taken(club: Club, slug: str) -> Conflict:
    return Conflict(
        "{club_name} already has a tournament with the short name '{slug}'; choose another.",
        code="tournament_slug_taken",
        slug=slug,
        club_name=club.name,
    )


def _save_checking_slug(tournament: Tournament) -> None:
    # The unique constraint is the backstop when two organizers pick the same slug at once.
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError:
        if (
            Tournament.objects.filter(club=tournament.club, slug=tournament.slug)
            .exclude(pk=tournament.pk)
            .exists()
        ):
            raise _slug_taken(tournament.club, tournament.slug) from None
        raise
