"""What a person reads when something they entered cannot be accepted.

Responsible for: ``error_text(exc)``, the one place the pages (table, organizer's desk, public)
turn an error the services or the engines raised into text for the page, in the user's
language. Services and the pure cores raise English messages with a stable ``code`` and their
``params`` (config.errors.DomainError, scoring.ScoringError, tournaments.draw.DrawError); here
every code a player or an organizer can meet gets a Spanish source text (``gettext``; the
lead's locale files translate them back to English), filled in with the error's params.
tests/tournaments/test_web_error_text.py reads the services' and the draw's sources and fails
when a code raised there has no text here.

Where an error carries a figure only in its English message (e.g. the target of a game in
``both_at_target``, a tournament's name, the tables of ``round_unfinished``), a pattern per
code reads it from there; one code may have several texts, one per wording of its message,
and the first whose pattern matches is used. Values the page shows in the person's words
(a status, the list of tables) are derived in ``_PREPARE``. If a pattern stops matching (the
English wording changed) or the text needs a value nobody gave, the English message is shown:
never a half-filled sentence, never an exception.

A pasted list of pairs names the failing line in front of the message ("Line 3: …") and tells
that nothing was registered after it; both are said again around the translated text.

Must not: decide anything (the error is already raised) or hide what the engine said: an
unknown code always falls back to the engine's own message.

Terms: juego (a game), vaca, piedras, lance (grande, chica, pares, juego, punto), envite,
envido, N más, quiero, no quiero, paso, órdago, pareja mano / pareja postre (the pairs of one
hand), mano (also a hand of the match: "Mano 3"), partida (a match), mesa (table), ronda,
fase, suizo, liguilla, eliminatoria, cuadro (a bracket), a tres ceros, cabeza de serie (seed),
peña (club).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.errors import error_message, is_cataloged

__all__ = ["error_text", "translated_codes"]

#: scoring's seat names (scoring.hand.SEAT_NAMES: seats counted from mano) as a player says them
_SEATS = {
    "mano": _("el jugador mano"),
    "second": _("el segundo jugador"),
    "third": _("el tercer jugador"),
    "postre": _("el jugador postre"),
}

#: "Hand 3: …": hand_records and fold_hands name the hand in front of the engine's message
_HAND_PREFIX = re.compile(r"^Hand (?P<hand>\d+): ")

#: entry_register_pasted names the line in front of the error and says nothing was stored
_LINE_PREFIX = re.compile(r"^Line (?P<line>\d+): ")
_LINE_SUFFIX = " Nothing was registered; fix the line and paste the list again."

_Text = tuple[re.Pattern[str] | None, Any]

#: a text that starts with a value, and the values that are our own words, not names
_LEADING_VALUE = re.compile(r"^\{(\w+)\}")
_OUR_WORDS = frozenset({"seat_name", "field_label", "option_name"})


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _quoted(name: str) -> str:
    """A value the English message shows with Python's repr(): in single or double quotes."""
    return rf"(?P<{name}_q>['\"])(?P<{name}>.*?)(?P={name}_q)"


_MATCH_STATE = (
    r"in vacas A (?P<va>\d+) - B (?P<vb>\d+), in the current vaca A (?P<ga>\d+) - B (?P<gb>\d+) "
    r"games \((?P<need>\d+) win a vaca, (?P<vacas>\d+) the match\)"
)

#: clubs.services' field labels (its English messages start with them), as the page says them
_FIELD_LABELS = {
    "The name": _("el nombre"),
    "The town": _("la localidad"),
    "The region": _("la provincia"),
    "The contact e-mail": _("el correo de contacto"),
    "The contact phone": _("el teléfono de contacto"),
    "The first name": _("el nombre"),
    "The last name": _("los apellidos"),
    "The e-mail": _("el correo"),
    "The phone": _("el teléfono"),
    "The pair's name": _("el nombre de la pareja"),
    "The preset's name": _("el nombre de las reglas"),
    "The slug": _("el nombre corto"),
}

#: the rule set options a phase may change (phase_rules' ``option``), as the phase form says
_RULE_OPTIONS = {
    "stones_per_game": _("Piedras por juego"),
    "games_per_vaca": _("Juegos por vaca"),
    "vacas_per_match": _("Vacas por partida"),
    "min_envite": _("Envite mínimo"),
}

