"""API of championships: whole paths under /api/v1/ (championships/…).

Responsible for: turning requests into calls of seasons.championships.selectors and .services,
and their answers into JSON: the championships' list, a championship with its peñas, centres,
stages and every tournament's progress and qualified pairs (what its organizers' desk shows,
what is late included), a centre's part of it, the final's bracket, and each write (create,
update, a peña, an organizer, a centre, a stage, a tournament) as POST on its own action
path. Reads are public (a private championship exists only for its peñas' and centres'
organizers and members). ``urlpatterns`` lists the paths (config/api.py mounts them in the
namespace ``championships``).

Must not: check roles, decide who qualifies, or build an error body (config.errors does).

Terms: campeonato (championship), centro (centre), fase (stage), clasificatoria (qualifier),
cupo (quota), clasificado (qualified).
"""

from __future__ import annotations

from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from config.inputs import Input
from seasons.championships import selectors, services
from seasons.championships.models import Centre, Championship, Stage
from seasons.championships.selectors import Board, StopView
from tournaments.models import Tournament


class ClubRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()

    class Meta:
        ref_name = "ChampionshipClub"


class CentreSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = ClubRefSerializer()
    rank = serializers.IntegerField(allow_null=True, help_text="1: the best-ranked centre")
    quota = serializers.IntegerField(
        allow_null=True, help_text="its own fixed quota, where the stage's is fixed"
    )

    class Meta:
        ref_name = "ChampionshipCentre"


class QualifiedSerializer(serializers.Serializer):
    from_tournament_id = serializers.IntegerField(help_text="the tournament it qualified in")
    from_pairs_played = serializers.IntegerField(
        allow_null=True, help_text="the pairs that played there"
    )
    from_players_played = serializers.IntegerField(
        allow_null=True, help_text="the players who took part there (substitutes included)"
    )
    position = serializers.IntegerField(help_text="its order among the qualified (1: first)")
    place = serializers.IntegerField(help_text="its final place in the tournament")
    entry_id = serializers.IntegerField()
    pair_id = serializers.IntegerField()
    pair = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    centre_id = serializers.IntegerField(allow_null=True)
    next_tournament_id = serializers.IntegerField(allow_null=True)
    next_entry_id = serializers.IntegerField(
        allow_null=True, help_text="its entry in the next stage's tournament, once registered"
    )

    class Meta:
        ref_name = "ChampionshipQualified"


class StageTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the tournament's row in the championship")
    tournament_id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    club = ClubRefSerializer()
    starts_on = serializers.DateField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    centre_id = serializers.IntegerField(allow_null=True)
    feeds_id = serializers.IntegerField(allow_null=True)
    entries = serializers.IntegerField(help_text="pairs registered or checked in")
    rounds = serializers.IntegerField()
    rounds_closed = serializers.IntegerField()
    matches = serializers.IntegerField()
    matches_confirmed = serializers.IntegerField()
    late = serializers.BooleanField(help_text="its stage's deadline passed and it is not finished")
    pairs_played = serializers.IntegerField(allow_null=True)
    players_played = serializers.IntegerField(
        allow_null=True, help_text="the players of its pairs and its substitutes"
    )
    quota = serializers.IntegerField(allow_null=True)
    flowed_at = serializers.DateTimeField(allow_null=True)
    flow_note = serializers.CharField(
        help_text="why its qualified pairs did not reach the next stage, if they did not"
    )
    qualified = QualifiedSerializer(many=True)
    incoming = QualifiedSerializer(many=True, help_text="the pairs it received")

    class Meta:
        ref_name = "ChampionshipTournament"


class StageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    order = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Stage.Kind.choices)
    quota_rule = serializers.ChoiceField(choices=Stage.Quota.choices)
    quota_number = serializers.IntegerField()
    quota_minimum = serializers.IntegerField()
    quota_table = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateField(allow_null=True)
    tournaments = StageTournamentSerializer(many=True)

    class Meta:
        ref_name = "ChampionshipStage"


class ChampionshipOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    region = serializers.CharField()
    season = serializers.CharField()
    is_public = serializers.BooleanField()
    member_changes = serializers.IntegerField(
        help_text="how many of its players a pair may change on the day of each stage"
    )
    clubs = ClubRefSerializer(many=True, help_text="the peñas whose organizers run it")
    centres = CentreSerializer(many=True)
    stages = StageSerializer(many=True)
    late = serializers.ListField(
        child=serializers.IntegerField(), help_text="the tournaments (rows) that are late"
    )

    class Meta:
        ref_name = "Championship"


def _club(club) -> dict:
    return {"id": club.pk, "slug": club.slug, "name": club.name}


