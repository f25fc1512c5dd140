"""The display values of the public pages: what a page shows of a tournament, turned from what
the selectors return into plain values (texts, signs, links) that templates only print.

Responsible for: finding a published tournament by its slugs (``page_tournament``: a 404 for
anything not public), the views of a pair, a table and a standings line, the standings tables
rendered once per refresh and language (``standings_html``), the rules in force in words, the
phase and round in play, and a tournament page's whole context (``page_context``).

Must not: read as anybody but an anonymous visitor, decide the order of the standings (they are
the stored snapshots), or render a bracket (brackets.py).

Terms: peña (club), pareja (an Entry), ronda, mesa (table), partida (a Match), juego, vaca,
piedras (stones), liguilla (round robin group), cuadro (bracket), cuadro de perdedores or
repesca (losers' bracket), descanso (bye), a tres ceros (out after N losses), desempate
(tiebreak), Buchholz.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from config.live import live_stream
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors.calendar import dates_of_rounds
from tournaments.selectors.registration import entry_team_players
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
    MATCH_RELATED,
    phase_is_knockout,
    phase_round_lengths,
    phases_for_tournament,
)
from tournaments.selectors.standings import standings_cached, standings_for_phase, tiebreak_order
from tournaments.selectors.tournaments import tournament_list
from tournaments.web.bases import (
    award_in_words,
    field_in_words,
    points_in_words,
    prize_in_words,
    round_lengths_in_words,
)

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


def page_tournament(club_slug: str, tournament_slug: str) -> Tournament:
    """The published tournament, with its counts (one query); 404 for anything else."""
    tournament = (
        tournament_list(user=None, club_slug=club_slug, with_managed=True)
        .filter(slug=tournament_slug)
        .first()
    )
    if tournament is None:
        raise Http404(_("Este torneo no existe o todavía no se ha publicado."))
    return tournament


def entry_matches(tournament: Tournament, entry: Entry) -> list[Match]:
    """The pair's matches in published or closed rounds, in the order they were played."""
    return list(
        Match.objects.filter(round__phase__tournament=tournament)
        .filter(Q(entry_a=entry) | Q(entry_b=entry))
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__phase", *MATCH_RELATED)
        .order_by("round__phase__order", "round__number", "id")
    )


def bracket_scores(phase: Phase) -> dict[int, dict]:
    """Juegos and vacas of the phase's public bracket matches, by match id (one query)."""
    rows = (
        Match.objects.filter(round__phase=phase)
        .exclude(bracket_key="")
        .exclude(round__status=Round.Status.DRAFT)
        .values("id", "entry_a_id", "entry_b_id", "games_a", "games_b", "vacas_a", "vacas_b")
    )
    return {row["id"]: row for row in rows}


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
    #: the public stream of the live push (config.live.live_stream; None when it is off)
    live: dict | None = None

    @property
    def has_bracket(self) -> bool:
        return any(p.format in ELIMINATION_FORMATS and p.bracket for p in self.phases)

    @property
    def rounds(self) -> list[tuple[Phase, Round]]:
        return [(p, r) for p in self.phases for r in p.visible_rounds]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def pair_url(tournament: Tournament, entry_id: int) -> str:
    return reverse("web:public-pair", args=[tournament.club.slug, tournament.slug, entry_id])


def pair_view(tournament: Tournament, entry: Entry | None, *, won: bool = False) -> PairView | None:
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
        url=pair_url(tournament, entry.id),
        won=won,
    )


def _score(match: Match) -> tuple[str, str, str]:
    """The result as printed: vacas when the partida had several, juegos otherwise."""
    if match.vacas_a + match.vacas_b > 1:
        return str(match.vacas_a), str(match.vacas_b), _("vacas")
    return str(match.games_a), str(match.games_b), _("juegos")


def match_code(match_id: str, double: bool) -> str:
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


def table_view(tournament: Tournament, match: Match, phase: Phase) -> TableView:
    double = phase.format == Phase.Format.DOUBLE_ELIMINATION
    decided = match.status == Match.Status.CONFIRMED and match.winner_id is not None
    a = pair_view(tournament, match.entry_a, won=decided and match.winner_id == match.entry_a_id)
    b = pair_view(tournament, match.entry_b, won=decided and match.winner_id == match.entry_b_id)
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
        code=match_code(match.bracket_key, double) if match.bracket_key else "",
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


def table_views(tournament: Tournament, phase: Phase, matches: Iterable[Match]) -> list[TableView]:
    return [table_view(tournament, m, phase) for m in matches]


#: Rows a page of the standings shows (the tournament's page shows the first page): a club's
#: tournament is one page; a federation's 1,000 pairs are 10, each under 60 KB on a phone.
STANDINGS_PAGE_SIZE = 100
#: The highest page number read from an address (each number asked for is kept in the cache).
MAX_PAGE = 1000


