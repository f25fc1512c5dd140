"""Services of the results area on the database: submit, confirm, dispute, resolve, correct,
forfeit, lateness, hand by hand, replays, audit, queued tasks and the round's notification.

Rules used unless said otherwise (tests.factories.TournamentFactory): games to 40 stones, 2
games win the vaca, 1 vaca the match — a match is the best of three games.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.core import mail

from config.errors import Conflict, Forbidden, Invalid, NotFound, StaleVersion
from scoring import ScoringError
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PhaseFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments import tasks
from tournaments.models import (
    AuditEntry,
    HandEntry,
    LatePenalty,
    Match,
    Notification,
    Phase,
    Round,
    Tournament,
)
from tournaments.services import results as svc

pytestmark = pytest.mark.django_db

A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [30, 40]}, {"stones": [40, 10]}]}
A_WINS_OTHER = {"games": [{"stones": [40, 20]}, {"stones": [30, 40]}, {"stones": [40, 11]}]}
B_WINS = {"games": [{"stones": [20, 40]}, {"stones": [10, 40]}]}

_DECL = {
    "pares": ["none", "none", "none", "none"],
    "juego": ["none", "none", "none", "none"],
    "punto": [30, 12, 20, 22],
    "winners": {"grande": "mano", "chica": "postre"},
}
#: the pareja mano wins the game with an accepted órdago at grande
#: (chica, never played after it, has no winner to give)
ORDAGO = {
    "declarations": {**_DECL, "winners": {"grande": "mano"}},
    "bets": {"grande": ["órdago", "quiero"]},
}
#: every lance en paso: a few stones, no game ends (target 10)
PASO = {"declarations": _DECL, "bets": {}}


@pytest.fixture
def organizer():
    return UserFactory(username="organizer")


@pytest.fixture
def tournament(organizer):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    MembershipFactory(club=tournament.club, user=organizer)
    return tournament


@pytest.fixture
def match(tournament):
    return MatchFactory(round__phase__tournament=tournament)


@pytest.fixture
def queued():
    """The result_confirmed task's queue (the edge); callbacks run as on commit."""
    with mock.patch.object(tasks.result_confirmed, "delay") as delay:
        yield delay


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def submit(match, side, payload, key, *, version=None, via="link", actor=None):
    return svc.match_result_submit(
        match=match,
        side=side,
        payload=payload,
        idempotency_key=key,
        version=fresh(match).version if version is None else version,
        via=via,
        actor=actor,
        device="Pixel 7",
    )


def confirm(match, side, key, *, version=None, via="link", actor=None):
    return svc.match_result_confirm(
        match=match,
        side=side,
        idempotency_key=key,
        version=fresh(match).version if version is None else version,
        via=via,
        actor=actor,
    )


def add_hand(match, hand, key, *, version=None):
    return svc.match_hand_add(
        match=match,
        hand=hand,
        idempotency_key=key,
        version=fresh(match).version if version is None else version,
        via="link",
    )


# --- Submit and confirm -------------------------------------------------------------------------


def test_first_submission_puts_the_match_in_submitted_and_starts_it(match):
    answer = submit(match, "a", A_WINS, "k1")

    match = fresh(match)
    assert match.status == Match.Status.SUBMITTED
    assert match.started_at is not None
    assert match.version == 1
    assert answer.state["status"] == "submitted" and answer.state["version"] == 1
    sub = answer.submission
    assert (sub.side, sub.via, sub.device, sub.based_on_version) == ("a", "link", "Pixel 7", 0)
    assert sub.payload == A_WINS
    assert sub.summary["winner"] == "A" and len(sub.summary["games"]) == 3
    entry = AuditEntry.objects.get(match=match)
    assert (entry.action, entry.via, entry.device) == ("result_submitted", "link", "Pixel 7")
    assert entry.old["status"] == "pending" and entry.new["match"]["status"] == "submitted"


