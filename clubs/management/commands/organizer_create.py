"""``manage.py organizer_create``: the first account of a fresh installation, and a peña for it.

Responsible for: creating a login (a user who is not an administrator) with a password read
from a file or typed at the prompt, and, with ``--club``, a peña it owns (through
``clubs.services.club_create``, so the owner's membership is the one the site and the API
create). The site has no sign-up page: accounts are created by whoever runs the service, with
this command (or ``createsuperuser`` and the admin site, /admin/); a peña's owner then adds its
organizers and members by their user names (API ``clubs/{club_id}/members/add``).

Must not: print the password, or take it as an argument (it would stay in the shell's history
and in the process list).

Terms: peña (club), organizador (organizer), propietario (owner).
"""

from __future__ import annotations

import getpass
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.services import club_create
from config.errors import DomainError, error_message


class Command(BaseCommand):
    help = (
        "Create a login (not an administrator) and, with --club, a peña it owns. The password "
        "comes from --password-file or is asked for."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument(
            "--password-file",
            help="a file whose first line is the password (e.g. a secret mounted by the service "
            "manager); without it the password is asked for twice",
        )
        parser.add_argument("--club", default="", help="the name of a peña to create, owned")
        parser.add_argument("--club-slug", default="", help="its address (made from the name)")
        parser.add_argument("--town", default="")

    def handle(self, *args, username: str, password_file: str | None = None, **options) -> None:
        users = get_user_model()
        if users.objects.filter(username=username).exists():
            raise CommandError(f"The user '{username}' exists already: nothing was changed.")
        password = self._password(password_file)
        user = users(
            username=username,
            email=options["email"],
            first_name=options["first_name"],
            last_name=options["last_name"],
        )
        try:
            validate_password(password, user)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        user.set_password(password)
        with transaction.atomic():
            user.save()
            club = None
            if options["club"]:
                try:
                    club = club_create(
                        user=user,
                        name=options["club"],
                        slug=options["club_slug"],
                        town=options["town"],
                    )
                except DomainError as exc:
                    raise CommandError(error_message(exc)) from None
        done = f"Created the user '{username}'"
        if club is not None:
            done += f" and the peña '{club.name}' ({club.slug}), which it owns"
        self.stdout.write(self.style.SUCCESS(done + "."))

    def _password(self, path: str | None) -> str:
        if path:
            try:
                with open(path, encoding="utf-8") as handle:
                    password = handle.readline().rstrip("\r\n")
            except OSError as exc:
                raise CommandError(f"Cannot read the password file: {exc.strerror}.") from None
            if not password:
                raise CommandError("The password file's first line is empty.")
            return password
        if not sys.stdin.isatty():
            raise CommandError("No terminal to type the password at: give --password-file.")
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ: nothing was changed.")
        return password