def _qualified(q) -> dict:
    pair = q.pair
    return {
        "from_tournament_id": q.stop.tournament_id,
        "from_pairs_played": q.stop.pairs_played,
        "from_players_played": q.stop.players_played,
        "position": q.position,
        "place": q.place,
        "entry_id": q.entry_id,
        "pair_id": q.pair_id,
        "pair": str(pair),
        "players": [str(pair.player_one), str(pair.player_two)],
        "centre_id": q.centre_id,
        "next_tournament_id": q.target.tournament_id if q.target_id else None,
        "next_entry_id": q.target_entry_id,
    }


def _stop(view: StopView) -> dict:
    stop, tournament = view.stop, view.tournament
    return {
        "id": stop.pk,
        "tournament_id": tournament.pk,
        "name": tournament.name,
        "slug": tournament.slug,
        "club": _club(tournament.club),
        "starts_on": tournament.starts_on,
        "status": tournament.status,
        "centre_id": stop.centre_id,
        "feeds_id": stop.feeds_id,
        "entries": view.entries,
        "rounds": view.rounds,
        "rounds_closed": view.rounds_closed,
        "matches": view.matches,
        "matches_confirmed": view.matches_confirmed,
        "late": view.late,
        "pairs_played": stop.pairs_played,
        "players_played": stop.players_played,
        "quota": stop.quota,
        "flowed_at": stop.flowed_at,
        "flow_note": stop.flow_note,
        "qualified": [_qualified(q) for q in view.qualified],
        "incoming": [_qualified(q) for q in view.incoming],
    }


def board_data(board: Board) -> dict:
    championship = board.championship
    return {
        "id": championship.pk,
        "slug": championship.slug,
        "name": championship.name,
        "region": championship.region,
        "season": championship.season,
        "is_public": championship.is_public,
        "member_changes": championship.member_changes,
        "clubs": [_club(c) for c in championship.clubs.order_by("name")],
        "centres": [
            {"id": c.pk, "club": _club(c.club), "rank": c.rank, "quota": c.quota}
            for c in board.centres
        ],
        "stages": [
            {
                "id": s.stage.pk,
                "order": s.stage.order,
                "name": s.stage.name,
                "kind": s.stage.kind,
                "quota_rule": s.stage.quota_rule,
                "quota_number": s.stage.quota_number,
                "quota_minimum": s.stage.quota_minimum,
                "quota_table": s.stage.quota_table,
                "deadline": s.stage.deadline,
                "tournaments": [_stop(v) for v in s.stops],
            }
            for s in board.stages
        ],
        "late": [v.stop.pk for v in board.late],
    }


def _answer(championship: Championship, centre: Centre | None = None) -> dict:
    board = selectors.championship_board(
        championship=championship, today=timezone.localdate(), centre=centre
    )
    return ChampionshipOutputSerializer(board_data(board)).data


def _get(request: Request, championship_id: int) -> Championship:
    return selectors.championship_get_by_id(championship_id=championship_id, user=request.user)