# code -> (pattern on the English message or None, Spanish text); the first that fits is used.
_TEXTS: dict[str, tuple[_Text, ...]] = {
    # --- scoring: games entered as final stones ------------------------------------------------
    "both_at_target": (
        (
            _p(r"have (?P<target>\d+) or more \((?P<a>\d+)-(?P<b>\d+)\)"),
            _(
                "Juego {game}: las dos parejas tienen {target} o más ({a}-{b}). Solo gana la "
                "primera que llega a {target} y el juego se para ahí: la otra pareja acaba por "
                "debajo de {target}. Corrige las piedras."
            ),
        ),
    ),
    "game_not_finished": (
        (
            _p(r"reached (?P<target>\d+) \((?P<a>\d+)-(?P<b>\d+)\)"),
            _(
                "El juego {game} no está terminado: ninguna pareja llegó a {target} ({a}-{b}). "
                "Si se ganó con un órdago, márcalo."
            ),
        ),
    ),
    "game_after_match": (
        (
            _p(r"pareja (?P<winner>[AB]) had already won"),
            _(
                "El juego {game} sobra: la pareja {winner} ya había ganado la partida. Borra "
                "los juegos de después."
            ),
        ),
    ),
    "match_not_finished": (
        (
            _p(_MATCH_STATE + r", and the current game is at (?P<sa>\d+)-(?P<sb>\d+)"),
            _(
                "La partida no está terminada: vacas A {va} - B {vb}; en la vaca en juego, "
                "juegos A {ga} - B {gb} ({need} juegos ganan una vaca y {vacas} vacas la "
                "partida); el juego en curso va {sa}-{sb}. Anota las manos que faltan."
            ),
        ),
        (
            _p(_MATCH_STATE),
            _(
                "La partida no está terminada: vacas A {va} - B {vb}; en la vaca en juego, "
                "juegos A {ga} - B {gb} ({need} juegos ganan una vaca y {vacas} vacas la "
                "partida). Anota los juegos que faltan."
            ),
        ),
    ),
    "ordago_winner_missing": (
        (None, _("El juego {game} se ganó con un órdago: marca qué pareja lo ganó.")),
    ),
    "ordago_after_target": (
        (
            _p(r"reaches (?P<target>\d+), but the stones are (?P<a>\d+)-(?P<b>\d+)"),
            _(
                "Juego {game}: un juego ganado con órdago acaba antes de que nadie llegue a "
                "{target}, pero las piedras son {a}-{b}. Quita el órdago o corrige las piedras."
            ),
        ),
    ),
    "winner_contradicts_stones": (
        (
            _p(
                r"pareja (?P<given>[AB]) is given as the winner, but the stones "
                r"(?P<a>\d+)-(?P<b>\d+) say pareja (?P<winner>[AB]) won"
            ),
            _(
                "Juego {game}: está marcada como ganadora la pareja {given}, pero con {a}-{b} "
                "ganó la pareja {winner}. Corrige el ganador o las piedras."
            ),
        ),
    ),
    "stones_value": (
        (None, _("Juego {game}: las piedras son números enteros, de 0 en adelante.")),
    ),
    "game_empty": ((None, _("Juego {game}: escribe las piedras finales o quién lo ganó.")),),
    "winner_format": (
        (_p(r"pareja A or B"), _("El ganador de un juego es la pareja A o la B.")),
        (None, _("El ganador de un lance es la pareja mano o la pareja postre.")),
    ),
    "match_over": (
        (
            _p(r"pareja (?P<winner>[AB]) won it (?P<x>\d+)-(?P<y>\d+) in vacas"),
            _(
                "La partida ya terminó: la ganó la pareja {winner} ({x}-{y} en vacas). No se "
                "pueden anotar más manos."
            ),
        ),
    ),
    # --- scoring: the betting of a lance -------------------------------------------------------
    "unanswered_bet": (
        (
            _p(r"the last bet \('(?P<action>[^']*)'\)"),
            _(
                "En {lance} nadie contestó a la última apuesta («{action}»): añade quiero o no "
                "quiero."
            ),
        ),
    ),
    "raise_not_higher": ((None, _("En {lance}, subir a {stones} no supera la apuesta de {bet}.")),),
    "envite_below_minimum": (
        (None, _("En {lance}, un envite de {stones} no llega al mínimo de {minimum}.")),
    ),
    "paso_after_bet": (
        (
            None,
            _(
                "En {lance}, «paso» no contesta a un envite: la otra pareja dice quiero, no "
                "quiero, sube o echa un órdago."
            ),
        ),
    ),
    "answer_without_bet": (
        (
            None,
            _(
                "En {lance}, «{action}» llega antes de que nadie envide: se abre con envido "
                "(o envido N) o con órdago."
            ),
        ),
    ),
    "lance_not_played": (
        (_p(r"no player has"), _("En {lance} no se apuesta: nadie tiene {lance}.")),
        (
            _p(r"only pareja (?P<side>mano|postre) has"),
            _(
                "En {lance} no se apuesta: solo la pareja {side} tiene {lance}, y un lance se "
                "apuesta solo cuando lo tienen las dos parejas."
            ),
        ),
    ),
    "bet_after_ordago": (
        (
            _p(r"accepted in (?P<ordago_lance>\w+)"),
            _(
                "El órdago aceptado en {ordago_lance} terminó el juego: ya no se apuesta en "
                "{lance}."
            ),
        ),
    ),
    "out_of_turn": (
        (
            _p(r"after pareja (?P<bettor>mano|postre) bet, pareja (?P<answering>mano|postre)"),
            _(
                "En {lance}, «{action}» está fuera de turno: después de que envide la pareja "
                "{bettor}, contesta la pareja {answering}."
            ),
        ),
    ),
    "raise_over_ordago": (
        (None, _("En {lance}, a un órdago solo se contesta quiero o no quiero.")),
    ),
    "action_after_end": (
        (
            _p(r"ended with '(?P<end>[^']*)'; nothing can be said after it \('(?P<after>[^']*)'\)"),
            _(
                "En {lance} la apuesta terminó con «{end}»: no se puede decir nada después "
                "(«{after}»)."
            ),
        ),
    ),
    "too_many_pasos": (
        (None, _("En {lance} hay {pasos} pasos, pero solo podían hablar {speakers} jugadores.")),
    ),
    "bet_after_all_passed": (
        (
            _p(r"all (?P<speakers>\d+) players had passed, so nobody was left to say '(?P<a>.*)'"),
            _("En {lance} ya habían pasado los {speakers} jugadores: nadie podía decir «{a}»."),
        ),
    ),
    "raise_too_small": (
        (None, _("En {lance} se sube al menos una piedra («una más»), no {stones}.")),
    ),
    "unknown_action": (
        (
            None,
            _(
                "En {lance}, «{action}» no es una apuesta: escribe paso, envido, envido 4, "
                "2 más, a 6, órdago, quiero o no quiero."
            ),
        ),
    ),
    "unknown_pair": (
        (
            None,
            _("En {lance}, «{action}» no nombra una pareja: escribe A: o B: delante."),
        ),
    ),
    # --- scoring: what the players declared ----------------------------------------------------
    "winner_missing": (
        (
            None,
            _(
                "¿Quién ganó {lance}? Sin las cartas hay que marcar qué pareja ganó cada lance "
                "que se jugó."
            ),
        ),
    ),
    "winner_contradicts": (
        (
            _p(r"Pareja (?P<declared>mano|postre) cannot have won"),
            _(
                "La pareja {declared} no puede haber ganado {lance} con lo que se ha declarado: "
                "revisa el ganador o las declaraciones."
            ),
        ),
    ),
    "winner_without_juego": (
        (
            _p(r"^Nobody declared juego"),
            _(
                "Nadie declaró juego, así que se jugó al punto: marca el ganador del punto, no "
                "del juego."
            ),
        ),
        (_p(r"^Nobody has"), _("Nadie tiene juego: deja en blanco el ganador del juego.")),
        (
            _p(r"only pareja (?P<side>mano|postre) has"),
            _("Solo la pareja {side} tiene juego: el juego es suyo."),
        ),
    ),
    "winner_without_pares": (
        (_p(r"^Nobody has"), _("Nadie tiene pares: deja en blanco el ganador de pares.")),
        (
            _p(r"only pareja (?P<side>mano|postre) has"),
            _("Solo la pareja {side} tiene pares: los pares son suyos."),
        ),
    ),
    "winner_without_punto": (
        (
            None,
            _("Se declaró juego, así que no se jugó al punto: marca el ganador del juego."),
        ),
    ),
    "juego_value": (
        (
            _p(r"is not juego"),
            _(
                "{seat_name} tiene {value}, que no es juego (el juego es de 31 en adelante): "
                "decláralo como punto."
            ),
        ),
        (
            None,
            _(
                "{seat_name} no puede tener {value} de juego: el juego es 31, 32, 33, 34, 35, "
                "36, 37 o 40."
            ),
        ),
    ),
    "punto_value": ((None, _("El punto de {seat_name} va de 4 a 30, no {value}.")),),
    "punto_with_juego": (
        (
            None,
            _(
                "El punto se juega solo cuando nadie tiene juego, y se ha declarado juego: "
                "borra los valores de punto."
            ),
        ),
    ),
    "nothing_recorded": (
        (None, _("Una mano necesita lo que declaró cada jugador (o sus cartas).")),
    ),
    # --- results: the table's link and the versions -------------------------------------------
    "stale_version": (
        (
            None,
            _(
                "El resultado cambió en otro móvil mientras tenías la página abierta (quizá la "
                "otra pareja ya envió un resultado): recarga la página y vuelve a intentarlo."
            ),
        ),
    ),
    "link_closed": (
        (
            None,
            _(
                "Este resultado ya está confirmado y el enlace de la mesa está cerrado. Si no "
                "es correcto, pide a la organización que lo corrija."
            ),
        ),
    ),
    "table_link_unknown": (
        (
            None,
            _(
                "Este enlace de mesa no es válido. Vuelve a escanear el código QR de la mesa o "
                "pide el enlace a la organización."
            ),
        ),
    ),
    "round_not_open": (
        (
            None,
            _(
                "La ronda {round} no está abierta: los resultados se apuntan en la mesa solo "
                "mientras la ronda está publicada. Pregunta a la organización."
            ),
        ),
    ),
    "idempotency_key_reused": (
        (
            None,
            _("Este envío ya se usó para otro resultado. Recarga la página y vuelve a enviarlo."),
        ),
    ),
    "idempotency_key": (
        (None, _("Falta la clave del envío: recarga la página y vuelve a enviarlo.")),
    ),
    "match_not_playable": (
        (
            None,
            _(
                "Esta partida todavía no tiene rival (un descanso o un cruce por decidir): no "
                "hay resultado que apuntar."
            ),
        ),
    ),
    "already_confirmed": (
        (
            None,
            _("El resultado de esta partida ya está confirmado. La organización puede corregirlo."),
        ),
    ),
    "nothing_to_confirm": (
        (None, _("Todavía no hay resultado que confirmar: primero hay que enviarlo.")),
    ),
    "own_submission": (
        (
            _p(r"Pareja (?P<side>[AB]) entered"),
            _("Este resultado lo envió la pareja {side}: tiene que confirmarlo la otra pareja."),
        ),
    ),
    "match_disputed": (
        (
            None,
            _(
                "Las parejas enviaron resultados distintos: elige uno de los dos o apunta el "
                "resultado oficial."
            ),
        ),
    ),
    "result_already_entered": (
        (
            _p(r"late penalty"),
            _(
                "Ya se envió un resultado de esta partida: el retraso se apunta antes. Corrige "
                "el resultado."
            ),
        ),
        (
            None,
            _("Ya se envió el resultado de esta partida: ya no se pueden añadir ni quitar manos."),
        ),
    ),
    "no_hands": ((None, _("Todavía no se ha anotado ninguna mano: no hay nada que deshacer.")),),
    "not_confirmed": (
        (
            None,
            _(
                "Solo se corrige un resultado confirmado: introduce o resuelve antes el "
                "resultado de esta partida."
            ),
        ),
    ),
    "not_disputed": ((None, _("Esta partida no está en disputa: no hay nada que resolver.")),),
    "resolve_choice": (
        (
            None,
            _(
                "Elige el resultado de una de las parejas o apunta el oficial: una de las dos "
                "cosas."
            ),
        ),
    ),
    "submission_unknown": (
        (None, _("El envío {submission} no es uno de los resultados de esta partida.")),
    ),
    "result_has_dependents": (
        (
            None,
            _(
                "Este resultado ya no se puede corregir: la partida de la mesa {table} de la "
                "ronda {round} depende de él y ya ha empezado. Corrige o reinicia antes esa "
                "partida."
            ),
        ),
    ),
    "no_lateness_rule": (
        (
            None,
            _(
                "Este torneo no tiene regla de retrasos: pon antes en sus reglas cuántos minutos "
                "cuestan un juego."
            ),
        ),
    ),
    "minutes_late": ((None, _("Los minutos de retraso son un número entero desde 0.")),),
    "side": ((None, _("Di qué pareja sois: la A o la B.")),),
    "side_required": ((None, _("Di qué pareja sois: la A o la B.")),),
    "result_format": (
        (
            None,
            _("Envía el resultado juego a juego o mano a mano, una de las dos formas."),
        ),
    ),
    "match_not_found": (
        (
            _p(r"in this tournament\.$"),
            _("No existe la partida {match} en este torneo: recarga la página."),
        ),
        (
            None,
            _(
                "No existe la partida {match}, o su torneo no está publicado y no organizas su "
                "peña. Revisa el enlace o entra como organizador."
            ),
        ),
    ),
    "round_not_found": (
        (_p(r"^There is no round (?P<number>\d+)\.$"), _("No existe la ronda {number}.")),
        (
            None,
            _(
                "No existe la ronda {round}, o no está publicada y no organizas su peña. Revisa "
                "el enlace o entra como organizador."
            ),
        ),
    ),
    # --- who may do what (clubs.roles, clubs.selectors) ----------------------------------------
    "not_organizer": (
        (
            _p(r"organizers of (?P<club_name>.+) can do this"),
            _("Solo la organización de {club_name} puede hacer esto."),
        ),
    ),
    "not_owner": (
        (
            _p(r"owners of (?P<club_name>.+) can do this"),
            _("Solo los propietarios de {club_name} pueden hacer esto."),
        ),
    ),
    "not_member": (
        (
            _p(r"members of (?P<club_name>.+) can see"),
            _("Solo los miembros de {club_name} pueden ver quién es miembro."),
        ),
    ),
    "not_authenticated": ((None, _("Entra con tu cuenta para hacer esto.")),),
    # --- the tournament: creating it, its settings, its status ---------------------------------
    "tournament_not_found": (
        (
            _p(r"^There is no tournament (?P<number>\d+), or it is not published yet"),
            _("No existe el torneo {number}, o todavía no está publicado."),
        ),
        (
            _p(r"^There is no tournament (?P<number>\d+)"),
            _(
                "No existe el torneo {number}, o no está publicado y no organizas su peña. "
                "Revisa el enlace o entra como organizador."
            ),
        ),
    ),
    "club_not_found": (
        (_p(r"no longer exists"), _("Esta peña ya no existe.")),
        (_p(r"^There is no peña (?P<number>\d+)\.$"), _("No existe la peña {number}.")),
        (None, _("No existe la peña «{club}»: revisa su nombre corto.")),
    ),
    "name_required": ((None, _("Ponle un nombre al torneo.")),),
    "dates_order": (
        (
            _p(r"ends \((?P<ends>[^)]+)\) before it starts \((?P<starts>[^)]+)\)"),
            _(
                "El torneo acaba ({ends}) antes de empezar ({starts}): corrige una de las dos "
                "fechas."
            ),
        ),
    ),
    "tables_available": (
        (
            _p(r"from 0 to (?P<most>\d+), not (?P<value>-?\d+)"),
            _("Las mesas disponibles van de 0 a {most}, no {value}. Con 0 no hay límite."),
        ),
    ),
    "max_pairs": (
        (
            _p(r"from 2 to (?P<most>\d+), not (?P<value>-?\d+)"),
            _(
                "El máximo de parejas va de 2 a {most}, no {value}. Déjalo vacío para no poner "
                "límite."
            ),
        ),
    ),
    "late_minutes_per_game": (
        (
            _p(r"from 1 to (?P<most>\d+), not (?P<value>-?\d+)"),
            _(
                "Los minutos de retraso por juego perdido van de 1 a {most}, no {value}. Déjalo "
                "vacío para no penalizar los retrasos."
            ),
        ),
    ),
    "max_pairs_below_registered": (
        (
            _p(r"more than a maximum of (?P<most>\d+)"),
            _(
                "Ya hay {registered} parejas inscritas, más que un máximo de {most}: retira "
                "parejas antes o pon un máximo de al menos {registered}."
            ),
        ),
    ),
    "pinned_table_missing": (
        (
            _p(
                r"^(?P<pair>.+) is pinned to table (?P<table>\d+), which would no longer exist "
                r"with (?P<tables>\d+) tables"
            ),
            _(
                "{pair} tiene fijada la mesa {table}, que dejaría de existir con {tables} mesas: "
                "quítale antes la mesa fija."
            ),
        ),
    ),
    "rules_locked": (
        (
            _p(r"at table (?P<table>\d+) of (?P<phase_name>.+), round (?P<round>\d+), has"),
            _(
                "Las reglas ya no se pueden cambiar: la partida de la mesa {table} ({phase_name}, "
                "ronda {round}) ya ha empezado, y los resultados se puntúan con las reglas con "
                "que empezó. El nombre, las fechas, el lugar, las mesas, los límites y los "
                "desempates sí se pueden cambiar."
            ),
        ),
        (
            _p(r"a partida of (?P<phase_name>.+), round (?P<round>\d+), has"),
            _(
                "Las reglas ya no se pueden cambiar: una partida de {phase_name} (ronda {round}) "
                "ya ha empezado, y los resultados se puntúan con las reglas con que empezó. El "
                "nombre, las fechas, el lugar, las mesas, los límites y los desempates sí se "
                "pueden cambiar."
            ),
        ),
        (
            _p(r"finished tournament"),
            _("Las reglas de un torneo terminado ya no se pueden cambiar."),
        ),
    ),
    "status_unknown": ((None, _("El estado «{status}» no existe: los estados son {statuses}.")),),
    "status_transition": (
        (
            _p(r"can only move to (?P<allowed>\w+)"),
            _(
                "Un torneo en estado «{current_name}» solo puede pasar a «{allowed_name}», no a "
                "«{requested_name}». El orden es {statuses}."
            ),
        ),
        (
            _p(r"stays finished"),
            _("El torneo está terminado, y un torneo terminado ya no cambia de estado."),
        ),
    ),
    "too_few_pairs": (
        (
            _p(r"it has (?P<count>\d+)"),
            _(
                "Un torneo necesita al menos dos parejas inscritas para empezar; tiene {count}. "
                "Inscribe parejas primero."
            ),
        ),
    ),
    "slug_format": (
        (
            _p(r"short name " + _quoted("slug") + r" may only hold.*e\.g\. " + _quoted("example")),
            _(
                "El nombre corto «{slug}» solo puede llevar minúsculas sin tildes, cifras y "
                "guiones, por ejemplo «{example}»."
            ),
        ),
    ),
    "slug_taken": (
        (
            _p(r"^(?P<club_name>.+) already has a tournament with the short name"),
            _("{club_name} ya tiene un torneo con el nombre corto «{slug}»: elige otro."),
        ),
        (None, _("Otra peña ya usa el nombre corto «{slug}»: elige otro.")),
    ),
    # --- registration: pairs, seeds, tables, substitutes --------------------------------------
    "registration_closed": (
        (
            _p(r"^Registration for (?P<tournament_name>.+) is closed \(the tournament is"),
            _(
                "La inscripción de {tournament_name} está cerrada (el torneo está "
                "«{status_name}»): las parejas se inscriben antes de que empiece."
            ),
        ),
    ),
    "tournament_finished": (
        (
            _p(r"^(?P<tournament_name>.+) has finished; its registrations"),
            _("{tournament_name} ha terminado: sus inscripciones ya no pueden cambiar."),
        ),
        (
            _p(r"^(?P<tournament_name>.+) is finished; phases"),
            _("{tournament_name} ha terminado: ya no se le pueden añadir fases."),
        ),
        (_p(r"^(?P<tournament_name>.+) is finished\.$"), _("{tournament_name} ha terminado.")),
    ),
    "paste_empty": (
        (None, _("Pega al menos una pareja, una por línea, así: «Ana García / Luis Pérez».")),
    ),
    "paste_too_long": (
        (
            _p(r"has (?P<lines>\d+) lines; paste at most (?P<most>\d+)"),
            _("La lista tiene {lines} líneas: pega como mucho {most} cada vez."),
        ),
    ),
    "pair_line": (
        (
            _p(r"names the same player twice"),
            _(
                "«{line_text}» nombra dos veces al mismo jugador: una pareja son dos jugadores "
                "distintos."
            ),
        ),
        (
            _p(r"^The line is empty"),
            _("La línea está vacía: escribe la pareja así: «Ana García / Luis Pérez»."),
        ),
        (
            _p(r'has no "/" between'),
            _(
                "«{line_text}» no tiene una «/» entre los dos jugadores: escríbela así: «Ana "
                "García / Luis Pérez»."
            ),
        ),
        (
            _p(r"names (?P<count>\d+) players"),
            _(
                "«{line_text}» nombra a {count} jugadores: una pareja son exactamente dos "
                "nombres separados por una «/», así: «Ana García / Luis Pérez»."
            ),
        ),
        (
            _p(r'has more than one "/"'),
            _(
                "«{line_text}» tiene más de una «/»: separa los dos jugadores con una sola, "
                "así: «Ana García / Luis Pérez»."
            ),
        ),
        (
            _p(r"is missing a name on one side"),
            _(
                "En «{line_text}» falta un nombre a un lado de la «/»: escribe los dos "
                "jugadores, así: «Ana García / Luis Pérez»."
            ),
        ),
        (
            _p(
                r'the name "(?P<name>.+)" is too long \(at most (?P<first_max>\d+) characters '
                r"for the first name and (?P<last_max>\d+) for the surnames"
            ),
            _(
                "En «{line_text}» el nombre «{name}» es demasiado largo: como mucho "
                "{first_max} letras para el nombre y {last_max} para los apellidos."
            ),
        ),
    ),
    "pair_repeated": (
        (
            None,
            _("Repite la pareja de la línea {first_line}: quita una de las dos líneas."),
        ),
    ),
    "already_registered": (
        (
            _p(r"is already on the waiting list"),
            _("{pair} ya está en la lista de espera de este torneo."),
        ),
        (None, _("{pair} ya está inscrita en este torneo.")),
    ),
    "already_withdrawn": (
        (_p(r"^(?P<pair>.+) already withdrew"), _("{pair} ya se había retirado del torneo.")),
    ),
    "entry_not_found": (
        (
            _p(r"in (?P<tournament_name>.+)\.$"),
            _(
                "La pareja inscrita n.º {entry} no está en {tournament_name}: quizá la han "
                "quitado. Recarga la página."
            ),
        ),
    ),
    "entry_withdrawn": (
        (
            _p(r"^(?P<pair>.+) has withdrawn;"),
            _("{pair} se ha retirado: vuelve a inscribirla antes de marcarla como presente."),
        ),
    ),
    "entry_waiting": (
        (
            _p(r"^(?P<pair>.+) is on the waiting list and all (?P<most>\d+) places"),
            _(
                "{pair} está en la lista de espera y las {most} plazas están ocupadas: retira "
                "una pareja o sube el máximo de parejas antes."
            ),
        ),
    ),
    "entry_not_checked_in": (
        (
            _p(r"^(?P<pair>.+) is not checked in"),
            _("{pair} no está marcada como presente: está «{status_name}»."),
        ),
    ),
    "seed_range": (
        (
            _p(r"to (?P<most>\d+), not"),
            _(
                "Un cabeza de serie es un número entero del 1 (la mejor pareja) al {most}, no "
                "«{seed}»."
            ),
        ),
    ),
    "seed_taken": (
        (
            _p(r"\(withdrawn\); change"),
            _(
                "El cabeza de serie {seed} lo tiene {pair}, que se ha retirado: cambia o quita "
                "antes el de esa pareja, o elige otro número."
            ),
        ),
        (
            None,
            _(
                "El cabeza de serie {seed} ya lo tiene {pair}: cambia o quita antes el de esa "
                "pareja, o elige otro número."
            ),
        ),
    ),
    "table_out_of_range": (
        (
            _p(r"numbered (?:from )?1 to (?P<last>\d+)"),
            _("La mesa {table} no existe: las mesas van de la 1 a la {last}."),
        ),
        (_p(r"start at 1"), _("Las mesas se numeran desde la 1.")),
    ),
    "table_pinned": (
        (
            None,
            _("La mesa {table} ya está fijada para {pair}: quítasela antes o elige otra mesa."),
        ),
    ),
    "pair_not_found": (
        (
            _p(r"^There is no pair"),
            _("No existe la pareja {pair}: créala antes o revisa su número."),
        ),
        (
            _p(r"is not a pair of (?P<club_name>.+)\.$"),
            _("La pareja {pair_id} no es una pareja de {club_name}."),
        ),
    ),
    "entry_not_in_match": (
        (
            _p(
                r"^(?P<pair>.+) does not play partida (?P<match>\d+) \(table (?P<table>\d+), "
                r"round (?P<round>\d+)\)"
            ),
            _(
                "{pair} no juega la partida {match} (mesa {table}, ronda {round}): elige una "
                "partida suya."
            ),
        ),
        (
            _p(r"^(?P<pair>.+) does not play partida (?P<match>\d+) \(.*round (?P<round>\d+)\)"),
            _("{pair} no juega la partida {match} (ronda {round}): elige una partida suya."),
        ),
    ),
    "replaced_not_in_pair": (
        (
            _p(
                r"is not in the pair (?P<pair>.+); the replaced player must be (?P<one>.+) or "
                r"(?P<two>.+)\.$"
            ),
            _(
                "El jugador {player} no está en la pareja {pair}: el sustituido tiene que ser "
                "{one} o {two}."
            ),
        ),
    ),
    "player_not_found": (
        (
            _p(r"add the substitute as a player"),
            _("No existe el jugador {player}: da de alta antes al sustituto como jugador."),
        ),
        (
            _p(r"is not a player of (?P<club_name>.+)\.$"),
            _("El jugador {player_id} no es jugador de {club_name}."),
        ),
        (None, _("No existe el jugador {player_id}.")),
    ),
    "substitute_in_pair": (
        (
            _p(r"^(?P<substitute>.+) already plays in the pair (?P<pair>.+); a substitute"),
            _(
                "{substitute} ya juega en la pareja {pair}: el sustituto tiene que ser otra "
                "persona."
            ),
        ),
    ),
    "substitute_is_opponent": (
        (
            _p(r"^(?P<substitute>.+) plays for the other pair"),
            _(
                "{substitute} juega en la otra pareja de esta partida: no puede sustituir a "
                "sus rivales."
            ),
        ),
    ),
    "substitution_exists": (
        (
            _p(
                r"^(?P<pair>.+) already has a substitute in this partida: (?P<substitute>.+) "
                r"for (?P<replaced>.+)\. A pair"
            ),
            _(
                "{pair} ya tiene un sustituto en esta partida: {substitute} por {replaced}. "
                "Una pareja puede tener un sustituto por partida."
            ),
        ),
    ),
    # --- phases -----------------------------------------------------------------------------
    "phase_not_found": ((None, _("No existe la fase {id}.")),),
    "phase_name": ((None, _("Ponle un nombre a la fase, por ejemplo «Suizo» o «Final».")),),
    "phase_format": (
        (
            _p(r"format " + _quoted("format") + r"; choose"),
            _("El sistema «{format}» no existe: elige {formats}."),
        ),
    ),
    "phase_third_place": (
        (
            None,
            _(
                "Solo una eliminatoria simple tiene partida por el tercer puesto: quita la "
                "partida por el tercer puesto."
            ),
        ),
    ),
    "phase_rules": (
        (
            _p(r"from (?P<low>\d+) to (?P<high>\d+), not (?P<value>.+)\.$"),
            _("{option_name}: tiene que ser un número entero de {low} a {high}, no {value}."),
        ),
    ),
    "phase_qualifiers_without_source": (
        (
            None,
            _(
                "Los clasificados por grupo solo tienen sentido si la fase sale de otra: elige "
                "la fase de cuya clasificación salen, o deja vacíos los clasificados."
            ),
        ),
    ),
    "phase_source_format": (
        (
            _p(r"^Only a single elimination"),
            _("Solo una eliminatoria simple puede salir de la clasificación de una fase anterior."),
        ),
        (
            _p(r"^(?P<source_name>.+) is a bracket"),
            _(
                "La fase {source_name} es un cuadro: una eliminatoria sale de la clasificación "
                "de una liguilla, un suizo o una fase a tres ceros."
            ),
        ),
    ),
    "phase_source_unknown": (
        (
            _p(r"is not a phase of (?P<tournament_name>.+); choose"),
            _("La fase {source} no es de {tournament_name}: elige una de sus fases."),
        ),
    ),
    "phase_qualifiers": (
        (
            None,
            _("Di cuántas parejas de cada grupo pasan (clasificados por grupo, al menos 1)."),
        ),
    ),
    "phase_rounds_planned": (
        (None, _("Un suizo necesita el número de rondas que se van a jugar (al menos 1).")),
    ),
    "phase_group_size": ((None, _("Una liguilla necesita grupos de al menos 2 parejas.")),),
    "phase_lives": (
        (
            None,
            _(
                "A tres ceros, cada pareja tiene que poder perder al menos una partida "
                "(normalmente 3)."
            ),
        ),
    ),
    "phase_separate_clubs": (
        (
            None,
            _("Las rondas sin cruzar parejas de la misma peña no pueden ser un número negativo."),
        ),
    ),
    "phase_finished": (
        (
            _p(r"^(?P<phase_name>.+) is (?:already )?finished\.$"),
            _("La fase {phase_name} ya está terminada."),
        ),
    ),
    "phase_not_started": (
        (
            _p(r"^(?P<phase_name>.+) has no round yet"),
            _("La fase {phase_name} todavía no tiene rondas: sortea y juega antes sus rondas."),
        ),
    ),
    "phase_rounds_open": (
        (
            _p(r" of (?P<phase_name>.+) are not closed"),
            _("Para terminar la fase {phase_name} hay que cerrar antes {rounds_text}."),
        ),
    ),
    "phase_rounds_left": (
        (
            _p(r"^(?P<phase_name>.+) has played"),
            _(
                "La fase {phase_name} lleva {played} de sus {planned} rondas: sortea la "
                "siguiente ronda."
            ),
        ),
    ),
    "phase_rounds_done": (
        (
            _p(r"^(?P<phase_name>.+) has all its"),
            _("La fase {phase_name} ya tiene todas sus rondas ({planned}): termina la fase."),
        ),
    ),
    "phase_bracket_undecided": (
        (
            _p(r"^The bracket of (?P<phase_name>.+) has no champion"),
            _("El cuadro de la fase {phase_name} todavía no tiene campeón: juega antes la final."),
        ),
    ),
    "phase_lives_left": (
        (
            _p(r"pairs of (?P<phase_name>.+) still have lives"),
            _(
                "En la fase {phase_name} aún no han quedado fuera {alive} parejas: sortea la "
                "siguiente ronda."
            ),
        ),
    ),
    "phase_no_next": (
        (
            _p(r"^(?P<phase_name>.+) is the last phase of (?P<tournament_name>.+); add"),
            _(
                "La fase {phase_name} es la última de {tournament_name}: añade antes la fase a "
                "la que se pasa."
            ),
        ),
    ),
    "phase_next_started": (
        (
            _p(r"^(?P<phase_name>.+) has already started\.$"),
            _("La fase {phase_name} ya ha empezado."),
        ),
    ),
    "phase_previous_open": (
        (
            _p(r" before drawing (?P<phase_name>.+)\.$"),
            _("Para sortear la fase {phase_name} hay que terminar antes {phases_text}."),
        ),
    ),
    "bracket_not_found": (
        (
            _p(r"^Phase (?P<phase_name>.+) has no bracket yet"),
            _("La fase {phase_name} todavía no tiene cuadro: sortea su primera ronda."),
        ),
    ),
    # --- rounds the organizer runs -----------------------------------------------------------
    "round_drawn_twice": (
        (
            _p(r"^Round (?P<number>\d+) of (?P<phase_name>.+) was drawn"),
            _(
                "Otra persona ha sorteado a la vez la ronda {number} de la fase {phase_name}: "
                "recarga la página."
            ),
        ),
    ),
    "round_bracket_automatic": (
        (
            _p(r"bracket of (?P<phase_name>.+) after the first"),
            _(
                "Las rondas del cuadro de la fase {phase_name} después de la primera se crean "
                "solas a medida que se confirman los resultados."
            ),
        ),
    ),
    "round_closed": ((_p(r"^Round (?P<number>\d+)"), _("La ronda {number} está cerrada.")),),
    "round_not_published": (
        (
            _p(r"^Round (?P<number>\d+)"),
            _("La ronda {number} es un borrador: publícala y que se juegue antes de cerrarla."),
        ),
    ),
    "round_previous_draft": ((None, _("La ronda {round} aún es un borrador: publícala primero.")),),
    "round_previous_open": (
        (
            _p(r"^Round (?P<number>\d+)"),
            _("La ronda {number} no está cerrada: ciérrala antes de sortear la siguiente."),
        ),
    ),
    "round_not_draft": (
        (_p(r"^Round (?P<number>\d+)"), _("La ronda {number} ya está {status_name}.")),
    ),
    "round_tables_missing": (
        (
            _p(r"^(?P<count>\d+) match\(es\) of round (?P<number>\d+)"),
            _(
                "Partidas de la ronda {number} sin mesa: {count}. Pásalas a una mesa libre "
                "antes de publicar la ronda."
            ),
        ),
    ),
    "round_unfinished": (
        (
            _p(r"^Round (?P<number>\d+) cannot close: (?P<places>.+) have no confirmed result"),
            _(
                "La ronda {number} no se puede cerrar: falta el resultado confirmado de "
                "{places_text}. Confírmalo (o apunta que una pareja no se presentó) antes."
            ),
        ),
    ),
    "round_started": (
        (
            _p(r"^Round (?P<number>\d+) has started \((?P<places>.+)\); pairs"),
            _(
                "La ronda {number} ya ha empezado en {places_text}: ya no se pueden cambiar "
                "parejas ni mesas."
            ),
        ),
    ),
    "swap_round_robin": (
        (
            None,
            _(
                "Las rondas de una liguilla siguen el calendario del grupo: intercambia las "
                "mesas, no las parejas."
            ),
        ),
    ),
    "swap_bracket_later_round": (
        (
            None,
            _(
                "En un cuadro solo se intercambian las parejas de la primera ronda: las "
                "partidas siguientes salen de los resultados."
            ),
        ),
    ),
    "swap_same_match": (
        (
            None,
            _("Las dos parejas juegan la misma partida: elige parejas de dos partidas distintas."),
        ),
    ),
    "swap_entry_not_in_round": (
        (
            _p(r"does not play in round (?P<number>\d+)"),
            _("La pareja inscrita n.º {entry} no juega en la ronda {number}."),
        ),
    ),
    "table_match_unknown": (
        (
            _p(r"is not a match at a table in round (?P<number>\d+)"),
            _("La partida {match} no está en ninguna mesa de la ronda {number}."),
        ),
    ),
    "table_same_match": ((None, _("Elige dos partidas distintas.")),),
    "table_taken": (
        (
            _p(r"of round (?P<number>\d+)"),
            _(
                "La mesa {table} ya la ocupa otra partida de la ronda {number}: intercambia "
                "las dos mesas."
            ),
        ),
    ),
    # --- the peña: its data, members, players, pairs and rule presets -------------------------
    "invalid_field": (
        (_p(r"^(?P<label>.+) must be text\.$"), _("{field_label}: tiene que ser texto.")),
    ),
    "required": (
        (_p(r"^(?P<label>.+) is required\.$"), _("Falta {field_label}: es obligatorio.")),
    ),
    "too_long": (
        (
            _p(r"^(?P<label>.+) is too long: at most \d+ characters, not (?P<length>\d+)"),
            _("{field_label}: como mucho {max_length} caracteres (has escrito {length})."),
        ),
    ),
    "email": (
        (
            _p(r"^(?P<label>.+?) " + _quoted("value") + r" is not an e-mail address"),
            _(
                "{field_label}: «{value}» no es una dirección de correo; escríbela como "
                "ana@example.org."
            ),
        ),
    ),
    "slug": (
        (
            _p(r"^The slug " + _quoted("slug") + r" may only hold.*e\.g\. " + _quoted("example")),
            _(
                "El nombre corto «{slug}» solo puede llevar minúsculas sin tildes, cifras y "
                "guiones, por ejemplo «{example}»."
            ),
        ),
        (
            _p(r"^No slug can be made from the name " + _quoted("name")),
            _("Del nombre «{name}» no sale un nombre corto: escribe uno como «pena-txoko»."),
        ),
    ),
    "role": (
        (
            _p(r"^Unknown role " + _quoted("role")),
            _("El rol «{role}» no existe: los roles son {roles}."),
        ),
    ),
    "unknown_user": (
        (
            None,
            _(
                "No hay ningún usuario llamado «{username}»: tiene que registrarse antes de "
                "entrar en una peña."
            ),
        ),
    ),
    "already_member": (
        (
            _p(r"already a member of (?P<club_name>.+); change"),
            _("{username} ya es miembro de {club_name}: cámbiale el rol en vez de añadirlo."),
        ),
    ),
    "member_not_found": (
        (
            _p(r"is not a member of (?P<club_name>.+)\.$"),
            _("El usuario {member_id} no es miembro de {club_name}: recarga la página."),
        ),
    ),
    "last_owner": (
        (
            _p(r"^(?P<user>.+) is the last owner of (?P<club_name>.+) and cannot be"),
            _(
                "{user} es el último propietario de {club_name}: haz antes propietario a otro "
                "miembro."
            ),
        ),
    ),
    "player_not_visible": (
        (
            _p(
                r"^(?P<player>.+) plays for peñas you do not organize; ask one of their "
                r"organizers to add them to (?P<club_name>.+), or create"
            ),
            _(
                "{player} juega en peñas que no organizas: pide a su organización que lo añada "
                "a {club_name}, o da de alta al jugador en {club_name}."
            ),
        ),
    ),
    "same_player": (
        (
            None,
            _("Una pareja son dos jugadores distintos: has elegido dos veces el mismo."),
        ),
    ),
    "player_not_in_club": (
        (
            _p(r"is not a player of (?P<club_name>.+); add"),
            _("El jugador {player_id} no es jugador de {club_name}: añádelo antes a la peña."),
        ),
    ),
    "pair_exists": (
        (
            _p(r"^(?P<one>.+) and (?P<two>.+) already are a pair of (?P<club_name>.+) \(pair"),
            _("{one} y {two} ya son una pareja de {club_name} (pareja {pair_id})."),
        ),
    ),
    "preset_name_taken": (
        (
            _p(r"is already a built-in preset"),
            _("«{name}» ya es el nombre de unas reglas de serie: elige otro nombre."),
        ),
        (
            _p(r"is already a preset of (?P<club_name>.+); choose"),
            _("«{name}» ya es el nombre de unas reglas de {club_name}: elige otro nombre."),
        ),
    ),
    "preset_not_found": (
        (
            _p(r"is not a preset of (?P<club_name>.+)\.$"),
            _("Las reglas n.º {preset_id} no son de {club_name}: recarga la página."),
        ),
    ),
    "preset_not_available": (
        (
            _p(r"nor one of (?P<club_name>.+)'s; pick"),
            _(
                "Las reglas n.º {preset_id} no son ni de serie ni de {club_name}: elige unas "
                "de las reglas de la peña."
            ),
        ),
    ),
    "preset_unknown": (
        (
            _p(r"for (?P<club_name>.+); choose one of"),
            _("{club_name} no tiene reglas llamadas «{preset}»: elige {choices_text}."),
        ),
    ),
    "builtin_preset": (
        (
            _p(r"^" + _quoted("preset_name") + r" is a built-in preset"),
            _(
                "«{preset_name}» son reglas de serie y no se pueden cambiar ni borrar: crea "
                "unas reglas de tu peña con los valores que quieras."
            ),
        ),
    ),
    # --- the draw (tournaments.draw.DrawError) -----------------------------------------------
    "too_few_entrants": (
        (None, _("El sorteo necesita al menos {minimum} parejas, y hay {entrants}.")),
    ),
    "entrant_duplicate": (
        (None, _("La pareja inscrita n.º {entrant} aparece dos veces en el sorteo.")),
    ),
    "entrant_seed": (
        (
            _p(r"has seed (?P<seed>.+?); a seed is"),
            _(
                "La pareja inscrita n.º {entrant} tiene como cabeza de serie {seed}: un cabeza "
                "de serie es un número entero desde el 1 (la más fuerte), o nada."
            ),
        ),
    ),
    "seed_duplicate": (
        (
            _p(r"^Entrants (?P<a>\S+) and (?P<b>\S+) both have seed"),
            _(
                "Las parejas inscritas n.º {a} y n.º {b} tienen el mismo cabeza de serie, el "
                "{seed}: dale a cada una uno distinto."
            ),
        ),
    ),
    "third_place_too_few": (
        (
            _p(r"qualifiers"),
            _(
                "La partida por el tercer puesto necesita al menos 4 clasificados, y hay "
                "{entrants}."
            ),
        ),
        (
            None,
            _(
                "La partida por el tercer puesto necesita al menos 4 parejas, y en este cuadro "
                "hay {entrants}. Quita la partida por el tercer puesto."
            ),
        ),
    ),
    "bracket_too_many": (
        (
            None,
            _(
                "Un cuadro admite como mucho {maximum} parejas, y en este hay {entrants}. Juega "
                "antes una fase de clasificación."
            ),
        ),
    ),
    "bracket_unknown_match": ((None, _("No existe la partida {match} en este cuadro.")),),
    "bracket_not_played": (
        (
            None,
            _(
                "La partida {match} no se juega (es un descanso, o una final repetida que no "
                "hace falta), así que no tiene ganador: quita su resultado."
            ),
        ),
    ),
    "bracket_not_ready": (
        (
            None,
            _(
                "La partida {match} todavía no puede tener ganador: aún no se sabe quién la "
                "juega. Apunta antes los resultados de las partidas anteriores."
            ),
        ),
    ),
    "bracket_wrong_winner": (
        (
            _p(r"its winner is (?P<a>\S+) or (?P<b>\S+)\.$"),
            _(
                "La pareja inscrita n.º {winner} no jugó la partida {match}: su ganadora es la "
                "n.º {a} o la n.º {b}."
            ),
        ),
    ),
    "crossing_names": (
        (
            _p(r"^There are (?P<groups>\d+) groups but (?P<names>\d+) group names"),
            _("Hay {groups} grupos pero {names} nombres de grupo."),
        ),
    ),
    "crossing_qualifiers": ((None, _("De cada grupo tiene que pasar al menos una pareja.")),),
    "crossing_group_short": (
        (
            _p(r"has (?P<size>\d+) entrant\(s\) but (?P<qualifiers>\d+) qualify"),
            _(
                "Parejas del grupo {group}: {size}; clasificados por grupo: {qualifiers}. "
                "Clasifica menos parejas por grupo."
            ),
        ),
    ),
    "crossing_duplicate": (
        (None, _("La pareja inscrita n.º {entrant} está en la clasificación de dos grupos.")),
    ),
    "crossing_too_few": (
        (
            None,
            _("Una eliminatoria necesita al menos 2 clasificados: clasifica más por grupo."),
        ),
    ),
    "groups_too_few": ((None, _("Elige al menos un grupo, no {groups}.")),),
    "groups_too_many": (
        (
            None,
            _(
                "Con {entrants} parejas no se llenan {groups} grupos de al menos 2: elige menos "
                "grupos o grupos más grandes."
            ),
        ),
    ),
    "group_too_small": (
        (
            _p(r"has (?P<size>\d+) entrant"),
            _("Parejas del grupo {group}: {size}. Una liguilla necesita al menos 2."),
        ),
    ),
    "group_size_too_small": (
        (
            None,
            _("Un grupo necesita al menos 2 parejas; el tamaño de grupo es {group_size}."),
        ),
    ),
    "lives_too_few": (
        (
            None,
            _("Cada pareja tiene que poder perder al menos una partida, no {lives}."),
        ),
    ),
    "lives_over": (
        (
            _p(r"fewer than (?P<lives>\d+) losses"),
            _(
                "Parejas con menos de {lives} derrotas: {left}. No queda a quién emparejar: la "
                "fase ha terminado."
            ),
        ),
    ),
    "history_self": (
        (
            None,
            _("La pareja inscrita n.º {entrant} aparece contra sí misma en la ronda {round}."),
        ),
    ),
    "history_twice_in_round": (
        (
            None,
            _(
                "La pareja inscrita n.º {entrant} aparece dos veces en la ronda {round}: "
                "corrige los resultados de esa ronda."
            ),
        ),
    ),
    "history_bye_winner": (
        (
            _p(r"cannot be (?P<winner>\S+)\.$"),
            _(
                "La pareja inscrita n.º {entrant} descansó en la ronda {round}, así que la "
                "ganadora no puede ser la n.º {winner}."
            ),
        ),
    ),
    "history_winner": (
        (
            _p(r"between (?P<a>\S+) and (?P<b>\S+); the winner"),
            _(
                "Ronda {round}: la pareja inscrita n.º {winner} no jugó la partida entre la "
                "n.º {a} y la n.º {b}; la ganadora tiene que ser una de las dos."
            ),
        ),
    ),
    "standings_missing": (
        (
            None,
            _(
                "La clasificación no incluye {entrants_text}: tiene que estar toda pareja que "
                "se vaya a emparejar."
            ),
        ),
    ),
    "tables_too_few": (
        (
            None,
            _(
                "Partidas de esta ronda: {matches}; mesas: {tables}. Añade mesas o divide la "
                "ronda en turnos."
            ),
        ),
    ),
    "tables_pin_conflict": (
        (
            _p(r"pinned to tables (?P<table_a>\d+) and (?P<table_b>\d+)"),
            _(
                "Las parejas inscritas n.º {a} y n.º {b} se enfrentan en esta ronda, pero "
                "tienen fijadas las mesas {table_a} y {table_b}: quita la mesa fija a una de "
                "las dos para esta ronda."
            ),
        ),
    ),
    "tables_pin_missing": (
        (
            _p(r"match (?P<a>\S+) v (?P<b>\S+) is pinned"),
            _(
                "Una pareja de la partida n.º {a} contra n.º {b} tiene fijada la mesa {table}, "
                "pero las mesas van de la 1 a la {tables}."
            ),
        ),
    ),
    "tables_pin_clash": (
        (
            _p(r"The matches (?P<a1>\S+) v (?P<b1>\S+) and (?P<a2>\S+) v (?P<b2>\S+) both"),
            _(
                "Las partidas n.º {a1} contra n.º {b1} y n.º {a2} contra n.º {b2} tienen cada "
                "una una pareja con la mesa {table} fijada: cambia una de las dos."
            ),
        ),
    ),
}


