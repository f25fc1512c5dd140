"""Trios tournaments stored with a 31 real read by suit (``sota_of_suit``, ``sota_apart``) could be
played while a trio's match took game scores only; now that it takes hands, the engine refuses
those variants outside pairs (``real_31_form``) and the tournament's rules would not compile. They
become ``sota_777`` (a sota and three sevens, whatever their suits): the closest variant the trios
form scores. New tournaments are refused such rules up front (services.tournaments)."""

from django.db import migrations

SUITED = ("sota_of_suit", "sota_apart")


def unsuited(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(entrant_kind="trios", real_31__in=SUITED).update(
        real_31="sota_777", real_31_suit=""
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_notification_params")]

    operations = [migrations.RunPython(unsuited, migrations.RunPython.noop)]
