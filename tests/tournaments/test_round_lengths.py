"""Match length per stage and per round, on the database: a knockout whose quarter-finals and
semi-finals are the best of 3 games and whose final is the best of 5, played to the end through
the results services; a group stage to 40 stones and a knockout to 30; the organizer changing a
round's length (refused once it is played; byes rewritten); what the engine says when a result
does not fit the round's length. Races on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections

from config.errors import Conflict, Forbidden, Invalid
from tests.factories import UserFactory, tournament_field
from tournaments.draw import DrawError
from tournaments.models import AuditEntry, Match, Phase, Round, Tournament
from tournaments.selectors.rounds import round_length_values, round_rules
from tournaments.services import results
from tournaments.services.lengths import phase_round_lengths_set
from tournaments.services.rounds import (
    bracket_advance,
    phase_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db

BEST_OF_3 = {"games_per_vaca": 2}
BEST_OF_5 = {"games_per_vaca": 3}
BASES = {"quarterfinal": BEST_OF_3, "semifinal": BEST_OF_3, "final": BEST_OF_5}


def games(won: int, lost: int, target: int = 40) -> dict:
    """A result of pair A winning ``won`` games to ``lost``, the last game A's."""
    rows = [{"stones": [target, 10]}] * (won - 1) + [{"stones": [12, target]}] * lost
    return {"games": [*rows, {"stones": [target, 20]}]}


def enter(match: Match, payload: dict, organizer, key: str):
    """The organizer's result (official at once), as the desk's form and the API send it."""
    match = Match.objects.get(pk=match.pk)
    return results.match_result_submit(
        match=match,
        side="organizer",
        payload=payload,
        idempotency_key=key,
        version=match.version,
        via="account",
        actor=organizer,
    )


def play_round(rnd: Round, organizer, payload: dict) -> None:
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.exclude(kind=Match.Kind.BYE).order_by("pk"):
        enter(m, payload, organizer, f"r{rnd.pk}-m{m.pk}")
    round_close(round=rnd, actor=organizer)


def knockout_of_8(**phase):
    t, organizer, entries = tournament_field(8, status=Tournament.Status.RUNNING, games_per_vaca=4)
    ko = phase_create(
        tournament=t,
        actor=organizer,
        name="Cuadro",
        format="single_elimination",
        round_lengths=BASES,
        **phase,
    )
    return t, organizer, entries, ko


def test_quarters_and_semis_best_of_3_the_final_best_of_5_played_to_the_end():
    t, organizer, entries, ko = knockout_of_8()
    quarters = round_draw_generate(phase=ko, actor=organizer)
    ko.refresh_from_db()
    assert round_length_values(ko, 1)["games_per_vaca"] == 2
    # the quarter-finals refuse the final's length, naming theirs
    round_publish(round=quarters, actor=organizer)
    first = quarters.matches.order_by("pk").first()
    with pytest.raises(Invalid) as refused:
        enter(first, games(3, 0), organizer, "too-long")
    assert refused.value.code == "result_stage_length"
    assert refused.value.params["stage"] == "the quarter-finals"
    assert refused.value.params["games"] == 2
    assert refused.value.params["reason"].code == "game_after_match"
    for m in quarters.matches.order_by("pk"):
        enter(m, games(2, 1), organizer, f"q{m.pk}")
    round_close(round=quarters, actor=organizer)
    assert bracket_advance(phase=ko) == 2
    semis = Round.objects.get(phase=ko, number=2)
    play_round(semis, organizer, games(2, 0))
    assert bracket_advance(phase=ko) == 1
    final_round = Round.objects.get(phase=ko, number=3)
    (final,) = final_round.matches.all()
    assert round_rules(ko, 3).games_per_vaca == 3
    round_publish(round=final_round, actor=organizer)
    # a best of 3 does not finish the final: refused with the final's length named
    with pytest.raises(Invalid) as short:
        enter(final, games(2, 0), organizer, "too-short")
    assert short.value.code == "result_stage_length"
    assert short.value.params["stage"] == "the final"
    assert short.value.params["games"] == 3
    assert short.value.params["reason"].code == "match_not_finished"
    # the longer final is accepted
    answer = enter(final, games(3, 2), organizer, "final")
    final.refresh_from_db()
    assert final.status == Match.Status.CONFIRMED
    assert (final.games_a, final.games_b) == (3, 2)
    assert answer.match.winner_id == final.entry_a_id
    assert [m.games_a + m.games_b for m in Match.objects.filter(round__phase=ko)] == [3] * 4 + [
        2
    ] * 2 + [5]


