from django.conf import settings
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginRedirectMiddleware:
    """An htmx request that needs a login gets HX-Redirect instead of a login page swapped in."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, "htmx", False) and response.status_code == 302:
            login_url = resolve_url(settings.LOGIN_URL)
            if response["Location"].startswith(login_url):
                return HttpResponseClientRedirect(response["Location"])
        return response