def _valid(serializer_class, request: Request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


class ChampionshipListApi(APIView):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        slug = serializers.CharField()
        name = serializers.CharField()
        region = serializers.CharField()
        season = serializers.CharField()
        is_public = serializers.BooleanField()

        class Meta:
            ref_name = "ChampionshipListItem"

    @extend_schema(operation_id="championship_list", responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        championships = selectors.championship_list(user=request.user)
        return Response(self.OutputSerializer(championships, many=True).data)


class ChampionshipInputSerializer(Input):
    name = serializers.CharField(max_length=400, required=False)
    region = serializers.CharField(max_length=400, required=False, allow_blank=True)
    season = serializers.CharField(max_length=400, required=False, allow_blank=True)
    is_public = serializers.BooleanField(
        required=False,
        help_text="false: only the organizers and members of its peñas and centres see it",
    )
    member_changes = serializers.IntegerField(
        required=False, help_text="0, 1 or 2: the players a pair may change on the day"
    )

    class Meta:
        ref_name = "ChampionshipInput"


class ChampionshipCreateApi(APIView):
    class InputSerializer(ChampionshipInputSerializer):
        club_id = serializers.IntegerField(help_text="its first peña (you organize it)")
        slug = serializers.CharField(max_length=80, required=False, allow_blank=True)
        name = serializers.CharField(max_length=400)

        class Meta:
            ref_name = "ChampionshipCreateInput"

    @extend_schema(
        operation_id="championship_create",
        request=InputSerializer,
        responses={201: ChampionshipOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = _valid(self.InputSerializer, request)
        club = club_selectors.club_get(club_id=values.pop("club_id"))
        championship = services.championship_create(
            actor=request.user, club=club, slug=values.pop("slug", ""), **values
        )
        return Response(_answer(championship), status=201)


class ChampionshipDetailApi(APIView):
    """The championship with every tournament's progress and qualified pairs."""

    @extend_schema(operation_id="championship_detail", responses=ChampionshipOutputSerializer)
    def get(self, request: Request, championship_id: int) -> Response:
        return Response(_answer(_get(request, championship_id)))


class ChampionshipUpdateApi(APIView):
    @extend_schema(
        operation_id="championship_update",
        request=ChampionshipInputSerializer,
        responses=ChampionshipOutputSerializer,
    )
    def post(self, request: Request, championship_id: int) -> Response:
        data = _valid(ChampionshipInputSerializer, request)
        championship = services.championship_update(
            actor=request.user, championship=_get(request, championship_id), data=data
        )
        return Response(_answer(championship))


class ChampionshipClubAddApi(APIView):
    class InputSerializer(Input):
        club_id = serializers.IntegerField()

        class Meta:
            ref_name = "ChampionshipClubAddInput"

    @extend_schema(
        operation_id="championship_club_add",
        request=InputSerializer,
        responses=ChampionshipOutputSerializer,
    )
    def post(self, request: Request, championship_id: int) -> Response:
        data = _valid(self.InputSerializer, request)
        championship = _get(request, championship_id)
        services.championship_club_add(
            actor=request.user, championship=championship, club_id=data["club_id"]
        )
        return Response(_answer(championship))


class ChampionshipOrganizerAddApi(APIView):
    class InputSerializer(Input):
        username = serializers.CharField(max_length=150)

        class Meta:
            ref_name = "ChampionshipOrganizerAddInput"

    @extend_schema(
        operation_id="championship_organizer_add",
        request=InputSerializer,
        responses=ChampionshipOutputSerializer,
    )
    def post(self, request: Request, championship_id: int) -> Response:
        data = _valid(self.InputSerializer, request)
        championship = _get(request, championship_id)
        services.championship_organizer_add(
            actor=request.user, championship=championship, username=data["username"]
        )
        return Response(_answer(championship))


class CentreInputSerializer(Input):
    rank = serializers.IntegerField(required=False, allow_null=True)
    quota = serializers.IntegerField(required=False, allow_null=True)

    class Meta:
        ref_name = "ChampionshipCentreInput"


class CentreAddApi(APIView):
    class InputSerializer(CentreInputSerializer):
        club_id = serializers.IntegerField(help_text="the peña that runs a qualifier")

        class Meta:
            ref_name = "ChampionshipCentreAddInput"

    @extend_schema(
        operation_id="championship_centre_add",
        request=InputSerializer,
        responses={201: ChampionshipOutputSerializer},
    )
    def post(self, request: Request, championship_id: int) -> Response:
        data = _valid(self.InputSerializer, request)
        championship = _get(request, championship_id)
        services.centre_add(actor=request.user, championship=championship, **data)
        return Response(_answer(championship), status=201)


class CentreUpdateApi(APIView):
    @extend_schema(
        operation_id="championship_centre_update",
        request=CentreInputSerializer,
        responses=ChampionshipOutputSerializer,
    )
    def post(self, request: Request, championship_id: int, centre_id: int) -> Response:
        data = _valid(CentreInputSerializer, request)
        championship = _get(request, championship_id)
        services.centre_update(
            actor=request.user, championship=championship, centre_id=centre_id, data=data
        )
        return Response(_answer(championship))


class CentreDetailApi(APIView):
    """A centre's part of the championship: its qualifiers and the tournaments its qualified
    pairs went to."""

    @extend_schema(
        operation_id="championship_centre_detail", responses=ChampionshipOutputSerializer
    )
    def get(self, request: Request, championship_id: int, club_slug: str) -> Response:
        championship = _get(request, championship_id)
        centre = selectors.centre_get(championship=championship, club_slug=club_slug)
        return Response(_answer(championship, centre))


class StageInputSerializer(Input):
    name = serializers.CharField(max_length=400, required=False)
    quota_rule = serializers.ChoiceField(
        choices=Stage.Quota.choices,
        required=False,
        help_text="fixed: so many per centre; proportional: one per quota_number pairs, at "
        "least quota_minimum; ranking: quota_table by the centres' ranks",
    )
    quota_number = serializers.IntegerField(required=False)
    quota_minimum = serializers.IntegerField(required=False)
    quota_table = serializers.ListField(
        child=serializers.IntegerField(), required=False, max_length=100
    )
    deadline = serializers.DateField(required=False, allow_null=True)

    class Meta:
        ref_name = "ChampionshipStageInput"


class StageAddApi(APIView):
    class InputSerializer(StageInputSerializer):
        kind = serializers.ChoiceField(choices=Stage.Kind.choices)
        name = serializers.CharField(max_length=400)

        class Meta:
            ref_name = "ChampionshipStageAddInput"

    @extend_schema(
        operation_id="championship_stage_add",
        request=InputSerializer,
        responses={201: ChampionshipOutputSerializer},
    )
    def post(self, request: Request, championship_id: int) -> Response:
        data = _valid(self.InputSerializer, request)
        championship = _get(request, championship_id)
        services.stage_add(actor=request.user, championship=championship, **data)
        return Response(_answer(championship), status=201)


class StageUpdateApi(APIView):
    @extend_schema(
        operation_id="championship_stage_update",
        request=StageInputSerializer,
        responses=ChampionshipOutputSerializer,
    )
    def post(self, request: Request, championship_id: int, stage_id: int) -> Response:
        data = _valid(StageInputSerializer, request)
        championship = _get(request, championship_id)
        services.stage_update(
            actor=request.user, championship=championship, stage_id=stage_id, data=data
        )
        return Response(_answer(championship))


class StageTournamentAddApi(APIView):
    class InputSerializer(Input):
        stage_id = serializers.IntegerField()
        tournament_id = serializers.IntegerField()
        centre_id = serializers.IntegerField(
            required=False, allow_null=True, help_text="a qualifier's centre (default: its peña's)"
        )
        feeds_id = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="the next stage's tournament (row id) its qualified pairs go to",
        )

        class Meta:
            ref_name = "ChampionshipTournamentAddInput"

    @extend_schema(
        operation_id="championship_tournament_add",
        request=InputSerializer,
        responses={201: ChampionshipOutputSerializer},
    )
    def post(self, request: Request, championship_id: int) -> Response:
        data = _valid(self.InputSerializer, request)
        championship = _get(request, championship_id)
        services.stage_tournament_add(actor=request.user, championship=championship, **data)
        return Response(_answer(championship), status=201)


class FinalBracketApi(APIView):
    """The final's bracket, as GET /api/v1/phases/{id}/bracket gives it, with its tournament;
    404 ``championship_bracket_none`` before it is drawn."""

    class OutputSerializer(serializers.Serializer):
        tournament_id = serializers.IntegerField()
        phase_id = serializers.IntegerField()
        phase_name = serializers.CharField()
        champion_id = serializers.IntegerField(allow_null=True)
        matches = serializers.ListField(child=serializers.DictField())
        entries = serializers.ListField(child=serializers.DictField())

        class Meta:
            ref_name = "ChampionshipBracket"

    @extend_schema(operation_id="championship_bracket", responses=OutputSerializer)
    def get(self, request: Request, championship_id: int) -> Response:
        championship = _get(request, championship_id)
        board = selectors.championship_board(championship=championship, today=timezone.localdate())
        bracket = selectors.final_bracket_required(board=board)
        data = {**bracket, "tournament_id": bracket["tournament"].pk}
        return Response(self.OutputSerializer(data).data)


_ONE = "championships/<int:championship_id>"

urlpatterns = [
    path("championships", ChampionshipListApi.as_view(), name="championship-list"),
    path("championships/create", ChampionshipCreateApi.as_view(), name="championship-create"),
    path(_ONE, ChampionshipDetailApi.as_view(), name="championship-detail"),
    path(f"{_ONE}/update", ChampionshipUpdateApi.as_view(), name="championship-update"),
    path(f"{_ONE}/clubs/add", ChampionshipClubAddApi.as_view(), name="championship-club-add"),
    path(
        f"{_ONE}/organizers/add",
        ChampionshipOrganizerAddApi.as_view(),
        name="championship-organizer-add",
    ),
    path(f"{_ONE}/centres/add", CentreAddApi.as_view(), name="championship-centre-add"),
    path(
        f"{_ONE}/centres/<int:centre_id>/update",
        CentreUpdateApi.as_view(),
        name="championship-centre-update",
    ),
    path(
        f"{_ONE}/centres/<slug:club_slug>",
        CentreDetailApi.as_view(),
        name="championship-centre-detail",
    ),
    path(f"{_ONE}/stages/add", StageAddApi.as_view(), name="championship-stage-add"),
    path(
        f"{_ONE}/stages/<int:stage_id>/update",
        StageUpdateApi.as_view(),
        name="championship-stage-update",
    ),
    path(
        f"{_ONE}/tournaments/add",
        StageTournamentAddApi.as_view(),
        name="championship-tournament-add",
    ),
    path(f"{_ONE}/bracket", FinalBracketApi.as_view(), name="championship-bracket"),
]
