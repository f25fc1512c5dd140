"""A double loss (a league match neither pair played by its deadline): both pairs are charged
a match played and lost, nobody wins it."""

from __future__ import annotations

import pytest

from scoring.standings import Entry, MatchKind, MatchRecord, StandingsError, Tiebreak, standings


def test_the_engine_counts_a_double_loss_as_played_and_lost_by_both():
    entries = [Entry(1, None), Entry(2, None), Entry(3, None)]
    matches = [
        MatchRecord(1, 2, None, 0, 0, 0, 0, MatchKind.DOUBLE_LOSS),
        MatchRecord(1, 3, 3, 1, 3, 90, 120),
    ]
    rows = {r.pair: r for r in standings(entries, matches, [Tiebreak.MATCHES_WON])}
    assert (rows[1].played, rows[1].won) == (2, 0)
    assert (rows[2].played, rows[2].won) == (1, 0)
    assert rows[3].won == 1
    with pytest.raises(StandingsError) as caught:
        MatchRecord(1, 2, 1, 0, 0, 0, 0, "double_loss")
    assert caught.value.code == "double_loss_winner"
