"""API of the ratings: a peña's ranking (and its choice of ranking), a player's ratings and
history, head to head between two players.

Responsible for: turning requests into calls of seasons.ratings.selectors and
seasons.ratings.services and their results into JSON. Reads are public, like a published
tournament's standings; the one write is the peña's choice, POST on its own action path.

Must not: check roles, rate, or build an error body.

Terms: valoración (rating: mu − 3·sigma), puntos (the points ranking: +12, −10, −20),
abandono (a forfeit lost), compañero (partner), cara a cara (head to head).
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors
from config.inputs import Input
from seasons.ratings import rate
from seasons.ratings import selectors as ratings_selectors
from seasons.ratings.services import ranking_settings_set


def _round(value: float) -> float:
    return round(value, 3)


class RankingRowOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    abandons = serializers.IntegerField()
    points = serializers.IntegerField()

    class Meta:
        ref_name = "ClubRankingRow"


class RankingApi(APIView):
    """One page (100 players) of a peña's ranking: by rating (OpenSkill, every match anywhere)
    or by points (+12 a win, −10 a loss, −20 a forfeit lost, the peña's matches only)."""

    class OutputSerializer(serializers.Serializer):
        club_id = serializers.IntegerField()
        shows = serializers.CharField(help_text="what the peña shows: both, rating or points")
        order = serializers.CharField()
        page = serializers.IntegerField()
        pages = serializers.IntegerField()
        count = serializers.IntegerField()
        results = RankingRowOutputSerializer(many=True)

        class Meta:
            ref_name = "ClubRanking"

    @extend_schema(
        operation_id="club_ranking",
        parameters=[
            OpenApiParameter(
                "order", str, enum=list(ratings_selectors.ORDERS), description="default: the peña's"
            ),
            OpenApiParameter("page", int, description="from 1; 100 players a page"),
        ],
        responses=OutputSerializer,
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(club_id=club_id)
        page = ratings_selectors.ranking_page(
            club=club,
            order=request.query_params.get("order", ""),
            page=request.query_params.get("page", "1"),
        )
        results = [
            {
                "position": page.first_position + i,
                "player_id": row.player_id,
                "name": str(row.player),
                "rating": _round(row.rating),
                "mu": _round(row.mu),
                "sigma": _round(row.sigma),
                "matches": row.matches,
                "wins": row.wins,
                "losses": row.losses,
                "abandons": row.abandons,
                "points": row.points,
            }
            for i, row in enumerate(page.rows)
        ]
        data = {
            "club_id": club.pk,
            "shows": page.shows,
            "order": page.order,
            "page": page.page,
            "pages": page.pages,
            "count": page.count,
            "results": results,
        }
        return Response(self.OutputSerializer(data).data)


class RankingSettingsApi(APIView):
    """Choose which ranking the peña's page shows (its organizers): rating, points or both."""

    class InputSerializer(Input):
        shows = serializers.CharField()

        class Meta:
            ref_name = "ClubRankingSettingsInput"

    class OutputSerializer(serializers.Serializer):
        club_id = serializers.IntegerField()
        shows = serializers.CharField()

        class Meta:
            ref_name = "ClubRankingSettings"

    @extend_schema(
        operation_id="club_ranking_settings", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        settings = ranking_settings_set(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            shows=data.validated_data["shows"],
        )
        return Response(self.OutputSerializer(settings).data)


class HistoryPointOutputSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(
        help_text="the tournament match's id (the one its round and history name)"
    )
    played_at = serializers.DateTimeField(
        help_text="when its round was published (the order the matches are rated in)"
    )
    event = serializers.CharField()
    stage = serializers.CharField()
    club_id = serializers.IntegerField()
    partners = serializers.ListField(child=serializers.IntegerField())
    opponents = serializers.ListField(child=serializers.IntegerField())
    result = serializers.ChoiceField(choices=[r.value for r in rate.Result])
    games_for = serializers.IntegerField()
    games_against = serializers.IntegerField()
    points = serializers.IntegerField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()

    class Meta:
        ref_name = "ClubRatingHistoryPoint"


class TallyOutputSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()

    class Meta:
        ref_name = "ClubRatingTally"


def _history(points) -> list[dict]:
    return [
        {
            "match_id": h.match_id,
            "played_at": h.played_at,
            "event": h.event,
            "stage": h.stage,
            "club_id": h.club_id,
            "partners": list(h.partners),
            "opponents": list(h.opponents),
            "result": h.result,
            "games_for": h.games_for,
            "games_against": h.games_against,
            "points": h.points,
            "rating": _round(h.rating),
            "mu": _round(h.mu),
            "sigma": _round(h.sigma),
        }
        for h in points
    ]


def _tally(tally: rate.Tally | None, names: dict[int, str]) -> dict | None:
    if tally is None:
        return None
    return {
        "player_id": tally.player_id,
        "name": names.get(tally.player_id, ""),
        "matches": tally.matches,
        "wins": tally.wins,
        "losses": tally.losses,
    }


class ClubLineOutputSerializer(serializers.Serializer):
    club_id = serializers.IntegerField()
    club_name = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    abandons = serializers.IntegerField()
    points = serializers.IntegerField()

    class Meta:
        ref_name = "ClubRatingClubLine"


class PlayerRatingsApi(APIView):
    """A player's rating now, their lines in each peña's ranking, every rated match with the
    rating after it (oldest first), their partners and best partner."""

    class OutputSerializer(serializers.Serializer):
        player_id = serializers.IntegerField()
        name = serializers.CharField()
        rating = serializers.FloatField()
        mu = serializers.FloatField()
        sigma = serializers.FloatField()
        matches = serializers.IntegerField()
        clubs = ClubLineOutputSerializer(many=True)
        partners = TallyOutputSerializer(many=True)
        best_partner = TallyOutputSerializer(allow_null=True)
        history = HistoryPointOutputSerializer(many=True)

        class Meta:
            ref_name = "ClubPlayerRatings"

    @extend_schema(operation_id="player_ratings", responses=OutputSerializer)
    def get(self, request: Request, player_id: int) -> Response:
        player = ratings_selectors.rated_player_get(player_id=player_id)
        found = ratings_selectors.player_ratings(player=player)
        played = found.played()
        current = found.current
        data = {
            "player_id": player.pk,
            "name": str(player),
            "rating": _round(current.rating),
            "mu": _round(current.mu),
            "sigma": _round(current.sigma),
            "matches": len(found.history),
            "clubs": [
                {
                    "club_id": row.club_id,
                    "club_name": row.club.name,
                    "matches": row.matches,
                    "wins": row.wins,
                    "losses": row.losses,
                    "abandons": row.abandons,
                    "points": row.points,
                }
                for row in found.rows
            ],
            "partners": [_tally(t, found.names) for t in rate.partners(played)],
            "best_partner": _tally(rate.best_partner(played), found.names),
            "history": _history(found.history),
        }
        return Response(self.OutputSerializer(data).data)


class HeadToHeadApi(APIView):
    """The matches two players played against each other, and how many each won."""

    class OutputSerializer(serializers.Serializer):
        player_id = serializers.IntegerField()
        name = serializers.CharField()
        other_id = serializers.IntegerField()
        other_name = serializers.CharField()
        matches = serializers.IntegerField()
        wins = serializers.IntegerField()
        losses = serializers.IntegerField()
        history = HistoryPointOutputSerializer(many=True)

        class Meta:
            ref_name = "ClubHeadToHead"

    class QuerySerializer(serializers.Serializer):
        other = serializers.IntegerField(min_value=1, help_text="the other player's id")

        class Meta:
            ref_name = "ClubHeadToHeadQuery"

    @extend_schema(
        operation_id="player_head_to_head",
        parameters=[QuerySerializer],
        responses=OutputSerializer,
    )
    def get(self, request: Request, player_id: int) -> Response:
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player = ratings_selectors.rated_player_get(player_id=player_id)
        _, other, matches = ratings_selectors.head_to_head(
            player=player, other_id=query.validated_data["other"]
        )
        won = {rate.Result.WIN, rate.Result.WALKOVER}
        lost = {rate.Result.LOSS, rate.Result.ABANDON}
        data = {
            "player_id": player.pk,
            "name": str(player),
            "other_id": other.pk,
            "other_name": str(other),
            "matches": len(matches),
            "wins": sum(h.result in won for h in matches),
            "losses": sum(h.result in lost for h in matches),
            "history": _history(matches),
        }
        return Response(self.OutputSerializer(data).data)


# --- Paths (config/api.py mounts them in the namespace ``ratings``) --------------------

_CLUB = "clubs/<int:club_id>"

urlpatterns = [
    path(f"{_CLUB}/ranking", RankingApi.as_view(), name="club-ranking"),
    path(
        f"{_CLUB}/ranking/settings",
        RankingSettingsApi.as_view(),
        name="club-ranking-settings",
    ),
    path("players/<int:player_id>/ratings", PlayerRatingsApi.as_view(), name="player-ratings"),
    path(
        "players/<int:player_id>/head-to-head",
        HeadToHeadApi.as_view(),
        name="player-head-to-head",
    ),
]
