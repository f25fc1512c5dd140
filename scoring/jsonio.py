"""The engine's plain-data (JSON) form: reading hands, matches and games; writing results.

Responsible for: turning the documented JSON shapes (docs/scoring-json.md) into the engine's
values and its results back into JSON-ready dicts, with a FormatError that says which field is
wrong for anything of the wrong shape. The web layer and ``python -m scoring`` both use it.

Must not: hold a rule of Mus; every rule is in cards, betting, hand and match.

Terms: lance, mano, postre, pareja, piedras, amarracos, vaca, órdago, bando (side), fichas.
"""

from __future__ import annotations

from typing import Any

from scoring._speedup import load as load_speedup
from scoring.betting import SIDE_NAMES, Action, parse_action
from scoring.cards import DUPLES, MEDIAS, PAR, PARES_NAMES, PARES_NONE
from scoring.errors import FORM_TERMS, FormatError, ScoringError, lance_term, shown
from scoring.hand import (
    JUEGO_NONE,
    JUEGO_OTHER,
    JUEGO_REAL,
    LANCES,
    Declarations,
    HandRecord,
    HandScore,
    hand_values,
)
from scoring.lances import LancePoints, points_from_json, score_points
from scoring.match import (
    TEAMS,
    GameEntry,
    GameResult,
    HandOutcome,
    MatchState,
    amarracos,
    apply_hand,
    check_players_in,
    frances_resume,
    party_name,
    play_match,
    playing,
    record_games,
)
from scoring.messages import Term
from scoring.rules import Form, RuleSet
from scoring.table import TableScore, table_values

_cards = load_speedup()  # optional, same results (scoring/_speedup.py)
_c_bets_key = _cards.bets_key if _cards is not None else None  # one str naming a betting

POSITIONS = ("A1", "B1", "A2", "B2")
_PAIRS, _FRANCES = Form.PAIRS, Form.FRANCES
_PARES_WORDS = {
    "none": PARES_NONE,
    "no": PARES_NONE,
    "par": PAR,
    "pares": PAR,
    "medias": MEDIAS,
    "duples": DUPLES,
}
_SIDES = {"mano": 0, "postre": 1}
_EMPTY: tuple[Action, ...] = ()


def _require_dict(value: Any, what: str) -> dict:
    if not isinstance(value, dict):
        raise FormatError("{field} must be a JSON object.", code="not_object", field=what)
    return value


def _require_list(
    value: Any, what: str, length: int | None = None, each: Term | None = None
) -> list:
    if not isinstance(value, list):
        raise FormatError("{field} must be a list.", code="not_list", field=what)
    if length is not None and len(value) != length:
        raise FormatError(
            "{field} must have {length} entries, {each}; it has {count}.",
            code="wrong_length",
            field=what,
            length=length,
            each=each,
            count=len(value),
        )
    return value


_PER_PLAYER = Term("one per player in seat order from mano")
_PER_TEAM = Term("one for each team: [A, B]")


_HAND_KEYS = frozenset(("cards", "bets", "declarations", "lances", "totals"))
_BET_KEYS = frozenset(("grande", "chica", "pares", "juego", "punto"))


def hand_from_json(data: Any, rules: RuleSet, seats: int | None = None) -> HandRecord | LancePoints:
    """A HandRecord from ``{"cards": [...], "bets": {...}, "declarations": {...}}``, or a
    LancePoints (scoring.lances) from a hand written as ``lances`` or ``totals`` (two pairs).

    ``seats``: Mus francés only, the players still at the table (by default all of them)."""
    if rules.form is not _PAIRS:
        return _table_hand_from_json(data, rules, rules.players if seats is None else seats)
    if not isinstance(data, dict):
        raise FormatError("{field} must be a JSON object.", code="not_object", field="hand")
    if not _HAND_KEYS.issuperset(data):
        unknown = data.keys() - _HAND_KEYS
        raise FormatError(
            "Unknown field '{field}' in {where}; the fields are {fields}.",
            code="unknown_field",
            field=str(sorted(unknown)[0])[:40],
            where=Term("a hand"),
            fields=["cards", "bets", "declarations", "lances", "totals"],
        )
    if data.get("lances") is not None or data.get("totals") is not None:
        return _points_from_json(data, rules)
    bets_data = data.get("bets")
    bets = _bets_from_json(bets_data) if bets_data else _NO_BETS
    cards = data.get("cards")
    values = hand_values(rules, cards) if cards is not None else None
    decl_data = data.get("declarations")
    decl = declarations_from_json(decl_data) if decl_data is not None else None
    record = _new_record(HandRecord, (bets, values, decl))
    if bets_data and "punto" in bets_data:
        _check_punto_key(record)
    return record


