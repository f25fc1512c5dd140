"""The pairs' versions of a result: submitted, confirmed, or in dispute.

Responsible for: ``match_result_submit`` and ``match_result_confirm``. The first pair's version
puts the match in ``submitted``; the other pair confirms it or enters its own — equal versions
(same winner and stones in every game) confirm, different ones put the match in ``disputed``
for the organizer to resolve (corrections.py); a pair may enter its version again before that
(its latest counts). The organizer's own entry is official and confirms at once. Every version
is kept as a ResultSubmission, never edited; a retried write (same idempotency key) answers
what the first answered and stores nothing, the unique (match, idempotency_key) constraint
being the backstop (``store_submission``, ``replay``).

Must not: validate a result itself (validation.py asks the engine) or send anything while the
match row is locked (what follows a confirmation is queued on commit).

Terms: partida (a Match), pareja (pair A or B), envío (a submission), disputa (dispute).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from config.errors import Conflict
from scoring.errors import team_term
from tournaments.models import AuditEntry, Match, ResultSubmission
from tournaments.selectors import results as selectors
from tournaments.selectors.results import (
    LINK_CONFIRM_RELATIONS,
    LINK_WRITE_RELATIONS,
    match_snapshot,
)
from tournaments.services.results.access import check_caller, check_link_open, match_for_token
from tournaments.services.results.common import (
    CONFIRMS,
    ORGANIZER,
    PAIR_SIDES,
    RECORDED,
    SIDE_A,
    SIDE_B,
    ResultAnswer,
    User,
    answer_write,
    check_key,
    check_not_confirmed,
    check_playable,
    check_version,
    key_reused,
    lock_match,
    lost_race,
    mark_started,
    queue_result_confirmed,
    set_result,
    store_keyed,
)
from tournaments.services.results.validation import result_state

# --- The versions stored -------------------------------------------------------------------


def store_submission(
    match: Match,
    *,
    side: str,
    via: str,
    payload: dict,
    summary: dict,
    key: str,
    device: str,
    actor: User,
) -> ResultSubmission | None:
    """Insert the submission; None when the key is taken (the constraint is the backstop)."""
    return store_keyed(
        ResultSubmission,
        key=key,
        version=match.version,
        device=device,
        actor=actor,
        match=match,
        side=side,
        via=via,
        payload=payload,
        summary=summary,
    )


def replayed_answer(
    match: Match,
    key: str,
    *,
    side: str,
    payload: Any,
    confirms: bool = False,
    submissions: list[ResultSubmission] | None = None,
) -> ResultAnswer | None:
    """The first answer to a write made with this key, or None if the key is new.

    The same key with a different entry is a client's mistake, not a retry: Conflict.
    ``submissions``: every submission of the match, read under its lock (``match_submissions``);
    without them the key is looked up.
    """
    if submissions is None:
        first = ResultSubmission.objects.filter(match=match, idempotency_key=key).first()
    else:
        first = next((s for s in submissions if s.idempotency_key == key), None)
    if first is None:
        return None
    if confirms:
        same = CONFIRMS in first.payload
    else:
        same = first.payload == payload or (
            isinstance(payload, dict)
            and payload.get("hands") == RECORDED
            and RECORDED in first.payload
        )
    if not (same and first.side == side):
        raise key_reused()
    audit = AuditEntry.objects.filter(match=match, new__submission=first.pk).order_by("id").first()
    state = dict(audit.new["match"]) if audit is not None else match_snapshot(match)
    return ResultAnswer(match, state, first, replayed=True)


def match_submissions(match: Match) -> list[ResultSubmission]:
    """Every submission of the match, oldest first: read once under the match's lock, it
    answers both whether a key was used (replayed_answer) and what each pair entered."""
    return selectors.match_submissions(match)


def pair_submissions(
    match: Match, submissions: list[ResultSubmission] | None = None
) -> list[ResultSubmission]:
    """The versions the pairs entered (not confirmations, not the organizer's), oldest first
    (``submissions``: match_submissions already read)."""
    if submissions is None:
        submissions = match_submissions(match)
    return [s for s in submissions if s.side in PAIR_SIDES and CONFIRMS not in s.payload]


def latest_by_side(
    match: Match, submissions: list[ResultSubmission] | None = None
) -> dict[str, ResultSubmission]:
    return {s.side: s for s in pair_submissions(match, submissions)}


def _games_key(summary: dict) -> list[tuple]:
    """What two versions must share to be the same result: each game's winner and stones."""
    return [(g["winner"], g["stones"]["A"], g["stones"]["B"]) for g in summary["games"]]


# --- Submit and confirm --------------------------------------------------------------------


def locked_for_write(
    match: Match | None,
    token: str,
    idempotency_key: str,
    *,
    side: str,
    via: str,
    actor: User,
    relations: tuple[str, ...] = LINK_WRITE_RELATIONS,
) -> tuple[Match, str]:
    """Inside the write's transaction: the match under its row lock, and the checked key.

    Through the table's link the door passes the link's ``token`` instead of a match: the
    match is read once, by its token and under its lock, with what the write needs
    (``relations``; the link's own errors first: unknown 404, closed 409, as match_for_token
    answers them before any other check). Otherwise ``match``, loaded by the caller, is read
    again under the lock.
    """
    if match is None:
        locked = match_for_token(
            token=token, idempotency_key=idempotency_key, relations=relations, lock=True
        )
        key = check_key(idempotency_key)
        check_caller(locked, side=side, via=via, actor=actor)
        return locked, key
    key = check_key(idempotency_key)
    check_caller(match, side=side, via=via, actor=actor)
    return lock_match(match), key


def match_result_submit(
    *,
    match: Match | None = None,
    token: str = "",
    side: str,
    payload: dict,
    idempotency_key: str,
    version: int,
    via: str,
    actor: User = None,
    device: str = "",
) -> ResultAnswer:
    """Store a version of the result (never edited) and move the match on.

    A pair's first version puts the match in ``submitted``; the other pair's version confirms
    it when equal (same winner and stones in every game) and puts it in ``disputed`` when not;
    a pair may enter its version again before that (its latest counts). The organizer's entry
    (side ``organizer``, through an account or the API) is the official result: it confirms at
    once, resolving a dispute if there is one. Through the link: ``token`` instead of
    ``match`` (locked_for_write).
    """
    with transaction.atomic():
        locked, key = locked_for_write(
            match, token, idempotency_key, side=side, via=via, actor=actor
        )
        submissions = match_submissions(locked)
        replay = replayed_answer(locked, key, side=side, payload=payload, submissions=submissions)
        if replay is not None:
            return replay
        check_link_open(locked, via)
        check_playable(locked)
        check_version(locked, version)
        check_not_confirmed(locked)
        stored, summary = result_state(locked, payload)
        old = match_snapshot(locked)
        submission = store_submission(
            locked,
            side=side,
            via=via,
            payload=stored,
            summary=summary,
            key=key,
            device=device,
            actor=actor,
        )
        if submission is None:  # a concurrent retry with this key got in first
            return replayed_answer(locked, key, side=side, payload=payload) or lost_race()
        mark_started(locked)
        if side == ORGANIZER:
            disputed = locked.status == Match.Status.DISPUTED
            action = "dispute_resolved" if disputed else "result_confirmed"
            set_result(locked, summary, kind=Match.Kind.PLAYED)
            queue_result_confirmed(locked)
        else:
            # read before this submission was stored: only the other pair's latest is wanted
            latest = latest_by_side(locked, submissions)
            other = latest.get(SIDE_B if side == SIDE_A else SIDE_A)
            if other is None:
                locked.status, action = Match.Status.SUBMITTED, "result_submitted"
            elif _games_key(other.summary) == _games_key(summary):
                set_result(locked, summary, kind=Match.Kind.PLAYED)
                queue_result_confirmed(locked)
                action = "result_confirmed"
            else:
                locked.status, action = Match.Status.DISPUTED, "result_disputed"
        return answer_write(
            locked,
            action=action,
            old=old,
            submission=submission,
            actor=actor,
            via=via,
            device=device,
        )


def match_result_confirm(
    *,
    match: Match | None = None,
    token: str = "",
    side: str,
    idempotency_key: str,
    version: int,
    via: str,
    actor: User = None,
    device: str = "",
) -> ResultAnswer:
    """The other pair (or an organizer) agrees with the version entered; the match is confirmed.

    Stores the agreement as a submission (payload ``{"confirms": id}``, the same summary) so
    that it is kept, and a retry with the same key is answered from it. In a dispute a pair may
    accept the other pair's latest version this way. Through the link: ``token`` instead of
    ``match`` (locked_for_write).
    """
    with transaction.atomic():
        locked, key = locked_for_write(
            match,
            token,
            idempotency_key,
            side=side,
            via=via,
            actor=actor,
            relations=LINK_CONFIRM_RELATIONS,
        )
        submissions = match_submissions(locked)
        replay = replayed_answer(
            locked, key, side=side, payload=None, confirms=True, submissions=submissions
        )
        if replay is not None:
            return replay
        check_link_open(locked, via)
        check_playable(locked)
        check_version(locked, version)
        check_not_confirmed(locked)
        latest = latest_by_side(locked, submissions)
        if locked.status not in (Match.Status.SUBMITTED, Match.Status.DISPUTED) or not latest:
            raise Conflict(
                "There is no result to confirm yet: enter the result first.",
                code="nothing_to_confirm",
            )
        if side == ORGANIZER:
            if locked.status == Match.Status.DISPUTED:
                raise Conflict(
                    "The two sides entered different results: resolve the dispute by choosing "
                    "one of them or entering the official result.",
                    code="match_disputed",
                )
            confirmed = next(iter(latest.values()))
        else:
            confirmed = latest.get(SIDE_B if side == SIDE_A else SIDE_A)
            if confirmed is None:
                raise Conflict(
                    "This result was entered by {team} {side}; {team} {other} has to confirm it.",
                    code="own_submission",
                    side=side.upper(),
                    other=(SIDE_B if side == SIDE_A else SIDE_A).upper(),
                    team=team_term(selectors.match_rules(match=locked).form),  # pareja, trío
                )
        old = match_snapshot(locked)
        submission = store_submission(
            locked,
            side=side,
            via=via,
            payload={CONFIRMS: confirmed.pk},
            summary=confirmed.summary,
            key=key,
            device=device,
            actor=actor,
        )
        if submission is None:
            return (
                replayed_answer(locked, key, side=side, payload=None, confirms=True) or lost_race()
            )
        set_result(locked, confirmed.summary, kind=Match.Kind.PLAYED)
        queue_result_confirmed(locked)
        return answer_write(
            locked,
            action="result_confirmed",
            old=old,
            submission=submission,
            actor=actor,
            via=via,
            device=device,
            extra={"confirms": confirmed.pk},
        )
