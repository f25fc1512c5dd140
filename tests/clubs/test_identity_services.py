"""One person, one identity (clubs.identity.services): a merge moves every reference found
through model meta and is undone exactly; what cannot be one person is refused with both rows
named; who may merge; the floors above follow."""

from __future__ import annotations

import pytest

from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.identity import references
from clubs.identity.services import player_merge, player_merge_undo
from clubs.models import Membership, Pair, Player, PlayerMerge
from config.errors import Conflict, Forbidden, Invalid
from seasons.leagues.models import Division, League
from tests.clubs.identity_data import references as references_of
from tests.clubs.identity_data import world
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry, IndividualEntry, Match, Substitution, Tournament

pytestmark = pytest.mark.django_db


def test_relations_are_found_through_model_meta_across_the_floors():
    found = {(r.label, r.field) for r in references.relations()}
    assert {
        ("clubs.pair", "player_one"),
        ("clubs.pair", "player_two"),
        ("clubs.player_clubs", "player"),
        ("tournaments.entry", "player_three"),
        ("tournaments.individualentry", "player"),
        ("tournaments.substitution", "replaced"),
        ("tournaments.substitution", "substitute"),
        ("leagues.division_players", "player"),
        ("ratings.ratingentry", "player"),
        ("ratings.rankingrow", "player"),
        ("circuits.circuitrankingrow", "player"),
    } <= found
    # the identity's own bookkeeping is not a reference to move
    assert not {label for label, _ in found} & {"clubs.playermerge"}
    assert ("clubs.player", "merged_into") not in found
    assert {"ratings.ratingentry", "ratings.rankingrow", "circuits.circuitrankingrow"} <= (
        references.derived_labels()
    )


def test_a_merge_moves_every_reference_and_its_undo_puts_each_back_exactly():
    w = world()
    before = references_of(w.ana, w.ana_lizarra)
    ana_pairs = set(Pair.objects.filter(player_one=w.ana).values_list("pk", flat=True))
    lizarra_pairs = set(Pair.objects.filter(player_two=w.ana_lizarra).values_list("pk", flat=True))

    merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)

    w.ana_lizarra.refresh_from_db()
    assert w.ana_lizarra.merged_into == w.ana
    assert merge.reason == PlayerMerge.Reason.NAME  # "ána  UNO" is "Ana Uno"
    assert set(Pair.objects.filter(player_two=w.ana).values_list("pk", flat=True)) == lizarra_pairs
    assert set(Pair.objects.filter(player_one=w.ana).values_list("pk", flat=True)) == ana_pairs
    assert IndividualEntry.objects.get().player == w.ana
    assert Substitution.objects.get().replaced == w.ana
    # one person of both peñas; the link to Txoko both had is one link
    assert set(w.ana.clubs.values_list("slug", flat=True)) == {"pena-txoko", "pena-lizarra"}
    assert not w.ana_lizarra.clubs.exists()
    assert merge.dropped == [
        {
            "model": "clubs.player_clubs",
            "values": {"player_id": w.ana_lizarra.pk, "club_id": w.txoko.pk},
        }
    ]
    assert not any(rows for rows in references_of(w.ana_lizarra).values())
    assert set(merge.clubs.values_list("slug", flat=True)) == {"pena-txoko", "pena-lizarra"}

    player_merge_undo(actor=w.organizer_lizarra, merge=merge)

    assert references_of(w.ana, w.ana_lizarra) == before
    w.ana_lizarra.refresh_from_db()
    assert w.ana_lizarra.merged_into is None
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == w.organizer_lizarra
    assert merge.version == 2


def test_the_merged_row_leaves_every_list_and_is_not_used_again():
    w = world()
    player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    for club in (w.txoko, w.lizarra):
        listed = club_selectors.players_for_club(user=w.organizer_both, club=club)
        assert w.ana_lizarra not in listed and w.ana in listed
    with pytest.raises(Conflict) as error:
        club_services.player_club_add(
            user=w.organizer_txoko, club=w.txoko, player_id=w.ana_lizarra.pk
        )
    assert error.value.code == "player_merged_already"
    assert error.value.params["into_id"] == w.ana.pk
    with pytest.raises(Conflict) as error:
        player_merge(actor=w.organizer_both, keep=PlayerFactory(), other=w.ana_lizarra)
    assert error.value.code == "player_merged_already"


