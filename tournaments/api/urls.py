"""The tournaments API: each area's module lists its own urlpatterns."""

from tournaments.api import (
    archive,
    calendar,
    entrants,
    plans,
    prizes,
    registration,
    results,
    rounds,
    tournaments,
)

app_name = "tournaments"

# The results' first: the table links' paths are what every phone asks for, and Django tries
# the patterns in order.
urlpatterns = [
    *results.urlpatterns,
    *tournaments.urlpatterns,
    *registration.urlpatterns,
    *entrants.urlpatterns,
    *rounds.urlpatterns,
    *archive.urlpatterns,
    *prizes.urlpatterns,
    *calendar.urlpatterns,
    *plans.urlpatterns,
]
