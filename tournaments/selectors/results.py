"""Reads of the results area: the rules a partida is played by, its running score, the table's
view through its link, a match's history for the organizer and the round board.

Responsible for: loading rows with their relations in a bounded number of queries and folding
a table's record through scoring/ (the fold is a read: the same hands always give the same
state); the figures a stored result gives a match's columns (``result_figures``). The writes
in tournaments/services/results/ use these reads to validate what they store, so a table sees
exactly the state the service checked.

Must not: write, or hold a rule of Mus (scoring/ does) or of who may write (clubs.roles does;
services call it). Visibility of reads follows tournaments.selectors.tournaments: a published
tournament is seen by everybody, anything else only by its peña's organizers (NotFound for the
rest, so that a private tournament's existence does not leak).

Terms: partida (a Match), mesa (table), pareja (pair; A and B in a match, seats A1, B1, A2, B2
in speaking order), mano (the position that speaks first), juego (a game), vaca, piedras
(stones), órdago, anotador (who keeps the score at the table).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Prefetch, QuerySet

from clubs.models import Player
from clubs.roles import can_organize, require_organizer
from config.errors import NotFound
from scoring import (
    EntryAfterEnd,
    GameEntry,
    HandOutcome,
    MatchState,
    RuleSet,
    ScoringError,
    apply_hand,
    hand_from_json,
    play_match,
    record_games,
)
from scoring.jsonio import POSITIONS, outcome_to_json, start_from_json, state_to_json
from scoring.match import check_start_stones
from tournaments.models import (
    AuditEntry,
    Entry,
    HandEntry,
    LatePenalty,
    Match,
    ResultSubmission,
    Round,
    Substitution,
)
from tournaments.selectors.prepared import Prepared
from tournaments.selectors.rounds import round_not_found, round_rules
from tournaments.selectors.tournaments import tournament_is_published

User = AbstractBaseUser | AnonymousUser | None


@dataclass(frozen=True)
class ResultFigures:
    """What a result gives the standings: juegos, vacas and piedras of each side and the
    winning side ("A", "B", or None for nobody)."""

    games: tuple[int, int]
    vacas: tuple[int, int]
    stones: tuple[int, int]
    winner: str | None


def result_figures(summary: dict) -> ResultFigures:
    """The figures of a result as the engine stored it (scoring.jsonio.state_to_json): the
    juegos each side won, its vacas, its piedras (every game's and the unfinished one's) and
    the winner; a match's columns are these (services.results.common.set_result). KeyError,
    TypeError or ValueError for a summary that is not one."""
    games = summary["games"]
    won = [g["winner"] for g in games]
    winner = summary["winner"]
    if winner not in ("A", "B", None):
        raise ValueError(f"winner {winner!r}")
    return ResultFigures(
        games=(won.count("A"), won.count("B")),
        vacas=(int(summary["vacas"]["A"]), int(summary["vacas"]["B"])),
        stones=(
            sum(int(g["stones"]["A"]) for g in games) + int(summary["stones"]["A"]),
            sum(int(g["stones"]["B"]) for g in games) + int(summary["stones"]["B"]),
        ),
        winner=winner,
    )


def match_figures(match: Match) -> ResultFigures:
    """The figures a match's columns hold (its winner as the side it played)."""
    if match.winner_id is not None and match.winner_id == match.entry_a_id:
        winner = "A"
    elif match.winner_id is not None and match.winner_id == match.entry_b_id:
        winner = "B"
    else:
        winner = None
    return ResultFigures(
        games=(match.games_a, match.games_b),
        vacas=(match.vacas_a, match.vacas_b),
        stones=(match.stones_a, match.stones_b),
        winner=winner,
    )


#: Relations every read and write of a match needs (the tournament decides rules and rights).
MATCH_RELATIONS = ("round__phase__tournament__club",)
_PAIR_RELATIONS = (
    "entry_a__pair__player_one",
    "entry_a__pair__player_two",
    "entry_b__pair__player_one",
    "entry_b__pair__player_two",
    "entry_a__player_three",
    "entry_b__player_three",
)
#: What a write through the table's link reads with the match: the rules and the round, not
#: the peña (only an organizer's write checks it).
LINK_WRITE_RELATIONS = ("round__phase__tournament",)
#: What a confirmation through the link reads with it: no rules to check (the version
#: confirmed was checked when entered), only the round and its phase (the audit's tournament).
LINK_CONFIRM_RELATIONS = ("round__phase",)
#: What the table's read (table_view) needs in one query: the match, where it is, who plays.
TABLE_RELATIONS = (*MATCH_RELATIONS, *_PAIR_RELATIONS)


