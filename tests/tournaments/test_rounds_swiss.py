"""Swiss and a tres ceros rounds drawn from the database: several rounds, no rematch, byes."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from config.errors import Conflict, Invalid
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    TournamentFactory,
    tournament_field,
)
from tournaments.draw import DrawError
from tournaments.models import AuditEntry, Entry, Match, Phase, Round
from tournaments.services.rounds import drawing as rounds_drawing
from tournaments.services.rounds import (
    phase_create,
    phase_finish,
    phase_rules,
    round_close,
    round_draw_generate,
    round_publish,
)

pytestmark = pytest.mark.django_db


field = functools.partial(tournament_field, seeded=False)


def confirm(match: Match, winner_id: int) -> None:
    """What the results area does on confirmation; set directly on the row in these tests."""
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 1) if a_wins else (1, 2)
    match.stones_a, match.stones_b = (100, 90) if a_wins else (90, 100)
    match.vacas_a, match.vacas_b = (1, 0) if a_wins else (0, 1)
    match.save()


def play(rnd: Round, organizer, *, winner=min) -> None:
    """Publish, confirm every match (``winner`` picks from the two entry ids), close."""
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.exclude(kind=Match.Kind.BYE):
        confirm(m, winner(m.entry_a_id, m.entry_b_id))
    round_close(round=rnd, actor=organizer)


def pairings(rnd: Round) -> list[tuple[int, int | None]]:
    return [(m.entry_a_id, m.entry_b_id) for m in rnd.matches.order_by("id")]


def swiss(t, organizer, rounds=5, **options) -> Phase:
    return phase_create(
        tournament=t,
        actor=organizer,
        name="Suizo",
        format="swiss",
        rounds_planned=rounds,
        **options,
    )


def test_five_swiss_rounds_without_rematch_and_one_bye_each():
    t, organizer, entries = field(9)
    phase = swiss(t, organizer, rounds=5)
    met: Counter[frozenset] = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, 6):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        assert rnd.number == number and rnd.status == Round.Status.DRAFT
        matches = list(rnd.matches.all())
        assert len(matches) == 5  # 4 matches and the bye of an odd field
        playing = [e for m in matches for e in (m.entry_a_id, m.entry_b_id) if e]
        assert sorted(playing) == sorted(e.id for e in entries)  # everybody exactly once
        for m in matches:
            if m.entry_b_id is None:
                byes[m.entry_a_id] += 1
            else:
                met[frozenset((m.entry_a_id, m.entry_b_id))] += 1
        play(rnd, organizer)
    assert max(met.values()) == 1  # no rematch in five rounds of nine pairs
    assert sum(byes.values()) == 5 and max(byes.values()) == 1  # no second bye
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RUNNING
    phase_finish(phase=phase, actor=organizer)
    phase.refresh_from_db()
    assert phase.status == Phase.Status.FINISHED


def test_bye_is_a_confirmed_win_with_the_full_score_of_the_phase_format():
    t, organizer, _ = field(5, games_per_vaca=3, vacas_per_match=2)
    phase = swiss(t, organizer, rounds=3, games_per_vaca=4)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    bye = rnd.matches.get(entry_b=None)
    assert bye.kind == Match.Kind.BYE
    assert bye.status == Match.Status.CONFIRMED
    assert bye.winner_id == bye.entry_a_id
    assert bye.table_number is None
    # The phase's own games_per_vaca (4) with the tournament's vacas_per_match (2).
    assert (bye.games_a, bye.games_b, bye.vacas_a, bye.stones_a) == (8, 0, 2, 0)
    assert [r["code"] for r in bye.reasons] == ["bye", "lowest_ranked_eligible", "first_bye"]
    tables = sorted(rnd.matches.exclude(kind=Match.Kind.BYE).values_list("table_number", flat=True))
    assert tables == [1, 2]


def test_second_round_pairs_winners_with_winners_and_says_why():
    t, organizer, entries = field(8)
    phase = swiss(t, organizer, rounds=3)
    first = round_draw_generate(phase=phase, actor=organizer)
    play(first, organizer)
    winners = {m.winner_id for m in first.matches.all()}
    second = round_draw_generate(phase=phase, actor=organizer)
    for m in second.matches.all():
        assert (m.entry_a_id in winners) == (m.entry_b_id in winners)
        codes = [r["code"] for r in m.reasons]
        assert codes[0] == "same_score" and "not_met_before" in codes
    top = second.matches.get(table_number=1)
    assert top.reasons[0]["params"] == {"score": "1–0"}  # table 1 holds the top score group


def test_the_same_seed_gives_the_same_draw_and_another_seed_another():
    draws = []
    for seed in (7, 7, 8):
        t, organizer, entries = field(12, draw_seed=seed)
        phase = swiss(t, organizer)
        rnd = round_draw_generate(phase=phase, actor=organizer)
        index = {e.id: i for i, e in enumerate(entries)}
        draws.append([(index[a], index[b]) for a, b in pairings(rnd)])
    assert draws[0] == draws[1]
    assert draws[0] != draws[2]


def test_only_checked_in_entries_play_and_withdrawn_never():
    t, organizer, entries = field(6)
    late = EntryFactory(tournament=t, status=Entry.Status.REGISTERED)
    gone = EntryFactory(tournament=t, status=Entry.Status.WITHDRAWN)
    waiting = EntryFactory(tournament=t, status=Entry.Status.WAITING)
    rnd = round_draw_generate(phase=swiss(t, organizer), actor=organizer)
    playing = {e for pair in pairings(rnd) for e in pair if e}
    assert playing == {e.id for e in entries}
    assert not playing & {late.id, gone.id, waiting.id}


def test_registered_entries_play_when_nobody_checked_in():
    t, organizer, entries = field(4, entry_status=Entry.Status.REGISTERED)
    EntryFactory(tournament=t, status=Entry.Status.WAITING)
    rnd = round_draw_generate(phase=swiss(t, organizer), actor=organizer)
    assert {e for pair in pairings(rnd) for e in pair} == {e.id for e in entries}


def test_a_pair_that_withdraws_is_not_paired_again():
    t, organizer, entries = field(6)
    phase = swiss(t, organizer)
    play(round_draw_generate(phase=phase, actor=organizer), organizer)
    entries[0].status = Entry.Status.WITHDRAWN
    entries[0].save()
    second = round_draw_generate(phase=phase, actor=organizer)
    playing = [e for pair in pairings(second) for e in pair if e]
    assert entries[0].id not in playing and len(playing) == 5


def test_next_round_only_after_the_previous_is_closed():
    t, organizer, _ = field(4)
    phase = swiss(t, organizer, rounds=2)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "round_previous_open"
    play(rnd, organizer)
    play(round_draw_generate(phase=phase, actor=organizer), organizer)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "phase_rounds_done"
    assert Round.objects.filter(phase=phase).count() == 2


def test_an_organizer_who_loses_the_race_to_draw_a_round_is_told_so(monkeypatch):
    """Somebody else draws round 1 while this request waits for the phase's lock: it gets
    round_drawn_twice, not "round 1 is not closed" (test_rounds_race.py races two threads on
    PostgreSQL; here the other draw runs between the request's first read and its lock)."""
    t, organizer, _ = field(4)
    phase = swiss(t, organizer, rounds=2)
    lock = rounds_drawing._lock_phase

    def lock_after_somebody_else_drew(phase_id: int) -> Phase:
        monkeypatch.setattr(rounds_drawing, "_lock_phase", lock)
        round_draw_generate(phase=phase, actor=organizer)
        return lock(phase_id)

    monkeypatch.setattr(rounds_drawing, "_lock_phase", lock_after_somebody_else_drew)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "round_drawn_twice"
    assert error.value.params == {"round": 1, "phase": phase.name}
    assert error.value.message == (
        f"Round 1 of {phase.name} was drawn at the same time by somebody else; reload the page."
    )


def test_phase_cannot_finish_before_its_rounds_are_played():
    t, organizer, _ = field(4)
    phase = swiss(t, organizer, rounds=2)
    with pytest.raises(Conflict) as error:
        phase_finish(phase=phase, actor=organizer)
    assert error.value.code == "phase_not_started"
    rnd = round_draw_generate(phase=phase, actor=organizer)
    with pytest.raises(Conflict) as error:
        phase_finish(phase=phase, actor=organizer)
    assert error.value.code == "phase_rounds_open"
    play(rnd, organizer)
    with pytest.raises(Conflict) as error:
        phase_finish(phase=phase, actor=organizer)
    assert error.value.code == "phase_rounds_left"


def test_club_mates_are_kept_apart_in_the_first_rounds():
    t = TournamentFactory(tables_available=0)
    organizer = MembershipFactory(club=t.club).user
    clubs = [ClubFactory() for _ in range(4)]
    for club in clubs:
        for _ in range(2):
            EntryFactory(tournament=t, pair__club=club, status=Entry.Status.CHECKED_IN)
    phase = swiss(t, organizer, rounds=3, separate_clubs_rounds=1)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    for m in rnd.matches.select_related("entry_a__pair", "entry_b__pair"):
        assert m.entry_a.pair.club_id != m.entry_b.pair.club_id


def test_a_draw_is_recorded_in_the_audit_trail():
    t, organizer, entries = field(4)
    phase = swiss(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    entry = AuditEntry.objects.get(tournament=t, action="round_drawn")
    assert entry.actor == organizer
    drawn = sorted(e.pk for e in entries)  # every pair: an archive's import checks the round
    assert entry.new == {"phase": phase.id, "round": rnd.id, "number": 1, "entries": drawn}


def test_a_draw_with_too_few_pairs_is_refused_and_leaves_nothing():
    t, organizer, _ = field(1)
    phase = swiss(t, organizer)
    with pytest.raises(DrawError) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "too_few_entrants"
    assert not Round.objects.filter(phase=phase).exists()
    phase.refresh_from_db()
    assert phase.status == Phase.Status.PENDING


def test_a_tres_ceros_pairs_by_losses_until_one_pair_is_left():
    t, organizer, entries = field(4)
    phase = phase_create(tournament=t, actor=organizer, name="A tres ceros", format="lives")
    # Seeded order decides: the lower entry id always wins, so the top pair never loses.
    rounds = 0
    while True:
        try:
            rnd = round_draw_generate(phase=phase, actor=organizer)
        except DrawError as error:  # the draw says the phase is over
            assert error.code == "lives_over"
            break
        rounds += 1
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            codes = {r["code"] for r in m.reasons}
            assert codes & {"same_losses", "loss_float"}
        play(rnd, organizer)
        assert rounds < 20
    losses = Counter()
    for m in Match.objects.filter(round__phase=phase).exclude(kind=Match.Kind.BYE):
        losses[m.entry_b_id if m.winner_id == m.entry_a_id else m.entry_a_id] += 1
    out = [e.id for e in entries if losses[e.id] >= 3]
    assert len(out) == 3  # every pair but one has its three ceros
    assert max(losses.values()) == 3  # nobody plays on after the third
    phase_finish(phase=phase, actor=organizer)


def test_phase_create_checks_each_format_options():
    t, organizer, _ = field(2)
    cases = [
        ({"format": "swiss"}, "phase_rounds_planned"),
        ({"format": "round_robin"}, "phase_group_size"),
        ({"format": "round_robin", "group_size": 1}, "phase_group_size"),
        ({"format": "lives", "lives": 0}, "phase_lives"),
        ({"format": "poker"}, "phase_format"),
        ({"format": "swiss", "rounds_planned": 3, "third_place": True}, "phase_third_place"),
        ({"format": "swiss", "rounds_planned": 3, "stones_per_game": 5}, "phase_rules"),
        ({"format": "swiss", "rounds_planned": 3, "source_id": 999}, "phase_source_format"),
        ({"format": "single_elimination", "source_id": 999}, "phase_source_unknown"),
        (
            {"format": "single_elimination", "qualifiers_per_group": 2},
            "phase_qualifiers_without_source",
        ),
    ]
    for options, code in cases:
        with pytest.raises(Invalid) as error:
            phase_create(tournament=t, actor=organizer, name="Fase", **options)
        assert error.value.code == code, options
    assert not Phase.objects.filter(tournament=t).exists()


def test_phases_are_added_in_order_with_their_match_format():
    t, organizer, _ = field(2, stones_per_game=40, games_per_vaca=3, vacas_per_match=1)
    first = swiss(t, organizer)
    final = phase_create(
        tournament=t,
        actor=organizer,
        name="Final",
        format="single_elimination",
        vacas_per_match=3,
    )
    assert (first.order, final.order) == (1, 2)
    rules = phase_rules(final)
    assert (rules.stones_per_game, rules.games_per_vaca, rules.vacas_per_match) == (40, 3, 3)
    assert phase_rules(first).vacas_per_match == 1
