"""A partida's results and history in words: what its page shows of each version and change.

Responsible for: turning what the results services stored into what a person reads — a result
(each juego's piedras, juegos won, vacas, the winner), the juegos where two versions of a
dispute differ, and each row of the audit trail (what happened, by which side, who, through
which door, the state before and after; a swap with both its ends: "mesa 2 ↔ mesa 3").

Must not: compute a result or decide a winner (scoring/ did, and the stored summary says so);
read anything from the database beyond the rows it is given.

Terms: partida (a Match), juego, piedras, vaca, órdago, disputa (two different versions of a
result), pareja A/B, organización, historial (audit trail).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import Match, Tournament

AUDIT_ACTIONS = {
    "result_submitted": gettext_lazy("Resultado enviado"),
    "result_confirmed": gettext_lazy("Resultado confirmado"),
    "result_disputed": gettext_lazy("Resultados distintos: en disputa"),
    "dispute_resolved": gettext_lazy("Disputa resuelta"),
    "result_corrected": gettext_lazy("Resultado corregido"),
    "forfeit": gettext_lazy("No presentada"),
    "late_penalty": gettext_lazy("Retraso"),
    "hand_added": gettext_lazy("Mano apuntada"),
    "hand_undone": gettext_lazy("Mano borrada"),
    "match_entries_swapped": gettext_lazy("Parejas cambiadas"),
    "match_tables_swapped": gettext_lazy("Mesas cambiadas"),
    "match_table_moved": gettext_lazy("Partida movida de mesa"),
    "bracket_match_created": gettext_lazy("Partida del cuadro creada"),
    "bracket_match_repointed": gettext_lazy("Partida del cuadro rehecha"),
    "substitution_recorded": gettext_lazy("Suplente"),
}
VIA_LABELS = {
    "link": gettext_lazy("enlace de mesa"),
    "account": gettext_lazy("cuenta"),
    "api": gettext_lazy("API"),
    "email": gettext_lazy("correo"),
}


def version_view(summary: dict | None) -> dict | None:
    """A result as the engine stored it, ready to show: each juego's piedras and the winner."""
    if not summary:
        return None
    games = [
        {
            "a": g["stones"]["A"],
            "b": g["stones"]["B"],
            "winner": g["winner"].lower(),
            "ordago": g.get("ordago", False),
        }
        for g in summary.get("games", [])
    ]
    return {
        "games": games,
        "won": {
            "a": sum(1 for g in games if g["winner"] == "a"),
            "b": sum(1 for g in games if g["winner"] == "b"),
        },
        "vacas": {k.lower(): v for k, v in summary.get("vacas", {}).items()},
        "winner": (summary.get("winner") or "").lower(),
    }


def mark_differences(views: list[dict]) -> None:
    """In a dispute, flag the juegos where the two versions say different things."""
    if len(views) != 2:
        return
    first, second = (v["games"] for v in views)
    for number in range(max(len(first), len(second))):
        one = first[number] if number < len(first) else None
        two = second[number] if number < len(second) else None
        differs = one is None or two is None or (one["a"], one["b"]) != (two["a"], two["b"])
        for game in (one, two):
            if game is not None:
                game["differs"] = differs


def _state_text(value: Any, *, trios: bool = False) -> str:
    """The old or new side of an audit row in words: status, juegos, piedras, mesa."""
    if not isinstance(value, dict):
        return ""
    snap = value["match"] if isinstance(value.get("match"), dict) else value
    parts = []
    if snap.get("status") in Match.Status.values:
        parts.append(str(Match.Status(snap["status"]).label))
    games, stones = snap.get("games"), snap.get("stones")
    if isinstance(games, dict) and (games.get("a") or games.get("b")):
        parts.append(_("juegos %(a)s–%(b)s") % games)
    if isinstance(stones, dict) and (stones.get("a") or stones.get("b")):
        parts.append(_("piedras %(a)s–%(b)s") % stones)
    if value.get("table") is not None:
        parts.append(_("mesa %(n)s") % {"n": value["table"]})
    penalty = value.get("penalty")
    if isinstance(penalty, dict):
        count = penalty.get("games_lost") if isinstance(penalty.get("games_lost"), int) else 2
        parts.append(
            (
                ngettext(
                    "trío %(side)s: %(minutes)s min tarde, %(games)s juego perdido",
                    "trío %(side)s: %(minutes)s min tarde, %(games)s juegos perdidos",
                    count,
                )
                if trios
                else ngettext(
                    "pareja %(side)s: %(minutes)s min tarde, %(games)s juego perdido",
                    "pareja %(side)s: %(minutes)s min tarde, %(games)s juegos perdidos",
                    count,
                )
            )
            % {
                "side": str(penalty.get("side", "")).upper(),
                "minutes": penalty.get("minutes_late"),
                "games": penalty.get("games_lost"),
            }
        )
    if value.get("absent_side"):
        absent = (
            _("no se presentó el trío %(side)s")
            if trios
            else _("no se presentó la pareja %(side)s")
        )
        parts.append(absent % {"side": value["absent_side"].upper()})
    return ", ".join(parts)


def _side_text(new: Any, *, trios: bool = False) -> str:
    """Which side wrote a version: pareja (or trío) A, B, or the organizers."""
    side = new.get("side") if isinstance(new, dict) else None
    if side in ("a", "b"):
        word = _("trío %(side)s") if trios else _("pareja %(side)s")
        return word % {"side": side.upper()}
    if side == "organizer":
        return _("organización")
    return ""


def _table_text(table: Any) -> str:
    return _("mesa %(n)s") % {"n": table} if table is not None else _("descanso")


def _swap_text(old: Any, new: Any) -> str:
    """A swap in words, both ends named: "mesa 2 ↔ mesa 3", and which pair went where."""
    if not isinstance(new, dict) or not isinstance(new.get("swapped_with"), dict):
        return ""
    other = new["swapped_with"]
    if "left" in other:  # two pairs swapped: the table stays, the pairs move
        here, there = new.get("table"), other.get("table")
        return _("%(here)s ↔ %(there)s: %(left)s → %(there)s, %(came)s → %(here)s") % {
            "here": _table_text(here),
            "there": _table_text(there),
            "left": other["left"],
            "came": other.get("came", ""),
        }
    before = old.get("table") if isinstance(old, dict) else None
    return f"{_table_text(before)} ↔ {_table_text(new.get('table'))}"


def audit_rows(match: Match) -> list[dict]:
    trios = match.round.phase.tournament.entrant_kind == Tournament.EntrantKind.TRIOS
    return [
        {
            "when": row.created_at,
            "action": AUDIT_ACTIONS.get(row.action, row.action),
            "side": _side_text(row.new, trios=trios),
            "who": row.actor_shown or "",
            "via": VIA_LABELS.get(row.via, row.via),
            "old": _state_text(row.old, trios=trios),
            "new": _state_text(row.new, trios=trios),
            "swap": _swap_text(row.old, row.new),
        }
        for row in match.audit.all()
    ]