# --- Values in the person's words -------------------------------------------------------------


def _join(items: Iterable[Any], *, last: str = "y") -> str:
    """The items as a Spanish list: "a, b y c" (or "a, b o c")."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    rest, final = ", ".join(words[:-1]), words[-1]
    if last == "o":
        return gettext("{rest} o {last}").format(rest=rest, last=final)
    return gettext("{rest} y {last}").format(rest=rest, last=final)


def _label(choices: Any, value: Any) -> str:
    """The model's label of a choice value ("running" → "en juego"); KeyError if unknown."""
    try:
        return str(choices(value).label)
    except ValueError:
        raise KeyError(value) from None


def _places(text: str) -> str:
    """'table 3, table 5, match 12' (services.rounds._tables_text) → 'las mesas 3 y 5 y la
    partida 12'."""
    found = re.findall(r"\b(table|match) (\d+)", text)
    tables = [n for kind, n in found if kind == "table"]
    matches = [n for kind, n in found if kind == "match"]
    if not found:
        raise KeyError("places")
    parts = []
    if tables:
        parts.append(
            ngettext("la mesa {numbers}", "las mesas {numbers}", len(tables)).format(
                numbers=_join(tables)
            )
        )
    if matches:
        parts.append(
            ngettext("la partida {numbers}", "las partidas {numbers}", len(matches)).format(
                numbers=_join(matches)
            )
        )
    return _join(parts)


