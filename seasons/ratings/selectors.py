"""Reads of the ratings: a peña's ranking, a player's ratings and matches, head to head.

Responsible for: the rows the API and the public pages show, each in a fixed, small number of
queries whatever the number of players or matches: the ranking is read from the stored ranking
rows (one query a page, one for the count); a player's page from their entries joined to the
matches (one query) and the names of the people in them (one query). Everything here is
public, like a published tournament's standings: names, ratings and results, no contacts; a
private tournament's match counts but is not named.

Must not: write or re-rate (seasons.ratings.services does); compute a rating.

Terms: valoración (rating), puntos (points ranking), compañero (partner), cara a cara (head to
head), abandono (a forfeit lost).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.db.models import QuerySet

from clubs.identity.selectors import player_now
from clubs.models import Club, Player
from config.errors import Invalid, NotFound
from seasons.ratings import rate
from seasons.ratings.models import RankingRow, RankingSettings, RatedMatch, RatingEntry

ORDERS = ("rating", "points")
#: players on one page of a peña's ranking (a phone reads it; the whole list can be 10,000)
RANKING_PAGE_SIZE = 100


def ranking_shows(*, club: Club) -> str:
    """What the peña chose to show: "both" (the default), "rating" or "points"."""
    found = RankingSettings.objects.filter(club=club).values_list("shows", flat=True).first()
    return found or RankingSettings.Shows.BOTH


def ranking_for_club(*, club: Club, order: str = "rating") -> QuerySet[RankingRow]:
    """The peña's players who played its matches, best first by ``order`` ("rating" or
    "points"), then the other figure, then by name."""
    if order not in ORDERS:
        raise Invalid(
            "A ranking is ordered by 'rating' or 'points', not '{order}'.",
            code="ranking_order_unknown",
            order=str(order)[:40],
        )
    other = "points" if order == "rating" else "rating"
    return (
        RankingRow.objects.filter(club=club)
        .select_related("player")
        .order_by(f"-{order}", f"-{other}", "player__last_name", "player__first_name", "player_id")
    )


@dataclass(frozen=True)
class RankingPage:
    shows: str
    order: str
    page: int
    pages: int
    count: int
    first_position: int
    rows: list[RankingRow]


def ranking_page(*, club: Club, order: str = "", page: str | int = 1) -> RankingPage:
    """One page of the peña's ranking (three queries: the choice, the count, the rows).
    ``order``: "rating" or "points"; empty: what the peña shows first."""
    shows = ranking_shows(club=club)
    if not order:
        order = "points" if shows == RankingSettings.Shows.POINTS else "rating"
    rows = ranking_for_club(club=club, order=order)
    try:
        number = int(page)
    except (TypeError, ValueError):
        raise Invalid(
            "'{page}' is not a page number.", code="page_not_a_number", page=str(page)[:20]
        ) from None
    count = rows.count()
    pages = max(1, math.ceil(count / RANKING_PAGE_SIZE))
    if not 1 <= number <= pages:
        raise NotFound(
            "There is no page {page}: pages go from 1 to {pages}.",
            code="page_out_of_range",
            page=number,
            pages=pages,
        )
    start = (number - 1) * RANKING_PAGE_SIZE
    return RankingPage(
        shows=shows,
        order=order,
        page=number,
        pages=pages,
        count=count,
        first_position=start + 1,
        rows=list(rows[start : start + RANKING_PAGE_SIZE]),
    )


def rated_player_get(*, player_id: int) -> Player:
    """A player who has played at least one rated match (the others have no rating page)."""
    player = Player.objects.filter(pk=player_id, rating_entries__isnull=False).first()
    if player is None:
        person = player_now(player_id=player_id)
        if person is not None and person.pk != player_id:
            raise NotFound(
                "Player {player_id} is one person with player {into_id} now: the ratings are "
                "that player's.",
                code="rated_player_merged",
                player_id=player_id,
                into_id=person.pk,
            )
        raise NotFound(
            "Player {player_id} has no rated match.",
            code="rated_player_not_found",
            player_id=player_id,
        )
    return player


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating after one match, with the match as the pages show it.

    ``match_id`` is the tournament match's id (``RatedMatch.source_id``), never the rated row's
    own: the rows are numbered apart (an unrated match, a bye, has none). ``url`` is the
    match on its round's public page (``#partida-<id>``), blank for a private tournament."""

    match_id: int
    played_at: dt.datetime
    event: str
    stage: str
    url: str
    club_id: int
    partners: tuple[int, ...]
    opponents: tuple[int, ...]
    result: str
    games_for: int
    games_against: int
    points: int
    mu: float
    sigma: float
    rating: float
    rating_before: float


