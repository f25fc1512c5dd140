"""A league of peñas' fixture points at the interpeñas' own app (the same table: only the
description changes; interpenas 0001)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("interpenas", "0001_initial"),
        ("leagues", "0002_team_leagues"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='teamfixture',
                    name='interpena',
                    field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='team_fixture', to='interpenas.interpena'),
                ),
            ],
            database_operations=[],
        ),
    ]
