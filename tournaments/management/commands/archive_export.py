"""``manage.py archive_export``: write a peña's or a tournament's archive to a file (or stdout).

Responsible for: the command-line door of tournaments.selectors.archive, with the server's
rights (no user: whoever runs manage.py can read the database anyway).

Must not: shape the archive (tournaments.archive does).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from tournaments.archive import archive_dumps
from tournaments.models import Tournament
from tournaments.selectors.archive import club_archive, tournament_archive


class Command(BaseCommand):
    help = "Export a peña (--club SLUG) or one tournament (--tournament ID) as a JSON archive."

    def add_arguments(self, parser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--club", help="the peña's slug: the whole peña")
        which.add_argument("--tournament", type=int, help="a tournament's id")
        parser.add_argument("-o", "--output", help="the file to write (default: stdout)")

    def handle(self, *args, club: str | None, tournament: int | None, output: str | None, **_):
        if club is not None:
            found = Club.objects.filter(slug=club).first()
            if found is None:
                raise CommandError(f"There is no peña with the slug {club!r}.")
            archive = club_archive(club=found)
        else:
            chosen = Tournament.objects.select_related("club").filter(pk=tournament).first()
            if chosen is None:
                raise CommandError(f"There is no tournament {tournament}.")
            archive = tournament_archive(tournament=chosen)
        text = archive_dumps(archive)
        if output:
            Path(output).write_text(text, encoding="utf-8")
            counts = len(archive["tournaments"]), len(archive["players"]), len(archive["pairs"])
            self.stderr.write(
                f"{output}: {counts[0]} tournaments, {counts[1]} players, {counts[2]} pairs"
            )
        else:
            self.stdout.write(text)
