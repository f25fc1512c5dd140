"""Writes of the rounds area: phases, draws, tables, publishing and closing rounds, brackets.

Responsible for: adding phases to a tournament; drawing a phase's next round (through
tournaments.draw_manager, the only adapter to the pure algorithms of tournaments.draw);
the organizer's changes to a round before it starts (swap two pairs, swap two tables, move a
match to a free table), each kept in the audit trail; publishing and closing rounds; finishing
a phase and going on to the next one (groups then knockout: the knockout is drawn from the
group standings); creating the next bracket matches as results are confirmed
(`bracket_advance`); and e-mailing players their table (`round_pairings_email`), in the
peña's language (tournaments.services.mail).

Every write draws its own transaction, re-reads the rows it changes with select_for_update
(phase, then round, then matches — always in that order), re-checks their state, and queues
its tasks with transaction.on_commit. Only organizers of the tournament's peña may write;
somebody else gets 404 for a tournament they cannot see and 403 for a published one.

Must not: decide a pairing or a table (tournaments.draw does), compute standings (scoring
does), or touch a match's result, version or token (tournaments/services/results/ owns
them; the draw only writes byes, which are decided when drawn).

Terms: fase (phase), ronda (round), mesa (table), pareja (Entry), descanso (bye), liguilla
(round robin group), cuadro (bracket), repesca, a tres ceros (elimination after N losses),
vaca, juego, piedras.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.mail import get_connection, send_mail
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from clubs.models import Player
from config.errors import Conflict, Invalid
from config.queue import enqueue_on_commit
from scoring.errors import RuleSetError
from scoring.messages import Term, jsonable
from tournaments import draw_manager
from tournaments.draw import DrawError, champion, lives_left
from tournaments.models import (
    AuditEntry,
    Entry,
    FrancesTable,
    Match,
    Notification,
    Phase,
    Round,
    Tournament,
)
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
    bracket_from_json,
    phase_not_found,
    phase_rules,
    round_matches,
    round_not_found,
)
from tournaments.selectors.tournaments import tournament_check_organizer
from tournaments.services import ladders
from tournaments.services.base import MAX_TABLES, tournament_check_not_managed
from tournaments.services.mail import email_render, site_link
from tournaments.services.webhooks import webhooks_round_published

# Re-exported: other areas import the phase's rule set from here or from the selectors.
__all__ = [
    "bracket_advance",
    "match_table_move",
    "phase_advance",
    "phase_create",
    "phase_finish",
    "phase_rules",
    "phases_finish_open",
    "round_close",
    "round_draw_generate",
    "round_entries_swap",
    "round_pairings_email",
    "round_publish",
    "round_tables_swap",
]

log = logging.getLogger(__name__)

User = AbstractBaseUser | AnonymousUser | None

EMAIL_ACTION = "round_pairings_emailed"

#: the status of a round that is no longer a draft, as its messages say it (a word the
#: reader's language translates)
_ROUND_STATUS = {Round.Status.PUBLISHED: Term("published"), Round.Status.CLOSED: Term("closed")}


# --- Shared helpers ---------------------------------------------------------------------------


def _require_organizer(actor: User, tournament: Tournament) -> None:
    """Organizers pass; others get 403 on a published tournament, 404 on one they cannot see."""
    tournament_check_organizer(user=actor, tournament=tournament)


def _audit(
    tournament: Tournament,
    action: str,
    actor: User,
    *,
    match: Match | None = None,
    old: dict | None = None,
    new: dict | None = None,
) -> None:
    AuditEntry.objects.create(
        tournament=tournament,
        match=match,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        old=old,
        new=new,
    )


def _lock_phase(phase_id: int) -> Phase:
    phase = Phase.objects.select_for_update(of=("self",)).filter(pk=phase_id).first()
    if phase is None:
        raise phase_not_found(phase_id)
    # Loaded apart so that the tournament and peña rows are not locked too.
    phase.tournament = Tournament.objects.select_related("club").get(pk=phase.tournament_id)
    return phase


def _lock_round(round_id: int) -> Round:
    """Lock the round's phase, then the round (the order every service uses)."""
    phase_id = Round.objects.filter(pk=round_id).values_list("phase_id", flat=True).first()
    if phase_id is None:
        raise round_not_found(round_id)
    phase = _lock_phase(phase_id)
    rnd = Round.objects.select_for_update(of=("self",)).get(pk=round_id)
    rnd.phase = phase
    return rnd


def _after_commit_standings(phase_id: int) -> None:
    enqueue_on_commit("tournaments.standings_refresh", phase_id=phase_id)


