from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import logout
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, resolve_url
from django.urls import reverse
from django.conf import settings
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.accounts.redirects import safe_next, with_safe_next
from tournaments.accounts.selectors import tournament_in_progress_for_arbiter


class _RefusalMessage:
    """A login refused by the throttle (tournaments.accounts.throttle) says why instead of "wrong password"."""

    def get_invalid_login_error(self):
        refusal = getattr(self.request, "login_refusal", None) if self.request else None
        if refusal is not None:
            return ValidationError(refusal.message, code="throttled")
        return super().get_invalid_login_error()


class ThrottledAuthenticationForm(_RefusalMessage, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(_RefusalMessage, AdminAuthenticationForm):
    pass


def _throttled_status(request, response):
    if getattr(request, "login_refusal", None) is not None:
        response.status_code = 429
    return response


class ThrottledLoginView(LoginView):
    template_name = "registration/login.html"
    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def get_redirect_url(self):
        # The same check as every other form's `next` (tournaments.accounts.redirects).
        return safe_next(self.request) or ""

    def get_success_url(self):
        # A next= pointing back at the login page would send a logged-in user round in a loop.
        url = super().get_success_url()
        if url.split("?")[0] == self.request.path:
            return resolve_url(settings.LOGIN_REDIRECT_URL)
        if not safe_next(self.request):
            # an arbiter on the evening of a tournament lands on its tables, not on the list
            live = tournament_in_progress_for_arbiter(self.request.user)
            if live is not None:
                return reverse("arbiter:home", args=[live.pk])
        return url

    def form_invalid(self, form):
        return _throttled_status(self.request, super().form_invalid(form))


admin.site.login_form = ThrottledAdminAuthenticationForm


def admin_login(request, extra_context=None):
    """/admin/login/ with the same throttle as the site's login, answering 429 when it refuses."""
    return _throttled_status(request, with_safe_next(admin.site.login)(request, extra_context))


# A shared phone keeps nothing of the arbiter's pages, even when the logout does not go through the
# page's script (static/js/logout.js): the browser drops the site's HTTP cache and its storage (the
# offline worker's kept pages among it). When the script says results are still waiting on the phone
# (the arbiter chose to keep them, or a conflict awaits a decision), their storage is spared: the
# script has already emptied the kept pages itself.
CLEAR_SITE_DATA = '"cache", "storage"'
CLEAR_SITE_DATA_KEEPING_QUEUE = '"cache"'


@require_POST
def logout_view(request):
    logout(request)
    messages.info(request, _("You are logged out."))
    response = redirect("public:home")
    keep = request.POST.get("keep_queued") == "1"
    response["Clear-Site-Data"] = CLEAR_SITE_DATA_KEEPING_QUEUE if keep else CLEAR_SITE_DATA
    return response
