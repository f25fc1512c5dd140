# A circuit can be private: visible only to its peñas' organizers and members.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("circuits", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="circuit",
            name="is_public",
            field=models.BooleanField(default=True, verbose_name="público"),
        ),
    ]
