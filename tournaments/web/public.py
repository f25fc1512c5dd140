"""Public pages of a published tournament, for everybody, and the venue's big screen.

Responsible for: the pages a player, a friend at home or the bar's TV reads — the list of
public tournaments, a tournament's page (who organizes it, where, when, the rules in force in
words, the tables of the round in play, the live standings and the brackets), the standings of
every phase, the brackets drawn as brackets, each round's tables, the pairs and each pair's
matches, and the big screen (`.../pantalla/`) that refreshes itself from a fragment: the
round's mesas in even pages (tournaments.web.screen_pages), and the standings or, during a
knockout, the bracket. Turning what the selectors return into plain display values (texts,
signs, grid positions of a bracket's matches) happens here; templates only print them.

Must not: write anything, decide anything about the game, the draw or the order of the
standings (scoring/ and tournaments/draw/ do; the standings are the snapshots stored by
tournaments.services.standings — the read path never recomputes), or show what is not public.
Everything is read as an anonymous visitor would (``user=None`` for the selectors), even for a
signed-in organizer: the venue's TV is often signed in, and it must never show a draft round.
Only published tournaments (public and past draft) exist here; anything else is a 404.

Terms: peña (club), pareja (an Entry), ronda, mesa (table), partida (a Match), juego, vaca,
piedras (stones), liguilla (round robin group), cuadro (bracket), cuadro de perdedores or
repesca (losers' bracket), descanso (bye), a tres ceros (out after N losses), desempate
(tiebreak), Buchholz.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from config.errors import NotFound
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors.calendar import dates_of_rounds
from tournaments.selectors.entrants import frances_table_list
from tournaments.selectors.registration import entry_list, entry_team_players
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
    MATCH_RELATED,
    bracket_for_phase,
    phases_for_tournament,
    round_get_readable,
    round_matches,
)
from tournaments.selectors.standings import standings_cached, standings_for_phase, tiebreak_order
from tournaments.selectors.tournaments import tournament_list
from tournaments.web.bases import (
    award_in_words,
    field_in_words,
    points_in_words,
    prize_in_words,
)
from tournaments.web.names import bracket_round_title
from tournaments.web.screen_pages import pages_of

#: how often the big screen fetches its content again, in seconds
SCREEN_REFRESH_SECONDS = 20
#: how long the big screen shows one slide (or one screenful of it) when both do not fit
SCREEN_SLIDE_SECONDS = 12
#: mesas on one page of the big screen (three columns of six at 1920×1080, or any 16:9 TV:
#: the type scales with the width); more are split evenly over pages (screen_pages)
SCREEN_TABLES_PER_PAGE = 18

STATE_TEXT = {
    Match.Status.PENDING: gettext_lazy("por jugar"),
    Match.Status.IN_PROGRESS: gettext_lazy("en juego"),
    Match.Status.SUBMITTED: gettext_lazy("pendiente de confirmar"),
    Match.Status.DISPUTED: gettext_lazy("en revisión"),
    Match.Status.CONFIRMED: gettext_lazy("terminada"),
}

TIEBREAK_NAME = {
    "points": gettext_lazy("puntos"),
    "matches_won": gettext_lazy("partidas ganadas"),
    "head_to_head": gettext_lazy("enfrentamiento directo"),
    "game_difference": gettext_lazy("diferencia de juegos"),
    "games_won": gettext_lazy("juegos ganados"),
    "stone_difference": gettext_lazy("diferencia de piedras"),
    "stones_won": gettext_lazy("piedras ganadas"),
    "buchholz": gettext_lazy("Buchholz (partidas ganadas por sus rivales)"),
    "lots": gettext_lazy("sorteo"),
}

#: why a row is below the one above it (the row's ``separated_by``)
TIEBREAK_WHY = {
    "points": gettext_lazy("por puntos"),
    "matches_won": gettext_lazy("por partidas ganadas"),
    "head_to_head": gettext_lazy("por el enfrentamiento directo"),
    "game_difference": gettext_lazy("por diferencia de juegos"),
    "games_won": gettext_lazy("por juegos ganados"),
    "stone_difference": gettext_lazy("por diferencia de piedras"),
    "stones_won": gettext_lazy("por piedras ganadas"),
    "buchholz": gettext_lazy("por Buchholz"),
    "lots": gettext_lazy("por sorteo"),
    "placing": gettext_lazy("por la ronda en que quedó eliminada"),
}


# --- Reads these pages need -------------------------------------------------------------------
# The selectors give everything else; these two are the public pages' own lookups (by slug, and
# one pair's matches), kept here until tournaments/selectors offers them.


def _tournament(club_slug: str, tournament_slug: str) -> Tournament:
    """The published tournament, with its counts (one query); 404 for anything else."""
    tournament = (
        tournament_list(user=None, club_slug=club_slug, with_managed=True)
        .filter(slug=tournament_slug)
        .first()
    )
    if tournament is None:
        raise Http404(_("Este torneo no existe o todavía no se ha publicado."))
    return tournament


def _entry_matches(tournament: Tournament, entry: Entry) -> list[Match]:
    """The pair's matches in published or closed rounds, in the order they were played."""
    return list(
        Match.objects.filter(round__phase__tournament=tournament)
        .filter(Q(entry_a=entry) | Q(entry_b=entry))
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__phase", *MATCH_RELATED)
        .order_by("round__phase__order", "round__number", "id")
    )


