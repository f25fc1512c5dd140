"""A sheet of lance points scored: the hand's events in counting order, and its totals.

Responsible for: ``LancePoints`` (a hand given by its lance points, or in quick mode by each
side's total alone) and ``score_points``: the cards, declarations and totals given with it
must fit the table; each lance's point is checked (checks.py) and becomes its events in
counting order — the tío Perete first where the rule set plays it (shown before any lance; a
seat declared as showing it must hold 4-5-6-7 when the cards are given too), then the dejes as
they happen, then at the count grande, chica, pares, juego / punto; an accepted órdago ends
the hand (the dejes before it stand, nothing else counts). Totals given with the lances must
be the sum of what the hand counted; totals typed alone must be possible (at least
``minimum_hand``, at most every lance won with the largest bet recorded and every bonus, and
where each player is a side at most four players scoring). The result is a ``HandScore`` (a
``TableScore`` for trios and individual Mus), which match.py applies like any other hand; and
what match.py asks of a sheet: ``bets_after`` (a bet after a deje that already won the game)
and ``check_totals_end`` (totals that cannot say who reached the target first).

Must not: check one lance's figures (checks.py) or read JSON (jsonform.py); hold the betting
of a lance (betting.py) or the value of a hand (cards.py); add a hand to a game (match.py).

Terms: lance, paso, deje, querido, órdago, envite, pares, juego, punto, tío Perete,
anotador (who keeps the score), piedras (stones).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.betting import MAX_BET, SIDE_NAMES
from scoring.cards import HandValue
from scoring.errors import CardError, DeclarationError, lance_term, shown
from scoring.hand import PERETE_RANKS, Declarations, HandScore, ScoreEvent
from scoring.hand.declared import (
    _check_declarations,
    _check_perete_declared,
    _check_perete_held,
)
from scoring.lances.checks import _check_point, _held_sides, _holdings, _lance_names, _outcome
from scoring.lances.points import (
    _ORDER,
    LANCES_A_HAND,
    LancePoint,
    _sums,
    _Table,
    _table,
    minimum_hand,
)
from scoring.rules import RuleSet
from scoring.table import TableLance, TableScore
from scoring.table import _check_against_cards as _check_table_against_cards
from scoring.table import _check_declarations as _check_table_declarations


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


def score_points(rules: RuleSet, points: LancePoints) -> HandScore | TableScore:
    """The hand's events in counting order, after checking every figure."""
    table = _table(rules)
    _check_given(rules, points, table)
    perete = _perete_events(rules, points) if table.pairs else ()
    if not points.lances:
        return _score_totals(rules, points, perete, table)
    holds = _holdings(rules, points.cards, points.declarations, table)
    dejes: list[ScoreEvent] = []
    count: list[ScoreEvent] = []
    decided = []
    names = _lance_names(points.lances, holds)
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


def _perete_events(rules: RuleSet, points: LancePoints) -> tuple[ScoreEvent, ...]:
    if not rules.tio_perete:
        return ()
    if points.declarations is not None:
        seats = points.declarations.perete
        if points.cards is not None:
            _check_perete_held(seats, points.cards)
    elif points.cards is not None:
        seats = tuple(s for s in range(4) if points.cards[s].ranks == PERETE_RANKS)
    else:
        seats = ()
    return tuple(ScoreEvent("perete", s % 2, 1, "perete") for s in sorted(seats))


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
