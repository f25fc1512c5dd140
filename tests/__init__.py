"""Tests for the whole project; see conftest.py for how services and Celery are handled."""
