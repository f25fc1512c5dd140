"""Games, vacas and the match: hands applied in order, and games entered as final stones.

Responsible for: the running state of a match at a table — stones of each pair in the current
game, games won in the current vaca, vacas won, who is mano — and applying a scored hand to it:
its events are added in counting order and the first pair to reach the target wins the game
there and then (source 001: «si ambos lo consiguen el que lo haya hecho antes»; 004: the deje is
counted first), even if the other pair would pass it later in the same count. An accepted órdago
ends the game for the lance's winner. A decided game starts the next from 0-0; a decided vaca
and match end there, and anything entered after is refused. Also validates a match entered only
as the final stones (or the winner) of each game.

Must not: know about tournaments, tables, users or time.

Teams and seats: the two pairs of a match are A and B. Around the table the players sit A1, B1,
A2, B2 (positions 0-3) in speaking order; mano passes to the right (the next position) after
each hand. The first game's mano is given; each new game starts one position further on than the
previous game started (source 000: «the dealer will be the last game's first player»).

Other forms (RuleSet.form): the same state for any number of seats and sides — trios are
two teams at six positions (A1, B1, A2, B2, A3, B3), individual Mus one side per position (P1 …
P6), each with its stones, games and vacas. Mus francés has no games: ``stones`` holds each
position's chips, the players who run out leave in order (``out``), and the table plays on until
one is left; ``standings`` is the order of running out (source 001 «Mus francés»).

Terms: piedras (stones), amarracos (5 stones), juego/partida (a game), vaca, mano, postre,
órdago, deje, fichas (Mus francés chips).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.betting import MAX_BET, Act
from scoring.errors import (
    FORM_TERMS,
    EntryAfterEnd,
    GameEntryError,
    ScoringError,
    both_teams_term,
    lance_term,
    shown,
    team_term,
)
from scoring.hand import LANCES, HandRecord, HandScore, ScoreEvent, score_hand
from scoring.lances import LancePoints, bets_after, check_totals_end, score_points
from scoring.rules import Form, RuleSet
from scoring.table import TableScore, score_table

_PAIRS, _FRANCES = Form.PAIRS, Form.FRANCES
TEAMS = ("A", "B")


def party_name(rules: RuleSet, index: int) -> str:
    """Who scores together, as the results name them: pareja A or B in pairs and trios, the
    player at position P1 … P6 (counted around the table from the first mano's seat 0)
    otherwise."""
    return TEAMS[index] if rules.sides == 2 else f"P{index + 1}"


def amarracos(stones: int) -> tuple[int, int]:
    """Stones as the table counts them with beans: (amarracos of 5, loose piedras)."""
    return divmod(stones, 5)


@dataclass(frozen=True, slots=True)
class GameResult:
    stones: tuple[int, int]  # A, B when the game ended
    winner: int  # 0 A, 1 B
    ordago: bool = False  # won by an accepted órdago
    vaca: int = 0  # which vaca (0-based) it belongs to


@dataclass(frozen=True, slots=True)
class MatchState:
    rules: RuleSet
    first_mano: int = 0  # position (0 A1, 1 B1, 2 A2, 3 B2) that was mano in the first hand
    stones: tuple[int, int] = (0, 0)  # current game
    games: tuple[GameResult, ...] = ()  # finished games, all vacas
    vaca_games: tuple[int, int] = (0, 0)  # games won in the current vaca
    vacas: tuple[int, int] = (0, 0)
    mano: int = 0  # position that is mano in the next hand
    game_first_mano: int = 0  # position that was mano in the current game's first hand
    hands: int = 0
    winner: int | None = None  # the match's winner once decided
    #: Mus francés: the positions in the order they ran out of chips (``stones`` holds each
    #: position's chips there, and there are no games or vacas)
    out: tuple[int, ...] = ()

    @classmethod
    def start(
        cls, rules: RuleSet, first_mano: int = 0, stones: tuple[int, int] = (0, 0)
    ) -> MatchState:
        """A match's state before its first hand; ``stones``: the score the current game
        starts from, as written on paper (a table that switches to the phone mid-game)."""
        if rules.form is not _PAIRS:
            if tuple(stones) != (0, 0):
                raise GameEntryError(
                    "A start score is written only for two pairs; this rule set plays {form}.",
                    code="start_not_pairs",
                    form=FORM_TERMS[rules.form.value],
                )
            return _start_table(cls, rules, first_mano)
        if first_mano not in (0, 1, 2, 3):
            raise GameEntryError(
                "The first mano is a seat from 0 to 3 (A1, B1, A2, B2), not {value}.",
                code="first_mano_seat",
                value=shown(first_mano),
            )
        check_start_stones(rules, stones)
        return cls(
            rules,
            first_mano,
            stones=(stones[0], stones[1]),
            mano=first_mano,
            game_first_mano=first_mano,
        )

    @property
    def standings(self) -> tuple[int, ...]:
        """Mus francés: the positions in the order they ran out of chips, then those still
        playing by fewest chips (ties: the position that was nearer mano in the first hand)."""
        playing = [p for p in range(self.rules.players) if p not in self.out]
        first = self.first_mano
        n = self.rules.players
        playing.sort(key=lambda p: (self.stones[p], (p - first) % n))
        return self.out + tuple(playing)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def mano_team(self) -> int:
        return self.mano % self.rules.sides

    def team_of_side(self, side: int) -> int:
        """Side 0 is the pareja mano of the next hand (in individual Mus, side k is the player
        k seats after mano)."""
        return (self.mano + side) % self.rules.sides


@dataclass(frozen=True, slots=True)
class HandOutcome:
    score: HandScore
    mano: int  # position that was mano in this hand
    applied: tuple[ScoreEvent, ...]  # the events counted before the game ended
    stones: tuple[int, int]  # A, B after the hand (the final stones if the game ended)
    game: GameResult | None  # the game this hand ended, if it did
    vaca_ended: bool = False
    match_ended: bool = False


def apply_hand(state: MatchState, record: HandRecord) -> tuple[MatchState, HandOutcome]:
    """Score a hand and add it to the match. Returns the new state; the old one is unchanged."""
    if state.finished and state.rules.form is not _PAIRS:
        raise EntryAfterEnd(
            "The match is over: {winner} won it. No more hands can be entered.",
            code="match_over_table",
            winner=party_name(state.rules, state.winner),
        )
    if state.finished:
        raise EntryAfterEnd(
            "The match is over: pareja {winner} won it {won}-{lost} in vacas. No more hands can "
            "be entered.",
            code="match_over",
            winner=TEAMS[state.winner],
            won=state.vacas[state.winner],
            lost=state.vacas[1 - state.winner],
        )
    if state.rules.form is _FRANCES:
        return _apply_frances(state, record)
    if type(record) is LancePoints:  # a hand written as lance points or totals
        score = score_points(state.rules, record)
        check_totals_end(state.rules, record, _by_side(state, state.stones))
    else:
        score = score_hand(state.rules, record)
    target = state.rules.stones_per_game
    stones = list(state.stones)
    applied: list[ScoreEvent] = []
    game_winner = None
    for event in score.events:
        team = state.team_of_side(event.side)
        stones[team] += event.stones
        applied.append(event)
        if stones[team] >= target:
            game_winner = team
            if event.kind in _BEFORE_THE_COUNT:
                _check_nothing_bet_after(record, event.lance, target)
            break
    ordago = False
    if game_winner is None and score.ordago is not None:
        game_winner = state.team_of_side(score.ordago.side)
        ordago = True
        applied.append(score.ordago)
    if game_winner is not None:
        check_game_stones(state.rules, stones[game_winner], game=len(state.games) + 1)
    mano = state.mano
    if game_winner is None:
        new = replace(
            state,
            stones=tuple(stones),
            mano=(mano + 1) % state.rules.players,
            hands=state.hands + 1,
        )
        return new, HandOutcome(score, mano, tuple(applied), new.stones, None)
    new, game = _end_game(replace(state, hands=state.hands + 1), tuple(stones), game_winner, ordago)
    return new, HandOutcome(
        score,
        mano,
        tuple(applied),
        game.stones,
        game,
        vaca_ended=not any(new.vaca_games),
        match_ended=new.finished,
    )


def _by_side(state: MatchState, stones: tuple[int, ...]) -> tuple[int, ...]:
    """Stones of each side of the next hand: the pareja mano's and the pareja postre's (in
    individual Mus, the mano's first, then each seat in speaking order)."""
    return tuple(stones[state.team_of_side(side)] for side in range(state.rules.sides))


#: the events counted as they happen, before the count: the tío Perete, shown before play
#: (000), and the dejes (004 «Les laissés … seront notés sur-le-champ»)
_BEFORE_THE_COUNT = frozenset(("perete", "deje"))


def _check_nothing_bet_after(record: HandRecord | LancePoints, lance: str, target: int) -> None:
    """A stone counted as it happens that reaches the target — a deje, or the tío Perete shown
    before play — wins the game there and then: nothing can have been bet after it in the
    hand (in a later lance; after the tío Perete, in any)."""
    if type(record) is LancePoints:
        later = bets_after(record, lance)
    else:
        first = 0 if lance == "perete" else LANCES.index("juego" if lance == "punto" else lance) + 1
        later = next(
            (
                LANCES[i]
                for i in range(first, 4)
                if any(a.act is not Act.PASO for a in record[0][i])
            ),
            None,
        )
    if later is not None and lance == "perete":
        raise EntryAfterEnd(
            "The tío Perete's stone reached {target} and won the game before any lance was "
            "played: nothing can be bet in {later}.",
            code="bet_after_perete_won",
            target=target,
            later=lance_term(later),
        )
    if later is not None:
        raise EntryAfterEnd(
            "The deje in {lance} reached {target} and won the game there: nothing can be bet "
            "in {later} after it.",
            code="bet_after_game_won",
            lance=lance_term(lance),
            target=target,
            later=lance_term(later),
        )


def _end_game(
    state: MatchState, stones: tuple[int, int], winner: int, ordago: bool
) -> tuple[MatchState, GameResult]:
    rules = state.rules
    game = GameResult(stones, winner, ordago, vaca=sum(state.vacas))
    won = list(state.vaca_games)
    won[winner] += 1
    vacas = list(state.vacas)
    if won[winner] >= rules.games_per_vaca:
        vacas[winner] += 1
        won = [0] * len(won)
    match_winner = winner if vacas[winner] >= rules.vacas_per_match else None
    next_first = (state.game_first_mano + 1) % rules.players
    new = replace(
        state,
        stones=(0,) * len(won),
        games=state.games + (game,),
        vaca_games=tuple(won),
        vacas=tuple(vacas),
        mano=next_first,
        game_first_mano=next_first,
        winner=match_winner,
    )
    return new, game


def check_start_stones(rules: RuleSet, stones: object) -> None:
    """A game started from a score written on paper: two whole numbers from 0, each below the
    target (at the target the game was already won)."""
    if not isinstance(stones, (tuple, list)) or len(stones) != 2:
        raise GameEntryError(
            "The start score is two numbers of stones, pareja A's and pareja B's.",
            code="start_stones_format",
        )
    for team, value in zip(TEAMS, stones, strict=True):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise GameEntryError(
                "The start score of pareja {team} is whole stones from 0 up, not {value}.",
                code="start_stones_value",
                team=team,
                value=shown(value),
            )
        if value >= rules.stones_per_game:
            raise GameEntryError(
                "A game cannot start with pareja {team} at {value}: at {target} it has already "
                "won. Enter that game as won, and start the next from 0-0.",
                code="start_at_target",
                team=team,
                value=value,
                target=rules.stones_per_game,
            )


def _start_table(cls, rules: RuleSet, first_mano: int) -> MatchState:
    """A match of any form but pairs: positions 0 … players-1 around the table."""
    n = rules.players
    if isinstance(first_mano, bool) or first_mano not in range(n):
        raise GameEntryError(
            "The first mano is a seat from 0 to {last}, not {value}.",
            code="first_mano_seat_table",
            last=n - 1,
            value=shown(first_mano),
        )
    if rules.form is _FRANCES:
        zero = (rules.chips,) * n
    else:
        zero = (0,) * rules.sides
    return cls(
        rules,
        first_mano,
        stones=zero,
        vaca_games=(0,) * rules.sides,
        vacas=(0,) * rules.sides,
        mano=first_mano,
        game_first_mano=first_mano,
    )


def frances_resume(rules: RuleSet, chips, first_mano: int = 0) -> MatchState:
    """A Mus francés table resumed from what each position holds (a table that kept its chips on
    paper, or on the table, before entering hands here): everybody still in, so each holds at
    least one chip, and together no more than the table started with (chips only leave it)."""
    if rules.form is not _FRANCES:
        raise GameEntryError(
            "Chips are counted only in Mus francés; this rule set plays {form}.",
            code="chips_not_frances",
            form=FORM_TERMS[rules.form.value],
        )
    n = rules.players
    if not isinstance(chips, (list, tuple)) or len(chips) != n:
        raise GameEntryError(
            "Give the chips of the {count} players, by position from P1.",
            code="chips_count",
            count=n,
        )
    for position, value in enumerate(chips):
        player = party_name(rules, position)
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameEntryError(
                "{player}'s chips are a whole number, not {value}.",
                code="chips_value",
                player=player,
                value=shown(value),
            )
        if value < 0:
            raise GameEntryError(
                "{player} cannot hold {value} chips: a chip count is never below zero.",
                code="chips_below_zero",
                player=player,
                value=value,
            )
        if value == 0:
            raise GameEntryError(
                "{player} holds no chips, so has already left the table: enter the table from "
                "its first hand.",
                code="chips_zero",
                player=player,
            )
    if sum(chips) > n * rules.chips:
        raise GameEntryError(
            "The players hold {total} chips together, more than the {start} the table started "
            "with ({players} players with {chips}); chips only leave the table.",
            code="chips_above_start",
            total=sum(chips),
            start=n * rules.chips,
            players=n,
            chips=rules.chips,
        )
    return replace(MatchState.start(rules, first_mano), stones=tuple(chips))


def playing(state: MatchState) -> tuple[int, ...]:
    """Mus francés: the positions still playing, in seat order from the next hand's mano."""
    n = state.rules.players
    return tuple(p for p in ((state.mano + k) % n for k in range(n)) if p not in state.out)


def check_players_in(state: MatchState, given: int) -> None:
    """Mus francés: a hand has the cards of the players still in, no more (a player who ran out
    of chips has won or finished and neither plays nor bets again)."""
    seats = playing(state)
    if given != len(seats) and state.out:
        raise EntryAfterEnd(
            "Out of chips, no longer playing: {out}. Give the cards of the {count} players still "
            "in, in seat order from mano ({mano}).",
            code="player_out",
            out=[party_name(state.rules, p) for p in state.out],
            count=len(seats),
            mano=party_name(state.rules, seats[0]),
            given=given,
        )


def _apply_frances(state: MatchState, record: HandRecord) -> tuple[MatchState, HandOutcome]:
    """A hand of Mus francés: the players still in are the seats, from mano; chips move as the
    events say, nobody pays more chips than they hold, and a player left without chips is out
    (source 001: «ganará el primer jugador en quedarse sin fichas»). The table plays on until
    one player is left; the order of running out is the standings."""
    seats = playing(state)
    if record.cards is not None:
        check_players_in(state, len(record.cards))
    score: TableScore = score_table(state.rules, record, seats=len(seats))
    chips = list(state.stones)
    out = list(state.out)
    applied: list[ScoreEvent] = []
    players = {lance.lance: lance.players for lance in score.lances}

    def pay(position: int, amount: int) -> int:
        paid = min(amount, chips[position])
        chips[position] -= paid
        return paid

    def runs_out(positions) -> None:
        for position in positions:
            if chips[position] == 0 and position not in out:
                out.append(position)

    for event in score.events:
        applied.append(event)
        if event.kind == "envite":
            taker = seats[event.side]
            if taker in out:  # it ran out earlier in the count: it has won, takes nothing
                continue
            payers = [seats[s] for s in players[event.lance] if s != event.side]
            chips[taker] += sum(pay(p, event.stones) for p in payers)
            runs_out(payers)
        else:
            pay(seats[event.side], event.stones)
            runs_out([seats[event.side]])
    if score.ordago is not None:
        applied.append(score.ordago)
        lance = next(x for x in score.lances if x.outcome.value == "ordago")
        best, taker = seats[score.ordago.side], seats[lance.taker]
        paid = pay(best, chips[best])
        if taker not in out:  # else the chips go to the centre
            chips[taker] += paid
        runs_out([best])
    left = [p for p in seats if p not in out]
    n = state.rules.players
    finished = len(left) <= 1
    mano = seats[0]
    next_mano = next(((mano + k) % n for k in range(1, n + 1) if (mano + k) % n not in out), mano)
    if finished:
        out.extend(left)
    new = replace(
        state,
        stones=tuple(chips),
        out=tuple(out),
        mano=next_mano,
        hands=state.hands + 1,
        winner=out[0] if finished else None,
    )
    return new, HandOutcome(score, mano, tuple(applied), new.stones, None, match_ended=finished)


def play_match(
    rules: RuleSet,
    hands: list[HandRecord] | tuple[HandRecord, ...],
    first_mano: int = 0,
    start: tuple[int, int] = (0, 0),
) -> tuple[MatchState, tuple[HandOutcome, ...]]:
    """Apply hands in order from the start of a match (or fold a table's record to resume);
    ``start``: the stones the first game starts from (MatchState.start)."""
    state = MatchState.start(rules, first_mano, start)
    outcomes = []
    for number, record in enumerate(hands, start=1):
        try:
            state, outcome = apply_hand(state, record)
        except ScoringError as error:  # say which hand, keep the error's class and code
            raise error.in_hand(number) from None
        outcomes.append(outcome)
    return state, tuple(outcomes)


# ---------------------------------------------------------------------------------------------
# Quick entry: games given as final stones (or just their winner)


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as a table reports it: final stones of A and B, and/or its winner."""

    stones: tuple[int, int] | None = None
    winner: int | None = None  # 0 A, 1 B; required without stones and for an órdago
    ordago: bool = False


def record_games(
    rules: RuleSet, games: list[GameEntry] | tuple[GameEntry, ...], *, complete: bool = False
) -> MatchState:
    """Validate a match entered game by game and return its state.

    ``complete`` asks for a decided match (a table submitting its final result).
    """
    state = MatchState.start(rules)
    for number, entry in enumerate(games, start=1):
        if state.finished:
            raise EntryAfterEnd(
                "Game {game} was entered after the match was decided: {team} {winner} had "
                "already won it.",
                code="game_after_match",
                game=number,
                team=team_term(rules.form),
                winner=TEAMS[state.winner],
            )
        winner = _game_winner(entry, rules, number)
        stones = entry.stones if entry.stones is not None else (0, 0)
        state, _ = _end_game(state, stones, winner, entry.ordago)
    if complete and not state.finished:
        need = rules.games_per_vaca
        raise GameEntryError(
            "The match is not finished: in vacas A {vacas_a} - B {vacas_b}, in the current vaca "
            "A {games_a} - B {games_b} games ({need} win a vaca, {vacas} the match).",
            code="match_not_finished",
            vacas_a=state.vacas[0],
            vacas_b=state.vacas[1],
            games_a=state.vaca_games[0],
            games_b=state.vaca_games[1],
            need=need,
            vacas=rules.vacas_per_match,
        )
    return state


def check_game_stones(rules: RuleSet, stones: int, *, game: int) -> None:
    """The one bound on a game's stones, for games entered as final stones and for hands alike:
    nobody ends a game above RuleSet.max_game_stones — the target less one, and the most one
    stone count can pay, the largest bet the engine records (the loser's bound, below the
    target, is the game's own rule). A hand entered by its bets or its lance points never
    passes it (each count is a bet's, bounded by scoring.betting.MAX_BET); totals written
    alone can. Whatever a column of the database could hold is never the check."""
    if stones > rules.max_game_stones:
        raise GameEntryError(
            "Game {game}: {value} stones is more than a game to {target} can end with. The "
            "winner ends with {limit} at the most: {below} before the stones that won it, and "
            "no bet is bigger than {bet}, the most that can be recorded.",
            code="stones_above_limit",
            game=game,
            value=shown(stones),
            target=rules.stones_per_game,
            limit=rules.max_game_stones,
            below=rules.stones_per_game - 1,
            bet=MAX_BET,
        )


def game_stones_unusual(rules: RuleSet, stones: tuple[int, int]) -> bool:
    """A game's final stones that are possible but rare (the winner far past the target after
    a big envite accepted): worth a "¿seguro?" before a table sends them."""
    return max(stones) > rules.usual_game_stones


def _game_winner(entry: GameEntry, rules: RuleSet, number: int) -> int:
    target = rules.stones_per_game
    if entry.winner is not None and entry.winner not in (0, 1):
        raise GameEntryError(
            "Game {game}: the winner is {team} A or {team} B.",
            code="game_winner_format",
            game=number,
            team=team_term(rules.form),
        )
    if entry.stones is None:
        if entry.winner is None:
            raise GameEntryError(
                "Game {game}: give the final stones or who won it.", code="game_empty", game=number
            )
        return entry.winner
    a, b = entry.stones
    for value in (a, b):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise GameEntryError(
                "Game {game}: stones are whole numbers from 0 up, not {value}.",
                code="stones_value",
                game=number,
                value=shown(value),
            )
    if entry.ordago:
        if entry.winner is None:
            raise GameEntryError(
                "Game {game} was won by an órdago: say who won it.",
                code="ordago_winner_missing",
                game=number,
            )
        if a >= target or b >= target:
            raise GameEntryError(
                "Game {game}: a game won by órdago ends before anybody reaches {target}, but "
                "the stones are {a}-{b}.",
                code="ordago_after_target",
                game=number,
                target=target,
                a=a,
                b=b,
            )
        return entry.winner
    if a >= target and b >= target:
        raise GameEntryError(
            "Game {game}: {both} have {target} or more ({a}-{b}). Only the first to reach "
            "{target} wins, and the game stops there: the loser ends below {target}.",
            code="both_at_target",
            game=number,
            both=both_teams_term(rules.form),
            target=target,
            a=a,
            b=b,
        )
    if a < target and b < target:
        raise GameEntryError(
            "Game {game} is not finished: nobody reached {target} ({a}-{b}). If it was won by "
            "an órdago, mark it so.",
            code="game_not_finished",
            game=number,
            target=target,
            a=a,
            b=b,
        )
    winner = 0 if a >= target else 1
    check_game_stones(rules, entry.stones[winner], game=number)
    if entry.winner is not None and entry.winner != winner:
        raise GameEntryError(
            "Game {game}: {team} {given} is given as the winner, but the stones {a}-{b} say "
            "{team} {winner} won.",
            code="winner_contradicts_stones",
            game=number,
            team=team_term(rules.form),
            given=TEAMS[entry.winner],
            a=a,
            b=b,
            winner=TEAMS[winner],
        )
    return winner
