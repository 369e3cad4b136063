"""The push notifications' addresses, public like the player's page they serve: the phone's worker
(static/js/push-sw.js), a phone following a player, a phone switching the notifications off.

The player's page is served from the cache and carries no CSRF token: its script asks the
subscription's address for one (GET) before it posts. Both posts answer JSON: {"error": message}
with 400 for what a browser never sends (a body that is not JSON included), 429 past the rate limit."""
import json

from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe, require_http_methods, require_POST

from tables.push.selectors import enabled, registration_to_follow
from tables.push.services import rate_take, subscription_delete, subscription_save
from tournaments.accounts.throttle import client_address

BODY_MAX = 4096  # a subscription's JSON is about 400 bytes


@require_safe
@never_cache
def worker(request):
    """The players' worker, from /notifiche/: its scope covers no page, it only shows notifications."""
    with open(finders.find("js/push-sw.js"), encoding="utf-8") as source:
        return HttpResponse(source.read(), content_type="application/javascript; charset=utf-8")


def _posted(request):
    """The JSON object a page posted, else None."""
    if request.content_type != "application/json" or len(request.body) > BODY_MAX:
        return None
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _refused(message, status=400):
    return JsonResponse({"error": str(message)}, status=status)


def _not_json(request):
    """The refusal of a body that is not JSON (a form's, whose fields the CSRF check may have read already)."""
    if request.content_type == "application/json":
        return None
    return _refused(_("The subscription must be sent as JSON."))


def _too_many(request):
    if rate_take(client_address(request)):
        return None
    return _refused(_("Too many requests from this connection: try again in a few minutes."), 429)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def subscribe(request, pk, reg_pk):
    """GET: the CSRF token for the post. POST a PushSubscription's JSON ({"endpoint", "keys": {"p256dh",
    "auth"}}): this phone follows the player, in the page's language. 404 without the site's keys or
    for a player not of this published tournament."""
    if not enabled():
        raise Http404
    registration = registration_to_follow(pk, reg_pk)
    if request.method == "GET":
        return JsonResponse({"token": get_token(request)})
    refused = _too_many(request) or _not_json(request)
    if refused:
        return refused
    data = _posted(request) or {}
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    try:
        subscription_save(registration=registration, endpoint=data.get("endpoint"), p256dh=keys.get("p256dh"),
                          auth=keys.get("auth"), language=get_language())
    except ValidationError as error:
        return _refused(error.messages[0])
    return JsonResponse({"subscribed": True}, status=201)


@require_POST
def unsubscribe(request):
    """POST {"endpoint"}: the phone of that push address is told nothing more."""
    refused = _too_many(request) or _not_json(request)
    if refused:
        return refused
    data = _posted(request) or {}
    try:
        subscription_delete(endpoint=data.get("endpoint"))
    except ValidationError as error:
        return _refused(error.messages[0])
    return JsonResponse({"subscribed": False})
