"""Peñas (clubs), their members and roles, players, pairs and rule-set presets.

The players' ratings and each peña's ranking (ratings*.py, web.py) are here; club leagues
are not built yet.
"""
