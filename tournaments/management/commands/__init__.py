"""manage.py commands: demo."""
