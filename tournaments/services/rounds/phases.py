"""A phase's lifecycle: adding a phase to a tournament (its format, options and match length
checked), finishing it once its rounds are closed and its format is complete, finishing the
open phases when the tournament finishes, and going on to the next phase (`phase_advance`:
finish this one, draw the first round of the next).

Must not: draw a round (drawing.py does, through tournaments.draw_manager) or change a
round's tables (tables.py).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from config.errors import Conflict, Invalid
from scoring.errors import RuleSetError
from tournaments import draw_manager
from tournaments.draw import DrawError, champion, lives_left
from tournaments.draw.plan import SEEDINGS, rule_from_dict, rule_to_dict
from tournaments.models import (
    Entry,
    Match,
    Phase,
    Round,
    Tournament,
)
from tournaments.selectors.plans import partial_rounds, plan_problem
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
    bracket_from_json,
    phase_rules,
)
from tournaments.services import ladders
from tournaments.services.base import tournament_check_not_managed
from tournaments.services.lengths import round_lengths_apply
from tournaments.services.rounds.common import (
    User,
    _after_commit_standings,
    _audit,
    _lock_phase,
    _phase_finished,
    _require_organizer,
    _tournament_finished,
)
from tournaments.services.rounds.drawing import _draw_next

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
    entrants: list | None = None,
    seeding: str | None = None,
    group_sizes: list[int] | None = None,
    round_lengths: dict | None = None,
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
    ``separate_clubs_rounds`` 0. ``round_lengths``: the length of some of its rounds
    (services.lengths: a final longer than the semi-finals). A ladder (group_ladder,
    table_ladder) reads ``ladder``, its options (services/ladders.py: ``ladder_options``).

    The plan (tournaments.draw.plan): ``entrants`` are the rules by which any phase takes its
    entrants from earlier phases (top N, top N of each group, places X–Y, a group, those not
    qualified, the losers of a round, a fixed list); ``seeding`` fills a liguilla's (or an
    a-tres-ceros') groups from their order (snake, level, pots, lot), ``group_sizes`` gives
    groups of unequal size, and ``rounds_planned`` on a liguilla is a partial round robin
    ("three matches each": its groups play that many rounds, no rematch). A rule that cannot
    work with the pairs registered is refused naming it; the whole plan is checked again when
    the tournament starts.
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
            group_sizes=group_sizes or None,
            seeding=seeding or None,
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
        _check_format_options(
            format, rounds_planned, group_size, lives, separate_clubs_rounds, group_sizes
        )
        if third_place and format != Phase.Format.SINGLE_ELIMINATION:
            raise Invalid(
                "Only a single elimination has a third-place match; turn it off.",
                code="phase_third_place",
            )
        last = Phase.objects.filter(tournament=tournament).aggregate(top=Max("order"))["top"]
        rules = _phase_rules_read(name, entrants, (last or 0) + 1, source, tournament)
        _check_groups(format, group_size, group_sizes, seeding)
        partial = rounds_planned if format == Phase.Format.ROUND_ROBIN else None
        phase = Phase(
            tournament=tournament,
            order=(last or 0) + 1,
            name=name,
            format=format,
            rounds_planned=rounds_planned if format in ROUNDS_FORMATS else None,
            group_size=group_size if format in GROUP_FORMATS else None,
            group_sizes=list(group_sizes or []),
            seeding=seeding or "",
            entrants=rules,
            settings={"partial_rounds": partial} if partial else {},
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
            phase.settings = {**phase.settings, "ladder": ladder_settings[0]}
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
        round_lengths_apply(phase, round_lengths)
        phase.save()
        _check_plan(tournament, phase)
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
ROUNDS_FORMATS = (Phase.Format.SWISS, Phase.Format.ROUND_ROBIN)
GROUP_FORMATS = (Phase.Format.ROUND_ROBIN, Phase.Format.LIVES)

FORMAT_OPTIONS = {
    "rounds_planned": (*ROUNDS_FORMATS, Phase.Format.TABLE_LADDER),
    "group_size": GROUP_FORMATS,
    "group_sizes": GROUP_FORMATS,
    "seeding": GROUP_FORMATS,
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
    group_sizes: list[int] | None = None,
) -> None:
    if format == Phase.Format.SWISS and (rounds_planned is None or rounds_planned < 1):
        raise Invalid(
            "A Swiss phase needs the number of rounds to play (at least 1).",
            code="phase_rounds_planned",
        )
    if format == Phase.Format.ROUND_ROBIN and group_sizes:
        pass  # the groups' sizes, checked apart
    elif format == Phase.Format.ROUND_ROBIN and (group_size is None or group_size < 2):
        raise Invalid("A liguilla needs a group size of at least 2 pairs.", code="phase_group_size")
    if format == Phase.Format.ROUND_ROBIN and rounds_planned is not None and rounds_planned < 1:
        raise Invalid(
            "A partial liguilla plays at least 1 round; leave the rounds empty for the full "
            "round robin.",
            code="phase_partial_rounds",
        )
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


def _phase_rules_read(
    name: str,
    entrants: list | None,
    order: int,
    source: Phase | None,
    order_tournament: Tournament,
) -> list[dict]:
    """The phase's entrants rules as plain JSON, each read (DrawError naming it) and taking
    from an earlier phase; none with a source (the knockout from its groups says it)."""
    if not entrants:
        return []
    if source is not None:
        raise Invalid(
            "A phase takes its entrants either from its source's groups or by entrants rules, "
            "not both; leave the source out.",
            code="phase_source_and_rules",
        )
    if not isinstance(entrants, list):
        raise Invalid("The entrants are a list of rules.", code="phase_entrants_list")
    rules = []
    for n, data in enumerate(entrants, start=1):
        try:
            rule = rule_from_dict(data)
        except DrawError as error:
            raise error.add_context(
                "{phase}, entrants rule {rule}: {error}", phase=name, rule=n
            ) from None
        if rule.phase is not None and rule.phase >= order:
            raise Invalid(
                "{phase}, entrants rule {rule}: it takes from phase {source}, which is not an "
                "earlier phase; a phase takes its entrants from phases before it.",
                code="phase_rule_source",
                phase=name,
                rule=n,
                source=rule.phase,
            )
        if rule.entries:
            _check_fixed(order_tournament, name, n, rule.entries)
        rules.append(rule_to_dict(rule))
    return rules


def _check_fixed(tournament: Tournament, name: str, n: int, entries: tuple[int, ...]) -> None:
    """A fixed list names entries of this tournament, each once."""
    own = set(
        Entry.objects.filter(tournament=tournament, pk__in=entries).values_list("id", flat=True)
    )
    strangers = [e for e in entries if e not in own]
    if strangers or len(set(entries)) != len(entries):
        raise Invalid(
            "{phase}, entrants rule {rule}: entries {entries} are not entries of this tournament "
            "(or are listed twice).",
            code="phase_rule_entries",
            phase=name,
            rule=n,
            entries=strangers or list(entries),
        )


def _check_groups(
    format: str, group_size: int | None, group_sizes: list[int] | None, seeding: str | None
) -> None:
    if seeding and seeding not in SEEDINGS:
        raise Invalid(
            "Unknown seeding '{seeding}'; choose one of {seedings}.",
            code="plan_seeding",
            seeding=str(seeding)[:20],
            seedings=list(SEEDINGS),
        )
    if group_sizes and (
        not isinstance(group_sizes, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 2 for s in group_sizes)
    ):
        raise Invalid(
            "The groups' sizes are whole numbers of at least 2 (e.g. 4 and 6).",
            code="phase_group_sizes",
        )
    if format == Phase.Format.LIVES and seeding and not (group_size or group_sizes):
        raise Invalid(
            "An a tres ceros is seeded into groups only with their size; give it a group size.",
            code="phase_seeding_without_groups",
        )


def _check_plan(tournament: Tournament, phase: Phase) -> None:
    """The plan with this phase, for the pairs registered (once there are two): a rule that
    cannot work is refused now, naming it."""
    if not phase.entrants and not phase.group_sizes and not partial_rounds(phase):
        return
    registered = len(draw_manager.playing_entries(tournament))
    if registered < 2:
        return
    problem = plan_problem(tournament, registered)
    if problem is not None:
        raise problem


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
        entrants = [draw_manager.entrant(e) for e in draw_manager.phase_entries(phase)]
        past = draw_manager.history(phase, before=len(rounds) + 1)
        # an a tres ceros in each group: a group with two pairs still alive plays on
        groups = [set(g["entry_ids"]) for g in (phase.settings or {}).get("groups", [])]
        alive = []
        for members in groups or [{e.id for e in entrants}]:
            own = [e for e in entrants if e.id in members]
            history = [r for r in past if r.a_id in members]
            left = lives_left(own, history, lives=phase.lives)
            alive = [e for e, lives in left.items() if lives]
            if len(alive) >= 2:
                break
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
