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
`render_snapshot`, so most polls only read; a page the job rendered also stands in while the job is due
or under way (queued less than the refresh interval ago, or started less than the stale bound ago),
so the first polls after a save do not render what the job is rendering.

What a poll reads, and no more: a snapshot is kept as a small entry (version, times, type, a token
naming this render) and its two bodies under that token, so an answer reads the body it sends (the
gzip or the plain one), never both. Each process also keeps the snapshots and bodies it read last
(`_recent`, under the cache generation as every key): a snapshot is taken from it only when its
version is the one just read from the cache, and a body is named by its render's token, so a copy is
never older than what the cache holds. A kept page is then answered after one cache read (the
version's), a 304 too.

Anonymous visitors' GETs are answered before the rest of the middleware chain by
PublicPageMiddleware, placed right after the static files: a 304, or a snapshot that may be answered
as it is, with the headers the chain would add (CSP, frame options, language); anything else (no
version in the cache, a page to render, a session, a query) goes down the chain to the view. It opens
no database connection and resolves each address once per process.
"""
import gzip
import hashlib
import logging
import re
import threading
import time
import uuid
from collections import OrderedDict
from functools import lru_cache, wraps
from typing import NamedTuple

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponsePermanentRedirect, QueryDict
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.urls import NoReverseMatch, Resolver404, get_script_prefix, get_urlconf, resolve, reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, get_language_from_request

from tables.standings import versioned
from tournaments.versions import cached_version, results_version

logger = logging.getLogger("torneo.standings")

# A page's lock left by a process that died goes after this long; no request waits longer for it.
LOCK_SECONDS = 10
VERSION_HEADER = "X-Results-Version"


class Snapshot(NamedTuple):
    """A page's last render: the version it shows, when its render started (wall clock, compared
    across servers), its content type, the token its bodies are kept under, and whether the snapshot
    job rendered it (it renders the page again within the refresh interval after a change). Its
    bodies, as rendered (`body`) and gzip-compressed (`packed`), are read when asked for (None when
    the cache lost them)."""
    version: str
    started: float
    content_type: str
    token: str
    on_write: bool = False

    @property
    def body(self):
        return _payload(self.token, "body")

    @property
    def packed(self):
        return _payload(self.token, "gzip")


# This process's copies: snapshots by page (taken only at the version just read from the cache) and
# bodies by render (a token names one render: never changed, only dropped), bounded in count and bytes.
_RECENT_PAGES = 256
_RECENT_BYTES = 32 * 1024 * 1024
_recent_pages = OrderedDict()
_recent_bodies = OrderedDict()
_recent_size = [0]
_recent_lock = threading.Lock()


def _payload_key(token, kind):
    return f"snapbody:{token}:{kind}"


def _remember_body(key, data):
    local = cache.make_key(key)
    with _recent_lock:
        if local not in _recent_bodies:
            _recent_bodies[local] = data
            _recent_size[0] += len(data)
        _recent_bodies.move_to_end(local)
        while _recent_size[0] > _RECENT_BYTES and len(_recent_bodies) > 1:
            _recent_size[0] -= len(_recent_bodies.popitem(last=False)[1])


def _payload(token, kind):
    """One body of a render: this process's copy, else the cache's (remembered)."""
    key = _payload_key(token, kind)
    with _recent_lock:
        data = _recent_bodies.get(cache.make_key(key))
    if data is None:
        data = cache.get(key)
        if data is not None:
            _remember_body(key, data)
    return data


def _remember_page(key, snapshot):
    local = cache.make_key(key)
    with _recent_lock:
        _recent_pages[local] = snapshot
        _recent_pages.move_to_end(local)
        while len(_recent_pages) > _RECENT_PAGES:
            _recent_pages.popitem(last=False)


def forget(key):
    """Drop a page's snapshot, here and in the cache."""
    with _recent_lock:
        _recent_pages.pop(cache.make_key(key), None)
    cache.delete(key)


