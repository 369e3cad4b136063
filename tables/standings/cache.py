"""Public pages answered from the shared cache: each anonymous visitor's page kept as its last render.

A public page (standings, their htmx fragment, print view, player page, JSON, big screen) is named
by its tournament (`scope`), canonical address, language and whether htmx asked. Its last render is
one cache entry, a `Snapshot`: the results version it shows (tournaments.versions), when its render
started, and its body as rendered and gzip-compressed. Its ETag names the version, so a poll that
finds nothing new is answered 304 after one cache read (the version's).

Only anonymous visitors' pages are kept: they carry nothing of the visitor (the language switch needs
no token). A logged-in visitor's page carries a CSRF token and the visitor's name: it is rendered for
each request and never stored, though still answered 304 while the version is the one it holds.

When the version moved past a page's snapshot:
- a snapshot whose render started less than PUBLIC_PAGE_REFRESH_SECONDS ago is answered as it is
  (a storm of saves costs one render per interval, across every server), and so is one the snapshot
  job rendered less than PUBLIC_PAGE_STALE_SECONDS ago (the job renders it again meanwhile);
- else one request takes the page's lock (`cache.add`: one holder across every server) and renders
  it; the others meanwhile get the snapshot if its render started less than
  PUBLIC_PAGE_STALE_SECONDS ago, or wait for the holder (never longer than LOCK_SECONDS);
- while the database is out of reach, the snapshot is answered however old.
Each answer names the version it shows (X-Results-Version). After every change the tournament's
snapshot job (tables/live/snapshot.py) renders the pages the live channel carries through the same
`render_snapshot`, so most polls only read.
"""
import gzip
import hashlib
import logging
import time
from functools import wraps
from typing import NamedTuple

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponsePermanentRedirect, QueryDict
from django.urls import NoReverseMatch, get_urlconf, reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from tables.standings import versioned
from tournaments.versions import results_version

logger = logging.getLogger("torneo.standings")

# A page's lock left by a process that died goes after this long; no request waits longer for it.
LOCK_SECONDS = 10
VERSION_HEADER = "X-Results-Version"


class Snapshot(NamedTuple):
    """A page's last render: the version it shows, when its render started (wall clock, compared
    across servers), its content type, its body, the body gzip-compressed, and whether the snapshot
    job rendered it (it renders the page again within the refresh interval after a change)."""
    version: str
    started: float
    content_type: str
    body: bytes
    packed: bytes
    on_write: bool = False


def _now():
    return time.time()  # wall clock: the render times are compared across servers


def now():
    """The clock the render times are kept by."""
    return _now()


def page_key(scope, path, language, htmx):
    """Where an anonymous visitor's page is kept: its tournament (or "circuit-3"), address, language
    and htmx flag, under the cache generation as every key (risiko_site.generation)."""
    digest = hashlib.sha1(f"{path}|{language}|{int(bool(htmx))}".encode()).hexdigest()
    return f"snap:{scope}:{digest}"


def read(key):
    entry = cache.get(key)
    return None if entry is None else Snapshot(*entry)


def kept(key):
    """Whether the page has a last render in the cache (nothing is read)."""
    return cache.has_key(key)


def rendered_at(key, version):
    """The page's last render when it shows `version`, else None."""
    snapshot = read(key)
    return snapshot if snapshot is not None and snapshot.version == version else None


def wait_for_render(key, version):
    """Wait for the holder of the page's lock: (its render at `version`, or None; whether this process
    took the lock meanwhile, its holder gone: then it renders)."""
    waited = versioned.wait_for_holder(lambda: rendered_at(key, version), lambda: take_lock(key),
                                       seconds=LOCK_SECONDS)
    return waited.value, waited.holding


def take_lock(key):
    """The page's render lock: one holder across every server."""
    return cache.add(f"{key}:lock", 1, LOCK_SECONDS)


def release_lock(key):
    cache.delete(f"{key}:lock")


def fresh(snapshot, version):
    """Whether `snapshot` may be answered for `version` without rendering: it shows that version, or
    its render started less than the refresh interval ago, or the snapshot job rendered it less than
    the stale bound ago (the job renders it again within the refresh interval: the polls only read)."""
    if snapshot is None:
        return False
    age = now() - snapshot.started
    return (snapshot.version == version or age < settings.PUBLIC_PAGE_REFRESH_SECONDS
            or (snapshot.on_write and age < settings.PUBLIC_PAGE_STALE_SECONDS))


def render_snapshot(key, version, started, render, page, on_write=False):
    """Render a page (`render()` -> response) holding its lock (the caller took it) and keep it when it
    is a plain 200; the lock is given back whatever happens. `page`: (scope, path, htmx), for the log.
    Returns (response, snapshot or None)."""
    try:
        response = render()
        if response.status_code != 200 or response.streaming or response.cookies:
            return response, None
        body = response.content
        snapshot = Snapshot(version, started, response["Content-Type"], body,
                            gzip.compress(body, compresslevel=6, mtime=0), on_write)
        cache.set(key, tuple(snapshot), versioned.CACHE_SECONDS)
        scope, path, htmx = page
        logger.info("rendered tournament=%s version=%s page=%s htmx=%d seconds=%.3f%s", scope, version, path,
                    bool(htmx), now() - started, " on write" if on_write else "")
        return response, snapshot
    finally:
        release_lock(key)


