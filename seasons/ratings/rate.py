"""Ratings of players: the pure core (no Django, no database).

Responsible for: rating a sequence of confirmed matches, in the order they were played, with
OpenSkill's Plackett-Luce model (a pair's two players are one team of two, rated natively; a
trio or an individual match is a team of three or one), and the alternative points ranking of
a peña (+12 a win, −10 a loss, −20 a forfeit lost, "abandono"). It takes plain records and the
players' ratings before the first of them, and returns the rating of every player after every
match (the history), so rating a run in two pieces from a stored point gives exactly what
rating it from scratch gives.

Must not: read or write anything; know where a match comes from (a tournament today, a league
tomorrow: seasons.ratings.services turns those rows into ``MatchRecord``s).

Terms: valoración (rating: mu, the estimate of the skill, and sigma, its uncertainty), puntos
(the peña's points ranking), abandono (a forfeit lost: the pair did not play the match it had),
compañero (partner), cara a cara (head to head).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

#: OpenSkill's defaults: a new player is mu 25, sigma 25/3, and shows as 0 (mu − 3·sigma)
MU = 25.0
SIGMA = 25.0 / 3.0

#: the points ranking of online Mus rooms
POINTS_WIN = 12
POINTS_LOSS = -10
POINTS_ABANDON = -20

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class Outcome(enum.StrEnum):
    """How a match ended for side A."""

    A = "a"  # side A won
    B = "b"  # side B won
    DRAW = "draw"


class Result(enum.StrEnum):
    """How a match ended for one player."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    WALKOVER = "walkover"  # won because the other side did not play
    ABANDON = "abandon"  # lost by not playing (a forfeit lost)


POINTS = {
    Result.WIN: POINTS_WIN,
    Result.WALKOVER: POINTS_WIN,
    Result.LOSS: POINTS_LOSS,
    Result.ABANDON: POINTS_ABANDON,
    Result.DRAW: 0,
}


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> float:
        """The number people see: mu − 3·sigma (0 for a newcomer; it rises as games show)."""
        return self.mu - 3.0 * self.sigma


NEW = Rating()


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One confirmed match. ``key`` orders the matches (the order they were played)."""

    key: str
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    outcome: Outcome
    #: the losing side did not play (a forfeit): points only, ratings unchanged
    forfeit: bool = False
    club_id: int | None = None


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A player's rating after one match, and what the match gave them."""

    key: str
    player_id: int
    side: str  # "a" or "b"
    result: Result
    before: Rating
    after: Rating
    points: int


@dataclass
class RatingRun:
    """The outcome of rating a sequence: every player's last rating and the history, in order."""

    ratings: dict[int, Rating] = field(default_factory=dict)
    history: list[HistoryRow] = field(default_factory=list)


def _results(record: MatchRecord) -> tuple[Result, Result]:
    if record.outcome is Outcome.DRAW:
        return Result.DRAW, Result.DRAW
    if record.forfeit:
        won, lost = Result.WALKOVER, Result.ABANDON
    else:
        won, lost = Result.WIN, Result.LOSS
    return (won, lost) if record.outcome is Outcome.A else (lost, won)


def rate(records: Iterable[MatchRecord], start: Mapping[int, Rating] | None = None) -> RatingRun:
    """Rate ``records`` in the order given, from the ratings in ``start`` (newcomers: NEW).

    Deterministic: the same records from the same start give the same floats, so a run cut at
    any match and continued from the ratings stored there ends exactly where one run ends.
    """
    start = start or {}
    # OpenSkill's own rating objects carry the state from match to match (making one costs a
    # uuid); a player's is made once, from ``start`` or new.
    current: dict = {}
    history: list[HistoryRow] = []
    append = history.append
    model_rate = _MODEL.rate
    create = _MODEL.create_rating

    def rating_of(player: int):
        found = current.get(player)
        if found is None:
            old = start.get(player, NEW)
            found = current[player] = create([old.mu, old.sigma])
        return found

    for record in records:
        result_a, result_b = _results(record)
        team_a = [rating_of(p) for p in record.side_a]
        team_b = [rating_of(p) for p in record.side_b]
        if record.forfeit:
            new_a, new_b = team_a, team_b
        else:
            if record.outcome is Outcome.A:
                ranks = [1, 2]
            elif record.outcome is Outcome.B:
                ranks = [2, 1]
            else:
                ranks = [1, 1]
            new_a, new_b = model_rate([team_a, team_b], ranks=ranks)
        for side, players, before, after, result in (
            ("a", record.side_a, team_a, new_a, result_a),
            ("b", record.side_b, team_b, new_b, result_b),
        ):
            points = POINTS[result]
            for player, old, new in zip(players, before, after, strict=True):
                current[player] = new
                append(
                    HistoryRow(
                        record.key,
                        player,
                        side,
                        result,
                        Rating(old.mu, old.sigma),
                        Rating(new.mu, new.sigma),
                        points,
                    )
                )
    ratings = dict(start)
    ratings.update((p, Rating(r.mu, r.sigma)) for p, r in current.items())
    return RatingRun(ratings, history)


# --- What a player's page shows: plain summaries over their matches ---------------------------


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A match from one player's side: who played with them, against whom, how it went."""

    key: str
    partners: tuple[int, ...]
    opponents: tuple[int, ...]
    result: Result


@dataclass(frozen=True, slots=True)
class Tally:
    """Matches, wins and losses (forfeits included) of a player with or against somebody."""

    player_id: int
    matches: int
    wins: int
    losses: int

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


_WON = (Result.WIN, Result.WALKOVER)
_LOST = (Result.LOSS, Result.ABANDON)


def _tally(matches: Sequence[PlayedMatch], people) -> list[Tally]:
    counts: dict[int, list[int]] = {}
    for match in matches:
        for other in people(match):
            row = counts.setdefault(other, [0, 0, 0])
            row[0] += 1
            row[1] += match.result in _WON
            row[2] += match.result in _LOST
    return [Tally(p, *row) for p, row in counts.items()]


def partners(matches: Sequence[PlayedMatch]) -> list[Tally]:
    """Everybody the player played with: most matches first, then most wins, then by id."""
    rows = _tally(matches, lambda m: m.partners)
    return sorted(rows, key=lambda t: (-t.matches, -t.wins, t.player_id))


def best_partner(matches: Sequence[PlayedMatch], *, min_matches: int = 3) -> Tally | None:
    """The partner with the best share of wins among those with ``min_matches`` together
    (then more matches, then by id); None while nobody has played that many with them."""
    rows = [t for t in partners(matches) if t.matches >= min_matches]
    if not rows:
        return None
    return min(rows, key=lambda t: (-t.win_share, -t.matches, t.player_id))


def head_to_head(matches: Sequence[PlayedMatch], other: int) -> list[PlayedMatch]:
    """The matches the player played against ``other``, in order."""
    return [m for m in matches if other in m.opponents]


def opponents(matches: Sequence[PlayedMatch]) -> list[Tally]:
    """Everybody the player played against (for head to head): most matches first."""
    rows = _tally(matches, lambda m: m.opponents)
    return sorted(rows, key=lambda t: (-t.matches, -t.wins, t.player_id))