def forget_recent():
    """Empty this process's copies (the tests empty the shared cache between them)."""
    with _recent_lock:
        _recent_pages.clear()
        _recent_bodies.clear()
        _recent_size[0] = 0


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
    """The page's last render as the cache holds it, or None."""
    entry = cache.get(key)
    if entry is None:
        return None
    snapshot = Snapshot(*entry)
    _remember_page(key, snapshot)
    return snapshot


def current(key, version):
    """The page's last render: this process's copy when it shows `version` (no cache read), else the
    cache's."""
    with _recent_lock:
        snapshot = _recent_pages.get(cache.make_key(key))
    if snapshot is not None and snapshot.version == version:
        return snapshot
    return read(key)


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


def job_queued_key(pk):
    """When tournament `pk`'s snapshot job is due (tables/live/snapshot.py), while it is queued."""
    return f"snapshot-queued:{pk}"


def job_started_key(pk):
    """When tournament `pk`'s last snapshot job started (tables/live/snapshot.py)."""
    return f"snapshot-started:{pk}"


def job_coming(scope):
    """Whether the snapshot job of `scope` is about to render its pages: queued for less than the refresh
    interval ago (or for later), or started less than the stale bound ago."""
    if not isinstance(scope, int):
        return False
    times = cache.get_many([job_queued_key(scope), job_started_key(scope)])
    due, started, moment = times.get(job_queued_key(scope)), times.get(job_started_key(scope)), now()
    return ((due is not None and moment - due < settings.PUBLIC_PAGE_REFRESH_SECONDS)
            or (started is not None and moment - started < settings.PUBLIC_PAGE_STALE_SECONDS))


def fresh(snapshot, version, scope=None):
    """Whether `snapshot` may be answered for `version` without rendering: it shows that version, or
    its render started less than the refresh interval ago, or the snapshot job rendered it and renders
    it again now (rendered less than the stale bound ago, or the job of `scope` is coming: the polls
    only read while the job renders)."""
    if snapshot is None:
        return False
    age = now() - snapshot.started
    return (snapshot.version == version or age < settings.PUBLIC_PAGE_REFRESH_SECONDS
            or (snapshot.on_write and (age < settings.PUBLIC_PAGE_STALE_SECONDS or job_coming(scope))))


def render_snapshot(key, version, started, render, page, on_write=False):
    """Render a page (`render()` -> response) holding its lock (the caller took it) and keep it when it
    is a plain 200; the lock is given back whatever happens. `page`: (scope, path, htmx), for the log.
    Returns (response, snapshot or None)."""
    try:
        response = render()
        if response.status_code != 200 or response.streaming or response.cookies:
            return response, None
        body = response.content
        snapshot = Snapshot(version, started, response["Content-Type"], uuid.uuid4().hex, on_write)
        bodies = {_payload_key(snapshot.token, "body"): body,
                  _payload_key(snapshot.token, "gzip"): gzip.compress(body, compresslevel=6, mtime=0)}
        cache.set_many(bodies, versioned.CACHE_SECONDS)  # before the snapshot that names them
        cache.set(key, tuple(snapshot), versioned.CACHE_SECONDS)
        for name, data in bodies.items():
            _remember_body(name, data)
        _remember_page(key, snapshot)
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
    return f'W/"{tag}"' if _accepts_gzip(request) else f'"{tag}"'


def _finish(response, etag, version, cors):
    response["ETag"] = etag
    response[VERSION_HEADER] = version
    if cors:  # public data: any site's script may read it, without credentials
        response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding", "HX-Request"))
    return response


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads Accept-Encoding