def _after_commit_email(round_id: int) -> None:
    enqueue_on_commit("tournaments.round_pairings_email", round_id=round_id)


def _tournament_finished(tournament: Tournament) -> Conflict:
    return Conflict(
        "{tournament} has finished; it can no longer change.",
        code="tournament_finished",
        tournament=tournament.name,
    )


def _phase_finished(phase: Phase) -> Conflict:
    return Conflict("{phase} is already finished.", code="phase_finished", phase=phase.name)


def _round_closed(rnd: Round) -> Conflict:
    return Conflict("Round {round} is closed.", code="round_closed", round=rnd.number)


def _round_drawn_twice(phase: Phase, number: int) -> Conflict:
    return Conflict(
        "Round {round} of {phase} was drawn at the same time by somebody else; reload the page.",
        code="round_drawn_twice",
        round=number,
        phase=phase.name,
    )


def _table_match_unknown(match_id: int, rnd: Round) -> Invalid:
    return Invalid(
        "Match {match} is not a match at a table in round {round}.",
        code="table_match_unknown",
        match=match_id,
        round=rnd.number,
    )


# --- Phases -----------------------------------------------------------------------------------


def phase_create(
    *,
    tournament: Tournament,
    actor: User,
    name: str,
    format: str,
    rounds_planned: int | None = None,
    group_size: int | None = None,
    qualifiers_per_group: int | None = None,
    lives: int | None = None,
    third_place: bool = False,
    grand_final_reset: bool | None = None,
    separate_clubs_rounds: int | None = None,
    source_id: int | None = None,
    stones_per_game: int | None = None,
    games_per_vaca: int | None = None,
    vacas_per_match: int | None = None,
    ladder: dict | None = None,
    managed: bool = False,
) -> Phase:
    """Add a phase after the tournament's last one.

    Swiss needs ``rounds_planned``; a liguilla (round_robin) ``group_size``; a tres ceros
    (lives) ``lives``. A single elimination with ``source_id`` (an earlier liguilla, Swiss or
    lives phase) and ``qualifiers_per_group`` is a knockout drawn from that phase's standings
    (1A–2B, 1B–2A, …). ``stones_per_game``, ``games_per_vaca``, ``vacas_per_match`` override
    the tournament's match format for this phase (e.g. a longer final). An option the format
    does not read (``FORMAT_OPTIONS``: ``rounds_planned`` for a liguilla…) is refused, not
    dropped; left out (None), ``lives`` is 3, ``grand_final_reset`` on and
    ``separate_clubs_rounds`` 0. A ladder (group_ladder, table_ladder) reads ``ladder``, its
    options (services/ladders.py: ``ladder_options``).
    """
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update(of=("self",))
            .select_related("club")
            .get(pk=tournament.pk)
        )
        _require_organizer(actor, tournament)
        tournament_check_not_managed(tournament=tournament, managed=managed)
        if tournament.status == Tournament.Status.FINISHED:
            raise _tournament_finished(tournament)
        name = (name or "").strip()
        if not name:
            raise Invalid("Give the phase a name, e.g. 'Suizo' or 'Final'.", code="phase_name")
        if format not in Phase.Format.values:
            raise Invalid(
                "Unknown phase format '{format}'; choose one of {formats}.",
                code="phase_format",
                format=str(format)[:40],
                formats=list(Phase.Format.values),
            )
        alone_formats = (Phase.Format.SWISS, Phase.Format.TABLE_LADDER)
        if tournament.entrant_kind in draw_manager.ALONE and format not in alone_formats:
            raise Invalid(
                "A tournament of players alone (individual or Mus francés) plays rounds drawn "
                "one after another; choose the Swiss format or a table ladder (sube y baja).",
                code="phase_format_alone",
                format=str(format)[:40],
            )
        source = _phase_source(tournament, format, source_id, qualifiers_per_group)
        _check_options_read(
            format,
            rounds_planned=rounds_planned,
            group_size=group_size,
            lives=lives,
            grand_final_reset=grand_final_reset,
            separate_clubs_rounds=separate_clubs_rounds,
            ladder=ladder,
        )
        ladder_settings = (
            ladders.ladder_options(
                tournament=tournament, format=format, ladder=ladder, rounds_planned=rounds_planned
            )
            if format in ladders.LADDER_FORMATS
            else None
        )
        lives = 3 if lives is None else lives
        grand_final_reset = True if grand_final_reset is None else grand_final_reset
        separate_clubs_rounds = separate_clubs_rounds or 0
        _check_format_options(format, rounds_planned, group_size, lives, separate_clubs_rounds)
        if third_place and format != Phase.Format.SINGLE_ELIMINATION:
            raise Invalid(
                "Only a single elimination has a third-place match; turn it off.",
                code="phase_third_place",
            )
        last = Phase.objects.filter(tournament=tournament).aggregate(top=Max("order"))["top"]
        phase = Phase(
            tournament=tournament,
            order=(last or 0) + 1,
            name=name,
            format=format,
            rounds_planned=rounds_planned if format == Phase.Format.SWISS else None,
            group_size=group_size if format == Phase.Format.ROUND_ROBIN else None,
            qualifiers_per_group=qualifiers_per_group if source else None,
            lives=lives,
            third_place=third_place,
            grand_final_reset=grand_final_reset,
            separate_clubs_rounds=separate_clubs_rounds,
            source=source,
            stones_per_game=stones_per_game,
            games_per_vaca=games_per_vaca,
            vacas_per_match=vacas_per_match,
        )
        if ladder_settings is not None:
            phase.settings = {"ladder": ladder_settings[0]}
            phase.rounds_planned = ladder_settings[1]
        try:
            phase_rules(phase)
        except RuleSetError as error:
            raise Invalid(
                "This phase's match format cannot be played: {reason}",
                code="phase_rules",
                option=error.code,
                reason=error,
            ) from None
        phase.save()
        _audit(
            tournament,
            "phase_created",
            actor,
            new={"phase": phase.id, "order": phase.order, "name": name, "format": format},
        )
    return phase


