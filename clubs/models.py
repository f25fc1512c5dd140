"""Models of peñas, members, players, pairs, leagues and ratings (none yet)."""
