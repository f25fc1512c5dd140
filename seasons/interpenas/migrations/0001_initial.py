"""Interpeñas leave the circuits app for an app of their own (seasons/interpenas, label
``interpenas``): first described as they are, on the tables ``circuits_*``, so that the league of
peñas' fixtures can point at them (leagues 0003) before the circuits app lets them go
(circuits 0003); interpenas 0002 then renames the tables."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("circuits", "0002_circuit_is_public"),
        ("clubs", "0006_club_language"),
        ("tournaments", "0006_trios_unsuited_real_31"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Interpena',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=160, verbose_name='nombre')),
                        ('venue', models.CharField(blank=True, max_length=160, verbose_name='lugar')),
                        ('played_on', models.DateField(verbose_name='fecha')),
                        ('boards', models.PositiveSmallIntegerField(verbose_name='tableros')),
                        ('is_public', models.BooleanField(default=True, verbose_name='público')),
                        ('status', models.CharField(choices=[('lineups', 'alineaciones'), ('playing', 'en juego'), ('confirmed', 'confirmado')], default='lineups', max_length=16)),
                        ('home_confirmed', models.CharField(blank=True, max_length=400)),
                        ('away_confirmed', models.CharField(blank=True, max_length=400)),
                        ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                        ('league_key', models.CharField(blank=True, db_index=True, max_length=80)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('away_captain', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('away_club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.club')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('home_captain', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('home_club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.club')),
                        ('round', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='interpena', to='tournaments.round')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='interpena', to='tournaments.tournament')),
                    ],
                    options={'db_table': 'circuits_interpena', 
                        'verbose_name': 'interpeñas',
                        'verbose_name_plural': 'interpeñas',
                        'ordering': ['-played_on', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='InterpenaBoard',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('away_pair', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.pair')),
                        ('home_pair', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.pair')),
                        ('interpena', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='board_rows', to='interpenas.interpena')),
                        ('match', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='interpena_board', to='tournaments.match')),
                    ],
                    options={'db_table': 'circuits_interpenaboard', 
                        'ordering': ['interpena', 'number'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='interpena',
                    constraint=models.CheckConstraint(condition=models.Q(('home_club', models.F('away_club')), _negated=True), name='interpena_two_clubs'),
                ),
                migrations.AddConstraint(
                    model_name='interpenaboard',
                    constraint=models.UniqueConstraint(fields=('interpena', 'number'), name='board_number_once'),
                ),
            ],
            database_operations=[],
        ),
    ]