def _points_from_json(data: dict, rules: RuleSet) -> LancePoints:
    """A hand written as an anotador writes it (scoring.lances): its lance points or totals,
    with the cards or declarations when the table gives them too; never with the bets."""
    if data.get("bets"):
        raise FormatError(
            "A hand is given by its bets or by its lance points (lances, totals), not both.",
            code="bets_and_points",
            field="bets",
        )
    cards = data.get("cards")
    values = hand_values(rules, cards) if cards is not None else None
    decl_data = data.get("declarations")
    decl = declarations_from_json(decl_data) if decl_data is not None else None
    return points_from_json(data, values, decl)


_new_record = tuple.__new__  # HandRecord's own __new__ is a Python function: one call less
_NO_BETS = HandRecord().bets
#: betting as JSON → parsed; keyed by _c_bets_key's str or, without it, a flat tuple
_BETS: dict[str | tuple, tuple[tuple[Action, ...], ...]] = {}


def _bets_from_json(bets_data: Any) -> tuple[tuple[Action, ...], ...]:
    """The four lances' actions; tables repeat the same sequences, so text is parsed once and
    the same object is handed out for the same betting."""
    key = _c_bets_key(bets_data) if _c_bets_key is not None else None
    if key is None and type(bets_data) is dict:
        values = bets_data.values()
        try:
            # the types are part of the key so that "paso" and ["p", "a", "s", "o"] differ
            key = (*bets_data, *map(type, values), *map(tuple, values))
            hash(key)
        except TypeError:  # null, a number or an action given as an object: parse it the
            key = None  # slow way, which explains what is wrong
    if key is not None:
        found = _BETS.get(key)
        if found is not None:
            return found
    found = _parse_bets(bets_data)
    if key is not None and len(_BETS) < 50_000:
        _BETS[key] = found
    return found


def _parse_bets(bets_data: Any) -> tuple[tuple[Action, ...], ...]:
    if not isinstance(bets_data, dict):
        raise FormatError("{field} must be a JSON object.", code="not_object", field="bets")
    if bets_data.keys() - _BET_KEYS:
        name = sorted(bets_data.keys() - _BET_KEYS)[0]
        raise FormatError(
            "'{field}' is not a lance; bets are given for grande, chica, pares and juego "
            "(or punto).",
            code="unknown_lance",
            field=str(name)[:40],
        )
    if "juego" in bets_data and "punto" in bets_data:
        raise FormatError(
            "Give the last lance's bets as juego or punto, not both.",
            code="juego_and_punto",
            field="bets",
        )
    bets = []
    for lance in LANCES:
        raw = bets_data.get(lance)
        if lance == "juego" and raw is None:
            raw = bets_data.get("punto")
        if raw is None:
            bets.append(_EMPTY)
            continue
        if isinstance(raw, str):
            raw = [raw]
        _require_list(raw, f"bets.{lance}")
        actions = tuple(parse_action(a, lance) for a in raw)
        bets.append(_ACTIONS.setdefault(actions, actions) if len(_ACTIONS) < 10_000 else actions)
    return tuple(bets)


#: one tuple per distinct sequence of actions in a lance (scoring.hand memoises by it)
_ACTIONS: dict[tuple[Action, ...], tuple[Action, ...]] = {}


def _check_punto_key(record: HandRecord) -> None:
    if record.cards is not None:
        anybody = any(v.has_juego for v in record.cards)
    else:
        anybody = record.declarations is not None and any(record.declarations.juego)
    if anybody:
        raise FormatError(
            "Bets were given for punto, but a player has juego: punto is played only when "
            "nobody has juego. Give them as juego.",
            code="punto_bets_with_juego",
            field="bets.punto",
        )


