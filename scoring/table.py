"""One hand at a table of any form: pairs, trios, individual or Mus francés.

Responsible for: scoring a hand for any number of seats (2 to 6) and any way of taking sides,
with one code path: the lances in order (grande, chica, pares, juego or punto), who may speak
in each, how its betting ended (betting.resolve between two sides, betting.resolve_individual
when each player bets for themself), who takes it, and the events in counting order — dejes as
they happen, then the count; an accepted órdago ends the hand there. scoring.hand scores the
pairs form through a faster path built for four seats; tests/scoring checks that this module
gives the same answers for it.

Must not: add events to a game or to a player's chips (match.py does), or know about
tournaments.

Seats are numbered from mano (0) in speaking order; the last is postre. A *side* is who scores
together: in pairs and trios the seats alternate between side 0 (mano's) and side 1 (postre's);
in individual Mus and Mus francés each seat is its own side (side = seat).

Terms: lance, paso, envite, deje, quiero/no quiero, órdago, par/medias/duples, juego/punto,
mano, postre, fichas (Mus francés chips).

Scoring (docs/rules.md has each rule and the reading chosen where the sources are silent):
- classic scoring (pairs, trios, individual), sources 001 and 004: as scoring.hand describes;
  the bonus of pares and juego is paid for every player of the winning side who holds them
  (in individual Mus, the winner's own);
- individual: a lance is bet when two players or more may speak in it; a bet may be accepted
  by several players, and the best hand among those in the bet takes the lance; a player who
  said no quiero has given the lance up (source 001: «si una pareja no ha querido un envite …
  esa fase ya la han perdido»);
- Mus francés (source 001, «Mus francés»): the same lances and betting as individual, in chips:
  an accepted bet is paid by every player in it to the worst hand among them («se llevará las
  fichas apostadas el jugador con la peor mano»); what classic scoring gives as a stone (a lance
  en paso, a deje, a bonus) is a chip its player puts in the centre («para apuntarse la
  puntuación extra, se dejarán las fichas correspondientes en el centro»); an accepted órdago:
  the best hand gives all its chips to the worst. Getting rid of chips is the aim. Without
  cards, the declarations give the winners as in individual Mus, and the worst hand of an
  accepted bet is derived where they say it (two in the bet; pares, juego or punto by value)
  or named by the table (``Declarations.takers``).
"""

from __future__ import annotations

from typing import NamedTuple

from scoring.betting import (
    Action,
    Outcome,
    TableBetting,
    resolve,
    resolve_individual,
)
from scoring.cards import (
    DUPLES,
    MEDIAS,
    PAR,
    PARES_NONE,
    HandValue,
    hand_mask_and_ranks,
    value_table,
)
from scoring.cards import juego_rank as _juego_rank
from scoring.errors import (
    FORM_TERMS,
    CardError,
    DeclarationError,
    Phrase,
    lance_term,
    seat_term,
    shown,
    team_term,
)
from scoring.hand import (
    JUEGO_NONE,
    JUEGO_OTHER,
    JUEGO_REAL,
    JUEGO_VALUES,
    LANCES,
    OTHER_FORMS,
    Declarations,
    HandRecord,
    ScoreEvent,
    check_punto_declared,
)
from scoring.hand.seats import _JUEGO_BONUS, _PARES_TERMS, _juego_points, _juego_words
from scoring.messages import Term
from scoring.rules import Form, Real31, RuleSet

_FRANCES = Form.FRANCES

#: seat names from mano for each number of seats (the same words as scoring.hand for four)
_ORDINALS = ("mano", "second", "third", "fourth", "fifth")


def seat_name(seat: int, seats: int) -> str:
    """A seat counted from mano, as the engine names it: mano, second … postre."""
    return "postre" if seat == seats - 1 else _ORDINALS[seat]