def _bracket_scores(phase: Phase) -> dict[int, dict]:
    """Juegos and vacas of the phase's public bracket matches, by match id (one query)."""
    rows = (
        Match.objects.filter(round__phase=phase)
        .exclude(bracket_key="")
        .exclude(round__status=Round.Status.DRAFT)
        .values("id", "entry_a_id", "entry_b_id", "games_a", "games_b", "vacas_a", "vacas_b")
    )
    return {row["id"]: row for row in rows}


# --- Display values ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PairView:
    """A pair as the pages print it: its name, its players when it has a name of its own."""

    entry_id: int
    name: str
    players: str
    club: str
    seed: int | None
    url: str
    won: bool = False


@dataclass(frozen=True)
class TableView:
    """One match of a round at its table."""

    table: int | None
    group: str
    code: str
    a: PairView | None
    b: PairView | None
    state: str
    state_text: str
    #: juegos (or vacas, see score_unit) of pair A and pair B, once confirmed
    score_a: str
    score_b: str
    score_unit: str
    #: the score counts vacas (a partida of several), not juegos
    in_vacas: bool = False
    #: the pair page's own view: "won", "lost" or "" (not decided), its score first
    outcome: str = ""
    score: str = ""
    opponent: PairView | None = None
    #: the match's id: the page marks it ``partida-<id>`` (the ratings pages link to it)
    match_id: int | None = None
    #: its own date (moved by its pairs) or its deadline once postponed, in words; ""
    when: str = ""


@dataclass(frozen=True)
class StandingLine:
    rank: int
    tied: bool
    entry_id: int
    name: str
    players: str
    club: str
    url: str
    withdrawn: bool
    #: what is printed under the name: the players of a named pair, else the peña (when the
    #: phase has pairs of several peñas), and "retirada"
    sub: str
    played: int
    won: int
    lost: int
    games: str
    stones: str
    buchholz: int
    why: str
    lives: int | None
    #: players alone: juegos won (individual) or placing points (Mus francés); pairs: the
    #: points of the tournament's points table
    points: int | None = None


#: the standings' columns: their short heading and what it means (the legend under the table)
STANDINGS_COLUMNS = {
    "points": (
        gettext_lazy("Pts"),
        gettext_lazy("juegos ganados (individual) o puntos por puesto (mus francés)"),
    ),
    "played": (gettext_lazy("PJ"), gettext_lazy("partidas jugadas")),
    "won": (gettext_lazy("PG"), gettext_lazy("partidas ganadas")),
    "games": (gettext_lazy("±J"), gettext_lazy("diferencia de juegos")),
    "stones": (gettext_lazy("±P"), gettext_lazy("diferencia de piedras")),
    "buchholz": (gettext_lazy("Bh"), gettext_lazy("Buchholz: partidas ganadas por sus rivales")),
    "lives": (gettext_lazy("Vidas"), gettext_lazy("derrotas que le quedan antes de quedar fuera")),
}


