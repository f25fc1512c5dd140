"""The peña's league (liga): a season of jornadas, in divisions, with promotion and relegation.

Responsible for: leagues of fixed pairs (a single or double round robin over the calendar) and
individual leagues (players come on the night; partners and opponents drawn each jornada),
their calendar, postponed matches, walkovers and double losses, the league's standings with
its own points and tiebreaks, and the next season's divisions.

A league sits ABOVE tournaments: each division is played as a tournament of the peña (one
phase, one round per jornada), so the jornada's tables, links, QR sheets, e-mails, results,
confirmations, disputes, substitutes and ratings are the tournaments' own, unchanged. What the
league adds lives here: models.py (the rows), table.py and individual.py (pure: no Django),
selectors.py, services.py, api/ and web.py.

Must not: be imported by clubs' or tournaments' modules (the import contracts check it).

Terms: liga (league), temporada (season), división (Primera, Segunda…), jornada (a league
night, one round), ascenso / descenso (promotion / relegation), aplazada (postponed), no
presentada (walkover), doble derrota (double loss), descanso (a bye), peña, pareja.
"""
