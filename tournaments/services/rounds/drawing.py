"""Drawing a phase's next round: the state checks (earlier phases finished, previous round
closed or published, rounds planned not exceeded), the race between two organizers who draw
the same round, and the draft Round with its Matches (tournaments.draw_manager, the only
adapter to the pure algorithms of tournaments.draw, decides the pairings and tables).

Must not: publish or close a round (publishing.py) or decide a pairing itself.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max

from config.errors import Conflict
from tournaments import draw_manager
from tournaments.models import (
    Match,
    Phase,
    Round,
    Tournament,
)
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
)
from tournaments.services import ladders
from tournaments.services.base import tournament_check_not_managed
from tournaments.services.rounds.common import (
    User,
    _audit,
    _lock_phase,
    _phase_finished,
    _require_organizer,
    _round_drawn_twice,
    _tournament_finished,
)

# --- Drawing rounds ---------------------------------------------------------------------------


def round_draw_generate(*, phase: Phase, actor: User, managed: bool = False) -> Round:
    """Draw the phase's next round: a draft Round with its Matches and tables.

    Swiss and a tres ceros: after the previous round is closed, paired from the results so far
    (no rematch, byes to the lowest-ranked pair without one). Liguilla: the groups are drawn
    with round 1, then each round follows the groups' schedule (the previous round must be
    published). Brackets: round 1 here; later rounds are created by `bracket_advance` as
    results are confirmed. Raises Conflict for a state that does not allow a draw, and
    DrawError (400) for a field the algorithm refuses (e.g. too few tables or pairs).

    Two organizers who draw the same round at once: the first draws it, the other waits for
    the phase's lock and gets Conflict ``round_drawn_twice`` (not "the previous round is not
    closed", which is what the round it waited for looks like once drawn).
    """
    with transaction.atomic():
        # The round this request is for, read before waiting for the lock: a higher one once
        # the lock is ours means somebody else drew it meanwhile.
        wanted = _next_round_number(phase.pk)
        phase = _lock_phase(phase.pk)
        _require_organizer(actor, phase.tournament)
        tournament_check_not_managed(tournament=phase.tournament, managed=managed)
        rnd = _draw_next(phase, actor, wanted=wanted)
    return rnd


def _next_round_number(phase_id: int) -> int:
    top = Round.objects.filter(phase_id=phase_id).aggregate(top=Max("number"))["top"]
    return (top or 0) + 1


def _draw_next(phase: Phase, actor: User, *, wanted: int | None = None) -> Round:
    """Draw the next round of the locked ``phase``; ``wanted`` is the round the caller meant
    to draw (read before the lock), if it knows."""
    tournament = phase.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise _tournament_finished(tournament)
    if phase.status == Phase.Status.FINISHED:
        raise _phase_finished(phase)
    earlier_phases = Phase.objects.filter(tournament=tournament, order__lt=phase.order)
    if phase.entrants:
        # a phase fed by its entrants rules waits only for the phases it takes from: a
        # Cuadro B is played beside the Cuadro A
        sources = {r.get("phase") for r in phase.entrants if isinstance(r, dict)}
        earlier_phases = earlier_phases.filter(order__in=sources - {None})
    earlier = list(
        earlier_phases.exclude(status=Phase.Status.FINISHED).values_list("name", flat=True)
    )
    if earlier:
        raise Conflict(
            (
                "Finish phase {phases} before drawing {phase}.",
                "Finish phases {phases} before drawing {phase}.",
            ),
            code="phase_previous_open",
            count=len(earlier),
            phases=earlier,
            phase=phase.name,
        )
    last = Round.objects.filter(phase=phase).order_by("-number").first()
    number = 1 if last is None else last.number + 1
    if wanted is not None and number > wanted:
        raise _round_drawn_twice(phase, wanted)
    if last is not None:
        _check_next_round(phase, last, number)
    try:
        with transaction.atomic():
            if ladders.is_ladder(phase):
                rnd = ladders.ladder_draw_round(phase, number)
            else:
                rnd = draw_manager.draw_round(phase, number)
    except IntegrityError:
        raise _round_drawn_twice(phase, number) from None
    if phase.status == Phase.Status.PENDING:
        phase.status = Phase.Status.RUNNING
        phase.save(update_fields=["status"])
    # the pairs drawn (byes included): nothing but a swap between them changes that, so an
    # archive's import checks the round still holds them all (services/archive_checks.py)
    drawn = {
        pk
        for pair in Match.objects.filter(round=rnd).values_list("entry_a_id", "entry_b_id")
        for pk in pair
        if pk is not None
    }
    _audit(
        tournament,
        "round_drawn",
        actor,
        new={"phase": phase.id, "round": rnd.id, "number": number, "entries": sorted(drawn)},
    )
    return rnd


def _check_next_round(phase: Phase, last: Round, number: int) -> None:
    if phase.format in ELIMINATION_FORMATS:
        raise Conflict(
            "The rounds of the bracket of {phase} after the first are created by themselves "
            "as results are confirmed.",
            code="round_bracket_automatic",
            phase=phase.name,
        )
    if phase.format == Phase.Format.ROUND_ROBIN:
        if last.status == Round.Status.DRAFT:
            raise Conflict(
                "Round {round} of {phase} is still a draft; publish it first.",
                code="round_previous_draft",
                round=last.number,
                phase=phase.name,
            )
    elif last.status != Round.Status.CLOSED:
        raise Conflict(
            "Round {round} of {phase} is not closed; close it before drawing the next one.",
            code="round_previous_open",
            round=last.number,
            phase=phase.name,
        )
    planned = phase.rounds_planned
    counted = phase.format in (
        Phase.Format.SWISS,
        Phase.Format.ROUND_ROBIN,
        *ladders.LADDER_FORMATS,
    )
    if counted and planned and number > planned:
        raise Conflict(
            "{phase} has all its {planned} rounds; finish the phase.",
            code="phase_rounds_done",
            phase=phase.name,
            planned=planned,
        )