@dataclass(frozen=True)
class StandingsView:
    title: str
    phase: Phase
    computed_at: dt.datetime | None
    lines: list[StandingLine]
    swiss: bool
    lives: bool
    #: the standings of players alone (individual, Mus francés): a player a row, with points
    alone: bool = False
    #: what the points column means (the tournament's points table, in words); "" without it
    points_meaning: str = ""

    def _columns(self, compact: bool) -> list[tuple[str, str]]:
        keys = (["points"] if self.points_meaning else []) + ["played", "won", "games"]
        if not compact:
            keys += ["stones"] + (["buchholz"] if self.swiss else [])
        if self.lives:
            keys.append("lives")
        columns = [tuple(str(text) for text in STANDINGS_COLUMNS[key]) for key in keys]
        if self.points_meaning:
            columns[0] = (columns[0][0], self.points_meaning)
        return columns

    @property
    def columns(self) -> list[tuple[str, str]]:
        """The columns the full table shows, each (heading, meaning): every one is explained."""
        return self._columns(False)

    @property
    def compact_columns(self) -> list[tuple[str, str]]:
        """The columns of the tournament page's short table."""
        return self._columns(True)


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


@dataclass
class Context:
    """What every page of a tournament shares: the tournament, its phases, the current round."""

    tournament: Tournament
    phases: list[Phase]
    current_phase: Phase | None
    current_round: Round | None
    rules: list[str]
    phase_rules: list[str]
    urls: dict[str, str] = field(default_factory=dict)
    #: the prizes the bases declare, in words (tournaments.web.bases)
    prizes: list[dict[str, str]] = field(default_factory=list)
    #: the prizes awarded, once the tournament finished
    awards: list[dict] = field(default_factory=list)

    @property
    def has_bracket(self) -> bool:
        return any(p.format in ELIMINATION_FORMATS and p.bracket for p in self.phases)

    @property
    def rounds(self) -> list[tuple[Phase, Round]]:
        return [(p, r) for p in self.phases for r in p.visible_rounds]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def _pair_url(tournament: Tournament, entry_id: int) -> str:
    return reverse("web:public-pair", args=[tournament.club.slug, tournament.slug, entry_id])


def _pair(tournament: Tournament, entry: Entry | None, *, won: bool = False) -> PairView | None:
    if entry is None:
        return None
    pair = entry.pair
    players = " · ".join(str(player) for player in entry_team_players(entry))
    return PairView(
        entry_id=entry.id,
        name=str(pair),
        players=players,
        club=pair.club.name if pair.club_id else "",
        seed=entry.seed,
        url=_pair_url(tournament, entry.id),
        won=won,
    )


def _score(match: Match) -> tuple[str, str, str]:
    """The result as printed: vacas when the partida had several, juegos otherwise."""
    if match.vacas_a + match.vacas_b > 1:
        return str(match.vacas_a), str(match.vacas_b), _("vacas")
    return str(match.games_a), str(match.games_b), _("juegos")


def _code(match_id: str, double: bool) -> str:
    """A bracket match's short name: 1-2 (single), G1-2 / P2-1 (winners' / losers'), GF."""
    if match_id.startswith("W"):
        # Translators: prefix of a winners' bracket match (G of "ganadores")
        return (_("G") if double else "") + match_id[1:]
    if match_id.startswith("L"):
        # Translators: prefix of a losers' bracket match (P of "perdedores")
        return _("P") + match_id[1:]
    if match_id == "GF1":
        # Translators: the grand final
        return _("GF")
    if match_id == "3P":
        return _("3.º")
    return match_id


