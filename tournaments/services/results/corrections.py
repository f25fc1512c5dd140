"""The organizer's word on a result: a dispute resolved, a confirmed result corrected.

Responsible for: ``match_dispute_resolve`` (one of the pairs' versions, or the official result
entered now) and ``match_result_correct`` (a confirmed result, played or forfeit, replaced
while nothing depends on it: in a knockout, once a match this one feeds has started, the
correction is refused naming that match). Both store the organizer's result as a submission,
audited with the old and the new; standings and brackets are recomputed by the same task as
any confirmation.

Must not: validate a result itself (validation.py) or touch the matches a result feeds (the
bracket task does, after the commit).

Terms: partida (a Match), disputa (dispute), eliminatoria (knockout), ronda (round), mesa.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from config.errors import Conflict, Invalid
from tournaments.models import HandEntry, Match, ResultSubmission
from tournaments.selectors.results import match_snapshot
from tournaments.services.results.access import check_caller
from tournaments.services.results.common import (
    ACCOUNT,
    MATCH_STATUS_TERMS,
    ORGANIZER,
    ResultAnswer,
    User,
    answer_write,
    check_key,
    check_playable,
    check_version,
    lock_match,
    lost_race,
    queue_result_confirmed,
    set_result,
)
from tournaments.services.results.submission import (
    pair_submissions,
    replayed_answer,
    store_submission,
)
from tournaments.services.results.validation import result_state

# --- Disputes ------------------------------------------------------------------------------


def match_dispute_resolve(
    *,
    match: Match,
    version: int,
    actor: User,
    idempotency_key: str,
    submission_id: int | None = None,
    payload: dict | None = None,
    via: str = ACCOUNT,
    device: str = "",
) -> ResultAnswer:
    """The organizer ends a dispute: either one of the pairs' versions (``submission_id``) or
    the official result entered now (``payload``, as in match_result_submit)."""
    key = check_key(idempotency_key)
    check_caller(match, side=ORGANIZER, via=via, actor=actor)
    if (submission_id is None) == (payload is None):
        raise Invalid(
            "Choose one of the results entered at the table (submission) or enter the "
            "official result (games or hands), one of the two.",
            code="resolve_choice",
        )
    with transaction.atomic():
        locked = lock_match(match)
        wanted = {"chooses": submission_id} if submission_id is not None else payload
        replay = replayed_answer(locked, key, side=ORGANIZER, payload=wanted)
        if replay is not None:
            return replay
        check_version(locked, version)
        if locked.status != Match.Status.DISPUTED:
            raise Conflict(
                "This match is not in dispute; there is nothing to resolve.", code="not_disputed"
            )
        if submission_id is not None:
            chosen = next((s for s in pair_submissions(locked) if s.pk == submission_id), None)
            if chosen is None:
                raise Invalid(
                    "Submission {submission} is not one of the results entered for this match.",
                    code="submission_unknown",
                    submission=submission_id,
                )
            stored, summary = {"chooses": chosen.pk}, chosen.summary
        else:
            stored, summary = result_state(locked, payload)
        return _record_official_result(
            locked,
            stored=stored,
            summary=summary,
            key=key,
            replay_payload=wanted,
            action="dispute_resolved",
            actor=actor,
            via=via,
            device=device,
        )


def _record_official_result(
    locked: Match,
    *,
    stored: dict,
    summary: dict,
    key: str,
    replay_payload: dict | None,
    action: str,
    actor,
    via: str,
    device: str,
) -> ResultAnswer:
    """Store the organizer's result as a submission, make it the match's result, audit it and
    queue what follows a confirmed result. A repeated key answers the first call."""
    old = match_snapshot(locked)
    submission = store_submission(
        locked,
        side=ORGANIZER,
        via=via,
        payload=stored,
        summary=summary,
        key=key,
        device=device,
        actor=actor,
    )
    if submission is None:
        return replayed_answer(locked, key, side=ORGANIZER, payload=replay_payload) or lost_race()
    set_result(locked, summary, kind=Match.Kind.PLAYED)
    queue_result_confirmed(locked)
    return answer_write(
        locked,
        action=action,
        old=old,
        submission=submission,
        actor=actor,
        via=via,
        device=device,
    )


# --- Corrections ---------------------------------------------------------------------------


def _dependent_match(match: Match) -> Match | None:
    """In a knockout, the first match fed by this one that has started.

    Fed by: a match of the same phase in a later round with one of this match's pairs — the
    winner's next match, and also the loser's where a bracket has one (losers' bracket, the
    third-place match), since a corrected winner changes both. Started: a start time, or any
    submission or hand recorded.
    """
    if not match.bracket_key:
        return None
    started = (
        Q(started_at__isnull=False)
        | Exists(ResultSubmission.objects.filter(match=OuterRef("pk")))
        | Exists(HandEntry.objects.filter(match=OuterRef("pk")))
    )
    pairs = [e for e in (match.entry_a_id, match.entry_b_id) if e is not None]
    return (
        Match.objects.filter(
            round__phase_id=match.round.phase_id, round__number__gt=match.round.number
        )
        .filter(Q(entry_a_id__in=pairs) | Q(entry_b_id__in=pairs))
        .filter(started)
        .exclude(pk=match.pk)
        .select_related("round")
        .order_by("round__number", "table_number", "id")
        .first()
    )


def match_result_correct(
    *,
    match: Match,
    payload: dict,
    version: int,
    actor: User,
    idempotency_key: str = "",
    via: str = ACCOUNT,
    device: str = "",
) -> ResultAnswer:
    """An organizer replaces a confirmed result (played or forfeit) with the one given.

    Allowed while nothing depends on the result: in a knockout, once a match this one feeds has
    started, the correction is refused naming that match (correct or reset it first). The
    correction is stored as the organizer's submission and audited with the old and the new;
    standings and brackets are recomputed by the same task as a confirmation.
    """
    key = check_key(idempotency_key or f"correction-{uuid.uuid4()}")
    check_caller(match, side=ORGANIZER, via=via, actor=actor)
    with transaction.atomic():
        locked = lock_match(match)
        replay = replayed_answer(locked, key, side=ORGANIZER, payload=payload)
        if replay is not None:
            return replay
        check_version(locked, version)
        check_playable(locked)
        if locked.status != Match.Status.CONFIRMED:
            raise Conflict(
                "Only a confirmed result can be corrected; this match is {status}. Enter or "
                "resolve its result instead.",
                code="not_confirmed",
                status=MATCH_STATUS_TERMS[locked.status],
            )
        dependent = _dependent_match(locked)
        if dependent is not None:
            raise Conflict(
                "This result cannot be corrected: the match at table {table} of round {round} "
                "depends on it and has already started. Correct or reset that match first.",
                code="result_has_dependents",
                match=dependent.pk,
                round=dependent.round.number,
                table=dependent.table_number,
            )
        stored, summary = result_state(locked, payload)
        return _record_official_result(
            locked,
            stored=stored,
            summary=summary,
            key=key,
            replay_payload=payload,
            action="result_corrected",
            actor=actor,
            via=via,
            device=device,
        )