# --- The rows of one match, on the table link's hot path ---------------------------------------
#
# A table's read and a result's write run these for every phone: compiled once (prepared.py),
# each then costs its execution only. The markers are values no real token or id takes.

_TOKEN = "\x00prepared-token"
_ID = -7_000_000_001
_BY_TOKEN: dict[tuple[tuple[str, ...], bool], Prepared] = {}


def _token_read(relations: tuple[str, ...], lock: bool) -> Prepared:
    def build(token: str):
        # A token names one match: no ORDER BY (Match's default ordering joins four tables
        # to sort one row, and cost more to compile than the rest of the query).
        matches = Match.objects.select_related(*relations).order_by()
        if lock:  # only the match row: of=self
            matches = matches.select_for_update(of=("self",))
        return matches.filter(token=token)

    return _BY_TOKEN.setdefault((relations, lock), Prepared(build, _TOKEN))


# The link's two writes, made now so that a worker's warm-up compiles them (config/warmup.py).
_token_read(LINK_WRITE_RELATIONS, True)
_token_read(LINK_CONFIRM_RELATIONS, True)


#: The rows of a match that a table's read shows, by the name of their read below. The table's
#: read asks, in its read of the match, which kinds the match has any of (an EXISTS each) and
#: skips the query of a kind it has none of: at the start of a round, when nothing has been
#: entered yet, a table's read is one query instead of five.
_TABLE_ROWS = (
    ("substitutions", Substitution),
    ("late_penalties", LatePenalty),
    ("submissions", ResultSubmission),
    ("hands", HandEntry),
)
_TABLE_READ = Prepared(
    lambda token: (
        Match.objects.select_related(*TABLE_RELATIONS)
        .order_by()
        .annotate(
            **{
                f"has_{name}": Exists(model.objects.filter(match=OuterRef("pk")))
                for name, model in _TABLE_ROWS
            }
        )
        .filter(token=token)
    ),
    _TOKEN,
)


def match_by_token(
    token: str, *, relations: tuple[str, ...], lock: bool = False, table_read: bool = False
) -> Match | None:
    """The match whose table link holds ``token``, with ``relations`` (select_related); under
    its row lock when ``lock`` (inside a transaction). None when no match has it.

    ``table_read`` (the table's read, no lock): with TABLE_RELATIONS, and knowing which of its
    rows it has none of (``_TABLE_ROWS``), in the same query and the same snapshot, so their
    reads below answer [] without asking. Only for a read that writes nothing: a write reads
    its rows after taking the lock, in statements of their own."""
    if table_read and (lock or tuple(relations) != TABLE_RELATIONS):
        raise ValueError("table_read reads TABLE_RELATIONS, without a lock")
    if not token:
        return None
    if table_read:
        found = _TABLE_READ.run(token)
    else:
        found = _token_read(tuple(relations), lock).run(token)
    return found[0] if found else None


def warm_table_link() -> None:
    """Run the table link's reads once on this thread's connection, for no match: a new
    PostgreSQL connection loads its catalogue and plans each query on first use, tens of
    milliseconds that a phone's first request on a new thread waited for (config/warmup.py).
    In a transaction, as the writes' locked reads run (they lock nothing: no match has "")."""
    with transaction.atomic():
        _TABLE_READ.run("")
        _token_read(LINK_WRITE_RELATIONS, True).run("")
        _token_read(LINK_CONFIRM_RELATIONS, True).run("")
        for rows in (_SUBSTITUTIONS, _LATE_PENALTIES, _SUBMISSIONS, _HANDS):
            rows.run(_ID)


def _table_read(match: Match) -> bool:
    """``match`` comes from match_by_token's ``table_read`` (TABLE_RELATIONS, and the flags)."""
    return "has_hands" in match.__dict__


def _none_of(match: Match, name: str) -> bool:
    """The match was read knowing it has no row of this kind (``table_read``)."""
    return match.__dict__.get(f"has_{name}") is False


