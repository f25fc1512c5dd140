"""A hand entered as a paper anotador writes it: the points of each lance, or only the totals.

Responsible for: reading and checking a hand given lance by lance — for each lance the pair that
took it and how (``paso``, ``deje``, ``querido``, ``órdago``), the stones of the deje or of the
accepted bet, and the pares / juego / punto bonus of the pair that took it — or, in quick mode,
only each pair's total. Every typed figure must be possible under the rule set: a deje is an
amount a refused bet can leave (1 for a first envite, else the bet before the last raise, so at
least the minimum envite, a game or more too), an accepted bet at least the minimum envite (a
bet has no ceiling in the sources: docs/rules.md, «Betting»; either at most the largest bet
the engine records, scoring.betting.MAX_BET), a pares bonus a sum of
1 / 2 / 3 for each player of the pair who holds pares, a juego bonus a sum of 3 (31) and 2 (any
other juego), the punto bonus 1, totals the sum of what the hand counted (after an accepted
órdago, the dejes before it). With the cards or the declarations
given too, every figure must agree with them, and the message names the first that does not.
The result is a ``HandScore`` in counting order (dejes first, then grande, chica, pares,
juego / punto; an accepted órdago ends the hand), which match.py applies like any other hand.

Must not: hold the betting of a lance (betting.py) or the value of a hand (cards.py); add a
hand to a game (match.py does; ``check_totals_end`` is its check for totals typed alone).

Seats and sides as in hand.py: side 0 is the pareja mano, side 1 the pareja postre. The same
entry serves the other classic forms (scoring.table): in trios a side is mano's or postre's
three, so a bonus is a sum over up to three holders; in individual Mus each seat is a side and
a bonus is the player's own; an accepted bet there goes to the best hand among those in it, so
with the cards its taker must beat somebody who could have been in it. Messages name a side or
a seat as scoring.table does ("the mano's side", "the postre"). Mus francés keeps no lance
points: it counts chips, and who takes them is not a figure the anotador writes.

Terms: lance, paso, deje, querido, órdago, envite, pares (par, medias, duples), juego, punto,
anotador (who keeps the score), piedras (stones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from scoring.betting import MAX_BET, SIDE_NAMES, Outcome
from scoring.cards import HandValue
from scoring.errors import (
    CardError,
    DeclarationError,
    FormatError,
    Phrase,
    lance_term,
    shown,
    team_term,
)
from scoring.hand import (
    _PARES_TERMS,
    JUEGO_NONE,
    JUEGO_OTHER,
    PERETE_RANKS,
    Declarations,
    HandScore,
    ScoreEvent,
    _check_declarations,
    _check_perete_declared,
    _juego_points,
    declarations_from_cards,
)
from scoring.messages import Term
from scoring.rules import Form, RuleSet
from scoring.table import TableLance, TableScore, who_term
from scoring.table import _check_against_cards as _check_table_against_cards
from scoring.table import _check_declarations as _check_table_declarations

HOWS = ("paso", "deje", "querido", "ordago")
_OUTCOMES = {
    "paso": Outcome.PASO,
    "deje": Outcome.NO_QUERIDO,
    "querido": Outcome.QUERIDO,
    "ordago": Outcome.ORDAGO,
}
#: players of one pair (the pairs form: two; a trio three, a player alone one); the bonuses
#: are sums over them
PLAYERS_PER_SIDE = 2
PARES_BONUSES = (1, 2, 3)  # par, medias, duples
JUEGO_BONUSES = (2, 3)  # any other juego, 31
_ORDER = ("grande", "chica", "pares", "juego")
#: the lances a hand plays (grande, chica, pares, juego or punto): at most this many players
#: score in a hand where each player is a side (000 «Every hand consists of four rounds»)
LANCES_A_HAND = 4


@dataclass(frozen=True, slots=True)
class LancePoint:
    """One lance as the anotador writes it."""

    to: int  # the side that took it: 0 pareja mano, 1 pareja postre
    how: str  # paso, deje, querido, ordago
    stones: int | None = None  # the deje or the accepted bet; None: what ``how`` implies
    bonus: int | None = None  # pares / juego / punto bonus of ``to``; None: from the cards


@dataclass(frozen=True, slots=True)
class LancePoints:
    """A hand given by its lance points (``lances``) or by its totals alone (``totals``)."""

    lances: dict[str, LancePoint]  # grande, chica, pares, juego or punto → its point
    totals: tuple[int, int] | None = None  # pareja mano, pareja postre
    cards: tuple[HandValue, HandValue, HandValue, HandValue] | None = None
    declarations: Declarations | None = None

    def score(self, rules: RuleSet) -> HandScore:
        """The hand's events (score_points); hand.score_hand hands such a record here."""
        return score_points(rules, self)


