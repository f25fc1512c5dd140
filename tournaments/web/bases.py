"""The tournament's bases in words, the same on every page: points, prizes, entries, calendar.

Responsible for: turning what a tournament's bases declare beyond its rule set into the words
an organizer and a player read, in the page's language — the points table ("2 puntos por
partida ganada, 1 por partida perdida"), a prize ("menos partidas ganadas en las fases 1 y 2;
empate: diferencia de piedras, y si sigue, se reparte") and an award ("Ana / Luis, 0
partidas ganadas"). The public pages, the table's page and the organizer's desk import it
(they may not import each other).

Must not: read the database or decide anything: the values come from the caller.

Terms: bases (a tournament's published rules), puntos (points), premio (prize), fase (phase),
grupo (group), empate (tie), sorteo (lots), piedras (stones), juegos (games).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.draw.lengths import lengths_grouped
from tournaments.models import Tournament

#: a prize's measure, counted the most / the fewest, in a player's words
MOST = {
    "won": gettext_lazy("más partidas ganadas"),
    "points": gettext_lazy("más puntos"),
    "stone_difference": gettext_lazy("mejor diferencia de piedras"),
    "game_difference": gettext_lazy("mejor diferencia de juegos"),
    "stones_won": gettext_lazy("más piedras ganadas"),
    "games_won": gettext_lazy("más juegos ganados"),
}
FEWEST = {
    "won": gettext_lazy("menos partidas ganadas"),
    "points": gettext_lazy("menos puntos"),
    "stone_difference": gettext_lazy("peor diferencia de piedras"),
    "game_difference": gettext_lazy("peor diferencia de juegos"),
    "stones_won": gettext_lazy("menos piedras ganadas"),
    "games_won": gettext_lazy("menos juegos ganados"),
}
#: a measure as a tiebreak names it
MEASURE = {
    "won": gettext_lazy("partidas ganadas"),
    "points": gettext_lazy("puntos"),
    "stone_difference": gettext_lazy("diferencia de piedras"),
    "game_difference": gettext_lazy("diferencia de juegos"),
    "stones_won": gettext_lazy("piedras ganadas"),
    "games_won": gettext_lazy("juegos ganados"),
}


def points_in_words(tournament: Tournament) -> str:
    """The tournament's points table as its bases write it ("2 puntos por partida ganada, 1
    por partida perdida"); "" without one. A line worth nothing is left out, but a win's."""
    if tournament.points_win is None:
        return ""
    win, loss = tournament.points_win, tournament.points_loss
    parts = [
        ngettext("%(n)s punto por partida ganada", "%(n)s puntos por partida ganada", win)
        % {"n": win}
    ]
    if loss:
        parts.append(
            ngettext("%(n)s por partida perdida", "%(n)s por partida perdida", loss) % {"n": loss}
        )
    if tournament.points_walkover_loss:
        parts.append(
            ngettext(
                "%(n)s por no presentarse",
                "%(n)s por no presentarse",
                tournament.points_walkover_loss,
            )
            % {"n": tournament.points_walkover_loss}
        )
    return ", ".join(parts)


def format_in_words(rules: dict[str, int]) -> str:
    """A match format by entries in words: "partidas a 2 juegos por vaca, 1 vaca, 40 piedras"
    (only what it sets)."""
    words = []
    if "games_per_vaca" in rules:
        n = rules["games_per_vaca"]
        words.append(ngettext("%(n)s juego por vaca", "%(n)s juegos por vaca", n) % {"n": n})
    if "vacas_per_match" in rules:
        n = rules["vacas_per_match"]
        words.append(ngettext("%(n)s vaca por partida", "%(n)s vacas por partida", n) % {"n": n})
    if "stones_per_game" in rules:
        words.append(_("juegos a %(n)s piedras") % {"n": rules["stones_per_game"]})
    return ", ".join(words)


#: a knockout's rounds counted from the final, as the bases name them
STAGE_WORDS = {
    "earlier": gettext_lazy("rondas anteriores"),
    "quarterfinal": gettext_lazy("cuartos de final"),
    "semifinal": gettext_lazy("semifinales"),
    "final": gettext_lazy("final"),
}


def length_in_words(values: dict[str, int], *, stones: int | None = None) -> str:
    """A match's length as the bases write it: "al mejor de 5 juegos" (3 juegos por vaca, 1
    vaca), "al mejor de 3 vacas de 5 juegos"; with its stones when they differ from
    ``stones`` ("al mejor de 3 juegos a 30 piedras")."""
    games = 2 * values["games_per_vaca"] - 1
    vacas = 2 * values["vacas_per_match"] - 1
    if vacas == 1:
        words = _("al mejor de %(n)s juegos") % {"n": games}
    else:
        words = _("al mejor de %(v)s vacas de %(n)s juegos") % {"v": vacas, "n": games}
    if stones is not None and values["stones_per_game"] != stones:
        words = _("%(length)s a %(n)s piedras") % {"length": words, "n": values["stones_per_game"]}
    return words