def _phase_source(
    tournament: Tournament, format: str, source_id: int | None, qualifiers: int | None
) -> Phase | None:
    if source_id is None:
        if qualifiers is not None:
            raise Invalid(
                "Qualifiers per group only make sense with a source phase; choose the phase "
                "whose standings seed this one, or leave qualifiers empty.",
                code="phase_qualifiers_without_source",
            )
        return None
    if format != Phase.Format.SINGLE_ELIMINATION:
        raise _phase_source_format()
    source = Phase.objects.filter(pk=source_id, tournament=tournament).first()
    if source is None:
        raise Invalid(
            "Phase {source} is not a phase of {tournament}; choose one of its phases.",
            code="phase_source_unknown",
            source=source_id,
            tournament=tournament.name,
        )
    if source.format in ELIMINATION_FORMATS:
        raise _phase_source_format()
    if qualifiers is None or qualifiers < 1:
        raise Invalid(
            "Say how many pairs of each group go on (qualifiers per group, at least 1).",
            code="phase_qualifiers",
        )
    return source


def _phase_source_format() -> Invalid:
    return Invalid(
        "Only a single elimination can be drawn from an earlier phase's standings, and only "
        "from those of a liguilla, Swiss or a tres ceros phase.",
        code="phase_source_format",
    )


#: the options of a phase each format reads (source_id, qualifiers_per_group and third_place,
#: a single elimination's, have their own checks)
FORMAT_OPTIONS = {
    "rounds_planned": (Phase.Format.SWISS, Phase.Format.TABLE_LADDER),
    "group_size": (Phase.Format.ROUND_ROBIN,),
    "lives": (Phase.Format.LIVES,),
    "grand_final_reset": (Phase.Format.DOUBLE_ELIMINATION,),
    "separate_clubs_rounds": (Phase.Format.SWISS, Phase.Format.LIVES),
    "ladder": ladders.LADDER_FORMATS,
}


def _check_options_read(format: str, **options: object) -> None:
    """An option given (not None) to a format that does not read it is refused: stored, or
    dropped, it would be a setting the organizer thinks is in force."""
    for name, value in options.items():
        if value is not None and format not in FORMAT_OPTIONS[name]:
            raise Invalid(
                "A phase of format {format} does not read {option} (only {formats}); leave it out.",
                code="phase_option_unread",
                format=format,
                option=name,
                formats=[str(f) for f in FORMAT_OPTIONS[name]],
            )


def _check_format_options(
    format: str,
    rounds_planned: int | None,
    group_size: int | None,
    lives: int,
    separate_clubs_rounds: int,
) -> None:
    if format == Phase.Format.SWISS and (rounds_planned is None or rounds_planned < 1):
        raise Invalid(
            "A Swiss phase needs the number of rounds to play (at least 1).",
            code="phase_rounds_planned",
        )
    if format == Phase.Format.ROUND_ROBIN and (group_size is None or group_size < 2):
        raise Invalid("A liguilla needs a group size of at least 2 pairs.", code="phase_group_size")
    if format == Phase.Format.LIVES and lives < 1:
        raise Invalid(
            "A tres ceros: pairs must be allowed at least one lost match (usually 3).",
            code="phase_lives",
        )
    if separate_clubs_rounds < 0:
        raise Invalid(
            "The rounds that keep peña-mates apart cannot be negative.",
            code="phase_separate_clubs",
        )