def declarations_from_json(data: Any, seats: int = 4, rules: RuleSet | None = None) -> Declarations:
    data = _require_dict(data, "declarations")
    pares_raw = _require_list(data.get("pares"), "declarations.pares", seats, _PER_PLAYER)
    pares = []
    for raw in pares_raw:
        key = str(raw).lower() if raw is not None else "none"
        if key not in _PARES_WORDS:
            raise FormatError(
                "Pares is declared as none, par, medias or duples, not {value}.",
                code="pares_word",
                field="declarations.pares",
                value=shown(raw),
            )
        pares.append(_PARES_WORDS[key])
    juego_raw = _require_list(
        data.get("juego", [None] * seats), "declarations.juego", seats, _PER_PLAYER
    )
    juego = [_juego_from_json(raw) for raw in juego_raw]
    punto = data.get("punto")
    if punto is not None:
        punto = tuple(_require_list(punto, "declarations.punto", seats, _PER_PLAYER))
    winners_raw = _require_dict(data.get("winners", {}), "declarations.winners")
    winners = {}
    individual = rules is not None and rules.individual
    for lance, side in winners_raw.items():
        if individual:
            winners[lance] = _seat_from_json(side, seats, f"declarations.winners.{lance}"[:60])
            continue
        if not isinstance(side, str) or side not in _SIDES:
            raise FormatError(
                "The winner of {lance} is 'mano' or 'postre', not {value}.",
                code="winner_word",
                field=f"declarations.winners.{lance}"[:60],
                lance=lance_term(str(lance)[:40]),
                value=shown(side),
            )
        winners[lance] = _SIDES[side]
    perete = _require_list(data.get("perete", []), "declarations.perete")
    perete = tuple(_SEAT_WORDS.get(s, s) if isinstance(s, str) else s for s in perete)
    takers = {}
    if data.get("takers") is not None:
        if rules is None or rules.form is not _FRANCES:
            raise FormatError(
                "Only Mus francés names who takes the chips of a bet (declarations.takers); "
                "this rule set plays {form}.",
                code="takers_not_frances",
                field="declarations.takers",
                form=FORM_TERMS[(rules.form if rules is not None else _PAIRS).value],
            )
        for lance, seat in _require_dict(data["takers"], "declarations.takers").items():
            takers[lance] = _seat_from_json(seat, seats, f"declarations.takers.{lance}"[:60])
    return Declarations(tuple(pares), tuple(juego), punto, winners, perete, takers)  # type: ignore[arg-type]


_SEAT_WORDS = {"mano": 0, "second": 1, "third": 2, "postre": 3}


def _juego_from_json(raw: Any) -> int:
    if raw is None or raw is False or raw == "none" or raw == "no":
        return JUEGO_NONE
    if raw in ("other", "otro", "si", "sí", True):
        return JUEGO_OTHER
    if raw in ("31 real", "real", "31real"):
        return JUEGO_REAL
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 3:
        return int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw  # the engine checks it is a possible juego
    raise FormatError(
        "Juego is declared as none, 31, 32 … 37, 40, 'other' or '31 real', not {value}.",
        code="juego_word",
        field="declarations.juego",
        value=shown(raw),
    )


def _table_hand_from_json(data: Any, rules: RuleSet, seats: int) -> HandRecord:
    """A hand of any form but pairs: ``seats`` players' cards and declarations."""
    if not isinstance(data, dict):
        raise FormatError("{field} must be a JSON object.", code="not_object", field="hand")
    if not _HAND_KEYS.issuperset(data):
        unknown = data.keys() - _HAND_KEYS
        raise FormatError(
            "Unknown field '{field}' in {where}; the fields are {fields}.",
            code="unknown_field",
            field=str(sorted(unknown)[0])[:40],
            where=Term("a hand"),
            fields=["cards", "bets", "declarations", "lances", "totals"],
        )
    points = data.get("lances") is not None or data.get("totals") is not None
    if points and data.get("bets"):
        raise FormatError(
            "A hand is given by its bets or by its lance points (lances, totals), not both.",
            code="bets_and_points",
            field="bets",
        )
    bets_data = data.get("bets")
    bets = _bets_from_json(bets_data) if bets_data else _NO_BETS
    cards = data.get("cards")
    values = table_values(rules, cards, seats) if cards is not None else None
    decl_data = data.get("declarations")
    decl = declarations_from_json(decl_data, seats, rules) if decl_data is not None else None
    if points:  # as a paper anotador writes it (scoring.lances)
        return points_from_json(data, values, decl, rules)  # type: ignore[return-value]
    record = HandRecord(bets, values, decl)
    if bets_data and "punto" in bets_data:
        _check_punto_key(record)
    return record


