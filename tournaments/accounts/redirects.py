"""Where a form sends its user afterwards: the `next` it carries, when that is a path on this site.

Every view reading a `next` parameter goes through `safe_next`: the login (the site's and the
admin's), the check-in and registration forms, the language switch. Anything else (another site, a
scheme, a bare word such as `next=x`, which `redirect()` would take for a view name) falls back to
the page's own redirect."""
from functools import wraps

from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request):
    """The request's `next` (the form's, else the address's) when it is a local path, else None."""
    url = request.POST.get("next", request.GET.get("next")) or ""
    if url.startswith("/") and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()},
                                                               require_https=request.is_secure()):
        return url
    return None


def redirect_next(request, fallback, *args, **kwargs):
    """To the request's safe `next`, else to `fallback` (a view name or URL with its arguments, as for
    `redirect()`)."""
    url = safe_next(request)
    return HttpResponseRedirect(url) if url else redirect(fallback, *args, **kwargs)


def with_safe_next(view):
    """For a view that reads `next` itself (Django's set_language and admin login): it sees the safe
    `next`, or none at all, which sends it to its own fallback."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        url = safe_next(request)
        for name in ("GET", "POST"):
            params = getattr(request, name)
            if "next" in params and (url is None or params.getlist("next") != [url]):
                params = params.copy()
                if url is None:
                    del params["next"]
                else:
                    params.setlist("next", [url])
                setattr(request, name, params)
        return view(request, *args, **kwargs)
    return wrapped
