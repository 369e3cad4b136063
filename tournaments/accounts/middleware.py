from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest
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


class RequestBodyLimitMiddleware:
    """A request announcing a body larger than REQUEST_BODY_MAX_MB is answered 413 before a byte of it
    is read (first in the chain: no session, CSRF check or upload handler reads it, no file is spooled
    to disk). The largest body the site takes is a 10 MB workbook in its form; the proxy in front has the
    same limit (Caddyfile, request_body)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads no body it cannot measure
        limit = settings.REQUEST_BODY_MAX_MB * 1024 * 1024
        if length > limit:
            response = HttpResponse(_("The request is larger than %(n)d MB.") % {"n": settings.REQUEST_BODY_MAX_MB},
                                    status=413, content_type="text/plain; charset=utf-8")
            response["Connection"] = "close"
            return response
        return self.get_response(request)
