"""Reads of phases, rounds, their matches and tables, and brackets.

Responsible for: loading what the rounds area shows — a tournament's phases, a phase's rounds,
a round's matches with their pairs, players and table numbers, a phase's bracket filled in from
the confirmed results — in a fixed number of queries whatever the number of pairs, and saying
who may read it (published tournaments are public; drafts, private tournaments and draft rounds
only for the peña's organizers). `phase_rules` gives a phase's effective rule set, its form
(scoring.Form) derived from the tournament's entrant kind (`rule_form`); `round_rules` a
round's, with the length the phase declares for that round (tournaments.draw.lengths: a final
longer than the semi-finals), which every path reads through `round_rules` or
selectors.results.match_rules.

Must not: write anything, or decide a pairing (tournaments.draw does, through
tournaments.draw_manager).

Terms: fase (phase), ronda (round), mesa (table), partida (match), liguilla (round robin
group), pareja (an Entry), descanso (bye), vaca, juego, piedras.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch
from django.utils import translation

from clubs.roles import can_organize
from config.errors import NotFound
from config.errors import _translations as errors_catalog
from scoring import Form, RuleSet
from scoring.messages import Translations
from tournaments.draw import REASON_TEXT, Bracket, BracketMatch, Side, Slot, champion, resolve
from tournaments.draw.lengths import length_of, lengths_clean, round_length
from tournaments.draw.reasons import render_reason
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors.tournaments import tournament_not_found

User = AbstractBaseUser | AnonymousUser | None

#: the match format a phase may override; everything else comes from the tournament
PHASE_RULE_FIELDS = ("stones_per_game", "games_per_vaca", "vacas_per_match")

ELIMINATION_FORMATS = (Phase.Format.SINGLE_ELIMINATION, Phase.Format.DOUBLE_ELIMINATION)

#: reason codes written by the organizer's changes rather than by the draw (worded like the
#: draw's own, tournaments.draw.reasons: message ids of the errors catalogs)
MANUAL_REASON_TEXT = {
    "organizer_swap": "changed by the organizer: {entry} and {other} swapped matches",
}

# The related rows every match shown with its pairs needs, in one query.
MATCH_RELATED = (
    "group",
    "entry_a__pair__player_one",
    "entry_a__pair__player_two",
    "entry_a__pair__club",
    "entry_b__pair__player_one",
    "entry_b__pair__player_two",
    "entry_b__pair__club",
    # a trio's third player, shown under the trio's team name
    "entry_a__player_three",
    "entry_b__player_three",
)


#: the engine's form (who plays against whom at a table) for each entrant kind: players alone
#: are drawn into pairs each round, so their tables play the pairs form
FORM_OF_ENTRANT_KIND = {
    Tournament.EntrantKind.PAIRS: Form.PAIRS,
    Tournament.EntrantKind.INDIVIDUALS: Form.PAIRS,
    Tournament.EntrantKind.TRIOS: Form.TRIOS,
    Tournament.EntrantKind.FRANCES: Form.FRANCES,
}


def rule_form(tournament: Tournament) -> Form:
    """The form a tournament's tables play, from its entrant kind (there is no column for it:
    the entrant kind says it)."""
    return FORM_OF_ENTRANT_KIND.get(tournament.entrant_kind, Form.PAIRS)


def _form_values(tournament: Tournament) -> dict:
    """The tournament's rule columns with the form its entrant kind plays (``rule_form``; a Mus
    francés table seats the tournament's ``frances_table_size``)."""
    values = tournament.rule_values()
    form = rule_form(tournament)
    if form is not Form.PAIRS:
        values["form"] = form
        if form is Form.FRANCES:
            values["players"] = tournament.frances_table_size
    return values


def tournament_rules(tournament: Tournament) -> RuleSet:
    """The tournament's rule set in the form its entrant kind plays: what its writes check
    (a trio cannot play a 31 real the trios form does not know, say). Raises
    scoring.RuleSetError for values the engine refuses."""
    return RuleSet.from_dict(_form_values(tournament))