def standings_html(
    tournament: Tournament, phase: Phase, *, compact: bool = False, page: int = 1
) -> str:
    """The phase's standings tables as the public pages show them (``compact``: the tournament's
    page, fewer columns, nothing before the first snapshot), kept in the cache until its
    snapshots change (standings_cached): spectators reload the same standings over and over,
    and rendering a 256-pair Swiss's rows took ~45 ms of CPU a read. The key holds what the
    tables show besides the snapshots: the language, the phase's name, the tournament's
    address (in each pair's link) and the page.

    ``page``: the rows ``STANDINGS_PAGE_SIZE`` at a time, counted across the groups (a group
    cut by a page shows the rows of that page), with the links to the other pages; the
    compact standings are the first page and a link to the whole standings."""
    page = min(max(page, 1), MAX_PAGE)

    def build(groups: list[dict]) -> str:
        total = sum(len(g["rows"]) for g in groups)
        pages = max(1, -(-total // STANDINGS_PAGE_SIZE))
        number = min(page, pages)
        shown = _rows_of_page(groups, number) if pages > 1 else groups
        views = standings_view(tournament, phase, shown)
        return render_to_string(
            "public/_standings_phase.html",
            {
                "groups": views,
                "t": tournament,
                "compact": compact,
                "page": {
                    "number": number,
                    "pages": pages,
                    "range": range(1, pages + 1),
                    "first": (number - 1) * STANDINGS_PAGE_SIZE + 1,
                    "last": min(number * STANDINGS_PAGE_SIZE, total),
                    "total": total,
                }
                if pages > 1
                else None,
            },
        ).strip()  # nothing at all before the first snapshot: the tournament's page hides it

    variant = (
        f"page:{compact}:{get_language()}:{tournament.club.slug}/{tournament.slug}:{phase.name}"
        f":{1 if compact else page}"
    )
    # our template escaped every value; the cache keeps the HTML as plain text
    return mark_safe(standings_cached(phase=phase, build=build, variant=variant))


def _rows_of_page(groups: list[dict], number: int) -> list[dict]:
    """The groups with only the rows of page ``number`` (a group without any left out)."""
    start, end = (number - 1) * STANDINGS_PAGE_SIZE, number * STANDINGS_PAGE_SIZE
    shown, seen = [], 0
    for group in groups:
        rows = group["rows"]
        low, high = max(start - seen, 0), min(end - seen, len(rows))
        if low < high:
            shown.append({**group, "rows": rows[low:high]})
        seen += len(rows)
    return shown


def standings_view(
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
            move = row.get("ladder_move")  # a group ladder: came up or down after the cycle
            if move == "up":
                why = _("↑ sube de grupo")
            elif move == "down":
                why = _("↓ baja de grupo")
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
                    url="" if alone else pair_url(tournament, row["entry_id"]),
                    withdrawn=row.get("withdrawn", False),
                    sub=" · ".join(part for part in sub if part),
                    played=row["played"],
                    won=row["won"],
                    lost=row["lost"],
                    games=signed(row["game_difference"]),
                    stones=signed(row["stone_difference"]),
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


def rules_in_words(values: dict) -> list[str]:
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


def rules_in_words_of(tournament: Tournament) -> list[str]:
    """The rules in force, in a player's words: reyes, piedras, juegos por vaca, vacas…"""
    words = rules_in_words(tournament.rule_values())
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


def phase_rules_in_words(tournament: Tournament, phases: list[Phase]) -> list[str]:
    """A line for each phase that plays a different match format (a longer final) or rounds
    of their own length ("cuartos de final y semifinales al mejor de 3 juegos, final al mejor
    de 5 juegos")."""
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
        parts = []
        if changed:
            parts.append(", ".join(rules_in_words(values)[1:]))
        by_round = round_lengths_in_words(
            phase_round_lengths(phase), values, knockout=phase_is_knockout(phase)
        )
        if by_round:
            parts.append(by_round)
        if parts:
            lines.append(f"{phase.name}: {'; '.join(parts)}")
    return lines


def current_phase_and_round(phases: list[Phase]) -> tuple[Phase | None, Round | None]:
    """The round in play (the latest published one), else the latest closed one."""
    rounds = [(p, r) for p in phases for r in p.visible_rounds]
    for status in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        candidates = [(p, r) for p, r in rounds if r.status == status]
        if candidates:
            return max(candidates, key=lambda pr: (pr[0].order, pr[1].number))
    running = [p for p in phases if p.status == Phase.Status.RUNNING]
    return (running[0] if running else None), None


def page_context(tournament: Tournament) -> Context:
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
    current_phase, current_round = current_phase_and_round(phases)
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
        live=live_stream(f"torneos/{tournament.club.slug}/{tournament.slug}", tournament.pk),
        tournament=tournament,
        phases=phases,
        current_phase=current_phase,
        current_round=current_round,
        rules=rules_in_words_of(tournament),
        phase_rules=phase_rules_in_words(tournament, phases),
        urls=urls,
        prizes=[{"name": p["name"], "words": prize_in_words(p)} for p in tournament.prizes or []],
        awards=[award_in_words(a) for a in tournament.prize_awards or []]
        if tournament.status == Tournament.Status.FINISHED
        else [],
    )
