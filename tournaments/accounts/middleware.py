from django.conf import settings
from django.http import HttpResponseBadRequest
from django.shortcuts import resolve_url
from django.utils.translation import gettext as _
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


class RejectNulMiddleware:
    """A query or form field holding a NUL character is answered 400 Bad Request: nobody types one,
    and PostgreSQL refuses it in text, so a search or a login lookup would fail with a 500 instead."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        for params in (request.GET, request.POST):
            if any("\x00" in key or any("\x00" in value for value in values) for key, values in params.lists()):
                return HttpResponseBadRequest(_("The request holds a character that is not allowed (NUL)."))
        return self.get_response(request)