def test_a_group_stage_to_40_and_a_knockout_to_30():
    t, organizer, entries = tournament_field(8, status=Tournament.Status.RUNNING)
    groups = phase_create(
        tournament=t, actor=organizer, name="Grupos", format="round_robin", group_size=4
    )
    ko = phase_create(
        tournament=t,
        actor=organizer,
        name="Eliminatoria",
        format="single_elimination",
        source_id=groups.id,
        qualifiers_per_group=2,
        stones_per_game=30,
    )
    for _ in range(3):
        play_round(round_draw_generate(phase=groups, actor=organizer), organizer, games(2, 1))
    assert Match.objects.filter(round__phase=groups, stones_a__gte=80).count() == 12
    standings_refresh(phase=groups)
    semis = phase_advance(phase=groups, actor=organizer)
    ko.refresh_from_db()
    round_publish(round=semis, actor=organizer)
    first = semis.matches.order_by("pk").first()
    # a game to 40 stones in a round to 30: both pairs past the target
    with pytest.raises(Invalid) as refused:
        enter(first, {"games": [{"stones": [40, 35]}, {"stones": [40, 35]}]}, organizer, "40")
    assert refused.value.code == "result_stage_length"
    assert refused.value.params["stones"] == 30
    assert refused.value.params["stage"] == "the semi-finals"
    for m in semis.matches.order_by("pk"):
        enter(m, games(2, 1, target=30), organizer, f"s{m.pk}")
    round_close(round=semis, actor=organizer)
    assert bracket_advance(phase=ko) == 1
    final_round = Round.objects.get(phase=ko, number=2)
    play_round(final_round, organizer, games(2, 0, target=30))
    (final,) = final_round.matches.all()
    final.refresh_from_db()
    assert final.status == Match.Status.CONFIRMED and final.stones_a == 60


