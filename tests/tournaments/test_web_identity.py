"""The organizer's page of a peña's players: the suggestions of the probable same person, the
page of two rows side by side, the merge, its refusal shown where it was asked, and the undo;
in Spanish and English."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Player, PlayerMerge
from tests.clubs.identity_data import world
from tests.factories import ClubFactory, PairFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def page(client, w, **query):
    return client.get(reverse("web:organizer-players", args=[w.txoko.slug]), query)


def preview_url(w, keep, other) -> str:
    url = reverse("web:organizer-player-merge", args=[w.txoko.slug])
    return f"{url}?keep={keep.pk}&other={other.pk}"


def test_the_peñas_players_their_probable_duplicates_and_the_merges(client):
    w = world()
    w.ana_lizarra.clubs.remove(w.txoko)
    client.force_login(w.organizer_txoko)
    response = page(client, w)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Posibles duplicados" in html and "mismo nombre" in html
    assert (
        "Peña Lizarra" in html
        and preview_url(w, w.ana, w.ana_lizarra).replace("&", "&amp;") in html
    )
    # a name alone, and Txoko's organizer does not organize Lizarra: said before they try
    assert "Solo puede fusionarlos quien organice también una peña del otro jugador" in html
    assert "600 000 000" not in html  # Lizarra's player's phone
    assert "Todavía no se ha fusionado ningún jugador." in html
    # the players' list is searched by name
    searched = page(client, w, q="Luis").content.decode()
    assert "Luis Dos" in searched and "<strong>Ana Uno</strong>" not in searched


def test_two_rows_side_by_side_then_merged_then_undone(client):
    w = world()
    client.force_login(w.organizer_both)
    preview = client.get(preview_url(w, w.ana, w.ana_lizarra))
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "¿La misma persona?" in html and "Son la misma persona: fusionar" in html
    assert "Coinciden en: mismo nombre." in html
    assert "Que se quede «ána  UNO»" in html or "Que se quede «" in html

    merged = client.post(
        reverse("web:organizer-player-merge", args=[w.txoko.slug]),
        {"keep": w.ana.pk, "other": w.ana_lizarra.pk},
        follow=True,
    )
    assert merged.redirect_chain[-1][0] == reverse("web:organizer-players", args=[w.txoko.slug])
    html = merged.content.decode()
    merge = PlayerMerge.objects.get()
    assert f"son ya una sola persona (fusión {merge.pk})" in html
    assert Player.objects.get(pk=w.ana_lizarra.pk).merged_into_id == w.ana.pk
    assert "Deshacer" in html

    undone = client.post(
        reverse("web:organizer-player-merge-undo", args=[w.txoko.slug, merge.pk]), follow=True
    )
    assert f"Fusión {merge.pk} deshecha" in undone.content.decode()
    assert Player.objects.get(pk=w.ana_lizarra.pk).merged_into_id is None
    again = client.post(reverse("web:organizer-player-merge-undo", args=[w.txoko.slug, merge.pk]))
    assert again.status_code == 409
    assert f"La fusión {merge.pk} de «{w.ana_lizarra}» en «Ana Uno» ya se deshizo." in (
        again.content.decode()
    )


def test_what_stops_a_merge_is_said_before_the_button_and_when_posted(client):
    w = world()
    PairFactory(player_one=w.ana, player_two=w.ana_lizarra, club=w.txoko)
    client.force_login(w.organizer_both)
    html = client.get(preview_url(w, w.ana, w.ana_lizarra)).content.decode()
    assert "no pueden ser la misma persona: son compañeros en la pareja" in html
    assert "Son la misma persona: fusionar" not in html
    posted = client.post(
        reverse("web:organizer-player-merge", args=[w.txoko.slug]),
        {"keep": w.ana.pk, "other": w.ana_lizarra.pk},
    )
    assert posted.status_code == 409
    assert "son compañeros en la pareja" in posted.content.decode()
    assert not PlayerMerge.objects.exists()


def test_nobody_reads_another_peñas_players_by_trying_ids(client):
    w = world()
    client.force_login(w.organizer_txoko)
    stranger = PlayerFactory(first_name="Nadie", last_name="Conocido")
    stranger.clubs.add(ClubFactory())  # of a peña Txoko's organizer does not organize
    assert client.get(preview_url(w, w.ana, stranger)).status_code == 404
    client.force_login(UserFactory())
    assert page(client, w).status_code == 403
    assert client.get(preview_url(w, w.ana, w.ana_lizarra)).status_code == 403
    missing = reverse("web:organizer-players", args=["no-such"])
    assert client.get(missing).status_code == 404


def test_the_page_in_english(client):
    w = world()
    client.force_login(w.organizer_both)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = page(client, w).content.decode()
    assert "Possible duplicates" in html and "same name" in html
    html = client.get(preview_url(w, w.ana, w.ana_lizarra)).content.decode()
    assert "The same person?" in html and "They are the same person: merge" in html


def test_a_long_list_of_suggestions_shows_the_surest_first_and_says_how_many_more(
    client, monkeypatch
):
    from tournaments.web.organizer import players as players_page

    w = world()
    w.ana_lizarra.clubs.remove(w.txoko)
    w.ana.licence = "NA-7"
    w.ana.save()
    licensed = PlayerFactory(first_name="Otra", last_name="Persona", licence="na-7")
    licensed.clubs.add(ClubFactory())
    monkeypatch.setattr(players_page, "SUGGESTIONS_SHOWN", 1)
    client.force_login(w.organizer_txoko)
    html = page(client, w).content.decode()
    assert "Otra Persona" in html and "ána  UNO" not in html
    assert "Y 1 más: se muestran primero las coincidencias más seguras." in html


def _peña(size: int):
    """A peña of ``size`` players (issue 24 §3: a federation's is 2,000) and its organizer."""
    from clubs.models import Membership
    from tests.factories import MembershipFactory

    club = ClubFactory(name=f"Federación {size}", slug=f"federacion-{size}")
    organizer = UserFactory(username=f"federacion{size}")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    players = Player.objects.bulk_create(
        Player(first_name=f"Jugador{n:04d}", last_name=f"Apellido{size}x{n:04d}")
        for n in range(size)
    )
    club.players.add(*players)
    return club, organizer


def test_a_large_peña_lists_its_players_a_page_at_a_time_and_searches_them(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.web.organizer.players import PLAYERS_PAGE_SIZE

    counted = []
    for size in (10, PLAYERS_PAGE_SIZE + 30):
        club, organizer = _peña(size)
        client.force_login(organizer)
        url = reverse("web:organizer-players", args=[club.slug])
        client.get(url)
        with CaptureQueriesContext(connection) as captured:
            html = client.get(url).content.decode()
        counted.append(len(captured))
    assert counted[0] == counted[1], counted
    assert html.count("<strong>Jugador") == PLAYERS_PAGE_SIZE and "Página 1 de 2" in html
    assert html.count("<option") < 2 * (size - 10)  # the pick form: this page's, not all
    assert "busca los dos por nombre" in html
    last = f"Jugador{size - 1:04d} Apellido{size}x{size - 1:04d}"
    assert last not in html and last in client.get(url, {"page": 2}).content.decode()
    found = client.get(url, {"q": f"Apellido{size}x{size - 1:04d}"}).content.decode()
    assert f"<strong>{last}</strong>" in found and 'class="pages"' not in found