def _table(tournament: Tournament, match: Match, phase: Phase) -> TableView:
    double = phase.format == Phase.Format.DOUBLE_ELIMINATION
    decided = match.status == Match.Status.CONFIRMED and match.winner_id is not None
    a = _pair(tournament, match.entry_a, won=decided and match.winner_id == match.entry_a_id)
    b = _pair(tournament, match.entry_b, won=decided and match.winner_id == match.entry_b_id)
    score_a = score_b = unit = ""
    if match.kind == Match.Kind.BYE:
        # A bye is a win in the standings of a Swiss; in a bracket the pair just goes on.
        knockout = phase.format in ELIMINATION_FORMATS
        state, text = "bye", _("pase directo") if knockout else _("descansa: cuenta como ganada")
    elif match.kind == Match.Kind.FORFEIT:
        state, text = "forfeit", _("no presentada")
    else:
        state, text = match.status, str(STATE_TEXT.get(match.status, match.status))
        if decided:
            score_a, score_b, unit = _score(match)
    when = ""
    if match.status != Match.Status.CONFIRMED and match.deadline is not None:
        when = _("aplazada: hasta el %(day)s") % {"day": date_format(match.deadline, "j M")}
    elif match.status != Match.Status.CONFIRMED and match.scheduled_at is not None:
        at = timezone.localtime(match.scheduled_at)
        when = _("se juega el %(day)s") % {"day": date_format(at, "D j M, H:i")}
    return TableView(
        table=match.table_number,
        group=match.group.name if match.group_id else "",
        code=_code(match.bracket_key, double) if match.bracket_key else "",
        a=a,
        b=b,
        state=state,
        state_text=text,
        score_a=score_a,
        score_b=score_b,
        score_unit=unit,
        in_vacas=bool(score_a) and match.vacas_a + match.vacas_b > 1,
        match_id=match.pk,
        when=when,
    )


def _tables(tournament: Tournament, phase: Phase, matches: Iterable[Match]) -> list[TableView]:
    return [_table(tournament, m, phase) for m in matches]


def _standings_html(tournament: Tournament, phase: Phase, *, compact: bool = False) -> str:
    """The phase's standings tables as the public pages show them (``compact``: the tournament's
    page, fewer columns, nothing before the first snapshot), kept in the cache until its
    snapshots change (standings_cached): spectators reload the same standings over and over,
    and rendering a 256-pair Swiss's rows took ~45 ms of CPU a read. The key holds what the
    tables show besides the snapshots: the language, the phase's name and the tournament's
    address (in each pair's link)."""

    def build(groups: list[dict]) -> str:
        views = _standings(tournament, phase, groups)
        return render_to_string(
            "public/_standings_phase.html", {"groups": views, "t": tournament, "compact": compact}
        ).strip()  # nothing at all before the first snapshot: the tournament's page hides it

    variant = (
        f"page:{compact}:{get_language()}:{tournament.club.slug}/{tournament.slug}:{phase.name}"
    )
    # our template escaped every value; the cache keeps the HTML as plain text
    return mark_safe(standings_cached(phase=phase, build=build, variant=variant))