def _seat_from_json(raw: Any, seats: int, field: str) -> int:
    """A seat counted from mano: 0 … seats-1, or 'mano' / 'postre'."""
    if raw == "mano":
        return 0
    if raw == "postre":
        return seats - 1
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < seats:
        return raw
    raise FormatError(
        "{field} is a seat counted from mano: a number from 0 to {last}, 'mano' or 'postre', "
        "not {value}.",
        code="seat_word",
        field=field,
        last=seats - 1,
        value=shown(raw),
    )


def rules_from_json(data: Any) -> RuleSet:
    return RuleSet.from_dict(data)


def team_from_json(raw: Any, field: str) -> int:
    if raw in ("A", "a", 0):
        return 0
    if raw in ("B", "b", 1):
        return 1
    raise FormatError(
        "{field} is 'A' or 'B', not {value}.",
        code="team_word",
        field=field,
        value=shown(raw),
    )


def start_from_json(raw: Any) -> tuple[Any, Any]:
    """The score a match's first game starts from: ``{"A": 12, "B": 20}`` or ``[12, 20]``;
    (0, 0) when absent. scoring.match.check_start_stones checks the values."""
    if raw is None:
        return (0, 0)
    if isinstance(raw, dict):
        unknown = raw.keys() - set(TEAMS)
        if unknown:
            raise FormatError(
                "Unknown field '{field}' in {where}; the fields are {fields}.",
                code="unknown_field",
                field=str(sorted(unknown)[0])[:40],
                where=Term("the start score"),
                fields=list(TEAMS),
            )
        return raw.get("A", 0), raw.get("B", 0)
    values = _require_list(raw, "start", 2, _PER_TEAM)
    return values[0], values[1]


def games_from_json(data: Any) -> list[GameEntry]:
    games = []
    for number, raw in enumerate(_require_list(data, "games"), start=1):
        raw = _require_dict(raw, f"games[{number}]")
        stones = raw.get("stones")
        if stones is not None:
            if isinstance(stones, dict):
                stones = [stones.get("A"), stones.get("B")]
            stones = tuple(_require_list(stones, f"games[{number}].stones", 2, _PER_TEAM))
        winner = raw.get("winner")
        winner = team_from_json(winner, f"games[{number}].winner") if winner is not None else None
        games.append(GameEntry(stones, winner, bool(raw.get("ordago", False))))
    return games


# ---------------------------------------------------------------------------------------------
# Results as plain data


def hand_score_to_json(score: HandScore | TableScore) -> dict[str, Any]:
    if isinstance(score, TableScore):
        return _table_score_to_json(score)
    mano, postre = score.stones
    return {
        "lances": [
            {
                "lance": r.lance,
                "outcome": r.outcome.value,
                "winner": SIDE_NAMES[r.side] if r.side is not None else None,
                "seat": r.seat,
                "reason": r.reason,
            }
            for r in score.lances
        ],
        "events": [_event_to_json(e) for e in score.events],
        "ordago": _event_to_json(score.ordago) if score.ordago else None,
        "stones": {"mano": mano, "postre": postre},
    }


def _event_to_json(event) -> dict[str, Any]:
    return {
        "lance": event.lance,
        "pair": SIDE_NAMES[event.side],
        "stones": event.stones,
        "kind": event.kind,
    }


def _pair(values: tuple[int, int]) -> dict[str, int]:
    return {"A": values[0], "B": values[1]}


def _sides_json(rules: RuleSet, values: tuple[int, ...]) -> dict[str, int]:
    """Values per side: {"A", "B"} in pairs and trios, {"P1" …} per position otherwise."""
    return {party_name(rules, i): v for i, v in enumerate(values)}


def _table_side(score: TableScore, side: int | None) -> str | int | None:
    """A side of a hand of any form but pairs: 'mano' / 'postre' between two sides, the seat
    counted from mano when each player plays for themself."""
    if side is None or score.sides != 2:
        return side
    return SIDE_NAMES[side]


def _table_score_to_json(score: TableScore) -> dict[str, Any]:
    two = score.sides == 2
    key = "side" if two else "seat"
    result = {
        "lances": [
            {
                "lance": r.lance,
                "outcome": r.outcome.value,
                "winner": _table_side(score, r.side),
                "seat": r.seat,
                "players": list(r.players),
                "reason": r.reason,
            }
            | ({"taker": r.taker} if score.frances else {})
            for r in score.lances
        ],
        "events": [
            {"lance": e.lance, key: _table_side(score, e.side), "stones": e.stones, "kind": e.kind}
            for e in score.events
        ],
        "ordago": {
            "lance": score.ordago.lance,
            key: _table_side(score, score.ordago.side),
            "stones": 0,
            "kind": "ordago",
        }
        if score.ordago
        else None,
    }
    if score.frances:
        result["chips"] = list(score.chips)
    elif two:
        mano, postre = score.stones
        result["stones"] = {"mano": mano, "postre": postre}
    else:
        result["stones"] = list(score.stones)
    return result