def _numbers(values: Mapping[str, Any], key: str) -> list[str]:
    items = values[key]
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise KeyError(key)
    return [str(item) for item in items]


def _date(value: str) -> str:
    day = dt.date.fromisoformat(value)
    return f"{day.day}/{day.month}/{day.year}"


def _tournament_statuses(values: dict[str, Any]) -> None:
    from tournaments.models import Tournament

    values["statuses"] = _join(str(label) for label in Tournament.Status.labels)
    for key in ("current", "requested", "allowed"):
        if key in values:
            values[f"{key}_name"] = _label(Tournament.Status, values[key])


def _tournament_status(values: dict[str, Any]) -> None:
    from tournaments.models import Tournament

    values["status_name"] = _label(Tournament.Status, values["status"])


def _round_status(values: dict[str, Any]) -> None:
    from tournaments.models import Round

    values["status_name"] = _label(Round.Status, values["status"])


def _entry_status(values: dict[str, Any]) -> None:
    from tournaments.models import Entry

    values["status_name"] = _label(Entry.Status, values["status"])


def _phase_formats(values: dict[str, Any]) -> None:
    from tournaments.models import Phase

    values["formats"] = _join((str(label) for label in Phase.Format.labels), last="o")


def _roles(values: dict[str, Any]) -> None:
    from clubs.models import Membership

    values["roles"] = _join(str(label) for label in Membership.Role.labels)


