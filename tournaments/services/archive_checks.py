"""An archive's figures derived again on import: what a record holds that follows from others
must follow from them, or the archive is refused.

Responsible for: ``tournament_check``, run by the import (tournaments.services.archive) on each
tournament it has just created, inside its transaction, and ``archive_inconsistent``, the one
error of a refusal (400 ``archive_inconsistent``; its ``problem`` names what contradicts what,
and where in the archive). The checksum is public, so it proves only that nothing was cut or
changed by accident: anybody can edit an archive and seal it again. What is checked:

- **a match's figures** (its juegos, vacas, piedras and winner, which the standings add up)
  are those of its result (``selectors.results.result_figures``): a played match's result is
  what its last submission gives, and that submission's result is what the engine gives again
  from its own entry (its games, or its hands from the first) with the games a late pair lost
  (``services.results.validation.result_state``); a forfeit's is the format's walkover
  (``forfeit_summary``); a bye is won by its pair with the format's games; a double loss has
  no winner and nothing scored;
- **a round**: no pair plays twice in it; once closed, every match (and Mus francés table) of
  it is confirmed; it holds exactly the pairs it was drawn with (the audit row ``round_drawn``
  names them, for the draws made since this check, after the tournament's last import); a
  liguilla's rounds are the schedule of its stored groups (a pair withdrawn, or registered
  after the round was drawn, may be missing);
- **a bracket**: its results resolve (nobody wins a match they did not play), and a match
  that started holds the pairs the bracket and the results before it give;
- **a finished phase**: every round closed, and a bracket with its champion.

The standings are not in an archive: the import computes them again from these figures.

Must not: write anything, or read the database (the import hands every row in memory; only a
refusal reads the names of the pairs it names), or hold a rule of Mus (the engine's
validation does) or of the draw (tournaments.draw does).

Terms: partida (a Match), juego, vaca, piedras, no presentada (forfeit), descanso (bye), doble
derrota (double loss), ronda, liguilla (groups), cuadro (bracket), fase.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from config.errors import Invalid
from scoring.errors import RuleSetError
from scoring.messages import MessageError, Term
from tournaments.draw import DrawError, champion, resolve, round_robin_schedule
from tournaments.draw import Group as DrawGroup
from tournaments.models import (
    AuditEntry,
    Entry,
    FrancesTable,
    LatePenalty,
    Match,
    Phase,
    ResultSubmission,
    Round,
    Tournament,
)
from tournaments.selectors.results import (
    ResultFigures,
    match_figures,
    match_rules,
    result_figures,
)
from tournaments.selectors.rounds import ELIMINATION_FORMATS, bracket_from_json
from tournaments.services.results.penalties import forfeit_summary
from tournaments.services.results.validation import result_state

#: an entry of a submission: its games, or its hands from the first
_ENTERED = ("games", "hands")


def archive_inconsistent(problem: Any, *, where: str = "") -> Invalid:
    """The archive is refused: ``problem`` (an error of its own, or a Term) says what
    contradicts what; ``where`` is the record, as a path in the archive."""
    return Invalid(
        "Nothing was imported, because the archive's records contradict each other: {problem}",
        code="archive_inconsistent",
        problem=problem,
        where=where,
    )


@dataclass
class ImportedRound:
    round: Round
    where: str
    matches: list[tuple[Match, str]] = field(default_factory=list)
    tables: list[FrancesTable] = field(default_factory=list)


@dataclass
class ImportedPhase:
    phase: Phase
    where: str
    rounds: list[ImportedRound] = field(default_factory=list)


@dataclass
class ImportedTournament:
    """What the import created for one tournament, as it holds it in memory (every row has its
    id), with each record's place in the archive."""

    tournament: Tournament
    #: the archive's entry ids → the entries created
    entries: dict[int, Entry]
    phases: list[ImportedPhase]
    #: the archive's phase ids → the phases created
    phase_ids: dict[int, Phase]
    submissions: dict[int, list[ResultSubmission]]  # by match id, in the archive's order
    penalties: dict[int, list[LatePenalty]]  # by match id
    #: the matches with hands recorded at the table (started even without a submission)
    with_hands: set[int]
    #: its audit rows, in the archive's order
    audit: list[AuditEntry]


