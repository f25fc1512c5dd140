"""clubs.services on the real database: peñas, members and roles, players, pairs, presets."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from clubs.models import Club, Membership, Pair, Player, RuleSetPreset
from config.errors import Conflict, Forbidden, Invalid, NotFound
from scoring.errors import RuleSetError
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    PresetFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


OWNER, ORGANIZER, MEMBER = Membership.Role.OWNER, Membership.Role.ORGANIZER, Membership.Role.MEMBER


def member(club: Club, role: str = ORGANIZER):
    return MembershipFactory(club=club, role=role).user


def player_in(club: Club, first: str = "Ana", last: str = "García") -> Player:
    player = PlayerFactory(first_name=first, last_name=last)
    player.clubs.add(club)
    return player


# --- Peñas ------------------------------------------------------------------------------------


def test_club_create_makes_the_creator_its_only_owner():
    user = UserFactory()
    club = services.club_create(
        user=user, name="  Peña   Txoko ", town="Tolosa", contact_email="txoko@example.org"
    )
    assert club.name == "Peña Txoko"
    assert club.slug == "pena-txoko"
    assert list(Membership.objects.filter(club=club).values_list("user", "role")) == [
        (user.pk, OWNER)
    ]


def test_club_create_without_a_slug_numbers_the_name_until_free():
    ClubFactory(slug="pena-txoko")
    ClubFactory(slug="pena-txoko-2")
    club = services.club_create(user=UserFactory(), name="Peña Txoko")
    assert club.slug == "pena-txoko-3"


def test_club_create_with_a_taken_slug_is_a_conflict_and_creates_nothing():
    ClubFactory(slug="txoko")
    with pytest.raises(Conflict) as error:
        services.club_create(user=UserFactory(), name="Otra", slug="txoko")
    assert error.value.code == "slug_taken"
    assert "txoko" in error.value.message
    assert Club.objects.count() == 1
    assert Membership.objects.count() == 0


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": "   "}, "required"),
        ({"name": "x" * 121}, "too_long"),
        ({"name": "Peña", "slug": "Peña Txoko"}, "slug"),
        ({"name": "Peña", "contact_email": "not-an-address"}, "email"),
        ({"name": "¡¡!!"}, "slug_from_name"),
    ],
)
def test_club_create_refuses_bad_fields_with_a_code(fields, code):
    with pytest.raises(Invalid) as error:
        services.club_create(user=UserFactory(), **fields)
    assert error.value.code == code
    assert Club.objects.count() == 0


def test_club_create_needs_a_logged_in_user():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(Forbidden):
        services.club_create(user=AnonymousUser(), name="Peña")


def test_club_update_by_an_organizer_changes_only_the_fields_sent():
    club = ClubFactory(name="Vieja", town="Pamplona", region="Navarra")
    club = services.club_update(
        user=member(club, ORGANIZER), club=club, data={"name": "Nueva", "slug": "nueva"}
    )
    club.refresh_from_db()
    assert (club.name, club.slug, club.town, club.region) == (
        "Nueva",
        "nueva",
        "Pamplona",
        "Navarra",
    )


def test_club_update_refuses_a_plain_member_and_an_organizer_of_another_pena():
    club = ClubFactory(name="Vieja")
    for user in (member(club, MEMBER), member(ClubFactory(), OWNER)):
        with pytest.raises(Forbidden):
            services.club_update(user=user, club=club, data={"name": "Nueva"})
    club.refresh_from_db()
    assert club.name == "Vieja"


def test_club_update_to_a_taken_slug_is_a_conflict():
    ClubFactory(slug="ocupado")
    club = ClubFactory(slug="libre")
    with pytest.raises(Conflict):
        services.club_update(user=member(club), club=club, data={"slug": "ocupado"})
    club.refresh_from_db()
    assert club.slug == "libre"


def test_club_default_preset_takes_a_builtin_or_own_preset_only():
    club = ClubFactory()
    organizer = member(club)
    builtin = RuleSetPreset.objects.get(club=None, name="4 reyes a 30")
    own = PresetFactory(club=club)
    foreign = PresetFactory(club=ClubFactory())

    assert (
        services.club_default_preset_set(
            user=organizer, club=club, preset_id=builtin.pk
        ).default_preset
        == builtin
    )
    assert (
        services.club_default_preset_set(user=organizer, club=club, preset_id=own.pk).default_preset
        == own
    )
    with pytest.raises(Invalid) as error:
        services.club_default_preset_set(user=organizer, club=club, preset_id=foreign.pk)
    assert error.value.code == "preset_not_available"
    club.refresh_from_db()
    assert club.default_preset == own
    assert (
        services.club_default_preset_set(user=organizer, club=club, preset_id=None).default_preset
        is None
    )


# --- Members and roles ------------------------------------------------------------------------


def test_owner_adds_a_member_and_changes_their_role():
    club = ClubFactory()
    owner = member(club, OWNER)
    newcomer = UserFactory(username="maite")
    membership = services.membership_add(user=owner, club=club, username="maite")
    assert (membership.user, membership.role) == (newcomer, MEMBER)
    changed = services.membership_role_change(
        user=owner, club=club, member_id=newcomer.pk, role=ORGANIZER
    )
    assert Membership.objects.get(pk=changed.pk).role == ORGANIZER


def test_membership_add_errors_unknown_user_duplicate_and_bad_role():
    club = ClubFactory()
    owner = member(club, OWNER)
    with pytest.raises(Invalid) as error:
        services.membership_add(user=owner, club=club, username="nadie")
    assert error.value.code == "unknown_user"
    with pytest.raises(Conflict) as error:
        services.membership_add(user=owner, club=club, username=owner.username)
    assert error.value.code == "already_member"
    UserFactory(username="koldo")
    with pytest.raises(Invalid) as error:
        services.membership_add(user=owner, club=club, username="koldo", role="president")
    assert error.value.code == "role"
    assert not Membership.objects.filter(user__username="koldo").exists()


def test_only_owners_manage_members():
    club = ClubFactory()
    organizer = member(club, ORGANIZER)
    plain = member(club, MEMBER)
    UserFactory(username="koldo")
    with pytest.raises(Forbidden):
        services.membership_add(user=organizer, club=club, username="koldo")
    with pytest.raises(Forbidden):
        services.membership_role_change(user=organizer, club=club, member_id=plain.pk, role=OWNER)
    with pytest.raises(Forbidden):
        services.membership_remove(user=organizer, club=club, member_id=plain.pk)
    assert Membership.objects.get(user=plain).role == MEMBER


def test_the_last_owner_cannot_be_demoted_or_removed():
    club = ClubFactory(name="Peña Txoko")
    owner = member(club, OWNER)
    for attempt in (
        lambda: services.membership_role_change(
            user=owner, club=club, member_id=owner.pk, role=ORGANIZER
        ),
        lambda: services.membership_remove(user=owner, club=club, member_id=owner.pk),
    ):
        with pytest.raises(Conflict) as error:
            attempt()
        assert error.value.code == "last_owner"
        assert "last owner" in error.value.message
        assert "Peña Txoko" in error.value.message
    assert Membership.objects.get(user=owner).role == OWNER


def test_an_owner_can_step_down_once_another_owner_exists():
    club = ClubFactory()
    first, second = member(club, OWNER), member(club, OWNER)
    services.membership_role_change(user=first, club=club, member_id=first.pk, role=MEMBER)
    # Now `second` is the last owner and `first` no longer may manage members.
    with pytest.raises(Forbidden):
        services.membership_remove(user=first, club=club, member_id=second.pk)
    with pytest.raises(Conflict):
        services.membership_remove(user=second, club=club, member_id=second.pk)
    services.membership_remove(user=second, club=club, member_id=first.pk)
    assert list(Membership.objects.filter(club=club).values_list("user", "role")) == [
        (second.pk, OWNER)
    ]


def test_a_member_may_leave_but_not_remove_others():
    club = ClubFactory()
    member(club, OWNER)
    leaving, staying = member(club, MEMBER), member(club, MEMBER)
    with pytest.raises(Forbidden):
        services.membership_remove(user=leaving, club=club, member_id=staying.pk)
    services.membership_remove(user=leaving, club=club, member_id=leaving.pk)
    assert not Membership.objects.filter(user=leaving).exists()
    assert Membership.objects.filter(user=staying).exists()


def test_changing_a_non_member_is_not_found():
    club = ClubFactory()
    owner = member(club, OWNER)
    outsider = member(ClubFactory(), MEMBER)
    with pytest.raises(NotFound):
        services.membership_role_change(user=owner, club=club, member_id=outsider.pk, role=MEMBER)


def test_a_user_sees_the_penas_they_belong_to():
    user = UserFactory()
    a, b = ClubFactory(name="A"), ClubFactory(name="B")
    ClubFactory(name="C")
    MembershipFactory(club=b, user=user, role=MEMBER)
    MembershipFactory(club=a, user=user, role=OWNER)
    rows = [(m.club.name, m.role) for m in selectors.memberships_for_user(user=user)]
    assert rows == [("A", OWNER), ("B", MEMBER)]
    assert [c.name for c in selectors.club_list(user=user, mine=True)] == ["A", "B"]


# --- Players ----------------------------------------------------------------------------------


def test_player_create_update_and_search():
    club = ClubFactory()
    organizer = member(club)
    ana = services.player_create(
        user=organizer, club=club, first_name=" Ana ", last_name="García  López"
    )
    services.player_create(user=organizer, club=club, first_name="Luis", last_name="Pérez")
    assert (ana.first_name, ana.last_name, ana.user) == ("Ana", "García López", None)
    services.player_update(
        user=organizer, club=club, player_id=ana.pk, data={"email": "ana@example.org"}
    )
    ana.refresh_from_db()
    assert (ana.first_name, ana.email) == ("Ana", "ana@example.org")
    found = selectors.players_for_club(user=organizer, club=club, search="ana garc")
    assert list(found) == [ana]
    assert selectors.players_for_club(user=organizer, club=club).count() == 2


def test_player_create_refuses_an_empty_first_name_and_a_bad_email():
    club = ClubFactory()
    organizer = member(club)
    with pytest.raises(Invalid) as error:
        services.player_create(user=organizer, club=club, first_name="  ")
    assert error.value.code == "required"
    with pytest.raises(Invalid) as error:
        services.player_create(user=organizer, club=club, first_name="Ana", email="ana@")
    assert error.value.code == "email"
    assert Player.objects.count() == 0


def test_players_of_another_pena_are_not_readable_or_writable():
    mine, theirs = ClubFactory(), ClubFactory()
    organizer = member(mine)
    stranger = player_in(theirs)
    with pytest.raises(Forbidden):
        selectors.players_for_club(user=organizer, club=theirs)
    with pytest.raises(Forbidden):
        services.player_update(
            user=organizer, club=theirs, player_id=stranger.pk, data={"first_name": "X"}
        )
    # Through their own peña, a player of another peña is simply not there.
    with pytest.raises(NotFound):
        services.player_update(
            user=organizer, club=mine, player_id=stranger.pk, data={"first_name": "X"}
        )
    stranger.refresh_from_db()
    assert stranger.first_name == "Ana"


def test_a_player_may_play_for_several_penas():
    one, two = ClubFactory(), ClubFactory()
    organizer = member(one)
    MembershipFactory(club=two, user=organizer, role=ORGANIZER)
    ana = player_in(one)
    services.player_club_add(user=organizer, club=two, player_id=ana.pk)
    services.player_club_add(user=organizer, club=two, player_id=ana.pk)  # twice: no change
    assert set(ana.clubs.all()) == {one, two}
    services.player_club_remove(user=organizer, club=one, player_id=ana.pk)
    assert set(ana.clubs.all()) == {two}
    assert Player.objects.filter(pk=ana.pk).exists()


def test_adding_another_penas_player_needs_to_organize_one_of_their_penas():
    theirs, mine = ClubFactory(), ClubFactory()
    organizer = member(mine)
    stranger = player_in(theirs)
    with pytest.raises(Forbidden) as error:
        services.player_club_add(user=organizer, club=mine, player_id=stranger.pk)
    assert error.value.code == "player_not_visible"
    assert list(stranger.clubs.all()) == [theirs]
    # A player of no peña yet can be taken in by anyone organizing a peña.
    loner = PlayerFactory()
    services.player_club_add(user=organizer, club=mine, player_id=loner.pk)
    assert list(loner.clubs.all()) == [mine]
    with pytest.raises(NotFound):
        services.player_club_add(user=organizer, club=mine, player_id=loner.pk + 1000)


# --- Pairs ------------------------------------------------------------------------------------


def test_pair_create_from_two_players_of_the_pena():
    club = ClubFactory()
    organizer = member(club)
    ana, luis = player_in(club, "Ana"), player_in(club, "Luis")
    pair = services.pair_create(
        user=organizer, club=club, player_one_id=ana.pk, player_two_id=luis.pk, name="Los Txikis"
    )
    assert (pair.player_one, pair.player_two, pair.club, pair.name) == (
        ana,
        luis,
        club,
        "Los Txikis",
    )
    assert list(selectors.pairs_for_club(user=organizer, club=club)) == [pair]


def test_pair_create_errors():
    club = ClubFactory()
    organizer = member(club)
    ana, luis = player_in(club, "Ana"), player_in(club, "Luis")
    outsider = player_in(ClubFactory(), "Koldo")
    with pytest.raises(Invalid) as error:
        services.pair_create(user=organizer, club=club, player_one_id=ana.pk, player_two_id=ana.pk)
    assert error.value.code == "same_player"
    with pytest.raises(Invalid) as error:
        services.pair_create(
            user=organizer, club=club, player_one_id=ana.pk, player_two_id=outsider.pk
        )
    assert error.value.code == "player_not_in_club"
    first = services.pair_create(
        user=organizer, club=club, player_one_id=ana.pk, player_two_id=luis.pk
    )
    with pytest.raises(Conflict) as error:  # the same two players in the other order
        services.pair_create(user=organizer, club=club, player_one_id=luis.pk, player_two_id=ana.pk)
    assert error.value.code == "pair_exists"
    assert error.value.params["pair_id"] == first.pk
    assert Pair.objects.count() == 1


def test_pair_update_renames_only_a_pair_of_the_pena():
    club = ClubFactory()
    organizer = member(club)
    pair = services.pair_create(
        user=organizer,
        club=club,
        player_one_id=player_in(club, "Ana").pk,
        player_two_id=player_in(club, "Luis").pk,
    )
    assert services.pair_update(
        user=organizer, club=club, pair_id=pair.pk, name=" Txoko "
    ).name == ("Txoko")
    other = ClubFactory()
    MembershipFactory(club=other, user=organizer)
    with pytest.raises(NotFound):
        services.pair_update(user=organizer, club=other, pair_id=pair.pk, name="Robada")
    pair.refresh_from_db()
    assert pair.name == "Txoko"


# --- Presets ----------------------------------------------------------------------------------


def test_builtin_presets_come_from_the_data_migration():
    rows = {(p.name, p.kings, p.stones_per_game) for p in selectors.presets_builtin()}
    assert rows == {("8 reyes a 40", 8, 40), ("4 reyes a 30", 4, 30), ("4 reyes a 25", 4, 25)}
    for preset in selectors.presets_builtin():
        preset.rules()  # every built-in is a valid rule set


def test_preset_create_takes_engine_defaults_and_validates_through_scoring():
    club = ClubFactory()
    organizer = member(club)
    preset = services.preset_create(
        user=organizer,
        club=club,
        name="Torneo de fiestas",
        rules={"kings": 4, "stones_per_game": 30, "real_31": "sota_777"},
    )
    assert preset.rules().as_dict() == {
        "kings": 4,
        "stones_per_game": 30,
        "games_per_vaca": 3,
        "vacas_per_match": 1,
        "real_31": "sota_777",
        "dejes": True,
        "min_envite": 2,
        "real_31_suit": "",
        "tio_perete": False,
        "forgotten_stones_lost": False,
    }
    with pytest.raises(RuleSetError) as error:
        services.preset_create(user=organizer, club=club, name="Mala", rules={"kings": 6})
    assert "Kings must be 8 or 4" in error.value.message
    with pytest.raises(RuleSetError):
        services.preset_create(
            user=organizer, club=club, name="Mala", rules={"stones_per_game": 500}
        )
    assert not RuleSetPreset.objects.filter(name="Mala").exists()


def test_preset_names_are_unique_within_a_pena_and_against_builtins():
    club = ClubFactory()
    organizer = member(club)
    services.preset_create(user=organizer, club=club, name="Rápido")
    for name, code in (("rápido", "preset_name_taken"), ("8 Reyes a 40", "preset_name_builtin")):
        with pytest.raises(Conflict) as error:
            services.preset_create(user=organizer, club=club, name=name)
        assert error.value.code == code
    # Another peña may use the same name.
    other = ClubFactory()
    services.preset_create(user=member(other), club=other, name="Rápido")


def test_preset_update_and_delete_own_only():
    club = ClubFactory()
    organizer = member(club)
    preset = services.preset_create(user=organizer, club=club, name="Rápido")
    services.club_default_preset_set(user=organizer, club=club, preset_id=preset.pk)
    updated = services.preset_update(
        user=organizer, club=club, preset_id=preset.pk, data={"stones_per_game": 25, "name": "R"}
    )
    assert (updated.name, updated.stones_per_game) == ("R", 25)
    with pytest.raises(RuleSetError):
        services.preset_update(
            user=organizer, club=club, preset_id=preset.pk, data={"min_envite": 0}
        )
    preset.refresh_from_db()
    assert preset.min_envite == 2

    builtin = RuleSetPreset.objects.get(club=None, name="8 reyes a 40")
    with pytest.raises(Forbidden) as error:
        services.preset_update(user=organizer, club=club, preset_id=builtin.pk, data={"kings": 4})
    assert error.value.code == "builtin_preset"
    with pytest.raises(Forbidden):
        services.preset_delete(user=organizer, club=club, preset_id=builtin.pk)
    foreign = PresetFactory(club=ClubFactory())
    with pytest.raises(NotFound):
        services.preset_delete(user=organizer, club=club, preset_id=foreign.pk)

    services.preset_delete(user=organizer, club=club, preset_id=preset.pk)
    club.refresh_from_db()
    assert club.default_preset is None
    assert RuleSetPreset.objects.filter(club=None).count() == 3
    assert RuleSetPreset.objects.filter(pk=foreign.pk).exists()


def test_presets_of_a_pena_are_written_by_its_organizers_only():
    club = ClubFactory()
    outsider = member(ClubFactory(), OWNER)
    with pytest.raises(Forbidden):
        services.preset_create(user=outsider, club=club, name="Ajena")
    with pytest.raises(Forbidden):
        services.preset_create(user=member(club, MEMBER), club=club, name="Ajena")
    assert not RuleSetPreset.objects.filter(name="Ajena").exists()