class TableLance(NamedTuple):
    lance: str  # grande, chica, pares, juego or punto
    outcome: Outcome
    side: int | None  # who takes the lance (None: nobody has it)
    seat: int | None  # the seat with the best hand among those in it, when that decided it
    players: tuple[int, ...]  # the seats that could speak, or those in an accepted bet
    taker: int | None = None  # Mus francés: the worst hand of an accepted bet (takes the chips)
    cards: tuple[HandValue, ...] | None = None  # every seat's hand, when the cards were given
    seats: int = 0  # the players at the table
    two_sides: bool = True  # pairs and trios; otherwise each seat is its own side

    # As scoring.hand.LanceResult: the comparison behind the result is worked out only when
    # asked for, since scoring a hand needs the winner, not the explanation.
    @property
    def reason(self) -> str:
        """Why the lance went where it did, in English (``explanation`` in any language)."""
        return self.explanation.message

    @property
    def explanation(self) -> Phrase:
        """Why the lance went where it did, as a message part any language can render: the
        same phrases as the pairs' (scoring.hand.LanceResult), a side or a seat named as the
        form names it; in Mus francés, also who takes the chips of an accepted bet."""
        lance = lance_term(self.lance)
        if self.side is None:
            return Phrase("nobody has {lance}", code="reason_nobody", lance=lance)
        who = self._who(self.side)
        if self.outcome is Outcome.NO_QUERIDO:
            return Phrase(
                "{who} bet and the envite was refused (no quiero)",
                code="reason_refused_table",
                who=who,
            )
        if self.outcome is Outcome.NOT_PLAYED:
            return Phrase("only {who} has {lance}", code="reason_only_table", who=who, lance=lance)
        cards, seat = self.cards, self.seat
        if cards is None or seat is None:
            # without cards: the winner the table declared, or what the declarations say
            return self._with_taker(
                Phrase(
                    "{who} won {lance} (declared)",
                    code="reason_declared_table",
                    who=who,
                    lance=lance,
                )
            )
        key = _KEYS[self.lance]
        own = seat % 2 if self.two_sides else seat
        others = [s for s in self.players if (s % 2 if self.two_sides else s) != own]
        best = cards[seat]
        mine = best.describe(self.lance)
        if not others:
            return Phrase("only {who} has {lance}", code="reason_only_table", who=who, lance=lance)
        other = cards[max(others, key=lambda s: (cards[s].keys[key], -s))]
        theirs = other.describe(self.lance)
        if other.keys[key] == best.keys[key]:
            why = Phrase(
                "{mine} ties with {theirs}; the player nearer mano wins",
                code="reason_tie",
                mine=mine,
                theirs=theirs,
            )
        elif best.real and self.lance == "juego" and best.points == other.points:
            why = Phrase(
                "{mine} beats {theirs} (31 real, whatever the seat)",
                code="reason_real",
                mine=mine,
                theirs=theirs,
            )
        else:
            why = Phrase("{mine} beats {theirs}", code="reason_beats", mine=mine, theirs=theirs)
        return self._with_taker(why)

    def _who(self, side: int) -> Term | Phrase:
        return who_term(self.two_sides, side, self.seats)

    def _with_taker(self, why: Phrase) -> Phrase:
        """Mus francés: an accepted bet's chips go to the worst hand among those in it."""
        if self.taker is None:
            return why
        taker = self._who(self.taker)
        if self.cards is None:
            return Phrase(
                "{reason}; {taker} has the worst hand and takes the chips",
                code="reason_takes_chips",
                reason=why,
                taker=taker,
            )
        return Phrase(
            "{reason}; {taker} has the worst hand ({holds}) and takes the chips",
            code="reason_takes_chips_cards",
            reason=why,
            taker=taker,
            holds=self.cards[self.taker].describe(self.lance),
        )


_KEYS = {"grande": 0, "chica": 1, "pares": 2, "juego": 3, "punto": 4}


class TableScore(NamedTuple):
    events: tuple[ScoreEvent, ...]  # in counting order: dejes, then the count
    ordago: ScoreEvent | None  # the accepted órdago that ended the hand, if any
    lances: tuple[TableLance, ...]
    cards: tuple[HandValue, ...] | None
    sides: int  # how many sides: 2 in pairs and trios, one per seat otherwise
    frances: bool = False

    @property
    def stones(self) -> tuple[int, ...]:
        """Classic scoring: each side's stones if nothing ends the game first."""
        totals = [0] * self.sides
        for event in self.events:
            totals[event.side] += event.stones
        return tuple(totals)

    @property
    def chips(self) -> tuple[int, ...]:
        """Mus francés: each seat's change in chips, before anybody runs out (negative: got
        rid of them); an accepted órdago is not in it (it depends on the chips held)."""
        change = [0] * self.sides
        players = {lance.lance: lance.players for lance in self.lances}
        for event in self.events:
            if event.kind == "envite":
                payers = [s for s in players[event.lance] if s != event.side]
                for seat in payers:
                    change[seat] -= event.stones
                change[event.side] += event.stones * len(payers)
            else:
                change[event.side] -= event.stones
        return tuple(change)


# ---------------------------------------------------------------------------------------------


