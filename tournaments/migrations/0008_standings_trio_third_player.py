"""A trio's standings rows listed only the two players its team row (``pair``) names: its third
(``Entry.player_three``) was missing from ``players`` in the API's standings and in
standings.csv. New snapshots carry all three (selectors.standings); this adds the third to the
rows already stored, which a finished tournament would otherwise keep for ever, and moves
``computed_at`` so that no cached answer built from the old rows is served again."""

from django.db import migrations
from django.utils import timezone


def third_player(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    StandingsSnapshot = apps.get_model("tournaments", "StandingsSnapshot")
    thirds = {
        pk: f"{first} {last}".strip()
        for pk, first, last in Entry.objects.filter(player_three__isnull=False).values_list(
            "pk", "player_three__first_name", "player_three__last_name"
        )
    }
    if not thirds:
        return
    snapshots = StandingsSnapshot.objects.filter(phase__tournament__entrant_kind="trios")
    for snapshot in snapshots.iterator():
        changed = False
        for row in snapshot.rows:
            third, players = thirds.get(row.get("entry_id")), row.get("players")
            if third and isinstance(players, list) and len(players) == 2:
                players.append(third)
                changed = True
        if changed:
            StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
                rows=snapshot.rows, computed_at=timezone.now()
            )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_tio_perete_pairs_only")]

    operations = [migrations.RunPython(third_player, migrations.RunPython.noop)]
