"""A tournament's plan, end to end on the database (tournaments.services.plans and rounds):
phases fed by entrants rules, groups seeded by results at unequal sizes, a partial round
robin, a Cuadro B played beside the final phase, a tres ceros in each group, the plan checked
when the tournament starts, a pair moved between groups, and the plan exported, imported and
saved as a peña's preset."""

from __future__ import annotations

from itertools import combinations

import pytest

from config.errors import Conflict, Invalid
from tests.factories import tournament_field
from tournaments.draw import DrawError
from tournaments.models import AuditEntry, Group, Match, Phase, PlanPreset, Round, Tournament
from tournaments.selectors.plans import BUILT_IN_PLANS, plan_of, plan_picture
from tournaments.services.plans import (
    phase_group_move,
    plan_import,
    plan_preset_apply,
    plan_preset_save,
)
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.tournaments import tournament_status_change

pytestmark = pytest.mark.django_db


def confirm(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 0) if a_wins else (0, 2)
    match.stones_a, match.stones_b = (80, 30) if a_wins else (30, 80)
    match.save()


def play(rnd: Round, organizer, *, close: bool = True) -> None:
    """Publish, the better seed (lower entry id) wins every match, close."""
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.exclude(kind=Match.Kind.BYE):
        confirm(m, min(m.entry_a_id, m.entry_b_id))
    if close:
        round_close(round=rnd, actor=organizer)


def play_phase(phase: Phase, organizer) -> None:
    """Every round of a Swiss, liguilla or a tres ceros, then finish it."""
    while True:
        phase.refresh_from_db()
        drawn = Round.objects.filter(phase=phase).count()
        if phase.rounds_planned and drawn >= phase.rounds_planned:
            break
        try:
            rnd = round_draw_generate(phase=phase, actor=organizer)
        except (Conflict, DrawError):
            break
        play(rnd, organizer)
    phase_finish(phase=phase, actor=organizer)


def play_bracket(phase: Phase, organizer) -> None:
    rnd = Round.objects.filter(phase=phase, number=1).first() or round_draw_generate(
        phase=phase, actor=organizer
    )
    while rnd is not None:
        play(rnd, organizer)
        bracket_advance(phase=phase)
        rnd = Round.objects.filter(phase=phase, status=Round.Status.DRAFT).first()
    phase_finish(phase=phase, actor=organizer)


def entrants_of(phase: Phase) -> set[int]:
    return {
        e
        for pair in Match.objects.filter(round__phase=phase).values_list("entry_a", "entry_b")
        for e in pair
        if e is not None
    }


def four_phases(t, organizer) -> list[Phase]:
    swiss = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    groups = phase_create(
        tournament=t,
        actor=organizer,
        name="Grupos por nivel",
        format="round_robin",
        entrants=[{"rule": "top", "phase": 1, "count": 8}],
        group_sizes=[3, 5],
        seeding="level",
        rounds_planned=2,
    )
    cuadro_b = phase_create(
        tournament=t,
        actor=organizer,
        name="Cuadro B",
        format="single_elimination",
        entrants=[{"rule": "not_qualified", "phase": 1}],
    )
    final = phase_create(
        tournament=t,
        actor=organizer,
        name="Final",
        format="single_elimination",
        entrants=[{"rule": "top_of_each_group", "phase": 2, "count": 2}],
    )
    return [swiss, groups, cuadro_b, final]


def test_a_four_phase_plan_runs_to_its_final_standings():
    t, organizer, entries = tournament_field(12, status=Tournament.Status.RUNNING)
    swiss, groups, cuadro_b, final = four_phases(t, organizer)
    play_phase(swiss, organizer)
    ranking = [e for e, _ in _overall(swiss)]

    first = round_draw_generate(phase=groups, actor=organizer)
    groups.refresh_from_db()
    members = {g.name: {e.id for e in g.entries.all()} for g in Group.objects.filter(phase=groups)}
    # by level: places 1–3 of the Swiss in group A (3 pairs), 4–8 in group B (5 pairs)
    assert members == {"A": set(ranking[:3]), "B": set(ranking[3:8])}
    assert groups.rounds_planned == 2  # a partial round robin: two matches each, not four

    # the Cuadro B is played beside the groups: its tables follow theirs
    b_round = round_draw_generate(phase=cuadro_b, actor=organizer)
    assert entrants_of(cuadro_b) == set(ranking[8:])
    group_tables = set(first.matches.values_list("table_number", flat=True))
    b_tables = set(
        b_round.matches.exclude(kind=Match.Kind.BYE).values_list("table_number", flat=True)
    )
    assert not group_tables & b_tables

    play(first, organizer)
    second = round_draw_generate(phase=groups, actor=organizer)
    play(second, organizer)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=groups, actor=organizer)
    assert error.value.code == "phase_rounds_done"
    met = [
        frozenset(p)
        for p in Match.objects.filter(round__phase=groups).values_list("entry_a", "entry_b")
    ]
    assert len(met) == len(set(met))  # no rematch inside the partial round robin
    phase_finish(phase=groups, actor=organizer)

    play_bracket(final, organizer)
    assert len(entrants_of(final)) == 4
    # the final crosses the groups: 1A–2B and 1B–2A
    first_final = Match.objects.filter(round__phase=final, round__number=1)
    for m in first_final:
        assert {g for g, ids in members.items() if m.entry_a_id in ids} != {
            g for g, ids in members.items() if m.entry_b_id in ids
        }
    play_bracket(Phase.objects.get(pk=cuadro_b.pk), organizer)
    tournament_status_change(tournament=t, actor=organizer, status=Tournament.Status.FINISHED)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def _overall(phase):
    from tournaments.draw_manager import source_result

    return [(e, None) for e in source_result(phase).overall]