def _positions(rules: RuleSet) -> tuple[str, ...]:
    """The positions around the table in speaking order from seat 0: A1, B1, A2, B2 (A3, B3)
    between two sides, P1 … P6 otherwise."""
    if rules.sides == 2:
        return tuple(f"{TEAMS[p % 2]}{p // 2 + 1}" for p in range(rules.players))
    return tuple(f"P{p + 1}" for p in range(rules.players))


def game_to_json(game: GameResult) -> dict[str, Any]:
    return {
        "stones": _pair(game.stones),
        "winner": TEAMS[game.winner],
        "ordago": game.ordago,
        "vaca": game.vaca + 1,
    }


def state_to_json(state: MatchState) -> dict[str, Any]:
    rules = state.rules
    if rules.form is _FRANCES:
        names = _positions(rules)
        return {
            "rules": rules.as_dict(),
            "chips": {names[p]: c for p, c in enumerate(state.stones)},
            "out": [names[p] for p in state.out],
            "standings": [names[p] for p in state.standings],
            "next_mano": names[state.mano],
            "hands": state.hands,
            "finished": state.finished,
            "winner": names[state.winner] if state.winner is not None else None,
        }
    if rules.form is not _PAIRS:
        return {
            "rules": rules.as_dict(),
            "stones": _sides_json(rules, state.stones),
            "games": [
                {
                    "stones": _sides_json(rules, g.stones),
                    "winner": party_name(rules, g.winner),
                    "ordago": g.ordago,
                    "vaca": g.vaca + 1,
                }
                for g in state.games
            ],
            "vaca_games": _sides_json(rules, state.vaca_games),
            "vacas": _sides_json(rules, state.vacas),
            "next_mano": _positions(rules)[state.mano],
            "hands": state.hands,
            "finished": state.finished,
            "winner": party_name(rules, state.winner) if state.winner is not None else None,
        }
    return {
        "rules": state.rules.as_dict(),
        "stones": _pair(state.stones),
        "amarracos": {t: list(amarracos(s)) for t, s in zip(TEAMS, state.stones, strict=True)},
        "games": [game_to_json(g) for g in state.games],
        "vaca_games": _pair(state.vaca_games),
        "vacas": _pair(state.vacas),
        "next_mano": POSITIONS[state.mano],
        "hands": state.hands,
        "finished": state.finished,
        "winner": TEAMS[state.winner] if state.winner is not None else None,
    }


def outcome_to_json(
    number: int, outcome: HandOutcome, rules: RuleSet | None = None
) -> dict[str, Any]:
    if rules is not None and rules.form is not _PAIRS:
        score = outcome.score
        key = "side" if score.sides == 2 else "seat"
        result = {
            "hand": number,
            "mano": _positions(rules)[outcome.mano],
            "score": hand_score_to_json(score),
            "counted": [
                {
                    "lance": e.lance,
                    key: _table_side(score, e.side),
                    "stones": e.stones,
                    "kind": e.kind,
                }
                for e in outcome.applied
            ],
        }
        if rules.form is _FRANCES:
            names = _positions(rules)
            result["chips"] = {names[p]: c for p, c in enumerate(outcome.stones)}
            result["match_ended"] = outcome.match_ended
            return result
        return result | {
            "stones": _sides_json(rules, outcome.stones),
            "game_ended": outcome.game is not None,
            "game_winner": party_name(rules, outcome.game.winner) if outcome.game else None,
            "vaca_ended": outcome.vaca_ended,
            "match_ended": outcome.match_ended,
        }
    return {
        "hand": number,
        "mano": POSITIONS[outcome.mano],
        "score": hand_score_to_json(outcome.score),
        "counted": [_event_to_json(e) for e in outcome.applied],
        "stones": _pair(outcome.stones),
        "game_ended": outcome.game is not None,
        "game_winner": TEAMS[outcome.game.winner] if outcome.game else None,
        "vaca_ended": outcome.vaca_ended,
        "match_ended": outcome.match_ended,
    }


# ---------------------------------------------------------------------------------------------


