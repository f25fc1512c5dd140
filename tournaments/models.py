"""Models of tournaments, rounds, tables, matches and results (none yet)."""
