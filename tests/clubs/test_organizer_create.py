"""The first account of a fresh installation: ``manage.py organizer_create`` (there is no
sign-up page), with the peña it owns, and what it refuses without changing anything (its
messages in the site's language, Spanish)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from clubs.models import Club, Membership

pytestmark = pytest.mark.django_db

PASSWORD = "mus-de-los-jueves-2026"


@pytest.fixture
def password_file(tmp_path):
    path = tmp_path / "password"
    path.write_text(PASSWORD + "\n")
    return str(path)


def test_the_first_organizer_and_their_peña_log_in_and_run_it(password_file):
    out = io.StringIO()
    call_command(
        "organizer_create",
        "maite",
        "--email",
        "maite@example.org",
        "--password-file",
        password_file,
        "--club",
        "Peña Txoko",
        stdout=out,
    )

    assert "Created the user 'maite' and the peña 'Peña Txoko' (pena-txoko)" in out.getvalue()
    user = get_user_model().objects.get(username="maite")
    assert not user.is_staff and not user.is_superuser
    club = Club.objects.get(slug="pena-txoko")
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.OWNER
    client = Client()
    login = client.post("/accounts/login/", {"username": "maite", "password": PASSWORD})
    assert login.status_code == 302  # in, with the password from the file
    assert client.get(f"/api/v1/clubs/{club.pk}/members").status_code == 200


@pytest.mark.parametrize(
    "change, message",
    [
        ("weak", "demasiado común"),
        ("existing", "exists already"),
        ("no_file", "Cannot read the password file"),
        ("bad_club", "nombre"),
    ],
)
def test_what_it_refuses_changes_nothing(password_file, tmp_path, change, message):
    get_user_model().objects.create_user("iker", password=PASSWORD)
    args = ["organizer_create", "maite", "--password-file", password_file]
    if change == "weak":
        (tmp_path / "password").write_text("password\n")
    elif change == "existing":
        args[1] = "iker"
    elif change == "no_file":
        args[3] = str(tmp_path / "missing")
    else:
        args += ["--club", " "]
    with pytest.raises(CommandError, match=message):
        call_command(*args, stdout=io.StringIO())
    assert get_user_model().objects.count() == 1 and not Club.objects.exists()


def test_without_a_terminal_or_a_file_it_asks_for_the_file(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CommandError, match="give --password-file"):
        call_command("organizer_create", "maite", stdout=io.StringIO())
    assert not get_user_model().objects.filter(username="maite").exists()
