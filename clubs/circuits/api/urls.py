"""The circuits' API: whole paths under /api/v1/ (reads GET on nouns, writes POST on actions)."""

from django.urls import path, register_converter

from clubs.circuits.api import views


class BoardConverter:
    """An interpeña's board in a path: its letter (``A``, ``B``…, as its JSON and the docs name
    it; either case) or its number (``1``, ``2``…, the first form of the path, still read)."""

    regex = "[0-9]{1,3}|[A-Za-z]{1,3}"

    def to_python(self, value: str) -> int:
        if value.isdigit():
            return int(value)
        number = 0
        for letter in value.upper():  # A → 1 … Z → 26, AA → 27 (models.board_letter's inverse)
            number = number * 26 + ord(letter) - ord("A") + 1
        return number

    def to_url(self, value) -> str:
        return str(value)


register_converter(BoardConverter, "board")

app_name = "circuits"

_CIRCUIT = "circuits/<int:circuit_id>"
_INTERPENA = "interpenas/<int:interpena_id>"

urlpatterns = [
    path("circuits", views.CircuitListApi.as_view(), name="circuit-list"),
    path("circuits/create", views.CircuitCreateApi.as_view(), name="circuit-create"),
    path(_CIRCUIT, views.CircuitDetailApi.as_view(), name="circuit-detail"),
    path(f"{_CIRCUIT}/update", views.CircuitUpdateApi.as_view(), name="circuit-update"),
    path(f"{_CIRCUIT}/clubs/add", views.CircuitClubAddApi.as_view(), name="circuit-club-add"),
    path(
        f"{_CIRCUIT}/organizers/add",
        views.CircuitOrganizerAddApi.as_view(),
        name="circuit-organizer-add",
    ),
    path(
        f"{_CIRCUIT}/tournaments/add",
        views.CircuitTournamentAddApi.as_view(),
        name="circuit-tournament-add",
    ),
    path(
        f"{_CIRCUIT}/tournaments/remove",
        views.CircuitTournamentRemoveApi.as_view(),
        name="circuit-tournament-remove",
    ),
    path(f"{_CIRCUIT}/ranking", views.CircuitRankingApi.as_view(), name="circuit-ranking"),
    path("interpenas", views.InterpenaListApi.as_view(), name="interpena-list"),
    path("interpenas/create", views.InterpenaCreateApi.as_view(), name="interpena-create"),
    path(_INTERPENA, views.InterpenaDetailApi.as_view(), name="interpena-detail"),
    path(f"{_INTERPENA}/lineup", views.InterpenaLineupApi.as_view(), name="interpena-lineup"),
    path(
        f"{_INTERPENA}/boards/<board:board>/result",
        views.InterpenaBoardResultApi.as_view(),
        name="interpena-board-result",
    ),
    path(f"{_INTERPENA}/confirm", views.InterpenaConfirmApi.as_view(), name="interpena-confirm"),
]
