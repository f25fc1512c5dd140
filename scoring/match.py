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

Terms: piedras (stones), amarracos (5 stones), juego/partida (a game), vaca, mano, postre,
órdago, deje.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.betting import Act
from scoring.errors import EntryAfterEnd, GameEntryError, ScoringError, lance_term, shown
from scoring.hand import LANCES, HandRecord, HandScore, ScoreEvent, score_hand
from scoring.lances import LancePoints, bets_after, check_totals_end, score_points
from scoring.rules import RuleSet

TEAMS = ("A", "B")


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

    @classmethod
    def start(
        cls, rules: RuleSet, first_mano: int = 0, stones: tuple[int, int] = (0, 0)
    ) -> MatchState:
        """A match's state before its first hand; ``stones``: the score the current game
        starts from, as written on paper (a table that switches to the phone mid-game)."""
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
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def mano_team(self) -> int:
        return self.mano % 2

    def team_of_side(self, side: int) -> int:
        """Side 0 is the pareja mano of the next hand."""
        return (self.mano + side) % 2


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
    if state.finished:
        raise EntryAfterEnd(
            "The match is over: pareja {winner} won it {won}-{lost} in vacas. No more hands can "
            "be entered.",
            code="match_over",
            winner=TEAMS[state.winner],
            won=state.vacas[state.winner],
            lost=state.vacas[1 - state.winner],
        )
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
            if event.kind == "deje":
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
            state, stones=(stones[0], stones[1]), mano=(mano + 1) % 4, hands=state.hands + 1
        )
        return new, HandOutcome(score, mano, tuple(applied), new.stones, None)
    new, game = _end_game(
        replace(state, hands=state.hands + 1), (stones[0], stones[1]), game_winner, ordago
    )
    return new, HandOutcome(
        score,
        mano,
        tuple(applied),
        game.stones,
        game,
        vaca_ended=new.vaca_games == (0, 0),
        match_ended=new.finished,
    )


def _by_side(state: MatchState, stones: tuple[int, int]) -> tuple[int, int]:
    """Stones of the pareja mano and the pareja postre of the next hand."""
    return stones[state.team_of_side(0)], stones[state.team_of_side(1)]


def _check_nothing_bet_after(record: HandRecord | LancePoints, lance: str, target: int) -> None:
    """A deje that reaches the target wins the game there and then: nothing can have been bet in
    a later lance of the hand."""
    if type(record) is LancePoints:
        later = bets_after(record, lance)
    else:
        index = LANCES.index("juego" if lance == "punto" else lance)
        later = next(
            (
                LANCES[i]
                for i in range(index + 1, 4)
                if any(a.act is not Act.PASO for a in record[0][i])
            ),
            None,
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
        won = [0, 0]
    match_winner = winner if vacas[winner] >= rules.vacas_per_match else None
    next_first = (state.game_first_mano + 1) % 4
    new = replace(
        state,
        stones=(0, 0),
        games=state.games + (game,),
        vaca_games=(won[0], won[1]),
        vacas=(vacas[0], vacas[1]),
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
                "Game {game} was entered after the match was decided: pareja {winner} had "
                "already won it.",
                code="game_after_match",
                game=number,
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
    nobody ends a game above RuleSet.max_game_stones (the loser's bound, below the target, is
    the game's own rule). Whatever a column of the database could hold is never the check."""
    if stones > rules.max_game_stones:
        raise GameEntryError(
            "Game {game}: {value} stones is more than a game to {target} can end with. The "
            "winner ends with {limit} at the most: {below} before the last lance, and a lance is "
            "worth at most {target} (a bigger bet is an órdago).",
            code="stones_above_limit",
            game=game,
            value=shown(stones),
            target=rules.stones_per_game,
            limit=rules.max_game_stones,
            below=rules.stones_per_game - 1,
        )


def game_stones_unusual(rules: RuleSet, stones: tuple[int, int]) -> bool:
    """A game's final stones that are possible but rare (the winner far past the target after
    a big envite accepted): worth a "¿seguro?" before a table sends them."""
    return max(stones) > rules.usual_game_stones


def _game_winner(entry: GameEntry, rules: RuleSet, number: int) -> int:
    target = rules.stones_per_game
    if entry.winner is not None and entry.winner not in (0, 1):
        raise GameEntryError(
            "Game {game}: the winner is pareja A or B.", code="game_winner_format", game=number
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
                "Game {game} was won by an órdago: say which pair won it.",
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
            "Game {game}: both pairs have {target} or more ({a}-{b}). Only the first to reach "
            "{target} wins, and the game stops there: the loser ends below {target}.",
            code="both_at_target",
            game=number,
            target=target,
            a=a,
            b=b,
        )
    if a < target and b < target:
        raise GameEntryError(
            "Game {game} is not finished: neither pair reached {target} ({a}-{b}). If it was "
            "won by an órdago, mark it so.",
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
            "Game {game}: pareja {given} is given as the winner, but the stones {a}-{b} say "
            "pareja {winner} won.",
            code="winner_contradicts_stones",
            game=number,
            given=TEAMS[entry.winner],
            a=a,
            b=b,
            winner=TEAMS[winner],
        )
    return winner
