"""The organizer's tournament form shows and saves the house rules (31 real and its variants,
tío Perete, a forgotten stone lost, 8/4 reyes, sin deje, the minimum envite) in the page's
language; a combination the engine refuses shows its error on the form and saves nothing; a
page or script that sends no house rules changes none."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Membership
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(name="Peña Txoko", slug="txoko")


@pytest.fixture
def client_org(client, club):
    organizer = UserFactory()
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    client.force_login(organizer)
    return client


def create_url(club) -> str:
    return reverse("web:organizer-tournament-create", args=[club.slug])


def form_data(**extra) -> dict:
    """What the page posts with the house rules untouched (the default preset's)."""
    return {
        "preset": "8 reyes a 40",
        "name": "Open de Otoño",
        "starts_on": "2026-10-10",
        "tables_available": "0",
        "is_public": "on",
        "entrant_kind": "pairs",
        "frances_table_size": "4",
        "house_rules_shown": "True",
        "kings": "8",
        "real_31": "off",
        "real_31_suit": "",
        "dejes": "on",
        "min_envite": "2",
        **extra,
    }


def test_the_form_shows_each_house_rule_with_a_help_line_in_the_page_language(client_org, club):
    spanish = client_org.get(create_url(club)).content.decode()
    for text in (
        "Reglas de la casa",
        "sota de un palo y tres sietes",
        "sota y tres sietes de otros palos",
        "figura y tres sietes",
        "El tío Perete (4-5-6-7) vale una piedra",
        "Piedra olvidada, piedra perdida al cortar",
        "Se cuentan los dejes",
        "Sin marcar se juega sin deje",
        "Envite mínimo",
        "4 reyes",
    ):
        assert text in spanish, text

    client_org.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client_org.get(create_url(club)).content.decode()
    assert "House rules" in english and "Reglas de la casa" not in english
    assert "jack of one suit and three sevens" in english
    assert "Unticked, play is sin deje" in english


def test_the_house_rules_chosen_are_saved(client_org, club):
    response = client_org.post(
        create_url(club),
        form_data(
            kings="4",
            real_31="sota_of_suit",
            real_31_suit="oros",
            tio_perete="on",
            forgotten_stones_lost="on",
            dejes="",
            min_envite="3",
        ),
    )

    assert response.status_code == 302
    t = Tournament.objects.get(name="Open de Otoño")
    assert t.rule_values() | {"stones_per_game": 40} == {
        "kings": 4,
        "stones_per_game": 40,
        "games_per_vaca": 3,
        "vacas_per_match": 1,
        "real_31": "sota_of_suit",
        "real_31_suit": "oros",
        "tio_perete": True,
        "forgotten_stones_lost": True,
        "dejes": False,
        "min_envite": 3,
    }
    assert t.preset_name == ""  # no longer the preset's rules


def test_untouched_house_rules_leave_the_preset_alone(client_org, club):
    response = client_org.post(create_url(club), form_data(preset="4 reyes a 30"))

    assert response.status_code == 302
    t = Tournament.objects.get()
    assert (t.kings, t.stones_per_game, t.preset_name) == (4, 30, "4 reyes a 30")


@pytest.mark.parametrize(
    ("extra", "shown"),
    [
        (
            {"real_31": "sota_of_suit"},
            "31 real con la sota de un palo necesita ese palo",
        ),
        (
            {"real_31": "sota_apart", "entrant_kind": "trios"},
            "31 real según el palo de sus cartas",
        ),
        (
            {"real_31": "sota_of_suit", "real_31_suit": "copas", "entrant_kind": "frances"},
            "31 real según el palo de sus cartas",
        ),
        (
            {"tio_perete": "on", "entrant_kind": "trios"},
            "El tío Perete (tio_perete) solo se cuenta entre dos parejas",
        ),
    ],
)
def test_a_combination_the_engine_refuses_shows_its_error_and_saves_nothing(
    client_org, club, extra, shown
):
    response = client_org.post(create_url(club), form_data(**extra))

    assert response.status_code == 400
    body = response.content.decode()
    assert shown in body, body[body.find("errorlist") - 400 : body.find("errorlist") + 400]
    assert 'value="Open de Otoño"' in body  # what was typed is kept
    assert not Tournament.objects.exists()


def test_editing_saves_a_changed_house_rule_and_keeps_the_others(client_org, club):
    client_org.post(create_url(club), form_data(tio_perete="on", min_envite="3"))
    t = Tournament.objects.get()
    edit = reverse("web:organizer-tournament-edit", args=[t.pk])
    page = client_org.get(edit).content.decode()
    assert 'id="id_tio_perete" checked' in page  # the form starts from the tournament's

    response = client_org.post(
        edit, form_data(preset="", tio_perete="on", min_envite="3", forgotten_stones_lost="on")
    )

    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.tio_perete, t.min_envite, t.forgotten_stones_lost) == (True, 3, True)


def test_a_form_without_the_house_rules_changes_none(client_org, club):
    client_org.post(create_url(club), form_data(tio_perete="on"))
    t = Tournament.objects.get()
    data = form_data(preset="", name="Otro nombre")
    for name in ("house_rules_shown", "kings", "real_31", "real_31_suit", "dejes", "min_envite"):
        data.pop(name)

    response = client_org.post(reverse("web:organizer-tournament-edit", args=[t.pk]), data)

    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.tio_perete, t.dejes) == ("Otro nombre", True, True)
