"""A trios match speaks of trios, not pairs, on every page it shows: the table's link (a dispute,
a late penalty, the finished result), the organizer's partida page and the public pages; and a
substitute recorded for any of a trio's three players sits in that player's seat on the table
page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from config.errors import Invalid, error_message
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, LatePenalty, Match, Substitution, Tournament
from tournaments.selectors.results import table_view
from tournaments.services import results as svc
from tournaments.services.registration import substitution_create

pytestmark = pytest.mark.django_db

A_WINS = [{"stones": [40, 3]}, {"stones": [40, 5]}]
B_WINS = [{"stones": [3, 40]}, {"stones": [5, 40]}]


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def tournament(organizer):
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=organizer, role="organizer")
    return TournamentFactory(
        club=club, status=Tournament.Status.RUNNING, entrant_kind=Tournament.EntrantKind.TRIOS
    )


@pytest.fixture
def match(tournament):
    match = MatchFactory(round__phase__tournament=tournament, table_number=4)
    for entry, name in ((match.entry_a, "Eneko"), (match.entry_b, "Itziar")):
        entry.player_three = PlayerFactory(first_name=name, last_name="Tercero")
        entry.save()
    return match


def table(client, match: Match) -> str:
    return client.get(reverse("web:table", kwargs={"token": match.token})).content.decode()


def submit(match: Match, side: str, games: list[dict], key: str) -> None:
    match.refresh_from_db()
    svc.match_result_submit(
        match=match,
        side=side,
        payload={"games": games},
        idempotency_key=key,
        version=match.version,
        via="link",
    )


@pytest.fixture
def disputed(match):
    submit(match, "a", A_WINS, "k-a")
    submit(match, "b", B_WINS, "k-b")
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    return match


def test_a_trios_dispute_on_the_table_page_names_the_trios(client, disputed):
    page = table(client, disputed)
    assert "Los dos tríos enviaron resultados distintos" in page
    assert "Versión del trío A" in page and "Versión del trío B" in page
    assert "Gana el trío A" in page and "Gana el trío B" in page
    assert "Aceptad la versión del otro trío" in page
    assert "Somos el trío B: aceptamos la versión del trío A" in page
    assert "pareja" not in page.lower()


def test_a_pairs_dispute_still_names_the_pairs(client):
    match = MatchFactory(round__phase__tournament__status=Tournament.Status.RUNNING)
    submit(match, "a", A_WINS, "k-a")
    submit(match, "b", B_WINS, "k-b")
    page = table(client, match)
    assert "Las dos parejas enviaron resultados distintos" in page
    assert "Somos la pareja B: aceptamos la versión de la pareja A" in page
    assert "trío" not in page


def test_a_late_trio_is_named_a_trio_with_its_games_in_the_plural(client, match):
    LatePenalty.objects.create(match=match, entry=match.entry_b, minutes_late=12, games_lost=1)
    LatePenalty.objects.create(match=match, entry=match.entry_a, minutes_late=25, games_lost=2)
    page = table(client, match)
    assert "El trío B llegó 12 minutos tarde: pierde 1 juego." in page
    assert "El trío A llegó 25 minutos tarde: pierde 2 juegos." in page
    assert "pareja" not in page.lower()


def test_a_finished_trios_match_says_which_trio_won_on_the_closed_link(client, match):
    submit(match, "a", A_WINS, "k-a")
    match.refresh_from_db()
    svc.match_result_confirm(
        match=match, side="b", idempotency_key="k-b", version=match.version, via="link"
    )
    page = table(client, match)
    assert "Este resultado ya está confirmado" in page
    assert "Gana el trío A" in page and "Juegos: A 2 – B 0" in page
    assert "pareja" not in page.lower()


def test_the_trios_words_are_translated(client, match):
    # B is late: A starts a game up, so A's version needs one game more
    LatePenalty.objects.create(match=match, entry=match.entry_b, minutes_late=12, games_lost=1)
    submit(match, "a", A_WINS[:1], "k-a")
    submit(match, "b", B_WINS, "k-b")
    expected = {
        "en": ("Trio B arrived 12 minutes late", "Both trios sent different results"),
        "eu": ("B hirukotea", "hirukote"),
        "fr": ("Le trio B est arrivé avec 12 minutes de retard", "Les deux trios"),
    }
    for language, texts in expected.items():
        with translation.override(language):
            client.cookies["django_language"] = language
            page = table(client, match)
        for text in texts:
            assert text in page, (language, text)


def test_the_organizer_s_partida_page_of_a_trios_match_names_the_trios(client, organizer, disputed):
    LatePenalty.objects.create(
        match=disputed, entry=disputed.entry_b, minutes_late=20, games_lost=2
    )
    client.force_login(organizer)
    page = client.get(reverse("web:organizer-match", args=[disputed.pk])).content.decode()
    assert "Trío A" in page and "Trío B" in page
    assert "Trío B: llegó 20 min tarde y pierde 2 juegos." in page
    assert "Cada trío ha apuntado un resultado diferente" in page
    assert "Según el trío A" in page and "Gana el trío B" in page
    assert "(trío A)" in page and "(trío B)" in page  # the history says who sent what
    assert "Piedras de cada juego (trío A - trío B)" in page  # the official result's field
    assert "pareja" not in page.lower()


def test_the_organizer_s_no_show_and_late_choices_name_the_trios(client, organizer, match):
    client.force_login(organizer)
    page = client.get(reverse("web:organizer-match", args=[match.pk])).content.decode()
    assert "Un trío no se ha presentado" in page and "Un trío llegó tarde" in page
    assert "Trío A · " in page and "Trío B · " in page and "Pareja A · " not in page


def test_the_public_pages_of_a_trios_tournament_count_trios(client, tournament, match):
    EntryFactory(tournament=tournament)
    args = [tournament.club.slug, tournament.slug]
    page = client.get(reverse("web:tournament", args=args)).content.decode()
    assert "Tríos" in page and "Parejas" not in page
    entrants = client.get(reverse("web:public-pairs", args=args)).content.decode()
    assert "<h1" in entrants and "Tríos" in entrants and "Parejas" not in entrants
    screen = client.get(reverse("web:public-screen-fragment", args=args)).content.decode()
    assert "pareja" not in screen.lower()


# --- Substitutes ----------------------------------------------------------------------------------


def test_a_substitute_for_a_trio_s_third_player_sits_in_the_third_seat(client, match):
    stand_in = PlayerFactory(first_name="Koldo", last_name="Ordezko")
    Substitution.objects.create(
        match=match,
        entry=match.entry_a,
        replaced=match.entry_a.player_three,
        substitute=stand_in,
    )
    view = table_view(match=match)
    seats = {p["seat"]: p for side in view["pairs"].values() for p in side["players"]}
    assert sorted(seats) == ["A1", "A2", "A3", "B1", "B2", "B3"]
    assert seats["A3"] == {
        "seat": "A3",
        "name": "Koldo Ordezko",
        "substitute_for": "Eneko Tercero",
    }
    assert seats["B3"]["name"] == "Itziar Tercero" and seats["B3"]["substitute_for"] is None
    page = table(client, match)
    assert "Koldo Ordezko" in page and "sustituye a Eneko Tercero" in page
    hands = client.get(reverse("web:table-hands", kwargs={"token": match.token}))
    assert "Koldo Ordezko" in hands.content.decode()


def record_substitute(match: Match, entry, replaced, stand_in, organizer) -> Substitution:
    return substitution_create(
        tournament=match.round.phase.tournament,
        match_id=match.pk,
        entry_id=entry.pk,
        replaced_player_id=replaced.pk,
        substitute_player_id=stand_in.pk,
        actor=organizer,
    )


def test_the_organizer_records_a_substitute_for_a_trio_s_third_player(client, organizer, match):
    stand_in = PlayerFactory(first_name="Koldo", last_name="Ordezko")
    record_substitute(match, match.entry_b, match.entry_b.player_three, stand_in, organizer)
    audit = AuditEntry.objects.get(action="substitution_recorded")
    assert audit.new["replaced"]["name"] == "Itziar Tercero"
    page = table(client, match)
    assert "Koldo Ordezko" in page and "sustituye a Itziar Tercero" in page


def test_a_trio_s_substitute_must_replace_one_of_its_three_and_play_for_no_trio(organizer, match):
    outsider = PlayerFactory(first_name="Nadie", last_name="Fuera")
    with pytest.raises(Invalid) as caught:
        record_substitute(match, match.entry_a, outsider, PlayerFactory(), organizer)
    assert caught.value.code == "replaced_not_in_trio"
    assert "Eneko Tercero" in error_message(caught.value)  # the three are named
    a_third, b_third = match.entry_a.player_three, match.entry_b.player_three
    with pytest.raises(Invalid) as caught:
        record_substitute(match, match.entry_a, match.entry_a.pair.player_one, a_third, organizer)
    assert caught.value.code == "substitute_in_pair"
    with pytest.raises(Invalid) as caught:
        record_substitute(match, match.entry_a, a_third, b_third, organizer)
    assert caught.value.code == "substitute_is_opponent"
    assert not Substitution.objects.exists()


def test_a_substitute_for_a_trio_s_first_player_keeps_the_third_in_place(client, match):
    replaced = match.entry_b.pair.player_one
    Substitution.objects.create(
        match=match,
        entry=match.entry_b,
        replaced=replaced,
        substitute=PlayerFactory(first_name="Maite", last_name="Ordezkoa"),
    )
    page = table(client, match)
    assert "Maite Ordezkoa" in page and f"sustituye a {replaced}" in page
    assert "Itziar Tercero" in page and "Eneko Tercero" in page


def test_a_pairs_table_still_lists_two_players_a_side(match):
    pairs_match = MatchFactory(round__phase__tournament__status=Tournament.Status.RUNNING)
    view = table_view(match=pairs_match)
    assert [len(side["players"]) for side in view["pairs"].values()] == [2, 2]


def test_the_receipt_of_a_disputed_trios_result_names_the_other_trio(client, match):
    submit(match, "a", A_WINS, "k-a")
    form = {"side": "b", "idempotency_key": "b1", "version": "1"}
    form.update({"g1_a": "3", "g1_b": "40", "g1_w": "", "g2_a": "5", "g2_b": "40", "g2_w": ""})
    response = client.post(reverse("web:table-submit", kwargs={"token": match.token}), form)
    assert response.status_code == 302, response.content.decode()[:500]
    receipt = client.get(response["Location"]).content.decode()
    assert "Enviado por el trío B" in receipt
    assert "El otro trío envió un resultado distinto" in receipt and "Gana el trío B" in receipt
    assert "pareja" not in receipt.lower()