def test_the_other_pair_confirms_and_the_match_gets_the_engine_result(
    match, queued, django_capture_on_commit_callbacks
):
    submit(match, "a", A_WINS, "k1")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        answer = confirm(match, "b", "k2")
    assert not queued.called  # only once the transaction commits
    for callback in callbacks:
        callback()
    queued.assert_called_once_with(match_id=match.pk, queued_at=mock.ANY)

    match = fresh(match)
    assert match.status == Match.Status.CONFIRMED and match.kind == Match.Kind.PLAYED
    assert match.winner_id == match.entry_a_id
    assert (match.games_a, match.games_b, match.vacas_a, match.vacas_b) == (2, 1, 1, 0)
    assert (match.stones_a, match.stones_b) == (110, 70)
    assert match.result == answer.submission.summary and match.result["winner"] == "A"
    assert match.confirmed_at is not None and match.version == 2
    assert answer.submission.payload == {"confirms": match.submissions.first().pk}
    audit = AuditEntry.objects.filter(match=match, action="result_confirmed").get()
    assert audit.old["status"] == "submitted" and audit.new["match"]["winner"] == "a"


def test_equal_versions_from_both_pairs_confirm(match, queued, django_capture_on_commit_callbacks):
    submit(match, "a", A_WINS, "k1")
    with django_capture_on_commit_callbacks(execute=True):
        answer = submit(match, "b", A_WINS, "k2")
    assert answer.state["status"] == "confirmed"
    queued.assert_called_once_with(match_id=match.pk, queued_at=mock.ANY)


def test_different_versions_put_the_match_in_dispute_keeping_both(match):
    submit(match, "a", A_WINS, "k1")
    answer = submit(match, "b", A_WINS_OTHER, "k2")

    assert answer.state["status"] == "disputed"
    assert fresh(match).winner_id is None
    assert [s.side for s in match.submissions.order_by("id")] == ["a", "b"]
    assert AuditEntry.objects.filter(match=match, action="result_disputed").exists()


def test_a_pair_may_enter_its_version_again_before_the_other_answers(match):
    submit(match, "a", A_WINS_OTHER, "k1")
    submit(match, "a", A_WINS, "k2")  # the latest counts
    answer = submit(match, "b", A_WINS, "k3")
    assert answer.state["status"] == "confirmed"


def test_in_a_dispute_a_pair_can_accept_the_other_version(match):
    submit(match, "a", A_WINS, "k1")
    submit(match, "b", B_WINS, "k2")
    answer = confirm(match, "a", "k3")
    assert answer.state["status"] == "confirmed" and answer.state["winner"] == "b"


def test_a_pair_cannot_confirm_its_own_version(match):
    submit(match, "a", A_WINS, "k1")
    with pytest.raises(Conflict) as error:
        confirm(match, "a", "k2")
    assert error.value.code == "own_submission"


def test_nothing_to_confirm_before_a_submission(match):
    with pytest.raises(Conflict) as error:
        confirm(match, "b", "k1")
    assert error.value.code == "nothing_to_confirm"


def test_an_organizer_entry_is_official_and_confirms_at_once(match, organizer):
    answer = submit(match, "organizer", B_WINS, "k1", via="account", actor=organizer)
    assert answer.state["status"] == "confirmed" and answer.state["winner"] == "b"
    audit = AuditEntry.objects.get(match=match)
    assert (audit.actor, audit.via, audit.action) == (organizer, "account", "result_confirmed")


def test_the_organizer_confirms_a_pair_version(match, organizer):
    submit(match, "a", A_WINS, "k1")
    answer = confirm(match, "organizer", "k2", via="api", actor=organizer)
    assert answer.state["status"] == "confirmed"


def test_only_organizers_enter_results_through_an_account(match):
    stranger = UserFactory()
    with pytest.raises(Forbidden):
        submit(match, "organizer", A_WINS, "k1", via="account", actor=stranger)
    with pytest.raises(Invalid) as error:
        submit(match, "organizer", A_WINS, "k1", via="link")
    assert error.value.code == "side_required"


def test_a_stale_version_is_refused_and_nothing_is_stored(match):
    submit(match, "a", A_WINS, "k1")
    with pytest.raises(StaleVersion) as error:
        submit(match, "b", A_WINS, "k2", version=0)
    assert "changed on another device" in error.value.message
    assert error.value.status == 409
    assert match.submissions.count() == 1 and fresh(match).version == 1


