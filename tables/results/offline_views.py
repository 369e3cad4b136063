"""The arbiter's offline worker (static/js/offline-queue.js + static/js/sw.js), served from /arbitro/ so
that its scope covers every arbiter page: the round's page and its result forms (only these, with the
scripts and styles) work without a network once opened, saves made offline wait on the phone until
they can be sent, and logging out empties what it kept (static/js/logout.js)."""
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

WORKER_PARTS = ("js/offline-queue.js", "js/sw.js")


@require_safe
@never_cache
def service_worker(request):
    body = "\n".join(open(finders.find(part), encoding="utf-8").read() for part in WORKER_PARTS)
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/arbitro/"
    return response