def phase_rules(phase: Phase) -> RuleSet:
    """The rule set a phase plays by: the tournament's, with the phase's match format where it
    sets one (a longer final), in the form its entrant kind plays (``tournament_rules``).
    Raises scoring.RuleSetError for values the engine refuses."""
    values = _form_values(phase.tournament)
    for name in PHASE_RULE_FIELDS:
        value = getattr(phase, name)
        if value is not None:
            values[name] = value
    return RuleSet.from_dict(values)


#: where a phase keeps its lengths per round (tournaments.draw.lengths' form)
ROUND_LENGTHS = "round_lengths"


def phase_is_knockout(phase: Phase) -> bool:
    """A knockout names its rounds from the final; any other phase by number."""
    return phase.format in ELIMINATION_FORMATS


def phase_round_lengths(phase: Phase) -> dict[str, dict[str, int]]:
    """The lengths the phase declares per round (``{}``: none), as stored in its settings."""
    return dict((phase.settings or {}).get(ROUND_LENGTHS) or {})


def phase_final_stage(phase: Phase) -> int | None:
    """A knockout's round of play of its final, from its drawn bracket (None: not drawn yet,
    or not a knockout)."""
    bracket = phase.bracket
    if not phase_is_knockout(phase) or not bracket or not bracket.get("finals"):
        return None
    final = bracket["finals"][0]
    for m in bracket.get("matches", []):
        if m.get("id") == final:
            return m.get("stage") or m.get("round")
    return None


def round_options(phase: Phase, number: int) -> dict[str, int]:
    """The match options round ``number`` of ``phase`` sets over the phase's (``{}``: it plays
    the phase's length). A knockout reads them by the round counted from its final; a
    knockout not drawn yet has no rounds to read them for."""
    lengths = phase_round_lengths(phase)
    if not lengths:
        return {}
    if phase_is_knockout(phase):
        final = phase_final_stage(phase)
        if final is None:
            return {}
        return round_length(lengths, round_number=number, final_stage=final)
    return round_length(lengths, round_number=number)


def round_length_values(phase: Phase, number: int) -> dict[str, int]:
    """The length round ``number`` of ``phase`` is played to (stones_per_game,
    games_per_vaca, vacas_per_match): the tournament's, the phase's, the round's."""
    return length_of(
        phase.tournament.rule_values(),
        {name: getattr(phase, name) for name in PHASE_RULE_FIELDS},
        round_options(phase, number),
    )


def round_rules(phase: Phase, number: int) -> RuleSet:
    """The rule set round ``number`` of ``phase`` plays by: ``phase_rules`` with the length the
    phase declares for that round. The one place a round's length is computed: the table's
    phone, the organizer's forms, the API, the sheets, the standings and an archive's import
    all read it here (or through selectors.results.match_rules). Raises
    scoring.RuleSetError for values the engine refuses."""
    values = _form_values(phase.tournament)
    values.update(round_length_values(phase, number))
    return RuleSet.from_dict(values)


def round_lengths_check(phase: Phase, lengths: object) -> dict[str, dict[str, int]]:
    """``lengths`` as the phase stores them (tournaments.draw.lengths.lengths_clean), each
    checked by the engine over the phase's rule set. Raises DrawError or
    scoring.RuleSetError."""
    cleaned = lengths_clean(lengths, knockout=phase_is_knockout(phase))
    values = _form_values(phase.tournament)
    values.update(
        {
            name: getattr(phase, name)
            for name in PHASE_RULE_FIELDS
            if getattr(phase, name) is not None
        }
    )
    for options in cleaned.values():
        RuleSet.from_dict({**values, **options})
    return cleaned


# --- Who may read -----------------------------------------------------------------------------


def tournament_is_public(tournament: Tournament) -> bool:
    return tournament.is_public and tournament.status != Tournament.Status.DRAFT


def tournament_readable(*, tournament: Tournament, user: User) -> bool:
    """Published tournaments are public; anything else only for the peña's organizers."""
    return tournament_is_public(tournament) or can_organize(user, tournament.club)


def phase_not_found(phase_id: int) -> NotFound:
    return NotFound(
        "There is no phase {phase}, or its tournament is not published and you do not organize "
        "its peña. Check the link, or sign in as one of its organizers.",
        code="phase_not_found",
        phase=phase_id,
    )


def round_not_found(round_id: int) -> NotFound:
    return NotFound(
        "There is no round {round}, or it is not published and you do not organize its peña. "
        "Check the link, or sign in as one of its organizers.",
        code="round_not_found",
        round=round_id,
    )


