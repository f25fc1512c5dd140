"""Liguilla (round robin groups) and groups then knockout, drawn from the database."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from config.errors import Conflict
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    TournamentFactory,
    tournament_field,
)
from tournaments.models import Entry, Group, Match, Phase, Round
from tournaments.services.rounds import (
    bracket_advance,
    phase_advance,
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_entries_swap,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


field = tournament_field


def confirm(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 0) if a_wins else (0, 2)
    match.stones_a, match.stones_b = (80, 30) if a_wins else (30, 80)
    match.save()


def play(rnd: Round, organizer, *, close: bool = True) -> None:
    """Publish, confirm every match won by the better seed (lower entry id), close."""
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.exclude(kind=Match.Kind.BYE):
        confirm(m, min(m.entry_a_id, m.entry_b_id))
    if close:
        round_close(round=rnd, actor=organizer)


def liguilla(t, organizer, group_size: int) -> Phase:
    return phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=group_size
    )


def test_groups_spread_the_seeds_and_everybody_meets_every_group_mate_once():
    t, organizer, entries = field(10)
    phase = liguilla(t, organizer, group_size=4)
    first = round_draw_generate(phase=phase, actor=organizer)
    groups = list(Group.objects.filter(phase=phase).prefetch_related("entries"))
    assert [g.name for g in groups] == ["A", "B", "C"]
    members = {g.name: {e.id for e in g.entries.all()} for g in groups}
    assert sorted(len(m) for m in members.values()) == [3, 3, 4]
    top_seeds = {e.id for e in entries[:3]}
    assert all(len(top_seeds & m) == 1 for m in members.values())  # one top seed per group
    phase.refresh_from_db()
    assert phase.rounds_planned == 3
    assert phase.status == Phase.Status.RUNNING
    rounds = [first]
    play(first, organizer, close=False)
    while len(rounds) < phase.rounds_planned:
        rnd = round_draw_generate(phase=phase, actor=organizer)
        play(rnd, organizer, close=False)
        rounds.append(rnd)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "phase_rounds_done"
    met: Counter[frozenset] = Counter()
    for m in Match.objects.filter(round__phase=phase).select_related("group"):
        assert m.kind == Match.Kind.PLAYED  # a rest is not a match, and not a bye
        assert {m.entry_a_id, m.entry_b_id} <= members[m.group.name]
        assert m.reasons[0]["code"] == "round_robin"
        met[frozenset((m.entry_a_id, m.entry_b_id))] += 1
    expected = {frozenset(p) for m in members.values() for p in combinations(m, 2)}
    assert set(met) == expected and set(met.values()) == {1}


def test_pairs_of_one_pena_are_kept_in_different_groups():
    t = TournamentFactory(tables_available=0)
    organizer = MembershipFactory(club=t.club).user
    for club in [ClubFactory() for _ in range(3)]:
        for _ in range(3):
            EntryFactory(tournament=t, pair__club=club, status=Entry.Status.CHECKED_IN)
    phase = liguilla(t, organizer, group_size=3)
    round_draw_generate(phase=phase, actor=organizer)
    for group in Group.objects.filter(phase=phase).prefetch_related("entries__pair"):
        clubs = [e.pair.club_id for e in group.entries.all()]
        assert len(clubs) == len(set(clubs)) == 3


def test_liguilla_draws_the_next_round_once_the_previous_is_published():
    t, organizer, _ = field(4)
    phase = liguilla(t, organizer, group_size=4)
    first = round_draw_generate(phase=phase, actor=organizer)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "round_previous_draft"
    round_publish(round=first, actor=organizer)
    second = round_draw_generate(phase=phase, actor=organizer)
    assert second.number == 2


def test_liguilla_pairs_cannot_be_swapped():
    t, organizer, entries = field(4)
    phase = liguilla(t, organizer, group_size=4)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    a, b = rnd.matches.all()[:2]
    with pytest.raises(Conflict) as error:
        round_entries_swap(
            round=rnd, actor=organizer, entry_id=a.entry_a_id, other_entry_id=b.entry_a_id
        )
    assert error.value.code == "swap_round_robin"


def test_groups_then_knockout_crosses_1a_2b_and_1b_2a_and_plays_to_a_champion():
    t, organizer, entries = field(8)
    groups = liguilla(t, organizer, group_size=4)
    knockout = phase_create(
        tournament=t,
        actor=organizer,
        name="Eliminatoria",
        format="single_elimination",
        source_id=groups.id,
        qualifiers_per_group=2,
    )
    with pytest.raises(Conflict) as error:  # the groups come first
        round_draw_generate(phase=knockout, actor=organizer)
    assert error.value.code == "phase_previous_open"
    for _ in range(3):
        play(round_draw_generate(phase=groups, actor=organizer), organizer)
    standings_refresh(phase=groups)

    semis = phase_advance(phase=groups, actor=organizer)

    groups.refresh_from_db()
    knockout.refresh_from_db()
    assert groups.status == Phase.Status.FINISHED
    assert knockout.status == Phase.Status.RUNNING
    assert semis.phase_id == knockout.id and semis.number == 1
    # The better seed won every match: each group's two lowest ids are 1st and 2nd.
    ranked = {
        g.name: sorted(e.id for e in g.entries.all())
        for g in Group.objects.filter(phase=groups).prefetch_related("entries")
    }
    crossing = {}
    for m in semis.matches.all():
        (reason,) = m.reasons
        assert reason["code"] == "group_crossing"
        crossing[reason["params"]["label"], reason["params"]["opponent_label"]] = (
            m.entry_a_id,
            m.entry_b_id,
        )
    assert crossing == {
        ("1A", "2B"): (ranked["A"][0], ranked["B"][1]),
        ("1B", "2A"): (ranked["B"][0], ranked["A"][1]),
    }
    assert knockout.bracket["labels"] == ["1A", "1B", "2A", "2B"]

    play(semis, organizer)
    assert bracket_advance(phase=knockout) == 1
    final = Round.objects.get(phase=knockout, number=2)
    (match,) = final.matches.all()
    assert match.bracket_key == "W2-1"
    assert {match.entry_a_id, match.entry_b_id} == {ranked["A"][0], ranked["B"][0]}
    play(final, organizer)
    assert bracket_advance(phase=knockout) == 0
    phase_finish(phase=knockout, actor=organizer)
    knockout.refresh_from_db()
    assert knockout.status == Phase.Status.FINISHED


def test_a_knockout_drawn_from_a_swiss_takes_its_top_pairs():
    t, organizer, entries = field(6)
    swiss = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    knockout = phase_create(
        tournament=t,
        actor=organizer,
        name="Final a cuatro",
        format="single_elimination",
        source_id=swiss.id,
        qualifiers_per_group=4,
    )
    for _ in range(2):
        play(round_draw_generate(phase=swiss, actor=organizer), organizer)
    semis = phase_advance(phase=swiss, actor=organizer)
    knockout.refresh_from_db()
    assert semis.phase_id == knockout.id
    assert len(knockout.bracket["draw_order"]) == 4
    labels = {tuple(r["params"].values()) for m in semis.matches.all() for r in m.reasons}
    assert labels == {("1", "4"), ("2", "3")}  # one unnamed group: seeded by Swiss place
