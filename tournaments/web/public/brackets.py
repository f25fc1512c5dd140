"""Brackets drawn as brackets on the public pages and the TV.

Responsible for: the view of an elimination phase's bracket — its rounds as columns, each
match a box with its slots (a pair, a bye, or "Ganador de …" until it is known), the connectors'
grid positions, a double elimination's winners' and losers' brackets and its grand final — from
the bracket stored by tournaments.draw_manager and its matches' scores.

Must not: decide who goes where (tournaments/draw/ and the bracket's own advance do).

Terms: peña (club), pareja (an Entry), ronda, mesa (table), partida (a Match), juego, vaca,
piedras (stones), liguilla (round robin group), cuadro (bracket), cuadro de perdedores or
repesca (losers' bracket), descanso (bye), a tres ceros (out after N losses), desempate
(tiebreak), Buchholz.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from config.errors import NotFound
from tournaments.models import Match, Phase, Tournament
from tournaments.selectors.rounds import (
    bracket_for_phase,
)
from tournaments.web.names import bracket_round_title
from tournaments.web.public.display import STATE_TEXT, bracket_scores, match_code, pair_url


@dataclass
class SlotView:
    text: str
    entry_id: int | None = None
    url: str = ""
    mark: str = ""  # the seed or the crossing's label (1A, 2B)
    score: str = ""
    won: bool = False
    lost: bool = False
    placeholder: bool = False
    #: a placeholder naming both pairs that may come ("A o B"): the match that decides it,
    #: what the TV shows ("Ganador de 1-1": too long for its line, "A o B" read as decided)
    short: str = ""


@dataclass
class BoxView:
    """One bracket match placed on the grid: row and column, and its connector lines."""

    id: str
    code: str
    a: SlotView
    b: SlotView
    meta: str
    live: bool
    conditional: bool = False
    row: int = 0
    col: int = 0
    #: connector to the match the winner goes to: "down", "up", "flat" or "" (none)
    out: str = ""
    #: vertical length of the connector, in match heights, as CSS reads it ("1.5", never "1,5")
    reach: str = "0"
    incoming: bool = False


@dataclass
class GridView:
    title: str
    columns: list[tuple[int, str]]
    boxes: list[BoxView]


@dataclass
class BracketView:
    phase: Phase
    grids: list[GridView]
    finals: list[tuple[str, BoxView]]
    champion: str


def bracket_places(matches: list[dict]) -> dict[str, float]:
    """Vertical centres of one side's matches, in match heights: a match sits halfway between
    the two matches of its side that feed it (level with one when only one does); a match fed
    only from the other side keeps its position. Matches of a column never overlap."""
    ids = {m["id"] for m in matches}
    centres: dict[str, float] = {}
    for number in sorted({m["round"] for m in matches}):
        column = sorted((m for m in matches if m["round"] == number), key=lambda m: m["position"])
        previous = None
        for m in column:
            feeders = [s["winner_of"] for s in (m["a"], m["b"]) if s["winner_of"] in ids]
            if feeders:
                centre = sum(centres[f] for f in feeders) / len(feeders)
            else:
                centre = float(m["position"] - 1)
            if previous is not None:
                centre = max(centre, previous + 1)
            centres[m["id"]] = previous = centre
    lowest = min(centres.values(), default=0.0)
    return {k: v - lowest for k, v in centres.items()}


def bracket_view(tournament: Tournament, phase: Phase) -> BracketView | None:
    """The phase's bracket as grids of boxes with connectors (two queries); None before its
    first round is drawn."""
    try:
        data = bracket_for_phase(phase=phase, user=None)
    except NotFound:
        return None
    double = phase.format == Phase.Format.DOUBLE_ELIMINATION
    boxes = _bracket_boxes(tournament, data, bracket_scores(phase), double)
    grids = []
    for side, title in (
        ("W", _("Cuadro de ganadores") if double else ""),
        ("L", _("Cuadro de perdedores (repesca)")),
    ):
        matches = [m for m in data["matches"] if m["side"] == side]
        if matches:
            grids.append(_bracket_grid(title, side, matches, boxes, double))
    finals = []
    for match in data["matches"]:
        if match["side"] == "GF":
            title = _("Gran final: desempate") if match["conditional"] else _("Gran final")
            finals.append((title, boxes[match["id"]]))
        elif match["side"] == "3P":
            finals.append((_("Tercer y cuarto puesto"), boxes[match["id"]]))
    entries = {e["id"]: e for e in data["entries"]}
    champion = entries.get(data["champion_id"], {}).get("name", "")
    return BracketView(phase=phase, grids=grids, finals=finals, champion=champion)


def _bracket_boxes(
    tournament: Tournament, data: dict, scores: dict[int, dict], double: bool
) -> dict[str, BoxView]:
    """Every bracket match with its two slots filled in as far as the public results go."""
    entries = {e["id"]: e for e in data["entries"]}
    boxes: dict[str, BoxView] = {}

    def slot(value: dict, match: dict, row: dict | None) -> SlotView:
        entry_id = value["entry_id"]
        source = value["winner_of"] or value["loser_of"]
        if entry_id is None and source in boxes:
            # Known from public results although the next match is not drawn yet.
            for s in (boxes[source].a, boxes[source].b):
                if s.entry_id and (s.won or s.lost) and s.won == bool(value["winner_of"]):
                    entry_id = s.entry_id
        if entry_id is None:
            if value["bye"]:
                return SlotView(text=_("pase directo"), placeholder=True)
            text = _("Ganador de %(code)s") if value["winner_of"] else _("Perdedor de %(code)s")
            text = text % {"code": match_code(source or "", double)}
            feeder = boxes.get(source or "")
            if feeder is not None and feeder.a.entry_id and feeder.b.entry_id:
                # the match that decides it is known: its two pairs, not its code
                names = {"a": feeder.a.text, "b": feeder.b.text}
                return SlotView(text=_("%(a)s o %(b)s") % names, placeholder=True, short=text)
            return SlotView(text=text, placeholder=True)
        entry = entries.get(entry_id) or {"name": "", "seed": None}
        view = SlotView(
            text=entry["name"],
            entry_id=entry_id,
            url=pair_url(tournament, entry_id),
            mark=value["label"] or str(entry["seed"] or ""),
        )
        info = match["match"]
        if info and info["status"] == Match.Status.CONFIRMED and info["winner_id"]:
            view.won = info["winner_id"] == entry_id
            view.lost = not view.won
            if info["kind"] != Match.Kind.BYE and row is not None:
                side = "a" if row["entry_a_id"] == entry_id else "b"
                many = row["vacas_a"] + row["vacas_b"] > 1
                view.score = str(row[f"vacas_{side}" if many else f"games_{side}"])
        return view

    for match in data["matches"]:  # listed after the matches that feed them
        info = match["match"]
        meta, live = "", False
        if info and info["kind"] != Match.Kind.BYE and info["status"] != Match.Status.CONFIRMED:
            if info["table_number"]:
                meta = _("Mesa %(n)s") % {"n": info["table_number"]}
            live = info["status"] in (Match.Status.IN_PROGRESS, Match.Status.SUBMITTED)
            if live:
                meta += " · " + str(STATE_TEXT[info["status"]])
        elif not info and match["conditional"]:
            meta = _("si hace falta")
        row = scores.get(info["id"]) if info else None
        boxes[match["id"]] = BoxView(
            id=match["id"],
            code=match_code(match["id"], double),
            a=slot(match["a"], match, row),
            b=slot(match["b"], match, row),
            meta=meta,
            live=live,
            conditional=match["conditional"],
        )
    return boxes


def _bracket_grid(
    title: str, side: str, matches: list[dict], boxes: dict[str, BoxView], double: bool
) -> GridView:
    """One side's matches placed on a grid: a column per round, each match between the two
    that feed it, and which way its connector line goes to the match its winner plays next."""
    centres = bracket_places(matches)
    numbers = sorted({m["round"] for m in matches})
    column_of = {n: i + 1 for i, n in enumerate(numbers)}
    ids = {m["id"] for m in matches}
    next_of = {s["winner_of"]: m["id"] for m in matches for s in (m["a"], m["b"])}
    placed = []
    for m in matches:
        box = boxes[m["id"]]
        # Row 1 holds the column titles; each match is two grid rows tall.
        box.row = round(centres[m["id"]] * 2) + 2
        box.col = column_of[m["round"]]
        box.incoming = any(s["winner_of"] in ids for s in (m["a"], m["b"]))
        target = next_of.get(m["id"])
        if target in ids:
            delta = centres[target] - centres[m["id"]]
            box.out = "down" if delta > 0 else ("up" if delta < 0 else "flat")
            box.reach = f"{abs(delta):g}"
        placed.append(box)
    columns = [
        (column_of[n], bracket_round_title(side, i + 1, len(numbers), double))
        for i, n in enumerate(numbers)
    ]
    return GridView(title=title, columns=columns, boxes=placed)
