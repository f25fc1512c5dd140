"""Interpeñas leave the circuits app (seasons/interpenas, label ``interpenas``, took them over
with their rows: interpenas 0001); the tables stay, this app stops describing them."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("circuits", "0002_circuit_is_public"),
        ("leagues", "0003_teamfixture_interpena_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='interpena',
                    name='away_captain',
                ),
                migrations.RemoveField(
                    model_name='interpena',
                    name='away_club',
                ),
                migrations.RemoveField(
                    model_name='interpena',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='interpena',
                    name='home_captain',
                ),
                migrations.RemoveField(
                    model_name='interpena',
                    name='home_club',
                ),
                migrations.RemoveField(
                    model_name='interpena',
                    name='round',
                ),
                migrations.RemoveField(
                    model_name='interpena',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='interpenaboard',
                    name='interpena',
                ),
                migrations.RemoveField(
                    model_name='interpenaboard',
                    name='away_pair',
                ),
                migrations.RemoveField(
                    model_name='interpenaboard',
                    name='home_pair',
                ),
                migrations.RemoveField(
                    model_name='interpenaboard',
                    name='match',
                ),
                migrations.DeleteModel(
                    name='Interpena',
                ),
                migrations.DeleteModel(
                    name='InterpenaBoard',
                ),
            ],
            database_operations=[],
        ),
    ]
