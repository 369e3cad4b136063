"""The live server's ASGI application (risiko_site.asgi): a live stream runs outside Django's
per-request thread context, so an open stream keeps no thread and no database connection of its
own; every other request runs inside one, as Django's own handler runs it."""
import asyncio
import os
import subprocess
import sys

from asgiref.sync import SyncToAsync

from risiko_site import asgi


def _context_of(path, monkeypatch):
    """The thread context a request for `path` is handled in (None: the process's shared thread)."""
    seen = []

    async def handle(self, scope, receive, send):
        seen.append(SyncToAsync.thread_sensitive_context.get(None))
    monkeypatch.setattr(asgi.Handler, "handle", handle)
    asyncio.run(asgi.application({"type": "http", "path": path}, None, None))
    return seen[0]


def test_only_the_live_channel_is_recognised():
    assert asgi.is_live("/t/12/live/")
    assert not asgi.is_live("/t/12/classifica/")
    assert not asgi.is_live("/t/12/live/extra/")


def test_a_live_stream_runs_on_the_shared_thread(monkeypatch):
    assert _context_of("/t/12/live/", monkeypatch) is None


def test_any_other_request_runs_in_a_context_of_its_own(monkeypatch):
    assert _context_of("/t/12/classifica/", monkeypatch) is not None


def test_the_live_server_loads_no_other_view_nor_what_they_import():
    """The live server answers the live channel alone (risiko_site/live_urls.py): the site's other
    views, the workbooks' libraries and the notifications' HTTP client stay out of its memory."""
    code = ("import sys; from risiko_site import asgi; assert asgi.is_live('/t/3/live/'); "
            "print(sorted(m for m in ('risiko_site.urls', 'transfer.views', 'openpyxl', 'pywebpush', 'aiohttp') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "risiko_site.settings"})
    assert out.stdout.strip() == "[]"


def test_the_live_server_answers_its_health_page_for_its_containers_check():
    from django.urls import resolve

    from risiko_site import asgi
    from risiko_site.health import health
    assert resolve("/salute/", asgi.LIVE_URLCONF).func is health
    assert not asgi.is_live("/salute/")  # a request of its own, not a stream


def test_djangos_handler_still_enters_the_request_context_around_handle():
    """The one private path the live server relies on (risiko_site/asgi.py calls `handle` itself):
    Django's ASGIHandler enters the per-request thread context in `__call__` and does the rest in
    `handle(scope, receive, send)`. A Django release that changes this fails here, not in production."""
    import inspect

    from django.core.handlers.asgi import ASGIHandler
    source = inspect.getsource(ASGIHandler.__call__)
    assert "async with ThreadSensitiveContext():\n            await self.handle(scope, receive, send)" in source
    assert list(inspect.signature(ASGIHandler.handle).parameters) == ["self", "scope", "receive", "send"]


def test_an_open_past_a_cap_is_answered_before_djangos_handler_and_a_slot_comes_back_at_the_end(
        monkeypatch, settings):
    """On the live server the slot is taken before Django's handler: a refused open never takes a turn on
    the shared thread (each middleware takes one), and the stream's slot is given back when it ends."""
    from tables.live.channel import Slots
    fresh = Slots()
    monkeypatch.setattr(asgi, "slots", fresh)
    settings.LIVE_STREAMS_PER_CLIENT, settings.LIVE_STREAMS_MAX = 1, 2
    handled, release = [], asyncio.Event()

    async def handle(self, scope, receive, send):
        handled.append(scope["live_slot"])
        await release.wait()
    monkeypatch.setattr(asgi.Handler, "handle", handle)

    def scope(address):
        return {"type": "http", "path": "/t/12/live/", "client": (address, 5000), "headers": []}

    async def answered(address):
        sent = []

        async def send(message):
            sent.append(message)
        await asgi.application(scope(address), None, send)
        return sent[0]["status"], dict(sent[0]["headers"])[b"retry-after"]

    async def main():
        streams = [asyncio.create_task(asgi.application(scope(a), None, None)) for a in ("203.0.113.9", "203.0.113.10")]
        await asyncio.sleep(0)
        refusals = [await answered("203.0.113.9"), await answered("198.51.100.7")]
        release.set()
        await asyncio.gather(*streams)
        return refusals
    assert asyncio.run(main()) == [(429, b"60"), (503, b"60")]
    assert handled == ["203.0.113.9", "203.0.113.10"]   # the refused opens never reached Django's handler
    assert fresh.total == 0 and fresh.holding("203.0.113.9") == 0