def phase_finish(*, phase: Phase, actor: User, managed: bool = False) -> Phase:
    """Mark the phase finished once its format is complete and every round is closed."""
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _require_organizer(actor, phase.tournament)
        tournament_check_not_managed(tournament=phase.tournament, managed=managed)
        _finish(phase, actor)
        _after_commit_standings(phase.id)
    return phase


def _finish(phase: Phase, actor: User, *, stop_early: bool = False) -> None:
    """Finish the locked ``phase`` once its rounds are closed and its format is complete.
    ``stop_early`` (the tournament finishing): a Swiss, liguilla or a-tres-ceros phase with
    rounds still to draw finishes as it stands; open rounds and a bracket without its champion
    still refuse."""
    if phase.status == Phase.Status.FINISHED:
        raise _phase_finished(phase)
    rounds = list(Round.objects.filter(phase=phase).order_by("number"))
    if not rounds:
        raise Conflict(
            "{phase} has no round yet; draw and play its rounds first.",
            code="phase_not_started",
            phase=phase.name,
        )
    still_open = [r.number for r in rounds if r.status != Round.Status.CLOSED]
    if still_open:
        raise Conflict(
            (
                "Round {rounds} of {phase} is not closed; close it before finishing the phase.",
                "Rounds {rounds} of {phase} are not closed; close them before finishing the phase.",
            ),
            code="phase_rounds_open",
            count=len(still_open),
            rounds=still_open,
            phase=phase.name,
        )
    if phase.format in ELIMINATION_FORMATS:
        bracket = bracket_from_json(phase.bracket)
        if champion(bracket, _bracket_winners(phase)) is None:
            raise Conflict(
                "The bracket of {phase} has no champion yet; play its final first.",
                code="phase_bracket_undecided",
                phase=phase.name,
            )
    elif not stop_early:
        _check_rounds_left(phase, rounds)
    ladders.ladder_finish(phase)
    phase.status = Phase.Status.FINISHED
    phase.save(update_fields=["status"])
    _audit(
        phase.tournament,
        "phase_finished",
        actor,
        new={"phase": phase.id, **({"with_tournament": True} if stop_early else {})},
    )


def _check_rounds_left(phase: Phase, rounds: list[Round]) -> None:
    """Conflict while a Swiss or liguilla phase has planned rounds to draw, or pairs of an
    a-tres-ceros phase still have lives."""
    if phase.format in (Phase.Format.SWISS, Phase.Format.ROUND_ROBIN, *ladders.LADDER_FORMATS):
        planned = phase.rounds_planned or 0
        if len(rounds) < planned:
            raise Conflict(
                "{phase} has played {played} of its {planned} rounds; draw the next round.",
                code="phase_rounds_left",
                phase=phase.name,
                played=len(rounds),
                planned=planned,
            )
    elif phase.format == Phase.Format.LIVES:
        entrants = [draw_manager.entrant(e) for e in draw_manager.playing_entries(phase.tournament)]
        past = draw_manager.history(phase, before=len(rounds) + 1)
        alive = [e for e, left in lives_left(entrants, past, lives=phase.lives).items() if left]
        if len(alive) >= 2:
            raise Conflict(
                "{alive} pairs of {phase} still have lives left; draw the next round.",
                code="phase_lives_left",
                alive=len(alive),
                phase=phase.name,
            )


def phases_finish_open(*, tournament: Tournament, actor: User) -> list[Phase]:
    """Finish, in their order, the phases of ``tournament`` that are not finished yet: for
    ``tournament_status_change`` finishing the tournament, which holds the tournament's lock
    (the phases are locked after it). Every round must be closed and every bracket must have
    its champion; a Swiss, liguilla or a-tres-ceros phase with rounds still to draw finishes
    as it stands (the organizer ends the tournament early). A phase never drawn (pending, no
    round) is left as it is: nothing of it was played.

    Conflict ``tournament_phase_open`` naming the first phase that cannot finish, with its own
    reason (``phase_rounds_open``, ``phase_bracket_undecided``); the caller's transaction then
    rolls back any phase finished before it."""
    finished = []
    for phase_id in (
        Phase.objects.filter(tournament=tournament)
        .exclude(status=Phase.Status.FINISHED)
        .order_by("order", "id")
        .values_list("pk", flat=True)
    ):
        phase = _lock_phase(phase_id)
        if phase.status == Phase.Status.FINISHED:
            continue
        if phase.status == Phase.Status.PENDING and not phase.rounds.exists():
            continue
        try:
            _finish(phase, actor, stop_early=True)
        except Conflict as reason:
            raise Conflict(
                "{tournament} cannot finish while {phase} is still open: {reason}",
                code="tournament_phase_open",
                tournament=tournament.name,
                phase=phase.name,
                phase_id=phase.pk,
                reason=reason,
            ) from None
        _after_commit_standings(phase.id)
        finished.append(phase)
    return finished


