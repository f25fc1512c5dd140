"""Writes of the leagues: a league and its calendar, its points and tiebreaks changed after
its creation, divisions (added; removed while none of their matches has a result), each
jornada's draw and its publishing, postponed matches and what is decided after their
deadline, the next season.

Responsible for: the league's own rows, and playing each division as a tournament of the peña
through tournaments' services (created, pairs registered, started, one liguilla phase) so that
everything after the draw — publishing the round (e-mails, webhooks), the table's link and QR,
both pairs' entries and confirmation, disputes, corrections, substitutes, forfeits, ratings —
is the tournaments' result flow, unchanged. The jornada's draw saves its rounds through
tournaments.draw_manager, like the rounds services, with the phase locked.

Every write: one transaction; the league row locked first (then phases, rounds, matches: the
order tournaments' services use), the caller checked as an organizer of the league's peña
(somebody who may not see a private league gets NotFound), the state re-checked.

Choices:

- A fixed-pairs division's schedule is the circle method (tournaments.draw.roundrobin) over
  its pairs in the order the organizer gave; a double league plays it twice, the second time
  with the sides swapped. An odd number of pairs: one rests each jornada (descanso: no match,
  no points).
- Tables are numbered across the whole night: Primera's from 1, then Segunda's after them…
- An individual jornada: the organizer says who came; seasons.leagues.individual draws it; each
  drawn pair is the peña's pair of those two players (created the first time) and is entered
  in the division's tournament.
- A postponed match keeps its table link: a result entered before the organizer decides
  counts as played. After the deadline the organizer applies a walkover (the tournaments'
  forfeit, with its full score) or a double loss (tournaments' match_double_loss: the match is
  confirmed with no winner, so its round can close; both lose, as a walkover lost).

Its modules: checks.py (what every write shares: the league locked and its caller checked,
the organizer's values checked, the audit of a league-wide change), league.py (a league and
its calendar, its points and tiebreaks), divisions.py, jornadas.py (a jornada's draw,
publishing and closing), postponements.py, next_season.py, identity.py (a merge of two player rows).

Must not: compute standings (table.py) or touch a result but through tournaments' services.

Terms: liga, temporada, división, jornada, descanso, aplazada, no presentada, doble derrota,
ascenso / descenso, pareja, mesa.
"""

from seasons.leagues.services.checks import (
    MAX_JORNADAS,
    MAX_POINTS,
    User,
    free_slug,
    name_and_season,
    tidy_text,
)
from seasons.leagues.services.divisions import PHASE_NAME, division_create, division_remove
from seasons.leagues.services.identity import (
    players_merge_check,
    players_merged,
    players_unmerged,
)
from seasons.leagues.services.jornadas import jornada_close, jornada_draw, jornada_publish
from seasons.leagues.services.league import (
    RULES,
    league_calendar_set,
    league_create,
    league_rules_update,
)
from seasons.leagues.services.next_season import league_next_season, season_moves
from seasons.leagues.services.postponements import match_postpone, postponement_decide

__all__ = [
    "MAX_JORNADAS",
    "MAX_POINTS",
    "PHASE_NAME",
    "RULES",
    "User",
    "division_create",
    "division_remove",
    "free_slug",
    "jornada_close",
    "jornada_draw",
    "jornada_publish",
    "league_calendar_set",
    "league_create",
    "league_next_season",
    "league_rules_update",
    "match_postpone",
    "name_and_season",
    "players_merge_check",
    "players_merged",
    "players_unmerged",
    "postponement_decide",
    "season_moves",
    "tidy_text",
]
