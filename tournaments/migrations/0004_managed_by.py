"""Tournaments run by another app (a league's division, an interpeña's boards), and the double
loss a league applies to a match not played by its deadline.

The data step marks the tournaments that leagues and interpeñas created before the column
existed, reading their own rows (``leagues.Division``, ``circuits.Interpena``).
"""

from django.db import migrations, models
from django.urls import NoReverseMatch, reverse


def _url(name: str, **kwargs) -> str:
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:  # pragma: no cover - the URLConf always has them
        return ""


def mark_managed(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Division = apps.get_model("leagues", "Division")
    Interpena = apps.get_model("circuits", "Interpena")
    for division in Division.objects.select_related("league"):
        league = division.league
        Tournament.objects.filter(pk=division.tournament_id).update(
            managed_by="league",
            managed_label=f"{league.name} {league.season} · {division.name}"[:200],
            managed_url=_url("leagues:organizer-league", league_id=league.pk),
        )
    for interpena in Interpena.objects.all():
        Tournament.objects.filter(pk=interpena.tournament_id).update(
            managed_by="interpena",
            managed_label=interpena.name[:200],
            managed_url=_url("interpenas:interpena", interpena_id=interpena.pk),
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_house_rules"),
        ("leagues", "0001_initial"),
        ("circuits", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="managed_by",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "nadie: el torneo se lleva desde su mesa de control"),
                    ("league", "liga"),
                    ("interpena", "interpeñas"),
                ],
                default="",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="managed_label",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name="tournament",
            name="managed_url",
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AlterField(
            model_name="match",
            name="kind",
            field=models.CharField(
                choices=[
                    ("played", "jugada"),
                    ("forfeit", "no presentada"),
                    ("bye", "descanso"),
                    ("double_loss", "doble derrota"),
                ],
                default="played",
                max_length=16,
            ),
        ),
        migrations.RunPython(mark_managed, migrations.RunPython.noop),
    ]
