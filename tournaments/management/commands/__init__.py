"""manage.py commands: demo, archive_export, archive_import."""
