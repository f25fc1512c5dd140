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

        # The live push (config.live): a result of a division's or a fixture's tournament
        # reaches the league's page; the doors of the leagues' streams.
        from seasons.leagues.live import register as live_register

        live_register()

        # One person, one identity (clubs.identity): the leagues say when two player rows
        # are two people, and keep the player ids of an individual division's rests in step.
        from clubs.identity.references import Follower, follower_register
        from seasons.leagues import services

        follower_register(
            Follower(
                name="leagues",
                check=services.players_merge_check,
                merged=services.players_merged,
                unmerged=services.players_unmerged,
            )
        )
