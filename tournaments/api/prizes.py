"""API of the prizes across phases: the prizes a tournament's bases declare and who won them.

Responsible for: the prize's shapes the tournament's create and update take and show
(``PrizeInputSerializer``, ``PrizeOutputSerializer``) and ``GET tournaments/{id}/prizes``: the
prizes declared and, once the tournament finished, those awarded, each with its winners (as the
standings name them), its value, whether it is shared and what decided it.

Must not: check a prize (tournaments.draw.prizes does, through the services, and names the
prize that is wrong), decide a winner, or build an error body.

Terms: premio (prize), fase (phase), grupo (group), sorteo (lots).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.selectors.prizes import prizes_of_tournament


class PrizeInputSerializer(serializers.Serializer):
    """A prize as the bases declare it. Typed only: what its values may be is
    tournaments.draw.prizes' to say, naming the prize (a key it does not read too)."""

    name = serializers.CharField(help_text="e.g. 'Premio a la peor pareja'", trim_whitespace=False)
    kind = serializers.CharField(
        help_text="most (most of the measure), fewest (fewest: the worst pair) or group_best "
        "(the first of each group, by the group's standings)"
    )
    measure = serializers.CharField(
        required=False,
        help_text="what it counts: won (default), points, stone_difference, game_difference, "
        "stones_won or games_won",
    )
    phases = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="the phases it counts, by their order in the tournament (1 the first); "
        "empty or left out: every phase",
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="measures that break a tie, in order (not for group_best)",
    )
    ties = serializers.CharField(
        required=False,
        help_text="a tie still standing: shared (default: every pair level wins it) or lots "
        "(one of them, by a draw seeded by the tournament's draw seed)",
    )

    class Meta:
        ref_name = "PrizeInput"

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        values = super().to_internal_value(data)
        if isinstance(data, Mapping):  # the prizes' reader names a key it does not read
            values.update({k: v for k, v in data.items() if k not in self.fields})
        return values


class PrizeOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.CharField()
    measure = serializers.CharField()
    phases = serializers.ListField(child=serializers.IntegerField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    ties = serializers.CharField()

    class Meta:
        ref_name = "Prize"


class PrizeWinnerSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(
        help_text="the pair's entry (a player's IndividualEntry when players enter alone)"
    )
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())

    class Meta:
        ref_name = "PrizeWinner"


class AwardSerializer(serializers.Serializer):
    prize = serializers.IntegerField(help_text="the prize's place in the list, from 0")
    name = serializers.CharField()
    kind = serializers.CharField()
    measure = serializers.CharField()
    phase = serializers.IntegerField(
        allow_null=True, help_text="group_best: the order of the group's phase"
    )
    phase_name = serializers.CharField(allow_null=True)
    group = serializers.CharField(
        allow_null=True, help_text="group_best: the group (null: a phase without groups)"
    )
    winners = PrizeWinnerSerializer(
        many=True, help_text="several when shared; none if nobody played"
    )
    value = serializers.IntegerField(
        allow_null=True, help_text="the winners' figure of the measure"
    )
    shared = serializers.BooleanField()
    decided_by = serializers.CharField(
        allow_null=True,
        help_text="the tiebreak that left the winners alone, 'lots' for a draw of lots, null "
        "when the measure itself did",
    )

    class Meta:
        ref_name = "PrizeAward"


class TournamentPrizesApi(APIView):
    class OutputSerializer(serializers.Serializer):
        tournament_id = serializers.IntegerField(source="tournament.id")
        status = serializers.CharField(source="tournament.status")
        prizes = PrizeOutputSerializer(many=True)
        awards = AwardSerializer(
            many=True, help_text="empty until the tournament finishes: the final standings decide"
        )
        awarded_at = serializers.DateTimeField(allow_null=True)

        class Meta:
            ref_name = "TournamentPrizes"

    @extend_schema(
        operation_id="tournament_prizes",
        request=None,
        responses={200: OutputSerializer},
        summary="The prizes the bases declare across phases, and their winners once finished",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        data = prizes_of_tournament(user=request.user, tournament_id=tournament_id)
        return Response(self.OutputSerializer(data).data)


urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/prizes",
        TournamentPrizesApi.as_view(),
        name="tournament-prizes",
    ),
]