def bonus_sums(values: tuple[int, ...], players: int = PLAYERS_PER_SIDE) -> frozenset[int]:
    """Every bonus a pair can score: a sum of one value per player who holds the lance, for
    one player up to ``players``."""
    sums = {0}
    for _ in range(players):
        sums |= {s + v for s in sums for v in values}
    return frozenset(sums - {0})


_PARES_SUMS = bonus_sums(PARES_BONUSES)
_JUEGO_SUMS = bonus_sums(JUEGO_BONUSES)


def minimum_hand(rules: RuleSet) -> int:
    """The fewest stones a hand played to its end gives both pairs together: grande and chica
    give 1 each (en paso or as a deje; an accepted bet gives more), juego at least its bonus
    of 2 and punto its 1; without dejes a refused envite in grande and chica gives nothing."""
    return 3 if rules.dejes else 1


class _Table(NamedTuple):
    """Who scores together at a table of the rule set's form."""

    pairs: bool  # the pairs form: its messages name "pareja mano" / "pareja postre"
    two: bool  # two sides (pairs, trios), seats alternating; otherwise each seat is a side
    seats: int
    sides: int
    per_side: int  # the players of one side, so the holders a bonus can be the sum of

    def side(self, seat: int) -> int:
        return seat % 2 if self.two else seat

    def who(self, side: int) -> Term | Phrase:
        return who_term(self.two, side, self.seats)


