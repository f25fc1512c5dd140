"""The tournaments API: each area's module lists its own urlpatterns."""

from tournaments.api import archive, entrants, registration, results, rounds, tournaments

app_name = "tournaments"

urlpatterns = [
    *tournaments.urlpatterns,
    *registration.urlpatterns,
    *entrants.urlpatterns,
    *rounds.urlpatterns,
    *results.urlpatterns,
    *archive.urlpatterns,
]
