from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons.circuits"
    label = "circuits"
    verbose_name = _("Circuitos")

    def ready(self) -> None:
        # Registers the circuits' tasks in every process: tournaments queue
        # circuits.tournament_changed by its name after a result or a tournament's end.
        from seasons.circuits import tasks  # noqa: F401

        # A peña's archive (tournaments/archive.py) carries its circuits: tournaments never
        # import the circuits, so they add their part here.
        from seasons.circuits.archive import register

        register()

        # One person, one identity (clubs.identity): a merge of two player rows leaves the
        # ranking rows alone (they are derived) and queues their rebuilding by name.
        from clubs.identity.references import Follower, follower_register
        from seasons.circuits.services import MERGE_TASK

        follower_register(
            Follower(name="circuits", derived=("circuits.CircuitRankingRow",), task=MERGE_TASK)
        )
