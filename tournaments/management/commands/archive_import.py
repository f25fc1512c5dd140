"""``manage.py archive_import FILE --user NAME``: import an archive, whole or not at all.

Responsible for: the command-line door of tournaments.services.archive: the same checks and
the same one transaction as the API, acting as the user named (who becomes the owner of a peña
the archive creates, and must organize a peña that exists).

Must not: check the archive itself (the service does); an error is printed in English with its
code, and nothing is stored.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from config.errors import error_message
from scoring.messages import MessageError
from tournaments.services.archive import archive_import


class Command(BaseCommand):
    help = "Import a JSON archive made by archive_export (or the API), as the user named."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the archive file")
        parser.add_argument("--user", required=True, help="the user name who imports")

    def handle(self, *args, file: str, user: str, **_) -> None:
        actor = get_user_model().objects.filter(username=user).first()
        if actor is None:
            raise CommandError(f"There is no user {user!r}.")
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            result = archive_import(raw=raw, actor=actor)
        except MessageError as error:
            raise CommandError(f"{error_message(error, 'en')} ({error.code})") from None
        names = ", ".join(t.name for t in result.tournaments) or "no tournament"
        self.stdout.write(
            f"Imported into {result.club.name} ({result.club.slug}"
            f"{', new' if result.club_created else ''}): {names}; "
            f"{result.players_created} players and {result.pairs_created} pairs created."
        )
