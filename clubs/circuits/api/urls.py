"""The circuits' API: whole paths under /api/v1/ (reads GET on nouns, writes POST on actions)."""

from django.urls import path

from clubs.circuits.api import views

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
        f"{_INTERPENA}/boards/<int:board>/result",
        views.InterpenaBoardResultApi.as_view(),
        name="interpena-board-result",
    ),
    path(f"{_INTERPENA}/confirm", views.InterpenaConfirmApi.as_view(), name="interpena-confirm"),
]