def table_values(rules: RuleSet, hands: object, seats: int | None = None) -> tuple[HandValue, ...]:
    """Parse each player's hand, in seat order from mano, and check no card is dealt twice."""
    seats = rules.players if seats is None else seats
    if not isinstance(hands, (list, tuple)) or len(hands) != seats:
        raise CardError(
            "Give the cards of the {count} players, in seat order from mano.",
            code="hands_count",
            count=seats,
            given=len(hands) if isinstance(hands, (list, tuple)) else shown(hands),
        )
    table = value_table(rules.kings, rules.real_31)
    seen = 0
    values = []
    for seat, text in enumerate(hands):
        mask, ranks = hand_mask_and_ranks(text, seat_name(seat, seats))
        if seen & mask:
            from scoring.cards import DECK, card_name  # error path only

            card = next(c for c in DECK if mask & seen & (1 << c.index))
            raise CardError(
                "The {name} ({card}) was dealt to two players; each card is in the deck once.",
                code="duplicate_card",
                name=card_name(card),
                card=card.code,
                seat=seat_term(seat_name(seat, seats)),
            )
        seen |= mask
        values.append(table[ranks])
    return tuple(values)


def side_of(rules: RuleSet, seat: int) -> int:
    return seat % 2 if rules.sides == 2 else seat


def who_term(two_sides: bool, side: int, seats: int) -> Term | Phrase:
    """Who scores, as a phrase names them inside a sentence: "the mano's side" between two
    sides, "the second" (a seat counted from mano) when each player is a side."""
    if two_sides:
        return Term("the mano's side") if side == 0 else Term("the postre's side")
    return Phrase("the {seat}", code="reason_seat", seat=seat_term(seat_name(side, seats)))


def side_term(rules: RuleSet, side: int, seats: int) -> Term:
    """A side as a message names it."""
    if rules.sides == 2:
        return Term("the mano's side") if side == 0 else Term("the postre's side")
    return seat_term(seat_name(side, seats))


def score_table(rules: RuleSet, record: HandRecord, seats: int | None = None) -> TableScore:
    """Score one hand of any form. ``seats``: the players still at the table (Mus francés,
    where players who ran out of chips leave); by default the rule set's players."""
    if not isinstance(record, tuple):
        return record.score(rules)  # a hand written as lance points (scoring.lances)
    n = rules.players if seats is None else seats
    bets, cards, decl = record
    two_sides = rules.sides == 2
    frances = rules.form is _FRANCES
    if cards is not None and len(cards) != n:
        raise CardError(
            "Give the cards of the {count} players, in seat order from mano.",
            code="hands_count",
            count=n,
            given=len(cards),
        )
    if cards is None and decl is None:
        raise DeclarationError(
            "A hand needs either the players' cards or what each player declared.",
            code="nothing_recorded_table",
        )
    if decl is not None:
        _check_declarations(rules, decl, n)
        if cards is not None:
            _check_against_cards(rules, decl, cards, n)
    if cards is not None:
        pares = tuple(v.pares for v in cards)
        juego = tuple(v.juego_bonus for v in cards)
    else:
        pares = decl.pares
        juego = tuple(_JUEGO_BONUS[_juego_points(j)] for j in decl.juego)
    anybody_juego = any(juego)
    everybody = tuple(range(n))
    lances_seen = (
        ("grande", everybody, 0, None),
        ("chica", everybody, 1, None),
        ("pares", tuple(s for s in everybody if pares[s]), 2, pares),
        ("juego", tuple(s for s in everybody if juego[s]), 3, juego)
        if anybody_juego
        else ("punto", everybody, 4, None),
    )
    side = (lambda s: s % 2) if two_sides else (lambda s: s)
    dejes: list[ScoreEvent] = []
    count: list[ScoreEvent] = []
    lances: list[TableLance] = []
    for index, (name, speakers, key, held) in enumerate(lances_seen):
        actions = bets[index]
        betting = _betting(rules, actions, name, speakers, two_sides)
        outcome = betting.outcome
        taker = best = None
        players = speakers
        if outcome is Outcome.NOT_PLAYED:
            winner = side(speakers[0]) if speakers else None
        elif outcome is Outcome.NO_QUERIDO:
            winner = betting.seat if not two_sides else betting.stones_side
        else:
            if betting.players:
                players = betting.players
            winner, best = _lance_winner(rules, cards, decl, name, key, players, side, n)
            if frances and outcome is not Outcome.PASO:
                taker = _chip_taker(rules, cards, decl, name, key, players, winner, n)
        lances.append(TableLance(name, outcome, winner, best, players, taker, cards, n, two_sides))
        if outcome is Outcome.NO_QUERIDO and rules.dejes:
            dejes.append(ScoreEvent(name, winner, betting.stones, "deje"))
        if outcome is Outcome.ORDAGO:
            _check_nothing_after_ordago(bets, index, name, anybody_juego)
            if frances and decl is not None:
                _check_takers_used(rules, decl, lances, n)
            ordago = ScoreEvent(name, winner if not frances or best is None else best, 0, "ordago")
            return TableScore(
                tuple(dejes), ordago, tuple(lances), cards, n if not two_sides else 2, frances
            )
        if winner is None:
            continue
        if outcome is Outcome.QUERIDO:
            if frances:
                count.append(ScoreEvent(name, taker, betting.stones, "envite"))
            else:
                count.append(ScoreEvent(name, winner, betting.stones, "envite"))
        if key < 2:
            if outcome is Outcome.PASO:
                count.append(ScoreEvent(name, winner, 1, "paso"))
        elif key == 4:
            count.append(ScoreEvent(name, winner, 1, "bonus"))
        else:
            bonus = sum(held[s] for s in everybody if side(s) == winner)
            if bonus:
                count.append(ScoreEvent(name, winner, bonus, "bonus"))
    if frances and decl is not None:
        _check_takers_used(rules, decl, lances, n)
    return TableScore(
        tuple(dejes) + tuple(count), None, tuple(lances), cards, 2 if two_sides else n, frances
    )


