"""Whole public responses cached in the shared cache, keyed by what changes them.

A public page (standings, their htmx poll, print view, player page, JSON) is filed under the
tournament's results version (tournaments.versions: bumped by every audited change), the full
path with its query, the language, the login state (the user's id, or "anon") and whether htmx
asked. A poll that finds nothing new is answered 304 from the version alone; a new visitor gets
the stored response without a template being rendered. A saved result changes the version, so
the next request anywhere renders anew.

Anonymous visitors (no session cookie, no pending message) are answered by
PublicPageCacheMiddleware, placed right after the static files: it finds the page the same way
and answers it with the headers the rest of the chain would add (CSRF cookie, CSP, frame
options), without the session, authentication and messages machinery or the URL's view.

A page filed under a version never changes, so each process also keeps the pages it served last
in memory (a small LRU, `_recent`, under the cache generation as the shared cache's keys are:
risiko_site.generation): the shared cache is still asked for the version every time,
so a change made through any process shows at once, but a big page is not fetched again.

An anonymous visitor's page carries nothing of the visitor (the language switch needs no token),
so it is stored twice: as rendered and gzip-compressed, and a browser that accepts gzip gets the
compressed copy as it is, like a compressed static file. A logged-in visitor's page carries a CSRF
token (the log-out form, htmx headers); a stored page would hand one visitor's token to every
other, so such pages are rendered with a placeholder in its place and each response gets the
requesting visitor's own token; they are not compressed (a secret in a compressed body is what
BREACH reads).

While results pour in every save makes a new version, and rendering the standings of 200 players
costs ~150 ms of a core: each page would be rendered anew for nearly every request. So reads are
decoupled from writes. Each page (its address, language, login state and htmx, without the
version) remembers in the shared cache the last version rendered for it and when that render
started (`last:`). When the current version's page is missing, one request anywhere takes the
page's render lock (`render:`, a cache.add, so one holder across all servers) and renders it; every
other request meanwhile gets the last rendered page, provided that render, or the render under
way, started less than PUBLIC_PAGE_STALE_SECONDS ago; the lock is not taken again before
PUBLIC_PAGE_REFRESH_SECONDS have passed since the last render started (the renders of a storm of
saves are coalesced: versions saved meanwhile are never rendered, the next render shows them
all). Past that bound a request waits for the render under way (or takes the lock when its holder
vanished) rather than serve an older page. Every server reads the same `last:` entry, so two servers serve the same
page. Each response names the version it shows (X-Results-Version). While the database is out of
reach, a page that cannot be rendered is answered with its last render, however old.

Pages that anonymous visitors ask for are also rendered on write, by the process that committed a
change (tables.standings.refresh); such a page stands in up to the stale bound, since the refresher
renders it again within the refresh interval, so under a storm the polls only read the cache.
"""
import gzip
import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict
from functools import lru_cache, wraps
from typing import NamedTuple

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponsePermanentRedirect, QueryDict
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.urls import NoReverseMatch, Resolver404, get_urlconf, resolve, reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, get_language_from_request

from tables.standings import versioned
from tables.standings.watch import REFRESH_KEY, watch
from tournaments.versions import results_version

logger = logging.getLogger("torneo.standings")

# Entries are found again by version, so they never go stale; the version-keyed cache's expiry only
# bounds the cache's size.
PAGE_CACHE_SECONDS = versioned.CACHE_SECONDS
# A render lock left by a process that died goes after this long.
RENDER_LOCK_SECONDS = 10
VERSION_HEADER = "X-Results-Version"
CSRF_PLACEHOLDER = "csrf-placeholder-6f1d0c"
_PLACEHOLDER_BYTES = CSRF_PLACEHOLDER.encode()


class PageEntry(NamedTuple):
    """What is stored of a rendered page: its type, its body and, when the body carries nothing of its
    visitor, the body gzip-compressed (else None)."""
    content_type: str
    body: bytes
    packed: bytes | None