def _field_label(values: dict[str, Any]) -> None:
    values["field_label"] = str(_FIELD_LABELS[values["label"]])


def _line_text(values: dict[str, Any]) -> None:
    # One pair typed alone: ``line`` is its text. In a pasted list ``line`` is the line's
    # number and ``text`` its text (services.registration.entry_register_pasted).
    values["line_text"] = values["text"] if "text" in values else values["line"]


def _places_text(values: dict[str, Any]) -> None:
    values["places_text"] = _places(values["places"])


def _rounds_text(values: dict[str, Any]) -> None:
    rounds = _numbers(values, "rounds")
    values["rounds_text"] = ngettext(
        "la ronda {numbers}", "las rondas {numbers}", len(rounds)
    ).format(numbers=_join(rounds))


def _phases_text(values: dict[str, Any]) -> None:
    phases = _numbers(values, "phases")
    values["phases_text"] = ngettext("la fase {names}", "las fases {names}", len(phases)).format(
        names=_join(phases)
    )


def _entrants_text(values: dict[str, Any]) -> None:
    entrants = _numbers(values, "entrants")
    values["entrants_text"] = ngettext(
        "a la pareja inscrita n.º {numbers}", "a las parejas inscritas n.º {numbers}", len(entrants)
    ).format(numbers=_join(entrants))


