"""The HTML pages: each area's module lists its own urlpatterns (whole paths)."""

from tournaments.web import frances, public, table
from tournaments.web.organizer import urls as organizer

app_name = "web"

urlpatterns = [
    *public.urlpatterns,
    *organizer.urlpatterns,
    *table.urlpatterns,
    *frances.urlpatterns,
]
