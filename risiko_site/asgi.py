"""The ASGI application: the live channel's server (uvicorn, docker-compose.yml's `live` pool).

Django runs each ASGI request in a context of its own (asgiref's ThreadSensitiveContext), whose
synchronous work (the request signals, the view's database reads) gets a thread of that request
alone, kept until the request ends, with its own database connection. A live stream lasts minutes:
1,000 phones kept 1,000 threads and asked PostgreSQL for 1,000 connections (bench/bench_live.py).
So the live channel's requests run outside such a context: their short synchronous work (who may
listen, the version to start from) takes turns on the process's one shared thread and its one
database connection, and an open stream holds neither.

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


class Handler(ASGIHandler):
    """Django's ASGI handler with the live server's addresses, the live channel's requests outside a
    per-request thread context. `handle` is Django's own method that `__call__` runs inside that
    context: the one private path this relies on (tests/tables/live/test_asgi.py fails when a Django
    release changes it)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and is_live(scope["path"]):
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    async def get_response_async(self, request):
        request.urlconf = LIVE_URLCONF  # read by the middleware (the language's) and the resolver
        return await super().get_response_async(request)


django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does
application = Handler()

# The cache generation's receiver of request_started (it reads the database's identity before a
# request's first cache lookup) connected before the first request.
from risiko_site import generation  # noqa: E402,F401