def _standings(
    tournament: Tournament, phase: Phase, groups: list[dict] | None = None
) -> list[StandingsView]:
    """The stored standings of the phase (one query, unless ``groups`` are those already
    read), one view per group."""
    order = tiebreak_order(phase)
    primary = order[0] if order else None
    swiss = phase.format == Phase.Format.SWISS
    lives = phase.format == Phase.Format.LIVES
    if groups is None:
        groups = standings_for_phase(phase=phase)
    several_clubs = len({row.get("club") for g in groups for row in g["rows"]}) > 1
    alone = tournament.entrant_kind in (
        Tournament.EntrantKind.INDIVIDUALS,
        Tournament.EntrantKind.FRANCES,
    )
    if alone:
        swiss = False  # no Buchholz: a player's opponents change every round
    meaning = str(STANDINGS_COLUMNS["points"][1]) if alone else points_in_words(tournament)
    views = []
    for group in groups:
        lines = []
        previous_rank = None
        for row in group["rows"]:
            separated = row.get("separated_by")
            why = ""
            if separated and separated != primary:
                why = str(TIEBREAK_WHY.get(separated, separated))
            tied = previous_rank == row["rank"]
            if tied:
                why = _("empatada con la anterior")
            previous_rank = row["rank"]
            named = row["name"] != " / ".join(row["players"])
            sub = [" · ".join(row["players"]) if named else ""]
            if several_clubs and row.get("club"):
                sub.append(row["club"])
            if row.get("withdrawn"):
                sub.append(_("retirada"))
            lines.append(
                StandingLine(
                    rank=row["rank"],
                    tied=tied,
                    entry_id=row["entry_id"],
                    name=row["name"],
                    players=" · ".join(row["players"]) if named else "",
                    club=row.get("club") or "",
                    # a player alone has no pair page (entry_id is their IndividualEntry)
                    url="" if alone else _pair_url(tournament, row["entry_id"]),
                    withdrawn=row.get("withdrawn", False),
                    sub=" · ".join(part for part in sub if part),
                    played=row["played"],
                    won=row["won"],
                    lost=row["lost"],
                    games=_signed(row["game_difference"]),
                    stones=_signed(row["stone_difference"]),
                    buchholz=row["buchholz"],
                    why=why,
                    # a tres ceros: the same arithmetic as tournaments.draw.lives_left
                    lives=max(phase.lives - row["lost"], 0) if lives else None,
                    points=row.get("points"),
                )
            )
        title = _("Grupo %(name)s") % {"name": group["group"]} if group["group"] else phase.name
        scored = alone or any("points" in row for row in group["rows"])
        views.append(
            StandingsView(
                title,
                phase,
                group["computed_at"],
                lines,
                swiss,
                lives,
                alone=alone,
                points_meaning=meaning if scored else "",
            )
        )
    return views


def _rules_in_words(values: dict) -> list[str]:
    kings = values["kings"]
    stones = values["stones_per_game"]
    games = values["games_per_vaca"]
    vacas = values["vacas_per_match"]
    words = [
        ngettext("%(n)s rey", "%(n)s reyes", kings) % {"n": kings},
        _("juegos a %(n)s piedras") % {"n": stones},
        ngettext("%(n)s juego por vaca", "%(n)s juegos por vaca", games) % {"n": games},
        ngettext("partidas a %(n)s vaca", "partidas a %(n)s vacas", vacas) % {"n": vacas},
    ]
    return words


def _rules(tournament: Tournament) -> list[str]:
    """The rules in force, in a player's words: reyes, piedras, juegos por vaca, vacas…"""
    words = _rules_in_words(tournament.rule_values())
    words.append(
        _("31 real: %(how)s") % {"how": tournament.get_real_31_display()}
        if tournament.real_31 != "off"
        else _("sin 31 real")
    )
    if tournament.real_31_suit:
        words.append(_("sota de %(suit)s") % {"suit": tournament.real_31_suit})
    if tournament.tio_perete:
        words.append(_("el tío Perete (4-5-6-7) vale una piedra"))
    if tournament.forgotten_stones_lost:
        words.append(_("piedra olvidada, piedra perdida al cortar"))
    words.append(_("se cuentan los dejes") if tournament.dejes else _("no se cuentan los dejes"))
    envite = tournament.min_envite
    words.append(
        ngettext("envite mínimo de %(n)s piedra", "envite mínimo de %(n)s piedras", envite)
        % {"n": envite}
    )
    points = points_in_words(tournament)
    if points:
        words.append(_("clasificación por puntos: %(points)s") % {"points": points})
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        words += field_in_words(tournament)  # what the close of registration will apply
    return words


def _phase_rules(tournament: Tournament, phases: list[Phase]) -> list[str]:
    """A line for each phase that plays a different match format (a longer final)."""
    lines = []
    base = tournament.rule_values()
    for phase in phases:
        values = dict(base)
        changed = False
        for name in ("stones_per_game", "games_per_vaca", "vacas_per_match"):
            value = getattr(phase, name)
            if value is not None and value != base[name]:
                values[name] = value
                changed = True
        if changed:
            words = _rules_in_words(values)[1:]
            lines.append(f"{phase.name}: {', '.join(words)}")
    return lines


