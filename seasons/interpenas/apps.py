from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InterpenasConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons.interpenas"
    label = "interpenas"
    verbose_name = _("Interpeñas")

    def ready(self) -> None:
        # A peña's archive (tournaments/archive.py) carries the interpeñas it hosted:
        # tournaments never import them, so they add their part here.
        from seasons.interpenas.archive import register

        register()
