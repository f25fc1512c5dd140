"""What every write of a partida's result shares: its vocabulary, its checks and its answer.

Responsible for: the sides (a, b, organizer) and doors (link, account, api) of a write, the
lock on the match row (``lock_match``), the checks each write repeats (idempotency key,
version, a match that can be played and is not confirmed yet), copying the engine's state
into the match (``set_result``) and queueing what follows a confirmed result, storing a
submission under its idempotency key (``store_keyed``), and ``answer_write``: bump the
version, save the result columns (``RESULT_COLUMNS``), audit, answer (the audit keeps the
answer for replays). The inserts and the update are compiled once
(tournaments/selectors/prepared.py): a write that changes a column of the match outside
RESULT_COLUMNS must add it there, or answer_write does not save it.

Every write: ``transaction.atomic()``, the Match re-read with ``select_for_update()``, the
client's ``version`` compared with Match.version (StaleVersion, 409), the match's version
bumped, an AuditEntry with the old and the new, and follow-up work queued with
``transaction.on_commit``.

Must not: import another module of this package (they all import this one), or decide what a
write means (each module of the package does, for its own writes).

Terms: partida (a Match), pareja (pair A or B), mesa (table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models
from django.utils import timezone

from config.errors import Conflict, Invalid, NotFound, StaleVersion
from config.live import live_publish
from config.queue import enqueue_on_commit
from scoring.messages import Term
from tournaments.models import AuditEntry, Match, ResultSubmission
from tournaments.selectors.prepared import PreparedInsert, PreparedUpdate
from tournaments.selectors.results import MATCH_RELATIONS, match_snapshot, result_figures

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


# --- Checks shared by the writes -----------------------------------------------------------


def lock_match(match: Match) -> Match:
    """Re-read the match and its round under a row lock (only the match row: of=self).

    The phase, tournament and peña above the round are taken from ``match`` when it holds
    them already (the request loaded them a moment before, and nothing a write checks in them
    changes while a round is being played): joining and compiling those wide rows again was a
    third of a phone's submission.
    """
    locked = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round")
        .filter(pk=match.pk)
        .first()
    )
    if locked is None:  # removed meanwhile (a league's division taken out before any result)
        raise match_gone()
    known = match.round if Match.round.is_cached(match) else None
    if (
        known is not None
        and known.phase_id == locked.round.phase_id
        and type(known).phase.is_cached(known)
        and type(known.phase).tournament.is_cached(known.phase)
    ):
        locked.round.phase = known.phase
        return locked
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(*MATCH_RELATIONS)
        .get(pk=match.pk)
    )


def check_key(idempotency_key: str) -> str:
    key = (idempotency_key or "").strip()
    if not key or len(key) > 80:
        raise Invalid(
            "Send an Idempotency-Key (1 to 80 characters, new for each action) so that a "
            "retry is not counted twice.",
            code="idempotency_key",
        )
    return key


def check_version(match: Match, version: int) -> None:
    if version != match.version:
        raise StaleVersion(
            "The result changed on another device; reload and try again.",
            code="stale_version",
            current=match.version,
            sent=version,
        )


def check_playable(match: Match) -> None:
    if match.kind == Match.Kind.BYE or match.entry_a_id is None or match.entry_b_id is None:
        raise Conflict(
            "This match has no opponent yet (a bye, or a bracket place still to be decided): "
            "there is no result to enter.",
            code="match_not_playable",
        )


def check_not_confirmed(match: Match) -> None:
    if match.status == Match.Status.CONFIRMED:
        raise Conflict(
            "The result of this match is already confirmed. An organizer can correct it.",
            code="already_confirmed",
        )


def lost_race() -> Conflict:
    return StaleVersion(
        "The result changed on another device; reload and try again.", code="stale_version"
    )


# --- Storing -------------------------------------------------------------------------------
#
# The writes every result sends, compiled once (tournaments/selectors/prepared.py): the same
# SQL the ORM's create() and save(update_fields=…) send, without compiling it per request.

_AUDIT_INSERT = PreparedInsert(AuditEntry)

#: The columns a write of the result changes; answer_write saves these (and only these).
RESULT_COLUMNS = (
    "status",
    "kind",
    "winner",
    "games_a",
    "games_b",
    "vacas_a",
    "vacas_b",
    "stones_a",
    "stones_b",
    "result",
    "version",
    "started_at",
    "confirmed_at",
    "updated_at",
)
_RESULT_UPDATE = PreparedUpdate(Match, RESULT_COLUMNS)


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
    return _AUDIT_INSERT.run(
        tournament_id=match.round.phase.tournament_id,
        match=match,
        action=action,
        actor=user_or_none(actor),
        via=via,
        device=(device or "")[:200],
        old=old,
        new=new,
    )


def user_or_none(actor: User):
    return actor if actor is not None and actor.is_authenticated else None


#: One compiled INSERT per model of submissions (ResultSubmission, FrancesSubmission).
_KEYED_INSERTS: dict[type[models.Model], PreparedInsert] = {}


def store_keyed(
    model: type[models.Model], *, key: str, version: int, device: str, actor: User, **fields: Any
) -> Any:
    """Insert a submission (a ResultSubmission, a FrancesSubmission) under its Idempotency-Key;
    None when the key is taken.

    Every writer holds the row lock of the match (the table) before it looks the key up, so a
    taken key is found before this; the unique constraint is the backstop of a race all the
    same: the INSERT skips a row it refuses (``ON CONFLICT DO NOTHING``, ``INSERT OR IGNORE``
    on SQLite) instead of raising, which spares the savepoint around it."""
    insert = _KEYED_INSERTS.get(model)
    if insert is None:
        insert = _KEYED_INSERTS.setdefault(model, PreparedInsert(model, ignore_conflicts=True))
    return insert.run(
        idempotency_key=key,
        based_on_version=version,
        device=(device or "")[:200],
        created_by=user_or_none(actor),
        **fields,
    )


def match_gone() -> NotFound:
    """The match was removed while a write was on its way (a league's division taken out)."""
    return NotFound("This match no longer exists.", code="match_gone")


def key_reused() -> Conflict:
    """The same Idempotency-Key with a different entry: a client's mistake, not a retry."""
    return Conflict(
        "This Idempotency-Key was already used for a different entry. Use a new key for "
        "each new entry.",
        code="idempotency_key_reused",
    )


def mark_started(match: Match) -> None:
    if match.started_at is None:
        match.started_at = timezone.now()


def set_result(match: Match, summary: dict, *, kind: str) -> None:
    """Copy the engine's state into the match's columns (``result_figures``: an archive's
    import checks the columns against it the same way) and confirm it."""
    figures = result_figures(summary)
    match.status = Match.Status.CONFIRMED
    match.kind = kind
    match.winner_id = match.entry_a_id if figures.winner == "A" else match.entry_b_id
    match.games_a, match.games_b = figures.games
    match.vacas_a, match.vacas_b = figures.vacas
    match.stones_a, match.stones_b = figures.stones
    match.result = summary
    match.confirmed_at = timezone.now()


def queue_result_confirmed(match: Match) -> None:
    enqueue_on_commit("tournaments.result_confirmed", stamped=True, match_id=match.pk)


def answer_write(
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
    """Bump the version, save, audit and answer; the audit keeps the answer for replays.

    Saves the RESULT_COLUMNS of the match (the only ones a write of its result changes)."""
    match.version += 1
    _RESULT_UPDATE.run(match)
    state = match_snapshot(match)
    new = {"match": state, **(extra or {})}
    if submission is not None:
        new["submission"] = submission.pk
        new["side"] = submission.side
    _audit(match, action=action, actor=actor, via=via, device=device, old=old, new=new)
    # the screens: the table's phones, the organizer's board; the public ones once confirmed
    live_publish(
        tournament_id=match.round.phase.tournament_id,
        kind=action,
        public=match.status == Match.Status.CONFIRMED,
        match=match.pk,
        status=match.status,
        version=match.version,
    )
    return ResultAnswer(match, state, submission)
