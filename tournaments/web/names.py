"""One name per thing, on every page: what a round is called.

Responsible for: the name of a round as the bracket names it — a single-elimination phase's
rounds are "Octavos de final", "Cuartos de final", "Semifinales" and "Final" (its third-place
match shares the final's round) on the organizer's desk, the board, the printed sheets, the
public pages, the TV and the table's phone alike. A double elimination's round of play holds
matches of both sides, so it is named by what it holds: "Cuartos de final de ganadores ·
Ronda 1 de perdedores", "Final de perdedores", "Gran final". Every other round is "Ronda N".
The public bracket's column titles come from here too, so they cannot drift apart.

Must not: query anything but the round's phase (a page that lists rounds loads them with it).

Terms: ronda (round), eliminatoria (knockout), octavos, cuartos, semifinal, final, cuadro de
ganadores / perdedores (double elimination).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Phase, Round


def bracket_round_title(side: str, number: int, last: int, double: bool) -> str:
    """The title of round ``number`` of ``last`` of a bracket's side (W winners, L losers)."""
    if side == "L":
        return _("Final de perdedores") if number == last else _("Ronda %(n)s") % {"n": number}
    from_end = last - number
    if from_end == 0:
        return _("Final de ganadores") if double else _("Final")
    if from_end == 1:
        return _("Semifinales")
    if from_end == 2:
        return _("Cuartos de final")
    if from_end == 3:
        return _("Octavos de final")
    return _("Ronda %(n)s") % {"n": number}


def _double_round_name(number: int, matches: list[dict]) -> str:
    """A double elimination's round of play ``number`` (a stage of its bracket) by the bracket
    rounds it holds, winners' side first: "Semifinales de ganadores · Ronda 2 de perdedores"."""
    last = {
        side: max((m["round"] for m in matches if m.get("side") == side), default=0)
        for side in ("W", "L")
    }
    held = [m for m in matches if m.get("stage") == number]
    parts = []
    for r in sorted({m["round"] for m in held if m.get("side") == "W"}):
        if r == last["W"]:
            parts.append(_("Final de ganadores"))
        else:
            title = bracket_round_title("W", r, last["W"], True)
            parts.append(_("%(round)s de ganadores") % {"round": title})
    for r in sorted({m["round"] for m in held if m.get("side") == "L"}):
        if r == last["L"]:
            parts.append(_("Final de perdedores"))
        else:
            parts.append(_("Ronda %(n)s de perdedores") % {"n": r})
    finals = {m["id"] for m in held if m.get("side") == "GF"}
    if "GF1" in finals:
        parts.append(_("Gran final"))
    if "GF2" in finals:
        parts.append(_("Gran final: desempate"))
    return " · ".join(parts)


def round_name(rnd: Round, phase: Phase | None = None) -> str:
    """A round's name: the bracket's for a knockout (a single elimination's round of play is a
    bracket round; a double elimination's is named by the bracket rounds it holds), else
    "Ronda N". ``phase``: the round's phase when the caller has it at hand (no query)."""
    phase = phase if phase is not None else rnd.phase
    matches = list(phase.bracket.get("matches", ())) if phase.bracket else []
    if phase.format == Phase.Format.SINGLE_ELIMINATION and matches:
        rounds = [m["round"] for m in matches if m.get("side") == "W"]
        if rounds and 1 <= rnd.number <= max(rounds):
            return bracket_round_title("W", rnd.number, max(rounds), False)
    if phase.format == Phase.Format.DOUBLE_ELIMINATION and matches:
        name = _double_round_name(rnd.number, matches)
        if name:
            return name
    return _("Ronda %(n)s") % {"n": rnd.number}


def is_named(phase: Phase) -> bool:
    """Whether the phase's rounds have names of their own (a knockout's), not "Ronda N"."""
    return phase.format in (Phase.Format.SINGLE_ELIMINATION, Phase.Format.DOUBLE_ELIMINATION)
