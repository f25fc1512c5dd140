"""A result as the engine validates it, in either form the table enters it.

Responsible for: ``result_state``: a finished result, ``{"games": [...]}`` (each game's final
stones or only its winner, checked with scoring.record_games) or ``{"hands": [...]}`` (the hands
from the first, folded with the match's first mano; ``"recorded"`` for the hands recorded at
the table), with the games a late pair lost first; it returns the payload to store and the
engine's state as JSON.

A match of trios is folded like one of pairs, with the six seats of the trios form (the
phase's rule set says the form).

A round played to its own length (a phase's, or a round's: a final longer than the
semi-finals, selectors.rounds.round_rules) refuses games that do not fit it with a
message naming that length and the round (``result_stage_length`` on a knockout,
``result_round_length`` otherwise), the engine's reason inside.

Must not: hold a rule of Mus (scoring/ does: its errors reach the client as 400 with the
engine's message) or write anything.

Terms: juego (a game), mano (a hand), vaca, piedras (stones), mano (the first hand's seat).
"""

from __future__ import annotations

from typing import Any

from config.errors import Invalid
from scoring import MatchState, RuleSet, record_games
from scoring.errors import ScoringError
from scoring.jsonio import games_from_json, state_to_json
from scoring.messages import MessageError, Term
from tournaments.draw.lengths import stage_of
from tournaments.models import LatePenalty, Match, Phase
from tournaments.selectors.results import (
    first_mano_position,
    fold_hands,
    hand_records,
    match_penalty_games,
    match_rules,
)
from tournaments.selectors.rounds import (
    PHASE_RULE_FIELDS,
    phase_final_stage,
    phase_is_knockout,
    round_length_values,
)
from tournaments.services.results.common import RECORDED


def result_state(
    match: Match, payload: Any, *, penalties: list[LatePenalty] | None = None
) -> tuple[dict, dict]:
    """Validate a finished result; returns (payload to store, engine state as JSON).

    ``{"games": [...]}``: each game's final stones (or only its winner), checked with
    scoring.record_games(complete=True). ``{"hands": [...]}``: the hands from the first, folded
    with scoring.play_match; ``{"hands": "recorded"}``: the hands recorded at this table. In
    every form the games a late pair lost come first (see match_penalty_games; ``penalties``:
    the match's late penalties when the caller holds them, as an archive's import does).
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
    phase = match.round.phase
    # the round's length as committed now: a length changed since the caller read the phase
    # (the change waits for this match's row lock, and refuses once it has a result) counts
    phase.settings = (
        Phase.objects.filter(pk=phase.pk).values_list("settings", flat=True).first()
        or phase.settings
    )
    rules = match_rules(match=match)
    if "hands" in payload:  # hands are folded as they were played: no other length to mistake
        return _validated(match, payload, rules, penalties)
    try:
        return _validated(match, payload, rules, penalties)
    except ScoringError as error:
        raise _length_refusal(match, rules, error) from None


def _validated(
    match: Match, payload: dict, rules: RuleSet, penalties: list[LatePenalty] | None
) -> tuple[dict, dict]:
    lost = match_penalty_games(match=match, rules=rules, penalties=penalties)
    if "games" in payload:
        games = games_from_json(payload["games"])
        state = record_games(rules, [*lost, *games], complete=True)
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
    state, _ = fold_hands(rules, first_mano_position(match), lost, hand_records(rules, raw))
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


#: the engine's refusals that a result of another length meets (games after the match was
#: decided, a match or a game not finished, stones of a longer game)
LENGTH_CODES = frozenset(
    (
        "game_after_match",
        "match_over",
        "match_over_table",
        "match_not_finished",
        "game_not_finished",
        "both_at_target",
        "stones_above_limit",
        "ordago_after_target",
    )
)

#: a knockout's round counted from the final, as a message names it
STAGE_TERMS = {
    "final": Term("the final"),
    "semifinal": Term("the semi-finals"),
    "quarterfinal": Term("the quarter-finals"),
    "earlier": Term("a round before the quarter-finals"),
}


def _length_refusal(match: Match, rules: RuleSet, error: MessageError) -> MessageError:
    """``error`` with the round's length named, when the round is played to a length of its
    own (its phase's or its round's) and the error is one a result of another length meets;
    ``error`` itself otherwise."""
    if getattr(error, "code", "") not in LENGTH_CODES:
        return error
    phase = match.round.phase
    base = phase.tournament.rule_values()
    length = round_length_values(phase, match.round.number)
    if all(length[name] == base[name] for name in PHASE_RULE_FIELDS):
        return error
    params = {
        "phase": phase.name,
        "games": rules.games_per_vaca,
        "count": rules.vacas_per_match,
        "stones": rules.stones_per_game,
        "reason": error,
    }
    final = phase_final_stage(phase) if phase_is_knockout(phase) else None
    if final is not None:
        return Invalid(
            (
                "In {stage} of {phase}, {games} games win a vaca, {count} vaca wins the match "
                "and games go to {stones} stones; this result does not fit: {reason}",
                "In {stage} of {phase}, {games} games win a vaca, {count} vacas win the match "
                "and games go to {stones} stones; this result does not fit: {reason}",
            ),
            code="result_stage_length",
            stage=STAGE_TERMS[stage_of(match.round.number, final)],
            **params,
        )
    return Invalid(
        (
            "In round {round} of {phase}, {games} games win a vaca, {count} vaca wins the match "
            "and games go to {stones} stones; this result does not fit: {reason}",
            "In round {round} of {phase}, {games} games win a vaca, {count} vacas win the match "
            "and games go to {stones} stones; this result does not fit: {reason}",
        ),
        code="result_round_length",
        round=match.round.number,
        **params,
    )
