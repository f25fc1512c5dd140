"""Hand by hand: the anotador's record of a partida at the table.

Responsible for: ``match_hand_add`` (the next hand, checked with the engine: all the match's
hands, this one last, are folded through scoring.play_match with the phase's rules, the
match's first mano and any late penalty; an illegal hand, or a hand after the match is
decided, is refused with the engine's message and nothing is stored) and ``match_hand_undo``
(the last hand, a mistake at the table), both before the result is entered. A retry with the
same key answers with the score at that hand. The first hand may carry the score the game
starts from (``start``, a table that switches to the phone mid-game); under the house rule
"a forgotten stone is lost once the deck is cut" a hand cannot be undone once a later hand was
entered. A hand may be written as the betting or as lance points (scoring.lances): the
engine checks both alike. A match of trios takes hands too, six seats of them: the phase's rule
set plays the trios form (selectors.rounds.rule_form), so the same fold scores them.

Must not: hold a rule of Mus (scoring/ does) or submit the result (submission.py does, with
``{"hands": "recorded"}``).

Terms: mano (a hand), anotador (who keeps the score), partida (a Match), mesa (table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from config.errors import Conflict, Invalid
from scoring.jsonio import outcome_to_json
from tournaments.models import AuditEntry, HandEntry, Match
from tournaments.selectors.results import (
    first_mano_position,
    fold_hands,
    hand_records,
    match_penalty_games,
    match_rules,
    match_running_score,
    match_snapshot,
    start_of,
)
from tournaments.services.results.access import check_link_open, check_writer
from tournaments.services.results.common import (
    MATCH_STATUS_TERMS,
    ResultAnswer,
    User,
    answer_write,
    check_key,
    check_playable,
    check_version,
    key_reused,
    lock_match,
    lost_race,
    mark_started,
)


@dataclass(frozen=True)
class HandAnswer:
    """What recording a hand answers: the match right after it and the score at that hand."""

    match: Match
    state: dict[str, Any]
    number: int
    running: dict[str, Any]
    hand: dict[str, Any]
    replayed: bool = False


def _hand_answer(match: Match, state: dict, number: int, *, replayed: bool) -> HandAnswer:
    running = match_running_score(match=match, upto=number)
    outcome = running.outcomes[number - 1]
    return HandAnswer(
        match,
        state,
        number,
        running.as_json(),
        outcome_to_json(number, outcome, running.state.rules),
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


def _check_correctable(match: Match, number: int) -> None:
    """Under the house rule "a forgotten stone is lost once the deck is cut" (source 004) a
    hand can no longer be corrected once the next hand was entered, even if that next hand was
    undone since: the highest hand ever recorded (the audit keeps it) is what counts."""
    rules = match_rules(match=match)
    if not rules.forgotten_stones_lost:
        return
    entered = (
        AuditEntry.objects.filter(match=match, action="hand_added", new__hand__gt=number)
        .values_list("new__hand", flat=True)
        .first()
    )
    if entered is not None and not rules.hand_correctable(number, entered):
        raise Conflict(
            "Hand {hand} can no longer be corrected: hand {next} was entered after it, and "
            "this tournament plays that a forgotten stone is lost once the deck is cut.",
            code="hand_past_cut",
            hand=number,
            next=number + 1,
        )


def _check_start(hand: Any, number: int) -> None:
    """A score written on paper (``"start": {"A": 12, "B": 20}``) comes with the first hand."""
    if isinstance(hand, dict) and "start" in hand and number != 1:
        raise Invalid(
            "The score the game starts from is given with the first hand only.",
            code="start_not_first_hand",
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
    key = check_key(idempotency_key)
    check_writer(match, via=via, actor=actor)
    with transaction.atomic():
        locked = lock_match(match)
        first = HandEntry.objects.filter(match=locked, idempotency_key=key).first()
        if first is not None:
            if first.payload != hand:
                raise key_reused()
            audit = (
                AuditEntry.objects.filter(
                    match=locked, action="hand_added", new__idempotency_key=key
                )
                .order_by("id")
                .first()
            )
            state = dict(audit.new["match"]) if audit else match_snapshot(locked)
            return _hand_answer(locked, state, first.number, replayed=True)
        check_link_open(locked, via)
        check_playable(locked)
        check_version(locked, version)
        _check_hand_entry_open(locked)
        rules = match_rules(match=locked)
        hands = list(locked.hands.order_by("number"))
        number = len(hands) + 1
        _check_start(hand, number)
        payloads = [h.payload for h in hands] + [hand]
        records = hand_records(rules, payloads)
        penalties = match_penalty_games(match=locked, rules=rules)
        fold_hands(rules, first_mano_position(locked), penalties, records, start_of(payloads))
        try:
            with transaction.atomic():
                HandEntry.objects.create(
                    match=locked, number=number, payload=hand, idempotency_key=key
                )
        except IntegrityError:  # hand number taken: the backstop behind the version check
            raise lost_race() from None
        old = match_snapshot(locked)
        mark_started(locked)
        locked.status = Match.Status.IN_PROGRESS
        answer = answer_write(
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
    check_writer(match, via=via, actor=actor)
    with transaction.atomic():
        locked = lock_match(match)
        check_link_open(locked, via)
        check_version(locked, version)
        _check_hand_entry_open(locked)
        last = locked.hands.order_by("-number").first()
        if last is None:
            raise Conflict(
                "No hand has been recorded yet; there is nothing to undo.", code="no_hands"
            )
        _check_correctable(locked, last.number)
        old = {**match_snapshot(locked), "hand": last.number, "payload": last.payload}
        last.delete()
        return answer_write(
            locked,
            action="hand_undone",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
            extra={"hand_removed": last.number},
        )