_SUBSTITUTIONS = Prepared(
    lambda match_id: Substitution.objects.filter(match_id=match_id).select_related("substitute"),
    _ID,
)
_LATE_PENALTIES = Prepared(
    lambda match_id: LatePenalty.objects.filter(match_id=match_id).order_by("created_at", "id"),
    _ID,
)
_SUBMISSIONS = Prepared(
    lambda match_id: ResultSubmission.objects.filter(match_id=match_id).order_by("id"), _ID
)
_HANDS = Prepared(
    lambda match_id: HandEntry.objects.filter(match_id=match_id).order_by("number"), _ID
)


def match_substitutions(match: Match) -> list[Substitution]:
    if _none_of(match, "substitutions"):
        return []
    return _SUBSTITUTIONS.run(match.pk, related={"match": match})


def match_late_penalties(match: Match) -> list[LatePenalty]:
    """In the order they were recorded (the order their games are lost in)."""
    if _none_of(match, "late_penalties"):
        return []
    return _LATE_PENALTIES.run(match.pk, related={"match": match})


def match_submissions(match: Match) -> list[ResultSubmission]:
    """Every version entered, confirmations included, oldest first."""
    if _none_of(match, "submissions"):
        return []
    return _SUBMISSIONS.run(match.pk, related={"match": match})


def match_hands(match: Match) -> list[HandEntry]:
    """The hands recorded at the table, by number."""
    if _none_of(match, "hands"):
        return []
    return _HANDS.run(match.pk, related={"match": match})


# --- Rules in force ---------------------------------------------------------------------------


def match_rules(*, match: Match) -> RuleSet:
    """The rules a match is played by: the tournament's, with its phase's and its round's
    length (the rounds area computes it: selectors.rounds.round_rules)."""
    return round_rules(match.round.phase, match.round.number)


# --- Late penalties and the running score ------------------------------------------------------


def match_penalty_games(
    *, match: Match, rules: RuleSet, penalties: list[LatePenalty] | None = None
) -> list[GameEntry]:
    """The games a late pair lost, as games won by its opponent before the first game played.

    They are prepended to whatever the table enters (games or hands), in the order the penalties
    were recorded; they carry no stones (0-0), only a winner. Penalty games stop once they
    decide the match on their own (the engine refuses games after that), so a pair that is very
    late simply loses the match.
    """
    if penalties is None:
        penalties = match_late_penalties(match)
    games: list[GameEntry] = []
    state = MatchState.start(rules)
    for penalty in penalties:
        opponent = 1 if penalty.entry_id == match.entry_a_id else 0
        for _ in range(penalty.games_lost):
            if state.finished:
                return games
            games.append(GameEntry(None, opponent))
            state = record_games(rules, games)
    return games


def first_mano_position(match: Match) -> int:
    if match.first_mano not in POSITIONS:
        return 0  # a bad value in the row is a bug elsewhere; A1 is the documented default
    return POSITIONS.index(match.first_mano)


def start_of(payloads: list[Any]) -> tuple[Any, Any]:
    """The score the table's first game starts from: the first hand's ``start`` (a score
    written on paper before the table switched to the phone), else 0-0."""
    first = payloads[0] if payloads else None
    if isinstance(first, dict) and "start" in first:
        try:
            return start_from_json(first["start"])
        except ScoringError as error:
            raise error.in_hand(1) from None
    return (0, 0)


def hand_records(rules: RuleSet, payloads: list[Any]) -> list:
    """Parse a table's hands, naming the hand in the engine's error as jsonio.run does (the
    first hand's ``start`` is read by start_of)."""
    records = []
    for number, raw in enumerate(payloads, start=1):
        if number == 1 and isinstance(raw, dict) and "start" in raw:
            raw = {k: v for k, v in raw.items() if k != "start"}
        try:
            records.append(hand_from_json(raw, rules))
        except ScoringError as error:
            raise error.in_hand(number) from None
    return records


def fold_hands(
    rules: RuleSet,
    first_mano: int,
    penalty_games: list[GameEntry],
    records: list,
    start: tuple[Any, Any] = (0, 0),
) -> tuple[MatchState, tuple[HandOutcome, ...]]:
    """The match after the penalty games and then the hands, through the engine.

    Without penalties this is scoring.play_match itself. With them, the games a late pair lost
    are recorded first and the first hand played is still dealt with the match's first mano
    (penalty games are not played, so they do not move the mano).
    """
    if not penalty_games:
        return play_match(rules, records, first_mano, start)
    check_start_stones(rules, start)
    state = record_games(rules, penalty_games)
    state = replace(
        state,
        first_mano=first_mano,
        mano=first_mano,
        game_first_mano=first_mano,
        stones=state.stones if state.finished else (start[0], start[1]),
    )
    outcomes = []
    for number, record in enumerate(records, start=1):
        try:
            state, outcome = apply_hand(state, record)
        except EntryAfterEnd as error:  # same wording as play_match
            raise error.in_hand(number) from None
        outcomes.append(outcome)
    return state, tuple(outcomes)


