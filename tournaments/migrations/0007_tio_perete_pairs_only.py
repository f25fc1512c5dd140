"""Trios and Mus francés tournaments could be stored with the tío Perete on, which their tables
never counted (the engine counts it only between two pairs). The engine now refuses the option
in those forms (``tio_perete_form``), so such a tournament's rules would not compile: it is
turned off, which changes no score. New tournaments are refused it up front
(services.tournaments asks the engine for the rule set in the tournament's form)."""

from django.db import migrations

#: the entrant kinds whose tables play a form other than pairs (selectors.rounds.rule_form)
NOT_PAIRS = ("trios", "frances")


def perete_off(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(entrant_kind__in=NOT_PAIRS, tio_perete=True).update(
        tio_perete=False
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_trios_unsuited_real_31")]

    operations = [migrations.RunPython(perete_off, migrations.RunPython.noop)]
