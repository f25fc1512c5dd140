"""Pairing and bracket algorithms for Amarrako's tournaments, over plain values (no ORM).

Responsible for: deciding who meets whom — Swiss rounds, elimination after N losses (a tres
ceros), single and double elimination brackets, round-robin groups (liguilla) and their
schedules, the crossing from groups to a knockout, and table numbers — and saying why, with a
structured `Reason` on every `Pairing`.

Must not: import Django or any web code, touch a database, read the clock, or use randomness
other than the seed or ``random.Random`` passed in: the same input and seed give the same draw.
A manager in the tournaments app loads rows, calls these functions and stores what they return.
Errors an organizer can act on are `DrawError` (a stable ``code``, an English message text with
named blanks and the ``params`` that fill them, translated by the errors catalogs); anything
else is a bug.

Terms: an entrant is a pareja (pair of players); see each module for the format's own terms.

Modules:

- `base`: `Entrant`, `Result`, `Pairing`, `DrawError`, seeding order.
- `reasons`: `Reason`, the catalogue of reason codes (stable) and their wording, message ids
  of the errors catalogs like the errors' texts, so any layer says them in the reader's language.
- `swiss`: `pair_swiss`, `pair_lives` (out after N losses), `records`.
- `bracket`: `single_elimination`, the bracket structure and `advance` / `resolve` / `champion`.
- `double`: `double_elimination` (winners', losers' bracket, grand final, optional reset).
- `roundrobin`: `round_robin_groups` (snake seeding, club-mates apart), `round_robin_schedule`.
- `crossing`: `knockout_from_groups` (1A–2B, 1B–2A, …) into a seeded bracket.
- `tables`: `assign_tables` (table 1 for the top match, pinned entrants on their tables).
- `matching`: the assignment and general-matching primitives the pairers use.
- `individual`: `pair_individuals` (an individual tournament's round: partnerships drawn and
  paired at tables, no repeat partner or opponent while avoidable), `seat_frances` (Mus francés
  tables of 3 to 6), `frances_table_sizes`.
- `prizes`: the prizes across phases of a tournament's bases (`prize_from_dict`,
  `prizes_award`: who wins each from the phases' standings; ties shared or by lot).
- `entries`: the field as the bases size it (`field_cut`, `entrants_dropped`) and the match
  format chosen by the number of entries (`format_for_entries`).
- `lengths`: the match length per round ("semifinales al mejor de 3 juegos, final al mejor de
  5"): a knockout's rounds counted from the final (`stage_of`), a round's effective length
  (`length_of`, `round_length`), the lengths as the bases group them (`lengths_grouped`).
- `plan`: a tournament's plan as data: the rules by which a phase takes its entrants from
  earlier phases (`rule_from_dict`, `resolve_entrants`), the whole plan checked before the
  start (`plan_check`), groups of unequal sizes seeded by results (`group_sizes`,
  `seed_groups`) and partial round robins (`partial_schedule`).
- `ladder`: group ladders (ascensos y descensos): the level groups (`ladder_groups`), a cycle's
  rounds inside them (`ladder_round`), the moves after a cycle (`ladder_moves`).
- `table_ladder`: the ladder of tables (sube y baja): winners up a table, losers down
  (`table_ladder_start`, `table_ladder_next`), the optional swap, the table order.
- `calendar`: the evenings of a calendar pattern (`evenings`), a match's due day and whether
  it is late (`due_date`, `is_late`); dates in, dates out, never the clock.
"""

from tournaments.draw.base import DrawError, Entrant, Pairing, Result, initial_order, make_rng
from tournaments.draw.bracket import (
    Bracket,
    BracketMatch,
    Side,
    Slot,
    advance,
    bracket_pairings,
    champion,
    first_round,
    resolve,
    seed_lines,
    single_elimination,
)
from tournaments.draw.crossing import knockout_from_groups
from tournaments.draw.double import double_elimination
from tournaments.draw.individual import (
    IndividualDraw,
    IndividualTable,
    PastTable,
    frances_table_sizes,
    pair_individuals,
    seat_frances,
)
from tournaments.draw.reasons import REASON_TEXT, Reason
from tournaments.draw.roundrobin import Group, round_robin_groups, round_robin_schedule
from tournaments.draw.swiss import Record, lives_left, next_round, pair_lives, pair_swiss, records
from tournaments.draw.tables import assign_tables

__all__ = [
    "REASON_TEXT",
    "Bracket",
    "BracketMatch",
    "DrawError",
    "Entrant",
    "Group",
    "IndividualDraw",
    "IndividualTable",
    "PastTable",
    "Pairing",
    "Reason",
    "Record",
    "Result",
    "Side",
    "Slot",
    "advance",
    "assign_tables",
    "bracket_pairings",
    "champion",
    "double_elimination",
    "first_round",
    "frances_table_sizes",
    "initial_order",
    "knockout_from_groups",
    "lives_left",
    "make_rng",
    "next_round",
    "pair_individuals",
    "pair_lives",
    "pair_swiss",
    "records",
    "resolve",
    "round_robin_groups",
    "round_robin_schedule",
    "seat_frances",
    "seed_lines",
    "single_elimination",
]