def test_keep_gets_what_it_lacks_and_the_undo_takes_back_what_is_still_the_merges():
    w = world()
    w.ana_lizarra.licence = "NA-0012"
    account = UserFactory()
    w.ana_lizarra.user = account
    w.ana_lizarra.save()
    merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    w.ana.refresh_from_db()
    assert (w.ana.licence, w.ana.phone, w.ana.user, w.ana.email) == (
        "NA-0012",
        "600 000 000",
        account,
        "ana@example.org",  # hers is kept
    )
    # changed since the merge: the organizer's change stays after the undo
    Player.objects.filter(pk=w.ana.pk).update(phone="611 111 111")
    player_merge_undo(actor=w.organizer_both, merge=merge)
    w.ana.refresh_from_db()
    w.ana_lizarra.refresh_from_db()
    assert (w.ana.licence, w.ana.phone, w.ana.user) == ("", "611 111 111", None)
    assert w.ana_lizarra.user == account


def test_an_organizer_of_one_peña_gets_no_contact_of_the_other_through_a_merge():
    w = world()
    w.ana_lizarra.clubs.remove(w.txoko)  # of Lizarra only
    w.ana.licence = w.ana_lizarra.licence = "NA-0012"
    w.ana_lizarra.email = "ana.lizarra@example.org"
    w.ana.email = ""
    w.ana.save()
    w.ana_lizarra.save()
    player_merge(actor=w.organizer_txoko, keep=w.ana, other=w.ana_lizarra)
    w.ana.refresh_from_db()
    assert (w.ana.phone, w.ana.email) == ("", "")


# --- Who may ---------------------------------------------------------------------------------


def test_a_name_alone_needs_an_organizer_of_a_peña_of_each():
    w = world()
    w.ana_lizarra.clubs.remove(w.txoko)  # of Lizarra only
    for actor in (w.organizer_txoko, w.organizer_lizarra, UserFactory(), None):
        with pytest.raises(Forbidden) as error:
            player_merge(actor=actor, keep=w.ana, other=w.ana_lizarra)
        assert error.value.code == "player_merge_forbidden"
        assert error.value.params == {"keep_id": w.ana.pk, "other_id": w.ana_lizarra.pk}
    assert not PlayerMerge.objects.exists()


@pytest.mark.parametrize("same", ["licence", "email"])
def test_the_same_licence_or_email_lets_an_organizer_of_either_merge(same):
    w = world()
    if same == "licence":
        w.ana.licence, w.ana_lizarra.licence = "NA-0012", " na-0012"
    else:
        w.ana_lizarra.email = "ANA@example.org"
    w.ana.save()
    w.ana_lizarra.save()
    merge = player_merge(actor=w.organizer_lizarra, keep=w.ana, other=w.ana_lizarra)
    assert merge.reason == same and merge.actor == w.organizer_lizarra
    # either peña's organizers may undo it; somebody of neither may not
    with pytest.raises(Forbidden) as error:
        player_merge_undo(actor=MembershipFactory().user, merge=merge)
    assert error.value.code == "player_merge_undo_forbidden"
    player_merge_undo(actor=w.organizer_txoko, merge=merge)


def test_a_member_who_does_not_organize_may_not_merge():
    w = world()
    member = MembershipFactory(club=w.txoko, role=Membership.Role.MEMBER).user
    MembershipFactory(club=w.lizarra, user=member, role=Membership.Role.MEMBER)
    with pytest.raises(Forbidden):
        player_merge(actor=member, keep=w.ana, other=w.ana_lizarra)


# --- What cannot be one person ------------------------------------------------------------------


