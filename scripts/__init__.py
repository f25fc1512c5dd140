"""The project's scripts; catalogs.py is also imported by the tests (the same report)."""
