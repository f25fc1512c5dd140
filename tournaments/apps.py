from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Torneos")

    def ready(self) -> None:
        # Registers the app's tasks in the Celery app of every process (web, worker, shell):
        # services queue them by name (config.queue) and never import this module. One
        # person, one identity (clubs.identity): clubs never import tournaments, so the
        # tournaments tell it what makes two player rows two people, and which task computes
        # again the standings that name a merged player.
        from clubs.identity.references import Follower, follower_register
        from tournaments import tasks  # noqa: F401
        from tournaments.services import identity

        follower_register(
            Follower(name="tournaments", check=identity.players_merge_check, task=identity.TASK)
        )