def tournament_check(imported: ImportedTournament) -> None:
    """Refuse (``archive_inconsistent``) the first figure of the tournament that does not
    follow from the records it is derived from; see the module docstring."""
    for phase in imported.phases:
        for rnd in phase.rounds:
            for match, where in rnd.matches:
                try:
                    _match_check(match, where, imported)
                except RuleSetError as error:  # rules the engine refuses: nothing scores
                    raise archive_inconsistent(error, where=where) from None
            _round_check(phase, rnd, imported)
        _liguilla_check(phase, imported)
        _bracket_check(phase, imported)
        _finished_check(phase)
    _drawn_check(imported)


# --- A match ----------------------------------------------------------------------------------


def _shown(figures: ResultFigures) -> dict[str, Any]:
    """A result's figures as the messages' params."""
    return {
        "games": "{}–{}".format(*figures.games),
        "vacas": "{}–{}".format(*figures.vacas),
        "stones": "{}–{}".format(*figures.stones),
        "winner": figures.winner or Term("nobody"),
    }


def _figures_differ(where: str, shown: Term, said: ResultFigures, basis: Term, given) -> Invalid:
    derived = _shown(given)
    return archive_inconsistent(
        Invalid(
            "at {where}, {shown} says juegos {games}, vacas {vacas}, piedras {stones}, won by "
            "{winner}, but {basis} gives juegos {derived_games}, vacas {derived_vacas}, "
            "piedras {derived_stones}, won by {derived_winner}",
            code="archive_match_figures",
            where=where,
            shown=shown,
            basis=basis,
            **_shown(said),
            **{f"derived_{name}": value for name, value in derived.items()},
        ),
        where=where,
    )


def _figures(summary: Any) -> ResultFigures | None:
    try:
        return result_figures(summary)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _match_check(match: Match, where: str, imported: ImportedTournament) -> None:
    if match.status != Match.Status.CONFIRMED:
        return  # nothing of it counts yet
    columns = match_figures(match)
    if match.kind == Match.Kind.BYE:
        rules = match_rules(match=match)
        games = rules.games_per_vaca * rules.vacas_per_match
        bye = ResultFigures((games, 0), (rules.vacas_per_match, 0), (0, 0), "A")
        if match.entry_b_id is not None or columns != bye:
            raise _figures_differ(where, Term("the match"), columns, Term("a bye"), bye)
        return
    if match.kind == Match.Kind.DOUBLE_LOSS:
        nothing = ResultFigures((0, 0), (0, 0), (0, 0), None)
        if columns != nothing:
            raise _figures_differ(where, Term("the match"), columns, Term("a double loss"), nothing)
        return
    result = _figures(match.result)
    if result is None or result.winner is None:
        raise archive_inconsistent(
            Invalid(
                "at {where}, the match is confirmed without a finished result",
                code="archive_match_no_result",
                where=where,
            ),
            where=where,
        )
    if columns != result:
        raise _figures_differ(where, Term("the match"), columns, Term("its result"), result)
    if match.kind == Match.Kind.FORFEIT:
        present = 0 if result.winner == "A" else 1
        walkover = result_figures(forfeit_summary(match_rules(match=match), present))
        if result != walkover:
            raise _figures_differ(where, Term("its result"), result, Term("a walkover"), walkover)
        return
    _played_check(match, where, result, imported)


