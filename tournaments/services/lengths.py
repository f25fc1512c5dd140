"""A phase's match length per round: "cuartos y semifinales al mejor de 3 juegos, la final al
mejor de 5".

Responsible for: checking the lengths a phase declares per round (tournaments.draw.lengths
reads their shape; the engine checks each length over the phase's rule set) and storing them
in ``Phase.settings["round_lengths"]`` — when the phase is created (``round_lengths_apply``,
called by services.rounds.phase_create) and afterwards (``phase_round_lengths_set``, the
organizer's form and the API). A round whose length changes must not have been played yet:
once one of its matches has started or has a result, its length stays (its results were
checked against it); a bye of such a round is given the new round's full length. What a round
is played to is read in one place, selectors.rounds.round_rules.

Must not: compute a round's length (selectors.rounds does), or word it (the pages do).

Terms: ronda (round), fase (phase), eliminatoria (knockout), final, semifinales, cuartos,
descanso (a bye), juego (game), vaca, piedras (stones).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from config.errors import Conflict, Invalid
from config.queue import enqueue_on_commit
from scoring.errors import RuleSetError
from tournaments.models import AuditEntry, Match, Phase, Round, Tournament
from tournaments.selectors.rounds import (
    ROUND_LENGTHS,
    phase_not_found,
    round_lengths_check,
    round_options,
    round_rules,
)
from tournaments.selectors.tournaments import tournament_check_organizer
from tournaments.services.base import tournament_check_not_managed

User = AbstractBaseUser | AnonymousUser | None


def round_lengths_clean(phase: Phase, lengths: Any) -> dict[str, dict[str, int]]:
    """``lengths`` as the phase stores them; Invalid (or DrawError, 400) naming what is wrong."""
    try:
        return round_lengths_check(phase, lengths)
    except RuleSetError as error:
        raise Invalid(
            "A round's length cannot be played: {reason}",
            code="round_length_rules",
            option=error.code,
            reason=error,
        ) from None


def round_lengths_apply(phase: Phase, lengths: Any) -> None:
    """Set the checked ``lengths`` on a phase not saved yet (phase_create): nothing is played."""
    cleaned = round_lengths_clean(phase, lengths)
    settings = dict(phase.settings or {})
    if cleaned:
        settings[ROUND_LENGTHS] = cleaned
    else:
        settings.pop(ROUND_LENGTHS, None)
    phase.settings = settings


def phase_round_lengths_set(
    *, phase: Phase, actor: User, round_lengths: Any, managed: bool = False
) -> Phase:
    """Declare the phase's lengths per round (replacing those it had; ``{}`` for none).

    A round already drawn whose length changes must have no match started or with a result
    (Conflict naming the round); its byes are given the new full length, and the standings are
    refreshed. A finished phase keeps its lengths."""
    with transaction.atomic():
        locked = Phase.objects.select_for_update(of=("self",)).filter(pk=phase.pk).first()
        if locked is None:
            raise phase_not_found(phase.pk)
        locked.tournament = Tournament.objects.select_related("club").get(pk=locked.tournament_id)
        tournament = locked.tournament
        tournament_check_organizer(user=actor, tournament=tournament)
        tournament_check_not_managed(tournament=tournament, managed=managed)
        if locked.status == Phase.Status.FINISHED:
            raise Conflict(
                "{phase} is finished: its rounds were played to the lengths they had.",
                code="round_lengths_phase_finished",
                phase=locked.name,
            )
        old_settings = dict(locked.settings or {})
        old = old_settings.get(ROUND_LENGTHS) or {}
        cleaned = round_lengths_clean(locked, round_lengths)
        rounds = list(Round.objects.select_for_update().filter(phase=locked).order_by("number"))
        before = {r.number: round_options(locked, r.number) for r in rounds}
        new_settings = dict(old_settings)
        if cleaned:
            new_settings[ROUND_LENGTHS] = cleaned
        else:
            new_settings.pop(ROUND_LENGTHS, None)
        locked.settings = new_settings
        changed = [r for r in rounds if round_options(locked, r.number) != before[r.number]]
        byes = _check_unplayed_and_byes(locked, changed)
        locked.save(update_fields=["settings"])
        if old != cleaned:
            AuditEntry.objects.create(
                tournament=tournament,
                action="phase_round_lengths",
                actor=actor if actor is not None and actor.is_authenticated else None,
                old={"phase": locked.pk, ROUND_LENGTHS: old},
                new={"phase": locked.pk, ROUND_LENGTHS: cleaned},
            )
        if byes:
            enqueue_on_commit("tournaments.standings_refresh", phase_id=locked.pk)
    return locked


def _check_unplayed_and_byes(phase: Phase, rounds: list[Round]) -> int:
    """Refuse a change of length for a round already played; give its byes the new full
    length. The number of byes rewritten."""
    rewritten = 0
    for rnd in rounds:
        matches = list(Match.objects.select_for_update().filter(round=rnd).order_by("pk"))
        played = [
            m
            for m in matches
            if m.kind != Match.Kind.BYE
            and (
                m.status != Match.Status.PENDING
                or m.started_at is not None
                or m.hands.exists()
                or m.submissions.exists()
            )
        ]
        if played:
            raise Conflict(
                "Round {round} of {phase} has matches already played or being played to its "
                "length; its length cannot change now.",
                code="round_length_played",
                round=rnd.number,
                phase=phase.name,
                tables=[m.table_number for m in played if m.table_number is not None],
            )
        rules = round_rules(phase, rnd.number)
        for m in matches:
            if m.kind == Match.Kind.BYE:
                m.games_a = rules.games_per_vaca * rules.vacas_per_match
                m.vacas_a = rules.vacas_per_match
                m.save(update_fields=["games_a", "vacas_a", "updated_at"])
                rewritten += 1
    return rewritten
