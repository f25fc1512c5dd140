from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs.leagues"
    label = "leagues"
    verbose_name = _("Ligas")

    def ready(self) -> None:
        # A peña's archive (tournaments/archive.py) carries its leagues: tournaments never
        # import the leagues, so the leagues add their part to it here.
        from clubs.leagues.archive import register

        register()
