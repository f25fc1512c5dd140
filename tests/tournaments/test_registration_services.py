"""Services of registration: registering pairs (one by one and pasted, all or nothing), the
waiting list and its promotion, withdrawal, check-in, seeds, pinned tables, substitutes, and
the audit rows the changes that matter leave."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from clubs.models import Membership, Pair, Player
from config.errors import Conflict, Forbidden, Invalid, NotFound
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PlayerFactory,
    TournamentFactory,
)
from tournaments.models import AuditEntry, Entry, Substitution, Tournament
from tournaments.selectors.registration import entry_list
from tournaments.services.registration import (
    entry_check_in,
    entry_check_in_undo,
    entry_register,
    entry_register_pasted,
    entry_seed_set,
    entry_table_pin,
    entry_withdraw,
    substitution_create,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.OWNER)


@pytest.fixture
def tournament(organizer):
    return TournamentFactory(club=organizer.club, max_pairs=2, tables_available=4)


def register(tournament, organizer, pair=None, **kwargs):
    pair = pair or PairFactory(club=tournament.club)
    return entry_register(tournament=tournament, pair_id=pair.pk, actor=organizer.user, **kwargs)


def statuses(tournament):
    return [(e.pk, e.status) for e in entry_list(tournament=tournament)]


# --- Register one by one --------------------------------------------------------------------


def test_pairs_beyond_max_pairs_wait_in_order(tournament, organizer):
    entries = [register(tournament, organizer) for _ in range(4)]

    assert [e.status for e in entries] == ["registered", "registered", "waiting", "waiting"]
    listed = entry_list(tournament=tournament)
    assert [(e.pk, e.waiting_position) for e in listed] == [
        (entries[0].pk, None),
        (entries[1].pk, None),
        (entries[2].pk, 1),
        (entries[3].pk, 2),
    ]


def test_a_pair_is_registered_once(tournament, organizer):
    entry = register(tournament, organizer)

    with pytest.raises(Conflict) as caught:
        register(tournament, organizer, pair=entry.pair)

    assert caught.value.code == "already_registered"
    assert Entry.objects.count() == 1


def test_a_seed_is_unique_and_the_conflict_names_the_pair_that_has_it(tournament, organizer):
    ana = Player.objects.create(first_name="Ana", last_name="García")
    luis = Player.objects.create(first_name="Luis", last_name="Pérez")
    first = register(
        tournament, organizer, pair=PairFactory(player_one=ana, player_two=luis), seed=1
    )

    with pytest.raises(Conflict) as caught:
        register(tournament, organizer, seed=1)

    assert caught.value.code == "seed_taken"
    assert "Ana García / Luis Pérez" in caught.value.message
    assert caught.value.params["entry"] == first.pk
    assert Entry.objects.count() == 1


def test_registration_is_closed_once_the_tournament_runs(tournament, organizer):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)

    with pytest.raises(Conflict) as caught:
        register(tournament, organizer)

    assert caught.value.code == "registration_closed"


def test_an_unknown_pair_is_not_found(tournament, organizer):
    with pytest.raises(NotFound) as caught:
        entry_register(tournament=tournament, pair_id=999_999, actor=organizer.user)
    assert caught.value.code == "pair_unknown"


def test_a_withdrawn_pair_registers_again_at_the_back_of_the_queue(tournament, organizer):
    first = register(tournament, organizer)
    register(tournament, organizer)
    waiting = register(tournament, organizer)
    entry_withdraw(tournament=tournament, entry_id=first.pk, actor=organizer.user)

    again = register(tournament, organizer, pair=first.pair)

    assert again.pk == first.pk
    assert again.status == Entry.Status.WAITING and again.withdrawn_at is None
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.REGISTERED  # promoted when first withdrew


def test_only_organizers_register(tournament):
    outsider = MembershipFactory().user
    with pytest.raises(Forbidden):
        entry_register(tournament=tournament, pair_id=PairFactory().pk, actor=outsider)
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    with pytest.raises(NotFound):
        entry_register(tournament=tournament, pair_id=PairFactory().pk, actor=outsider)


# --- Pasted list ----------------------------------------------------------------------------


def test_a_pasted_list_registers_each_line_in_order_and_ignores_blank_lines(tournament, organizer):
    text = "Ana García / Luis Pérez\n\n   \nMiren Etxeberria / Jon Arana\r\nPeio Goñi / Xabi Lasa\n"

    entries = entry_register_pasted(tournament=tournament, text=text, actor=organizer.user)

    assert [str(e.pair) for e in entries] == [
        "Ana García / Luis Pérez",
        "Miren Etxeberria / Jon Arana",
        "Peio Goñi / Xabi Lasa",
    ]
    assert [e.status for e in entries] == ["registered", "registered", "waiting"]
    assert all(e.pair.club == tournament.club for e in entries)


def test_a_bad_line_stores_nothing_and_the_error_names_the_line(tournament, organizer):
    before = (Player.objects.count(), Pair.objects.count(), Entry.objects.count())
    text = "Ana García / Luis Pérez\nMiren Etxeberria / Jon Arana\n\nPeio Goñi y Xabi Lasa\n"

    with pytest.raises(Invalid) as caught:
        entry_register_pasted(tournament=tournament, text=text, actor=organizer.user)

    assert caught.value.message.startswith("Line 4:")
    assert caught.value.code == "pair_line"
    assert caught.value.params["line"] == 4
    assert (Player.objects.count(), Pair.objects.count(), Entry.objects.count()) == before


def test_a_repeated_line_is_refused_naming_both_lines(tournament, organizer):
    text = "Ana García / Luis Pérez\nJon Arana / Peio Goñi\nana garcia / LUIS PÉREZ\n"

    with pytest.raises(Invalid) as caught:
        entry_register_pasted(tournament=tournament, text=text, actor=organizer.user)

    assert caught.value.code == "pair_repeated"
    assert caught.value.message.startswith("Line 3:") and "line 1" in caught.value.message
    assert not Entry.objects.exists()


def test_a_pasted_pair_already_registered_is_a_conflict_on_its_line(tournament, organizer):
    entry_register_pasted(
        tournament=tournament, text="Ana García / Luis Pérez", actor=organizer.user
    )

    with pytest.raises(Conflict) as caught:
        entry_register_pasted(
            tournament=tournament,
            text="Jon Arana / Peio Goñi\nAna García / Luis Pérez",
            actor=organizer.user,
        )

    assert caught.value.code == "already_registered"
    assert caught.value.params["line"] == 2
    assert Entry.objects.count() == 1
    assert not Player.objects.filter(first_name="Jon").exists()


def test_an_empty_paste_is_invalid(tournament, organizer):
    with pytest.raises(Invalid) as caught:
        entry_register_pasted(tournament=tournament, text="\n  \n", actor=organizer.user)
    assert caught.value.code == "paste_empty"


# --- Withdraw and the waiting list ----------------------------------------------------------


def test_withdrawal_promotes_the_first_waiting_pair_and_is_audited(tournament, organizer):
    first, _second, waiting_1, waiting_2 = [register(tournament, organizer) for _ in range(4)]

    result = entry_withdraw(
        tournament=tournament,
        entry_id=first.pk,
        actor=organizer.user,
        via="web",
        device="phone",
    )

    assert result.entry.status == Entry.Status.WITHDRAWN and result.entry.withdrawn_at
    assert result.promoted.pk == waiting_1.pk
    waiting_1.refresh_from_db()
    waiting_2.refresh_from_db()
    assert (waiting_1.status, waiting_2.status) == ("registered", "waiting")
    withdrawn = AuditEntry.objects.get(action="entry_withdrawn")
    assert (withdrawn.actor, withdrawn.via, withdrawn.device) == (organizer.user, "web", "phone")
    assert withdrawn.old["status"] == "registered" and withdrawn.new["status"] == "withdrawn"
    promoted = AuditEntry.objects.get(action="entry_promoted")
    assert promoted.new["entry"] == waiting_1.pk


def test_withdrawal_during_the_tournament_promotes_nobody(tournament, organizer):
    first, _second, waiting = [register(tournament, organizer) for _ in range(3)]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)

    result = entry_withdraw(tournament=tournament, entry_id=first.pk, actor=organizer.user)

    assert result.promoted is None
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.WAITING


def test_withdrawing_a_waiting_pair_promotes_nobody_and_twice_is_a_conflict(tournament, organizer):
    _first, _second, waiting_1, waiting_2 = [register(tournament, organizer) for _ in range(4)]

    result = entry_withdraw(tournament=tournament, entry_id=waiting_1.pk, actor=organizer.user)

    assert result.promoted is None
    waiting_2.refresh_from_db()
    assert waiting_2.status == Entry.Status.WAITING
    with pytest.raises(Conflict) as caught:
        entry_withdraw(tournament=tournament, entry_id=waiting_1.pk, actor=organizer.user)
    assert caught.value.code == "already_withdrawn"


def test_an_entry_of_another_tournament_is_not_found(tournament, organizer):
    foreign = EntryFactory()
    with pytest.raises(NotFound) as caught:
        entry_withdraw(tournament=tournament, entry_id=foreign.pk, actor=organizer.user)
    assert caught.value.code == "entry_not_found"


# --- Check-in -------------------------------------------------------------------------------


def test_check_in_and_its_undo(tournament, organizer):
    entry = register(tournament, organizer)

    checked = entry_check_in(tournament=tournament, entry_id=entry.pk, actor=organizer.user)
    assert checked.status == Entry.Status.CHECKED_IN and checked.checked_in_at
    again = entry_check_in(tournament=tournament, entry_id=entry.pk, actor=organizer.user)
    assert again.checked_in_at == checked.checked_in_at  # a retry changes nothing

    undone = entry_check_in_undo(tournament=tournament, entry_id=entry.pk, actor=organizer.user)
    assert undone.status == Entry.Status.REGISTERED and undone.checked_in_at is None


def test_a_waiting_pair_checks_in_only_when_a_place_is_free(tournament, organizer):
    first, _second, waiting = [register(tournament, organizer) for _ in range(3)]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)

    with pytest.raises(Conflict) as caught:
        entry_check_in(tournament=tournament, entry_id=waiting.pk, actor=organizer.user)
    assert caught.value.code == "entry_waiting"

    entry_withdraw(tournament=tournament, entry_id=first.pk, actor=organizer.user)
    checked = entry_check_in(tournament=tournament, entry_id=waiting.pk, actor=organizer.user)
    assert checked.status == Entry.Status.CHECKED_IN


def test_a_withdrawn_pair_cannot_check_in(tournament, organizer):
    entry = register(tournament, organizer)
    entry_withdraw(tournament=tournament, entry_id=entry.pk, actor=organizer.user)

    with pytest.raises(Conflict) as caught:
        entry_check_in(tournament=tournament, entry_id=entry.pk, actor=organizer.user)
    assert caught.value.code == "entry_withdrawn"


# --- Seed and table -------------------------------------------------------------------------


def test_a_seed_change_is_audited_and_a_taken_seed_names_its_holder(tournament, organizer):
    first = register(tournament, organizer, seed=1)
    second = register(tournament, organizer)

    with pytest.raises(Conflict) as caught:
        entry_seed_set(tournament=tournament, entry_id=second.pk, seed=1, actor=organizer.user)
    assert str(first.pair) in caught.value.message

    entry_seed_set(tournament=tournament, entry_id=first.pk, seed=None, actor=organizer.user)
    entry_seed_set(tournament=tournament, entry_id=second.pk, seed=1, actor=organizer.user)

    changes = AuditEntry.objects.filter(action="entry_seed_changed").order_by("id")
    assert [(a.old["seed"], a.new["seed"], a.actor) for a in changes] == [
        (1, None, organizer.user),
        (None, 1, organizer.user),
    ]
    assert all(a.via == "api" for a in changes)


def test_a_seed_must_be_positive(tournament, organizer):
    entry = register(tournament, organizer)
    with pytest.raises(Invalid) as caught:
        entry_seed_set(tournament=tournament, entry_id=entry.pk, seed=0, actor=organizer.user)
    assert caught.value.code == "seed_range"


def test_pin_a_pair_to_a_table(tournament, organizer):
    first = register(tournament, organizer)
    second = register(tournament, organizer)

    pinned = entry_table_pin(
        tournament=tournament, entry_id=first.pk, table=2, actor=organizer.user
    )
    assert pinned.pinned_table == 2

    with pytest.raises(Invalid) as caught:
        entry_table_pin(tournament=tournament, entry_id=second.pk, table=5, actor=organizer.user)
    assert caught.value.code == "table_out_of_range"
    with pytest.raises(Conflict) as caught:
        entry_table_pin(tournament=tournament, entry_id=second.pk, table=2, actor=organizer.user)
    assert caught.value.code == "table_pinned" and str(first.pair) in caught.value.message

    entry_table_pin(tournament=tournament, entry_id=first.pk, table=None, actor=organizer.user)
    first.refresh_from_db()
    assert first.pinned_table is None


# --- Substitutes ----------------------------------------------------------------------------


@pytest.fixture
def match(tournament):
    return MatchFactory(round__phase__tournament=tournament)


def substitute(match, entry, replaced, substitute_player, organizer):
    return substitution_create(
        tournament=match.round.phase.tournament,
        match_id=match.pk,
        entry_id=entry.pk,
        replaced_player_id=replaced.pk,
        substitute_player_id=substitute_player.pk,
        actor=organizer.user,
    )


def test_a_substitute_plays_one_partida_without_changing_the_pair(match, organizer):
    entry = match.entry_a
    pair_before = (entry.pair.player_one_id, entry.pair.player_two_id)
    sub = PlayerFactory(first_name="Koldo")

    substitution = substitute(match, entry, entry.pair.player_two, sub, organizer)

    assert (substitution.replaced, substitution.substitute) == (entry.pair.player_two, sub)
    entry.pair.refresh_from_db()
    assert (entry.pair.player_one_id, entry.pair.player_two_id) == pair_before
    audit = AuditEntry.objects.get(action="substitution_recorded")
    assert audit.match_id == match.pk and audit.new["substitute"]["id"] == sub.pk


def test_one_substitute_per_pair_per_partida(match, organizer):
    entry = match.entry_a
    substitute(match, entry, entry.pair.player_one, PlayerFactory(), organizer)

    with pytest.raises(Conflict) as caught:
        substitute(match, entry, entry.pair.player_two, PlayerFactory(), organizer)

    assert caught.value.code == "substitution_exists"
    assert Substitution.objects.count() == 1
    # the other pair of the same partida may still have its own
    substitute(match, match.entry_b, match.entry_b.pair.player_one, PlayerFactory(), organizer)


def test_the_replaced_player_must_belong_to_the_pair(match, organizer):
    with pytest.raises(Invalid) as caught:
        substitute(match, match.entry_a, match.entry_b.pair.player_one, PlayerFactory(), organizer)
    assert caught.value.code == "replaced_not_in_pair"


def test_the_partida_must_involve_the_pair(match, tournament, organizer):
    outsider = EntryFactory(tournament=tournament)
    with pytest.raises(Invalid) as caught:
        substitute(match, outsider, outsider.pair.player_one, PlayerFactory(), organizer)
    assert caught.value.code == "entry_not_in_match"


@pytest.mark.parametrize("who", ["partner", "opponent"])
def test_the_substitute_is_neither_the_partner_nor_an_opponent(match, organizer, who):
    entry = match.entry_a
    player = entry.pair.player_two if who == "partner" else match.entry_b.pair.player_one
    with pytest.raises(Invalid) as caught:
        substitute(match, entry, entry.pair.player_one, player, organizer)
    assert (
        caught.value.code
        == {
            "partner": "substitute_in_pair",
            "opponent": "substitute_is_opponent",
        }[who]
    )


def test_a_partida_of_another_tournament_is_not_found(tournament, organizer):
    foreign = MatchFactory()
    entry = EntryFactory(tournament=tournament)
    with pytest.raises(NotFound) as caught:
        substitution_create(
            tournament=tournament,
            match_id=foreign.pk,
            entry_id=entry.pk,
            replaced_player_id=entry.pair.player_one_id,
            substitute_player_id=PlayerFactory().pk,
            actor=organizer.user,
        )
    assert caught.value.code == "match_not_in_tournament"


# --- Two desks at once ----------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_desks_registering_for_the_last_place_cannot_both_get_it(organizer):
    tournament = TournamentFactory(club=organizer.club, max_pairs=3)
    EntryFactory.create_batch(2, tournament=tournament)
    pairs = [PairFactory(club=organizer.club) for _ in range(2)]
    barrier = threading.Barrier(2)
    results, errors = [], []

    def desk(pair):
        try:
            barrier.wait(timeout=60)
            results.append(
                entry_register(tournament=tournament, pair_id=pair.pk, actor=organizer.user)
            )
        except Exception as error:  # reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=desk, args=(pair,)) for pair in pairs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)

    assert errors == []
    assert sorted(e.status for e in results) == ["registered", "waiting"]
    assert Entry.objects.filter(tournament=tournament, status="registered").count() == 3
