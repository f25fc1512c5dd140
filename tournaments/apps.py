from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Torneos")

    def ready(self) -> None:
        # Registers the app's tasks in the Celery app of every process (web, worker, shell):
        # services queue them by name (config.queue) and never import this module.
        from tournaments import tasks  # noqa: F401
