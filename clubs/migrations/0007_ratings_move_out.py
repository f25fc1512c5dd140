"""The players' ratings leave the clubs app for an app of their own (seasons/ratings, label
``ratings``): the rows stay where they are; this app stops describing them
(ratings 0001 takes them over and renames their tables)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0006_club_language"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='rankingrow',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='rankingrow',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='rankingsettings',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='ratedmatch',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='ratingentry',
                    name='match',
                ),
                migrations.RemoveField(
                    model_name='ratingentry',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='ratingentry',
                    name='player',
                ),
                migrations.DeleteModel(
                    name='RatingsLock',
                ),
                migrations.DeleteModel(
                    name='RankingRow',
                ),
                migrations.DeleteModel(
                    name='RankingSettings',
                ),
                migrations.DeleteModel(
                    name='RatedMatch',
                ),
                migrations.DeleteModel(
                    name='RatingEntry',
                ),
            ],
            database_operations=[],
        ),
    ]
