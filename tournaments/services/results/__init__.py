"""Writes of the results area: a partida's result from the table to the official record.

Responsible for, one module each:

- access.py: reaching a match, through the table's link (the Match.token is the credential;
  the caller says which pair it is, a or b) or as an organizer of its peña through an account
  or the API;
- submission.py: the pairs' versions — quick entry (final stones, or only the winner, of each
  game) or the hands recorded — submitted, confirmed when equal, disputed when not; an
  organizer's own entry is official and confirms at once;
- corrections.py: the organizer resolves a dispute, or corrects a confirmed result while
  nothing depends on it;
- penalties.py: forfeits (a walkover with the format's full score), double losses (both pairs
  lose) and lateness (games lost per minutes late);
- hands.py: hand by hand, the anotador's record (HandEntry rows);
- notifications.py: telling the organizers, once, that a round is complete;
- validation.py (a result as the engine validates it) and common.py (the vocabulary, checks
  and answer every write shares) serve the others.

The imports go one way: common ← validation, access ← submission ← corrections, and penalties,
hands, notifications beside them. Callers use this package's names (``from
tournaments.services import results``), which are those below.

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

from tournaments.services.results.access import match_for_token, table_link_unknown
from tournaments.services.results.common import (
    ACCOUNT,
    API,
    CONFIRMS,
    LINK,
    ORGANIZER,
    PAIR_SIDES,
    RECORDED,
    SIDE_A,
    SIDE_B,
    ResultAnswer,
)
from tournaments.services.results.corrections import match_dispute_resolve, match_result_correct
from tournaments.services.results.hands import HandAnswer, match_hand_add, match_hand_undo
from tournaments.services.results.notifications import round_completion_notify
from tournaments.services.results.penalties import (
    match_double_loss,
    match_forfeit,
    match_late_penalty,
)
from tournaments.services.results.submission import match_result_confirm, match_result_submit

__all__ = [
    "ACCOUNT",
    "API",
    "CONFIRMS",
    "LINK",
    "ORGANIZER",
    "PAIR_SIDES",
    "RECORDED",
    "SIDE_A",
    "SIDE_B",
    "HandAnswer",
    "ResultAnswer",
    "match_dispute_resolve",
    "match_for_token",
    "match_double_loss",
    "match_forfeit",
    "match_hand_add",
    "match_hand_undo",
    "match_late_penalty",
    "match_result_confirm",
    "match_result_correct",
    "match_result_submit",
    "round_completion_notify",
    "table_link_unknown",
]
