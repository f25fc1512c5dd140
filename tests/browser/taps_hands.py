"""A fixed set of hands of each kind, entered on the anotador's pad one touch tap at a time:
what tests/browser/test_browser_taps_kinds.py checks and benchmarks/taps.py prints.

Each hand is a list of steps, each one tap: a word said on the pad (``bet``: envido, más,
quiero, no quiero, órdago, and the one-tap "Órdago · quiero" / "Órdago · no quiero"), a bet of
a usual size (``amount``: "Envido 5" to open a lance, "5 más" to answer), a lance's winner
(``win``), a player's pares or juego (``said``), and "Anotar mano" (``SEND``). The page counts
the trusted pointer events it receives (COUNTER), so a step that cost a second tap would
show. Every hand is checked by the server with the rules engine: a hand the pad wrote wrongly
is refused and the run stops there.

The taps a hand costs have a floor that no pad lowers: one per word said (whatever the bet's
size), one per player who holds pares or juego, one per lance whose winner neither the betting
nor the declarations give, and the send. The kinds are the README's ("Taps per hand"), each
with its target; a hand that mixes them (a raise, pares of both pairs and punto) costs the sum.

Rules: games to 100 stones and 9 games a vaca, so that no deje ends a game in the middle of a
hand and no kind's hands end the partida; each kind is played on a table of its own.
"""

from __future__ import annotations

#: counts the touches the page receives (a touch tap fires one trusted pointerdown)
COUNTER = """
document.addEventListener("pointerdown", function (event) {
  if (!event.isTrusted) return;
  sessionStorage.setItem("taps", String(+(sessionStorage.getItem("taps") || 0) + 1));
}, true);
"""

RULES = {"stones_per_game": 100, "games_per_vaca": 9}


def bet(pair: str, act: str, lance: str) -> tuple:
    return ("bet", lance, pair, act)


def amount(pair: str, n: int, lance: str) -> tuple:
    return ("amount", lance, pair, n)


def win(lance: str, pair: str) -> tuple:
    return ("win", lance, pair)


def said(lance: str, position: str, value: str) -> tuple:
    return ("said", lance, position, value)


SEND = ("send",)

#: (kind, most taps a hand of it may take, [(what, taps, steps), …])
KINDS = [
    ("en paso", 8, [
        ("nobody has pares nor juego", 4, [
            win("grande", "A"), win("chica", "B"), win("juego", "A"), SEND]),
        ("only pareja A has pares and juego", 5, [
            win("grande", "B"), win("chica", "A"), said("pares", "A1", "par"),
            said("juego", "A2", "31"), SEND]),
        ("pares of both pairs, medias over par; punto", 6, [
            win("grande", "A"), win("chica", "A"), said("pares", "A1", "medias"),
            said("pares", "B2", "par"), win("juego", "B"), SEND]),
    ]),
    ("envite accepted", 8, [
        ("envido in grande", 6, [
            bet("A", "envido", "grande"), bet("B", "quiero", "grande"), win("grande", "B"),
            win("chica", "A"), win("juego", "A"), SEND]),
        ("envido 4 in grande", 6, [
            amount("A", 4, "grande"), bet("B", "quiero", "grande"), win("grande", "A"),
            win("chica", "B"), win("juego", "B"), SEND]),
        ("envido 10 in chica", 6, [
            win("grande", "A"), amount("B", 10, "chica"), bet("A", "quiero", "chica"),
            win("chica", "B"), win("juego", "A"), SEND]),
        ("envido 5 in pares, duples over par", 8, [
            win("grande", "B"), win("chica", "A"), said("pares", "A1", "duples"),
            said("pares", "B1", "par"), amount("A", 5, "pares"), bet("B", "quiero", "pares"),
            win("juego", "B"), SEND]),
    ]),
    ("raises", 8, [
        ("envido 3, 5 más, quiero", 7, [
            amount("A", 3, "grande"), amount("B", 5, "grande"), bet("A", "quiero", "grande"),
            win("grande", "A"), win("chica", "B"), win("juego", "A"), SEND]),
        ("envido, 10 más, quiero", 7, [
            bet("B", "envido", "grande"), amount("A", 10, "grande"), bet("B", "quiero", "grande"),
            win("grande", "B"), win("chica", "A"), win("juego", "B"), SEND]),
        ("envido, 3 más, 5 más, quiero", 8, [
            bet("A", "envido", "chica"), amount("B", 3, "chica"), amount("A", 5, "chica"),
            bet("B", "quiero", "chica"), win("grande", "B"), win("chica", "A"),
            win("juego", "A"), SEND]),
    ]),
    ("dejes (bets refused)", 8, [
        ("envido 5 refused", 5, [
            amount("A", 5, "grande"), bet("B", "no quiero", "grande"), win("chica", "A"),
            win("juego", "B"), SEND]),
        ("envido 3, 10 más refused", 6, [
            amount("A", 3, "grande"), amount("B", 10, "grande"),
            bet("A", "no quiero", "grande"), win("chica", "B"), win("juego", "A"), SEND]),
        ("refused in grande and in chica", 6, [
            bet("A", "envido", "grande"), bet("B", "no quiero", "grande"),
            amount("B", 5, "chica"), bet("A", "no quiero", "chica"), win("juego", "A"), SEND]),
        ("envido 4 in juego refused, 31 against 40", 7, [
            win("grande", "A"), win("chica", "B"), said("juego", "A1", "31"),
            said("juego", "B2", "40"), amount("B", 4, "juego"), bet("A", "no quiero", "juego"),
            SEND]),
    ]),
    ("several declarations", 8, [
        ("three pares, two juegos", 8, [
            win("grande", "A"), win("chica", "B"), said("pares", "A1", "par"),
            said("pares", "A2", "medias"), said("pares", "B1", "duples"),
            said("juego", "A1", "31"), said("juego", "B2", "32"), SEND]),
        ("par against par, 40 against 33 to 37", 8, [
            win("grande", "B"), win("chica", "B"), said("pares", "A1", "par"),
            said("pares", "B1", "par"), win("pares", "A"), said("juego", "A2", "40"),
            said("juego", "B1", "other"), SEND]),
        ("pares of one pair, three juegos", 8, [
            win("grande", "A"), win("chica", "A"), said("pares", "B1", "medias"),
            said("pares", "B2", "medias"), said("juego", "A1", "32"),
            said("juego", "A2", "31"), said("juego", "B2", "40"), SEND]),
    ]),
    ("órdago accepted", 4, [
        ("in grande, in one tap", 3, [
            bet("A", "órdago quiero", "grande"), win("grande", "B"), SEND]),
        ("in grande, said and answered", 4, [
            bet("B", "órdago", "grande"), bet("A", "quiero", "grande"), win("grande", "A"),
            SEND]),
        ("after an envido 3", 4, [
            amount("A", 3, "grande"), bet("B", "órdago quiero", "grande"), win("grande", "B"),
            SEND]),
        ("in chica after grande en paso", 3, [
            bet("B", "órdago quiero", "chica"), win("chica", "A"), SEND]),
        ("in pares, medias over par", 4, [
            said("pares", "A1", "par"), said("pares", "B2", "medias"),
            bet("A", "órdago quiero", "pares"), SEND]),
    ]),
    ("órdago refused", 4, [
        ("in grande", 4, [
            bet("A", "órdago no", "grande"), win("chica", "B"), win("juego", "A"), SEND]),
        ("in chica after grande en paso", 4, [
            win("grande", "A"), bet("B", "órdago no", "chica"), win("juego", "B"), SEND]),
    ]),
    ("órdago refused after an envite", 5, [
        ("envido 4, órdago, no quiero", 5, [
            amount("A", 4, "grande"), bet("B", "órdago no", "grande"), win("chica", "A"),
            win("juego", "A"), SEND]),
    ]),
]  # fmt: skip