class LastRender(NamedTuple):
    """A page's last render: the version it showed, its identity (where its entry is filed), when it
    started (the render clock) and whether the refresher made it on write."""
    version: str
    identity: str
    started: float
    on_write: bool = False


class StandIn(NamedTuple):
    """The last render of a page while it may stand in for the current version: its `entry` and its
    `age` in seconds besides the render's own figures."""
    version: str
    identity: str
    entry: PageEntry
    age: float
    on_write: bool


_RECENT_PAGES = 64
_recent = OrderedDict()
_recent_lock = threading.Lock()


def _page_get(key):
    recent = cache.make_key(key)  # under the cache generation: never a page of another database or release
    with _recent_lock:
        entry = _recent.get(recent)
        if entry is not None:
            _recent.move_to_end(recent)
            return entry
    entry = cache.get(key)
    if entry is not None:
        entry = PageEntry(*entry)
        _remember(key, entry)
    return entry


def _remember(key, entry):
    recent = cache.make_key(key)
    with _recent_lock:
        _recent[recent] = entry
        _recent.move_to_end(recent)
        while len(_recent) > _RECENT_PAGES:
            _recent.popitem(last=False)


def _page_set(key, entry):
    cache.set(key, entry, PAGE_CACHE_SECONDS)
    _remember(key, entry)


def forget_recent_pages():
    """Empty this process's copies (tests empty the shared cache between them)."""
    with _recent_lock:
        _recent.clear()


def csrf_placeholder(request):
    """Context processor: while a page is rendered for the cache, its CSRF token is the placeholder."""
    return {"csrf_token": CSRF_PLACEHOLDER} if getattr(request, "renders_for_cache", False) else {}


def _has_messages(request):
    storage = getattr(request, "_messages", None)
    return storage is not None and len(storage) > 0


def _identity(pk, path, version, language, user, htmx):
    """The page's identity (its ETag): under the cache generation too, so a browser's copy from before a
    restore or an upgrade is never confirmed by a 304, even where the version's text is the same."""
    parts = (str(pk), path, version, language or "", str(user), str(int(bool(htmx))), cache.make_key("page"))
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


def _base(pk, path, language, user, htmx):
    """The page whatever its version: what its last render and its render lock are filed under."""
    return _identity(pk, path, "", language, user, htmx)


def _now():
    return time.time()  # wall clock: the render times are compared across servers


def now():
    """The clock the render times are kept by."""
    return _now()


def _stale_seconds():
    return settings.PUBLIC_PAGE_STALE_SECONDS


def _refresh_seconds():
    return settings.PUBLIC_PAGE_REFRESH_SECONDS


def _last(base):
    """The page's `LastRender`, or None."""
    last = cache.get(f"last:{base}")
    return None if last is None else LastRender(*last)


def _last_rendered(base):
    """The page's last render as a `StandIn` while it may stand in for the current version, else None:
    its render started less than the stale bound ago, or a render of a newer version is under way and
    started less than the stale bound ago (that render will show what this page lacks; waiting for it
    would only queue the request)."""
    last = _last(base)
    if last is None:
        return None
    now = _now()
    age = now - last.started
    if age > _stale_seconds():
        rendering_since = cache.get(f"render:{base}")
        if rendering_since is None or now - rendering_since > _stale_seconds():
            return None
    entry = _page_get(f"page:{last.identity}")
    return None if entry is None else StandIn(last.version, last.identity, entry, age, last.on_write)


def _stale(base):
    """The last rendered page when an anonymous request may get it without reaching the view: it
    may stand in (`_last_rendered`), and either it is kept fresh on write, or its render started
    less than the refresh interval ago, or another request renders the current version now."""
    last = _last_rendered(base)
    if last is None:
        return None
    if _fresh_enough(last) or cache.get(f"render:{base}") is not None:
        return last
    return None


def _fresh_enough(last):
    """Whether a request may be answered with the last render `last` (within the stale bound)
    rather than render the page: the page is rendered on write (tables.standings.refresh renders it
    again within the refresh interval), or its render started less than the refresh interval ago."""
    return last.on_write or last.age < _refresh_seconds()


