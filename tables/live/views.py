"""The live channel of a tournament (tables.live.channel): server-sent events, one per change."""
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from django.views.decorators.http import require_GET

from tables.live.channel import astream, opening, stream
from tournaments.rules import tournament_for_live


def _open(request, pk):
    """Who may listen (404 for the public on an unpublished tournament) and where the stream starts."""
    tournament_for_live(request.user, pk)
    return opening(pk, request.headers.get("Last-Event-ID", ""))


@require_GET
async def live(request, pk):
    """`text/event-stream` of tournament `pk`: an async iterator under ASGI (uvicorn), a generator
    under WSGI (runserver, the test server), which would otherwise read the whole stream first."""
    first, sent = await sync_to_async(_open)(request, pk)
    events = (astream if isinstance(request, ASGIRequest) else stream)(pk, first, sent)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