def _current(phases: list[Phase]) -> tuple[Phase | None, Round | None]:
    """The round in play (the latest published one), else the latest closed one."""
    rounds = [(p, r) for p in phases for r in p.visible_rounds]
    for status in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        candidates = [(p, r) for p, r in rounds if r.status == status]
        if candidates:
            return max(candidates, key=lambda pr: (pr[0].order, pr[1].number))
    running = [p for p in phases if p.status == Phase.Status.RUNNING]
    return (running[0] if running else None), None


def _context(tournament: Tournament) -> Context:
    phases = phases_for_tournament(tournament=tournament, user=None)
    for phase in phases:
        phase.tournament = tournament  # same row; keeps the rules read from one object
    # when each round is played: its own date or the calendar's evening (no query)
    dates = dates_of_rounds(
        tournament=tournament, rounds=[r for p in phases for r in p.visible_rounds]
    )
    for phase in phases:
        for rnd in phase.visible_rounds:
            rnd.when = dates.get(rnd.id)
    current_phase, current_round = _current(phases)
    args = [tournament.club.slug, tournament.slug]
    names = {
        "tournament": "tournament",
        "standings": "public-standings",
        "bracket": "public-bracket",
        "pairs": "public-pairs",
        "screen": "public-screen",
        "screen_fragment": "public-screen-fragment",
    }
    urls = {key: reverse(f"web:{name}", args=args) for key, name in names.items()}
    return Context(
        tournament=tournament,
        phases=phases,
        current_phase=current_phase,
        current_round=current_round,
        rules=_rules(tournament),
        phase_rules=_phase_rules(tournament, phases),
        urls=urls,
        prizes=[{"name": p["name"], "words": prize_in_words(p)} for p in tournament.prizes or []],
        awards=[award_in_words(a) for a in tournament.prize_awards or []]
        if tournament.status == Tournament.Status.FINISHED
        else [],
    )


# --- Brackets ---------------------------------------------------------------------------------


def _place(matches: list[dict]) -> dict[str, float]:
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


def _bracket(tournament: Tournament, phase: Phase) -> BracketView | None:
    """The phase's bracket as grids of boxes with connectors (two queries); None before its
    first round is drawn."""
    try:
        data = bracket_for_phase(phase=phase, user=None)
    except NotFound:
        return None
    double = phase.format == Phase.Format.DOUBLE_ELIMINATION
    boxes = _bracket_boxes(tournament, data, _bracket_scores(phase), double)
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
            text = text % {"code": _code(source or "", double)}
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
            url=_pair_url(tournament, entry_id),
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
            code=_code(match["id"], double),
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
    centres = _place(matches)
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


# --- Views ------------------------------------------------------------------------------------


def _sections(
    tournaments: Iterable[Tournament], limit_finished: int | None = None
) -> list[tuple[str, list[Tournament]]]:
    """Published tournaments in three lists: in play, to come (soonest first), finished."""
    running, upcoming, finished = [], [], []
    for t in tournaments:
        if t.status == Tournament.Status.RUNNING:
            running.append(t)
        elif t.status == Tournament.Status.FINISHED:
            finished.append(t)
        else:
            upcoming.append(t)
    upcoming.reverse()  # the list comes newest first; the next one to be played goes first
    return [
        (title, items)
        for title, items in (
            (_("En juego"), running),
            (_("Próximos"), upcoming),
            (_("Terminados"), finished[:limit_finished] if limit_finished else finished),
        )
        if items
    ]


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The home page with the public tournaments in it (for config/urls.py's "" route)."""
    return render(request, "home.html", {"sections": _sections(tournament_list(user=None), 5)})


@require_safe
def home_fragment(request: HttpRequest) -> HttpResponse:
    """The home page's list of tournaments alone, for the home page served without a view."""
    sections = _sections(tournament_list(user=None), 5)
    return render(request, "public/_tournament_cards.html", {"sections": sections})


@require_safe
def tournaments_page(request: HttpRequest) -> HttpResponse:
    sections = _sections(tournament_list(user=None))
    return render(request, "public/tournament_list.html", {"sections": sections})


@require_safe
def tournament_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    ctx = _context(tournament)
    phase, rnd = ctx.current_phase, ctx.current_round
    tables = _tables(tournament, phase, round_matches(rnd=rnd)) if rnd else []
    standings = ""
    bracket = None
    if phase is not None:
        if phase.format in ELIMINATION_FORMATS:
            bracket = _bracket(tournament, phase)
        else:
            standings = _standings_html(tournament, phase, compact=True)
    return render(
        request,
        "public/tournament.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "tournament",
            "tables": tables,
            "standings": standings,
            "bracket": bracket,
            "champion": _champion(tournament, ctx) if tournament.status == "finished" else "",
        },
    )


