"""Writes of the results area: a partida's result from the table to the official record.

Responsible for:

- results entered at the table through its link (the Match.token is the credential; the caller
  says which pair it is, a or b) or by the peña's organizers through an account or the API:
  quick entry (final stones, or only the winner, of each game) or hand by hand (HandEntry rows,
  the anotador's record) — both validated by scoring/, which alone decides when a partida ends;
- submission and confirmation: the first pair's version puts the match in ``submitted``; the
  other pair confirms it or enters its own — equal versions confirm, different ones put the
  match in ``disputed`` and the organizer resolves it; an organizer's own entry is official
  and confirms at once;
- forfeits (no-show: a walkover for the present pair with the format's full score), lateness
  (games lost per minutes late), corrections by the organizer while nothing depends on the
  result, and the notification that a round is complete.

Every write: ``transaction.atomic()``, the Match re-read with ``select_for_update()``, the
client's ``version`` compared with Match.version (StaleVersion, 409), the match's version
bumped, an AuditEntry with the old and the new, and follow-up work queued with
``transaction.on_commit``. A retried submission (same idempotency key) answers what the first
answered and stores nothing; the unique (match, idempotency_key) constraint is the backstop.

Must not: hold a rule of Mus (scoring/ does: its errors reach the client as 400 with the
engine's message) or send mail while a row is locked.

Terms: partida (a Match), pareja (pair A or B), mano, juego (a game), vaca, piedras (stones),
órdago, anotador, mesa (table), ronda (round), eliminatoria (knockout).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from clubs.models import Membership
from clubs.roles import ORGANIZING_ROLES, require_organizer
from config.errors import Conflict, Invalid, NotFound, StaleVersion
from config.queue import enqueue_on_commit
from scoring import GameEntry, MatchState, RuleSet, record_games
from scoring.jsonio import games_from_json, outcome_to_json, state_to_json
from scoring.messages import Term
from tournaments.models import (
    AuditEntry,
    HandEntry,
    LatePenalty,
    Match,
    Notification,
    ResultSubmission,
    Round,
)
from tournaments.selectors.results import (
    MATCH_RELATIONS,
    first_mano_position,
    fold_hands,
    hand_records,
    match_penalty_games,
    match_rules,
    match_running_score,
    match_snapshot,
)

log = logging.getLogger(__name__)

User = AbstractBaseUser | AnonymousUser | None

SIDE_A, SIDE_B, ORGANIZER = (s.value for s in ResultSubmission.Side)
LINK, ACCOUNT, API = (v.value for v in ResultSubmission.Via)
PAIR_SIDES = (SIDE_A, SIDE_B)

#: The payload of a submission that only agrees with another one.
CONFIRMS = "confirms"
#: ``{"hands": RECORDED}``: the result is the hands recorded at the table (HandEntry rows).
RECORDED = "recorded"

#: Each status of a match as the reader's language names it (errors show it).
MATCH_STATUS_TERMS = {
    Match.Status.PENDING: Term("pending"),
    Match.Status.IN_PROGRESS: Term("in progress"),
    Match.Status.SUBMITTED: Term("submitted"),
    Match.Status.CONFIRMED: Term("confirmed"),
    Match.Status.DISPUTED: Term("disputed"),
}


@dataclass(frozen=True)
class ResultAnswer:
    """What a write of the result answers: the match as it was right after the write, and the
    submission it stored. ``replayed``: a retry of an earlier write, nothing stored now."""

    match: Match
    state: dict[str, Any]
    submission: ResultSubmission | None = None
    replayed: bool = False


@dataclass(frozen=True)
class HandAnswer:
    """What recording a hand answers: the match right after it and the score at that hand."""

    match: Match
    state: dict[str, Any]
    number: int
    running: dict[str, Any]
    hand: dict[str, Any]
    replayed: bool = False


# --- Reaching a match ---------------------------------------------------------------------------


def match_for_token(*, token: str, idempotency_key: str = "") -> Match:
    """The match behind a table's link; NotFound for an unknown token.

    A link is useless once the result is confirmed (Conflict), except to replay a write made
    with it before: a phone that retries its confirmation after the match moved on gets its
    first answer, not an error.
    """
    match = (
        Match.objects.select_related(*MATCH_RELATIONS).filter(token=token).first()
        if token
        else None
    )
    if match is None:
        raise table_link_unknown()
    if match.status == Match.Status.CONFIRMED and not (
        idempotency_key and _written_with_key(match, idempotency_key)
    ):
        raise _link_closed()
    return match


def table_link_unknown() -> NotFound:
    """The error of a table link that leads to no match (the table's pages show it too)."""
    return NotFound(
        "This table link is not valid. Scan the QR code on the table again, or ask the "
        "organizers for the link.",
        code="table_link_unknown",
    )


def _written_with_key(match: Match, key: str) -> bool:
    return (
        ResultSubmission.objects.filter(match=match, idempotency_key=key).exists()
        or HandEntry.objects.filter(match=match, idempotency_key=key).exists()
    )


def _link_closed() -> Conflict:
    return Conflict(
        "The result of this match is confirmed, so its table link is closed. If the result is "
        "wrong, ask the organizers to correct it.",
        code="link_closed",
    )


# --- Checks shared by the writes ----------------------------------------------------------------


def _lock(match: Match) -> Match:
    """Re-read the match under a row lock (only the match row: of=self)."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(*MATCH_RELATIONS)
        .get(pk=match.pk)
    )


def _check_key(idempotency_key: str) -> str:
    key = (idempotency_key or "").strip()
    if not key or len(key) > 80:
        raise Invalid(
            "Send an Idempotency-Key (1 to 80 characters, new for each action) so that a "
            "retry is not counted twice.",
            code="idempotency_key",
        )
    return key


def _check_via(via: str) -> None:
    if via not in (LINK, ACCOUNT, API):
        raise Invalid("'via' is link, account or api, not '{via}'.", code="via", via=str(via)[:40])


def _check_caller(match: Match, *, side: str, via: str, actor: User) -> None:
    """Through the link the caller is a pair (a or b); otherwise an organizer of the peña."""
    _check_via(via)
    if side not in (SIDE_A, SIDE_B, ORGANIZER):
        raise Invalid(
            "'side' is a, b or organizer, not '{side}'.", code="side", side=str(side)[:40]
        )
    if via == LINK:
        if side not in PAIR_SIDES:
            raise Invalid(
                "Through the table link, say which pair you are: a or b.", code="side_required"
            )
        return
    require_organizer(actor, match.round.phase.tournament.club)
    if side != ORGANIZER:
        raise Invalid(
            "Organizers enter results as side 'organizer'; pairs use their table link.",
            code="side_organizer",
        )


def _check_writer(match: Match, *, via: str, actor: User) -> None:
    """Hands have no side: at the table anybody with the link, otherwise an organizer."""
    _check_via(via)
    if via != LINK:
        require_organizer(actor, match.round.phase.tournament.club)


def _check_link_open(match: Match, via: str) -> None:
    if via != LINK:
        return
    if match.status == Match.Status.CONFIRMED:
        raise _link_closed()
    if match.round.status != Round.Status.PUBLISHED:
        raise Conflict(
            "Round {round} is not open: results are entered at the table only while the round "
            "is published. Ask the organizers.",
            code="round_not_open",
            round=match.round.number,
            status=match.round.status,
        )


def _check_version(match: Match, version: int) -> None:
    if version != match.version:
        raise StaleVersion(
            "The result changed on another device; reload and try again.",
            code="stale_version",
            current=match.version,
            sent=version,
        )


def _check_playable(match: Match) -> None:
    if match.kind == Match.Kind.BYE or match.entry_a_id is None or match.entry_b_id is None:
        raise Conflict(
            "This match has no opponent yet (a bye, or a bracket place still to be decided): "
            "there is no result to enter.",
            code="match_not_playable",
        )


def _not_confirmed(match: Match) -> None:
    if match.status == Match.Status.CONFIRMED:
        raise Conflict(
            "The result of this match is already confirmed. An organizer can correct it.",
            code="already_confirmed",
        )


def _organizer(match: Match, actor: User) -> None:
    require_organizer(actor, match.round.phase.tournament.club)


# --- Validation through the engine --------------------------------------------------------------


def _result_state(match: Match, payload: Any) -> tuple[dict, dict]:
    """Validate a finished result; returns (payload to store, engine state as JSON).

    ``{"games": [...]}``: each game's final stones (or only its winner), checked with
    scoring.record_games(complete=True). ``{"hands": [...]}``: the hands from the first, folded
    with scoring.play_match; ``{"hands": "recorded"}``: the hands recorded at this table. In
    every form the games a late pair lost come first (see match_penalty_games).
    """
    if not isinstance(payload, dict):
        raise Invalid("The result is an object with 'games' or 'hands'.", code="result_not_object")
    kinds = [k for k in ("games", "hands") if k in payload]
    unknown = set(payload) - {"games", "hands"}
    if len(kinds) != 1 or unknown:
        raise Invalid(
            "Send the result as 'games' (the final stones or the winner of each game) or as "
            "'hands' (the hands from the first), not both.",
            code="result_format",
        )
    rules = match_rules(match=match)
    penalties = match_penalty_games(match=match, rules=rules)
    if "games" in payload:
        games = games_from_json(payload["games"])
        state = record_games(rules, [*penalties, *games], complete=True)
        return {"games": payload["games"]}, state_to_json(state)
    raw = payload["hands"]
    stored: dict[str, Any] = {"hands": raw}
    if raw == RECORDED:
        raw = [h.payload for h in match.hands.order_by("number")]
        stored = {"hands": raw, RECORDED: True}
    elif not isinstance(raw, list):
        raise Invalid(
            "'hands' is the list of hands from the first, or \"recorded\" for the hands "
            "recorded at this table.",
            code="hands_format",
        )
    state, _ = fold_hands(rules, first_mano_position(match), penalties, hand_records(rules, raw))
    if not state.finished:
        raise _unfinished(rules, state)
    return stored, state_to_json(state)


def _unfinished(rules: RuleSet, state: MatchState) -> Invalid:
    return Invalid(
        "The match is not finished: in vacas A {va} - B {vb}, in the current vaca A {ga} - B "
        "{gb} games ({need} win a vaca, {vacas} the match), and the current game is at "
        "{sa}-{sb}. Enter the remaining hands.",
        code="hands_not_finished",
        va=state.vacas[0],
        vb=state.vacas[1],
        ga=state.vaca_games[0],
        gb=state.vaca_games[1],
        need=rules.games_per_vaca,
        vacas=rules.vacas_per_match,
        sa=state.stones[0],
        sb=state.stones[1],
    )


def _games_key(summary: dict) -> list[tuple]:
    """What two versions must share to be the same result: each game's winner and stones."""
    return [(g["winner"], g["stones"]["A"], g["stones"]["B"]) for g in summary["games"]]


# --- Storing ----------------------------------------------------------------------------------


def _audit(
    match: Match,
    *,
    action: str,
    actor: User,
    via: str,
    device: str,
    old: dict | None,
    new: dict | None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament_id=match.round.phase.tournament_id,
        match=match,
        action=action,
        actor=_user(actor),
        via=via,
        device=(device or "")[:200],
        old=old,
        new=new,
    )


def _user(actor: User):
    return actor if actor is not None and actor.is_authenticated else None


def _start(match: Match) -> None:
    if match.started_at is None:
        match.started_at = timezone.now()


def _set_result(match: Match, summary: dict, *, kind: str) -> None:
    """Copy the engine's state into the match's columns and confirm it."""
    games = summary["games"]
    match.status = Match.Status.CONFIRMED
    match.kind = kind
    match.winner_id = match.entry_a_id if summary["winner"] == "A" else match.entry_b_id
    match.games_a = sum(1 for g in games if g["winner"] == "A")
    match.games_b = sum(1 for g in games if g["winner"] == "B")
    match.vacas_a, match.vacas_b = summary["vacas"]["A"], summary["vacas"]["B"]
    match.stones_a = sum(g["stones"]["A"] for g in games) + summary["stones"]["A"]
    match.stones_b = sum(g["stones"]["B"] for g in games) + summary["stones"]["B"]
    match.result = summary
    match.confirmed_at = timezone.now()


def _queue_result_confirmed(match: Match) -> None:
    enqueue_on_commit("tournaments.result_confirmed", match_id=match.pk)


def _store_submission(
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
    try:
        with transaction.atomic():
            return ResultSubmission.objects.create(
                match=match,
                side=side,
                via=via,
                payload=payload,
                summary=summary,
                idempotency_key=key,
                based_on_version=match.version,
                device=(device or "")[:200],
                created_by=_user(actor),
            )
    except IntegrityError:
        return None


def _replay(
    match: Match, key: str, *, side: str, payload: Any, confirms: bool = False
) -> ResultAnswer | None:
    """The first answer to a write made with this key, or None if the key is new.

    The same key with a different entry is a client's mistake, not a retry: Conflict.
    """
    first = ResultSubmission.objects.filter(match=match, idempotency_key=key).first()
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
        raise Conflict(
            "This Idempotency-Key was already used for a different entry. Use a new key for "
            "each new entry.",
            code="idempotency_key_reused",
        )
    audit = AuditEntry.objects.filter(match=match, new__submission=first.pk).order_by("id").first()
    state = dict(audit.new["match"]) if audit is not None else match_snapshot(match)
    return ResultAnswer(match, state, first, replayed=True)


def _answer(
    match: Match,
    *,
    action: str,
    old: dict,
    submission: ResultSubmission | None,
    actor: User,
    via: str,
    device: str,
    extra: dict | None = None,
) -> ResultAnswer:
    """Bump the version, save, audit and answer; the audit keeps the answer for replays."""
    match.version += 1
    match.save()
    state = match_snapshot(match)
    new = {"match": state, **(extra or {})}
    if submission is not None:
        new["submission"] = submission.pk
        new["side"] = submission.side
    _audit(match, action=action, actor=actor, via=via, device=device, old=old, new=new)
    return ResultAnswer(match, state, submission)


def _result_submissions(match: Match) -> list[ResultSubmission]:
    """The versions the pairs entered (not confirmations, not the organizer's), oldest first."""
    return [
        s
        for s in match.submissions.order_by("id")
        if s.side in PAIR_SIDES and CONFIRMS not in s.payload
    ]


def _latest_by_side(match: Match) -> dict[str, ResultSubmission]:
    return {s.side: s for s in _result_submissions(match)}


# --- Submit, confirm, resolve -----------------------------------------------------------------


def match_result_submit(
    *,
    match: Match,
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
    once, resolving a dispute if there is one.
    """
    key = _check_key(idempotency_key)
    _check_caller(match, side=side, via=via, actor=actor)
    with transaction.atomic():
        locked = _lock(match)
        replay = _replay(locked, key, side=side, payload=payload)
        if replay is not None:
            return replay
        _check_link_open(locked, via)
        _check_playable(locked)
        _check_version(locked, version)
        _not_confirmed(locked)
        stored, summary = _result_state(locked, payload)
        old = match_snapshot(locked)
        submission = _store_submission(
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
            return _replay(locked, key, side=side, payload=payload) or _lost_race()
        _start(locked)
        if side == ORGANIZER:
            disputed = locked.status == Match.Status.DISPUTED
            action = "dispute_resolved" if disputed else "result_confirmed"
            _set_result(locked, summary, kind=Match.Kind.PLAYED)
            _queue_result_confirmed(locked)
        else:
            other = _latest_by_side(locked).get(SIDE_B if side == SIDE_A else SIDE_A)
            if other is None:
                locked.status, action = Match.Status.SUBMITTED, "result_submitted"
            elif _games_key(other.summary) == _games_key(summary):
                _set_result(locked, summary, kind=Match.Kind.PLAYED)
                _queue_result_confirmed(locked)
                action = "result_confirmed"
            else:
                locked.status, action = Match.Status.DISPUTED, "result_disputed"
        return _answer(
            locked,
            action=action,
            old=old,
            submission=submission,
            actor=actor,
            via=via,
            device=device,
        )


def _lost_race() -> Conflict:
    return StaleVersion(
        "The result changed on another device; reload and try again.", code="stale_version"
    )


def match_result_confirm(
    *,
    match: Match,
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
    accept the other pair's latest version this way.
    """
    key = _check_key(idempotency_key)
    _check_caller(match, side=side, via=via, actor=actor)
    with transaction.atomic():
        locked = _lock(match)
        replay = _replay(locked, key, side=side, payload=None, confirms=True)
        if replay is not None:
            return replay
        _check_link_open(locked, via)
        _check_playable(locked)
        _check_version(locked, version)
        _not_confirmed(locked)
        latest = _latest_by_side(locked)
        if locked.status not in (Match.Status.SUBMITTED, Match.Status.DISPUTED) or not latest:
            raise Conflict(
                "There is no result to confirm yet: enter the result first.",
                code="nothing_to_confirm",
            )
        if side == ORGANIZER:
            if locked.status == Match.Status.DISPUTED:
                raise Conflict(
                    "The pairs entered different results: resolve the dispute by choosing one "
                    "of them or entering the official result.",
                    code="match_disputed",
                )
            confirmed = next(iter(latest.values()))
        else:
            confirmed = latest.get(SIDE_B if side == SIDE_A else SIDE_A)
            if confirmed is None:
                raise Conflict(
                    "Pareja {side} entered this result; the other pair has to confirm it.",
                    code="own_submission",
                    side=side.upper(),
                )
        old = match_snapshot(locked)
        submission = _store_submission(
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
            return _replay(locked, key, side=side, payload=None, confirms=True) or _lost_race()
        _set_result(locked, confirmed.summary, kind=Match.Kind.PLAYED)
        _queue_result_confirmed(locked)
        return _answer(
            locked,
            action="result_confirmed",
            old=old,
            submission=submission,
            actor=actor,
            via=via,
            device=device,
            extra={"confirms": confirmed.pk},
        )


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
    key = _check_key(idempotency_key)
    _check_caller(match, side=ORGANIZER, via=via, actor=actor)
    if (submission_id is None) == (payload is None):
        raise Invalid(
            "Choose one of the pairs' results (submission) or enter the official result "
            "(games or hands), one of the two.",
            code="resolve_choice",
        )
    with transaction.atomic():
        locked = _lock(match)
        wanted = {"chooses": submission_id} if submission_id is not None else payload
        replay = _replay(locked, key, side=ORGANIZER, payload=wanted)
        if replay is not None:
            return replay
        _check_version(locked, version)
        if locked.status != Match.Status.DISPUTED:
            raise Conflict(
                "This match is not in dispute; there is nothing to resolve.", code="not_disputed"
            )
        if submission_id is not None:
            chosen = next((s for s in _result_submissions(locked) if s.pk == submission_id), None)
            if chosen is None:
                raise Invalid(
                    "Submission {submission} is not one of the results the pairs entered "
                    "for this match.",
                    code="submission_unknown",
                    submission=submission_id,
                )
            stored, summary = {"chooses": chosen.pk}, chosen.summary
        else:
            stored, summary = _result_state(locked, payload)
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
    submission = _store_submission(
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
        return _replay(locked, key, side=ORGANIZER, payload=replay_payload) or _lost_race()
    _set_result(locked, summary, kind=Match.Kind.PLAYED)
    _queue_result_confirmed(locked)
    return _answer(
        locked,
        action=action,
        old=old,
        submission=submission,
        actor=actor,
        via=via,
        device=device,
    )


# --- Corrections ------------------------------------------------------------------------------


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
    key = _check_key(idempotency_key or f"correction-{uuid.uuid4()}")
    _check_caller(match, side=ORGANIZER, via=via, actor=actor)
    with transaction.atomic():
        locked = _lock(match)
        replay = _replay(locked, key, side=ORGANIZER, payload=payload)
        if replay is not None:
            return replay
        _check_version(locked, version)
        _check_playable(locked)
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
        stored, summary = _result_state(locked, payload)
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


# --- Forfeits and lateness ----------------------------------------------------------------------


def match_forfeit(
    *,
    match: Match,
    absent_side: str,
    version: int,
    actor: User,
    via: str = ACCOUNT,
    device: str = "",
) -> ResultAnswer:
    """A pair did not show up: a walkover for the present pair with the format's full score.

    The winner gets every game a match needs (games_per_vaca × vacas_per_match), the vacas
    (vacas_per_match), and in each game the target stones (stones_per_game) to the absent
    pair's 0, so stones = stones_per_game × games; the engine records those games, so the
    stored result is a state it accepts. Late penalties and hands recorded are ignored. The
    match is confirmed with kind ``forfeit``.
    """
    _check_via(via)
    _organizer(match, actor)
    if absent_side not in PAIR_SIDES:
        raise Invalid(
            "'absent_side' is the pair that did not show up: a or b, not '{absent_side}'.",
            code="absent_side",
            absent_side=str(absent_side)[:40],
        )
    with transaction.atomic():
        locked = _lock(match)
        _check_version(locked, version)
        _check_playable(locked)
        _not_confirmed(locked)
        rules = match_rules(match=locked)
        present = 1 if absent_side == SIDE_A else 0
        stones = (rules.stones_per_game, 0) if present == 0 else (0, rules.stones_per_game)
        games = [GameEntry(stones, present)] * (rules.games_per_vaca * rules.vacas_per_match)
        summary = state_to_json(record_games(rules, games, complete=True))
        old = match_snapshot(locked)
        _set_result(locked, summary, kind=Match.Kind.FORFEIT)
        _queue_result_confirmed(locked)
        return _answer(
            locked,
            action="forfeit",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
            extra={"absent_side": absent_side},
        )


def match_late_penalty(
    *,
    match: Match,
    side: str,
    minutes_late: int,
    version: int,
    actor: User,
    via: str = ACCOUNT,
    device: str = "",
) -> ResultAnswer:
    """Record that a pair came late: it loses minutes_late // late_minutes_per_game games.

    The games count for the opponent when the result is validated: they are won by the
    opponent before the first game played (prepended to the games entered, or recorded before
    the first hand). Only before a result is entered; a second penalty for the same pair
    replaces the first (the organizer corrects the minutes).
    """
    _check_via(via)
    _organizer(match, actor)
    if side not in PAIR_SIDES:
        raise Invalid(
            "'side' is the late pair: a or b, not '{side}'.", code="late_side", side=str(side)[:40]
        )
    if isinstance(minutes_late, bool) or not isinstance(minutes_late, int) or minutes_late < 0:
        raise Invalid(
            "Minutes late is a whole number from 0 up.", code="minutes_late", value=minutes_late
        )
    with transaction.atomic():
        locked = _lock(match)
        tournament = locked.round.phase.tournament
        if not tournament.late_minutes_per_game:
            raise Invalid(
                "{tournament_name} has no lateness rule. Set the minutes per game lost in the "
                "tournament's rules first.",
                code="no_lateness_rule",
                tournament_name=tournament.name,
            )
        _check_version(locked, version)
        _check_playable(locked)
        if locked.status not in (Match.Status.PENDING, Match.Status.IN_PROGRESS):
            raise Conflict(
                "A result was already entered for this match: a late penalty is recorded before "
                "it. Correct the result instead.",
                code="late_after_result",
            )
        entry_id = locked.entry_a_id if side == SIDE_A else locked.entry_b_id
        games_lost = minutes_late // tournament.late_minutes_per_game
        previous = list(locked.late_penalties.filter(entry_id=entry_id).order_by("id"))
        old = match_snapshot(locked)
        if previous:
            old["penalty"] = {
                "side": side,
                "minutes_late": previous[-1].minutes_late,
                "games_lost": previous[-1].games_lost,
            }
        LatePenalty.objects.filter(pk__in=[p.pk for p in previous]).delete()
        LatePenalty.objects.create(
            match=locked, entry_id=entry_id, minutes_late=minutes_late, games_lost=games_lost
        )
        match_running_score(match=locked)  # the hands so far must still fit (engine's error)
        return _answer(
            locked,
            action="late_penalty",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
            extra={
                "penalty": {"side": side, "minutes_late": minutes_late, "games_lost": games_lost}
            },
        )


# --- Hand by hand -----------------------------------------------------------------------------


def _hand_answer(match: Match, state: dict, number: int, *, replayed: bool) -> HandAnswer:
    running = match_running_score(match=match, upto=number)
    outcome = running.outcomes[number - 1]
    return HandAnswer(
        match,
        state,
        number,
        running.as_json(),
        outcome_to_json(number, outcome),
        replayed=replayed,
    )


def _check_hand_entry_open(match: Match) -> None:
    if match.status not in (Match.Status.PENDING, Match.Status.IN_PROGRESS):
        raise Conflict(
            "The result of this match was already entered ({status}): hands can no longer be "
            "added or removed.",
            code="result_already_entered",
            status=MATCH_STATUS_TERMS[match.status],
        )


def match_hand_add(
    *,
    match: Match,
    hand: dict,
    idempotency_key: str,
    version: int,
    via: str,
    actor: User = None,
    device: str = "",
) -> HandAnswer:
    """Record the next hand (the anotador's entry) after checking it with the engine.

    All the match's hands, this one last, are folded through scoring.play_match with the phase's
    rules, the match's first mano and any late penalty: an illegal hand, or a hand after the
    match is decided, is refused with the engine's message and nothing is stored. A retry with
    the same key answers with the score at that hand.
    """
    key = _check_key(idempotency_key)
    _check_writer(match, via=via, actor=actor)
    with transaction.atomic():
        locked = _lock(match)
        first = HandEntry.objects.filter(match=locked, idempotency_key=key).first()
        if first is not None:
            if first.payload != hand:
                raise Conflict(
                    "This Idempotency-Key was already used for a different hand. Use a new key "
                    "for each hand.",
                    code="hand_key_reused",
                )
            audit = (
                AuditEntry.objects.filter(
                    match=locked, action="hand_added", new__idempotency_key=key
                )
                .order_by("id")
                .first()
            )
            state = dict(audit.new["match"]) if audit else match_snapshot(locked)
            return _hand_answer(locked, state, first.number, replayed=True)
        _check_link_open(locked, via)
        _check_playable(locked)
        _check_version(locked, version)
        _check_hand_entry_open(locked)
        rules = match_rules(match=locked)
        hands = list(locked.hands.order_by("number"))
        records = hand_records(rules, [h.payload for h in hands] + [hand])
        penalties = match_penalty_games(match=locked, rules=rules)
        fold_hands(rules, first_mano_position(locked), penalties, records)
        number = len(hands) + 1
        try:
            with transaction.atomic():
                HandEntry.objects.create(
                    match=locked, number=number, payload=hand, idempotency_key=key
                )
        except IntegrityError:  # hand number taken: the backstop behind the version check
            raise _lost_race() from None
        old = match_snapshot(locked)
        _start(locked)
        locked.status = Match.Status.IN_PROGRESS
        answer = _answer(
            locked,
            action="hand_added",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
            extra={"hand": number, "idempotency_key": key},
        )
        return _hand_answer(locked, answer.state, number, replayed=False)


def match_hand_undo(
    *,
    match: Match,
    version: int,
    via: str,
    actor: User = None,
    device: str = "",
) -> ResultAnswer:
    """Remove the last hand recorded (a mistake at the table), before the result is entered."""
    _check_writer(match, via=via, actor=actor)
    with transaction.atomic():
        locked = _lock(match)
        _check_link_open(locked, via)
        _check_version(locked, version)
        _check_hand_entry_open(locked)
        last = locked.hands.order_by("-number").first()
        if last is None:
            raise Conflict(
                "No hand has been recorded yet; there is nothing to undo.", code="no_hands"
            )
        old = {**match_snapshot(locked), "hand": last.number, "payload": last.payload}
        last.delete()
        return _answer(
            locked,
            action="hand_undone",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
            extra={"hand_removed": last.number},
        )


# --- Round completion -------------------------------------------------------------------------


def round_completion_notify(*, round_id: int) -> bool:
    """Tell the organizers once that every match of the round is confirmed.

    Creates one Notification (its key makes it idempotent: True only the first time) and, after
    the commit, e-mails the peña's organizers who have an address. Byes count as done.
    """
    rnd = Round.objects.select_related("phase__tournament__club").filter(pk=round_id).first()
    if rnd is None:
        return False
    matches = Match.objects.filter(round=rnd)
    if not matches.exists():
        return False
    if matches.exclude(kind=Match.Kind.BYE).exclude(status=Match.Status.CONFIRMED).exists():
        return False
    tournament = rnd.phase.tournament
    text = (
        f"{tournament.name}: every match of {rnd.phase.name}, round {rnd.number} is confirmed. "
        "The round can be closed."
    )[:300]
    with transaction.atomic():
        _, created = Notification.objects.get_or_create(
            tournament=tournament,
            key=f"round-complete:{rnd.pk}",
            defaults={"kind": "round_complete", "text": text},
        )
        if created:
            recipients = sorted(
                set(
                    Membership.objects.filter(club_id=tournament.club_id, role__in=ORGANIZING_ROLES)
                    .exclude(user__email="")
                    .values_list("user__email", flat=True)
                )
            )
            if recipients:
                transaction.on_commit(
                    partial(_email_organizers, text=text, recipients=recipients), robust=True
                )
    return created


def _email_organizers(*, text: str, recipients: list[str]) -> None:
    send_mail(
        subject=text[:120],
        message=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=recipients,
    )
    log.info("round completion e-mailed to %s organizers", len(recipients))
