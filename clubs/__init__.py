"""Peñas (clubs), their members and roles, players, pairs and rule-set presets.

Club leagues and rankings across tournaments are not built yet.
"""
