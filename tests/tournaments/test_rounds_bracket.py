"""Elimination brackets in the database: seeding, byes, bracket_advance to a champion."""

from __future__ import annotations

import pytest

from config.errors import Conflict, NotFound
from tests.factories import tournament_field
from tournaments.models import AuditEntry, Match, Notification, Phase, Round, Tournament
from tournaments.selectors.rounds import bracket_for_phase
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_entries_swap,
    round_publish,
)
from tournaments.services.tournaments import tournament_status_change

pytestmark = pytest.mark.django_db


field = tournament_field


def confirm(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 0) if a_wins else (0, 2)
    match.save()


def knockout(t, organizer, fmt="single_elimination", **options) -> Phase:
    return phase_create(tournament=t, actor=organizer, name="Cuadro", format=fmt, **options)


def run(phase: Phase, organizer, pick) -> list[Round]:
    """Play the bracket to its end: publish each round, confirm its matches with ``pick(m)``,
    close it, and let bracket_advance create the next (as the result_confirmed task does)."""
    played = [round_draw_generate(phase=phase, actor=organizer)]
    while True:
        rnd = played[-1]
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            confirm(m, pick(m))
            bracket_advance(phase=phase)
        round_close(round=rnd, actor=organizer)
        following = Round.objects.filter(phase=phase, number=rnd.number + 1).first()
        if following is None:
            return played
        played.append(following)


def test_five_pairs_give_the_three_top_seeds_a_bye():
    t, organizer, entries = field(5)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    phase.refresh_from_db()
    assert phase.bracket["size"] == 8
    byes = rnd.matches.filter(kind=Match.Kind.BYE)
    assert {m.entry_a_id for m in byes} == {entries[0].id, entries[1].id, entries[2].id}
    assert all(m.status == Match.Status.CONFIRMED and m.winner_id == m.entry_a_id for m in byes)
    assert {m.reasons[0]["code"] for m in byes} == {"top_seed_bye"}
    (played,) = rnd.matches.exclude(kind=Match.Kind.BYE)
    assert {played.entry_a_id, played.entry_b_id} == {entries[3].id, entries[4].id}  # 4 v 5
    assert played.table_number == 1 and played.bracket_key.startswith("W1-")


def test_single_elimination_runs_to_a_champion_through_bracket_advance():
    t, organizer, entries = field(6)
    phase = knockout(t, organizer, third_place=True)
    seed = {e.id: e.seed for e in entries}
    rounds = run(phase, organizer, pick=lambda m: min((m.entry_a_id, m.entry_b_id), key=seed.get))
    assert [r.number for r in rounds] == [1, 2, 3]
    final = Match.objects.get(round__phase=phase, bracket_key="W3-1")
    third = Match.objects.get(round__phase=phase, bracket_key="3P")
    assert final.round.number == third.round.number == 3
    assert final.winner_id == entries[0].id
    assert {final.entry_a_id, final.entry_b_id} == {entries[0].id, entries[1].id}
    assert {third.entry_a_id, third.entry_b_id} == {entries[2].id, entries[3].id}
    assert bracket_advance(phase=phase) == 0  # idempotent: nothing left to create
    # Round 1: 2 byes and 2 matches; round 2: 2 semi-finals; round 3: final and 3P.
    assert Match.objects.filter(round__phase=phase).count() == 4 + 2 + 2
    phase_finish(phase=phase, actor=organizer)
    phase.refresh_from_db()
    view = bracket_for_phase(phase=phase, user=organizer)
    assert view["champion_id"] == entries[0].id


def test_bracket_advance_waits_for_the_whole_round_and_never_creates_twice():
    t, organizer, entries = field(8)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    matches = list(rnd.matches.order_by("bracket_key"))
    for m in matches[:3]:
        confirm(m, m.entry_a_id)
        assert bracket_advance(phase=phase) == 0  # W1-4 still to play
    confirm(matches[3], matches[3].entry_b_id)
    assert bracket_advance(phase=phase) == 2
    assert bracket_advance(phase=phase) == 0
    second = Round.objects.get(phase=phase, number=2)
    assert second.status == Round.Status.DRAFT
    assert sorted(second.matches.values_list("table_number", flat=True)) == [1, 2]
    keys = sorted(second.matches.values_list("bracket_key", flat=True))
    assert keys == ["W2-1", "W2-2"]
    created = AuditEntry.objects.filter(action="bracket_match_created")
    assert sorted(a.new["bracket_key"] for a in created) == keys
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "round_bracket_automatic"