def run(request: Any) -> dict[str, Any]:
    """Answer one request: ``hand``, ``hands`` (a match) or ``games`` (quick entry)."""
    request = _require_dict(request, "request")
    kinds = [k for k in ("hand", "hands", "games") if k in request]
    if len(kinds) != 1:
        raise FormatError(
            "The request needs exactly one of 'hand' (one hand), 'hands' (a match hand by hand) "
            "or 'games' (a match as final stones per game).",
            code="request_kind",
        )
    allowed = {"rules", "first_mano", "complete", "start", kinds[0]}
    rules_raw = request.get("rules")
    if isinstance(rules_raw, dict) and rules_raw.get("form") == "frances" and kinds[0] == "hands":
        allowed.add("chips")  # a Mus francés table resumed: each position's chips
    unknown = request.keys() - allowed
    if unknown:
        raise FormatError(
            "Unknown field '{field}' in {where}; the fields are {fields}.",
            code="unknown_field",
            field=str(sorted(unknown)[0])[:40],
            where=Term("the request"),
            fields=sorted(allowed),
        )
    rules = rules_from_json(request.get("rules"))
    kind = kinds[0]
    if kind == "hand":
        from scoring.hand import score_hand

        record = hand_from_json(request["hand"], rules)
        if type(record) is LancePoints:
            return {"hand": hand_score_to_json(score_points(rules, record))}
        return {"hand": hand_score_to_json(score_hand(rules, record))}
    if kind == "hands" and rules.form is not _PAIRS:
        return _table_match(rules, request)
    if kind == "games" and rules.form is not _PAIRS:
        raise FormatError(
            "A match entered as final stones per game is for pairs; in {form} enter it hand "
            "by hand.",
            code="games_form",
            form=FORM_TERMS[rules.form.value],
        )
    if kind == "hands":
        hands_raw = _require_list(request["hands"], "hands")
        records = []
        for number, raw in enumerate(hands_raw, start=1):
            try:
                records.append(hand_from_json(raw, rules))
            except ScoringError as error:
                raise error.in_hand(number) from None
        first = request.get("first_mano", "A1")
        if first not in POSITIONS:
            raise FormatError(
                "first_mano is one of A1, B1, A2, B2, not {value}.",
                code="first_mano",
                value=shown(first),
            )
        start = start_from_json(request.get("start"))
        state, outcomes = play_match(rules, records, POSITIONS.index(first), start)
        return {
            "match": state_to_json(state),
            "hands": [outcome_to_json(n, o) for n, o in enumerate(outcomes, start=1)],
        }
    complete = request.get("complete", False)
    if not isinstance(complete, bool):
        raise FormatError("'complete' is true or false.", code="complete_format")
    state = record_games(rules, games_from_json(request["games"]), complete=complete)
    return {"match": state_to_json(state)}


def _table_match(rules: RuleSet, request: dict) -> dict[str, Any]:
    """A match of any form but pairs, hand by hand (in Mus francés each hand has the cards of
    the players still at the table)."""
    hands_raw = _require_list(request["hands"], "hands")
    names = _positions(rules)
    first = request.get("first_mano", names[0])
    if first not in names:
        raise FormatError(
            "first_mano is one of {positions}, not {value}.",
            code="first_mano_table",
            positions=list(names),
            value=shown(first),
        )
    state = MatchState.start(rules, names.index(first))
    if request.get("chips") is not None:
        chips = request["chips"]
        if isinstance(chips, dict):
            unknown = sorted(str(k) for k in chips.keys() - set(names))
            if unknown:
                raise FormatError(
                    "Unknown field '{field}' in {where}; the fields are {fields}.",
                    code="unknown_field",
                    field=unknown[0][:40],
                    where=Term("the chips"),
                    fields=list(names),
                )
            chips = [chips.get(name) for name in names]
        state = frances_resume(rules, chips, names.index(first))
    outcomes = []
    for number, raw in enumerate(hands_raw, start=1):
        try:
            seats = len(playing(state)) if not state.finished else rules.players
            cards = raw.get("cards") if isinstance(raw, dict) else None
            if rules.form is _FRANCES and isinstance(cards, list) and not state.finished:
                check_players_in(state, len(cards))
            record = hand_from_json(raw, rules, seats)
            state, outcome = apply_hand(state, record)
        except ScoringError as error:
            raise error.in_hand(number) from None
        outcomes.append(outcome_to_json(number, outcome, rules))
    return {"match": state_to_json(state), "hands": outcomes}


__all__ = ["run", "hand_from_json", "PARES_NAMES"]