@dataclass(frozen=True)
class RunningScore:
    """The state a table resumes from: every hand so far, folded through the engine."""

    hands: list[HandEntry]
    state: MatchState
    outcomes: tuple[HandOutcome, ...]
    penalty_games: list[GameEntry]

    def as_json(self) -> dict[str, Any]:
        last = self.outcomes[-1] if self.outcomes else None
        return {
            "hands": [{"number": h.number, "hand": h.payload} for h in self.hands],
            "state": state_to_json(self.state),
            "last_hand": (
                outcome_to_json(len(self.outcomes), last, self.state.rules) if last else None
            ),
            "penalty_games": len(self.penalty_games),
        }


def match_running_score(
    *, match: Match, upto: int | None = None, penalties: list[LatePenalty] | None = None
) -> RunningScore:
    """Fold the match's recorded hands (up to hand number ``upto``) with its penalty games
    (``penalties``: the match's late penalties when the caller has read them already)."""
    rules = match_rules(match=match)
    hands = match_hands(match)
    if upto is not None:
        hands = [h for h in hands if h.number <= upto]
    penalties = match_penalty_games(match=match, rules=rules, penalties=penalties)
    payloads = [h.payload for h in hands]
    records = hand_records(rules, payloads)
    state, outcomes = fold_hands(
        rules, first_mano_position(match), penalties, records, start_of(payloads)
    )
    return RunningScore(hands, state, outcomes, penalties)


# --- The match as an answer --------------------------------------------------------------------


def match_side_of(match: Match, entry_id: int | None) -> str | None:
    if entry_id is None:
        return None
    if entry_id == match.entry_a_id:
        return "a"
    if entry_id == match.entry_b_id:
        return "b"
    return None


def match_snapshot(match: Match) -> dict[str, Any]:
    """The match's result fields as plain data: what write answers carry and the audit keeps."""

    def when(value):
        return value.isoformat() if value else None

    return {
        "id": match.pk,
        "status": match.status,
        "kind": match.kind,
        "version": match.version,
        "winner": match_side_of(match, match.winner_id),
        "games": {"a": match.games_a, "b": match.games_b},
        "vacas": {"a": match.vacas_a, "b": match.vacas_b},
        "stones": {"a": match.stones_a, "b": match.stones_b},
        "result": match.result,
        "started_at": when(match.started_at),
        "confirmed_at": when(match.confirmed_at),
    }


# --- Who may read what ------------------------------------------------------------------------


def _match_not_found(match_id: int) -> NotFound:
    return NotFound(
        "There is no match {match}, or its tournament is not published and you do not "
        "organize its peña. Check the link, or sign in as one of its organizers.",
        code="match_not_found",
        match=match_id,
    )


def match_get(*, match_id: int, user: User) -> Match:
    """The match if ``user`` may see its tournament (and its round, if still a draft)."""
    match = Match.objects.select_related(*MATCH_RELATIONS).filter(pk=match_id).first()
    if match is None:
        raise _match_not_found(match_id)
    tournament = match.round.phase.tournament
    organizer = can_organize(user, tournament.club)
    if not organizer and (
        not tournament_is_published(tournament) or match.round.status == Round.Status.DRAFT
    ):
        raise _match_not_found(match_id)
    return match


def match_for_organizer(*, match_id: int, user: User) -> Match:
    """The match for its peña's organizers: 404 where it is not visible, 403 where it is."""
    match = match_get(match_id=match_id, user=user)
    require_organizer(user, match.round.phase.tournament.club)
    return match


