from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons.leagues"
    label = "leagues"
    verbose_name = _("Ligas")

    def ready(self) -> None:
        # A peña's archive (tournaments/archive.py) carries its leagues: tournaments never
        # import the leagues, so the leagues add their part to it here; then the leagues of
        # peñas (a section of their own, after the interpeñas they point at).
        from seasons.leagues.archive import register
        from seasons.leagues.teams.archive import register as teams_register

        register()
        teams_register()