def _choices_text(values: dict[str, Any]) -> None:
    values["choices_text"] = _join((f"«{c}»" for c in _numbers(values, "choices")), last="o")


def _option_name(values: dict[str, Any]) -> None:
    values["option_name"] = str(_RULE_OPTIONS[values["option"]])


def _dates(values: dict[str, Any]) -> None:
    values["starts"], values["ends"] = _date(values["starts"]), _date(values["ends"])


#: code -> what it adds to the values before its text is filled; a KeyError, TypeError or
#: ValueError here means a value is missing and that text is skipped like a failed pattern.
_PREPARE: dict[str, Callable[[dict[str, Any]], None]] = {
    "status_unknown": _tournament_statuses,
    "status_transition": _tournament_statuses,
    "registration_closed": _tournament_status,
    "round_not_draft": _round_status,
    "entry_not_checked_in": _entry_status,
    "phase_format": _phase_formats,
    "role": _roles,
    "required": _field_label,
    "too_long": _field_label,
    "email": _field_label,
    "invalid_field": _field_label,
    "pair_line": _line_text,
    "round_unfinished": _places_text,
    "round_started": _places_text,
    "phase_rounds_open": _rounds_text,
    "phase_previous_open": _phases_text,
    "standings_missing": _entrants_text,
    "preset_unknown": _choices_text,
    "phase_rules": _option_name,
    "dates_order": _dates,
}