def test_a_rule_that_cannot_work_is_refused_when_the_tournament_starts():
    t, organizer, _ = tournament_field(6, status=Tournament.Status.REGISTRATION)
    phase_create(tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3)
    # checked with the six pairs registered: refused now, naming the rule
    with pytest.raises(DrawError) as error:
        phase_create(
            tournament=t,
            actor=organizer,
            name="Final",
            format="single_elimination",
            entrants=[{"rule": "top", "phase": 1, "count": 8}],
        )
    assert error.value.code == "plan_rule_places_beyond"
    assert error.value.message.startswith("Final, entrants rule 1: Suizo has 6 entrants")
    phase_create(
        tournament=t,
        actor=organizer,
        name="Final",
        format="single_elimination",
        entrants=[{"rule": "top", "phase": 1, "count": 6}],
    )
    # two pairs withdraw before the start: the plan no longer works, and says why
    for entry in t.entries.all()[:2]:
        entry.status = "withdrawn"
        entry.save()
    with pytest.raises(Conflict) as error:
        tournament_status_change(tournament=t, actor=organizer, status=Tournament.Status.RUNNING)
    assert error.value.code == "plan_cannot_work"
    assert "Final, entrants rule 1: Suizo has 4 entrants; it has no place 6." in error.value.message


def test_a_rule_from_a_later_phase_is_refused():
    t, organizer, _ = tournament_field(4)
    with pytest.raises(Invalid) as error:
        phase_create(
            tournament=t,
            actor=organizer,
            name="Final",
            format="single_elimination",
            entrants=[{"rule": "top", "phase": 1, "count": 2}],
        )
    assert error.value.code == "phase_rule_source"


def test_a_pair_moves_between_groups_before_round_one_starts():
    t, organizer, entries = tournament_field(8)
    phase = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=4
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    phase.refresh_from_db()
    a, b = phase.settings["groups"]
    moved = a["entry_ids"][0]
    phase_group_move(phase=phase, actor=organizer, entry_id=moved, group=b["name"])
    phase.refresh_from_db()
    sizes = {g.name: g.entries.count() for g in Group.objects.filter(phase=phase)}
    assert sizes == {"A": 3, "B": 5}  # unequal groups now
    assert phase.rounds_planned == 5  # a group of 5 plays five rounds, one resting each
    in_b = {e.id for e in Group.objects.get(phase=phase, name="B").entries.all()}
    assert moved in in_b
    for m in rnd.matches.all():
        group_members = {e.id for e in m.group.entries.all()}
        assert {m.entry_a_id, m.entry_b_id} <= group_members
    assert AuditEntry.objects.filter(action="group_entry_moved").count() == 1
    play(rnd, organizer)
    with pytest.raises(Conflict) as error:
        phase_group_move(phase=phase, actor=organizer, entry_id=moved, group="A")
    assert error.value.code in ("round_closed", "group_move_not_now")


def test_tres_ceros_in_each_group_then_the_group_winners_play_the_final():
    t, organizer, _ = tournament_field(8)
    groups = phase_create(
        tournament=t, actor=organizer, name="Grupos", format="lives", lives=1, group_size=4
    )
    final = phase_create(
        tournament=t,
        actor=organizer,
        name="Final",
        format="single_elimination",
        entrants=[{"rule": "group_winners", "phase": 1}],
    )
    play_phase(groups, organizer)
    # pairs of different groups never met
    group_of = {}
    for g in Group.objects.filter(phase=groups):
        for e in g.entries.all():
            group_of[e.id] = g.name
    for a, b in (
        Match.objects.filter(round__phase=groups)
        .exclude(entry_b=None)
        .values_list("entry_a", "entry_b")
    ):
        assert group_of[a] == group_of[b]
    play_bracket(final, organizer)
    assert len(entrants_of(final)) == 2
    assert {group_of[e] for e in entrants_of(final)} == {"A", "B"}