def _take_render_lock(base):
    """The page's render lock, holding when it was taken."""
    return cache.add(f"render:{base}", _now(), RENDER_LOCK_SECONDS)


def _rendered(base, version, identity, started, on_write=False):
    """Record the page rendered under `identity` as the last one, unless a later render was recorded."""
    last = _last(base)
    if last is None or last.started <= started:
        cache.set(f"last:{base}", LastRender(version, identity, started, on_write), PAGE_CACHE_SECONDS)


def _wait_for(base, key):
    """Wait for the request rendering page `key`: its entry, or None when the lock is free again
    (its holder gave up or vanished) and this request took it."""
    return versioned.wait_for_holder(lambda: _page_get(key), lambda: _take_render_lock(base)).value


def _with_token(request, body):
    return body.replace(_PLACEHOLDER_BYTES, get_token(request).encode()) if _PLACEHOLDER_BYTES in body else body


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads Accept-Encoding


def _accepts_gzip(request):
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def _etag(identity, request):
    """Weak when the answer may be compressed: the two encodings of one page are equivalent."""
    return f'W/"{identity}"' if _accepts_gzip(request) else f'"{identity}"'


def _entry(response):
    """The `PageEntry` stored of a rendered page."""
    body = response.content
    packed = None if _PLACEHOLDER_BYTES in body else gzip.compress(body, compresslevel=6, mtime=0)
    return PageEntry(response["Content-Type"], body, packed)


