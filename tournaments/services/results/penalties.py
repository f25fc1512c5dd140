"""A pair that did not show up, or came late: forfeits, double losses and lateness.

Responsible for: ``match_forfeit`` (a walkover for the present pair with the format's full
score, recorded through the engine so the stored result is a state it accepts) and
``match_late_penalty`` (the late pair loses minutes_late // late_minutes_per_game games, won by
the opponent before the first game played; only before a result is entered, and a second
penalty for the same pair replaces the first), and ``match_double_loss`` (both pairs lose: a
league match not played by its deadline; confirmed with kind ``double_loss``, no winner and
no games, which the standings count as a match played and lost by both). Organizers only.

Must not: decide how many games a match needs (the rule set, through the engine, does).

Terms: partida (a Match), no presentado (forfeit), doble derrota (double loss), retraso
(lateness), juego (a game), vaca, piedras (stones).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from config.errors import Conflict, Invalid
from scoring import GameEntry, RuleSet, record_games
from scoring.jsonio import state_to_json
from tournaments.models import LatePenalty, Match
from tournaments.selectors.results import match_rules, match_running_score, match_snapshot
from tournaments.services.base import tournament_check_not_managed
from tournaments.services.results.access import check_via, require_match_organizer
from tournaments.services.results.common import (
    ACCOUNT,
    PAIR_SIDES,
    SIDE_A,
    ResultAnswer,
    User,
    answer_write,
    check_not_confirmed,
    check_playable,
    check_version,
    lock_match,
    queue_result_confirmed,
    set_result,
)


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
    check_via(via)
    require_match_organizer(match, actor)
    if absent_side not in PAIR_SIDES:
        raise Invalid(
            "'absent_side' is the side that did not show up: a or b, not '{absent_side}'.",
            code="absent_side",
            absent_side=str(absent_side)[:40],
        )
    with transaction.atomic():
        locked = lock_match(match)
        check_version(locked, version)
        check_playable(locked)
        check_not_confirmed(locked)
        present = 1 if absent_side == SIDE_A else 0
        summary = forfeit_summary(match_rules(match=locked), present)
        old = match_snapshot(locked)
        set_result(locked, summary, kind=Match.Kind.FORFEIT)
        queue_result_confirmed(locked)
        return answer_write(
            locked,
            action="forfeit",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
            extra={"absent_side": absent_side},
        )


def forfeit_summary(rules: RuleSet, present: int) -> dict:
    """The result of a walkover for side ``present`` (0 A, 1 B), as the engine stores it:
    every game a match needs, each at the target to 0 (an archive's import checks a forfeit's
    stored result against it)."""
    stones = (rules.stones_per_game, 0) if present == 0 else (0, rules.stones_per_game)
    games = [GameEntry(stones, present)] * (rules.games_per_vaca * rules.vacas_per_match)
    return state_to_json(record_games(rules, games, complete=True))


def match_double_loss(
    *,
    match: Match,
    version: int,
    actor: User,
    via: str = ACCOUNT,
    device: str = "",
    managed: bool = False,
) -> ResultAnswer:
    """Neither pair played the match (a league's postponed match past its deadline): both
    lose it. Confirmed with kind ``double_loss``, no winner, no games and no stones, so the
    round can close, the pages show it decided, and the standings charge both pairs a match
    played and lost (scoring.standings, ``double_loss``). Ratings leave it out (nobody
    played). In a tournament a league runs, only the league's services record it
    (``managed=True``)."""
    check_via(via)
    require_match_organizer(match, actor)
    with transaction.atomic():
        locked = lock_match(match)
        tournament_check_not_managed(tournament=locked.round.phase.tournament, managed=managed)
        check_version(locked, version)
        check_playable(locked)
        check_not_confirmed(locked)
        old = match_snapshot(locked)
        locked.status = Match.Status.CONFIRMED
        locked.kind = Match.Kind.DOUBLE_LOSS
        locked.winner_id = None
        locked.games_a = locked.games_b = locked.vacas_a = locked.vacas_b = 0
        locked.stones_a = locked.stones_b = 0
        locked.result = None
        locked.confirmed_at = timezone.now()
        queue_result_confirmed(locked)
        return answer_write(
            locked,
            action="double_loss",
            old=old,
            submission=None,
            actor=actor,
            via=via,
            device=device,
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
    check_via(via)
    require_match_organizer(match, actor)
    if side not in PAIR_SIDES:
        raise Invalid(
            "'side' is the side that came late: a or b, not '{side}'.",
            code="late_side",
            side=str(side)[:40],
        )
    if isinstance(minutes_late, bool) or not isinstance(minutes_late, int) or minutes_late < 0:
        raise Invalid(
            "Minutes late is a whole number from 0 up.", code="minutes_late", value=minutes_late
        )
    with transaction.atomic():
        locked = lock_match(match)
        tournament = locked.round.phase.tournament
        if not tournament.late_minutes_per_game:
            raise Invalid(
                "{tournament_name} has no lateness rule. Set the minutes per game lost in the "
                "tournament's rules first.",
                code="no_lateness_rule",
                tournament_name=tournament.name,
            )
        check_version(locked, version)
        check_playable(locked)
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
        return answer_write(
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
