"""The leagues' pages (public and the organizer's desk): whole paths, in clubs.leagues.web."""

from clubs.leagues import web

app_name = "leagues"

urlpatterns = web.urlpatterns

# the leagues of peñas' pages (clubs.leagues.teams_web)
from clubs.leagues import teams_web  # noqa: E402

urlpatterns = [*urlpatterns, *teams_web.urlpatterns]
