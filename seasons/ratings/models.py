"""The ratings' rows: every rated match, each player's rating after it, and the peñas' rankings.

Responsible for: what seasons/ratings/services.py stores from the pure core
(seasons/ratings/rate.py) and the pages read: RatedMatch (a confirmed match as the ratings see
it), RatingEntry (a player's rating after one match: the chart's points), RankingRow (a
player's line in a peña's ranking), RankingSettings (which ranking a peña shows) and
RatingsLock (the one row every re-rating locks). These rows were the clubs app's until the
ratings got a floor of their own; migration 0001 of this app took them over with their data.

Must not: hold a rule (the pure core and the services do).

Terms: valoración (rating), puntos (the points ranking), abandono (a forfeit lost).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


class RatedMatch(models.Model):
    """A confirmed match as the ratings see it, whatever it came from (a tournament's match
    today, a league's tomorrow): who played on each side, how it ended, when it was played.

    ``order_key`` is the order the matches are rated in: the time it was played (UTC, fixed
    width), then the source and its id, so the order never depends on when a result arrived.
    """

    class Source(models.TextChoices):
        TOURNAMENT = "tournament", _("torneo")

    class Outcome(models.TextChoices):
        A = "a", _("gana el lado A")
        B = "b", _("gana el lado B")
        DRAW = "draw", _("empate")

    source = models.CharField(max_length=16, choices=Source.choices)
    source_id = models.PositiveBigIntegerField()
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rated_matches")
    order_key = models.CharField(max_length=64, unique=True)
    played_at = models.DateTimeField()
    #: what the pages show: the event (a tournament's name) and the stage in it ("Suizo R3")
    event = models.CharField(max_length=160)
    stage = models.CharField(max_length=120, blank=True)
    #: where the match is shown (a path of the site), blank when it has no public page
    url = models.CharField(max_length=200, blank=True)
    #: player ids of each side (two for a pair; one or three when other forms land)
    players_a = models.JSONField()
    players_b = models.JSONField()
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    #: the loser did not play: the points ranking counts it, the ratings do not move
    forfeit = models.BooleanField(default=False)
    #: False for a private tournament's match: it rates, but the pages do not say where it was
    is_public = models.BooleanField(default=True)
    #: juegos of each side, for the pages
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("partida valorada")
        verbose_name_plural = _("partidas valoradas")
        ordering = ["order_key"]
        constraints = [
            models.UniqueConstraint(fields=["source", "source_id"], name="rated_match_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.stage}".strip()


class RatingEntry(models.Model):
    """A player's rating after one rated match (the chart's points), and what it gave them.

    Rewritten by seasons.ratings.services for the matches a change reaches (the changed match and
    every later one sharing a player with what changed): never edited by hand.
    """

    # No index of their own: (match, player) is unique and (player, order_key) is indexed; a
    # season rebuilt from scratch writes hundreds of thousands of these rows.
    match = models.ForeignKey(
        RatedMatch, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_entries", db_index=False
    )
    #: copies of the match's, so that a player's history is read from one index
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    order_key = models.CharField(max_length=64)
    side = models.CharField(max_length=1)
    result = models.CharField(max_length=8)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    #: mu − 3·sigma, the rating shown
    rating = models.FloatField()
    points = models.SmallIntegerField()

    class Meta:
        # by the columns: "player" would order by the player's name, through a join
        ordering = ["player_id", "order_key"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_entry_once"),
        ]
        indexes = [
            models.Index(fields=["player", "order_key"], name="rating_entry_history"),
            # none on order_key alone: a re-rating scans the table once or twice, where an
            # index would be updated for each of the hundreds of thousands of rows it writes
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.order_key}: {self.rating:.2f}"


class RankingRow(models.Model):
    """A player's line in a peña's ranking: the peña's matches and points, and the player's
    rating (from every match anywhere). Rebuilt with the entries; the pages only read it."""

    club = models.ForeignKey(  # (club, player) is unique: that index serves the club too
        Club, on_delete=models.CASCADE, related_name="ranking_rows", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ranking_rows")
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    abandons = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="ranking_row_once"),
        ]
        indexes = [
            models.Index(fields=["club", "-rating"], name="ranking_by_rating"),
            models.Index(fields=["club", "-points"], name="ranking_by_points"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.player_id}"


class RankingSettings(models.Model):
    """Which ranking a peña's page shows: the rating, the points, or both (the default)."""

    class Shows(models.TextChoices):
        BOTH = "both", _("valoración y puntos")
        RATING = "rating", _("valoración")
        POINTS = "points", _("puntos")

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="ranking_settings")
    shows = models.CharField(max_length=8, choices=Shows.choices, default=Shows.BOTH)

    def __str__(self) -> str:
        return f"{self.club_id}: {self.shows}"


class RatingsLock(models.Model):
    """One row, locked by every re-rating: two never interleave (they touch the same players)."""

    def __str__(self) -> str:
        return "ratings lock"
