"""The HTML pages: each area's module lists its own urlpatterns (whole paths)."""

from clubs import web as clubs_web
from tournaments.web import frances, public, table
from tournaments.web.organizer import urls as organizer

app_name = "web"

urlpatterns = [
    *public.urlpatterns,
    *organizer.urlpatterns,
    *table.urlpatterns,
    *frances.urlpatterns,
    *clubs_web.urlpatterns,  # the ratings' public pages (ranking, players)
]