def _champion(tournament: Tournament, ctx: Context) -> str:
    """Who won a finished tournament: its last phase's bracket champion or standings leader."""
    played = [p for p in ctx.phases if p.visible_rounds]
    if not played:
        return ""
    last = played[-1]
    if last.format in ELIMINATION_FORMATS:
        bracket = _bracket(tournament, last)
        return bracket.champion if bracket else ""
    for group in standings_for_phase(phase=last):
        if group["group"] is None and group["rows"]:
            return group["rows"][0]["name"]
    return ""


@require_safe
def standings_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    ctx = _context(tournament)
    phases = [p for p in ctx.phases if p.visible_rounds]
    phases.sort(key=lambda p: p != ctx.current_phase)  # the phase in play first
    # An elimination phase is read on its bracket: its standings would only count wins.
    order = [
        (
            p,
            [str(TIEBREAK_NAME.get(t, t)) for t in tiebreak_order(p)],
            _standings_html(tournament, p),
        )
        if p.format not in ELIMINATION_FORMATS
        else (p, [], None)
        for p in phases
    ]
    return render(
        request,
        "public/standings.html",
        {"ctx": ctx, "t": tournament, "tab": "standings", "phases": order},
    )


@require_safe
def bracket_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    ctx = _context(tournament)
    brackets = [
        b
        for p in ctx.phases
        if p.format in ELIMINATION_FORMATS and p.bracket
        for b in [_bracket(tournament, p)]
        if b is not None
    ]
    return render(
        request,
        "public/bracket.html",
        {"ctx": ctx, "t": tournament, "tab": "bracket", "brackets": brackets},
    )


@require_safe
def round_page(
    request: HttpRequest, club_slug: str, tournament_slug: str, round_id: int
) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    try:
        rnd = round_get_readable(round_id=round_id, user=None)
    except NotFound:
        raise Http404(_("Esta ronda no existe o todavía no se ha publicado.")) from None
    if rnd.phase.tournament_id != tournament.id:
        raise Http404(_("Esta ronda no es de este torneo."))
    ctx = _context(tournament)
    phase = next((p for p in ctx.phases if p.id == rnd.phase_id), rnd.phase)
    rnd.when = next((r.when for _p, r in ctx.rounds if r.id == rnd.id), rnd.scheduled_at)
    return render(
        request,
        "public/round.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "round",
            "round": rnd,
            "phase": phase,
            "tables": _tables(tournament, phase, rnd.match_list),
            "frances_tables": _frances_tables(tournament, rnd),
        },
    )


def _frances_tables(tournament: Tournament, rnd: Round) -> list[dict]:
    """A Mus francés round's tables: the players by seat and, once confirmed, the finishing
    order (two queries); nothing for other tournaments."""
    if tournament.entrant_kind != Tournament.EntrantKind.FRANCES:
        return []
    views = []
    for table in frances_table_list(round=rnd, user=None):
        seats = list(table.seats.all())
        names = {s.entry_id: str(s.entry) for s in seats}
        views.append(
            {
                "number": table.table_number,
                "players": [str(s.entry) for s in seats],
                "order": [names.get(p, "?") for p in (table.order or [])],
            }
        )
    return views


