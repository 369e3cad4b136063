from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from circuits import urls as circuits_urls
from phases import urls as phases_urls
from risiko_site import api
from risiko_site.guide import guide
from risiko_site.health import health
from tables import urls as tables_urls
from tournaments.accounts import login as accounts
from tournaments.accounts.redirects import with_safe_next
from tournaments import urls as tournaments_urls
from transfer import urls as transfer_urls

public = (tournaments_urls.public_patterns + tables_urls.public_patterns + phases_urls.public_patterns
          + circuits_urls.public_patterns, "public")
manage = (tournaments_urls.manage_patterns + tables_urls.manage_patterns + phases_urls.manage_patterns
          + transfer_urls.manage_patterns + circuits_urls.manage_patterns, "manage")
arbiter = (tables_urls.arbiter_patterns + tournaments_urls.arbiter_patterns, "arbiter")

handler500 = "risiko_site.errors.server_error"  # 503 "try again" while the database is unreachable

urlpatterns = [
    path("", include(public)),
    path("gestione/", include(manage)),
    path("arbitro/", include(arbiter)),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.logout_view, name="logout"),
    # The one-time link given to a new arbiter account: its owner chooses the password.
    path("accounts/password/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(
        success_url=reverse_lazy("password_set_done")), name="password_set"),
    path("accounts/password/fatto/", auth_views.PasswordResetCompleteView.as_view(), name="password_set_done"),
    # The language is a preference kept in a cookie: a forged switch does no harm worth a token, and
    # without one a public page carries nothing of its visitor, so one stored copy serves everyone. Its
    # `next` is checked like every other form's.
    path("i18n/setlang/", csrf_exempt(with_safe_next(set_language)), name="set_language"),
    path("admin/login/", accounts.admin_login),
    path("admin/", admin.site.urls),
    # 200 "ok" while the database and the cache answer, else 503 (the containers' health checks).
    path("guida/", guide, name="guide"),  # the documentation site, when built (make docs)
    path("guida/<path:path>", guide, name="guide_page"),
    path("salute/", health, name="health"),
    path("health/", health, name="health_en"),
    # The public JSON's addresses before /api/v1/: answered as before, marked deprecated.
    path("", include(api.urlpatterns)),
]
