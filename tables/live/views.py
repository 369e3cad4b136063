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


@require_GET
async def live(request, pk):
    """`text/event-stream` of tournament `pk`: an async iterator under ASGI (uvicorn), run one event at a
    time under WSGI (runserver, the tests' server), which would otherwise read the whole stream first."""
    sent, page, public, gen = await sync_to_async(_open)(request, pk)
    address = client_address(request)
    if not slots.take(address):  # past LIVE_STREAMS_PER_CLIENT: the page polls instead (static/js/live.js)
        response = HttpResponse("Too many live streams from this connection.\n", status=429,
                                content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "60"
        return response
    events = (stream if isinstance(request, ASGIRequest) else sync_stream)(pk, sent, page, public=public, gen=gen)
    response = StreamingHttpResponse(held(events, address), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
