"""Tournaments, rule sets, phases, rounds, tables, matches, results and standings.

The pairing and bracket algorithms live in tournaments.draw, free of the ORM.
"""