def test_a_corrected_result_repoints_the_next_match_before_it_starts():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    first, second = rnd.matches.order_by("bracket_key")
    confirm(first, first.entry_a_id)
    confirm(second, second.entry_a_id)
    bracket_advance(phase=phase)
    final = Match.objects.get(round__phase=phase, bracket_key="W2-1")
    assert first.entry_a_id in (final.entry_a_id, final.entry_b_id)
    confirm(first, first.entry_b_id)  # the organizer corrects the semi-final
    assert bracket_advance(phase=phase) == 0
    final.refresh_from_db()
    assert {final.entry_a_id, final.entry_b_id} == {first.entry_b_id, second.entry_a_id}
    assert AuditEntry.objects.filter(action="bracket_match_repointed", match=final).exists()


def test_a_correction_contradicting_a_later_result_notifies_the_organizers():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    first, second = rnd.matches.order_by("bracket_key")
    confirm(first, first.entry_a_id)
    confirm(second, second.entry_a_id)
    bracket_advance(phase=phase)
    final = Match.objects.get(round__phase=phase, bracket_key="W2-1")
    confirm(final, first.entry_a_id)
    confirm(first, first.entry_b_id)  # now the final's winner did not reach it
    assert bracket_advance(phase=phase) == 0
    note = Notification.objects.get(tournament=t, kind="bracket_conflict")
    assert "W2-1" in note.text


def test_double_elimination_with_reset_runs_to_a_champion():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer, fmt="double_elimination")
    seed = {e.id: e.seed for e in entries}

    def pick(m):
        # The top seed loses only the first grand final, so the reset is played.
        better = min((m.entry_a_id, m.entry_b_id), key=seed.get)
        worse = max((m.entry_a_id, m.entry_b_id), key=seed.get)
        return worse if m.bracket_key == "GF1" else better

    rounds = run(phase, organizer, pick)
    keys = list(
        Match.objects.filter(round__phase=phase)
        .order_by("round__number", "bracket_key")
        .values_list("round__number", "bracket_key")
    )
    assert ("GF1" in [k for _, k in keys]) and ("GF2" in [k for _, k in keys])
    losers = [k for _, k in keys if k.startswith("L")]
    assert losers  # the losers' bracket (repesca) was played
    phase.refresh_from_db()
    view = bracket_for_phase(phase=phase, user=organizer)
    assert view["champion_id"] == entries[0].id
    assert len(rounds) == max(n for n, _ in keys)
    phase_finish(phase=phase, actor=organizer)


def test_double_elimination_without_reset_ends_at_the_first_grand_final():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer, fmt="double_elimination", grand_final_reset=False)
    seed = {e.id: e.seed for e in entries}
    run(phase, organizer, lambda m: min((m.entry_a_id, m.entry_b_id), key=seed.get))
    keys = set(Match.objects.filter(round__phase=phase).values_list("bracket_key", flat=True))
    assert "GF1" in keys and "GF2" not in keys


def test_phase_cannot_finish_before_the_bracket_has_a_champion():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.all():
        confirm(m, m.entry_a_id)
    round_close(round=rnd, actor=organizer)
    with pytest.raises(Conflict) as error:
        phase_finish(phase=phase, actor=organizer)
    assert error.value.code == "phase_bracket_undecided"


def test_first_round_swap_updates_the_bracket_and_later_rounds_follow_it():
    t, organizer, entries = field(4)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    first, second = rnd.matches.order_by("bracket_key")
    moving, other = first.entry_a_id, second.entry_b_id
    round_entries_swap(round=rnd, actor=organizer, entry_id=moving, other_entry_id=other)
    phase.refresh_from_db()
    first.refresh_from_db()
    second.refresh_from_db()
    assert other in (first.entry_a_id, first.entry_b_id)
    assert moving in (second.entry_a_id, second.entry_b_id)
    confirm(first, other)
    confirm(second, moving)
    assert bracket_advance(phase=phase) == 1  # the bracket knows the swap
    final = Match.objects.get(round__phase=phase, bracket_key="W2-1")
    assert {final.entry_a_id, final.entry_b_id} == {moving, other}
    later = Round.objects.get(phase=phase, number=2)
    with pytest.raises(Conflict) as error:
        round_entries_swap(round=later, actor=organizer, entry_id=moving, other_entry_id=other)
    assert error.value.code == "swap_bracket_later_round"