def refused(w, keep, other) -> Conflict:
    with pytest.raises(Conflict) as error:
        player_merge(actor=w.organizer_both, keep=keep, other=other)
    assert error.value.params["keep_id"] == keep.pk
    assert error.value.params["other_id"] == other.pk
    assert str(keep) in error.value.message and str(other) in error.value.message
    assert not PlayerMerge.objects.exists()
    return error.value


def test_partners_in_a_pair_are_two_people():
    w = world()
    pair = PairFactory(player_one=w.ana, player_two=w.ana_lizarra, club=w.txoko)
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_partners" and error.params["pair_id"] == pair.pk


def test_opponents_in_a_match_are_two_people():
    w = world()
    b = EntryFactory(
        tournament=w.tournament_txoko,
        pair=PairFactory(player_one=w.ana_lizarra, club=w.lizarra),
    )
    ana_entry = Entry.objects.get(tournament=w.tournament_txoko, pair__player_one=w.ana)
    rnd = RoundFactory(phase=Match.objects.filter(entry_a=ana_entry).get().round.phase, number=2)
    match = MatchFactory(round=rnd, entry_a=b, entry_b=ana_entry, table_number=7)
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_opponents"
    assert (error.params["match_id"], error.params["table"], error.params["round"]) == (
        match.pk,
        7,
        2,
    )
    assert error.params["tournament_id"] == w.tournament_txoko.pk


def test_two_players_entered_in_one_tournament_are_two_people():
    w = world()
    EntryFactory(
        tournament=w.tournament_txoko,
        pair=PairFactory(player_one=w.ana_lizarra, club=w.lizarra),
    )
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_same_tournament"
    assert error.params["tournament_id"] == w.tournament_txoko.pk


def test_a_substitute_in_a_tournament_of_the_other_is_another_person():
    w = world()
    match = Match.objects.get(round__phase__tournament=w.tournament_txoko)
    Substitution.objects.create(
        match=match,
        entry=match.entry_b,
        replaced=match.entry_b.pair.player_one,
        substitute=w.ana_lizarra,
    )
    assert refused(w, w.ana, w.ana_lizarra).code == "player_merge_same_tournament"


def test_two_licences_are_two_people():
    w = world()
    w.ana.licence, w.ana_lizarra.licence = "NA-0012", "NA-0013"
    w.ana.save()
    w.ana_lizarra.save()
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_licences"
    assert (error.params["keep_licence"], error.params["other_licence"]) == ("NA-0012", "NA-0013")


def test_two_accounts_are_two_people():
    w = world()
    w.ana.user, w.ana_lizarra.user = UserFactory(), UserFactory()
    w.ana.save()
    w.ana_lizarra.save()
    assert refused(w, w.ana, w.ana_lizarra).code == "player_merge_accounts"


def test_two_players_of_one_league_division_are_two_people():
    w = world()
    league_tournament = TournamentFactory(club=w.txoko)
    phase = RoundFactory(phase__tournament=league_tournament).phase
    league = League.objects.create(
        club=w.txoko, name="Liga", slug="liga", season="2026", kind=League.Kind.INDIVIDUAL
    )
    division = Division.objects.create(
        league=league, name="Primera", level=1, tournament=league_tournament, phase=phase
    )
    division.players.add(w.ana, w.ana_lizarra)
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_same_division"
    assert error.params["division_id"] == division.pk


def test_a_unique_key_no_floor_checks_is_refused_not_crashed(monkeypatch):
    """Without the tournaments' check, the individual entries' unique key (one entry of a
    player per tournament) would be broken: the merge refuses, naming the tournament."""
    w = world()
    t3 = IndividualEntry.objects.get().tournament
    IndividualEntry.objects.create(tournament=t3, player=w.ana)
    followers = {k: v for k, v in references.FOLLOWERS.items() if k != "tournaments"}
    monkeypatch.setattr(references, "FOLLOWERS", followers)
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_unique"
    assert (error.params["model"], error.params["row_id"]) == (
        "tournaments.individualentry",
        IndividualEntry.objects.get(player=w.ana_lizarra).pk,
    )


