"""The players' ratings, taken over from the clubs app (clubs 0007) with their rows: first
described as they are (the tables ``clubs_*``), then their tables renamed to this app's, and
the content types (and so the admin's permissions and log) moved to this app's label."""

from django.conf import settings
import django.db.models.deletion
from django.db import migrations, models

MODELS = ['ratingslock', 'rankingsettings', 'ratedmatch', 'ratingentry', 'rankingrow']


def content_types_move(apps, schema_editor, old="clubs", new="ratings"):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).delete()
        else:
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def content_types_back(apps, schema_editor):
    content_types_move(apps, schema_editor, old="ratings", new="clubs")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("clubs", "0007_ratings_move_out"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RatingsLock',
                    options={'db_table': 'clubs_ratingslock'},
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ],
                ),
                migrations.CreateModel(
                    name='RankingSettings',
                    options={'db_table': 'clubs_rankingsettings'},
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('shows', models.CharField(choices=[('both', 'valoración y puntos'), ('rating', 'valoración'), ('points', 'puntos')], default='both', max_length=8)),
                        ('club', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='ranking_settings', to='clubs.club')),
                    ],
                ),
                migrations.CreateModel(
                    name='RatedMatch',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('tournament', 'torneo')], max_length=16)),
                        ('source_id', models.PositiveBigIntegerField()),
                        ('order_key', models.CharField(max_length=64, unique=True)),
                        ('played_at', models.DateTimeField()),
                        ('event', models.CharField(max_length=160)),
                        ('stage', models.CharField(blank=True, max_length=120)),
                        ('url', models.CharField(blank=True, max_length=200)),
                        ('players_a', models.JSONField()),
                        ('players_b', models.JSONField()),
                        ('outcome', models.CharField(choices=[('a', 'gana el lado A'), ('b', 'gana el lado B'), ('draw', 'empate')], max_length=8)),
                        ('forfeit', models.BooleanField(default=False)),
                        ('is_public', models.BooleanField(default=True)),
                        ('games_a', models.PositiveSmallIntegerField(default=0)),
                        ('games_b', models.PositiveSmallIntegerField(default=0)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rated_matches', to='clubs.club')),
                    ],
                    options={'db_table': 'clubs_ratedmatch', 
                        'verbose_name': 'partida valorada',
                        'verbose_name_plural': 'partidas valoradas',
                        'ordering': ['order_key'],
                    },
                ),
                migrations.CreateModel(
                    name='RatingEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('order_key', models.CharField(max_length=64)),
                        ('side', models.CharField(max_length=1)),
                        ('result', models.CharField(max_length=8)),
                        ('mu_before', models.FloatField()),
                        ('sigma_before', models.FloatField()),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('rating', models.FloatField()),
                        ('points', models.SmallIntegerField()),
                        ('club', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.club')),
                        ('match', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='ratings.ratedmatch')),
                        ('player', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_entries', to='clubs.player')),
                    ],
                    options={'db_table': 'clubs_ratingentry', 
                        'ordering': ['player_id', 'order_key'],
                    },
                ),
                migrations.CreateModel(
                    name='RankingRow',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('matches', models.PositiveIntegerField(default=0)),
                        ('wins', models.PositiveIntegerField(default=0)),
                        ('losses', models.PositiveIntegerField(default=0)),
                        ('abandons', models.PositiveIntegerField(default=0)),
                        ('points', models.IntegerField(default=0)),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('rating', models.FloatField()),
                        ('club', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='ranking_rows', to='clubs.club')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ranking_rows', to='clubs.player')),
                    ],
                    options={'db_table': 'clubs_rankingrow', 
                        'indexes': [models.Index(fields=['club', '-rating'], name='ranking_by_rating'), models.Index(fields=['club', '-points'], name='ranking_by_points')],
                        'constraints': [models.UniqueConstraint(fields=('club', 'player'), name='ranking_row_once')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='ratedmatch',
                    constraint=models.UniqueConstraint(fields=('source', 'source_id'), name='rated_match_once'),
                ),
                migrations.AddIndex(
                    model_name='ratingentry',
                    index=models.Index(fields=['player', 'order_key'], name='rating_entry_history'),
                ),
                migrations.AddConstraint(
                    model_name='ratingentry',
                    constraint=models.UniqueConstraint(fields=('match', 'player'), name='rating_entry_once'),
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name='ratingslock', table=None),
        migrations.AlterModelTable(name='rankingsettings', table=None),
        migrations.AlterModelTable(name='ratedmatch', table=None),
        migrations.AlterModelTable(name='ratingentry', table=None),
        migrations.AlterModelTable(name='rankingrow', table=None),
        migrations.RunPython(content_types_move, content_types_back),
    ]