def test_the_losers_of_a_round_play_a_consolation():
    t, organizer, _ = tournament_field(8)
    cuadro = phase_create(tournament=t, actor=organizer, name="Cuadro", format="single_elimination")
    consolation = phase_create(
        tournament=t,
        actor=organizer,
        name="Consolación",
        format="single_elimination",
        entrants=[{"rule": "losers", "phase": 1, "stage": 1}],
    )
    play_bracket(cuadro, organizer)
    losers = {
        e
        for m in Match.objects.filter(round__phase=cuadro, round__number=1)
        for e in (m.entry_a_id, m.entry_b_id)
        if e != m.winner_id
    }
    round_draw_generate(phase=consolation, actor=organizer)
    assert entrants_of(consolation) == losers and len(losers) == 4


def test_a_plan_exports_imports_and_is_saved_as_the_penas_preset():
    t, organizer, _ = tournament_field(12)
    four_phases(t, organizer)
    plan = plan_of(t)
    assert [p["name"] for p in plan["phases"]] == ["Suizo", "Grupos por nivel", "Cuadro B", "Final"]
    assert plan["phases"][1] == {
        "name": "Grupos por nivel",
        "format": "round_robin",
        "entrants": [{"rule": "top", "phase": 1, "count": 8}],
        "rounds_planned": 2,
        "group_sizes": [3, 5],
        "seeding": "level",
    }
    other, organizer2, _ = tournament_field(12)
    other.club = t.club
    other.save()
    plan_import(tournament=other, actor=organizer, plan=plan)
    assert plan_of(other)["phases"] == plan["phases"]

    preset = plan_preset_save(tournament=t, actor=organizer, name="Suizo y niveles")
    assert PlanPreset.objects.get(club=t.club).plan["phases"] == plan["phases"]
    third, _, _ = tournament_field(12)
    third.club = t.club
    third.save()
    plan_preset_apply(tournament=third, actor=organizer, preset_id=preset.id)
    assert [p.name for p in third.phases.order_by("order")] == [p["name"] for p in plan["phases"]]
    # a built-in plan, one click away
    plan_preset_apply(tournament=third, actor=organizer, key="groups_cuadro_b")
    assert [p.name for p in third.phases.order_by("order")] == [
        p["name"] for p in BUILT_IN_PLANS["groups_cuadro_b"]["phases"]
    ]
    picture = plan_picture(third)
    assert picture[2]["rules"][0]["rule"] == "not_qualified"
    assert picture[2]["rules"][0]["source"] == "Liguillas"


def test_a_plan_cannot_be_replaced_once_started():
    t, organizer, _ = tournament_field(4)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    round_draw_generate(phase=phase, actor=organizer)
    with pytest.raises(Conflict) as error:
        plan_import(tournament=t, actor=organizer, plan=BUILT_IN_PLANS["groups_knockout"])
    assert error.value.code == "plan_started"


@pytest.mark.parametrize("key", sorted(BUILT_IN_PLANS))
def test_every_built_in_plan_is_accepted_for_sixteen_pairs(key):
    t, organizer, _ = tournament_field(16)
    phases = plan_preset_apply(tournament=t, actor=organizer, key=key)
    assert len(phases) == len(BUILT_IN_PLANS[key]["phases"])


def test_rounds_robin_without_plan_still_draws_as_before():
    t, organizer, entries = tournament_field(6)
    phase = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=3
    )
    round_draw_generate(phase=phase, actor=organizer)
    phase.refresh_from_db()
    assert phase.rounds_planned == 3
    assert phase.entrants == [] and "entrants" not in phase.settings
    pairs = list(combinations(range(3), 2))
    assert len(pairs) == 3


def test_a_fixed_list_names_entries_of_this_tournament_only():
    t, organizer, _ = tournament_field(4)
    other, _, strangers = tournament_field(2)
    phase_create(tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2)
    with pytest.raises(Invalid) as error:
        phase_create(
            tournament=t,
            actor=organizer,
            name="Invitados",
            format="single_elimination",
            entrants=[{"rule": "fixed", "entries": [strangers[0].pk, strangers[1].pk]}],
        )
    assert error.value.code == "phase_rule_entries"
    assert error.value.params["entries"] == [strangers[0].pk, strangers[1].pk]