def test_a_row_holding_both_is_refused_by_model_meta(monkeypatch):
    w = world()
    match = Match.objects.get(round__phase__tournament=w.tournament_txoko)
    entry = match.entry_a
    Substitution.objects.create(match=match, entry=entry, replaced=w.ana, substitute=w.ana_lizarra)
    followers = {k: v for k, v in references.FOLLOWERS.items() if k != "tournaments"}
    monkeypatch.setattr(references, "FOLLOWERS", followers)
    error = refused(w, w.ana, w.ana_lizarra)
    assert error.code == "player_merge_same_row"
    assert error.params["model"] == "tournaments.substitution"


def test_a_player_is_not_merged_with_itself():
    w = world()
    with pytest.raises(Invalid) as error:
        player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana)
    assert error.value.code == "player_merge_itself"


# --- Undo -------------------------------------------------------------------------------------


def test_undo_twice_is_refused_and_a_later_merge_is_undone_first():
    w = world()
    first = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    third = PlayerFactory(first_name="Ana", last_name="Uno")
    third.clubs.add(w.txoko)
    later = player_merge(actor=w.organizer_both, keep=third, other=w.ana)
    with pytest.raises(Conflict) as error:
        player_merge_undo(actor=w.organizer_both, merge=first)
    assert error.value.code == "player_merge_undo_later"
    assert error.value.params["later_id"] == later.pk
    player_merge_undo(actor=w.organizer_both, merge=later)
    player_merge_undo(actor=w.organizer_both, merge=first)
    with pytest.raises(Conflict) as error:
        player_merge_undo(actor=w.organizer_both, merge=first)
    assert error.value.code == "player_merge_undone_already"
    # undone, the rows may be merged again
    again = player_merge(actor=w.organizer_both, keep=w.ana_lizarra, other=w.ana)
    assert again.keep == w.ana_lizarra


def test_rows_made_after_the_merge_stay_with_the_person_after_the_undo():
    w = world()
    merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    new_pair = PairFactory(player_one=w.ana, club=w.lizarra)
    player_merge_undo(actor=w.organizer_both, merge=merge)
    new_pair.refresh_from_db()
    assert new_pair.player_one == w.ana


def test_a_tournament_refuses_a_merged_row_with_the_row_to_use():
    from tournaments.services.entrants import individual_register

    w = world()
    player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    t = TournamentFactory(
        club=w.txoko,
        entrant_kind=Tournament.EntrantKind.INDIVIDUALS,
        status=Tournament.Status.REGISTRATION,
    )
    with pytest.raises(Conflict) as error:
        individual_register(tournament=t, player_id=w.ana_lizarra.pk, actor=w.organizer_txoko)
    assert error.value.code == "player_merged_already"
    assert error.value.params["into_id"] == w.ana.pk


# --- The floors' follow-ups ---------------------------------------------------------------------


def test_the_floors_tasks_are_queued_by_name_and_say_when_they_are_done(
    django_capture_on_commit_callbacks,
):
    w = world()
    tasks = [
        "tournaments.players_merged",
        "ratings.players_merged",
        "circuits.players_merged",
        "championships.players_merged",
    ]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    assert sorted(merge.pending) == sorted(tasks)
    assert len(callbacks) == len(tasks)
    for callback in callbacks:  # Celery runs eagerly in the tests: each task runs now
        callback()
    merge.refresh_from_db()
    assert merge.pending == []
    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(actor=w.organizer_both, merge=merge)
    merge.refresh_from_db()
    assert (merge.version, merge.pending) == (2, [])


def test_deleting_a_demo_peña_keeps_the_players_a_merge_names():
    from clubs.demo import club_demo_delete

    club = ClubFactory()
    organizer = MembershipFactory(club=club).user
    one, two, three = (PlayerFactory(email="x@example.org") for _ in range(3))
    for player in (one, two, three):
        player.clubs.add(club)
    merge = player_merge(actor=organizer, keep=one, other=two)
    club_demo_delete(club)
    assert set(Player.objects.values_list("pk", flat=True)) == {one.pk, two.pk}
    merge.refresh_from_db()
    assert merge.other == two
