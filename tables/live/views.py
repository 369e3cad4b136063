"""The live channel of a tournament (tables.live.channel): server-sent events, one per change."""
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from tables.live.channel import Page, astream, held, opening, slots, stream
from tables.standings.watch import host_headers
from tournaments.accounts.throttle import client_address
from tournaments.rules import tournament_for_live

MAX_PAGE_LENGTH = 200


def _page(request, pk):
    """The page the stream carries (`?page=`, the address of the fragment the screen shows), for an
    anonymous visitor; else None (the screen fetches its page). Any address may be named: only a
    public page of this tournament has renders filed under it (tables.standings.cache), so only such
    a page is ever carried or kept watched (tables.live.channel)."""
    path = request.GET.get("page", "")
    if request.user.is_authenticated or not path.startswith("/") or len(path) > MAX_PAGE_LENGTH:
        return None
    return Page(path, get_language(), host_headers(request.META))


def _open(request, pk):
    """Who may listen (404 for the public on an unpublished tournament), where the stream starts, the
    page it carries and whether it is the public's (it ends once the tournament is unpublished)."""
    tournament_for_live(request.user, pk)
    return (*opening(pk, request.headers.get("Last-Event-ID", "")), _page(request, pk),
            not request.user.is_authenticated)


@require_GET
async def live(request, pk):
    """`text/event-stream` of tournament `pk`: an async iterator under ASGI (uvicorn), a generator
    under WSGI (runserver, the test server), which would otherwise read the whole stream first."""
    first, sent, page, public = await sync_to_async(_open)(request, pk)
    address = client_address(request)
    if not slots.take(address):  # past LIVE_STREAMS_PER_CLIENT: the page polls instead (static/js/live.js)
        response = HttpResponse("Too many live streams from this connection.\n", status=429,
                                content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "60"
        return response
    events = (astream if isinstance(request, ASGIRequest) else stream)(pk, first, sent, page, public=public)
    response = StreamingHttpResponse(held(events, address), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