def test_an_illegal_result_is_the_engine_error_and_nothing_is_stored(match):
    bad = {"games": [{"stones": [40, 41]}, {"stones": [40, 10]}]}
    with pytest.raises(ScoringError) as error:
        submit(match, "a", bad, "k1")
    assert error.value.code == "both_at_target"
    assert "Game 1: both pairs have 40 or more" in error.value.message
    unfinished = {"games": [{"stones": [40, 10]}]}
    with pytest.raises(ScoringError) as error:
        submit(match, "a", unfinished, "k1")
    assert error.value.code == "match_not_finished"
    assert not match.submissions.exists() and fresh(match).status == Match.Status.PENDING


def test_a_result_needs_games_or_hands_and_a_key(match):
    with pytest.raises(Invalid) as error:
        submit(match, "a", {"games": [], "hands": []}, "k1")
    assert error.value.code == "result_format"
    with pytest.raises(Invalid) as error:
        submit(match, "a", A_WINS, "  ")
    assert error.value.code == "idempotency_key"


def test_only_winners_are_enough_for_a_quick_entry(match):
    answer = submit(match, "a", {"games": [{"winner": "B"}, {"winner": "B"}]}, "k1")
    assert answer.submission.summary["winner"] == "B"


def test_no_result_for_a_bye(tournament):
    bye = MatchFactory(round__phase__tournament=tournament, entry_b=None, kind=Match.Kind.BYE)
    with pytest.raises(Conflict) as error:
        submit(bye, "a", A_WINS, "k1")
    assert error.value.code == "match_not_playable"


def test_bad_arguments_are_invalid_not_crashes(match, organizer):
    with pytest.raises(Invalid) as error:
        submit(match, "a", A_WINS, "k1", via="carrier-pigeon")
    assert error.value.code == "via"
    match.round.phase.tournament.late_minutes_per_game = 10
    match.round.phase.tournament.save()
    for minutes in (-1, "10", True):
        with pytest.raises(Invalid) as error:
            late(match, organizer, "a", minutes)
        assert error.value.code == "minutes_late"
    assert not LatePenalty.objects.exists() and fresh(match).version == 0


# --- Idempotent replay ------------------------------------------------------------------------


def test_a_retry_returns_the_first_answer_and_stores_nothing(match):
    first = submit(match, "a", A_WINS, "k1")
    again = submit(match, "a", A_WINS, "k1", version=0)  # the phone resends what it sent

    assert again.replayed and again.submission.pk == first.submission.pk
    assert again.state == first.state
    assert match.submissions.count() == 1 and AuditEntry.objects.filter(match=match).count() == 1


def test_a_retry_after_the_match_moved_on_still_gets_the_first_answer(match):
    first = submit(match, "a", A_WINS, "k1")
    confirm(match, "b", "k2")
    again = submit(match, "a", A_WINS, "k1", version=0)
    assert again.replayed and again.state["status"] == "submitted"
    assert again.state == first.state
    assert fresh(match).status == Match.Status.CONFIRMED


def test_a_key_reused_for_another_entry_is_refused(match):
    submit(match, "a", A_WINS, "k1")
    with pytest.raises(Conflict) as error:
        submit(match, "a", B_WINS, "k1")
    assert error.value.code == "idempotency_key_reused"


# --- The table's link -------------------------------------------------------------------------


def test_the_link_finds_its_match_and_closes_once_confirmed(match):
    assert svc.match_for_token(token=match.token).pk == match.pk
    with pytest.raises(NotFound):
        svc.match_for_token(token="not-a-token")
    submit(match, "a", A_WINS, "k1")
    confirm(match, "b", "k2")
    with pytest.raises(Conflict) as error:
        svc.match_for_token(token=match.token)
    assert error.value.code == "link_closed"
    # a retry of an earlier write through the link still reaches its answer
    assert svc.match_for_token(token=match.token, idempotency_key="k2").pk == match.pk
    with pytest.raises(Conflict) as error:
        submit(match, "a", A_WINS, "k3")
    assert error.value.code == "link_closed"


