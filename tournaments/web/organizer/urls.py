"""The organizer's desk's URLs: every path of the desk, in the order a tournament goes.

Responsible for: the paths (whole, under ``organizador/``) and their names (``web:organizer-…``,
which templates, redirects and tests use), each pointing to the view of the module that owns
that page. tournaments/urls.py adds this list to the site's.

Must not: hold a view or any logic; rename a path or a name (printed QR sheets, bookmarks and
templates depend on them).

Terms: torneo, pareja (an Entry), fase (phase), ronda (round), partida (a Match), peña.
"""

from __future__ import annotations

from django.urls import path

from tournaments.web.organizer import (
    calendar,
    desk,
    entries,
    home,
    matches,
    phases,
    plans,
    players,
    printing,
    prizes,
    rounds,
    webhooks,
)

T = "organizador/torneos/<int:tournament_id>/"
E = T + "parejas/<int:entry_id>/"
J = T + "jugadores/<int:individual_id>/"
R = "organizador/rondas/<int:round_id>/"
M = "organizador/partidas/<int:match_id>/"
F = "organizador/fases/<int:phase_id>/"

urlpatterns = [
    path("organizador/", home.home, name="organizer-home"),
    path("organizador/penas/nueva", home.club_create, name="organizer-club-create"),
    path(
        "organizador/penas/<slug:club_slug>/webhooks",
        webhooks.webhook_log,
        name="organizer-webhooks",
    ),
    path("organizador/penas/<slug:club_slug>/jugadores", players.players, name="organizer-players"),
    path(
        "organizador/penas/<slug:club_slug>/jugadores/fusionar",
        players.player_merge,
        name="organizer-player-merge",
    ),
    path(
        "organizador/penas/<slug:club_slug>/fusiones/<int:merge_id>/deshacer",
        players.player_merge_undo,
        name="organizer-player-merge-undo",
    ),
    path(
        "organizador/penas/<slug:club_slug>/torneos/nuevo",
        desk.tournament_create,
        name="organizer-tournament-create",
    ),
    path(T, desk.tournament_desk, name="organizer-tournament"),
    path(T + "editar", desk.tournament_edit, name="organizer-tournament-edit"),
    path(T + "estado", desk.tournament_status, name="organizer-tournament-status"),
    path(T + "parejas", entries.entries, name="organizer-entries"),
    path(T + "parejas/anadir", entries.entry_add, name="organizer-entry-add"),
    path(T + "parejas/pegar", entries.entries_paste, name="organizer-entries-paste"),
    path(
        T + "parejas/todas-presentes",
        entries.entries_check_in_all,
        name="organizer-entries-check-in-all",
    ),
    path(E + "presente", entries.entry_check_in, name="organizer-entry-check-in"),
    path(E + "ausente", entries.entry_check_in_undo, name="organizer-entry-check-in-undo"),
    path(E + "retirar", entries.entry_withdraw, name="organizer-entry-withdraw"),
    path(E + "cabeza-de-serie", entries.entry_seed, name="organizer-entry-seed"),
    path(E + "mesa", entries.entry_pin, name="organizer-entry-pin"),
    path(J + "presente", entries.individual_check_in, name="organizer-individual-check-in"),
    path(
        J + "ausente", entries.individual_check_in_undo, name="organizer-individual-check-in-undo"
    ),
    path(J + "retirar", entries.individual_withdraw, name="organizer-individual-withdraw"),
    path(T + "premios", prizes.prizes, name="organizer-prizes"),
    path(T + "calendario", calendar.calendar, name="organizer-calendar"),
    path(R + "fecha", calendar.round_schedule, name="organizer-round-schedule"),
    path(T + "premios/<int:index>/quitar", prizes.prize_delete, name="organizer-prize-delete"),
    path(T + "fases/nueva", phases.phase_create, name="organizer-phase-create"),
    path(T + "plan", plans.plan_page, name="organizer-plan"),
    path(F + "mover-de-grupo", plans.group_move, name="organizer-phase-group-move"),
    path(F + "sortear", phases.round_generate, name="organizer-round-generate"),
    path(F + "terminar", phases.phase_finish, name="organizer-phase-finish"),
    path(F + "duracion", phases.phase_lengths, name="organizer-phase-lengths"),
    path(F + "avanzar", phases.phase_advance, name="organizer-phase-advance"),
    path(R, rounds.round_detail, name="organizer-round"),
    path(
        R + "mus-frances/<int:table_id>/orden",
        rounds.frances_result,
        name="organizer-frances-result",
    ),
    path(R + "cambiar-parejas", rounds.round_swap_entries, name="organizer-round-swap-entries"),
    path(R + "cambiar-mesas", rounds.round_swap_tables, name="organizer-round-swap-tables"),
    path(R + "mover-mesa", rounds.round_move_table, name="organizer-round-move-table"),
    path(R + "publicar", rounds.round_publish, name="organizer-round-publish"),
    path(R + "cerrar", rounds.round_close, name="organizer-round-close"),
    path(R + "imprimir", printing.round_print, name="organizer-round-print"),
    path(R + "hojas", printing.round_sheets, name="organizer-round-sheets"),
    path(R + "tablero", rounds.round_board, name="organizer-round-board"),
    path(M, matches.match_detail, name="organizer-match"),
    path(M + "resultado", matches.match_result, name="organizer-match-result"),
    path(M + "confirmar", matches.match_confirm, name="organizer-match-confirm"),
    path(M + "elegir", matches.match_choose, name="organizer-match-choose"),
    path(M + "resolver", matches.match_resolve, name="organizer-match-resolve"),
    path(M + "corregir", matches.match_correct, name="organizer-match-correct"),
    path(M + "no-presentada", matches.match_forfeit, name="organizer-match-forfeit"),
    path(M + "retraso", matches.match_late, name="organizer-match-late"),
    path(M + "fecha", matches.match_schedule, name="organizer-match-schedule"),
    path(M + "aplazar", matches.match_postpone, name="organizer-match-postpone"),
    path(M + "decidir", matches.match_deadline_decide, name="organizer-match-decide"),
]
