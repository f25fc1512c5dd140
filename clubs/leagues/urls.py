"""The leagues' pages (public and the organizer's desk): whole paths, in clubs.leagues.web."""

from clubs.leagues import web

app_name = "leagues"

urlpatterns = web.urlpatterns
