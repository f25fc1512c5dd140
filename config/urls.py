from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import health
from seasons.championships import web as championships_web
from seasons.circuits import web as circuits_web
from seasons.interpenas import web as interpenas_web
from seasons.leagues import web as leagues_web
from seasons.leagues.teams import web as team_leagues_web
from seasons.ratings import web as ratings_web
from tournaments.web import public

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/v1/", include("config.api")),  # early: the phones' table links are under it
    path("", public.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI sets styles from its script: its page alone allows inline styles.
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="schema")
        ),
        name="swagger-ui",
    ),
    # Each area's module lists its own pages (whole paths), floor by floor.
    path("", include("tournaments.urls", namespace="web")),
    path("", include((ratings_web.urlpatterns, "ratings"), namespace="ratings")),
    path(
        "",
        include(
            (leagues_web.urlpatterns + team_leagues_web.urlpatterns, "leagues"),
            namespace="leagues",
        ),
    ),
    path("", include((circuits_web.urlpatterns, "circuits"), namespace="circuits")),
    path("", include((interpenas_web.urlpatterns, "interpenas"), namespace="interpenas")),
    path(
        "",
        include((championships_web.urlpatterns, "championships"), namespace="championships"),
    ),
]

if settings.BENCHMARK_VIEWS:  # benchmarks/load.py's floor: off by default, never in production
    from config import benchmark

    urlpatterns.insert(0, path("bench/insert", benchmark.insert_one, name="bench-insert"))

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
