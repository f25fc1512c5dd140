"""The built-in rule-set presets every peña can start from (scoring.PRESETS)."""

from django.db import migrations

PRESETS = {
    "8 reyes a 40": {"kings": 8, "stones_per_game": 40},
    "4 reyes a 30": {"kings": 4, "stones_per_game": 30},
    "4 reyes a 25": {"kings": 4, "stones_per_game": 25},
}


def create(apps, schema_editor):
    preset = apps.get_model("clubs", "RuleSetPreset")
    for name, values in PRESETS.items():
        preset.objects.update_or_create(club=None, name=name, defaults=values)


def remove(apps, schema_editor):
    apps.get_model("clubs", "RuleSetPreset").objects.filter(
        club=None, name__in=list(PRESETS)
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]