def match_history(*, match: Match) -> Match:
    """The match with its submissions (and who made them), late penalties, hands and audit
    trail, for the organizer's desk; a fixed number of queries."""
    return (
        Match.objects.select_related(*MATCH_RELATIONS, *_PAIR_RELATIONS)
        .prefetch_related(
            Prefetch(
                "submissions",
                queryset=ResultSubmission.objects.select_related("created_by").order_by("id"),
            ),
            Prefetch("audit", queryset=AuditEntry.objects.select_related("actor")),
            Prefetch("late_penalties", queryset=LatePenalty.objects.order_by("created_at", "id")),
        )
        .annotate(hand_count=Count("hands"))
        .get(pk=match.pk)
    )


# --- The table's view through its link ----------------------------------------------------------


def _player_name(player: Player | None) -> str:
    return str(player) if player is not None else ""


def _pair_view(match: Match, entry: Entry | None, letter: str, subs: dict) -> dict[str, Any]:
    """A side's players in seat order (A1, A2 and, for a trio, A3), each under the name of the
    substitute who plays this partida for them, if one was recorded."""
    if entry is None:
        return {"entry_id": None, "name": "", "players": []}
    pair = entry.pair
    seated = [pair.player_one, pair.player_two]
    if entry.player_three_id is not None:
        seated.append(entry.player_three)
    players = []
    for number, player in enumerate(seated, start=1):
        sub = subs.get((entry.pk, player.pk))
        players.append(
            {
                "seat": f"{letter}{number}",
                "name": _player_name(sub.substitute if sub else player),
                "substitute_for": _player_name(player) if sub else None,
            }
        )
    return {"entry_id": entry.pk, "name": str(pair), "players": players}


def table_view(*, match: Match, fresh: bool = False) -> dict[str, Any]:
    """What a table's phone shows: where, who sits where, who is mano first, the rules in force,
    the running score, any late penalty, and the versions entered so far (both in a dispute).

    ``fresh``: the caller has just read ``match`` with TABLE_RELATIONS (the link's read does,
    in one query), so it is used as it is; otherwise it is read again with them (unless it
    comes from match_by_token's ``table_read``, which has them)."""
    if not (fresh or _table_read(match)):
        match = Match.objects.select_related(*TABLE_RELATIONS).get(pk=match.pk)
    subs = {(s.entry_id, s.replaced_id): s for s in match_substitutions(match)}
    pairs = {
        "a": _pair_view(match, match.entry_a, "A", subs),
        "b": _pair_view(match, match.entry_b, "B", subs),
    }
    seats = {p["seat"]: p["name"] for pair in pairs.values() for p in pair["players"]}
    rules = match_rules(match=match)
    penalties = match_late_penalties(match)
    submissions = [s for s in match_submissions(match) if "confirms" not in (s.payload or {})]
    running = match_running_score(match=match, penalties=penalties)
    phase = match.round.phase
    return {
        "match": match_snapshot(match),
        "tournament": {"id": phase.tournament_id, "name": phase.tournament.name},
        "phase": {"id": phase.pk, "name": phase.name},
        "round": {"id": match.round_id, "number": match.round.number},
        "table_number": match.table_number,
        "bracket_key": match.bracket_key,
        "pairs": pairs,
        "first_mano": match.first_mano,
        "first_mano_player": seats.get(match.first_mano, ""),
        "rules": rules.as_dict(),
        "late_penalties": [
            {
                "side": match_side_of(match, p.entry_id),
                "minutes_late": p.minutes_late,
                "games_lost": p.games_lost,
            }
            for p in penalties
        ],
        "submissions": [
            {"id": s.pk, "side": s.side, "summary": s.summary, "created_at": s.created_at}
            for s in submissions
        ],
        "running": running.as_json(),
    }


# --- The round board --------------------------------------------------------------------------


def round_get(*, round_id: int, user: User) -> Round:
    rnd = Round.objects.select_related("phase__tournament__club").filter(pk=round_id).first()
    if rnd is None:
        raise round_not_found(round_id)
    tournament = rnd.phase.tournament
    if not can_organize(user, tournament.club) and (
        not tournament_is_published(tournament) or rnd.status == Round.Status.DRAFT
    ):
        raise round_not_found(round_id)
    return rnd


def round_board(*, rnd: Round) -> QuerySet[Match]:
    """Every table of the round with its pairs, status and how much was entered; the query
    count does not grow with the number of tables."""
    return (
        Match.objects.filter(round=rnd)
        .select_related(*_PAIR_RELATIONS)
        .annotate(
            submission_count=Count("submissions", distinct=True),
            hand_count=Count("hands", distinct=True),
        )
        .order_by("table_number", "id")
    )