def tournament_get_readable(*, tournament_id: int, user: User) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None or not tournament_readable(tournament=tournament, user=user):
        raise tournament_not_found(tournament_id)
    return tournament


def phase_get(*, phase_id: int) -> Phase:
    """The phase with its tournament and peña (no visibility check: for services)."""
    phase = Phase.objects.select_related("tournament__club").filter(pk=phase_id).first()
    if phase is None:
        raise phase_not_found(phase_id)
    return phase


def phase_get_readable(*, phase_id: int, user: User) -> Phase:
    phase = phase_get(phase_id=phase_id)
    if not tournament_readable(tournament=phase.tournament, user=user):
        raise phase_not_found(phase_id)
    return phase


def round_get(*, round_id: int) -> Round:
    """The round with its phase, tournament and peña (no visibility check: for services)."""
    rnd = Round.objects.select_related("phase__tournament__club").filter(pk=round_id).first()
    if rnd is None:
        raise round_not_found(round_id)
    return rnd


def _round_visible(rnd: Round, organizer: bool) -> bool:
    return organizer or rnd.status != Round.Status.DRAFT


# --- Phases and rounds ------------------------------------------------------------------------


def phases_for_tournament(*, tournament: Tournament, user: User) -> list[Phase]:
    """The tournament's phases in order, each with ``visible_rounds`` (drafts only for the
    organizers); three queries whatever the number of phases and rounds."""
    organizer = can_organize(user, tournament.club)
    rounds = Round.objects.order_by("number")
    if not organizer:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    phases = list(
        Phase.objects.filter(tournament=tournament)
        .select_related("tournament__club")
        .prefetch_related(Prefetch("rounds", queryset=rounds, to_attr="visible_rounds"))
        .order_by("order")
    )
    return phases


def phase_detail(*, phase: Phase, user: User) -> Phase:
    """``phase`` with ``visible_rounds`` set (drafts only for the organizers)."""
    rounds = Round.objects.filter(phase=phase).order_by("number")
    if not can_organize(user, phase.tournament.club):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    phase.visible_rounds = list(rounds)
    return phase


def round_get_readable(*, round_id: int, user: User) -> Round:
    """The round with ``match_list``: its matches (table order, byes last) with pairs, players
    and peñas. Draft rounds only for the organizers. Two or three queries for any size."""
    rnd = round_get(round_id=round_id)
    tournament = rnd.phase.tournament
    public = tournament_is_public(tournament)
    if public and rnd.status != Round.Status.DRAFT:
        visible = True
    else:
        visible = can_organize(user, tournament.club)
    if not visible:
        raise round_not_found(round_id)
    rnd.match_list = round_matches(rnd=rnd)
    return rnd


def round_matches(*, rnd: Round) -> list[Match]:
    matches = Match.objects.filter(round=rnd).select_related(*MATCH_RELATED)
    return sorted(matches, key=lambda m: (m.table_number is None, m.table_number or 0, m.id))


# --- Presenting entries and reasons -----------------------------------------------------------


def entry_summary(entry: Entry | None) -> dict | None:
    """A pair as the API shows it (a trio with its third player); needs pair, players, club
    and player_three loaded."""
    if entry is None:
        return None
    pair = entry.pair
    players = [str(pair.player_one), str(pair.player_two)]
    if entry.player_three_id is not None:
        players.append(str(entry.player_three))
    return {
        "id": entry.id,
        "name": str(pair),
        "seed": entry.seed,
        "club": pair.club.name if pair.club_id else None,
        "players": players,
    }


def reason_text(code: str, params: dict, translations: Translations | None = None) -> str:
    """A stored reason in the language of ``translations`` (English without); its code when
    the code is unknown."""
    text = REASON_TEXT.get(code) or MANUAL_REASON_TEXT.get(code)
    if text is None:
        return code
    return render_reason(code, params, text, translations)