def _played_check(
    match: Match, where: str, result: ResultFigures, imported: ImportedTournament
) -> None:
    """A played match's result is its last submission's, and that one's is what the engine
    gives again from its entry (a confirmation's, from the version it confirmed)."""
    submissions = imported.submissions.get(match.pk, [])
    source = None
    if submissions and _figures(submissions[-1].summary) == result:
        entered = [s for s in submissions if _entry_of(s) is not None]
        source = next((s for s in reversed(entered) if _figures(s.summary) == result), None)
    if source is None:
        raise archive_inconsistent(
            Invalid(
                "at {where}, the match is confirmed with juegos {games}, won by {winner}, but "
                "none of its submissions gives that result",
                code="archive_result_unsubmitted",
                where=where,
                games="{}–{}".format(*result.games),
                winner=result.winner,
            ),
            where=where,
        )
    number = submissions.index(source) + 1
    try:
        _, summary = result_state(
            match, _entry_of(source), penalties=imported.penalties.get(match.pk, [])
        )
    except MessageError as error:
        raise archive_inconsistent(
            Invalid(
                "at {where}, submission {submission} cannot be scored: {error}",
                code="archive_submission_unscored",
                where=where,
                submission=number,
                error=error,
            ),
            where=where,
        ) from None
    derived = result_figures(summary)
    if derived != result:
        raise archive_inconsistent(
            Invalid(
                "at {where}, submission {submission} says juegos {games}, vacas {vacas}, "
                "piedras {stones}, but {basis} give juegos {derived_games}, vacas "
                "{derived_vacas}, piedras {derived_stones}",
                code="archive_submission_figures",
                where=where,
                submission=number,
                basis=Term("its hands") if "hands" in source.payload else Term("its games"),
                **{k: v for k, v in _shown(result).items() if k != "winner"},
                **{f"derived_{k}": v for k, v in _shown(derived).items() if k != "winner"},
            ),
            where=where,
        )


def _entry_of(submission: ResultSubmission) -> dict | None:
    """A submission's entry as the results services read it (``recorded`` hands are stored
    expanded), or None for a confirmation of another version."""
    payload = submission.payload
    if not isinstance(payload, dict):
        return None
    entry = {k: payload[k] for k in _ENTERED if k in payload}
    return entry or None


# --- A round ----------------------------------------------------------------------------------


def _names(entries: Iterable[Entry | None]) -> list[str]:
    return [str(e.pair) if e is not None else "?" for e in entries]


def _round_check(phase: ImportedPhase, rnd: ImportedRound, imported: ImportedTournament) -> None:
    number, name = rnd.round.number, phase.phase.name
    seen: dict[int, str] = {}
    for match, where in rnd.matches:
        for pk in (match.entry_a_id, match.entry_b_id):
            if pk is None:
                continue
            if pk in seen:
                raise archive_inconsistent(
                    Invalid(
                        "{pair} plays twice in round {round} of {phase} ({where})",
                        code="archive_entry_twice",
                        pair=_names([_entry(imported, pk)])[0],
                        round=number,
                        phase=name,
                        where=where,
                    ),
                    where=where,
                )
            seen[pk] = where
    if rnd.round.status != Round.Status.CLOSED:
        return
    for match, where in rnd.matches:
        if match.status != Match.Status.CONFIRMED:
            raise _open_in_closed_round(number, name, where)
    for n, table in enumerate(rnd.tables):
        if table.status != Match.Status.CONFIRMED:
            raise _open_in_closed_round(number, name, f"{rnd.where}.frances_tables[{n}]")


def _open_in_closed_round(number: int, phase: str, where: str) -> Invalid:
    return archive_inconsistent(
        Invalid(
            "round {round} of {phase} is closed, but its match at {where} has no confirmed result",
            code="archive_round_unconfirmed",
            round=number,
            phase=phase,
            where=where,
        ),
        where=where,
    )


def _entry(imported: ImportedTournament, pk: int) -> Entry | None:
    return next((e for e in imported.entries.values() if e.pk == pk), None)


