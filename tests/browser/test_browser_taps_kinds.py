"""How many taps each kind of hand costs on the anotador's pad (Chromium at 390×844, touch taps):
the fixed set of tests/browser/taps_hands.py, each kind on a table of its own, every hand
checked by the server with the rules engine.

A bet of any usual size is one tap (Envido 3, 4, 5, 10; 3, 4, 5, 10 más): each stone above 2
cost a tap before (an envido 5 was + + + Envido, four taps), which took ordinary hands with bets
past 8 taps and a refused órdago after an envite to 6 or 7. An órdago and its answer are one
tap ("Órdago · quiero", "Órdago · no quiero"). Each hand takes the taps its row says, the page
counts the same, and each kind keeps to its target; ``pytest -s`` prints the figures, as
``benchmarks/taps.py`` does.
"""

from __future__ import annotations

import pytest

from tests.browser.taps_hands import COUNTER, KINDS, RULES, play, report
from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import HandEntry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_kind_of_hand_keeps_to_its_taps(phone, live_server):
    phone.context.add_init_script(COUNTER)
    figures = []
    for kind, target, hands in KINDS:
        tournament = TournamentFactory(status=Tournament.Status.RUNNING, **RULES)
        match = MatchFactory(round__phase__tournament=tournament)
        counted = play(phone, f"{live_server.url}/mesa/{match.token}/anotador/", hands)
        assert HandEntry.objects.filter(match=match).count() == len(hands), kind
        for (what, expected, steps), taps in zip(hands, counted, strict=True):
            assert taps == len(steps) == expected, (kind, what, taps, len(steps), expected)
            assert taps <= target, (kind, what, taps, target)
            figures.append((kind, target, what, taps))
    print("\nTaps per hand on the anotador, by kind (390×844):")
    print("\n".join(report(figures)))