def reasons_out(reasons: list, language: str | None = None) -> list[dict]:
    """Stored reasons with their text in ``language`` (default: the active one, like the
    errors' messages), from the errors catalogs."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    translations = errors_catalog(translation.to_locale(language))
    out = []
    for item in reasons or []:
        code = item.get("code", "")
        params = item.get("params") or {}
        out.append(
            {"code": code, "params": params, "text": reason_text(code, params, translations)}
        )
    return out


# --- Brackets ---------------------------------------------------------------------------------


def bracket_from_json(data: dict) -> Bracket:
    """The `tournaments.draw.Bracket` stored in Phase.bracket (see draw_manager)."""

    def slot(value: dict) -> Slot:
        return Slot(
            entrant_id=value.get("entrant_id"),
            winner_of=value.get("winner_of"),
            loser_of=value.get("loser_of"),
        )

    matches = tuple(
        BracketMatch(
            id=m["id"],
            side=Side(m["side"]),
            round=m["round"],
            position=m["position"],
            a=slot(m["a"]),
            b=slot(m["b"]),
            stage=m["stage"],
            conditional=m.get("conditional", False),
        )
        for m in data["matches"]
    )
    return Bracket(
        matches=matches,
        draw_order=tuple(data["draw_order"]),
        seeded=data["seeded"],
        size=data["size"],
        finals=tuple(data["finals"]),
        labels=tuple(data.get("labels", ())),
    )


def bracket_for_phase(*, phase: Phase, user: User) -> dict:
    """The phase's bracket filled in as far as the confirmed results go.

    Every bracket match lists its two slots (an entrant, or "winner/loser of" an earlier match)
    and, once it exists, its Match row (round, table, status, winner). Entrants of matches in
    draft rounds are only shown to the organizers. Two queries (one for the permission check).
    Raises NotFound for a phase without a bracket.
    """
    if phase.format not in ELIMINATION_FORMATS or not phase.bracket:
        raise NotFound(
            "Phase {phase} has no bracket yet: draw its first round.",
            code="bracket_not_found",
            phase=phase.name,
            phase_id=phase.id,
        )
    organizer = can_organize(user, phase.tournament.club)
    bracket = bracket_from_json(phase.bracket)
    rows = Match.objects.filter(round__phase=phase).exclude(bracket_key="")
    rows = rows.select_related("round", *MATCH_RELATED)
    by_key: dict[str, Match] = {}
    for row in rows:
        if _round_visible(row.round, organizer):
            by_key[row.bracket_key] = row
    winners = {
        key: m.winner_id
        for key, m in by_key.items()
        if m.status == Match.Status.CONFIRMED and m.kind != Match.Kind.BYE and m.winner_id
    }
    filled = {m.id: m for m in resolve(bracket, winners)}
    label = dict(zip(bracket.draw_order, bracket.labels, strict=False))
    entries: dict[int, dict] = {}

    def slot_out(slot: Slot, shown: bool) -> dict:
        entry_id = slot.entrant_id if shown else None
        return {
            "entry_id": entry_id,
            "label": label.get(entry_id, "") if entry_id is not None else "",
            "winner_of": slot.winner_of,
            "loser_of": slot.loser_of,
            "bye": slot.is_bye,
        }

    matches_out = []
    for structure in bracket.matches:
        m = filled[structure.id]
        row = by_key.get(m.id)
        shown = row is not None
        if row is not None:
            for entry in (row.entry_a, row.entry_b):
                if entry is not None:
                    entries[entry.id] = entry_summary(entry)
        matches_out.append(
            {
                "id": m.id,
                "side": m.side.value,
                "round": m.round,
                "stage": m.stage,
                "position": m.position,
                "conditional": m.conditional,
                "a": slot_out(m.a if shown else structure.a, shown),
                "b": slot_out(m.b if shown else structure.b, shown),
                "match": _bracket_row(row),
            }
        )
    return {
        "phase_id": phase.id,
        "format": phase.format,
        "size": bracket.size,
        "finals": list(bracket.finals),
        "champion_id": champion(bracket, winners),
        "matches": matches_out,
        "entries": sorted(entries.values(), key=lambda e: e["id"]),
    }


def _bracket_row(row: Match | None) -> dict | None:
    if row is None:
        return None
    return {
        "id": row.id,
        "round_id": row.round_id,
        "round_number": row.round.number,
        "table_number": row.table_number,
        "status": row.status,
        "kind": row.kind,
        "winner_id": row.winner_id,
    }