def _drawn_check(imported: ImportedTournament) -> None:
    """Each round drawn holds exactly the pairs the draw gave it (``round_drawn`` names them:
    a swap exchanges two of them, nothing else adds or takes one). An audit row keeps the ids
    of the instance that wrote it, so only the draws after the tournament's last import (its
    ``tournament_imported`` row) name the archive's phases and pairs."""
    native = imported.audit
    for n, row in enumerate(imported.audit):
        if row.action == "tournament_imported":
            native = imported.audit[n + 1 :]
    drawn: dict[tuple[Any, Any], list] = {}
    for row in native:
        new = row.new if isinstance(row.new, dict) else {}
        if row.action == "round_drawn" and isinstance(new.get("entries"), list):
            drawn[(new.get("phase"), new.get("number"))] = new["entries"]
    if not drawn:
        return
    for ref, phase in imported.phase_ids.items():
        held = next((p for p in imported.phases if p.phase is phase), None)
        for rnd in held.rounds if held is not None else []:
            entries = drawn.get((ref, rnd.round.number))
            if entries is None:
                continue
            wanted = {
                imported.entries[e].pk if _is_ref(e) and e in imported.entries else None
                for e in entries
            }
            present = {
                pk for m, _ in rnd.matches for pk in (m.entry_a_id, m.entry_b_id) if pk is not None
            }
            missing, extra = wanted - present, present - wanted
            if missing:
                raise archive_inconsistent(
                    Invalid(
                        "round {round} of {phase} was drawn with {pairs}, but no match of it "
                        "has them ({where})",
                        code="archive_round_missing",
                        round=rnd.round.number,
                        phase=held.phase.name,
                        pairs=_names(_entry(imported, pk) if pk else None for pk in missing),
                        where=rnd.where,
                    ),
                    where=rnd.where,
                )
            if extra:
                raise archive_inconsistent(
                    Invalid(
                        "round {round} of {phase} has {pairs}, who were not drawn in it ({where})",
                        code="archive_round_extra",
                        round=rnd.round.number,
                        phase=held.phase.name,
                        pairs=_names(_entry(imported, pk) for pk in extra),
                        where=rnd.where,
                    ),
                    where=rnd.where,
                )


