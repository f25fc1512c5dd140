"""Amarrako's Mus rules engine: pure Python, no Django.

Responsible for: every rule of Mus the service applies — cards and the four lances (grande,
chica, pares, juego/punto), the betting of each lance (paso, envite, deje, órdago), a hand's
score, games, vacas and the match, games entered as final stones, and standings; in every form
(pairs, trios, individual, Mus francés). It takes plain
values and returns new ones; no I/O, no clock, no randomness.

Must not: import Django or anything of the web service. A test enforces it.

The API in brief (docs/rules.md has the rules, docs/scoring-json.md the JSON form):

    rules = RuleSet(kings=8, stones_per_game=40)
    record = hand_from_json({"cards": [...], "bets": {...}}, rules)
    score = score_hand(rules, record)                 # HandScore: events, lance winners
    state, outcome = apply_hand(MatchState.start(rules), record)
    state = record_games(rules, [GameEntry((40, 22))], complete=False)

    trios = RuleSet(form=Form.TRIOS)                  # also individual (2-6), frances (3-6)
    score = score_hand(trios, hand_from_json({"cards": [...6 hands], "bets": {...}}, trios))

Every impossible entry raises a ScoringError subclass with a message a player understands.
"""

from scoring.betting import Action, Outcome, parse_action
from scoring.cards import Card, HandValue, hand_value, parse_card, parse_hand
from scoring.errors import (
    BettingError,
    CardError,
    DeclarationError,
    EntryAfterEnd,
    FormatError,
    GameEntryError,
    RuleSetError,
    ScoringError,
)
from scoring.hand import (
    Declarations,
    HandRecord,
    HandScore,
    LanceResult,
    ScoreEvent,
    declarations_from_cards,
    hand_values,
    score_hand,
)
from scoring.jsonio import hand_from_json, run
from scoring.match import (
    GameEntry,
    GameResult,
    HandOutcome,
    MatchState,
    amarracos,
    apply_hand,
    check_game_stones,
    frances_resume,
    game_stones_unusual,
    play_match,
    record_games,
)
from scoring.rules import PRESETS, Form, Real31, RuleSet
from scoring.table import TableLance, TableScore, score_table, table_values

__all__ = [
    "PRESETS",
    "Action",
    "BettingError",
    "Card",
    "CardError",
    "DeclarationError",
    "Declarations",
    "EntryAfterEnd",
    "Form",
    "FormatError",
    "GameEntry",
    "GameEntryError",
    "GameResult",
    "HandOutcome",
    "HandRecord",
    "HandScore",
    "HandValue",
    "LanceResult",
    "MatchState",
    "Outcome",
    "Real31",
    "RuleSet",
    "RuleSetError",
    "ScoreEvent",
    "ScoringError",
    "TableLance",
    "TableScore",
    "amarracos",
    "apply_hand",
    "check_game_stones",
    "declarations_from_cards",
    "frances_resume",
    "game_stones_unusual",
    "hand_from_json",
    "hand_value",
    "hand_values",
    "parse_action",
    "parse_card",
    "parse_hand",
    "play_match",
    "record_games",
    "run",
    "score_hand",
    "score_table",
    "table_values",
]
