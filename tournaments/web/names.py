"""One name per thing, on every page: what a round is called.

Responsible for: the name of a round as the bracket names it — a single-elimination phase's
rounds are "Octavos de final", "Cuartos de final", "Semifinales" and "Final" (its third-place
match shares the final's round) on the organizer's desk, the board, the printed sheets, the
public pages, the TV and the table's phone alike; every other round is "Ronda N". The public
bracket's column titles come from here too, so they cannot drift apart.

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


def round_name(rnd: Round, phase: Phase | None = None) -> str:
    """A round's name: the bracket's for a single elimination (the round of play is the bracket
    round), else "Ronda N" (a double elimination's rounds of play mix both sides). ``phase``:
    the round's phase when the caller has it at hand (no query)."""
    phase = phase if phase is not None else rnd.phase
    if phase.format == Phase.Format.SINGLE_ELIMINATION and phase.bracket:
        rounds = [m["round"] for m in phase.bracket.get("matches", ()) if m.get("side") == "W"]
        if rounds and 1 <= rnd.number <= max(rounds):
            return bracket_round_title("W", rnd.number, max(rounds), False)
    return _("Ronda %(n)s") % {"n": rnd.number}
