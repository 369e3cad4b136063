"""The live channel of a tournament (tables.live.channel): server-sent events, one per change."""
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from tables.live.channel import generation, held, slots, stream, sync_stream, version_sent
from tables.live.selectors import last_announced
from tournaments.accounts.throttle import client_address
from tournaments.rules import tournament_for_live


def _open(request, pk):
    """Who may listen (404 for the public on an unpublished tournament); the version the client holds
    (its Last-Event-ID, "" when that names another generation of the cache, else the last announced);
    the page its screen shows ((`?page=`, language), for an anonymous visitor: only the fragments a
    snapshot renders are ever carried); whether the stream is the public's (it ends once the tournament
    is unpublished); the cache's generation."""
    tournament_for_live(request.user, pk)
    gen = generation()
    last_id = request.headers.get("Last-Event-ID", "")
    sent = version_sent(last_id, gen) if last_id else (last_announced(pk) or {}).get("version", "")
    path = request.GET.get("page", "")
    anonymous = not request.user.is_authenticated
    page = (path, get_language()) if anonymous and path else None  # carried only when a snapshot rendered it
    return sent, page, anonymous, gen


REFUSALS = {slots.CLIENT: (429, "Too many live streams from this connection.\n"),
            slots.PROCESS: (503, "This server holds as many live streams as it may.\n")}


@require_GET
async def live(request, pk):
    """`text/event-stream` of tournament `pk`: an async iterator under ASGI (uvicorn), run one event at a
    time under WSGI (runserver, the tests' server), which would otherwise read the whole stream first.
    The slot is taken first: an open past LIVE_STREAMS_PER_CLIENT (429) or LIVE_STREAMS_MAX (503) is
    refused before it waits for the thread that reads the database, which the open streams share (on
    the live server before Django's handler even starts: risiko_site/asgi.py)."""
    address = client_address(request)
    on_server = "live_slot" in getattr(request, "scope", {})   # the live server took it (risiko_site/asgi.py)
    refused = "" if on_server else slots.take(address)
    if refused:  # the page polls instead (static/js/live.js)
        status, text = REFUSALS[refused]
        response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "60"
        return response
    try:
        sent, page, public, gen = await sync_to_async(_open)(request, pk)
    except BaseException:   # a tournament the client may not follow (404), a client gone: the slot back
        if not on_server:
            slots.give(address)
        raise
    events = (stream if isinstance(request, ASGIRequest) else sync_stream)(pk, sent, page, public=public, gen=gen)
    response = StreamingHttpResponse(events if on_server else held(events, address), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
