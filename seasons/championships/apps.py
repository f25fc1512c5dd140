from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons.championships"
    label = "championships"
    verbose_name = _("Campeonatos")

    def ready(self) -> None:
        # Registers the championships' tasks in every process: tournaments queue
        # championships.tournament_changed by its name after a result or a tournament's end.
        from seasons.championships import tasks  # noqa: F401

        # Every registration in a championship's tournament keeps its eligibility rules:
        # tournaments never import the championships, so they fill tournaments' registry.
        from seasons.championships.services.eligibility import register as eligibility

        eligibility()

        # A peña's archive (tournaments/archive.py) carries its championships.
        from seasons.championships.archive import register
        from seasons.championships.live import register as live_register

        # the live push (config.live): a result of a stage's tournament reaches the page
        live_register()

        register()

        # One person, one identity (clubs.identity): nothing of a championship is derived
        # from a player row, so a merge only has its breaches of the rules named.
        from clubs.identity.references import Follower, follower_register

        follower_register(Follower(name="championships", task="championships.players_merged"))
