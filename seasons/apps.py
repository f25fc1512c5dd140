from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    """The floor across events as an app of its own only for what spans all of it: the
    ``demo`` command (seasons/management/commands/demo.py), which loads every floor's part of
    the demo in order. It has no models; each of its packages is an app with its own label."""

    name = "seasons"
    verbose_name = _("Temporadas")
