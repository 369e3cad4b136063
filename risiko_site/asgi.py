"""The ASGI application: the live channel's server (uvicorn, docker-compose.yml's `live` pool).

Django runs each ASGI request in a context of its own (asgiref's ThreadSensitiveContext), whose
synchronous work (the request signals, the view's database reads) gets a thread of that request
alone, kept until the request ends, with its own database connection. A live stream lasts minutes:
1,000 phones kept 1,000 threads and asked PostgreSQL for 1,000 connections (bench/bench_live.py).
So the live channel's requests run outside such a context: their short synchronous work (who may
listen, the version to start from) takes turns on the process's one shared thread and its one
database connection, and an open stream holds neither.

A live stream's slot (tables.live.channel.slots: LIVE_STREAMS_PER_CLIENT an address, LIVE_STREAMS_MAX in
all) is taken here, before Django's handler: an open past either cap is answered at once (429, 503), never
queued behind the others' turns on the shared thread (each middleware takes one), and the slot is given
back when the stream's request ends, however it ends.

The live server answers the live channel alone (risiko_site/live_urls.py, the route the proxy sends
it; its health page for the container's check; static files too, for its start-up check): it never imports the rest of the site's views.
"""
import os

import django
from django.core.handlers.asgi import ASGIHandler
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")

LIVE_URLCONF = "risiko_site.live_urls"


def is_live(path):
    """Whether `path` is a tournament's live channel."""
    try:
        match = resolve(path, LIVE_URLCONF)
    except Resolver404:
        return False
    return match.url_name == "live"


class _Client:
    """What client_address reads of a request (its REMOTE_ADDR and X-Forwarded-For), from an ASGI scope."""

    def __init__(self, scope):
        headers = dict(scope.get("headers") or [])
        self.META = {"REMOTE_ADDR": (scope.get("client") or ("",))[0] or "",
                     "HTTP_X_FORWARDED_FOR": headers.get(b"x-forwarded-for", b"").decode("latin-1")}


async def _refuse(send, status, text):
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"60"), (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": text.encode()})


class Handler(ASGIHandler):
    """Django's ASGI handler with the live server's addresses, the live channel's requests outside a
    per-request thread context. `handle` is Django's own method that `__call__` runs inside that
    context: the one private path this relies on (tests/tables/live/test_asgi.py fails when a Django
    release changes it)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and is_live(scope["path"]):
            await self.live(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    async def live(self, scope, receive, send):
        """A live stream holding its client's slot from the first byte to the last (the view sees
        `live_slot` in the scope and takes none of its own)."""
        address = client_address(_Client(scope))
        refused = slots.take(address)
        if refused:
            await _refuse(send, *REFUSALS[refused])
            return
        try:
            await self.handle({**scope, "live_slot": address}, receive, send)
        finally:
            slots.give(address)

    async def get_response_async(self, request):
        request.urlconf = LIVE_URLCONF  # read by the middleware (the language's) and the resolver
        return await super().get_response_async(request)


django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from tables.live.channel import slots  # noqa: E402  (the apps are ready only now)
from tables.live.views import REFUSALS  # noqa: E402
from tournaments.accounts.throttle import client_address  # noqa: E402

application = Handler()

# The cache generation's receiver of request_started (it reads the database's identity before a
# request's first cache lookup) connected before the first request.
from risiko_site import generation  # noqa: E402,F401