#: the kinds a table plays every night; the órdagos are the others
ORDINARY = ("en paso", "envite accepted", "raises", "dejes (bets refused)", "several declarations")


def locate(page, step: tuple):
    """The element one step taps."""
    kind = step[0]
    if kind in ("bet", "amount"):
        _, lance, pair, act = step
        column = f'.t-lance[data-lance="{lance}"] .t-pad-col[data-pair="{pair}"]'
        if kind == "amount":
            return page.locator(f'{column} button[data-act="amount"][data-n="{act}"]')
        return page.locator(f'{column} button[data-act="{act}"]')
    if kind == "win":
        _, lance, pair = step
        return page.locator(
            f'.t-lance[data-lance="{lance}"] .t-win label', has_text=f"Pareja {pair}"
        )
    if kind == "said":
        _, lance, position, value = step
        return page.locator(
            f'.t-lance[data-lance="{lance}"] .t-player[data-position="{position}"] '
            f'label:has(input[value="{value}"])'
        )
    return page.get_by_role("button", name="Anotar mano")


def play(page, url: str, hands: list) -> list[int]:
    """Enter ``hands`` on the anotador at ``url`` (a table of its own, no hand yet); the taps
    the page counted for each, once the server has counted the hand."""
    from playwright.sync_api import expect

    page.goto(url)
    counted = []
    for number, (_what, _expected, steps) in enumerate(hands, start=1):
        expect(page.locator("#t-hand h2")).to_have_text(f"Mano n.º {number}")
        before = int(page.evaluate("sessionStorage.getItem('taps') || '0'"))
        for step in steps:
            locate(page, step).tap()
        expect(page.locator("#t-last h2")).to_contain_text(f"Mano n.º {number}:")
        counted.append(int(page.evaluate("sessionStorage.getItem('taps') || '0'")) - before)
    return counted


def before(steps: list) -> int:
    """The taps the same hand took on the pad before the one-tap bets: each stone of a bet
    above 2 was a tap on + (then Envido or más), and an órdago accepted was two taps."""
    taps = 0
    for step in steps:
        if step[0] == "amount":
            taps += 1 + step[3] - 2
        elif step[0] == "bet" and step[3] == "órdago quiero":
            taps += 2
        else:
            taps += 1
    return taps


def report(figures: list[tuple[str, int, str, int]]) -> list[str]:
    """The lines that print the figures: each hand, then each kind (mean and most), and beside
    them what the same hands took on the pad before (worked out from their steps)."""
    steps = {(kind, what): s for kind, _, hands in KINDS for what, _, s in hands}
    old = {key: before(s) for key, s in steps.items()}
    lines = [
        f"  {taps:2} taps (before: {old[kind, what]:2})  {kind}: {what}"
        for kind, _, what, taps in figures
    ]
    lines += ["", f"  {'kind':<32}{'hands':>6}{'mean':>6}{'max':>5}{'target':>8}{'before':>14}"]
    rows = [(kind, target, [f for f in figures if f[0] == kind]) for kind, target, _ in KINDS]
    rows.append(("all ordinary hands", 8, [f for f in figures if f[0] in ORDINARY]))
    for kind, target, found in rows:
        if not found:
            continue
        taps = [f[3] for f in found]
        then = [old[f[0], f[2]] for f in found]
        was = f"{sum(then) / len(then):.1f}, {max(then)}"
        mean, most, goal = sum(taps) / len(taps), max(taps), f"≤ {target}"
        lines.append(f"  {kind:<32}{len(taps):>6}{mean:>6.1f}{most:>5}{goal:>8}{was:>14}")
    return lines
