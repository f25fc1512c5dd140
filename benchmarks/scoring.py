"""Hands scored per second by the rules engine, from the documented input form.

Run: python benchmarks/scoring.py [--hands N] [--seed S] [--slices K]

Random deals (seeded) with random but legal betting are generated as the JSON-ready dicts of
docs/scoring-json.md (cards as text, bets as text), then timed end to end: parsing the cards
and bets, evaluating the four lances, and scoring. Pairs two ways: with cards, and with
declarations only (what a table enters without cards); then each other form (trios,
individual, Mus francés) with cards, through the engine's path for any number of seats. One
core, CPU time, so that other processes on the machine do not count against the engine. Prints
figures; it is not a test.

Honest about memoisation: the hands are generated in a separate process, and every timed hand
is scored for the first time. The engine first scores a warm-up set of other hands, as a
server that has been running for a while would have, so the memos that repeat across hands
(the text of a betting, a lance's betting for given holdings) are warm, and nothing that only
helps when the same deal comes back can flatter the figure. Each slice of ``--hands`` hands is
timed once; the best, median and worst slice are printed (the median is the figure to quote:
on a shared machine single slices swing by a quarter either way).

The optional C speed-up (scoring/_cards.c) is used when built; SCORING_PURE_PYTHON=1 measures
the pure-Python engine.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import Form, RuleSet, ScoringError, hand_from_json, score_hand  # noqa: E402
from scoring.cards import DECK  # noqa: E402
from scoring.hand import (  # noqa: E402
    C_SPEEDUP,
    JUEGO_OTHER,
    JUEGO_REAL,
    declarations_from_cards,
    hand_values,
)

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
        # without the cards, a lance never played (after an accepted órdago) has no winner
        played = {r.lance for r in score_hand(rules, hand_from_json(hand, rules)).lances}
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
                    "winners": {
                        k: ("mano", "postre")[v] for k, v in decl.winners.items() if k in played
                    },
                },
            }
        )
        if decl.punto is None:
            del declared[-1]["declarations"]["punto"]
    return with_cards, declared


#: the other forms, each at a usual table size: (label, rule set)
FORMS = (
    ("trios (6 players, 2 sides)", RuleSet(form=Form.TRIOS)),
    ("individual, 3 players", RuleSet(form=Form.INDIVIDUAL, players=3)),
    ("individual, 5 players", RuleSet(form=Form.INDIVIDUAL, players=5)),
    ("Mus francés, 4 players", RuleSet(form=Form.FRANCES, players=4)),
    ("Mus francés, 6 players", RuleSet(form=Form.FRANCES, players=6)),
)


def _table_bettings(players: int) -> list[list[str]]:
    """Bettings a table of any form may say; those that do not fit a lance are left out."""
    found = [[], ["paso"] * players, ["envido", "quiero"], ["paso", "envido", "no quiero"]]
    for answers in range(1, players):
        found.append(["envido"] + ["quiero"] * answers)
        found.append(["paso", "envido 4"] + ["no quiero"] * answers)
        found.append(["envido", "2 más"] + ["quiero"] * answers)
        found.append(["envido"] + ["no quiero", "quiero"] * answers)
    return found


def make_table_hands(n: int, rng: random.Random, rules: RuleSet) -> list[dict]:
    """Random deals of a form with random legal betting, as JSON (docs/scoring-json.md)."""
    players = rules.players
    bettings = _table_bettings(players)
    hands = []
    while len(hands) < n:
        cards = rng.sample(DECK, 4 * players)
        texts = [" ".join(c.code for c in cards[i * 4 : i * 4 + 4]) for i in range(players)]
        bets: dict[str, list[str]] = {}
        for lance in ("grande", "chica", "pares", "juego"):
            for _ in range(4):
                choice = rng.choice(bettings)
                trial = {"cards": texts, "bets": {**bets, lance: choice}}
                try:
                    score_hand(rules, hand_from_json(trial, rules))
                except ScoringError:
                    continue
                bets[lance] = choice
                break
        hands.append({"cards": texts, "bets": bets})
    return hands


def generate_forms(count: int, seed: int) -> list[list[dict]]:
    """In a child process, as ``generate``: the hands of each form of FORMS."""
    return [make_table_hands(count, random.Random(seed), rules) for _, rules in FORMS]


def generate(count: int, seed: int) -> tuple[list[dict], list[dict]]:
    """Runs in a child process, so that making the hands (which scores them to keep only legal
    betting) leaves nothing in this process's memos."""
    return make_hands(count, random.Random(seed), RuleSet())


def rates(slices: list[list[dict]], rules: RuleSet) -> list[float]:
    """Hands per second of CPU time, for each slice, each hand scored once."""
    found = []
    for hands in slices:
        start = time.process_time()
        for hand in hands:
            score_hand(rules, hand_from_json(hand, rules))
        found.append(len(hands) / (time.process_time() - start))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per timed slice")
    parser.add_argument("--slices", type=int, default=20)
    parser.add_argument("--warm-up", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--forms-hands", type=int, default=2_000, help="hands per slice of each other form (0 none)"
    )
    args = parser.parse_args()
    rules = RuleSet()
    total = args.warm_up + args.hands * args.slices
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        with_cards, declared = pool.submit(generate, total, args.seed).result()
    # The input is millions of objects that a server would not hold: leave them out of the
    # garbage collector's work (it still runs, on what the engine allocates).
    gc.collect()
    gc.freeze()
    print(
        f"{args.slices} slices of {args.hands:,} random deals (seed {args.seed}) after "
        f"{args.warm_up:,} others, Python {sys.version.split()[0]}, "
        f"C speed-up {'on' if C_SPEEDUP else 'OFF (pure Python)'}"
    )
    for label, hands in (
        ("with cards (parsed from text)", with_cards),
        ("declarations only", declared),
    ):
        warm, timed = hands[: args.warm_up], hands[args.warm_up :]
        rates([warm], rules)
        slices = [timed[i * args.hands : (i + 1) * args.hands] for i in range(args.slices)]
        found = rates(slices, rules)
        print(
            f"{label + ':':32s}{max(found):>10,.0f} hands/s best slice, "
            f"{statistics.median(found):>10,.0f} median, {min(found):>10,.0f} worst"
        )
    if args.forms_hands:
        # the other forms, with cards: scoring.table (Python), slices of --forms-hands
        per_form = args.forms_hands * args.slices
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            generated = pool.submit(generate_forms, per_form + args.forms_hands, args.seed).result()
        for (label, form_rules), hands in zip(FORMS, generated, strict=True):
            warm, timed = hands[: args.forms_hands], hands[args.forms_hands :]
            rates([warm], form_rules)
            slices = [
                timed[i * args.forms_hands : (i + 1) * args.forms_hands] for i in range(args.slices)
            ]
            found = rates(slices, form_rules)
            print(
                f"{label + ':':32s}{max(found):>10,.0f} hands/s best slice, "
                f"{statistics.median(found):>10,.0f} median, {min(found):>10,.0f} worst"
            )


if __name__ == "__main__":
    main()