def _from_entry(request, entry):
    if entry.packed is not None and _accepts_gzip(request):
        response = HttpResponse(entry.packed, content_type=entry.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(_with_token(request, entry.body), content_type=entry.content_type)
    response["Content-Length"] = str(len(response.content))
    return response


def _finish(response, etag, language=None, cors=False):
    response["ETag"] = etag
    if cors:  # public data: any site's script may read it, without credentials
        response["Access-Control-Allow-Origin"] = "*"
    if language:
        response["Content-Language"] = language
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding", "HX-Request"))
    return response


def _answer(request, entry, etag, version, cors=False):
    """The stored page `entry`, or 304 when the visitor already has it."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = _from_entry(request, entry)
    response[VERSION_HEADER] = version
    return _finish(response, etag, cors=cors)


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


def serve_cached(request, scope, version, render, cors=False, started=None, params=()):
    """The response of `render()` filed under `scope` (a tournament's pk, "circuit-3", ...) and
    `version`: 304 when the visitor holds it, the stored copy when there is one; else rendered and
    stored (only a plain 200 is stored) by this request when it takes the page's render lock, or
    the last rendered page within the stale bound while another renders it (see the module's
    docstring). `cors`: see public_page. `started`: when `version` was read (now if not given).

    Only a page's canonical address is rendered and stored: any other (a query parameter the page
    does not read, `params` aside, an id written `0007`) is redirected to it, so junk addresses never
    fill the cache with copies of one page."""
    canonical = canonical_address(request, params)
    if request.get_full_path() != canonical:
        response = HttpResponsePermanentRedirect(canonical)
        if cors:
            response["Access-Control-Allow-Origin"] = "*"
        return response
    if _has_messages(request):  # a one-off message for this visitor: neither stored nor reused
        return render()
    started = _now() if started is None else started
    user = request.user.pk if request.user.is_authenticated else "anon"
    path, language, htmx = request.get_full_path(), get_language(), getattr(request, "htmx", False)
    identity = _identity(scope, path, version, language, user, htmx)
    etag = _etag(identity, request)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        not_modified[VERSION_HEADER] = version
        return _finish(not_modified, etag, cors=cors)
    key = f"page:{identity}"
    base = _base(scope, path, language, user, htmx)
    if refreshing(request):  # the refresher's request: it holds the page's render lock
        return _render(request, scope, version, render, cors, started, base, identity)
    entry = _page_get(key)
    if entry is not None:
        return _answer(request, entry, etag, version, cors)
    if user == "anon" and isinstance(scope, int) and not request.META.get("QUERY_STRING"):
        # rendered on write while visitors ask for it, once it was rendered for one (never a 404)
        watch(scope, path, language, htmx, request.META, started, exists=lambda: _last(base) is not None)
    stale = _last_rendered(base)
    if stale is not None and _fresh_enough(stale):
        return _answer(request, stale.entry, _etag(stale.identity, request), stale.version, cors)
    if not _take_render_lock(base):
        if stale is not None:
            return _answer(request, stale.entry, _etag(stale.identity, request), stale.version, cors)
        entry = _wait_for(base, key)
        if entry is not None:
            return _answer(request, entry, etag, version, cors)
    return _render(request, scope, version, render, cors, started, base, identity)


def _render(request, scope, version, render, cors, started, base, identity):
    """Render the page and store it (only a plain 200), holding its render lock; release the lock."""
    key, etag = f"page:{identity}", _etag(identity, request)
    path, htmx = request.get_full_path(), getattr(request, "htmx", False)
    try:
        request.renders_for_cache = True
        try:
            response = render()
        except (OperationalError, InterfaceError):
            # The database is out of reach: the last page rendered, however old, rather than an error.
            last = _last(base)
            entry = last and _page_get(f"page:{last.identity}")
            if not entry:
                raise
            return _answer(request, entry, _etag(last.identity, request), last.version, cors)
        finally:
            request.renders_for_cache = False
        if response.status_code != 200 or response.streaming or response.cookies:
            if not response.streaming:
                response.content = _with_token(request, response.content)
            return response
        entry = _entry(response)
        _page_set(key, entry)
        _rendered(base, version, identity, started, on_write=refreshing(request))
        if (not refreshing(request) and isinstance(scope, int) and not request.user.is_authenticated
                and not request.META.get("QUERY_STRING")):
            watch(scope, path, get_language(), htmx, request.META, started)  # a visitor's page, now rendered
        logger.info("rendered tournament=%s version=%s page=%s htmx=%d seconds=%.3f%s", scope, version, path,
                    bool(htmx), _now() - started, " on write" if refreshing(request) else "")
    finally:
        cache.delete(f"render:{base}")
    return _answer(request, entry, etag, version, cors)


def refreshing(request):
    """Whether `request` is the refresher's, rendering a page on write (tables.standings.refresh)."""
    return bool(request.META.get(REFRESH_KEY))


def last_render(pk, path, language, htmx):
    """The `LastRender` of an anonymous visitor's page, or None."""
    return _last(_base(pk, path, language, "anon", htmx))


def last_page(pk, path, language, htmx):
    """(version, body gzip-compressed) of the last render of an anonymous visitor's page, when its body
    carries nothing of a visitor (the live channel hands it to every screen showing that page); else
    None."""
    last = last_render(pk, path, language, htmx)
    entry = None if last is None else _page_get(f"page:{last.identity}")
    if entry is None or entry.packed is None:
        return None
    return last.version, entry.packed


def take_render_lock(pk, path, language, htmx):
    """The render lock of an anonymous visitor's page (see _take_render_lock)."""
    return _take_render_lock(_base(pk, path, language, "anon", htmx))


def release_render_lock(pk, path, language, htmx):
    """Give up the render lock of an anonymous visitor's page (a render that failed)."""
    cache.delete(f"render:{_base(pk, path, language, 'anon', htmx)}")


def public_page(view=None, *, cors=False, uncached_params=(), params=()):
    """Decorate a public GET view taking the tournament's `pk` first.

    `cors`: the answer may be read by any site's script (`Access-Control-Allow-Origin: *`, no
    credentials), for the public JSON. `uncached_params`: query parameters with which the page is
    rendered for this request alone (a visitor's search): never stored, so free text cannot fill
    the cache, and never answered from it. `params`: {name: values} of the query parameters the page
    reads and is stored with (`{"live": ("1",)}`); any other query is redirected away (serve_cached)."""
    if view is None:
        return lambda v: public_page(v, cors=cors, uncached_params=uncached_params, params=params)

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        if _has_messages(request) or any(request.GET.get(p) for p in uncached_params):
            # A one-off message, or a visitor's own search: neither stored nor reused.
            response = view(request, pk, *args, **kwargs)
            patch_cache_control(response, no_cache=True)
            if cors:
                response["Access-Control-Allow-Origin"] = "*"
            return response
        started = _now()  # before the version is read: the render shows every change made until then
        request.standings_version = results_version(pk)
        return serve_cached(request, pk, request.standings_version, lambda: view(request, pk, *args, **kwargs),
                            cors=cors, started=started, params=params)
    wrapper.public_page = True
    wrapper.public_cors = cors
    return wrapper


@lru_cache(maxsize=1024)
def _public_page_pk(path, urlconf):
    """The tournament of a public page's path and whether its answer is open to other sites' scripts;
    (None, False) for any other path, and for a path that is not the page's canonical one (`/t/0007/`:
    the view redirects it) (remembered: a path always resolves the same way)."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None, False
    if not getattr(match.func, "public_page", False):
        return None, False
    try:
        canonical = reverse(match.view_name, args=match.args, kwargs=match.kwargs, urlconf=urlconf)
    except NoReverseMatch:
        return None, False
    if canonical != path:
        return None, False
    return match.kwargs.get("pk"), getattr(match.func, "public_cors", False)


CSP_HEADER = "Content-Security-Policy"


class PublicPageCacheMiddleware:
    """Answer an anonymous GET of a cached public page before the rest of the chain runs."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.csrf = CsrfViewMiddleware(get_response)
        self.csp = CSPMiddleware(get_response)
        self.csp_header = None  # the policy has no per-request part (no nonce): built once
        self.frame = XFrameOptionsMiddleware(get_response)

    def __call__(self, request):
        return self._cached(request) or self.get_response(request)

    def _cached(self, request):
        try:
            request.get_host()  # a Host outside ALLOWED_HOSTS: the chain below answers 400, cache or not
        except DisallowedHost:
            return None
        if (request.method != "GET" or request.META.get("QUERY_STRING") or refreshing(request)
                or settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES):
            return None
        pk, cors = _public_page_pk(request.path_info, getattr(request, "urlconf", None) or get_urlconf())
        if pk is None:
            return None
        language = get_language_from_request(request)
        path, htmx = request.get_full_path(), request.headers.get("HX-Request") == "true"
        asked = _now()
        version = results_version(pk)
        base = _base(pk, path, language, "anon", htmx)
        identity = _identity(pk, path, version, language, "anon", htmx)
        entry = None
        response = get_conditional_response(request, etag=_etag(identity, request))
        if response is None:
            entry = _page_get(f"page:{identity}")
            if entry is None:
                stale = _stale(base)
                if stale is None:
                    return None  # rendered by the view, which stores it
                version, identity, entry = stale.version, stale.identity, stale.entry
                response = get_conditional_response(request, etag=_etag(identity, request))
        # rendered on write while visitors ask for it, once it was rendered for one (never a 404)
        watch(pk, path, language, htmx, request.META, asked, exists=lambda: _last(base) is not None)
        if response is None:
            self.csrf.process_request(request)
            response = _from_entry(request, entry)
        response[VERSION_HEADER] = version
        _finish(response, _etag(identity, request), language, cors=cors)
        self._add_csp(request, response)
        self.frame.process_response(request, response)
        return self.csrf.process_response(request, response)

    def _add_csp(self, request, response):
        if self.csp_header is None:
            self.csp.process_request(request)
            self.csp.process_response(request, response)
            self.csp_header = response.get(CSP_HEADER)
        elif CSP_HEADER not in response:
            response[CSP_HEADER] = self.csp_header