def _etag(scope, path, version, language, user, htmx, request):
    """The page's ETag: what it is, the version it shows, the visitor (anonymous or whom) and the cache
    generation (a browser's copy from before a restore is never confirmed); weak when the answer may be
    compressed (the two encodings are equivalent)."""
    parts = (str(scope), path, version, language or "", str(user), str(int(bool(htmx))), cache.make_key("page"))
    tag = hashlib.sha1("|".join(parts).encode()).hexdigest()
    return f'W/"{tag}"' if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "") else f'"{tag}"'


def _finish(response, etag, version, cors):
    response["ETag"] = etag
    response[VERSION_HEADER] = version
    if cors:  # public data: any site's script may read it, without credentials
        response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding", "HX-Request"))
    return response


def _answer(request, snapshot, etag, cors):
    """The snapshot, compressed when the visitor accepts it, or 304 when the visitor holds it."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", ""):
            response = HttpResponse(snapshot.packed, content_type=snapshot.content_type)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(snapshot.body, content_type=snapshot.content_type)
    return _finish(response, etag, snapshot.version, cors)


def _canonical_path(request):
    """The page's own address for the URL that reached it: the same view and arguments written back
    (`/t/7/`, never `/t/0007/`); the path itself when it was not resolved (a test's request)."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return request.path
    try:
        return reverse(match.view_name, args=match.args, kwargs=match.kwargs,
                       urlconf=getattr(request, "urlconf", None) or get_urlconf())
    except NoReverseMatch:
        return request.path


def canonical_address(request, params=()):
    """The page's canonical address: its canonical path and, of its query, only the parameters the page
    reads (`params`: {name: the values it reads}), in their order; another value, another name or a
    second copy is dropped."""
    query = QueryDict(mutable=True)
    for name, values in dict(params).items():
        value = request.GET.get(name)
        if value in values:
            query[name] = value
    encoded = query.urlencode()
    return _canonical_path(request) + (f"?{encoded}" if encoded else "")


def _has_messages(request):
    return len(get_messages(request)) > 0  # read, not consumed: the page shows them


def serve_cached(request, scope, version, render, cors=False, started=None, params=()):
    """The page `render()` makes, for `scope` (a tournament's pk, "circuit-3") at `version` (see the
    module's docstring). `started`: when `version` was read (now if not given).

    Only a page's canonical address is rendered and kept: any other (a query parameter the page does
    not read, `params` aside, an id written `0007`) is redirected to it, so junk addresses never fill
    the cache with copies of one page."""
    canonical = canonical_address(request, params)
    if request.get_full_path() != canonical:
        response = HttpResponsePermanentRedirect(canonical)
        if cors:
            response["Access-Control-Allow-Origin"] = "*"
        return response
    if _has_messages(request):  # a one-off message for this visitor: neither kept nor reused
        return render()
    started = now() if started is None else started
    path, language, htmx = request.get_full_path(), get_language(), getattr(request, "htmx", False)
    user = request.user.pk if request.user.is_authenticated else "anon"
    etag = _etag(scope, path, version, language, user, htmx, request)
    held = get_conditional_response(request, etag=etag)
    if held is not None:
        return _finish(held, etag, version, cors)
    if user != "anon":  # a visitor's own page: rendered for this request alone
        return _finish(render(), etag, version, cors)
    key = page_key(scope, path, language, htmx)
    snapshot = read(key)
    if not fresh(snapshot, version):
        holding = take_lock(key)
        if not holding and (snapshot is None or now() - snapshot.started >= settings.PUBLIC_PAGE_STALE_SECONDS):
            # Too old to stand in: wait for the holder's render, or for its lock.
            waited, holding = wait_for_render(key, version)
            snapshot = waited or snapshot
        if holding:
            kept = read(key)  # rendered meanwhile by the lock's last holder?
            if fresh(kept, version):
                release_lock(key)
                snapshot = kept
            else:
                try:
                    response, kept = render_snapshot(key, version, started, render, (scope, path, htmx))
                except (OperationalError, InterfaceError):
                    if snapshot is None:  # the database out of reach: the last page, however old
                        raise
                else:
                    if kept is None:  # not a page to keep (an error, a redirect...)
                        return response
                    snapshot = kept
        if snapshot is None:  # the holder took longer than its lock: rendered for this request alone
            return _finish(render(), etag, version, cors)
    return _answer(request, snapshot, _etag(scope, path, snapshot.version, language, user, htmx, request), cors)


def public_page(view=None, *, cors=False, uncached_params=(), params=()):
    """Decorate a public GET view taking the tournament's `pk` first.

    `cors`: the answer may be read by any site's script (`Access-Control-Allow-Origin: *`, no
    credentials), for the public JSON. `uncached_params`: query parameters with which the page is
    rendered for this request alone (a visitor's search): never kept, so free text cannot fill the
    cache, and never answered from it. `params`: {name: values} of the query parameters the page reads
    and is kept with (`{"live": ("1",)}`); any other query is redirected away (serve_cached)."""
    if view is None:
        return lambda v: public_page(v, cors=cors, uncached_params=uncached_params, params=params)

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        if any(request.GET.get(p) for p in uncached_params):
            response = view(request, pk, *args, **kwargs)  # a visitor's own search: neither kept nor reused
            patch_cache_control(response, no_cache=True)
            if cors:
                response["Access-Control-Allow-Origin"] = "*"
            return response
        started = now()  # before the version is read: the render shows every change made until then
        request.standings_version = results_version(pk)
        return serve_cached(request, pk, request.standings_version, lambda: view(request, pk, *args, **kwargs),
                            cors=cors, started=started, params=params)
    return wrapper