def _chip_taker(
    rules: RuleSet,
    cards: tuple[HandValue, ...] | None,
    decl: Declarations | None,
    name: str,
    key: int,
    players: tuple[int, ...],
    best: int,
    n: int,
) -> int:
    """Mus francés: the seat that takes the chips of an accepted bet, the worst hand among
    ``players`` (of equal hands, the seat farther from mano): from the cards, else from the
    declarations where they say it, else as the table named it (``declarations.takers``)."""
    declared = decl.takers.get(name) if decl is not None else None
    if declared is not None and declared not in players:
        raise DeclarationError(
            "{taker} cannot take the chips of {lance}: they were not in the bet.",
            code="taker_not_in_bet",
            taker=side_term(rules, declared, n),
            lance=lance_term(name),
        )
    if cards is not None:
        worst = min(players, key=lambda s: (cards[s].keys[key], -s))
        if declared is not None and declared != worst:
            raise DeclarationError(
                "{taker} was entered as taking the chips of {lance}, but the cards give the "
                "worst hand to {worst}.",
                code="taker_contradicts_cards",
                taker=side_term(rules, declared, n),
                lance=lance_term(name),
                worst=side_term(rules, worst, n),
            )
        return worst
    worst = _derived_worst(rules, decl, key, players, best)
    if worst is not None:
        if declared is not None and declared != worst:
            raise DeclarationError(
                "{taker} cannot take the chips of {lance}: the declarations give the worst "
                "hand to {worst}.",
                code="taker_contradicts_declarations",
                taker=side_term(rules, declared, n),
                lance=lance_term(name),
                worst=side_term(rules, worst, n),
            )
        return worst
    if declared is None:
        raise DeclarationError(
            "Who takes the chips of the bet in {lance}? Without the cards, name the worst hand "
            "among the players in it (declarations.takers).",
            code="taker_missing",
            lance=lance_term(name),
        )
    if declared == best:
        raise DeclarationError(
            "{taker} won {lance} with the best hand in the bet, so cannot also take its chips "
            "with the worst: name another player in it.",
            code="taker_is_winner",
            taker=side_term(rules, declared, n),
            lance=lance_term(name),
        )
    return declared


def _derived_worst(
    rules: RuleSet, decl: Declarations, key: int, players: tuple[int, ...], best: int
) -> int | None:
    """The worst hand among ``players`` from the declarations alone; None when they do not
    say (grande and chica; pares of the same kind; a juego declared without its number)."""
    if len(players) == 2:
        return players[0] if players[1] == best else players[1]
    if key < 2:
        return None
    if key == 2:
        low = min(decl.pares[s] for s in players)
        lowest = [s for s in players if decl.pares[s] == low]
        return lowest[0] if len(lowest) == 1 else None
    if key == 3:
        if any(decl.juego[s] == JUEGO_OTHER for s in players):
            return None
        return min(players, key=_declared_juego_key(rules, decl))
    if decl.punto is None:
        return None
    return min(players, key=lambda s: (decl.punto[s], -s))


