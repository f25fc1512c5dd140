"""The organizer's pairs page with a whole field: a pasted list or a CSV file, its preview
(what it would register, nothing stored), every wrong line shown, and the team names of a
pasted list on the organizer's and the public pages."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Membership, Pair, Player
from tests.factories import ClubFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import Entry, IndividualEntry, Tournament
from tournaments.services.bulk import entrants_register_text

pytestmark = pytest.mark.django_db

FIELD = (
    "Los de la Txantrea: Ana García / Luis Pérez\n"
    "Miren Etxeberria / Jon Agirre\n"
    "Carmen Ruiz / Pedro Sanz\n"
)
CSV = (
    "\ufefflicencia;jugadores;peña;equipo\n"
    "NA-1 / NA-2;Ana García / Luis Pérez;;Los de la Txantrea\n"
    "NA-3 / NA-4;Miren Etxeberria / Jon Agirre;Peña Otra;\n"
)


def url(name: str, *args) -> str:
    return reverse(f"web:{name}", args=args)


def error_box(response) -> str:
    found = re.search(
        r'<div class="notice error" role="alert" id="error">(.*?)</div>',
        response.content.decode(),
        re.S,
    )
    return found[1].strip() if found else ""


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def club(organizer):
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    return club


@pytest.fixture
def desk(client, organizer, club):
    client.force_login(organizer)
    return client


@pytest.fixture
def tournament(club):
    return TournamentFactory(club=club, name="Open de Otoño", max_pairs=2, is_public=True)


def test_the_page_says_how_to_write_a_team_name_and_import_a_file(desk, tournament):
    page = desk.get(url("organizer-entries", tournament.pk)).content.decode()
    assert "«Los de la Txantrea: Ana García / Luis Pérez»" in page
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page
    assert "Vista previa" in page and "Inscribir la lista" in page


def test_a_pasted_list_previewed_then_registered(desk, tournament):
    paste = url("organizer-entries-paste", tournament.pk)

    preview = desk.post(paste, {"text": FIELD, "preview": "1"})

    assert preview.status_code == 200
    page = preview.content.decode()
    assert "Vista previa: todavía no se ha inscrito nada" in page
    assert "6 jugadores nuevos" in page and "3 parejas nuevas" in page
    assert "en lista de espera (1º)" in page
    assert "<strong>Los de la Txantrea</strong>" in page
    assert FIELD.splitlines()[0] in page  # the list stays in the form
    assert (Player.objects.count(), Entry.objects.count()) == (0, 0)

    done = desk.post(paste, {"text": FIELD})

    assert done.status_code == 302
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    assert [e.status for e in entries] == ["registered", "registered", "waiting"]
    assert entries[0].pair.name == "Los de la Txantrea"
    roll = desk.get(done["Location"]).content.decode()
    assert "<strong>Los de la Txantrea</strong>" in roll
    assert "Ana García / Luis Pérez" in roll  # its players, under the team name


def test_a_csv_file_previewed_then_registered_as_previewed(desk, tournament):
    ClubFactory(name="Peña Otra")
    paste = url("organizer-entries-paste", tournament.pk)
    upload = SimpleUploadedFile("campo.csv", CSV.encode(), "text/csv")

    preview = desk.post(paste, {"file": upload, "preview": "1"})

    assert preview.status_code == 200, error_box(preview)
    page = preview.content.decode()
    assert "Peña Otra" in page and "(NA-3)" in page
    assert 'data-testid="previewed-file"' in page
    assert not Entry.objects.exists()
    kept = re.search(r'name="csv_text" value="([^"]*)"', page)[1]
    assert "NA-1 / NA-2" in kept.replace("&#x27;", "'")

    done = desk.post(paste, {"text": "", "csv_text": CSV.lstrip("\ufeff")})

    assert done.status_code == 302, error_box(done)
    second = Entry.objects.filter(tournament=tournament).order_by("pk")[1]
    assert second.pair.club.name == "Peña Otra"
    assert Player.objects.get(first_name="Miren").licence == "NA-3"


def test_every_wrong_line_is_shown_and_nothing_is_registered(desk, tournament):
    text = (
        "Ana García / Luis Pérez\nsin barra\n: Jon Agirre / Miren Etxeberria\nana garcia / Eva Ruiz"
    )

    response = desk.post(url("organizer-entries-paste", tournament.pk), {"text": text})

    assert response.status_code == 400
    box = error_box(response)
    assert "3 líneas no se pueden inscribir" in box
    assert box.count("<li>") == 3
    assert "Línea 2: «sin barra»" in box
    assert "Línea 4: Ana García ya está en la línea 1" in box
    assert not Entry.objects.exists() and not Player.objects.exists()


def test_a_list_and_a_file_at_once_or_neither_is_a_form_error(desk, tournament):
    paste = url("organizer-entries-paste", tournament.pk)
    upload = SimpleUploadedFile("campo.csv", CSV.encode(), "text/csv")
    both = desk.post(paste, {"text": "Ana García / Luis Pérez", "file": upload})
    neither = desk.post(paste, {"text": "  "})
    assert both.status_code == neither.status_code == 400
    assert "no las dos cosas" in both.content.decode()
    assert "Pega la lista, o elige un archivo CSV." in neither.content.decode()
    assert not Entry.objects.exists()


def test_the_preview_in_english(desk, tournament):
    desk.cookies["django_language"] = "en"
    response = desk.post(
        url("organizer-entries-paste", tournament.pk), {"text": FIELD, "preview": "1"}
    )
    page = response.content.decode()
    assert "Preview: nothing has been registered yet" in page
    assert "6 new players" in page


def test_team_names_on_the_public_pages(organizer, club, tournament, client):
    entrants_register_text(
        tournament=tournament, text="Los de la Txantrea: Ana García / Luis Pérez", actor=organizer
    )
    trios = TournamentFactory(
        club=club, slug="trios", entrant_kind=Tournament.EntrantKind.TRIOS, is_public=True
    )
    entrants_register_text(
        tournament=trios,
        text="Los Tres: Ana Uno / Bea Dos / Eva Tres\nIker Cuatro / Jon Cinco / Koldo Seis",
        actor=organizer,
    )

    pairs = client.get(url("public-pairs", club.slug, tournament.slug)).content.decode()
    trio_page = client.get(url("public-pairs", club.slug, trios.slug)).content.decode()

    assert '<span class="nm">Los de la Txantrea</span><small>Ana García · Luis Pérez' in pairs
    assert '<span class="nm">Los Tres</span><small>Ana Uno · Bea Dos · Eva Tres' in trio_page
    assert '<span class="nm">Iker Cuatro / Jon Cinco / Koldo Seis</span><small>Peña' in trio_page
    assert Pair.objects.filter(name="Los Tres").count() == 1


def test_the_players_page_imports_a_csv_of_players_alone(desk, club):
    alone = TournamentFactory(club=club, entrant_kind=Tournament.EntrantKind.INDIVIDUALS)
    upload = SimpleUploadedFile("jugadores.csv", b"licencia,jugador\nNA-7,Ana Uno\n,Bea Dos\n")

    response = desk.post(url("organizer-entries-paste", alone.pk), {"file": upload})

    assert response.status_code == 302, error_box(response)
    assert IndividualEntry.objects.filter(tournament=alone).count() == 2
    assert Player.objects.get(first_name="Ana").licence == "NA-7"