def _accepts_gzip(request):
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def _answer(request, snapshot, etag, cors):
    """The snapshot, compressed when the visitor accepts it (only that body is read), or 304 when the
    visitor holds it; None when the cache lost the body."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        packed = _accepts_gzip(request)
        data = snapshot.packed if packed else snapshot.body
        if data is None:
            return None
        response = HttpResponse(data, content_type=snapshot.content_type)
        if packed:
            response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(data))
    return _finish(response, etag, snapshot.version, cors)


def _canonical_path(request):
    """The page's own address for the URL that reached it: the same view and arguments written back
    (`/t/7/`, never `/t/0007/`); the path itself when it was not resolved (a test's request)."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return request.path
    canonical = _reversed(match.view_name, tuple(match.args), tuple(sorted(match.kwargs.items())),
                          getattr(request, "urlconf", None) or get_urlconf(), get_script_prefix())
    return request.path if canonical is None else canonical


@lru_cache(maxsize=4096)
def _reversed(view_name, args, kwargs, urlconf, prefix):
    """A view's address for its arguments, or None (remembered: the same arguments, the same address)."""
    try:
        return reverse(view_name, args=args, kwargs=dict(kwargs), urlconf=urlconf)
    except NoReverseMatch:
        return None


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
    snapshot = current(key, version)
    if not fresh(snapshot, version, scope):
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
    etag = _etag(scope, path, snapshot.version, language, user, htmx, request)
    answer = _answer(request, snapshot, etag, cors)
    if answer is None:  # the cache lost its body: forgotten, so the next request renders and keeps it
        forget(key)
        return _finish(render(), etag, version, cors)
    return answer


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
    wrapper.public_page = True  # PublicPageMiddleware answers its anonymous GETs early
    wrapper.public_cors = cors
    return wrapper


@lru_cache(maxsize=1024)
def _public_page_of(path, urlconf, prefix):
    """(tournament pk, cors) of a public page's canonical path; None for any other path, and for a path
    that is not its page's canonical one (`/t/0007/`: the view redirects it). Remembered: a path always
    resolves the same way, so an early answer neither resolves nor reverses."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    if not getattr(match.func, "public_page", False) or "pk" not in match.kwargs:
        return None
    try:
        if reverse(match.view_name, args=match.args, kwargs=match.kwargs, urlconf=urlconf) != prefix.rstrip("/") + path:
            return None
    except NoReverseMatch:
        return None
    return match.kwargs["pk"], getattr(match.func, "public_cors", False)


CSP_HEADER = "Content-Security-Policy"


class PublicPageMiddleware:
    """An anonymous visitor's GET of a public page answered before the rest of the chain: a 304 when the
    visitor holds the page, its kept render when it may be answered as it is (`fresh`), with what the
    chain adds to it (frame options, CSP, the language); anything else goes on down the chain. Reads the
    version, then only what the answer needs; opens no database connection."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.csp = CSPMiddleware(get_response)
        self.csp_header = None  # the policy has no per-request part (no nonce): built once
        self.frame = XFrameOptionsMiddleware(get_response)

    def __call__(self, request):
        return self.early(request) or self.get_response(request)

    def early(self, request):
        if (request.method != "GET" or request.META.get("QUERY_STRING")
                or settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES):
            return None
        page = _public_page_of(request.path_info, getattr(request, "urlconf", None) or get_urlconf(),
                               get_script_prefix())
        if page is None:
            return None
        try:
            request.get_host()  # a Host outside ALLOWED_HOSTS: the chain answers 400
        except DisallowedHost:
            return None
        pk, cors = page
        version = cached_version(pk)
        if version is None:  # not in the cache: the view reads it from the database
            return None
        path, language = request.path, get_language_from_request(request)
        htmx = request.headers.get("HX-Request") == "true"
        etag = _etag(pk, path, version, language, "anon", htmx, request)
        response = get_conditional_response(request, etag=etag)
        if response is not None:
            response = _finish(response, etag, version, cors)
        else:
            snapshot = current(page_key(pk, path, language, htmx), version)
            if not fresh(snapshot, version, pk):
                return None  # rendered by the view
            response = _answer(request, snapshot, _etag(pk, path, snapshot.version, language, "anon", htmx, request),
                               cors)
            if response is None:
                return None
        response.headers.setdefault("Content-Language", language)
        self.frame.process_response(request, response)
        if self.csp_header is None:
            self.csp.process_request(request)
            self.csp.process_response(request, response)
            self.csp_header = response.get(CSP_HEADER)
        elif CSP_HEADER not in response:
            response[CSP_HEADER] = self.csp_header
        return response