def _declared_juego_key(rules: RuleSet, decl: Declarations):
    """A seat's juego as declared, ranked (31 real above 31 when the rules count it), ties to
    the seat nearer mano: the key for the best (max) or the worst (min) declared juego."""
    real = rules.real_31 is not Real31.OFF

    def key(s: int) -> tuple[int, int]:
        value = decl.juego[s]
        rank = _juego_rank(31, real=real) if value == JUEGO_REAL else _juego_rank(value)
        return rank, -s

    return key


def _check_takers_used(
    rules: RuleSet, decl: Declarations, lances: list[TableLance], n: int
) -> None:
    """A chip-taker is named only for a lance whose bet was accepted."""
    accepted = {lance.lance for lance in lances if lance.taker is not None}
    for name in decl.takers:
        if name not in accepted:
            raise DeclarationError(
                "Nobody takes chips in {lance}: no bet was accepted there, so leave its taker out.",
                code="taker_without_bet",
                lance=lance_term(name),
            )


class _Betting(NamedTuple):
    outcome: Outcome
    stones: int
    seat: int | None
    players: tuple[int, ...]
    stones_side: int | None  # two sides: the side that takes a refused bet


def _betting(
    rules: RuleSet, actions: tuple[Action, ...], name: str, speakers: tuple[int, ...], two: bool
) -> _Betting:
    if two:
        b = resolve(
            actions,
            lance=name,
            speakers=speakers,
            min_envite=rules.min_envite,
            team=team_term(rules.form),
        )
        return _Betting(b.outcome, b.stones, None, (), b.side)
    t: TableBetting = resolve_individual(
        actions, lance=name, speakers=speakers, min_envite=rules.min_envite
    )
    return _Betting(t.outcome, t.stones, t.seat, t.players, None)


def _lance_winner(
    rules: RuleSet,
    cards: tuple[HandValue, ...] | None,
    decl: Declarations | None,
    name: str,
    key: int,
    players: tuple[int, ...],
    side,
    n: int,
) -> tuple[int, int | None]:
    """The side that takes a lance played out (en paso or accepted) among ``players``, and the
    best seat when it is known: from the cards, else from the declarations."""
    declared = decl.winners.get(name) if decl is not None else None
    sides_in = {side(s) for s in players}
    if declared is not None and declared not in sides_in:
        raise DeclarationError(
            "{declared} cannot have won {lance}: they were not in it.",
            code="winner_not_in_lance",
            declared=side_term(rules, declared, n),
            lance=lance_term(name),
        )
    if cards is not None:
        best = max(players, key=lambda s: (cards[s].keys[key], -s))
        winner = side(best)
        if declared is not None and declared != winner:
            raise DeclarationError(
                "{declared} was entered as the winner of {lance}, but the cards give it to "
                "{winner}.",
                code="winner_contradicts_table_cards",
                declared=side_term(rules, declared, n),
                lance=lance_term(name),
                winner=side_term(rules, winner, n),
            )
        return winner, best
    best = _derived_best(rules, decl, key, players, side)
    if best is not None:
        derived = side(best) if isinstance(best, int) and best >= 0 else ~best
        if declared is not None and declared != derived:
            raise DeclarationError(
                "{declared} cannot have won {lance}: the declarations give it to {winner}.",
                code="winner_contradicts_declarations",
                declared=side_term(rules, declared, n),
                lance=lance_term(name),
                winner=side_term(rules, derived, n),
            )
        return derived, best if best >= 0 else None
    if declared is None:
        raise DeclarationError(
            "Who won {lance}? Without the cards the winner of each lance that was seen must "
            "be given.",
            code="winner_missing",
            lance=lance_term(name),
        )
    return declared, None


def _derived_best(rules: RuleSet, decl: Declarations, key: int, players, side) -> int | None:
    """The best seat among ``players`` from the declarations alone; ~side when only the side is
    known (the best pares kind is held by one side only); None when they do not say."""
    if key < 2:
        return None
    if key == 2:
        top = max(decl.pares[s] for s in players)
        sides = {side(s) for s in players if decl.pares[s] == top}
        return ~sides.pop() if len(sides) == 1 else None
    if key == 3:
        values = [decl.juego[s] for s in players]
        if any(v == JUEGO_OTHER for v in values):
            return None
        return max(players, key=_declared_juego_key(rules, decl))
    if decl.punto is None:
        return None
    return max(players, key=lambda s: (decl.punto[s], -s))