def test_an_ordinary_tournament_keeps_the_engines_own_refusal():
    t, organizer, entries = tournament_field(2, status=Tournament.Status.RUNNING)
    ko = phase_create(tournament=t, actor=organizer, name="Final", format="single_elimination")
    rnd = round_draw_generate(phase=ko, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    (m,) = rnd.matches.all()
    from scoring import ScoringError

    with pytest.raises(ScoringError) as refused:
        enter(m, games(3, 0), organizer, "long")
    assert refused.value.code == "game_after_match"


def test_other_phases_take_a_length_per_round_number():
    t, organizer, entries = tournament_field(4, status=Tournament.Status.RUNNING)
    swiss = phase_create(
        tournament=t,
        actor=organizer,
        name="Suizo",
        format="swiss",
        rounds_planned=2,
        round_lengths={"2": {"vacas_per_match": 2}},
    )
    first = round_draw_generate(phase=swiss, actor=organizer)
    play_round(first, organizer, games(2, 1))
    second = round_draw_generate(phase=swiss, actor=organizer)
    round_publish(round=second, actor=organizer)
    m = second.matches.order_by("pk").first()
    with pytest.raises(Invalid) as refused:
        enter(m, games(2, 0), organizer, "one-vaca")
    assert refused.value.code == "result_round_length"
    assert (refused.value.params["round"], refused.value.params["count"]) == (2, 2)
    enter(m, {"games": games(2, 0)["games"] * 2}, organizer, "two-vacas")
    m.refresh_from_db()
    assert (m.vacas_a, m.games_a) == (2, 4)


def test_the_organizer_changes_a_rounds_length_until_it_is_played():
    t, organizer, entries = tournament_field(5, status=Tournament.Status.RUNNING)
    ko = phase_create(tournament=t, actor=organizer, name="Cuadro", format="single_elimination")
    first = round_draw_generate(phase=ko, actor=organizer)
    bye = first.matches.filter(kind=Match.Kind.BYE).first()
    assert bye.games_a == 2  # the tournament's best of 3
    # 5 pairs: the bracket of 8 plays quarter-finals, semi-finals and the final
    ko = phase_round_lengths_set(
        phase=ko, actor=organizer, round_lengths={"quarterfinal": BEST_OF_5, "final": BEST_OF_5}
    )
    bye.refresh_from_db()
    assert bye.games_a == 3  # a bye wins the round's full length
    audit = AuditEntry.objects.get(action="phase_round_lengths")
    assert audit.new["round_lengths"] == {"quarterfinal": BEST_OF_5, "final": BEST_OF_5}
    round_publish(round=first, actor=organizer)
    (played,) = first.matches.exclude(kind=Match.Kind.BYE)
    enter(played, games(3, 1), organizer, "q")
    with pytest.raises(Conflict) as refused:
        phase_round_lengths_set(phase=ko, actor=organizer, round_lengths={"final": BEST_OF_5})
    assert refused.value.code == "round_length_played"
    assert refused.value.params["round"] == 1
    # the final's length can still change: its round is not played
    phase_round_lengths_set(
        phase=ko,
        actor=organizer,
        round_lengths={"quarterfinal": BEST_OF_5, "final": {"games_per_vaca": 4}},
    )
    ko.refresh_from_db()
    assert ko.settings["round_lengths"]["final"] == {"games_per_vaca": 4}


def test_lengths_are_checked_and_only_an_organizer_sets_them():
    t, organizer, entries = tournament_field(4, status=Tournament.Status.RUNNING)
    ko = phase_create(tournament=t, actor=organizer, name="Cuadro", format="single_elimination")
    for value, code in (
        ({"semis": BEST_OF_3}, "round_lengths_stage"),
        ({"final": {"games_per_vaca": 12}}, "round_length_rules"),
        ({"final": {"stones_per_game": 5}}, "round_length_rules"),
        ({"3": BEST_OF_3}, "round_lengths_stage"),
    ):
        with pytest.raises((Invalid, DrawError)) as refused:
            phase_round_lengths_set(phase=ko, actor=organizer, round_lengths=value)
        assert refused.value.code == code
    with pytest.raises(DrawError) as refused:
        phase_create(
            tournament=t,
            actor=organizer,
            name="Suizo",
            format="swiss",
            rounds_planned=2,
            round_lengths={"final": BEST_OF_5},
        )
    assert refused.value.code == "round_lengths_number"
    with pytest.raises(Forbidden):
        phase_round_lengths_set(phase=ko, actor=UserFactory(), round_lengths={})
    assert not AuditEntry.objects.filter(action="phase_round_lengths").exists()
    ko.status = Phase.Status.FINISHED
    ko.save()
    with pytest.raises(Conflict) as refused:
        phase_round_lengths_set(phase=ko, actor=organizer, round_lengths={"final": BEST_OF_5})
    assert refused.value.code == "round_lengths_phase_finished"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_length_change_and_a_result_at_once_never_leave_a_result_of_the_old_length():
    t, organizer, entries = tournament_field(2, status=Tournament.Status.RUNNING)
    ko = phase_create(tournament=t, actor=organizer, name="Final", format="single_elimination")
    rnd = round_draw_generate(phase=ko, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    (m,) = rnd.matches.all()
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def change():
        barrier.wait()
        try:
            phase_round_lengths_set(phase=ko, actor=organizer, round_lengths={"final": BEST_OF_5})
            outcomes["change"] = "done"
        except Conflict as error:
            outcomes["change"] = error.code
        finally:
            close_old_connections()

    def result():
        barrier.wait()
        try:
            enter(m, games(2, 0), organizer, "final")
            outcomes["result"] = "done"
        except (Invalid, Exception) as error:  # noqa: BLE001 - the race's loser is named below
            outcomes["result"] = getattr(error, "code", repr(error))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=change), threading.Thread(target=result)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    m.refresh_from_db()
    ko.refresh_from_db()
    length = round_rules(ko, 1).games_per_vaca
    if m.status == Match.Status.CONFIRMED:
        # the result came first: the change was refused, the best of 3 stands
        assert outcomes["change"] == "round_length_played" and length == 2
    else:
        # the change came first: the best of 3 was refused for the final's new length
        assert outcomes["result"] == "result_stage_length" and length == 3


def test_an_archive_carries_the_lengths_and_refuses_lengths_it_cannot_mean():
    # an archive of before the lengths has none: tests/test_golden.py imports one whole
    from tests.tournaments.test_archive_bases import wipe
    from tournaments.archive import checksum
    from tournaments.selectors.archive import tournament_archive
    from tournaments.services.archive import archive_import

    t, organizer, entries, ko = knockout_of_8()
    round_draw_generate(phase=ko, actor=organizer)
    for number, payload in ((1, games(2, 1)), (2, games(2, 0)), (3, games(3, 1))):
        play_round(Round.objects.get(phase=ko, number=number), organizer, payload)
        bracket_advance(phase=ko)
    archive = tournament_archive(tournament=t)
    wipe(t.club)
    (imported,) = archive_import(raw=archive, actor=organizer).tournaments
    phase = imported.phases.get()
    assert phase.settings["round_lengths"] == BASES
    final = Match.objects.get(round__phase=phase, bracket_key="W3-1")
    assert (final.games_a, final.games_b) == (3, 1)  # derived again at the final's length

    # lengths an archive cannot mean are refused, naming where
    damaged = tournament_archive(tournament=imported)
    wipe(imported.club)
    damaged["tournaments"][0]["phases"][0]["settings"]["round_lengths"] = {"final": {"x": 1}}
    damaged["checksum"] = checksum(damaged)
    with pytest.raises(Invalid) as refused:
        archive_import(raw=damaged, actor=organizer)
    assert refused.value.code == "archive_value"
    assert refused.value.params["field"] == "settings"