def _bracket_winners(phase: Phase) -> dict[str, int]:
    rows = (
        Match.objects.filter(round__phase=phase, status=Match.Status.CONFIRMED)
        .exclude(bracket_key="")
        .exclude(kind=Match.Kind.BYE)
        .exclude(winner=None)
        .values_list("bracket_key", "winner_id")
    )
    return dict(rows)


def phase_advance(*, phase: Phase, actor: User, managed: bool = False) -> Round:
    """Finish ``phase`` (if it is not yet) and draw the first round of the next phase; for a
    knockout whose source is this phase, the bracket comes from its final standings."""
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _require_organizer(actor, phase.tournament)
        tournament_check_not_managed(tournament=phase.tournament, managed=managed)
        if phase.status != Phase.Status.FINISHED:
            _finish(phase, actor)
        following = (
            Phase.objects.filter(tournament=phase.tournament, order__gt=phase.order)
            .order_by("order")
            .values_list("pk", flat=True)
            .first()
        )
        if following is None:
            raise Conflict(
                "{phase} is the last phase of {tournament}; add a phase to go on to.",
                code="phase_no_next",
                phase=phase.name,
                tournament=phase.tournament.name,
            )
        after = _lock_phase(following)
        if after.status != Phase.Status.PENDING:
            raise Conflict(
                "{phase} has already started.", code="phase_next_started", phase=after.name
            )
        rnd = _draw_next(after, actor)
        _after_commit_standings(phase.id)
    return rnd


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
    earlier = list(
        Phase.objects.filter(tournament=tournament, order__lt=phase.order)
        .exclude(status=Phase.Status.FINISHED)
        .values_list("name", flat=True)
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


# --- Publishing and closing -------------------------------------------------------------------


def round_publish(*, round: Round, actor: User, managed: bool = False) -> Round:
    """Publish a draft round: pairs and tables become public and players are e-mailed."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        _require_organizer(actor, rnd.phase.tournament)
        tournament_check_not_managed(tournament=rnd.phase.tournament, managed=managed)
        if rnd.status != Round.Status.DRAFT:
            raise Conflict(
                "Round {round} is already {status}.",
                code="round_not_draft",
                round=rnd.number,
                status=_ROUND_STATUS[rnd.status],
            )
        untabled = list(
            Match.objects.filter(round=rnd, table_number=None).exclude(kind=Match.Kind.BYE)
        )
        if untabled:
            raise Conflict(
                (
                    "{count} match of round {round} has no table; move it to a free table "
                    "before publishing.",
                    "{count} matches of round {round} have no table; move them to a free table "
                    "before publishing.",
                ),
                code="round_tables_missing",
                count=len(untabled),
                round=rnd.number,
                matches=[m.id for m in untabled],
            )
        rnd.status = Round.Status.PUBLISHED
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["status", "published_at"])
        _audit(rnd.phase.tournament, "round_published", actor, new={"round": rnd.id})
        webhooks_round_published(round=rnd)
        _after_commit_email(rnd.id)
        # Byes are confirmed when drawn: they count once the round is public.
        _after_commit_standings(rnd.phase_id)
    return rnd


def round_close(*, round: Round, actor: User, managed: bool = False) -> Round:
    """Close a published round once every match has a confirmed result."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        _require_organizer(actor, rnd.phase.tournament)
        tournament_check_not_managed(tournament=rnd.phase.tournament, managed=managed)
        if rnd.status == Round.Status.CLOSED:
            raise _round_closed(rnd)
        if rnd.status == Round.Status.DRAFT:
            raise Conflict(
                "Round {round} is a draft; publish and play it before closing it.",
                code="round_not_published",
                round=rnd.number,
            )
        unfinished = sorted(
            [
                *Match.objects.filter(round=rnd).exclude(status=Match.Status.CONFIRMED),
                # Mus francés tables: confirmed like matches (services/frances.py)
                *FrancesTable.objects.filter(round=rnd).exclude(status=Match.Status.CONFIRMED),
            ],
            key=lambda m: (m.table_number is None, m.table_number or 0, m.id),
        )
        if unfinished:
            # A published round has every match at a table (round_publish sees to it).
            raise Conflict(
                (
                    "Round {round} cannot close: table {tables} has no confirmed result yet. "
                    "Confirm it (or record a forfeit) first.",
                    "Round {round} cannot close: tables {tables} have no confirmed result yet. "
                    "Confirm them (or record a forfeit) first.",
                ),
                code="round_unfinished",
                count=len(unfinished),
                round=rnd.number,
                tables=[m.table_number for m in unfinished],
                matches=[m.id for m in unfinished if isinstance(m, Match)],
            )
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        _audit(rnd.phase.tournament, "round_closed", actor, new={"round": rnd.id})
        _after_commit_standings(rnd.phase_id)
    return rnd


# --- Changes before a round starts ------------------------------------------------------------


def _changeable_matches(rnd: Round) -> list[Match]:
    """The round's matches, locked; Conflict once the round is closed or a match started."""
    if rnd.status == Round.Status.CLOSED:
        raise _round_closed(rnd)
    matches = list(
        Match.objects.select_for_update(of=("self",))
        .filter(round=rnd)
        .select_related("entry_a__pair", "entry_b__pair")
        .order_by("id")
    )
    started = [
        m
        for m in matches
        if m.kind != Match.Kind.BYE
        and (m.status != Match.Status.PENDING or m.started_at is not None)
    ]
    if started:
        raise Conflict(
            (
                "Round {round} has started (table {tables}); pairs and tables can no longer "
                "be changed.",
                "Round {round} has started (tables {tables}); pairs and tables can no longer "
                "be changed.",
            ),
            code="round_started",
            count=len(started),
            round=rnd.number,
            tables=[m.table_number for m in started],
        )
    return matches


def _sides(match: Match) -> dict:
    return {"entry_a": match.entry_a_id, "entry_b": match.entry_b_id, "table": match.table_number}


def round_entries_swap(*, round: Round, actor: User, entry_id: int, other_entry_id: int) -> Round:
    """Swap two pairs between two matches of a round that has not started.

    A pair swapped into a bye gets the bye. Liguilla rounds follow the group schedule and
    cannot be swapped; in a bracket only first-round pairs can be (the bracket is updated).
    Table pins are not re-applied: swap tables too if a pinned pair moved.
    """
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        phase = rnd.phase
        _require_organizer(actor, phase.tournament)
        matches = _changeable_matches(rnd)
        if phase.format == Phase.Format.ROUND_ROBIN:
            raise Conflict(
                "Liguilla rounds follow the group schedule; swap tables instead of pairs.",
                code="swap_round_robin",
            )
        if phase.format in ELIMINATION_FORMATS and rnd.number != 1:
            raise Conflict(
                "Only first-round pairs of a bracket can be swapped; later matches are filled "
                "by the results.",
                code="swap_bracket_later_round",
            )
        first = _match_of(matches, entry_id, rnd)
        second = _match_of(matches, other_entry_id, rnd)
        if first.pk == second.pk:
            raise Invalid(
                "Both pairs play the same match; choose pairs of two different matches.",
                code="swap_same_match",
            )
        entries = {
            e.id: e for m in (first, second) for e in (m.entry_a, m.entry_b) if e is not None
        }
        params = {
            "entry": str(entries[entry_id].pair),
            "other": str(entries[other_entry_id].pair),
            "entry_id": entry_id,
            "other_id": other_entry_id,
        }
        for match, other, leaving, coming in (
            (first, second, entry_id, other_entry_id),
            (second, first, other_entry_id, entry_id),
        ):
            old = _sides(match)
            if match.entry_a_id == leaving:
                match.entry_a_id = coming
            else:
                match.entry_b_id = coming
            if match.kind == Match.Kind.BYE:
                match.winner_id = coming
            match.reasons = [{"code": "organizer_swap", "params": params}]
            match.save(update_fields=["entry_a", "entry_b", "winner", "reasons", "updated_at"])
            _audit(
                phase.tournament,
                "match_entries_swapped",
                actor,
                match=match,
                old=old,
                # the other end of the swap, so the trail reads "mesa 2 ↔ mesa 3"
                new={
                    **_sides(match),
                    "swapped_with": _swap_end(other, entries[leaving], entries[coming]),
                },
            )
        if phase.format in ELIMINATION_FORMATS:
            phase.bracket = draw_manager.bracket_swap_entrants(
                phase.bracket, entry_id, other_entry_id
            )
            phase.save(update_fields=["bracket"])
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
            _after_commit_standings(phase.id)
    return rnd


def _swap_end(other: Match, left: Entry | None = None, came: Entry | None = None) -> dict:
    """The other match of a swap as the audit trail keeps it: its table (None for a bye) and
    id; for a swap of pairs, the pair that left for it and the pair that came from it."""
    end: dict = {"table": other.table_number, "match": other.id}
    if left is not None and came is not None:
        end.update(left=str(left.pair), came=str(came.pair))
    return end


def _match_of(matches: list[Match], entry_id: int, rnd: Round) -> Match:
    for m in matches:
        if entry_id in (m.entry_a_id, m.entry_b_id):
            return m
    raise Invalid(
        "Pair {entry} does not play in round {round}.",
        code="swap_entry_not_in_round",
        entry=entry_id,
        round=rnd.number,
    )


def round_tables_swap(*, round: Round, actor: User, match_id: int, other_match_id: int) -> Round:
    """Swap the tables of two matches of a round that has not started."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        _require_organizer(actor, rnd.phase.tournament)
        matches = {m.id: m for m in _changeable_matches(rnd)}
        pair = []
        for ident in (match_id, other_match_id):
            match = matches.get(ident)
            if match is None or match.kind == Match.Kind.BYE:
                raise _table_match_unknown(ident, rnd)
            pair.append(match)
        first, second = pair
        if first.pk == second.pk:
            raise Invalid("Choose two different matches.", code="table_same_match")
        old_first, old_second = _sides(first), _sides(second)
        tables = first.table_number, second.table_number
        # One table per round is a constraint checked at once: free the first table meanwhile.
        first.table_number = None
        first.save(update_fields=["table_number", "updated_at"])
        second.table_number = tables[0]
        second.save(update_fields=["table_number", "updated_at"])
        first.table_number = tables[1]
        first.save(update_fields=["table_number", "updated_at"])
        tournament = rnd.phase.tournament
        for match, old, other in ((first, old_first, second), (second, old_second, first)):
            _audit(
                tournament,
                "match_tables_swapped",
                actor,
                match=match,
                old=old,
                new={**_sides(match), "swapped_with": _swap_end(other)},
            )
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
    return rnd


def match_table_move(*, round: Round, actor: User, match_id: int, table_number: int) -> Match:
    """Move a match of a round that has not started to a free table."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        tournament = rnd.phase.tournament
        _require_organizer(actor, tournament)
        matches = _changeable_matches(rnd)
        match = next((m for m in matches if m.id == match_id), None)
        if match is None or match.kind == Match.Kind.BYE:
            raise _table_match_unknown(match_id, rnd)
        last = tournament.tables_available or MAX_TABLES
        if not 1 <= table_number <= last:
            raise Invalid(
                "Table {table} does not exist; tables are numbered from 1 to {last}.",
                code="table_out_of_range",
                table=table_number,
                last=last,
            )
        if match.table_number == table_number:
            return match
        holder = next((m for m in matches if m.table_number == table_number), None)
        if holder is not None:
            raise Conflict(
                "Table {table} is taken by another match of round {round}; swap the two tables "
                "instead.",
                code="table_taken",
                table=table_number,
                round=rnd.number,
                match=holder.id,
            )
        old = _sides(match)
        match.table_number = table_number
        match.save(update_fields=["table_number", "updated_at"])
        _audit(tournament, "match_table_moved", actor, match=match, old=old, new=_sides(match))
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
    return match


# --- Brackets ---------------------------------------------------------------------------------


def bracket_advance(*, phase: Phase) -> int:
    """Create the bracket matches whose two pairs are now known; returns how many.

    Called by the result_confirmed task after each confirmed (or corrected) result. A whole
    stage is created at once, as a draft Round numbered like the stage, once every match of
    the stage before is decided. Idempotent: running it again creates nothing. A corrected
    result re-points later matches that have not started; if a later match already has a
    result that the correction contradicts, nothing is created and the organizers get a
    Notification.
    """
    with transaction.atomic():
        # Read again under the lock: the caller's row may be older than the last result.
        phase = Phase.objects.select_for_update(of=("self",)).filter(pk=phase.pk).first()
        if phase is None or phase.format not in ELIMINATION_FORMATS or not phase.bracket:
            return 0
        try:
            advanced = draw_manager.advance_bracket(phase)
        except DrawError as error:
            log.error("bracket of phase %s cannot advance: %s", phase.pk, error)
            Notification.objects.get_or_create(
                tournament_id=phase.tournament_id,
                key=f"bracket:{phase.id}:{error.code}:{error.params.get('match', '')}"[:120],
                defaults={
                    "kind": "bracket_conflict",
                    "text": f"{phase.name}: {error.message}"[:300],
                    "params": {"phase": phase.name, "error": _error_params(error)},
                },
            )
            return 0
        tournament = phase.tournament
        for match, old, new in advanced.corrected:
            _audit(tournament, "bracket_match_repointed", None, match=match, old=old, new=new)
        for match in advanced.created:
            _audit(
                tournament,
                "bracket_match_created",
                None,
                match=match,
                new={"bracket_key": match.bracket_key, **_sides(match)},
            )
    return len(advanced.created)


def _error_params(error: DrawError) -> dict:
    """The draw's error as message id, code and params (plain JSON), for a notification that
    is rendered in its reader's language (selectors.notifications)."""
    return {
        "text": error.text,
        "code": error.code,
        "params": {k: jsonable(v) for k, v in error.params.items()},
        # the params that are game words the reader's language translates (scoring's Term)
        "terms": sorted(k for k, v in error.params.items() if isinstance(v, Term)),
    }


# --- E-mail -----------------------------------------------------------------------------------


def round_pairings_email(*, round: Round) -> int:
    """E-mail each player with an address their table, opponents and round; returns how many
    players were e-mailed by this call.

    The message is written in the peña's language (``Club.language``), from
    templates/emails/pairing*.txt; a trio's third player gets it too. Only published rounds
    are e-mailed. Idempotent enough: each message is keyed by player,
    match, both pairs and table, and the keys sent are kept in an AuditEntry
    (``round_pairings_emailed``), so running it again sends nothing, and after a swap or a
    table change only the players whose pairing changed get a new message. A crash between
    sending and recording can repeat a message, never lose one.
    """
    rnd = Round.objects.select_related("phase__tournament__club").filter(pk=round.pk).first()
    if rnd is None or rnd.status != Round.Status.PUBLISHED:
        return 0
    tournament = rnd.phase.tournament
    sent: set[str] = set()
    for new in AuditEntry.objects.filter(tournament=tournament, action=EMAIL_ACTION).values_list(
        "new", flat=True
    ):
        if isinstance(new, dict) and new.get("round") == rnd.id:
            sent.update(new.get("sent", []))
    outbox = []
    for match in round_matches(rnd=rnd):
        for own, other in ((match.entry_a, match.entry_b), (match.entry_b, match.entry_a)):
            if own is None:
                continue
            context = None
            for player in (own.pair.player_one, own.pair.player_two, own.player_three):
                if player is None or not player.email:
                    continue
                key = f"{player.id}:{match.id}:{own.id}:{other.id if other else 0}:"
                key += str(match.table_number or 0)
                if key not in sent:
                    context = context or _pairing_context(rnd, match, own, other)
                    outbox.append((key, player, _pairing_message(context, player, own)))
    done: list[str] = []
    players: set[int] = set()
    try:
        connection = get_connection()
        for key, player, (subject, body) in outbox:
            send_mail(
                subject, body, settings.DEFAULT_FROM_EMAIL, [player.email], connection=connection
            )
            done.append(key)
            players.add(player.id)
    finally:
        if done:
            AuditEntry.objects.create(
                tournament=tournament,
                action=EMAIL_ACTION,
                via="email",
                new={"round": rnd.id, "sent": done},
            )
    return len(players)


def _pairing_context(rnd: Round, match: Match, own: Entry, other: Entry | None) -> dict:
    """What the pairing e-mail of ``own``'s players shows (templates/emails/pairing*.txt)."""
    tournament, phase = rnd.phase.tournament, rnd.phase
    context = {
        "tournament": tournament,
        "phase": phase,
        "round": rnd,
        "player": None,  # set per player by round_pairings_email
        "own": str(own.pair),
        "trio": own.player_three_id is not None,
        "bye": other is None,
        "table": match.table_number,
        "table_url": site_link("web:table", match.token) if other is not None else "",
        "round_url": (
            site_link("web:public-round", tournament.club.slug, tournament.slug, rnd.id)
            if tournament.is_public
            else ""
        ),
    }
    if other is not None:
        context["other"] = str(other.pair)
        named = bool(other.pair.name)
        opponents = [other.pair.player_one, other.pair.player_two, other.player_three]
        context["opponent_names"] = (
            ", ".join(str(p) for p in opponents if p is not None) if named else ""
        )
    return context


def _pairing_message(context: dict, player: Player, own: Entry) -> tuple[str, str]:
    """One player's pairing e-mail, in the peña's language (tournaments.services.mail)."""
    partners = [p for p in (own.pair.player_one, own.pair.player_two, own.player_three) if p]
    context = {
        **context,
        "player": player,
        # an individual tournament's partner is drawn each round: say who it is
        "partner": ", ".join(str(p) for p in partners if p.pk != player.pk) if own.drawn else "",
    }
    text = email_render(
        name="pairing", context=context, language=context["tournament"].club.language
    )
    return text.subject, text.body
