from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"
    verbose_name = _("Peñas")

    def ready(self) -> None:
        # Registers the ratings tasks in every process (web, worker, shell): tournaments'
        # result_confirmed queues clubs.ratings_match_sync by its name.
        from clubs import tasks  # noqa: F401