@require_safe
def pairs_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    ctx = _context(tournament)
    entries = entry_list(tournament=tournament)
    playing = [_pair(tournament, e) for e in entries if e.status != Entry.Status.WAITING]
    withdrawn = {e.id for e in entries if e.status == Entry.Status.WITHDRAWN}
    # left out when registration closed (the bases' field sizes): not "withdrawn" by choice
    dropped = {e.id for e in entries if e.dropped_at is not None}
    waiting = sum(1 for e in entries if e.status == Entry.Status.WAITING)
    return render(
        request,
        "public/pairs.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "pairs",
            "pairs": playing,
            "withdrawn": withdrawn,
            "dropped": dropped,
            "waiting": waiting,
        },
    )


@require_safe
def pair_page(
    request: HttpRequest, club_slug: str, tournament_slug: str, entry_id: int
) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id)
        .select_related("pair__player_one", "pair__player_two", "pair__club", "player_three")
        .first()
    )
    if entry is None:
        raise Http404(_("Esta pareja no está inscrita en este torneo."))
    ctx = _context(tournament)
    phases = {p.id: p for p in ctx.phases}
    matches = []
    for m in _entry_matches(tournament, entry):
        phase = phases.get(m.round.phase_id, m.round.phase)
        view = _table(tournament, m, phase)
        own_a = m.entry_a_id == entry.id
        outcome = score = ""
        if view.score_a or view.state == "forfeit":
            outcome = "won" if m.winner_id == entry.id else "lost"
        if view.score_a:
            own, other = (view.score_a, view.score_b) if own_a else (view.score_b, view.score_a)
            score = f"{own}–{other}"
        view = replace(view, outcome=outcome, score=score, opponent=view.b if own_a else view.a)
        matches.append((phase, m.round, view))
    standing = []
    for phase in ctx.phases:
        if not phase.visible_rounds:
            continue
        for view in _standings(tournament, phase):
            for line in view.lines:
                if line.entry_id == entry.id:
                    standing.append((view, line))
    return render(
        request,
        "public/pair.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "pairs",
            "entry": entry,
            "pair": _pair(tournament, entry),
            "matches": matches,
            "standing": standing,
        },
    )


def _screen_context(tournament: Tournament) -> dict:
    """The TV's slides: the round's mesas (in even pages), and the standings or, during a
    knockout, the bracket."""
    ctx = _context(tournament)
    phase, rnd = ctx.current_phase, ctx.current_round
    tables = _tables(tournament, phase, round_matches(rnd=rnd)) if rnd else []
    standings = []
    bracket = None
    if phase is not None and phase.format in ELIMINATION_FORMATS:
        bracket = _bracket(tournament, phase)
    elif phase is not None:
        standings = _standings(tournament, phase)
    return {
        "ctx": ctx,
        "t": tournament,
        "tables": tables,
        "table_pages": pages_of(tables, SCREEN_TABLES_PER_PAGE),
        "standings": [s for s in standings if s.lines],
        "bracket": bracket,
        "now": timezone.localtime(),
    }


@require_safe
def screen_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    context = _screen_context(tournament)
    context.update(refresh=SCREEN_REFRESH_SECONDS, slide=SCREEN_SLIDE_SECONDS)
    return render(request, "public/screen.html", context)


@require_safe
def screen_fragment(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = _tournament(club_slug, tournament_slug)
    response = render(request, "public/_screen_content.html", _screen_context(tournament))
    response["Cache-Control"] = "no-store"
    return response


_T = "torneos/<slug:club_slug>/<slug:tournament_slug>/"

urlpatterns = [
    path("torneos/", tournaments_page, name="public-tournaments"),
    path("torneos/portada/", home_fragment, name="public-home-fragment"),
    path(_T, tournament_page, name="tournament"),
    path(_T + "clasificacion/", standings_page, name="public-standings"),
    path(_T + "cuadro/", bracket_page, name="public-bracket"),
    path(_T + "rondas/<int:round_id>/", round_page, name="public-round"),
    path(_T + "parejas/", pairs_page, name="public-pairs"),
    path(_T + "parejas/<int:entry_id>/", pair_page, name="public-pair"),
    path(_T + "pantalla/", screen_page, name="public-screen"),
    path(_T + "pantalla/contenido/", screen_fragment, name="public-screen-fragment"),
]