def test_the_link_writes_only_while_the_round_is_published(tournament):
    match = MatchFactory(round__phase__tournament=tournament, round__status=Round.Status.DRAFT)
    with pytest.raises(Conflict) as error:
        submit(match, "a", A_WINS, "k1")
    assert error.value.code == "round_not_open"


# --- Disputes ---------------------------------------------------------------------------------


@pytest.fixture
def disputed(match):
    submit(match, "a", A_WINS, "k1")
    submit(match, "b", B_WINS, "k2")
    return fresh(match)


def resolve(match, organizer, **kwargs):
    return svc.match_dispute_resolve(
        match=match, version=fresh(match).version, actor=organizer, idempotency_key="r1", **kwargs
    )


def test_the_organizer_resolves_a_dispute_by_choosing_a_version(disputed, organizer, queued):
    b_version = disputed.submissions.get(side="b")
    answer = resolve(disputed, organizer, submission_id=b_version.pk)
    assert answer.state["status"] == "confirmed" and answer.state["winner"] == "b"
    assert answer.submission.side == "organizer"
    assert answer.submission.payload == {"chooses": b_version.pk}
    audit = AuditEntry.objects.get(match=disputed, action="dispute_resolved")
    assert audit.actor == organizer and audit.old["status"] == "disputed"


def test_the_organizer_resolves_a_dispute_with_the_official_result(disputed, organizer):
    answer = resolve(disputed, organizer, payload=A_WINS_OTHER)
    assert answer.state["stones"] == {"a": 110, "b": 71}


def test_resolving_needs_a_dispute_a_known_version_and_an_organizer(match, disputed, organizer):
    with pytest.raises(Invalid) as error:
        resolve(disputed, organizer, submission_id=999_999)
    assert error.value.code == "submission_unknown"
    with pytest.raises(Invalid) as error:
        resolve(disputed, organizer)
    assert error.value.code == "resolve_choice"
    with pytest.raises(Forbidden):
        resolve(disputed, UserFactory(), payload=A_WINS)
    other = MatchFactory(round=match.round)
    with pytest.raises(Conflict) as error:
        resolve(other, organizer, payload=A_WINS)
    assert error.value.code == "not_disputed"


def test_the_organizer_confirm_refuses_a_dispute(disputed, organizer):
    with pytest.raises(Conflict) as error:
        confirm(disputed, "organizer", "k9", via="account", actor=organizer)
    assert error.value.code == "match_disputed"


# --- Corrections ------------------------------------------------------------------------------


def correct(match, organizer, payload):
    return svc.match_result_correct(
        match=match, payload=payload, version=fresh(match).version, actor=organizer
    )


def test_the_organizer_corrects_a_confirmed_result_with_audit(
    match, organizer, queued, django_capture_on_commit_callbacks
):
    submit(match, "a", A_WINS, "k1")
    confirm(match, "b", "k2")
    with django_capture_on_commit_callbacks(execute=True):
        answer = correct(match, organizer, B_WINS)
    queued.assert_called_once_with(match_id=match.pk, queued_at=mock.ANY)
    match = fresh(match)
    assert match.winner_id == match.entry_b_id and (match.games_a, match.games_b) == (0, 2)
    assert answer.submission.side == "organizer" and match.version == 3
    audit = AuditEntry.objects.get(match=match, action="result_corrected")
    assert audit.old["winner"] == "a" and audit.old["result"]["winner"] == "A"
    assert audit.new["match"]["winner"] == "b" and audit.actor == organizer


def test_only_a_confirmed_result_is_corrected(match, organizer):
    with pytest.raises(Conflict) as error:
        correct(match, organizer, B_WINS)
    assert error.value.code == "not_confirmed"


@pytest.fixture
def knockout(tournament):
    """A semi-final confirmed (x beat y) and the final x vs z in round 2."""
    phase = PhaseFactory(tournament=tournament, format=Phase.Format.SINGLE_ELIMINATION)
    x, y, z, w = (EntryFactory(tournament=tournament) for _ in range(4))
    r1 = RoundFactory(phase=phase, number=1)
    r2 = RoundFactory(phase=phase, number=2)
    semi = MatchFactory(round=r1, table_number=1, bracket_key="W1-1", entry_a=x, entry_b=y)
    MatchFactory(round=r1, table_number=2, bracket_key="W1-2", entry_a=z, entry_b=w)
    final = MatchFactory(round=r2, table_number=3, bracket_key="W2-1", entry_a=x, entry_b=z)
    submit(semi, "a", A_WINS, "k1")
    confirm(semi, "b", "k2")
    return fresh(semi), final


