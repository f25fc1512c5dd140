"""A championship's services: its shape and who may change it, the flow of qualified pairs into
the final (quotas, corrections before and after the final starts, the players who took part,
the webhook event, beat's repair), and the eligibility rules at every registration path."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Webhook, WebhookDelivery
from config.errors import Conflict, Forbidden, Invalid
from seasons.championships.models import Qualification, Stage, StageTournament
from seasons.championships.services import (
    centre_update,
    championships_reconcile,
    stage_add,
    stage_tournament_add,
    stage_update,
    tournament_flow,
)
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PhaseFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
)
from tests.seasons.championships.helpers import (
    final_pairs,
    finish,
    qualifier,
    season,
    stop_of,
)
from tournaments.models import AuditEntry, Entry, Substitution, Tournament
from tournaments.services.bulk import entrants_register_text
from tournaments.services.registration import (
    entry_member_change,
    entry_register,
    substitution_create,
)
from tournaments.services.tournaments import tournament_status_change

pytestmark = pytest.mark.django_db


def played(s, n: int, pairs: int):
    tournament, entries = qualifier(s, n, pairs=pairs)
    finish(tournament, entries)
    tournament_flow(tournament_id=tournament.pk)
    return tournament, entries


# --- The flow -------------------------------------------------------------------------------


def test_the_qualified_pairs_of_three_centres_flow_into_the_final():
    s = season()  # one pair per 4 that play, at least one
    q0, e0 = played(s, 0, 8)
    q1, e1 = played(s, 1, 5)
    q2, e2 = played(s, 2, 3)
    assert final_pairs(s) == [e0[0].pair_id, e0[1].pair_id, e1[0].pair_id, e2[0].pair_id]
    stop = stop_of(q0)
    assert (stop.pairs_played, stop.players_played, stop.quota) == (8, 16, 2)
    rows = list(Qualification.objects.filter(stop=stop).order_by("position"))
    assert [(q.place, q.position, q.centre_id) for q in rows] == [(1, 1, s.centre(0).pk)] + [
        (2, 2, s.centre(0).pk)
    ]
    assert all(q.target_entry.tournament_id == s.final.pk for q in rows)
    # registered by the championship in one list, audited as such
    audit = AuditEntry.objects.filter(tournament=s.final, action="entrants_registered")
    assert [a.new["source"] for a in audit] == ["pairs", "pairs", "pairs"]
    assert {a.via for a in audit} == {"championship"}


def test_the_players_who_took_part_count_the_substitutes():
    s = season()
    tournament, entries = qualifier(s, 0, pairs=4)
    match = MatchFactory(
        round=RoundFactory(phase=PhaseFactory(tournament=tournament, order=1)),
        entry_a=entries[0],
        entry_b=entries[1],
    )
    Substitution.objects.create(
        match=match,
        entry=entries[0],
        replaced=entries[0].pair.player_one,
        substitute=PlayerFactory(),
    )
    finish(tournament, entries)
    tournament_flow(tournament_id=tournament.pk)
    assert (stop_of(tournament).pairs_played, stop_of(tournament).players_played) == (4, 9)


def test_finishing_a_qualifier_queues_its_flow_by_name(django_capture_on_commit_callbacks):
    s = season()
    tournament, entries = qualifier(s, 0, pairs=4)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    phase = PhaseFactory(tournament=tournament, order=1, status="finished")
    finish(tournament, entries)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    del phase
    with django_capture_on_commit_callbacks(execute=True):
        tournament_status_change(
            tournament=tournament, actor=s.centre_organizers[0], status="finished"
        )
    assert final_pairs(s) == [entries[0].pair_id]


def test_a_corrected_result_corrects_the_final_until_the_final_starts():
    s = season()
    tournament, e = qualifier(s, 0, pairs=8)  # two qualify
    finish(tournament, e)
    tournament_flow(tournament_id=tournament.pk)
    assert final_pairs(s) == [e[0].pair_id, e[1].pair_id]
    finish(tournament, [e[2], e[0], e[1], *e[3:]])  # a result corrected: the third was second
    flow = tournament_flow(tournament_id=tournament.pk)
    assert (flow.registered, flow.withdrawn, flow.changed) == (1, 1, True)
    assert sorted(final_pairs(s)) == sorted([e[2].pair_id, e[0].pair_id])
    assert Entry.objects.get(tournament=s.final, pair=e[1].pair).status == "withdrawn"
    again = tournament_flow(tournament_id=tournament.pk)  # idempotent
    assert (again.registered, again.withdrawn, again.changed) == (0, 0, False)
    # the final starts: a later correction no longer moves anybody, and the desk says why
    Tournament.objects.filter(pk=s.final.pk).update(status=Tournament.Status.RUNNING)
    finish(tournament, e)
    tournament_flow(tournament_id=tournament.pk)
    assert sorted(final_pairs(s)) == sorted([e[2].pair_id, e[0].pair_id])
    assert stop_of(tournament).flow_note == "next_started"


def test_a_quota_changed_flows_again_fixed_per_centre_and_by_ranking(
    django_capture_on_commit_callbacks,
):
    s = season()
    tournament, e = played(s, 0, 6)  # 6 // 4 = 1
    assert final_pairs(s) == [e[0].pair_id]
    with django_capture_on_commit_callbacks(execute=True):
        stage_update(
            actor=s.organizer,
            championship=s.championship,
            stage_id=s.qualifiers.pk,
            data={"quota_rule": "fixed", "quota_number": 2},
        )
    assert final_pairs(s) == [e[0].pair_id, e[1].pair_id]
    with django_capture_on_commit_callbacks(execute=True):
        centre_update(
            actor=s.organizer,
            championship=s.championship,
            centre_id=s.centre(0).pk,
            data={"quota": 3, "rank": 2},
        )
    assert len(final_pairs(s)) == 3
    with django_capture_on_commit_callbacks(execute=True):
        stage_update(
            actor=s.organizer,
            championship=s.championship,
            stage_id=s.qualifiers.pk,
            data={"quota_rule": "ranking", "quota_table": [4, 2], "quota_minimum": 1},
        )
    assert stop_of(tournament).quota == 2  # ranked 2nd
    assert final_pairs(s) == [e[0].pair_id, e[1].pair_id]


def test_a_flow_records_the_championship_event_for_the_webhooks():
    s = season()
    hook = Webhook.objects.create(
        club=s.host, url="https://example.org/h", secret="s", events=["championship.qualified"]
    )
    tournament, e = played(s, 0, 4)
    [delivery] = WebhookDelivery.objects.filter(webhook=hook)
    data = delivery.payload["data"]
    assert delivery.event == "championship.qualified"
    assert (data["pairs_played"], data["players_played"], data["quota"]) == (4, 8, 1)
    assert [q["entry_id"] for q in data["qualified"]] == [e[0].pk]
    assert data["next_tournament"]["id"] == s.final.pk


def test_beat_flows_what_a_lost_task_left_undone():
    s = season()
    tournament, e = qualifier(s, 0, pairs=4)
    finish(tournament, e)  # finished, and the task lost: nothing flowed
    assert final_pairs(s) == []
    assert championships_reconcile() == 1
    assert final_pairs(s) == [e[0].pair_id]
    assert championships_reconcile() == 0


def test_pairs_wait_for_the_next_tournament_and_flow_once_it_is_added():
    s = season()
    intermediate_less = s
    tournament, e = qualifier(s, 0, pairs=4)
    StageTournament.objects.filter(tournament=s.final).delete()
    finish(tournament, e)
    tournament_flow(tournament_id=tournament.pk)
    assert stop_of(tournament).flow_note == "no_next_tournament"
    final = TournamentFactory(club=s.host, is_public=True)
    stage_tournament_add(
        actor=s.organizer,
        championship=intermediate_less.championship,
        stage_id=s.final_stage.pk,
        tournament_id=final.pk,
    )
    tournament_flow(tournament_id=tournament.pk)
    assert list(Entry.objects.filter(tournament=final).values_list("pair_id", flat=True)) == [
        e[0].pair_id
    ]


# --- Its shape, and who may change it -------------------------------------------------------


def test_the_stages_go_qualifiers_then_intermediate_then_final():
    s = season()
    with pytest.raises(Conflict) as error:
        stage_add(actor=s.organizer, championship=s.championship, kind="intermediate", name="X")
    assert error.value.code == "championship_stage_after_final"
    membership = MembershipFactory()
    from seasons.championships.services import championship_create

    other = championship_create(actor=membership.user, club=membership.club, name="Otro")
    with pytest.raises(Conflict) as error:
        stage_add(actor=membership.user, championship=other, kind="final", name="Final")
    assert error.value.code == "championship_stage_order"
    with pytest.raises(Invalid) as error:
        stage_add(
            actor=membership.user,
            championship=other,
            kind="qualifiers",
            name="Q",
            quota_rule="proportional",
            quota_number=0,
        )
    assert error.value.code == "championship_quota_per"


def test_a_centre_adds_its_own_qualifier_and_nobody_elses():
    s = season()
    mine = TournamentFactory(club=s.centre(1).club, is_public=True)
    with pytest.raises(Forbidden) as error:
        stage_tournament_add(
            actor=s.centre_organizers[0],
            championship=s.championship,
            stage_id=s.qualifiers.pk,
            tournament_id=mine.pk,
        )
    assert error.value.code == "championship_not_centre_organizer"
    with pytest.raises(Forbidden) as error:
        stage_update(
            actor=s.centre_organizers[0],
            championship=s.championship,
            stage_id=s.qualifiers.pk,
            data={"quota_number": 9},
        )
    assert error.value.code == "not_championship_organizer"
    stranger = TournamentFactory(is_public=True)
    with pytest.raises(Invalid) as error:
        stage_tournament_add(
            actor=s.organizer,
            championship=s.championship,
            stage_id=s.qualifiers.pk,
            tournament_id=stranger.pk,
        )
    assert error.value.code == "championship_qualifier_centre"
    with pytest.raises(Conflict) as error:
        stage_tournament_add(
            actor=s.organizer,
            championship=s.championship,
            stage_id=s.final_stage.pk,
            tournament_id=s.final.pk,
        )
    assert error.value.code == "championship_tournament_twice"


# --- Eligibility --------------------------------------------------------------------------


def test_a_player_represents_one_centre_the_refusal_names_the_other_registration():
    s = season()
    q0, e0 = qualifier(s, 0, pairs=2)
    q1, _ = qualifier(s, 1, pairs=2)
    ana = e0[0].pair.player_one
    other = PairFactory(club=s.centre(1).club, player_one=ana)
    with pytest.raises(Conflict) as error:
        entry_register(tournament=q1, pair_id=other.pk, actor=s.centre_organizers[1])
    exc = error.value
    assert exc.code == "championship_one_centre"
    assert exc.params["rule"] == "one_centre"
    assert exc.params["other_tournament"] == q0.name
    assert exc.params["other_entry"] == e0[0].pk
    assert exc.params["centre"] == s.centre(1).club.name
    assert exc.params["other_centre"] == s.centre(0).club.name


def test_an_eliminated_player_cannot_come_back_not_even_as_a_substitute():
    s = season()
    q0, e0 = played(s, 0, 4)  # only the first qualifies
    out = e0[3].pair.player_two
    q1, e1 = qualifier(s, 1, pairs=2)
    out.clubs.add(s.centre(1).club)
    again = PairFactory(club=s.centre(1).club, player_one=out)
    with pytest.raises(Conflict) as error:
        entry_register(tournament=q1, pair_id=again.pk, actor=s.centre_organizers[1])
    assert (error.value.code, error.value.params["other_tournament"]) == (
        "championship_eliminated",
        q0.name,
    )
    match = MatchFactory(
        round=RoundFactory(phase=PhaseFactory(tournament=q1, order=1)),
        entry_a=e1[0],
        entry_b=e1[1],
    )
    with pytest.raises(Conflict) as error:
        substitution_create(
            tournament=q1,
            match_id=match.pk,
            entry_id=e1[0].pk,
            replaced_player_id=e1[0].pair.player_one_id,
            substitute_player_id=out.pk,
            actor=s.centre_organizers[1],
        )
    assert error.value.code == "championship_eliminated"


def test_a_pasted_list_is_refused_whole_naming_the_line_and_the_rule():
    s = season()
    q0, e0 = qualifier(s, 0, pairs=2)
    q1, _ = qualifier(s, 1, pairs=0)
    ana = e0[0].pair.player_one
    ana.clubs.add(s.centre(1).club)  # Ana is a player of both peñas
    text = f"Uno Bat / Dos Bi\n{ana.first_name} {ana.last_name} / Tres Hiru"
    with pytest.raises(Conflict) as error:
        entrants_register_text(tournament=q1, text=text, actor=s.centre_organizers[1])
    assert error.value.code == "championship_one_centre"
    assert [params.get("line") for _, params in error.value.context] == [2]
    assert not Entry.objects.filter(tournament=q1).exists()


def test_a_pair_changes_a_player_on_the_day_as_the_championship_allows():
    s = season()
    played(s, 0, 4)
    entry = Entry.objects.get(tournament=s.final)
    newcomer = PlayerFactory()
    entry_member_change(
        tournament=s.final,
        entry_id=entry.pk,
        replaced_player_id=entry.pair.player_two_id,
        player_id=newcomer.pk,
        actor=s.organizer,
    )
    entry.refresh_from_db()
    assert entry.pair.player_two_id == newcomer.pk
    with pytest.raises(Conflict) as error:
        entry_member_change(
            tournament=s.final,
            entry_id=entry.pk,
            replaced_player_id=newcomer.pk,
            player_id=PlayerFactory().pk,
            actor=s.organizer,
        )
    assert (error.value.code, error.value.params["rule"]) == (
        "championship_member_changes",
        "member_changes",
    )


def test_a_championship_may_allow_no_change_on_the_day():
    s = season(member_changes=0)
    played(s, 0, 4)
    entry = Entry.objects.get(tournament=s.final)
    with pytest.raises(Conflict) as error:
        entry_member_change(
            tournament=s.final,
            entry_id=entry.pk,
            replaced_player_id=entry.pair.player_two_id,
            player_id=PlayerFactory().pk,
            actor=s.organizer,
        )
    assert error.value.code == "championship_member_change_none"


def test_a_tournament_of_no_championship_pays_one_query_for_the_rules():
    membership = MembershipFactory()
    tournament = TournamentFactory(club=membership.club)
    pair = PairFactory(club=membership.club)
    with CaptureQueriesContext(connection) as queries:
        entry_register(tournament=tournament, pair_id=pair.pk, actor=membership.user)
    assert sum("championships_stagetournament" in q["sql"] for q in queries) == 1


def test_the_deadline_makes_a_qualifier_late():
    from seasons.championships.selectors import championship_board

    s = season()
    qualifier(s, 0, pairs=2)
    board = championship_board(championship=s.championship, today=dt.date(2026, 11, 1))
    assert [v.tournament.name for v in board.late] == ["Clasificatoria 0"]
    board = championship_board(championship=s.championship, today=dt.date(2026, 10, 1))
    assert board.late == []
    assert Stage.objects.filter(championship=s.championship).count() == 2


def test_provincial_finals_between_the_qualifiers_and_the_final_carry_the_centre():
    """Qualifiers → two provincial finals (each fed by its centres' qualifiers) → the final:
    the pairs flow stage by stage and represent their qualifier's centre to the end."""
    membership = MembershipFactory()
    organizer, host = membership.user, membership.club
    from seasons.championships.services import centre_add, championship_create

    championship = championship_create(actor=organizer, club=host, name="Nacional")
    centres, runners = [], []
    for _ in range(4):
        m = MembershipFactory()
        centres.append(centre_add(actor=organizer, championship=championship, club_id=m.club.pk))
        runners.append(m.user)
    qualifiers = stage_add(
        actor=organizer,
        championship=championship,
        kind="qualifiers",
        name="Clasificatorias",
        quota_rule="fixed",
        quota_number=2,
    )
    provincial = stage_add(
        actor=organizer,
        championship=championship,
        kind="intermediate",
        name="Finales provinciales",
        quota_rule="fixed",
        quota_number=1,
    )
    final_stage = stage_add(actor=organizer, championship=championship, kind="final", name="Final")
    final = TournamentFactory(club=host, is_public=True)
    final_stop = stage_tournament_add(
        actor=organizer, championship=championship, stage_id=final_stage.pk, tournament_id=final.pk
    )
    provincials = []
    for _ in range(2):
        t = TournamentFactory(club=host, is_public=True)
        provincials.append(
            stage_tournament_add(
                actor=organizer,
                championship=championship,
                stage_id=provincial.pk,
                tournament_id=t.pk,
                feeds_id=final_stop.pk,
            )
        )
    fields = []
    for n, centre in enumerate(centres):
        t = TournamentFactory(club=centre.club, is_public=True)
        stage_tournament_add(
            actor=organizer,
            championship=championship,
            stage_id=qualifiers.pk,
            tournament_id=t.pk,
            feeds_id=provincials[n // 2].pk,
        )
        entries = [
            entry_register(tournament=t, pair_id=PairFactory(club=centre.club).pk, actor=runners[n])
            for _ in range(3)
        ]
        finish(t, entries)
        tournament_flow(tournament_id=t.pk)
        fields.append(entries)
    for stop in provincials:
        came = list(Entry.objects.filter(tournament=stop.tournament).order_by("pk"))
        assert len(came) == 4  # two centres, two pairs each
        finish(stop.tournament, came[2:] + came[:2])  # the second centre's first pair wins
        tournament_flow(tournament_id=stop.tournament_id)
    assert sorted(final_pairs_of(final)) == sorted([fields[1][0].pair_id, fields[3][0].pair_id])
    carried = Qualification.objects.filter(target=final_stop).order_by("stop__pk")
    assert [q.centre_id for q in carried] == [centres[1].pk, centres[3].pk]
    # eliminated in a provincial final: cannot come back in the final as a member changed
    entry = Entry.objects.get(tournament=final, pair=fields[1][0].pair)
    with pytest.raises(Conflict) as error:
        entry_member_change(
            tournament=final,
            entry_id=entry.pk,
            replaced_player_id=entry.pair.player_two_id,
            player_id=fields[0][0].pair.player_one_id,
            actor=organizer,
        )
    assert error.value.code == "championship_eliminated"


def final_pairs_of(tournament) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("pair_id", flat=True)
    )


def test_a_pasted_list_in_a_qualifier_costs_the_same_queries_for_10_and_40_pairs():
    """The rules read the championship once for the whole list (a federation's 1,000 pairs)."""
    s = season()
    other, _ = qualifier(s, 1, pairs=3)  # registrations elsewhere for the rules to read

    def count(lines: int) -> int:
        tournament, _ = qualifier(s, 0, pairs=0)
        t = tournament.pk
        text = "\n".join(f"Ana{n} Uno{t} / Bea{n} Dos{t}" for n in range(lines))
        with CaptureQueriesContext(connection) as queries:
            entrants_register_text(tournament=tournament, text=text, actor=s.centre_organizers[0])
        assert Entry.objects.filter(tournament=tournament).count() == lines
        return len(queries)

    assert count(10) == count(40)
