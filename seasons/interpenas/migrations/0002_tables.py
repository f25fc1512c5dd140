"""The interpeñas' tables take this app's names, and their content types (the admin's
permissions and log) its label."""

from django.db import migrations

MODELS = ['interpena', 'interpenaboard']


def content_types_move(apps, schema_editor, old="circuits", new="interpenas"):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).delete()
        else:
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def content_types_back(apps, schema_editor):
    content_types_move(apps, schema_editor, old="interpenas", new="circuits")


class Migration(migrations.Migration):
    dependencies = [
        ("interpenas", "0001_initial"),
        ("circuits", "0003_interpenas_move_out"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelTable(name='interpena', table=None),
        migrations.AlterModelTable(name='interpenaboard', table=None),
        migrations.RunPython(content_types_move, content_types_back),
    ]
