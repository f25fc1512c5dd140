"""Hands scored per second by the rules engine, from the documented input form.

Run: python benchmarks/scoring.py [--hands N] [--seed S]

Random deals (seeded) with random but legal betting are generated first, as the JSON-ready dicts
of docs/scoring-json.md (cards as text, bets as text), then timed end to end: parsing the cards
and bets, evaluating the four lances, and scoring. Two paths: with cards, and with declarations
only (what a table enters without cards). One core, best of several runs. Prints figures; it is
not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import RuleSet, ScoringError, hand_from_json, score_hand  # noqa: E402
from scoring.cards import DECK  # noqa: E402
from scoring.hand import JUEGO_OTHER, JUEGO_REAL, declarations_from_cards, hand_values  # noqa: E402

BETTING = [
    [],
    ["paso", "paso", "paso", "paso"],
    ["envido", "quiero"],
    ["paso", "envido", "no quiero"],
    ["envido", "2 más", "no quiero"],
    ["paso", "paso", "envido 4", "quiero"],
    ["envido", "órdago", "no quiero"],
    ["envido", "3 más", "una más", "quiero"],
]
PARES = {0: "none", 1: "par", 2: "medias", 3: "duples"}


def make_hands(n: int, rng: random.Random, rules: RuleSet) -> tuple[list[dict], list[dict]]:
    with_cards, declared = [], []
    while len(with_cards) < n:
        cards = rng.sample(DECK, 16)
        texts = [" ".join(c.code for c in cards[i * 4 : i * 4 + 4]) for i in range(4)]
        bets = {}
        for lance in ("grande", "chica", "pares", "juego"):
            choice = rng.choice(BETTING)
            trial = {"cards": texts, "bets": {**bets, lance: choice}}
            try:
                score_hand(rules, hand_from_json(trial, rules))
            except ScoringError:
                continue  # e.g. a bet in pares when only one pair has pares: leave it out
            bets[lance] = choice
        if rng.random() < 0.05:  # an occasional accepted órdago
            bets = {"grande": ["envido", "órdago", "quiero"]}
        hand = {"cards": texts, "bets": bets}
        with_cards.append(hand)
        decl = declarations_from_cards(rules, hand_values(rules, texts))
        juego = [
            "31 real" if j == JUEGO_REAL else "other" if j == JUEGO_OTHER else (j or "none")
            for j in decl.juego
        ]
        declared.append(
            {
                "bets": bets,
                "declarations": {
                    "pares": [PARES[p] for p in decl.pares],
                    "juego": juego,
                    "punto": list(decl.punto) if decl.punto else None,
                    "winners": {k: ("mano", "postre")[v] for k, v in decl.winners.items()},
                },
            }
        )
        if decl.punto is None:
            del declared[-1]["declarations"]["punto"]
    return with_cards, declared


def rate(hands: list[dict], rules: RuleSet, repeats: int) -> float:
    """Hands per second of CPU time, best of ``repeats`` (CPU time, so that other processes on
    the machine do not count against the engine)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for hand in hands:
            score_hand(rules, hand_from_json(hand, rules))
        best = min(best, time.process_time() - start)
    return len(hands) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rules = RuleSet()
    with_cards, declared = make_hands(args.hands, random.Random(args.seed), rules)
    print(f"{args.hands:,} random deals, seed {args.seed}, Python {sys.version.split()[0]}")
    print(
        f"with cards (parsed from text):  {rate(with_cards, rules, args.repeats):>10,.0f} hands/s"
    )
    print(f"declarations only:              {rate(declared, rules, args.repeats):>10,.0f} hands/s")


if __name__ == "__main__":
    main()
