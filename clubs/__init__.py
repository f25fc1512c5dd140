"""Peñas (clubs), their members and roles, players, pairs, leagues and ratings."""
