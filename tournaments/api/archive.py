"""API of exports and imports: a peña's or a tournament's archive, and CSV of standings and
results.

Responsible for: the HTTP edge of tournaments.selectors.archive (reads) and
tournaments.services.archive (the import). Paths (under /api/v1/):

- GET  clubs/<id>/archive               the whole peña as one JSON archive (organizers)
- GET  tournaments/<id>/archive         one tournament as one JSON archive (organizers)
- POST archive/import                   import an archive: a multipart file ``archive``, or the
                                        archive itself as the JSON body (logged-in users; into
                                        a peña that exists, its organizers)
- GET  phases/<id>/standings.csv        the stored standings as CSV (public where they are)
- GET  tournaments/<id>/results.csv     every match's result as CSV (public where it is)

Downloads carry ``Content-Disposition: attachment`` with a file name.

Must not: hold a rule or check a role (the selectors and the service do).

Terms: peña (club), clasificación (standings).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import path
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.roles import can_organize
from clubs.selectors import club_get
from config.parsers import RawJSONParser
from tournaments.archive import archive_dumps
from tournaments.selectors import archive as selectors
from tournaments.selectors.rounds import phase_get_readable
from tournaments.selectors.tournaments import tournament_get
from tournaments.services.archive import archive_import


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def _archive_response(archive: dict, name: str) -> HttpResponse:
    day = timezone.localdate().isoformat()
    return _download(
        archive_dumps(archive), "application/json; charset=utf-8", f"amarrako-{name}-{day}.json"
    )


_ARCHIVE = {
    (200, "application/json"): {
        "type": "object",
        "description": "the archive (docs/api.md, 'Export and import')",
    }
}


class ClubArchiveApi(APIView):
    @extend_schema(
        operation_id="club_archive",
        responses=_ARCHIVE,
        summary="The whole peña as one versioned JSON archive (organizers)",
    )
    def get(self, request: Request, club_id: int) -> HttpResponse:
        club = club_get(club_id=club_id)
        archive = selectors.archive_for_club(club=club, user=request.user)
        return _archive_response(archive, club.slug)


class TournamentArchiveApi(APIView):
    @extend_schema(
        operation_id="tournament_archive",
        responses=_ARCHIVE,
        summary="One tournament as one versioned JSON archive (organizers of its peña)",
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = tournament_get(user=request.user, tournament_id=tournament_id)
        archive = selectors.archive_for_tournament(tournament=tournament, user=request.user)
        return _archive_response(archive, f"{tournament.club.slug}-{tournament.slug}")


class ArchiveImportApi(APIView):
    # The JSON body as bytes: the archive's own reader names what is wrong with it
    # (archive_not_json, archive_too_deep…); a file comes as multipart.
    parser_classes = [RawJSONParser, MultiPartParser]

    class InputSerializer(serializers.Serializer):
        archive = serializers.FileField(help_text="the archive file, as exported")

        class Meta:
            ref_name = "ArchiveImportInput"

    class RefSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        slug = serializers.CharField()
        name = serializers.CharField()

        class Meta:
            ref_name = "ArchiveImportRef"

    class OutputSerializer(serializers.Serializer):
        club = serializers.SerializerMethodField()
        club_created = serializers.BooleanField()
        tournaments = serializers.SerializerMethodField()
        players_created = serializers.IntegerField()
        pairs_created = serializers.IntegerField()

        class Meta:
            ref_name = "ArchiveImportOutput"

        def get_club(self, result) -> dict:
            return ArchiveImportApi.RefSerializer(result.club).data

        def get_tournaments(self, result) -> list[dict]:
            return ArchiveImportApi.RefSerializer(result.tournaments, many=True).data

    @extend_schema(
        operation_id="archive_import",
        request={"multipart/form-data": InputSerializer, "application/json": OpenApiTypes.OBJECT},
        responses={201: OutputSerializer},
        summary="Import a peña's or a tournament's archive, whole or not at all",
    )
    def post(self, request: Request) -> Response:
        upload = request.FILES.get("archive")
        raw = upload.read() if upload is not None else request.data
        result = archive_import(raw=raw, actor=request.user)
        return Response(self.OutputSerializer(result).data, status=status.HTTP_201_CREATED)


_CSV = {(200, "text/csv"): OpenApiTypes.STR}


class PhaseStandingsCsvApi(APIView):
    @extend_schema(
        operation_id="phase_standings_csv",
        responses=_CSV,
        summary="The stored standings of a phase as CSV, one line per pair",
    )
    def get(self, request: Request, phase_id: int) -> HttpResponse:
        phase = phase_get_readable(phase_id=phase_id, user=request.user)
        text = selectors.standings_csv(phase=phase)
        name = f"{phase.tournament.slug}-{phase.order}-standings.csv"
        return _download(text, "text/csv; charset=utf-8", name)


class TournamentResultsCsvApi(APIView):
    @extend_schema(
        operation_id="tournament_results_csv",
        responses=_CSV,
        summary="Every match of a tournament with its result as CSV",
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = tournament_get(user=request.user, tournament_id=tournament_id)
        organizer = can_organize(request.user, tournament.club)
        text = selectors.results_csv(tournament=tournament, organizer=organizer)
        return _download(text, "text/csv; charset=utf-8", f"{tournament.slug}-results.csv")


urlpatterns = [
    path("clubs/<int:club_id>/archive", ClubArchiveApi.as_view(), name="club-archive"),
    path(
        "tournaments/<int:tournament_id>/archive",
        TournamentArchiveApi.as_view(),
        name="tournament-archive",
    ),
    path("archive/import", ArchiveImportApi.as_view(), name="archive-import"),
    path(
        "phases/<int:phase_id>/standings.csv",
        PhaseStandingsCsvApi.as_view(),
        name="phase-standings-csv",
    ),
    path(
        "tournaments/<int:tournament_id>/results.csv",
        TournamentResultsCsvApi.as_view(),
        name="tournament-results-csv",
    ),
]