@dataclass(frozen=True)
class PlayerRatings:
    """Everything a player's page shows, with the names of everybody in it."""

    player: Player
    history: list[HistoryPoint]
    names: dict[int, str]
    rows: list[RankingRow]

    @property
    def current(self) -> HistoryPoint | None:
        return self.history[-1] if self.history else None

    def against(self, other: int) -> list[HistoryPoint]:
        """The matches played against ``other``, oldest first."""
        return [h for h in self.history if other in h.opponents]

    def played(self) -> list[rate.PlayedMatch]:
        return [
            rate.PlayedMatch(
                key=str(h.match_id),
                partners=h.partners,
                opponents=h.opponents,
                result=rate.Result(h.result),
            )
            for h in self.history
        ]


def match_url(rated: RatedMatch) -> str:
    """Where a rated match is shown: its round's public page, at the match (the page marks
    each match ``partida-<id>`` with the tournament match's id); blank when it has none."""
    if not rated.url:
        return ""
    # ?partida= opens the page of the round holding it (a federation's round is 100 tables a
    # page), where the anchor finds it
    return f"{rated.url}?partida={rated.source_id}#partida-{rated.source_id}"


def player_ratings(*, player: Player) -> PlayerRatings:
    """The player's history of ratings, oldest first, and their lines in each peña's ranking
    (three queries whatever the number of matches)."""
    entries = list(
        RatingEntry.objects.filter(player=player)
        .select_related("match")
        .order_by("order_key")
        .only(
            "order_key",
            "side",
            "result",
            "points",
            "mu",
            "sigma",
            "rating",
            "mu_before",
            "sigma_before",
            "club_id",
            "match__source_id",
            "match__played_at",
            "match__event",
            "match__stage",
            "match__url",
            "match__is_public",
            "match__players_a",
            "match__players_b",
            "match__games_a",
            "match__games_b",
        )
    )
    history = []
    people: set[int] = set()
    for e in entries:
        m: RatedMatch = e.match
        own, other = (m.players_a, m.players_b) if e.side == "a" else (m.players_b, m.players_a)
        games = (m.games_a, m.games_b) if e.side == "a" else (m.games_b, m.games_a)
        partners = tuple(p for p in own if p != player.pk)
        people.update(partners, other)
        history.append(
            HistoryPoint(
                match_id=m.source_id,
                played_at=m.played_at,
                event=m.event if m.is_public else "",  # a private tournament is not named
                stage=m.stage if m.is_public else "",
                url=match_url(m) if m.is_public else "",
                club_id=e.club_id,
                partners=partners,
                opponents=tuple(other),
                result=e.result,
                games_for=games[0],
                games_against=games[1],
                points=e.points,
                mu=e.mu,
                sigma=e.sigma,
                rating=e.rating,
                rating_before=e.mu_before - 3 * e.sigma_before,
            )
        )
    names = {
        p.pk: str(p) for p in Player.objects.filter(pk__in=people).only("first_name", "last_name")
    }
    names[player.pk] = str(player)
    rows = list(
        RankingRow.objects.filter(player=player).select_related("club").order_by("club__name")
    )
    return PlayerRatings(player=player, history=history, names=names, rows=rows)


def head_to_head(
    *, player: Player, other_id: int
) -> tuple[PlayerRatings, Player, list[HistoryPoint]]:
    """The player's ratings, the other player, and the matches between them (oldest first)."""
    other = rated_player_get(player_id=other_id)
    if other.pk == player.pk:
        raise Invalid("Head to head needs two different players.", code="head_to_head_same_player")
    mine = player_ratings(player=player)
    return mine, other, mine.against(other.pk)
