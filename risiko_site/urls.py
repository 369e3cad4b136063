from django.contrib import admin
from django.urls import include, path

from tournaments import accounts
from tournaments.urls import manage_patterns, public_patterns

urlpatterns = [
    path("", include(public_patterns)),
    path("gestione/", include(manage_patterns)),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.logout_view, name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