def _check_nothing_after_ordago(
    bets: tuple[tuple[Action, ...], ...], index: int, name: str, anybody_juego: bool
) -> None:
    for later in range(index + 1, 4):
        if any(a.act.value != "paso" for a in bets[later]):
            lance = LANCES[later] if later < 3 or anybody_juego else "punto"
            raise DeclarationError(
                "The órdago accepted in {ordago_lance} ended the game: nothing can be bet in "
                "{lance} after it.",
                code="bet_after_ordago",
                lance=lance_term(lance),
                ordago_lance=lance_term(name),
            )


def _check_declarations(rules: RuleSet, decl: Declarations, n: int) -> None:
    for what, values in (("pares", decl.pares), ("juego", decl.juego), ("punto", decl.punto)):
        if values is not None and len(values) != n:
            raise DeclarationError(
                "Declarations of {lance} need one entry per player: {count}, in seat order from "
                "mano.",
                code="declarations_count",
                lance=lance_term(what),
                count=n,
            )
    for seat in range(n):
        name = seat_term(seat_name(seat, n))
        if decl.pares[seat] not in (PARES_NONE, PAR, MEDIAS, DUPLES):
            raise DeclarationError(
                "The {seat}'s pares must be none, par, medias or duples.",
                code="pares_value",
                seat=name,
            )
        j = decl.juego[seat]
        if j not in JUEGO_VALUES and j not in (JUEGO_NONE, JUEGO_OTHER, JUEGO_REAL):
            raise DeclarationError(
                "The {seat} cannot have {value} in juego: juego is 31, 32, 33, 34, 35, 36, 37 "
                "or 40.",
                code="juego_value",
                seat=name,
                value=shown(j),
            )
    check_punto_declared(decl, lambda seat: seat_term(seat_name(seat, n)))
    if decl.perete:
        raise DeclarationError(
            "The tío Perete is counted only between two pairs; in {form} it scores nothing: "
            "leave it out of the declarations.",
            code="perete_form",
            form=FORM_TERMS[rules.form.value],
        )
    for lance, who in decl.takers.items():
        if (
            rules.form is not _FRANCES
            or lance not in ("grande", "chica", "pares", "juego", "punto")
            or isinstance(who, bool)
            or not isinstance(who, int)
            or not 0 <= who < n
        ):
            raise DeclarationError(
                "A chip-taker is a seat of a Mus francés table in grande, chica, pares, juego or "
                "punto (got {lance}: {seat}).",
                code="table_taker_format",
                lance=shown(lance),
                seat=shown(who),
            )
    for lance, who in decl.winners.items():
        if (
            lance not in ("grande", "chica", "pares", "juego", "punto")
            or isinstance(who, bool)
            or not isinstance(who, int)
            or not 0 <= who < rules.sides
        ):
            raise DeclarationError(
                "A lance winner is a side of the table in grande, chica, pares, juego or punto "
                "(got {lance}: {side}).",
                code="table_winner_format",
                lance=shown(lance),
                side=shown(who),
            )


def _check_against_cards(
    rules: RuleSet, decl: Declarations, cards: tuple[HandValue, ...], n: int
) -> None:
    nobody = not any(v.has_juego for v in cards)
    for seat in range(n):
        value = cards[seat]
        name = seat_term(seat_name(seat, n))
        if decl.pares[seat] != value.pares:
            raise DeclarationError(
                "The {seat} declared {declared} in pares but holds {holds}.",
                code="pares_contradicts_cards",
                seat=name,
                declared=_PARES_TERMS[decl.pares[seat]],
                holds=value.describe("pares"),
            )
        if decl.punto is not None and nobody and decl.punto[seat] != value.points:
            raise DeclarationError(
                "The {seat} declared punto {declared} but the cards add up to {points}.",
                code="punto_contradicts_cards",
                seat=name,
                declared=decl.punto[seat],
                points=value.points,
            )
        real = (JUEGO_REAL if value.real else value.points) if value.has_juego else JUEGO_NONE
        declared = decl.juego[seat]
        ok = (
            declared == real
            or (declared == JUEGO_OTHER and real not in (0, 31, JUEGO_REAL))
            or (declared == 31 and real == JUEGO_REAL)
        )
        if not ok:
            raise DeclarationError(
                "The {seat} declared {declared} but the cards add up to {points}.",
                code="juego_contradicts_cards",
                seat=name,
                declared=_juego_words(declared),
                points=value.points,
            )


OTHER_FORMS.append(score_table)
