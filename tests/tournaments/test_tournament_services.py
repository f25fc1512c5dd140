"""Services and selectors of tournaments: create from a preset or explicit rules, update, the
rule-set lock once a partida starts, the status lifecycle, and who sees which tournament."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from clubs.models import Membership
from config.errors import Conflict, Forbidden, Invalid, NotFound
from scoring.errors import RuleSetError
from scoring.standings import StandingsError
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PresetFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, Entry, Match, ResultSubmission, Tournament
from tournaments.selectors.tournaments import tournament_detail, tournament_get, tournament_list
from tournaments.services.tournaments import (
    DEFAULT_TIEBREAKS,
    tournament_create,
    tournament_status_change,
    tournament_update,
)

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 12)


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.ORGANIZER)


def create(membership, **kwargs):
    values = {"club_slug": membership.club.slug, "actor": membership.user, "name": "Torneo"}
    values.setdefault("starts_on", DAY)
    return tournament_create(**{**values, **kwargs})


# --- Create ---------------------------------------------------------------------------------


def test_create_from_builtin_preset_copies_its_rules_and_records_its_name(organizer):
    tournament = create(organizer, name="Torneo de Navidad", preset="4 reyes a 30")

    tournament.refresh_from_db()
    assert tournament.kings == 4
    assert tournament.stones_per_game == 30
    assert tournament.preset_name == "4 reyes a 30"
    assert tournament.status == Tournament.Status.DRAFT
    assert tournament.slug == "torneo-de-navidad"
    assert tournament.tiebreaks == list(DEFAULT_TIEBREAKS)
    assert tournament.created_by == organizer.user


def test_create_from_the_penas_own_preset(organizer):
    PresetFactory(club=organizer.club, name="La de casa", kings=4, stones_per_game=25, dejes=False)

    tournament = create(organizer, preset="La de casa")

    assert (tournament.kings, tournament.stones_per_game, tournament.dejes) == (4, 25, False)
    assert tournament.preset_name == "La de casa"


def test_a_preset_of_another_pena_is_unknown_and_the_error_lists_the_choices(organizer):
    PresetFactory(name="Ajena")

    with pytest.raises(Invalid) as caught:
        create(organizer, preset="Ajena")

    assert caught.value.code == "preset_unknown"
    assert "8 reyes a 40" in caught.value.message


def test_explicit_rules_override_the_preset_and_drop_its_name(organizer):
    tournament = create(organizer, preset="8 reyes a 40", rules={"stones_per_game": 30})

    assert (tournament.kings, tournament.stones_per_game) == (8, 30)
    assert tournament.preset_name == ""


def test_without_preset_or_rules_the_penas_default_preset_is_used(organizer):
    own = PresetFactory(club=organizer.club, name="Casa", kings=4, stones_per_game=30)
    organizer.club.default_preset = own
    organizer.club.save()

    tournament = create(organizer)

    assert (tournament.kings, tournament.stones_per_game, tournament.preset_name) == (
        4,
        30,
        "Casa",
    )


def test_rules_out_of_range_raise_the_engines_error_and_store_nothing(organizer):
    with pytest.raises(RuleSetError) as caught:
        create(organizer, rules={"stones_per_game": 5})

    assert "Stones per game must be a whole number from 10 to 100" in caught.value.message
    assert not Tournament.objects.exists()


def test_an_unknown_rule_option_is_named(organizer):
    with pytest.raises(RuleSetError, match="Unknown rule set option 'comodines'"):
        create(organizer, rules={"comodines": True})


def test_a_bad_tiebreak_order_raises_the_standings_error(organizer):
    with pytest.raises(StandingsError) as caught:
        create(organizer, tiebreaks=["lots", "matches_won"])

    assert caught.value.code == "order_lots_not_last"


def test_the_slug_is_made_unique_within_the_pena_and_a_chosen_one_must_be_free(organizer):
    first = create(organizer, name="Open")
    second = create(organizer, name="Open")
    other_pena = create(MembershipFactory(), name="Open")

    assert (first.slug, second.slug, other_pena.slug) == ("open", "open-2", "open")
    with pytest.raises(Conflict) as caught:
        create(organizer, name="Otro", slug="open")
    assert caught.value.code == "tournament_slug_taken"


def test_dates_and_limits_are_checked(organizer):
    with pytest.raises(Invalid, match="ends .* before it starts"):
        create(organizer, ends_on=DAY - dt.timedelta(days=1))
    with pytest.raises(Invalid) as caught:
        create(organizer, max_pairs=1)
    assert caught.value.code == "max_pairs"
    with pytest.raises(Invalid) as caught:
        create(organizer, name="   ")
    assert caught.value.code == "name_required"


def test_only_an_organizer_of_the_pena_creates(organizer):
    member = MembershipFactory(club=organizer.club, role=Membership.Role.MEMBER)
    with pytest.raises(Forbidden):
        create(member)
    with pytest.raises(Forbidden):
        create(organizer, actor=MembershipFactory().user)
    with pytest.raises(NotFound):
        create(organizer, club_slug="no-such-pena")


# --- Update and the rule-set lock -----------------------------------------------------------


def started_match(tournament: Tournament) -> Match:
    return MatchFactory(round__phase__tournament=tournament, started_at=timezone.now())


def test_rules_change_before_any_partida_starts(organizer):
    tournament = create(organizer, preset="8 reyes a 40")
    MatchFactory(round__phase__tournament=tournament)  # drawn, not started

    tournament_update(
        tournament=tournament, actor=organizer.user, changes={"preset": "4 reyes a 25"}
    )

    tournament.refresh_from_db()
    assert (tournament.kings, tournament.stones_per_game) == (4, 25)
    assert tournament.preset_name == "4 reyes a 25"
    audit = AuditEntry.objects.get(action="tournament_rules_changed")
    assert audit.old["preset_name"] == "8 reyes a 40"
    assert audit.new["rules"]["stones_per_game"] == 25
    assert audit.actor == organizer.user


@pytest.mark.parametrize(
    "start",
    [
        lambda match: Match.objects.filter(pk=match.pk).update(started_at=timezone.now()),
        lambda match: Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PROGRESS),
        lambda match: ResultSubmission.objects.create(
            match=match,
            side="a",
            via="link",
            payload={},
            summary={},
            idempotency_key="k1",
            based_on_version=0,
        ),
    ],
    ids=["started_at", "status", "submission"],
)
def test_rules_are_locked_once_the_first_partida_starts(organizer, start):
    tournament = create(organizer, preset="8 reyes a 40")
    match = MatchFactory(round__phase__tournament=tournament, table_number=3)
    start(match)

    with pytest.raises(Conflict) as caught:
        tournament_update(
            tournament=tournament, actor=organizer.user, changes={"rules": {"kings": 4}}
        )

    assert caught.value.code == "rules_locked"
    assert "table 3" in caught.value.message and "already started" in caught.value.message
    tournament.refresh_from_db()
    assert tournament.kings == 8


def test_after_the_lock_other_fields_and_the_same_rules_still_go_through(organizer):
    tournament = create(organizer, preset="8 reyes a 40")
    started_match(tournament)

    tournament_update(
        tournament=tournament,
        actor=organizer.user,
        changes={
            "name": "Nuevo nombre",
            "venue": "Bar Txoko",
            "tiebreaks": ["matches_won", "lots"],
            "rules": {"kings": 8, "stones_per_game": 40},  # unchanged: not a change
        },
    )

    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue) == ("Nuevo nombre", "Bar Txoko")
    assert tournament.tiebreaks == ["matches_won", "lots"]
    assert tournament_detail(user=organizer.user, tournament_id=tournament.pk).rules_locked


def test_a_bye_confirmed_when_drawn_does_not_lock_the_rules(organizer):
    tournament = create(organizer)
    MatchFactory(
        round__phase__tournament=tournament,
        entry_b=None,
        kind=Match.Kind.BYE,
        status=Match.Status.CONFIRMED,
    )

    tournament_update(tournament=tournament, actor=organizer.user, changes={"rules": {"kings": 4}})

    tournament.refresh_from_db()
    assert tournament.kings == 4


def test_raising_max_pairs_promotes_waiting_pairs_in_order(organizer):
    tournament = create(organizer, max_pairs=2)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    EntryFactory.create_batch(2, tournament=tournament)
    first, second, third = EntryFactory.create_batch(
        3, tournament=tournament, status=Entry.Status.WAITING
    )

    tournament_update(tournament=tournament, actor=organizer.user, changes={"max_pairs": 4})

    statuses = dict(Entry.objects.values_list("pk", "status"))
    assert statuses[first.pk] == statuses[second.pk] == Entry.Status.REGISTERED
    assert statuses[third.pk] == Entry.Status.WAITING


def test_max_pairs_cannot_drop_below_the_pairs_registered(organizer):
    tournament = create(organizer)
    EntryFactory.create_batch(3, tournament=tournament)

    with pytest.raises(Conflict) as caught:
        tournament_update(tournament=tournament, actor=organizer.user, changes={"max_pairs": 2})

    assert caught.value.code == "max_pairs_below_registered"


def test_update_of_another_penas_tournament(organizer):
    public = TournamentFactory(is_public=True, status=Tournament.Status.REGISTRATION)
    draft = TournamentFactory(is_public=True, status=Tournament.Status.DRAFT)
    for tournament, error in ((public, Forbidden), (draft, NotFound)):
        with pytest.raises(error):
            tournament_update(tournament=tournament, actor=organizer.user, changes={"name": "Mío"})


# --- Status ---------------------------------------------------------------------------------


def test_the_status_moves_one_step_at_a_time_and_each_move_is_audited(organizer):
    tournament = create(organizer)
    EntryFactory.create_batch(2, tournament=tournament)

    for status in ("registration", "running", "finished"):
        tournament_status_change(tournament=tournament, actor=organizer.user, status=status)
        tournament.refresh_from_db()
        assert tournament.status == status

    moves = AuditEntry.objects.filter(action="tournament_status_changed").order_by("id")
    assert [(a.old["status"], a.new["status"]) for a in moves] == [
        ("draft", "registration"),
        ("registration", "running"),
        ("running", "finished"),
    ]


@pytest.mark.parametrize(
    ("current", "requested", "code", "says"),
    [
        ("draft", "finished", "status_transition", "can only move to registration"),
        ("registration", "draft", "status_transition", "can only move to running"),
        ("finished", "running", "status_final", "stays finished"),
    ],
)
def test_an_invalid_transition_says_which_is_possible(organizer, current, requested, code, says):
    tournament = TournamentFactory(club=organizer.club, status=current)

    with pytest.raises(Conflict) as caught:
        tournament_status_change(tournament=tournament, actor=organizer.user, status=requested)

    assert caught.value.code == code
    assert says in caught.value.message
    tournament.refresh_from_db()
    assert tournament.status == current


def test_a_tournament_cannot_start_with_fewer_than_two_pairs(organizer):
    tournament = TournamentFactory(club=organizer.club)
    EntryFactory(tournament=tournament)
    EntryFactory(tournament=tournament, status=Entry.Status.WAITING)

    with pytest.raises(Conflict) as caught:
        tournament_status_change(tournament=tournament, actor=organizer.user, status="running")

    assert caught.value.code == "too_few_pairs"


def test_an_unknown_status_is_invalid(organizer):
    tournament = TournamentFactory(club=organizer.club)
    with pytest.raises(Invalid, match="Unknown status 'paused'"):
        tournament_status_change(tournament=tournament, actor=organizer.user, status="paused")


# --- Visibility -----------------------------------------------------------------------------


def test_the_list_shows_published_tournaments_to_all_and_drafts_to_their_organizers(organizer):
    published = TournamentFactory(status=Tournament.Status.REGISTRATION)
    private = TournamentFactory(is_public=False)
    foreign_draft = TournamentFactory(status=Tournament.Status.DRAFT)
    own_draft = TournamentFactory(club=organizer.club, status=Tournament.Status.DRAFT)
    own_private = TournamentFactory(club=organizer.club, is_public=False)

    def ids(user):
        return set(tournament_list(user=user).values_list("pk", flat=True))

    assert ids(AnonymousUser()) == {published.pk}
    assert ids(organizer.user) == {published.pk, own_draft.pk, own_private.pk}
    assert private.pk not in ids(UserFactory()) and foreign_draft.pk not in ids(UserFactory())
    assert set(
        tournament_list(user=organizer.user, club_slug=organizer.club.slug, status="draft")
    ) == {own_draft}


def test_a_private_tournament_is_not_found_for_others_and_found_for_its_organizers(organizer):
    private = TournamentFactory(club=organizer.club, is_public=False)

    with pytest.raises(NotFound):
        tournament_get(user=MembershipFactory().user, tournament_id=private.pk)
    with pytest.raises(NotFound):
        tournament_get(user=AnonymousUser(), tournament_id=private.pk)
    assert tournament_get(user=organizer.user, tournament_id=private.pk) == private


def test_the_detail_counts_places_and_waiting_pairs(organizer):
    tournament = TournamentFactory(club=organizer.club)
    EntryFactory.create_batch(2, tournament=tournament)
    EntryFactory(tournament=tournament, status=Entry.Status.CHECKED_IN)
    EntryFactory(tournament=tournament, status=Entry.Status.WAITING)
    EntryFactory(tournament=tournament, status=Entry.Status.WITHDRAWN)

    detail = tournament_detail(user=AnonymousUser(), tournament_id=tournament.pk)

    assert (detail.registered_count, detail.waiting_count, detail.rules_locked) == (3, 1, False)
