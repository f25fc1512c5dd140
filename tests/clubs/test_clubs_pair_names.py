"""clubs.services.pair_get_or_create_from_names: one pasted line, "Ana García / Luis Pérez"."""

from __future__ import annotations

import pytest

from clubs.models import Pair, Player
from clubs.services import pair_get_or_create_from_names
from config.errors import Invalid
from tests.factories import ClubFactory, PairFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def names(pair: Pair) -> tuple[tuple[str, str], tuple[str, str]]:
    return (
        (pair.player_one.first_name, pair.player_one.last_name),
        (pair.player_two.first_name, pair.player_two.last_name),
    )


def test_a_line_makes_two_players_of_the_pena_and_their_pair():
    club = ClubFactory()
    pair = pair_get_or_create_from_names(club=club, text="Ana García / Luis Pérez")
    assert names(pair) == (("Ana", "García"), ("Luis", "Pérez"))
    assert pair.club == club
    assert pair.name == ""
    assert set(Player.objects.filter(clubs=club)) == {pair.player_one, pair.player_two}


def test_first_word_is_the_first_name_and_the_rest_the_surnames_extra_spaces_trimmed():
    pair = pair_get_or_create_from_names(
        club=ClubFactory(), text="   Ana   García  López  /Luis\tPérez   "
    )
    assert names(pair) == (("Ana", "García López"), ("Luis", "Pérez"))


def test_a_single_word_is_a_first_name_without_surnames():
    pair = pair_get_or_create_from_names(club=ClubFactory(), text="Txema / Koldo")
    assert names(pair) == (("Txema", ""), ("Koldo", ""))


def test_the_same_line_twice_gives_the_same_pair_and_no_new_players():
    club = ClubFactory()
    first = pair_get_or_create_from_names(club=club, text="Ana García / Luis Pérez")
    again = pair_get_or_create_from_names(club=club, text="luis PEREZ / ana garcía")
    assert again.pk == first.pk
    assert Player.objects.count() == 2
    assert Pair.objects.count() == 1


def test_existing_players_of_the_pena_are_reused_ignoring_case_and_accents():
    club = ClubFactory()
    angel = PlayerFactory(first_name="Ángel", last_name="Muñoz Ibáñez")
    angel.clubs.add(club)
    pair = pair_get_or_create_from_names(club=club, text="angel MUNOZ ibanez / Koldo Arregi")
    assert pair.player_one == angel
    assert names(pair)[1] == ("Koldo", "Arregi")
    assert Player.objects.count() == 2


def test_a_player_is_matched_by_full_name_whatever_the_split_of_first_and_last_names():
    club = ClubFactory()
    ana_maria = PlayerFactory(first_name="Ana María", last_name="García")
    ana_maria.clubs.add(club)
    pair = pair_get_or_create_from_names(club=club, text="Ana María García / Luis Pérez")
    assert pair.player_one == ana_maria


def test_a_namesake_in_another_pena_is_not_reused():
    mine, theirs = ClubFactory(), ClubFactory()
    stranger = PlayerFactory(first_name="Ana", last_name="García")
    stranger.clubs.add(theirs)
    pair = pair_get_or_create_from_names(club=mine, text="Ana García / Luis Pérez")
    assert pair.player_one != stranger
    assert list(pair.player_one.clubs.all()) == [mine]
    assert list(stranger.clubs.all()) == [theirs]


def test_an_existing_pair_of_the_pena_in_either_order_is_returned():
    club = ClubFactory()
    ana = PlayerFactory(first_name="Ana", last_name="García")
    luis = PlayerFactory(first_name="Luis", last_name="Pérez")
    for player in (ana, luis):
        player.clubs.add(club)
    existing = PairFactory(player_one=luis, player_two=ana, club=club, name="Los de siempre")
    assert pair_get_or_create_from_names(club=club, text="Ana García / Luis Pérez") == existing


@pytest.mark.parametrize(
    ("text", "reason", "says"),
    [
        ("Ana García Luis Pérez", "no_slash", 'has no "/"'),
        ("Ana García, Luis Pérez", "no_slash", 'has no "/"'),
        ("Ana García / Luis Pérez / Koldo Arregi", "too_many_names", "names 3 players"),
        ("Ana García // Luis Pérez", "extra_slash", 'more than one "/"'),
        ("Ana García /   ", "missing_name", "missing a name"),
        (" / Luis Pérez", "missing_name", "missing a name"),
        ("Ana García / ana  GARCIA", "same_player", "same player twice"),
        ("Ana García / " + "x" * 81, "too_long", "too long"),
    ],
)
def test_a_line_that_is_not_two_different_names_is_refused_naming_the_line(text, reason, says):
    club = ClubFactory()
    with pytest.raises(Invalid) as error:
        pair_get_or_create_from_names(club=club, text=text)
    # one code per wording: "pair_line" for the usual mistake (no "/"), else pair_line_<reason>
    assert error.value.code == ("pair_line" if reason == "no_slash" else f"pair_line_{reason}")
    assert error.value.params["reason"] == reason
    assert says in error.value.message
    shown = " ".join(text.split())
    assert f'"{shown}"' in error.value.message
    assert error.value.params["text"] == shown
    assert Player.objects.count() == 0
    assert Pair.objects.count() == 0


@pytest.mark.parametrize("text", ["", "   \t "])
def test_an_empty_line_is_refused(text):
    with pytest.raises(Invalid) as error:
        pair_get_or_create_from_names(club=ClubFactory(), text=text)
    assert (error.value.code, error.value.params["reason"]) == ("pair_line_empty", "empty")
    assert "empty" in error.value.message
    assert Player.objects.count() == 0
