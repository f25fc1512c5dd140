"""The betting of one lance, as a table records it.

Responsible for: reading the sequence of actions said in one lance (paso, envido, raises,
órdago, quiero, no quiero), checking that it could have happened at a table, and saying how the
lance's betting ended: en paso, querido (for how many stones), no querido (the deje and who
takes it) or an órdago accepted.

Must not: decide who has the best cards or add stones to a game (scoring.hand and match.py do).

Who speaks: seats are numbered from mano (0 mano, 1, 2 mano's partner, 3 postre). Seats 0 and 2
are the pareja mano (side 0), seats 1 and 3 the pareja postre (side 1). Pasos are said in seat
order by the players who may speak in the lance (in pares and juego only those who have them),
so the first envite's pair follows from the pasos before it; it can also be named with a prefix
("postre: envido"). After the first envite the two pairs answer each other in turn.

Text of an action (Spanish, with English words accepted):
``paso`` · ``envido`` (the minimum envite) · ``envido 5`` (an opening bet of 5) ·
``2 más`` / ``más 2`` / ``una más`` (raise by 2 or 1) · ``a 7`` (raise to 7 in all) ·
``órdago`` · ``quiero`` · ``no quiero``. An ``envido`` said after an envite is a raise by the
minimum envite ("y dos más", source 004: «Et moi: la réplique à "je mise" en misant 2 cailloux
de plus»).

Stones (sources 001, 000, 003): a first envite refused gives 1 stone (the deje); a raise refused
gives what was bet before that raise; an accepted bet is worth its total to the lance's winner.
No source bounds a bet (004 «Note»: a bet far above the game is legal); the engine records one
of up to ``MAX_BET`` stones in all (a number said in a bet has at most four digits), so every
score it stores is a plain number (docs/rules.md, «Betting»).

Other forms (scoring.table): trios bet side against side with ``resolve`` (seats alternate, so
``seat % 2`` is the side for six seats as for four); individual Mus and Mus francés, where each
player bets for themself, use ``resolve_individual``: after a bet every other player answers in
turn, and the bet is querido among those who accepted it (docs/rules.md, «Forms»). What both
share — the pasos before the first bet, the opening bet and each raise with the deje it leaves —
is one piece of code (``_opening``, ``_opening_bet``, ``_raised``, ``_answers``): the answers
are the same loop for two pairs as for each player, and only what a pair may name differs.
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from scoring.errors import TEAM_TERMS, BettingError, lance_term, shown
from scoring.messages import Term

_PAREJA = TEAM_TERMS["pairs"]

SIDE_NAMES = ("mano", "postre")

#: the most stones a bet can be in all, raises included: not a rule of Mus (no source bounds a
#: bet; 004 «Note»: a bet far above the game is legal and is played out) but what the engine
#: records, four digits like every number said in a bet; so a deje, an accepted bet, and any
#: single stone count are at most this (RuleSet.max_game_stones, scoring.lances)
MAX_BET = 9999


class Act(enum.StrEnum):
    PASO = "paso"
    ENVIDO = "envido"
    RAISE = "mas"  # by an amount
    RAISE_TO = "a"  # to a total
    ORDAGO = "ordago"
    QUIERO = "quiero"
    NO_QUIERO = "no_quiero"


class Action(NamedTuple):
    act: Act
    stones: int | None = None
    side: int | None = None  # 0 pareja mano, 1 pareja postre; None: follows from the order

    def __str__(self) -> str:
        prefix = f"{SIDE_NAMES[self.side]}: " if self.side is not None else ""
        if self.act is Act.ENVIDO:
            text = "envido" if self.stones is None else f"envido {self.stones}"
        elif self.act is Act.RAISE:
            text = f"{self.stones} más"
        elif self.act is Act.RAISE_TO:
            text = f"a {self.stones}"
        elif self.act is Act.ORDAGO:
            text = "órdago"
        elif self.act is Act.NO_QUIERO:
            text = "no quiero"
        else:
            text = self.act.value
        return prefix + text


class Outcome(enum.Enum):
    NOT_PLAYED = "not_played"  # pares or juego when only one pair (or nobody) has them
    PASO = "paso"  # everybody passed
    QUERIDO = "querido"
    NO_QUERIDO = "no_querido"
    ORDAGO = "ordago"  # an órdago accepted


class Betting(NamedTuple):
    outcome: Outcome
    stones: int = 0  # querido: the bet; no querido: the deje
    side: int | None = None  # no querido: the pair that takes the deje and the lance


_WORDS = {
    "paso": Act.PASO,
    "pass": Act.PASO,
    "envido": Act.ENVIDO,
    "envite": Act.ENVIDO,
    "bet": Act.ENVIDO,
    "órdago": Act.ORDAGO,
    "ordago": Act.ORDAGO,
    "quiero": Act.QUIERO,
    "accept": Act.QUIERO,
    "no quiero": Act.NO_QUIERO,
    "noquiero": Act.NO_QUIERO,
    "no_quiero": Act.NO_QUIERO,
    "reject": Act.NO_QUIERO,
    "una más": Act.RAISE,
    "una mas": Act.RAISE,
}
_NUMBER_WORDS = {
    "una": 1,
    "un": 1,
    "uno": 1,
    "dos": 2,
    "tres": 3,
    "cuatro": 4,
    "cinco": 5,
    "seis": 6,
    "siete": 7,
    "ocho": 8,
    "nueve": 9,
    "diez": 10,
}
_N = r"(\d{1,4}|" + "|".join(_NUMBER_WORDS) + r")"  # no bet has 5 digits (MAX_BET)
_PATTERNS = (
    (re.compile(rf"^(?:envido|envite|bet)\s+{_N}$"), Act.ENVIDO),
    (re.compile(rf"^{_N}\s+m[aá]s$"), Act.RAISE),
    (re.compile(rf"^(?:m[aá]s|raise|\+)\s*{_N}$"), Act.RAISE),
    (re.compile(rf"^(?:a|sube a|to)\s+{_N}$"), Act.RAISE_TO),
)
_SIDE_WORDS = {"mano": 0, "postre": 1}


_PARSE_CACHE: dict[str, Action] = {}


def parse_action(raw: object, lance: str = "") -> Action:
    """One action from its text (``"2 más"``) or an object ``{"act": "mas", "stones": 2}``."""
    if isinstance(raw, Action):
        return raw
    if isinstance(raw, str):
        cached = _PARSE_CACHE.get(raw)
        if cached is None:
            cached = _parse_text(raw, lance)
            if len(_PARSE_CACHE) < 10_000:
                _PARSE_CACHE[raw] = cached
        return cached
    if isinstance(raw, dict):
        return _parse_object(raw, lance)
    raise BettingError(
        "In {lance}, {value} is not a bet: write paso, envido, '2 más', órdago, quiero or no "
        "quiero.",
        code="action_format",
        lance=lance_term(lance),
        value=shown(raw),
    )


def _parse_text(raw: str, lance: str) -> Action:
    text = " ".join(raw.strip().lower().split())
    side = None
    if ":" in text:
        who, _, text = text.partition(":")
        who, text = who.strip(), text.strip()
        if who not in _SIDE_WORDS:
            raise BettingError(
                "In {lance}, '{action}' names '{pair}', which is not a side: a side is 'mano' or "
                "'postre'.",
                code="unknown_pair",
                lance=lance_term(lance),
                action=raw[:40],
                pair=who[:40],
            )
        side = _SIDE_WORDS[who]
    act = _WORDS.get(text)
    if act is not None:
        return Action(act, 1 if text.startswith("una") else None, side)
    for pattern, act in _PATTERNS:
        match = pattern.match(text)
        if match:
            n = match.group(1)
            stones = int(n) if n.isdigit() else _NUMBER_WORDS[n]
            return Action(act, stones, side)
    raise BettingError(
        "In {lance}, '{action}' is not a bet: write paso, envido, 'envido 4', '2 más', 'a 6', "
        "órdago, quiero or no quiero.",
        code="unknown_action",
        lance=lance_term(lance),
        action=raw[:40],
    )


def _parse_object(raw: dict, lance: str) -> Action:
    name = str(raw.get("act", "")).lower().replace("á", "a").replace(" ", "_")
    try:
        act = Act(name)
    except ValueError:
        raise BettingError(
            "In {lance}, act {act} is not one of paso, envido, mas, a, ordago, quiero, no_quiero.",
            code="unknown_act",
            lance=lance_term(lance),
            act=shown(raw.get("act")),
        ) from None
    stones = raw.get("stones")
    if stones is not None and (
        isinstance(stones, bool) or not isinstance(stones, int) or not 0 <= stones <= MAX_BET
    ):
        raise BettingError(
            "In {lance}, stones must be a whole number up to 9999, not {stones}.",
            code="stones_format",
            lance=lance_term(lance),
            stones=shown(stones),
        )
    side = raw.get("pair")
    if side is not None:
        if not isinstance(side, str) or side not in _SIDE_WORDS:
            raise BettingError(
                "In {lance}, '{action}' names '{pair}', which is not a side: a side is 'mano' or "
                "'postre'.",
                code="unknown_pair",
                lance=lance_term(lance),
                action=str(raw.get("act", ""))[:40],
                pair=str(side)[:40],
            )
        side = _SIDE_WORDS[side]
    return Action(act, stones, side)


RESOLVED: dict[tuple, Betting] = {}


def resolve(
    actions: tuple[Action, ...],
    *,
    lance: str,
    speakers: tuple[int, ...],
    min_envite: int,
    team: Term = _PAREJA,
) -> Betting:
    """How the betting of a lance ended; ``speakers`` are the seats that may speak, in order.
    ``team``: the word the errors name a side with (scoring.errors.team_term: pareja, trío).

    Pure, and tables repeat the same few sequences, so answers are memoised (errors are not).
    """
    key = (actions, speakers, min_envite)  # the answer depends on neither the lance nor team
    found = RESOLVED.get(key)
    if found is None:
        found = _resolve(actions, lance, speakers, min_envite, team)
        if len(RESOLVED) < 50_000:
            RESOLVED[key] = found
    return found


def _resolve(
    actions: tuple[Action, ...],
    lance: str,
    speakers: tuple[int, ...],
    min_envite: int,
    team: Term,
) -> Betting:
    sides = {s % 2 for s in speakers}
    if len(sides) < 2:
        if any(a.act is not Act.PASO for a in actions):
            raise _not_played(lance, speakers, team)
        return Betting(Outcome.NOT_PLAYED)

    pasos = _opening(actions, lance, speakers)
    if pasos is None:
        return Betting(Outcome.PASO)
    first = actions[pasos]
    side = speakers[pasos] % 2
    if first.side is not None and first.side != side:
        # the pasos recorded before it are the first speakers; pasos not recorded are implied,
        # but the named pair must still have a player who had not spoken yet
        if all(s % 2 != first.side for s in speakers[pasos:]):
            raise BettingError(
                "In {lance}, {team} {pair} cannot open the betting with '{action}': its players "
                "had already passed ({pasos} pasos recorded before it).",
                code="bet_after_own_pasos",
                lance=lance_term(lance),
                team=team,
                pair=SIDE_NAMES[first.side],
                action=str(first),
                pasos=pasos,
            )
        side = first.side

    ordago, bet, deje = _opening_bet(first, lance, min_envite)
    bettor, accepted, ordago, bet, deje = _answers(
        actions, lance, pasos, side, 2, ordago, bet, deje, min_envite, team=team
    )
    if not accepted:
        return Betting(Outcome.NO_QUERIDO, deje, bettor)
    if ordago:
        return Betting(Outcome.ORDAGO)
    return Betting(Outcome.QUERIDO, bet)


def _not_played(lance: str, speakers: tuple[int, ...], team: Term) -> BettingError:
    if not speakers:
        return BettingError(
            "Nobody could bet in {lance}: no player has {lance}.",
            code="lance_nobody_has",
            lance=lance_term(lance),
        )
    return BettingError(
        "Nobody could bet in {lance}: only {team} {side} has {lance}, and a lance is bet only "
        "when both sides have it.",
        code="lance_not_played",
        lance=lance_term(lance),
        team=team,
        side=SIDE_NAMES[speakers[0] % 2],
    )


# ---------------------------------------------------------------------------------------------
# Each player for themself (individual Mus and Mus francés)


class TableBetting(NamedTuple):
    """How the betting of a lance ended when each player bets for themself."""

    outcome: Outcome
    stones: int = 0  # querido: the bet; no querido: the deje
    seat: int | None = None  # no querido: the player who bet and takes the deje and the lance
    players: tuple[int, ...] = ()  # querido or órdago: the seats in the bet, in seat order


RESOLVED_INDIVIDUAL: dict[tuple, TableBetting] = {}


def resolve_individual(
    actions: tuple[Action, ...],
    *,
    lance: str,
    speakers: tuple[int, ...],
    min_envite: int,
) -> TableBetting:
    """The betting of a lance where each player bets for themself; ``speakers`` are the seats
    that may speak, in order from mano.

    Pasos are said in seat order until somebody bets. Then every other player who may speak
    answers in turn, starting after the one who bet (those who passed before too): quiero (in
    the bet), no quiero (out of it) or a raise. A raise makes its player the one who bet, and
    every other player still in answers it again, those who had accepted the smaller bet
    included. The betting ends when all have answered the last bet: accepted by at least one
    player, it is querido among the bettor and those who accepted; refused by all, the bettor
    takes the deje (1 for a first envite, otherwise the bet before the last raise).
    """
    key = (actions, speakers, min_envite)
    found = RESOLVED_INDIVIDUAL.get(key)
    if found is None:
        found = _resolve_individual(actions, lance, speakers, min_envite)
        if len(RESOLVED_INDIVIDUAL) < 50_000:
            RESOLVED_INDIVIDUAL[key] = found
    return found


def _resolve_individual(
    actions: tuple[Action, ...], lance: str, speakers: tuple[int, ...], min_envite: int
) -> TableBetting:
    for action in actions:
        if action.side is not None:
            raise BettingError(
                "In {lance}, '{action}' names a pair, but here each player bets for themself: "
                "write the actions in the order the players speak, from mano.",
                code="pair_in_individual",
                lance=lance_term(lance),
                action=str(action),
            )
    if len(speakers) < 2:
        if any(a.act is not Act.PASO for a in actions):
            if not speakers:
                raise BettingError(
                    "Nobody could bet in {lance}: no player has {lance}.",
                    code="lance_nobody_has",
                    lance=lance_term(lance),
                )
            raise BettingError(
                "Nobody could bet in {lance}: only one player has {lance}, and a lance is bet "
                "only when two players or more have it.",
                code="lance_one_player",
                lance=lance_term(lance),
            )
        return TableBetting(Outcome.NOT_PLAYED)
    pasos = _opening(actions, lance, speakers)
    if pasos is None:
        return TableBetting(Outcome.PASO)
    first = actions[pasos]
    ordago, bet, deje = _opening_bet(first, lance, min_envite)
    # the players answer by their place among those who may speak
    bettor, accepted, ordago, bet, deje = _answers(
        actions, lance, pasos, pasos, len(speakers), ordago, bet, deje, min_envite
    )
    if not accepted:
        return TableBetting(Outcome.NO_QUERIDO, deje, speakers[bettor])
    players = tuple(speakers[i] for i in sorted([bettor, *accepted]))
    if ordago:
        return TableBetting(Outcome.ORDAGO, 0, None, players)
    return TableBetting(Outcome.QUERIDO, bet, None, players)


# ---------------------------------------------------------------------------------------------
# What every form shares: the pasos before the first bet, the opening bet, and each raise.


def _opening(actions: tuple[Action, ...], lance: str, speakers: tuple[int, ...]) -> int | None:
    """How many pasos were said before the first bet; None when the lance went en paso. The
    first action after the pasos must open the betting, and somebody must be left to say it."""
    pasos = 0
    while pasos < len(actions) and actions[pasos].act is Act.PASO:
        pasos += 1
    if pasos == len(actions):
        if pasos > len(speakers):
            raise BettingError(
                "In {lance}, {pasos} pasos were recorded but only {speakers} players could speak.",
                code="too_many_pasos",
                lance=lance_term(lance),
                pasos=pasos,
                speakers=len(speakers),
            )
        return None
    first = actions[pasos]
    if first.act not in (Act.ENVIDO, Act.ORDAGO):
        raise BettingError(
            "In {lance}, '{action}' comes before anybody bet: the betting opens with envido "
            "(or envido N) or órdago.",
            code="answer_without_bet",
            lance=lance_term(lance),
            action=str(first),
        )
    if pasos >= len(speakers):
        raise BettingError(
            "In {lance}, all {speakers} players had passed, so nobody was left to say '{action}'.",
            code="bet_after_all_passed",
            lance=lance_term(lance),
            speakers=len(speakers),
            action=str(first),
        )
    return pasos


def _opening_bet(first: Action, lance: str, min_envite: int) -> tuple[bool, int, int]:
    """(órdago, bet, deje) after the opening bet: a first envite refused leaves 1 stone."""
    if first.act is Act.ORDAGO:
        return True, 0, 1
    bet = min_envite if first.stones is None else first.stones
    if bet < min_envite:
        raise BettingError(
            "In {lance}, an envite of {stones} is below the minimum envite of {minimum}.",
            code="envite_below_minimum",
            lance=lance_term(lance),
            stones=bet,
            minimum=min_envite,
        )
    return False, _recorded(bet, lance), 1


def _recorded(bet: int, lance: str) -> int:
    """A bet the engine records: at most MAX_BET stones in all."""
    if bet > MAX_BET:
        raise BettingError(
            "In {lance}, a bet of {stones} stones is more than can be recorded: a bet is at most "
            "{most} stones in all (an órdago bets the whole game).",
            code="bet_above_limit",
            lance=lance_term(lance),
            stones=bet,
            most=MAX_BET,
        )
    return bet


def _raised(
    action: Action, lance: str, ordago: bool, bet: int, deje: int, min_envite: int
) -> tuple[bool, int, int]:
    """(órdago, bet, deje) after a raise (an órdago, ``a N`` or ``N más``, or an envido said
    as an answer): refused, a raise leaves the bet before it."""
    if ordago:
        raise BettingError(
            "In {lance}, an órdago can only be answered with quiero or no quiero, not '{action}'.",
            code="raise_over_ordago",
            lance=lance_term(lance),
            action=str(action),
        )
    act = action.act
    if act is Act.ORDAGO:
        return True, bet, bet
    if act is Act.RAISE_TO:
        if action.stones is None or action.stones <= bet:
            raise BettingError(
                "In {lance}, a raise to {stones} is not higher than the bet of {bet}.",
                code="raise_not_higher",
                lance=lance_term(lance),
                stones=action.stones,
                bet=bet,
            )
        return False, _recorded(action.stones, lance), bet
    by = action.stones if action.stones is not None else min_envite  # RAISE, or ENVIDO
    if by < 1:
        raise BettingError(
            "In {lance}, a raise must be of at least one stone ('una más'), not {stones}.",
            code="raise_too_small",
            lance=lance_term(lance),
            stones=by,
        )
    return False, _recorded(bet + by, lance), bet


def _answers(
    actions: tuple[Action, ...],
    lance: str,
    pasos: int,
    bettor: int,
    order: int,
    ordago: bool,
    bet: int,
    deje: int,
    min_envite: int,
    *,
    team: Term | None = None,
) -> tuple[int, list[int], bool, int, int]:
    """The answers after the opening bet, in every form: each other party answers in turn
    (``order`` parties: the two sides, or each player who may speak, by place; ``bettor`` is
    one of them; ``team``, the word for a side, is given between two sides), quiero puts it in
    the
    bet, no quiero takes it out, a raise makes it the one who bet and every other party still
    in answers again. Returns the last bettor, those who accepted its bet (none: refused by
    all), and the órdago, bet and deje as they stand."""
    out: set[int] = set()
    accepted: list[int] = []
    pending = [(bettor + k) % order for k in range(1, order)]
    for position in range(pasos + 1, len(actions)):
        action = actions[position]
        if not pending:
            raise BettingError(
                "In {lance}, the betting ended with '{action}'; nothing can be said after "
                "it ('{after}').",
                code="action_after_end",
                lance=lance_term(lance),
                action=str(actions[position - 1]),
                after=str(action),
            )
        answering = pending.pop(0)
        if team is not None and action.side is not None and action.side != answering:
            raise BettingError(
                "In {lance}, '{action}' is out of turn: after {team} {bettor} bet, {team} "
                "{answering} answers.",
                code="out_of_turn",
                lance=lance_term(lance),
                action=str(action),
                team=team,
                bettor=SIDE_NAMES[bettor],
                answering=SIDE_NAMES[answering],
            )
        act = action.act
        if act is Act.QUIERO:
            accepted.append(answering)
            continue
        if act is Act.NO_QUIERO:
            out.add(answering)
            continue
        if act is Act.PASO and not ordago:
            if team is not None:
                raise BettingError(
                    "In {lance}, 'paso' is not an answer to an envite: the other side says "
                    "quiero, no quiero, a raise or órdago.",
                    code="paso_after_bet",
                    lance=lance_term(lance),
                )
            raise BettingError(
                "In {lance}, 'paso' is not an answer to an envite: the player says quiero, "
                "no quiero, a raise or órdago.",
                code="paso_after_bet_individual",
                lance=lance_term(lance),
            )
        ordago, bet, deje = _raised(action, lance, ordago, bet, deje, min_envite)
        bettor, accepted = answering, []
        pending = [(bettor + k) % order for k in range(1, order) if (bettor + k) % order not in out]
    if pending and team is not None:
        raise BettingError(
            "In {lance}, the last bet ('{action}') was never answered: add quiero or no quiero.",
            code="unanswered_bet",
            lance=lance_term(lance),
            action=str(actions[-1]),
        )
    if pending:
        raise BettingError(
            (
                "In {lance}, {count} player has not answered the last bet: add their quiero or "
                "no quiero.",
                "In {lance}, {count} players have not answered the last bet: add each one's "
                "quiero or no quiero.",
            ),
            code="bet_not_answered_by_all",
            lance=lance_term(lance),
            count=len(pending),
        )
    return bettor, accepted, ordago, bet, deje
