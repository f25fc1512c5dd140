from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons.ratings"
    label = "ratings"
    verbose_name = _("Valoraciones")

    def ready(self) -> None:
        # Registers the ratings tasks in every process (web, worker, shell): tournaments'
        # result_confirmed queues ratings.match_sync by its name. One person, one identity
        # (clubs.identity): a merge of two player rows leaves the ratings' rows alone (they
        # are derived) and queues their re-rating by name.
        from clubs.identity.references import Follower, follower_register
        from seasons.ratings import tasks  # noqa: F401
        from seasons.ratings.services import MERGE_TASK

        follower_register(
            Follower(
                name="ratings",
                derived=("ratings.RatingEntry", "ratings.RankingRow"),
                task=MERGE_TASK,
            )
        )