def _is_ref(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _liguilla_check(phase: ImportedPhase, imported: ImportedTournament) -> None:
    """A liguilla's rounds are its groups' schedule (tournaments.draw.round_robin_schedule over
    the groups it stored), less the matches of a pair withdrawn (now or once) or registered
    after the round was drawn (the draw leaves out a pair withdrawn at the time)."""
    settings = phase.phase.settings if isinstance(phase.phase.settings, dict) else {}
    stored = settings.get("groups")
    if phase.phase.format != Phase.Format.ROUND_ROBIN or not isinstance(stored, list):
        return
    schedules = [round_robin_schedule(DrawGroup(g["name"], tuple(g["entry_ids"]))) for g in stored]
    for rnd in phase.rounds:
        unsure = _unsure_entries(imported, rnd.round)
        number = rnd.round.number
        wanted = {
            frozenset((p.a_id, p.b_id))
            for schedule in schedules
            if number <= len(schedule)
            for p in schedule[number - 1]
            if not p.is_bye
        }
        played = {}
        for match, _where in rnd.matches:
            if match.entry_a_id is not None and match.entry_b_id is not None:
                played[frozenset((match.entry_a_id, match.entry_b_id))] = match
        for pairing in wanted - set(played):
            if pairing & unsure:
                continue
            pair, other = sorted(pairing)
            raise archive_inconsistent(
                Invalid(
                    "in round {round} of {phase}, the groups' schedule pairs {pair} with "
                    "{other}, but no match of the round does ({where})",
                    code="archive_schedule_missing",
                    round=number,
                    phase=phase.phase.name,
                    pair=_names([_entry(imported, pair)])[0],
                    other=_names([_entry(imported, other)])[0],
                    where=rnd.where,
                ),
                where=rnd.where,
            )
        for pairing in set(played) - wanted:
            pair, other = sorted(pairing)
            raise archive_inconsistent(
                Invalid(
                    "in round {round} of {phase}, {pair} meets {other}, which its groups' "
                    "schedule does not say ({where})",
                    code="archive_schedule_extra",
                    round=number,
                    phase=phase.phase.name,
                    pair=_names([_entry(imported, pair)])[0],
                    other=_names([_entry(imported, other)])[0],
                    where=rnd.where,
                ),
                where=rnd.where,
            )


def _unsure_entries(imported: ImportedTournament, rnd: Round) -> set[int]:
    """The entries whose place in ``rnd`` the records do not settle: withdrawn (now, or once:
    ``withdrawn_at``), or registered (again) after the round was drawn."""
    return {
        e.pk
        for e in imported.entries.values()
        if e.status == Entry.Status.WITHDRAWN
        or e.withdrawn_at is not None
        or _later(e.registered_at, rnd.created_at)
    }


def _later(when: Any, than: Any) -> bool:
    try:
        return when is not None and than is not None and when > than
    except TypeError:  # a time without its zone: an archive edited by hand, nothing settled
        return True


# --- A bracket and a finished phase ---------------------------------------------------------


def _winners(phase: ImportedPhase) -> dict[str, int]:
    """The bracket's winners so far (as rounds.py reads them: confirmed matches played)."""
    return {
        m.bracket_key: m.winner_id
        for rnd in phase.rounds
        for m, _ in rnd.matches
        if m.bracket_key
        and m.status == Match.Status.CONFIRMED
        and m.kind != Match.Kind.BYE
        and m.winner_id is not None
    }


def _bracket(phase: ImportedPhase):
    try:
        return bracket_from_json(phase.phase.bracket)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise archive_inconsistent(
            Term("a bracket that cannot be read"), where=f"{phase.where}.bracket"
        ) from None


def _bracket_check(phase: ImportedPhase, imported: ImportedTournament) -> None:
    if phase.phase.format not in ELIMINATION_FORMATS or not phase.phase.bracket:
        return
    bracket = _bracket(phase)
    try:
        filled = {m.id: m for m in resolve(bracket, _winners(phase))}
    except DrawError as error:
        raise archive_inconsistent(
            Invalid(
                "the results of {phase} contradict its bracket: {error}",
                code="archive_bracket_results",
                phase=phase.phase.name,
                error=error,
            ),
            where=phase.where,
        ) from None
    started = {pk for pk, rows in imported.submissions.items() if rows} | imported.with_hands
    for rnd in phase.rounds:
        for match, where in rnd.matches:
            if not match.bracket_key or match.kind == Match.Kind.BYE:
                continue
            if not (
                match.status != Match.Status.PENDING
                or match.started_at is not None
                or match.pk in started
            ):
                continue  # not started: the bracket task may still point it elsewhere
            slot = filled.get(match.bracket_key)
            expected = {slot.a.entrant_id, slot.b.entrant_id} if slot is not None else set()
            if {match.entry_a_id, match.entry_b_id} != expected:
                raise archive_inconsistent(
                    Invalid(
                        "at {where}, the match {key} of {phase} has {pairs}, but its bracket "
                        "and the results before it give {expected}",
                        code="archive_bracket_entrants",
                        where=where,
                        key=match.bracket_key,
                        phase=phase.phase.name,
                        pairs=_names(
                            _entry(imported, pk) for pk in (match.entry_a_id, match.entry_b_id)
                        ),
                        expected=_names(
                            _entry(imported, pk) if pk else None for pk in sorted(expected, key=str)
                        ),
                    ),
                    where=where,
                )


def _finished_check(phase: ImportedPhase) -> None:
    """A phase finishes once every round is closed, a bracket with its champion
    (services.rounds.phases._finish); a finished one says so."""
    if phase.phase.status != Phase.Status.FINISHED:
        return
    for rnd in phase.rounds:
        if rnd.round.status != Round.Status.CLOSED:
            raise archive_inconsistent(
                Invalid(
                    "{phase} is finished, but its round {round} is not closed",
                    code="archive_phase_round_open",
                    phase=phase.phase.name,
                    round=rnd.round.number,
                ),
                where=rnd.where,
            )
    bracket = phase.phase.format in ELIMINATION_FORMATS and phase.phase.bracket
    if bracket and champion(_bracket(phase), _winners(phase)) is None:
        raise archive_inconsistent(
            Invalid(
                "{phase} is finished, but its bracket has no champion",
                code="archive_phase_no_champion",
                phase=phase.phase.name,
            ),
            where=phase.where,
        )