def test_bracket_view_hides_draft_pairs_from_the_public():
    t, organizer, entries = field(4, is_public=True)
    phase = knockout(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    phase.refresh_from_db()
    public = bracket_for_phase(phase=phase, user=None)
    first = public["matches"][0]
    assert first["match"] is None and first["a"]["entry_id"] is None
    assert public["entries"] == []
    round_publish(round=rnd, actor=organizer)
    public = bracket_for_phase(phase=phase, user=None)
    shown = [m for m in public["matches"] if m["match"]]
    assert len(shown) == 2 and all(m["a"]["entry_id"] for m in shown)
    assert {e["id"] for e in public["entries"]} == {e.id for e in entries}
    final = next(m for m in public["matches"] if m["id"] == "W2-1")
    assert final["a"]["winner_of"] == "W1-1" and final["a"]["entry_id"] is None


def test_a_phase_without_a_bracket_has_no_bracket_view():
    t, organizer, _ = field(4)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    with pytest.raises(NotFound):
        bracket_for_phase(phase=phase, user=organizer)


# --- Finishing the tournament finishes its phases --------------------------------------------


def _running(t):
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    t.refresh_from_db()
    return t


@pytest.mark.postgres
def test_a_tournament_with_its_final_unplayed_cannot_finish_and_the_final_stays_playable():
    """Issue 23 #3: finishing a tournament whose knockout final was not played left it stuck
    (the phase could not finish, the final could not be played)."""
    t, organizer, entries = field(4)
    t = _running(t)
    phase = knockout(t, organizer)
    first = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=first, actor=organizer)
    for m in first.matches.all():
        confirm(m, m.entry_a_id)
    bracket_advance(phase=phase)
    round_close(round=first, actor=organizer)
    final_round = Round.objects.get(phase=phase, number=2)
    round_publish(round=final_round, actor=organizer)

    with pytest.raises(Conflict) as error:
        tournament_status_change(tournament=t, actor=organizer, status="finished")
    assert error.value.code == "tournament_phase_open"
    assert error.value.params["phase"] == "Cuadro"
    assert error.value.params["reason"].code == "phase_rounds_open"
    assert "Round 2 of Cuadro is not closed" in error.value.message
    t.refresh_from_db()
    phase.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and phase.status == Phase.Status.RUNNING

    # the final is still played, and then the tournament finishes with its phase
    (final,) = final_round.matches.all()
    confirm(final, final.entry_a_id)
    round_close(round=final_round, actor=organizer)
    tournament_status_change(tournament=t, actor=organizer, status="finished")
    t.refresh_from_db()
    phase.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and phase.status == Phase.Status.FINISHED
    assert bracket_for_phase(phase=phase, user=organizer)["champion_id"] == final.entry_a_id
    assert AuditEntry.objects.filter(action="phase_finished", new__phase=phase.pk).count() == 1


@pytest.mark.postgres
def test_a_bracket_without_its_champion_refuses_to_finish_the_tournament():
    t, organizer, _ = field(4)
    t = _running(t)
    phase = knockout(t, organizer)
    first = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=first, actor=organizer)
    for m in first.matches.all():
        confirm(m, m.entry_a_id)
    round_close(round=first, actor=organizer)  # the final is not created yet
    with pytest.raises(Conflict) as error:
        tournament_status_change(tournament=t, actor=organizer, status="finished")
    assert error.value.params["reason"].code == "phase_bracket_undecided"
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING


@pytest.mark.postgres
def test_finishing_ends_a_swiss_early_and_leaves_a_phase_never_drawn():
    t, organizer, entries = field(4)
    t = _running(t)
    swiss = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    later = knockout(t, organizer)
    rnd = round_draw_generate(phase=swiss, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.all():
        confirm(m, m.entry_a_id)
    round_close(round=rnd, actor=organizer)
    tournament_status_change(tournament=t, actor=organizer, status="finished")
    swiss.refresh_from_db()
    later.refresh_from_db()
    assert swiss.status == Phase.Status.FINISHED  # 1 of its 3 rounds: ended early
    assert later.status == Phase.Status.PENDING  # never drawn: nothing of it was played
    audit = AuditEntry.objects.get(action="phase_finished")
    assert audit.new == {"phase": swiss.pk, "with_tournament": True}