def translated_codes() -> frozenset[str]:
    """Every code that has a text here (the tests hold it against the codes the sources
    raise)."""
    return frozenset(_TEXTS)


def error_text(exc: BaseException) -> str:
    """The error as a person should read it: the translated text of its code, filled in with
    its params, or the error's own (English) message when there is none."""
    if is_cataloged(exc):
        return error_message(exc)
    message = str(getattr(exc, "message", None) or exc)
    code = getattr(exc, "code", None)
    texts = _TEXTS.get(code) if isinstance(code, str) else None
    if not texts:
        return message
    params = getattr(exc, "params", None)
    # A value of None is a value nobody gave (a match without a table): the text needing it
    # is skipped rather than saying "mesa None".
    values: dict[str, Any] = (
        {k: v for k, v in params.items() if v is not None} if isinstance(params, Mapping) else {}
    )
    body, frame, around = message, "{text}", {}
    hand = _HAND_PREFIX.match(message)
    line = _LINE_PREFIX.match(message)
    if hand:
        body = message[hand.end() :]
        values.setdefault("hand", hand.group("hand"))
    elif line and message.endswith(_LINE_SUFFIX):
        body = message[line.end() : -len(_LINE_SUFFIX)]
        frame = gettext(
            "Línea {line}: {text} No se ha inscrito ninguna pareja: corrige la línea y vuelve "
            "a pegar la lista."
        )
        around = {"line": line.group("line")}
    if "hand" in values:
        frame, around = gettext("Mano n.º {hand}: {text}"), {"hand": values["hand"]}
    if isinstance(values.get("seat"), str):
        values["seat_name"] = str(_SEATS.get(values["seat"], values["seat"]))
    prepare = _PREPARE.get(code)
    for pattern, template in texts:
        found = pattern.search(body) if pattern is not None else None
        if pattern is not None and found is None:
            continue
        filled = {**values, **(found.groupdict() if found else {})}
        try:
            if prepare is not None:
                prepare(filled)
            text = str(template).format(**filled)
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # a value the text needs is missing: the English message says it all
        leading = _LEADING_VALUE.match(str(template))
        if leading is None or leading.group(1) in _OUR_WORDS:
            # A sentence starts with a capital, but a name someone typed ("user7", a pair
            # written in lowercase) stays as it was typed.
            text = text[:1].upper() + text[1:]
        return frame.format(text=text, **around)
    return message