def test_a_knockout_result_is_corrected_while_the_next_match_has_not_started(knockout, organizer):
    semi, _final = knockout
    assert correct(semi, organizer, B_WINS).state["winner"] == "b"


def test_a_correction_is_refused_naming_the_started_match_it_feeds(knockout, organizer):
    semi, final = knockout
    add_hand(final, PASO, "h1")  # the final has started at its table
    with pytest.raises(Conflict) as error:
        correct(semi, organizer, B_WINS)
    assert error.value.code == "result_has_dependents"
    assert "table 3 of round 2 depends on it" in error.value.message
    assert error.value.params == {"match": final.pk, "round": 2, "table": 3}
    assert fresh(semi).winner_id == semi.entry_a_id


# --- Forfeits ---------------------------------------------------------------------------------


def forfeit(match, organizer, absent_side):
    return svc.match_forfeit(
        match=match, absent_side=absent_side, version=fresh(match).version, actor=organizer
    )


def test_a_forfeit_is_a_walkover_with_the_full_score(
    match, organizer, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        forfeit(match, organizer, "b")
    queued.assert_called_once_with(match_id=match.pk, queued_at=mock.ANY)
    match = fresh(match)
    assert (match.status, match.kind, match.winner_id) == ("confirmed", "forfeit", match.entry_a_id)
    assert (match.games_a, match.games_b, match.vacas_a, match.vacas_b) == (2, 0, 1, 0)
    assert (match.stones_a, match.stones_b) == (80, 0)
    assert match.result["winner"] == "A"
    audit = AuditEntry.objects.get(match=match)
    assert audit.action == "forfeit" and audit.new["absent_side"] == "b"


def test_a_forfeit_follows_the_phase_format(tournament, organizer):
    match = MatchFactory(
        round__phase__tournament=tournament,
        round__phase__vacas_per_match=2,
        round__phase__stones_per_game=30,
    )
    forfeit(match, organizer, "a")
    match = fresh(match)
    assert match.winner_id == match.entry_b_id
    assert (match.games_b, match.vacas_b, match.stones_b, match.stones_a) == (4, 2, 120, 0)


def test_a_forfeit_needs_an_organizer_and_an_open_match(match, organizer):
    with pytest.raises(Forbidden):
        forfeit(match, UserFactory(), "b")
    with pytest.raises(Invalid):
        forfeit(match, organizer, "c")
    forfeit(match, organizer, "b")
    with pytest.raises(Conflict) as error:
        forfeit(match, organizer, "a")
    assert error.value.code == "already_confirmed"


# --- Lateness ---------------------------------------------------------------------------------


def late(match, organizer, side, minutes):
    return svc.match_late_penalty(
        match=match,
        side=side,
        minutes_late=minutes,
        version=fresh(match).version,
        actor=organizer,
    )


def test_a_late_pair_loses_games_that_count_first_for_the_opponent(tournament, match, organizer):
    tournament.late_minutes_per_game = 10
    tournament.save()
    late(match, organizer, "b", 15)  # one game lost
    penalty = LatePenalty.objects.get(match=match)
    assert (penalty.entry_id, penalty.games_lost) == (match.entry_b_id, 1)

    # the two games played were shared 1-1; the penalty game makes it A's match, 2-1
    played = {"games": [{"stones": [20, 40]}, {"stones": [40, 30]}]}
    answer = submit(match, "a", played, "k1")
    games = answer.submission.summary["games"]
    assert [g["winner"] for g in games] == ["A", "B", "A"]
    assert games[0]["stones"] == {"A": 0, "B": 0}
    assert fresh(match).stones_a == 0  # still submitted, not confirmed
    # without a penalty the same entry is not a finished match
    with pytest.raises(ScoringError) as error:
        submit(MatchFactory(round=match.round), "a", played, "k")
    assert error.value.code == "match_not_finished"


def test_a_penalty_can_decide_the_match_alone(tournament, match, organizer):
    tournament.late_minutes_per_game = 10
    tournament.save()
    late(match, organizer, "a", 45)  # 4 games, of which 2 decide the match
    answer = submit(match, "b", {"games": []}, "k1")
    assert answer.submission.summary["winner"] == "B"
    with pytest.raises(ScoringError) as error:
        submit(match, "b", {"games": [{"stones": [40, 10]}]}, "k2")
    assert error.value.code == "game_after_match"


def test_a_second_penalty_for_the_pair_replaces_the_first(tournament, match, organizer):
    tournament.late_minutes_per_game = 10
    tournament.save()
    late(match, organizer, "a", 25)
    late(match, organizer, "a", 9)
    assert list(LatePenalty.objects.values_list("minutes_late", "games_lost")) == [(9, 0)]
    audit = AuditEntry.objects.filter(match=match, action="late_penalty").first()
    assert audit.old["penalty"]["minutes_late"] == 25 and audit.new["penalty"]["games_lost"] == 0


def test_lateness_needs_the_tournament_rule_and_comes_before_the_result(match, organizer):
    with pytest.raises(Invalid) as error:
        late(match, organizer, "a", 20)
    assert error.value.code == "no_lateness_rule"
    tournament = match.round.phase.tournament
    tournament.late_minutes_per_game = 10
    tournament.save()
    submit(match, "a", A_WINS, "k1")
    with pytest.raises(Conflict) as error:
        late(match, organizer, "a", 20)
    assert error.value.code == "late_after_result"


# --- Hand by hand -----------------------------------------------------------------------------


@pytest.fixture
def short_match(tournament):
    """Games to 10 stones, 2 games a vaca: three órdagos can decide it."""
    return MatchFactory(round__phase__tournament=tournament, round__phase__stones_per_game=10)


def test_hands_start_the_match_and_give_the_running_score(short_match):
    answer = add_hand(short_match, PASO, "h1")
    match = fresh(short_match)
    assert match.status == Match.Status.IN_PROGRESS and match.started_at is not None
    assert answer.number == 1 and answer.state["version"] == 1
    assert answer.running["state"]["stones"] == answer.hand["stones"]
    assert answer.running["state"]["next_mano"] == "B1"
    assert AuditEntry.objects.get(match=match).action == "hand_added"


def test_a_hand_after_the_match_is_decided_is_refused_with_the_engine_message(short_match):
    for number in (1, 2, 3):
        answer = add_hand(short_match, ORDAGO, f"h{number}")
    assert answer.running["state"]["finished"] and answer.running["state"]["winner"] == "A"
    with pytest.raises(ScoringError) as error:
        add_hand(short_match, PASO, "h4")
    assert error.value.code == "match_over"
    assert error.value.message.startswith("Hand 4: The match is over")
    assert short_match.hands.count() == 3


def test_an_illegal_hand_is_refused_and_nothing_is_stored(short_match):
    with pytest.raises(ScoringError) as error:
        add_hand(short_match, {"cards": ["Ro Rc", "x"]}, "h1")
    assert error.value.message.startswith("Hand 1: ")
    assert not short_match.hands.exists() and fresh(short_match).version == 0


def test_a_retried_hand_is_recorded_once(short_match):
    first = add_hand(short_match, PASO, "h1")
    again = add_hand(short_match, PASO, "h1", version=0)
    assert again.replayed and again.number == 1 and again.state == first.state
    assert short_match.hands.count() == 1
    with pytest.raises(Conflict):
        add_hand(short_match, ORDAGO, "h1")


def test_undo_removes_the_last_hand(short_match):
    add_hand(short_match, PASO, "h1")
    add_hand(short_match, ORDAGO, "h2")
    svc.match_hand_undo(match=short_match, version=2, via="link")
    assert list(short_match.hands.values_list("number", flat=True)) == [1]
    audit = AuditEntry.objects.filter(match=short_match, action="hand_undone").get()
    assert audit.old["hand"] == 2 and audit.old["payload"] == ORDAGO
    assert fresh(short_match).version == 3
    with pytest.raises(StaleVersion):
        svc.match_hand_undo(match=short_match, version=2, via="link")


def test_undo_without_hands(short_match):
    with pytest.raises(Conflict) as error:
        svc.match_hand_undo(match=short_match, version=0, via="link")
    assert error.value.code == "no_hands"


def test_the_recorded_hands_are_submitted_and_confirmed(short_match):
    add_hand(short_match, ORDAGO, "h1")
    with pytest.raises(Invalid) as error:
        submit(short_match, "a", {"hands": "recorded"}, "s0")
    assert error.value.code == "hands_not_finished"
    add_hand(short_match, ORDAGO, "h2")
    add_hand(short_match, ORDAGO, "h3")
    answer = submit(short_match, "a", {"hands": "recorded"}, "s1")
    assert answer.submission.payload == {"hands": [ORDAGO] * 3, "recorded": True}
    with pytest.raises(Conflict) as error:
        add_hand(short_match, PASO, "h4")
    assert error.value.code == "result_already_entered"
    confirm(short_match, "b", "s2")
    match = fresh(short_match)
    assert match.winner_id == match.entry_a_id and (match.games_a, match.games_b) == (2, 1)


def test_a_retried_recorded_submission_is_a_replay(short_match):
    for number in (1, 2, 3):
        add_hand(short_match, ORDAGO, f"h{number}")
    first = submit(short_match, "a", {"hands": "recorded"}, "s1")
    assert submit(short_match, "a", {"hands": "recorded"}, "s1", version=3).replayed
    assert first.submission.pk == short_match.submissions.get().pk


def test_hands_follow_the_first_mano_and_a_late_penalty(tournament, short_match, organizer):
    tournament.late_minutes_per_game = 5
    tournament.save()
    short_match.first_mano = "B1"
    short_match.save()
    late(short_match, organizer, "a", 5)  # B won a game before the first hand
    answer = add_hand(short_match, ORDAGO, "h1")  # mano B1: B wins again, and the match
    state = answer.running["state"]
    assert [g["winner"] for g in state["games"]] == ["B", "B"] and state["winner"] == "B"
    assert answer.running["penalty_games"] == 1


def test_a_full_hand_list_can_be_submitted(short_match):
    answer = submit(short_match, "b", {"hands": [ORDAGO, ORDAGO, ORDAGO]}, "s1")
    assert answer.submission.summary["winner"] == "A"
    assert not HandEntry.objects.filter(match=short_match).exists()


# --- Round completion -------------------------------------------------------------------------


def test_the_round_notifies_its_organizers_once(
    tournament, organizer, django_capture_on_commit_callbacks
):
    rnd = RoundFactory(phase__tournament=tournament)
    MembershipFactory(club=tournament.club, user=UserFactory(email=""))  # no address: no mail
    MembershipFactory(club=tournament.club, user=UserFactory(), role="member")
    one = MatchFactory(round=rnd)
    two = MatchFactory(round=rnd)
    MatchFactory(round=rnd, entry_b=None, kind=Match.Kind.BYE)  # a bye counts as done
    submit(one, "a", A_WINS, "k1")
    confirm(one, "b", "k2")
    assert svc.round_completion_notify(round=rnd) is False
    submit(two, "organizer", B_WINS, "k3", via="account", actor=organizer)

    with django_capture_on_commit_callbacks(execute=True):
        assert svc.round_completion_notify(round=rnd) is True
    note = Notification.objects.get(tournament=tournament)
    assert note.kind == "round_complete" and f"round {rnd.number} is confirmed" in note.text
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [organizer.email]

    with django_capture_on_commit_callbacks(execute=True):
        assert svc.round_completion_notify(round=rnd) is False
    assert Notification.objects.count() == 1 and len(mail.outbox) == 1


def test_the_round_task_calls_the_service(tournament):
    rnd = RoundFactory(phase__tournament=tournament)
    MatchFactory(round=rnd, status=Match.Status.CONFIRMED)
    assert tasks.round_completion_check.delay(rnd.pk).get() is True
    assert tasks.round_completion_check(999_999) is False  # a round deleted meanwhile
