"""Writes of the rounds area: phases, draws, tables, publishing and closing rounds, brackets.

A package, one module per responsibility; this module re-exports their public writes so that
``from tournaments.services.rounds import round_publish`` keeps working:

- phases.py: a phase's lifecycle (add, finish, finish the open ones, go on to the next);
- drawing.py: drawing a phase's next round;
- publishing.py: publishing and closing rounds;
- tables.py: the organizer's changes to a round before it starts (pairs, tables);
- brackets.py: the next bracket matches as results are confirmed;
- emails.py: e-mailing players their table;
- common.py: what they share (organizer check, audit row, row locks, tasks on commit).

Responsible for: adding phases to a tournament; drawing a phase's next round (through
tournaments.draw_manager, the only adapter to the pure algorithms of tournaments.draw);
the organizer's changes to a round before it starts (swap two pairs, swap two tables, move a
match to a free table), each kept in the audit trail; publishing and closing rounds; finishing
a phase and going on to the next one (groups then knockout: the knockout is drawn from the
group standings); creating the next bracket matches as results are confirmed
(`bracket_advance`); and e-mailing players their table (`round_pairings_email`), in the
peña's language (tournaments.services.mail).

Every write draws its own transaction, re-reads the rows it changes with select_for_update
(phase, then round, then matches — always in that order), re-checks their state, and queues
its tasks with transaction.on_commit. Only organizers of the tournament's peña may write;
somebody else gets 404 for a tournament they cannot see and 403 for a published one.

Must not: decide a pairing or a table (tournaments.draw does), compute standings (scoring
does), or touch a match's result, version or token (tournaments/services/results/ owns
them; the draw only writes byes, which are decided when drawn).

Terms: fase (phase), ronda (round), mesa (table), pareja (Entry), descanso (bye), liguilla
(round robin group), cuadro (bracket), repesca, a tres ceros (elimination after N losses),
vaca, juego, piedras.
"""

from tournaments.selectors.rounds import phase_rules
from tournaments.services.rounds.brackets import bracket_advance
from tournaments.services.rounds.drawing import round_draw_generate
from tournaments.services.rounds.emails import round_pairings_email
from tournaments.services.rounds.phases import (
    FORMAT_OPTIONS,
    phase_advance,
    phase_create,
    phase_finish,
    phases_finish_open,
)
from tournaments.services.rounds.publishing import round_close, round_publish
from tournaments.services.rounds.tables import (
    match_table_move,
    round_entries_swap,
    round_tables_swap,
)

# Re-exported: other areas import the phase's rule set from here or from the selectors.
__all__ = [
    "FORMAT_OPTIONS",
    "bracket_advance",
    "match_table_move",
    "phase_advance",
    "phase_create",
    "phase_finish",
    "phase_rules",
    "phases_finish_open",
    "round_close",
    "round_draw_generate",
    "round_entries_swap",
    "round_pairings_email",
    "round_publish",
    "round_tables_swap",
]
