"""The public JSON's addresses before they were versioned.

The public JSON lives under /api/v1/ (tables/urls.py, circuits/urls.py; its shape is documented as JSON
Schema in docs/api/v1/). The addresses it had before, read by club websites written for them, answer as
before, with the same body, and say that they are deprecated (RFC 9745 `Deprecation`, the date they
were) and where the versioned address is (`Link: <...>; rel="successor-version"`). They are answered
by the versioned address's own view (its answer from the public-page cache when it is there,
tables/standings/cache.py's `public_page`), and the two headers are added to every answer, a 304
included.
"""
from datetime import datetime, timezone

from django.urls import path, reverse

from circuits import views as circuit_views
from tables.standings import championship_views
from tables.standings import views as standings_views

DEPRECATED_SINCE = datetime(2026, 11, 29, tzinfo=timezone.utc)
DEPRECATION = f"@{int(DEPRECATED_SINCE.timestamp())}"


def deprecated(view, successor):
    """`view` at its old address: the same answer, with `Deprecation` and the successor's `Link`."""
    def old_address(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Deprecation"] = DEPRECATION
        response["Link"] = f'<{reverse(successor, kwargs=kwargs)}>; rel="successor-version"'
        return response
    old_address.__name__ = f"{view.__name__}_unversioned"
    old_address.__doc__ = view.__doc__
    return old_address


urlpatterns = [
    path("api/tournaments/<int:pk>/standings.json",
         deprecated(standings_views.standings_json, "public:standings_json"), name="standings_json_unversioned"),
    path("api/tournaments/<int:pk>/rounds/<int:number>/tables.json",
         deprecated(standings_views.tables_json, "public:tables_json"), name="tables_json_unversioned"),
    path("api/tournaments/<int:pk>/teams.json",
         deprecated(championship_views.championship_json, "public:championship_json"),
         name="championship_json_unversioned"),
    path("api/tournaments/<int:pk>/players/<int:reg_pk>.json",
         deprecated(standings_views.player_json, "public:player_json"), name="player_json_unversioned"),
    path("api/circuits/<int:pk>.json",
         deprecated(circuit_views.circuit_json, "public:circuit_json"), name="circuit_json_unversioned"),
]
