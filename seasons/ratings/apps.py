from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons.ratings"
    label = "ratings"
    verbose_name = _("Valoraciones")

    def ready(self) -> None:
        # Registers the ratings tasks in every process (web, worker, shell): tournaments'
        # result_confirmed queues ratings.match_sync by its name.
        from seasons.ratings import tasks  # noqa: F401
