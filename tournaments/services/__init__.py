"""Writes of the tournaments app, one module per area; each function draws its own transaction.

tournaments.py (tournament and its rule set), registration.py (entries, check-in, waiting list,
substitutes), entrants.py (trios and players alone: registration, withdrawal, check-in),
frances.py (a Mus francés table's finishing order, submitted and confirmed), rounds/ (a
package: phases' lifecycle, drawing, publishing and closing, tables, brackets, e-mails),
standings.py (standings snapshots), results/ (a package: submissions, confirmations,
disputes, corrections, forfeits, hands, the round's notification; one module each).
base.py holds what the tournament's writes share (its lock, its audit row, its limits); the
imports go one way: tournaments.py → registration.py → entrants.py → base.py.
"""