def _table(rules: RuleSet) -> _Table:
    form = rules.form
    if form is Form.PAIRS:
        return _Table(True, True, 4, 2, PLAYERS_PER_SIDE)
    if form is Form.FRANCES:
        raise DeclarationError(
            "Mus francés is counted in chips, which lance points do not say: enter the hand by "
            "its bets, with the cards or what each player declared.",
            code="lance_points_frances",
        )
    n = rules.players
    if form is Form.TRIOS:
        return _Table(False, True, n, 2, n // 2)
    return _Table(False, False, n, n, 1)


def score_points(rules: RuleSet, points: LancePoints) -> HandScore | TableScore:
    """The hand's events in counting order, after checking every figure."""
    table = _table(rules)
    _check_given(rules, points, table)
    perete = _perete_events(rules, points) if table.pairs else ()
    if not points.lances:
        return _score_totals(rules, points, perete, table)
    holds = _holdings(rules, points, table)
    dejes: list[ScoreEvent] = []
    count: list[ScoreEvent] = []
    decided = []
    names = _lance_names(points, holds)
    ordago = None
    for name in names:
        point = points.lances.get(name)
        if ordago is not None:
            if point is not None:
                raise DeclarationError(
                    "The órdago accepted in {ordago_lance} ended the game: {lance} was never "
                    "played, leave it out.",
                    code="lance_after_ordago",
                    lance=lance_term(name),
                    ordago_lance=lance_term(ordago.lance),
                )
            continue
        if point is None:
            if name in ("grande", "chica") or (name != "pares" and holds is None):
                raise DeclarationError(
                    "Give the points of {lance}: who took it and how.",
                    code="lance_missing",
                    lance=lance_term(name),
                )
            if holds is not None and _held_sides(holds, name, table):
                raise DeclarationError(
                    "{lance} is missing: the cards say it was played.",
                    code="lance_missing_held",
                    lance=lance_term(name),
                )
            continue
        stones, bonus = _check_point(rules, name, point, holds, table)
        side = point.to
        decided.append((name, _outcome(name, point, holds, table), side, None, ()))
        if point.how == "ordago":
            ordago = ScoreEvent(name, side, 0, "ordago")
            continue
        if point.how == "deje":
            if stones:
                dejes.append(ScoreEvent(name, side, stones, "deje"))
        elif point.how == "querido":
            count.append(ScoreEvent(name, side, stones, "envite"))
        elif name in ("grande", "chica"):
            count.append(ScoreEvent(name, side, stones, "paso"))
        if bonus:
            count.append(ScoreEvent(name, side, bonus, "bonus"))
    events = (*perete, *dejes) if ordago is not None else (*perete, *dejes, *count)
    if points.totals is not None:
        # what the hand counted, side by side: an accepted órdago leaves the tío Perete and
        # the dejes before it, and nothing else (003 «without considering any other bids»)
        counted = [0] * table.sides
        for event in events:
            counted[event.side] += event.stones
        for side in range(table.sides):
            if points.totals[side] != counted[side]:
                if ordago is not None:
                    _raise_not_sum_ordago(table, side, points.totals[side], counted[side], ordago)
                _raise_not_sum(table, side, points.totals[side], counted[side])
    if not table.pairs:
        return _table_score(table, events, ordago, decided, points.cards)
    return HandScore(tuple(events), ordago, tuple(decided), points.cards)


def _table_score(
    table: _Table,
    events: tuple[ScoreEvent, ...],
    ordago: ScoreEvent | None,
    decided: list | tuple,
    cards: tuple[HandValue, ...] | None,
) -> TableScore:
    """The hand as scoring.table gives a hand of trios or individual Mus: its events per side
    (or seat), and each lance's taker, written by the anotador."""
    lances = tuple(
        TableLance(name, outcome, side, None, (), None, None, table.seats, table.two)
        for name, outcome, side, _seat, _speakers in decided
    )
    return TableScore(tuple(events), ordago, lances, cards, table.sides)


def _check_given(rules: RuleSet, points: LancePoints, table: _Table) -> None:
    """The cards, declarations and totals given with the points fit the table."""
    if points.cards is not None and len(points.cards) != table.seats:
        raise CardError(
            "Give the cards of the {count} players, in seat order from mano.",
            code="hands_count",
            count=table.seats,
            given=len(points.cards),
        )
    if points.totals is not None and (
        not isinstance(points.totals, (tuple, list)) or len(points.totals) != table.sides
    ):
        raise DeclarationError(
            "Give one total for each side of the table: {count}, in order from mano.",
            code="totals_count",
            count=table.sides,
        )
    decl = points.declarations
    if decl is None:
        return
    if table.pairs:
        _check_declarations(rules, decl)
        _check_perete_declared(rules, decl)
        return
    _check_table_declarations(rules, decl, table.seats)
    if points.cards is not None:
        _check_table_against_cards(rules, decl, points.cards, table.seats)


def _raise_not_sum(table: _Table, side: int, total: int, parts: int) -> None:
    if table.pairs:
        raise DeclarationError(
            "Pareja {side} has {total} written as its total, but its lances add up to {parts}.",
            code="total_not_sum",
            side=SIDE_NAMES[side],
            total=total,
            parts=parts,
        )
    raise DeclarationError(
        "The total written for {who} is {total}, but its lances add up to {parts}.",
        code="total_not_sum_table",
        who=table.who(side),
        total=total,
        parts=parts,
    )


def _raise_not_sum_ordago(
    table: _Table, side: int, total: int, counted: int, ordago: ScoreEvent
) -> None:
    """The totals of a sheet ended by an accepted órdago: only the dejes before it (and the
    tío Perete) were counted."""
    if table.pairs:
        raise DeclarationError(
            "Pareja {side} has {total} written as its total, but the hand ended by the órdago "
            "in {lance} gives it {counted} (the dejes before the órdago; nothing else counts).",
            code="total_not_sum_ordago",
            side=SIDE_NAMES[side],
            total=total,
            counted=counted,
            lance=lance_term(ordago.lance),
        )
    raise DeclarationError(
        "The total written for {who} is {total}, but the hand ended by the órdago in {lance} "
        "gives {counted} (the dejes before the órdago; nothing else counts).",
        code="total_not_sum_ordago_table",
        who=table.who(side),
        total=total,
        counted=counted,
        lance=lance_term(ordago.lance),
    )


def check_totals_end(rules: RuleSet, points: LancePoints, before: tuple[int, ...]) -> None:
    """Totals typed alone do not say in which order they were counted: when two sides or more
    would reach the target with them, who won the game cannot be known (``before``: each
    side's stones before the hand, from the pareja mano's / the mano's)."""
    if points.lances or points.totals is None:
        return
    target = rules.stones_per_game
    reaching = sum(1 for s, total in enumerate(points.totals) if before[s] + total >= target)
    if reaching < 2:
        return
    if len(before) == 2:
        raise DeclarationError(
            "With these totals both pairs reach {target}, and only the first to get there wins: "
            "enter this hand lance by lance, so the count says who it was.",
            code="totals_both_reach_target",
            target=target,
        )
    raise DeclarationError(
        "With these totals {count} players reach {target}, and only the first to get there "
        "wins: enter this hand lance by lance, so the count says who it was.",
        code="totals_many_reach_target",
        count=reaching,
        target=target,
    )


def bets_after(points: LancePoints, lance: str) -> str | None:
    """The first lance after ``lance`` in which something was bet (a deje, a bet or an órdago),
    or None: match.py refuses it when a deje of ``lance`` (or the tío Perete, ``"perete"``,
    counted before every lance) already won the game."""
    index = -1 if lance == "perete" else _ORDER.index("juego" if lance == "punto" else lance)
    for name in (*_ORDER[index + 1 :], "punto"):
        point = points.lances.get(name)
        if point is not None and point.how != "paso":
            if name == "punto" and index >= 3:
                continue
            return name
    return None


# ---------------------------------------------------------------------------------------------


def _perete_events(rules: RuleSet, points: LancePoints) -> tuple[ScoreEvent, ...]:
    if not rules.tio_perete:
        return ()
    if points.declarations is not None:
        seats = points.declarations.perete
        if points.cards is not None:
            for seat in seats:
                if points.cards[seat].ranks != PERETE_RANKS:
                    raise DeclarationError(
                        "The {seat} was entered as showing the tío Perete (4-5-6-7), but holds "
                        "{holds}.",
                        code="perete_contradicts_cards",
                        seat=_seat(seat),
                        holds="-".join(str(r) for r in points.cards[seat].ranks),
                    )
    elif points.cards is not None:
        seats = tuple(s for s in range(4) if points.cards[s].ranks == PERETE_RANKS)
    else:
        seats = ()
    return tuple(ScoreEvent("perete", s % 2, 1, "perete") for s in sorted(seats))


def _seat(seat: int) -> Term:
    from scoring.errors import seat_term
    from scoring.hand import SEAT_NAMES

    return seat_term(SEAT_NAMES[seat])


def _score_totals(
    rules: RuleSet, points: LancePoints, perete: tuple[ScoreEvent, ...], table: _Table
) -> HandScore:
    """Quick mode: each side's total, checked for possibility."""
    if points.totals is None:
        raise DeclarationError(
            "Give the points of each lance, or at least each side's total.",
            code="points_missing",
        )
    totals = points.totals
    for value in totals:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DeclarationError(
                "A total is a whole number of stones from 0 up, not {value}.",
                code="total_value",
                value=shown(value),
            )
    if not table.two:
        # each lance goes to one player, with its deje and bonus: four lances pay four at most
        scorers = sum(1 for value in totals if value)
        if scorers > LANCES_A_HAND:
            raise DeclarationError(
                "The totals give stones to {count} players, but a hand pays {most} at the most: "
                "each lance (grande, chica, pares, juego or punto) goes to one player, with its "
                "deje and its bonus.",
                code="totals_too_many_players",
                count=scorers,
                most=LANCES_A_HAND,
            )
    least = minimum_hand(rules) + len(perete)
    if sum(totals) < least:
        if table.pairs:
            raise DeclarationError(
                "A hand gives at least {least} stones between both pairs (grande and chica 1 "
                "each, juego or punto at least 1), but the totals are {mano}-{postre}. A hand "
                "ended by an órdago is entered lance by lance.",
                code="totals_too_few",
                least=least,
                mano=totals[0],
                postre=totals[1],
            )
        raise DeclarationError(
            "A hand gives at least {least} stones to the table (grande and chica 1 each, juego "
            "or punto at least 1), but the totals add up to {given}. A hand ended by an órdago "
            "is entered lance by lance.",
            code="totals_too_few_table",
            least=least,
            given=sum(totals),
        )
    pares_sums, juego_sums = _sums(table)
    for side in range(table.sides):
        # each lance pays at most the largest bet recorded and its bonus (no source bounds a
        # bet), and the tío Perete its stones
        perete_stones = sum(e.stones for e in perete if e.side == side)
        most = LANCES_A_HAND * MAX_BET + max(pares_sums) + max(juego_sums) + perete_stones
        if totals[side] > most:
            if table.pairs:
                raise DeclarationError(
                    "Pareja {side} cannot score {value} in one hand: the most is {most} (every "
                    "lance won with the biggest bet that can be recorded, {bet}, and every "
                    "bonus).",
                    code="total_too_many",
                    side=SIDE_NAMES[side],
                    value=totals[side],
                    most=most,
                    bet=MAX_BET,
                )
            raise DeclarationError(
                "A total of {value} for {who} cannot be: the most in one hand is {most} (every "
                "lance won with the biggest bet that can be recorded, {bet}, and every bonus).",
                code="total_too_many_table",
                who=table.who(side),
                value=totals[side],
                most=most,
                bet=MAX_BET,
            )
    events = [*perete]
    for side in range(table.sides):
        rest = totals[side] - sum(e.stones for e in perete if e.side == side)
        if rest < 0:
            _raise_not_sum(table, side, totals[side], totals[side] - rest)
        if rest:
            events.append(ScoreEvent("hand", side, rest, "total"))
    if not table.pairs:
        return _table_score(table, tuple(events), None, (), points.cards)
    return HandScore(tuple(events), None, (), points.cards)


def _sums(table: _Table) -> tuple[frozenset[int], frozenset[int]]:
    """Every bonus of pares and of juego one side can score."""
    if table.per_side == PLAYERS_PER_SIDE:
        return _PARES_SUMS, _JUEGO_SUMS
    return bonus_sums(PARES_BONUSES, table.per_side), bonus_sums(JUEGO_BONUSES, table.per_side)


def _holdings(rules: RuleSet, points: LancePoints, table: _Table) -> dict[str, Any] | None:
    """What each seat holds in pares (1/2/3) and juego (its bonus), the side each lance went
    to by the cards (or as declared), and the cards; None when neither cards nor declarations
    were given."""
    cards = points.cards
    if cards is not None:
        pares = tuple(c.pares for c in cards)
        juego = tuple(c.juego_bonus for c in cards)
        if table.pairs:
            winners = declarations_from_cards(rules, cards).winners
        else:
            winners = _winners_from_cards(cards, pares, juego, table)
    elif points.declarations is not None:
        decl = points.declarations
        pares = decl.pares
        juego = tuple(
            0 if j == JUEGO_NONE else 2 if j == JUEGO_OTHER else _juego_bonus(j) for j in decl.juego
        )
        winners = decl.winners
    else:
        return None
    return {"pares": pares, "juego": juego, "winners": winners, "cards": cards}


def _winners_from_cards(
    cards: tuple[HandValue, ...], pares: tuple[int, ...], juego: tuple[int, ...], table: _Table
) -> dict[str, int]:
    """The side of the best hand among those who may speak in each lance (equal hands: the seat
    nearer mano)."""
    everybody = range(table.seats)
    found = {}
    for name, key, seats in (
        ("grande", 0, everybody),
        ("chica", 1, everybody),
        ("pares", 2, [s for s in everybody if pares[s]]),
        ("juego", 3, [s for s in everybody if juego[s]]),
        ("punto", 4, everybody if not any(juego) else ()),
    ):
        if seats:
            found[name] = table.side(max(seats, key=lambda s: (cards[s].keys[key], -s)))
    return found


def _juego_bonus(declared: int) -> int:
    return 3 if _juego_points(declared) == 31 else 2


def _lance_names(points: LancePoints, holds: dict | None) -> tuple[str, ...]:
    given = points.lances
    for name in given:
        if name not in ("grande", "chica", "pares", "juego", "punto"):
            raise FormatError(
                "'{field}' is not a lance; bets are given for grande, chica, pares and juego "
                "(or punto).",
                code="unknown_lance",
                field=str(name)[:40],
            )
    if "juego" in given and "punto" in given:
        raise FormatError(
            "Give the last lance's bets as juego or punto, not both.",
            code="juego_and_punto",
            field="lances",
        )
    if holds is not None:
        last = "juego" if any(holds["juego"]) else "punto"
        other = "punto" if last == "juego" else "juego"
        if other in given:
            raise DeclarationError(
                "{lance} was not played: {why}.",
                code="lance_not_this_hand",
                lance=lance_term(other),
                why=Phrase("somebody has juego", code="why_somebody_juego")
                if last == "juego"
                else Phrase("nobody has juego", code="why_nobody_juego"),
            )
    else:
        last = "punto" if "punto" in given else "juego"
    return ("grande", "chica", "pares", last)


def _held_sides(holds: dict, name: str, table: _Table) -> set[int]:
    if name in ("pares", "juego"):
        return {table.side(s) for s in range(table.seats) if holds[name][s]}
    return set(range(table.sides))


def _outcome(name: str, point: LancePoint, holds: dict | None, table: _Table) -> Outcome:
    held = _held_sides(holds, name, table) if holds is not None else {0, 1}
    if point.how == "paso" and name in ("pares", "juego") and len(held) < 2:
        return Outcome.NOT_PLAYED
    return _OUTCOMES[point.how]


def _check_point(
    rules: RuleSet, name: str, point: LancePoint, holds: dict | None, table: _Table
) -> tuple[int, int]:
    """The stones and the bonus of one lance, after checking both are possible (and agree with
    the cards or declarations when given)."""
    lance = lance_term(name)
    if isinstance(point.to, bool) or point.to not in range(table.sides):
        if table.two:
            raise FormatError(
                "Who took {lance} is 'mano' or 'postre', not {value}.",
                code="lance_to_word",
                field=f"lances.{name}",
                lance=lance,
                value=shown(point.to),
            )
        raise FormatError(
            "Who took {lance} is a seat counted from mano: a number from 0 to {last}, 'mano' "
            "or 'postre', not {value}.",
            code="lance_to_seat",
            field=f"lances.{name}",
            lance=lance,
            last=table.seats - 1,
            value=shown(point.to),
        )
    if point.how not in HOWS:
        raise FormatError(
            "How {lance} was taken is paso, deje, querido or ordago, not {value}.",
            code="lance_how_word",
            field=f"lances.{name}",
            lance=lance,
            value=shown(point.how),
        )
    for value in (point.stones, point.bonus):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise FormatError(
                "Stones in {lance} are whole numbers, not {value}.",
                code="lance_stones_format",
                field=f"lances.{name}",
                lance=lance,
                value=shown(value),
            )
    stones = _check_stones(rules, name, point)
    if holds is not None:
        _check_taker(name, point, holds, table)
    bonus = _check_bonus(name, point, holds, table)
    return stones, bonus


def _check_stones(rules: RuleSet, name: str, point: LancePoint) -> int:
    lance = lance_term(name)
    how, stones = point.how, point.stones
    if how == "paso":
        implied = 1 if name in ("grande", "chica") else 0
        if stones is not None and stones != implied:
            raise DeclarationError(
                "{lance} en paso gives {implied} stones, not {stones} (the bonus is written "
                "apart).",
                code="paso_stones",
                lance=lance,
                implied=implied,
                stones=stones,
            )
        return implied
    if how == "ordago":
        if stones or point.bonus:
            raise DeclarationError(
                "An órdago accepted in {lance} wins the game: it has no stones or bonus to write.",
                code="ordago_stones",
                lance=lance,
            )
        return 0
    if how == "deje":
        if not rules.dejes:
            if stones:
                raise DeclarationError(
                    "This rule set plays sin deje: a refused envite in {lance} gives no stone, "
                    "not {stones}.",
                    code="deje_sin_deje",
                    lance=lance,
                    stones=stones,
                )
            return 0
        if stones is None:
            raise DeclarationError(
                "Give the stones of the deje in {lance}.", code="deje_missing", lance=lance
            )
        if not _possible_deje(rules, stones):
            raise DeclarationError(
                "A deje of {stones} in {lance} cannot be: a refused envite leaves 1 stone (a "
                "first envite) or the bet before the last raise, at least the minimum envite of "
                "{minimum}.",
                code="deje_impossible",
                lance=lance,
                stones=stones,
                minimum=rules.min_envite,
            )
        return _recorded(name, stones)
    if stones is None:
        raise DeclarationError(
            "Give the stones of the envite accepted in {lance}.",
            code="querido_missing",
            lance=lance,
        )
    if stones < rules.min_envite:
        raise DeclarationError(
            "An envite accepted in {lance} is at least the minimum envite of {minimum}, not "
            "{stones}.",
            code="querido_impossible",
            lance=lance,
            stones=stones,
            minimum=rules.min_envite,
        )
    return _recorded(name, stones)


def _recorded(name: str, stones: int) -> int:
    """A deje or an accepted bet is a bet's (the bet before the last raise, or the bet), so at
    most the largest bet the engine records (scoring.betting.MAX_BET; no source bounds a bet)."""
    if stones > MAX_BET:
        raise DeclarationError(
            "{stones} stones in {lance} is more than can be recorded: a bet, and so a deje, is "
            "at most {most} stones (an órdago bets the whole game).",
            code="lance_stones_above_limit",
            lance=lance_term(name),
            stones=stones,
            most=MAX_BET,
        )
    return stones


def _possible_deje(rules: RuleSet, stones: int) -> bool:
    """1 (a first envite or órdago refused) or a bet said before a raise: at least the minimum
    envite, whatever its size (a bet may be of a whole game or more, 004 «Note», and the
    betting leaves what was bet before the raise: docs/rules.md, «Betting»)."""
    return stones == 1 or stones >= rules.min_envite


def _check_taker(name: str, point: LancePoint, holds: dict, table: _Table) -> None:
    """The side that took the lance, against the cards or declarations."""
    sides = _held_sides(holds, name, table)
    if not sides:
        raise DeclarationError(
            "Nobody has {lance}, so nobody can have won it; leave its winner out.",
            code="winner_nobody_has",
            lance=lance_term(name),
        )
    if len(sides) == 1:
        (side,) = sides
        if point.to != side:
            if table.pairs:
                raise DeclarationError(
                    "Pareja {declared} cannot have won {lance}: only pareja {side} has {lance}.",
                    code="winner_not_held",
                    lance=lance_term(name),
                    declared=SIDE_NAMES[point.to],
                    side=SIDE_NAMES[side],
                )
            raise DeclarationError(
                "{lance} cannot have gone to {declared}: only {who} has {lance}.",
                code="winner_not_held_table",
                lance=lance_term(name),
                declared=table.who(point.to),
                who=table.who(side),
            )
        if point.how != "paso":
            if table.pairs:
                raise DeclarationError(
                    "Nobody could bet in {lance}: only {team} {side} has {lance}, and a lance "
                    "is bet only when both sides have it.",
                    code="lance_not_played",
                    lance=lance_term(name),
                    team=team_term(Form.PAIRS),
                    side=SIDE_NAMES[side],
                )
            if not table.two:
                raise DeclarationError(
                    "Nobody could bet in {lance}: only one player has {lance}, and a lance is "
                    "bet only when two players or more have it.",
                    code="lance_one_player",
                    lance=lance_term(name),
                )
            raise DeclarationError(
                "Nobody could bet in {lance}: only {who} has {lance}, and a lance is bet only "
                "when both sides have it.",
                code="lance_not_played_side",
                lance=lance_term(name),
                who=table.who(side),
            )
        return
    if point.to not in sides:  # each player a side: the taker must hold the lance
        raise DeclarationError(
            "{lance} cannot have gone to {declared}, who has no {lance}.",
            code="taker_without_lance",
            lance=lance_term(name),
            declared=table.who(point.to),
        )
    if point.how == "deje":
        return  # the side that bet takes it, whatever its cards
    cards = holds["cards"]
    if not table.two and point.how != "paso" and cards is not None:
        # an accepted bet goes to the best hand among those in it, who need not be all: the
        # taker must beat one player at least who may have been in the bet
        _check_beats_somebody(name, point.to, holds, table)
        return
    winner = holds["winners"].get(name)
    if winner is not None and winner != point.to:
        if table.pairs:
            raise DeclarationError(
                "Pareja {side} is written as taking {lance}, but pareja {winner} won it.",
                code="taker_contradicts",
                side=SIDE_NAMES[point.to],
                lance=lance_term(name),
                winner=SIDE_NAMES[winner],
            )
        raise DeclarationError(
            "In {lance}, {who} is written as the taker, but {winner} won it.",
            code="taker_contradicts_table",
            who=table.who(point.to),
            lance=lance_term(name),
            winner=table.who(winner),
        )


def _check_beats_somebody(name: str, seat: int, holds: dict, table: _Table) -> None:
    cards = holds["cards"]
    key = _KEYS[name]
    if name in ("pares", "juego"):
        others = [s for s in range(table.seats) if s != seat and holds[name][s]]
    else:
        others = [s for s in range(table.seats) if s != seat]
    mine = (cards[seat].keys[key], -seat)
    if all((cards[s].keys[key], -s) > mine for s in others):
        raise DeclarationError(
            "In {lance}, {who} cannot have won an accepted bet: every other player who could "
            "be in it has a better hand than {holds}.",
            code="taker_beats_nobody",
            lance=lance_term(name),
            who=table.who(seat),
            holds=cards[seat].describe(name),
        )


_KEYS = {"grande": 0, "chica": 1, "pares": 2, "juego": 3, "punto": 4}


def _check_bonus(name: str, point: LancePoint, holds: dict | None, table: _Table) -> int:
    lance = lance_term(name)
    bonus = point.bonus
    if point.how == "ordago":
        return 0
    if name in ("grande", "chica"):
        if bonus:
            raise DeclarationError(
                "{lance} has no bonus; write its stones only.",
                code="bonus_in_grande_chica",
                lance=lance,
            )
        return 0
    if name == "punto":
        if bonus is not None and bonus != 1:
            raise DeclarationError(
                "The punto bonus is 1, not {bonus}.", code="punto_bonus", bonus=bonus
            )
        return 1
    pares_sums, juego_sums = _sums(table)
    sums = pares_sums if name == "pares" else juego_sums
    if holds is not None:
        seats = [s for s in range(table.seats) if table.side(s) == point.to]
        held = [holds[name][s] for s in seats]
        expected = sum(held)
        if bonus is None:
            return expected
        if bonus != expected:
            if table.pairs:
                raise DeclarationError(
                    "Pareja {side} claims {bonus} for {lance} but holds {holds}: {expected}.",
                    code="bonus_contradicts",
                    side=SIDE_NAMES[point.to],
                    bonus=bonus,
                    lance=lance,
                    holds=_holds_phrase(name, held),
                    expected=expected,
                )
            raise DeclarationError(
                "In {lance}, {who} claims a bonus of {bonus} but holds {holds}: {expected}.",
                code="bonus_contradicts_table",
                who=table.who(point.to),
                bonus=bonus,
                lance=lance,
                holds=_holds_phrase(name, held),
                expected=expected,
            )
        return expected
    if bonus is None:
        if table.pairs:
            raise DeclarationError(
                "Give the bonus pareja {side} scores in {lance}.",
                code="bonus_missing",
                side=SIDE_NAMES[point.to],
                lance=lance,
            )
        raise DeclarationError(
            "Give the bonus {who} scores in {lance}.",
            code="bonus_missing_table",
            who=table.who(point.to),
            lance=lance,
        )
    if bonus not in sums:
        values = list(PARES_BONUSES if name == "pares" else JUEGO_BONUSES)
        if table.pairs:
            raise DeclarationError(
                "A bonus of {bonus} in {lance} cannot be: it is a sum of {values} for each "
                "player of the pair who holds {lance}, so one of {possible}.",
                code="bonus_impossible",
                bonus=bonus,
                lance=lance,
                values=values,
                possible=sorted(sums),
            )
        raise DeclarationError(
            "A bonus of {bonus} in {lance} cannot be: it is a sum of {values}, one for each "
            "holder of {lance} on the side that took it (at most {players}), so one of "
            "{possible}.",
            code="bonus_impossible_table",
            bonus=bonus,
            lance=lance,
            values=values,
            players=table.per_side,
            possible=sorted(sums),
        )
    return bonus


def _holds_phrase(name: str, held: list[int]) -> Phrase | Term | str:
    terms = _PARES_TERMS if name == "pares" else _JUEGO_WORDS
    words = [terms[h] for h in sorted(held, reverse=True)]
    nothing = held.count(0)
    if nothing == len(held):
        return Phrase("nothing", code="holds_nothing")
    if len(held) == 1:
        return words[0]  # a player alone
    if nothing == len(held) - 1:
        return Phrase("{first} and nothing else", code="holds_one", first=words[0])
    if len(held) == 2:
        return Phrase("{first} and {second}", code="holds_two", first=words[0], second=words[1])
    if nothing:
        return Phrase(
            "{first} and {second}, and nothing else",
            code="holds_two_of_three",
            first=words[0],
            second=words[1],
        )
    return Phrase(
        "{first}, {second} and {third}",
        code="holds_three",
        first=words[0],
        second=words[1],
        third=words[2],
    )


_JUEGO_WORDS = {0: Term("no juego"), 2: Term("a juego other than 31"), 3: "31"}


# ---------------------------------------------------------------------------------------------
# JSON

_POINT_KEYS = frozenset(("to", "how", "stones", "bonus"))
_HOW_WORDS = {
    "paso": "paso",
    "deje": "deje",
    "no quiero": "deje",
    "no_querido": "deje",
    "querido": "querido",
    "quiero": "querido",
    "envite": "querido",
    "ordago": "ordago",
    "órdago": "ordago",
}


def points_from_json(
    data: dict,
    cards: tuple[HandValue, ...] | None,
    declarations: Declarations | None,
    rules: RuleSet | None = None,
) -> LancePoints:
    """A LancePoints from a hand's ``lances`` and ``totals`` (docs/scoring-json.md). Between
    two sides a lance's ``to`` is 'mano' or 'postre' and the totals ``{"mano", "postre"}``;
    where each player is a side, ``to`` is a seat counted from mano (a number, or 'mano' /
    'postre' for the first and last) and the totals a list in seat order."""
    two = rules is None or rules.form is Form.PAIRS or rules.form is Form.TRIOS
    seats = 0 if two else rules.players
    raw_lances = data.get("lances")
    lances: dict[str, LancePoint] = {}
    if raw_lances is not None:
        if not isinstance(raw_lances, dict):
            raise FormatError("{field} must be a JSON object.", code="not_object", field="lances")
        for name, raw in raw_lances.items():
            if raw is None:
                continue
            lances[str(name)[:40]] = _point_from_json(str(name)[:40], raw, seats)
    totals = data.get("totals")
    if totals is not None:
        totals = _totals_from_json(totals, seats)
    return LancePoints(lances, totals, cards, declarations)  # type: ignore[arg-type]


def _point_from_json(name: str, raw: Any, seats: int = 0) -> LancePoint:
    field = f"lances.{name}"
    if not isinstance(raw, dict):
        raise FormatError("{field} must be a JSON object.", code="not_object", field=field)
    unknown = raw.keys() - _POINT_KEYS
    if unknown:
        raise FormatError(
            "Unknown field '{field}' in {where}; the fields are {fields}.",
            code="unknown_field",
            field=str(sorted(unknown)[0])[:40],
            where=Term("a lance"),
            fields=sorted(_POINT_KEYS),
        )
    to = raw.get("to")
    if seats:
        seat = _seat(to, seats)
        if seat is None:
            raise FormatError(
                "Who took {lance} is a seat counted from mano: a number from 0 to {last}, "
                "'mano' or 'postre', not {value}.",
                code="lance_to_seat",
                field=field,
                lance=lance_term(name),
                last=seats - 1,
                value=shown(to),
            )
    elif to not in SIDE_NAMES:
        raise FormatError(
            "Who took {lance} is 'mano' or 'postre', not {value}.",
            code="lance_to_word",
            field=field,
            lance=lance_term(name),
            value=shown(to),
        )
    else:
        seat = SIDE_NAMES.index(to)
    how = raw.get("how", "paso")
    how = _HOW_WORDS.get(how.strip().lower(), how) if isinstance(how, str) else how
    return LancePoint(seat, how, raw.get("stones"), raw.get("bonus"))


def _seat(raw: Any, seats: int) -> int | None:
    if raw == "mano":
        return 0
    if raw == "postre":
        return seats - 1
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < seats:
        return raw
    return None


def _totals_from_json(raw: Any, seats: int = 0) -> tuple[Any, ...]:
    if seats:
        if not isinstance(raw, list) or len(raw) != seats:
            raise FormatError(
                "{field} is a list of {count} totals, one per player in seat order from mano.",
                code="totals_list",
                field="totals",
                count=seats,
            )
        return tuple(raw)
    if isinstance(raw, dict):
        unknown = raw.keys() - set(SIDE_NAMES)
        if unknown:
            raise FormatError(
                "Unknown field '{field}' in {where}; the fields are {fields}.",
                code="unknown_field",
                field=str(sorted(unknown)[0])[:40],
                where=Term("the totals"),
                fields=list(SIDE_NAMES),
            )
        return raw.get("mano", 0), raw.get("postre", 0)
    raise FormatError("{field} must be a JSON object.", code="not_object", field="totals")


__all__ = [
    "LancePoint",
    "LancePoints",
    "bets_after",
    "bonus_sums",
    "check_totals_end",
    "minimum_hand",
    "points_from_json",
    "score_points",
]