def round_lengths_in_words(
    lengths: dict[str, dict[str, int]], phase_length: dict[str, int], *, knockout: bool
) -> str:
    """A phase's lengths per round as the bases write them: "cuartos de final y semifinales
    al mejor de 3 juegos, final al mejor de 5 juegos" (knockout), "ronda 5 al mejor de 3 vacas
    de 3 juegos"; "" when every round plays the phase's length."""
    parts = []
    for keys, whole in lengths_grouped(lengths, phase_length, knockout=knockout):
        if knockout:
            names = _and([str(STAGE_WORDS[key]) for key in keys])
        else:
            names = ngettext("ronda %(list)s", "rondas %(list)s", len(keys)) % {"list": _and(keys)}
        length = length_in_words(whole, stones=phase_length["stones_per_game"])
        parts.append(f"{names} {length}")
    return ", ".join(parts)


def field_in_words(tournament: Tournament) -> list[str]:
    """The bases' field in words: "mínimo de 12 inscritos", "cuadro de 12 o 16 inscritos",
    "con 16 inscritos o más: 2 juegos por vaca"."""
    words = []
    if tournament.min_entries:
        words.append(_("mínimo de %(n)s inscritos") % {"n": tournament.min_entries})
    sizes = [str(n) for n in tournament.field_sizes or []]
    if sizes:
        listed = (
            sizes[0]
            if len(sizes) == 1
            else _("%(list)s o %(last)s")
            % {
                "list": ", ".join(sizes[:-1]),
                "last": sizes[-1],
            }
        )
        words.append(_("cuadro de %(sizes)s inscritos") % {"sizes": listed})
    for rule in tournament.rules_by_entries or []:
        format_words = format_in_words(rule["rules"])
        if rule["from"]:
            words.append(
                _("con %(n)s inscritos o más: %(format)s")
                % {"n": rule["from"], "format": format_words}
            )
        else:
            words.append(_("con menos inscritos: %(format)s") % {"format": format_words})
    return words


def _and(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return _("%(list)s y %(last)s") % {"list": ", ".join(items[:-1]), "last": items[-1]}


def phases_in_words(phases: list[int]) -> str:
    """ "en la fase 2", "en las fases 1 y 2", "en todo el torneo" (no phase named)."""
    if not phases:
        return _("en todo el torneo")
    if len(phases) == 1:
        return _("en la fase %(n)s") % {"n": phases[0]}
    return _("en las fases %(list)s") % {"list": _and([str(p) for p in phases])}


def prize_in_words(prize: dict[str, Any]) -> str:
    """What a prize goes to, as the bases say it (``prize`` in its stored JSON form)."""
    if prize["kind"] == "group_best":
        what = _("la mejor de cada grupo")
    elif prize["kind"] == "fewest":
        what = str(FEWEST.get(prize["measure"], prize["measure"]))
    else:
        what = str(MOST.get(prize["measure"], prize["measure"]))
    words = f"{what} {phases_in_words(prize['phases'])}"
    if prize["tiebreaks"]:
        names = [str(MEASURE.get(t, t)) for t in prize["tiebreaks"]]
        words += "; " + _("empate: %(tiebreaks)s") % {"tiebreaks": ", ".join(names)}
    if prize["kind"] == "group_best":
        return words
    if prize["ties"] == "lots":
        return words + "; " + _("si sigue el empate, se sortea")
    return words + "; " + _("si sigue el empate, se reparte")


def award_in_words(award: dict[str, Any]) -> dict[str, Any]:
    """An award as the pages show it: its title ("Mejor de grupo · Grupo A"), the winners'
    names, their figure and how a tie ended."""
    title = award["name"]
    if award["group"]:
        title += " · " + _("Grupo %(name)s") % {"name": award["group"]}
    elif award["phase_name"] and award["kind"] == "group_best":
        title += " · " + award["phase_name"]
    measure = str(MEASURE.get(award["measure"], award["measure"]))
    note = ""
    if award["shared"]:
        note = _("empate: premio compartido")
    elif award["decided_by"] == "lots":
        note = _("empate decidido por sorteo")
    elif award["decided_by"]:
        note = _("desempate: %(tiebreak)s") % {
            "tiebreak": str(MEASURE.get(award["decided_by"], award["decided_by"]))
        }
    return {
        "title": title,
        "winners": [w["name"] for w in award["winners"]],
        "value": "" if award["value"] is None else f"{award['value']} {measure}",
        "note": note,
        "nobody": not award["winners"],
    }
