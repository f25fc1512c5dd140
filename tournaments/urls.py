"""The HTML pages: each area's module lists its own urlpatterns (whole paths)."""

from tournaments.web import organizer, public, table

app_name = "web"

urlpatterns = [*public.urlpatterns, *organizer.urlpatterns, *table.urlpatterns]
