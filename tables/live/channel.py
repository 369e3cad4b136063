"""The live channel of a tournament: one event each time a change its screens show commits.

When a change commits (tournaments.versions.on_committed), or once the public pages watched by visitors
show it (tables.standings.refresh.on_rendered; see tables/apps.py), `announce` files {"version", "what"} under
`live:<tournament>` in the shared cache and, when that cache is Redis, publishes it on the
tournament's Redis channel. A stream (`stream` under WSGI, `astream` under ASGI) sends each new
announcement as a server-sent event: `id:` the results version, `data:` the JSON. Under ASGI with
Redis one subscriber per process (`_Hub`) hands the published messages to the open streams; otherwise
(SQLite, `make run`, the test server) each stream reads the announcement once a second from the cache.
With Redis the hub also reads each of its tournaments' announcement every few seconds (once per
process, not once per stream), so a message missed while Redis restarted is sent late rather than
never. A heartbeat event (`event: beat`) at the start and every LIVE_HEARTBEAT_SECONDS keeps
proxies from closing an idle stream and tells the page that the channel works; each stream ends
after LIVE_STREAM_SECONDS (the browser's EventSource reconnects, sending the last id it got: a
client that missed a version gets the current one at once).

The channel computes nothing. A stream opened for a public page (`?page=` the address of the fragment
its screen shows, for an anonymous visitor) carries that page: each event names the version of the
page last rendered for it (tables.standings.cache, rendered on write by tables.standings.refresh) and
holds it as stored there, gzip-compressed, read once per process and version however many streams show it
(`_PageEvents`), so a thousand phones hold a new standings page without a thousand requests. When
that page is older than the change (not rendered yet: nobody watched it), the event is the plain one
and the screen fetches the page filed under the new version. The streams carrying a page keep it
watched, so it is rendered on write while they are open."""
import asyncio
import base64
import json
import logging
import threading
import time
import weakref
from collections import OrderedDict
from typing import NamedTuple

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from tables.live.selectors import announcement_key, change_of, last_announced, shown_publicly
from tables.standings.cache import last_page, last_render, now
from tables.standings.watch import watch
from tournaments.versions import results_through, results_version

logger = logging.getLogger("torneo.live")

ANNOUNCEMENT_SECONDS = 24 * 3600
WATCH_NOTE_SECONDS = 5  # a carried page is noted as watched this often (tables.standings.watch)
RECHECK_SECONDS = WATCH_NOTE_SECONDS  # with Redis: the hub reads the cache and notes the carried pages this often
RETRY_MS = 1000  # how soon EventSource reconnects after a stream ended
PAGE_EVENTS_KEPT = 32  # per process, the page events last built


class Page(NamedTuple):
    """The page a stream carries: the address of the htmx fragment its screen shows, the stream's
    language, and its request's host headers (what the page is rendered on write for)."""
    path: str
    language: str
    meta: dict


def note_watched(pk, page):
    """Keep `page` watched while a stream carries it: a stream asks for every new version of its page,
    so the page is noted as asked for until the next note is due, and each version saved meanwhile is
    rendered on write (tables.standings.refresh renders only the pages asked for since their last
    render). Only a page rendered before for a visitor, whole or as its fragment (a public page of this
    tournament: the screen was loaded from it), is noted."""
    if any(last_render(pk, page.path, page.language, htmx) is not None for htmx in (False, True)):
        watch(pk, page.path, page.language, True, page.meta, now() + 2 * WATCH_NOTE_SECONDS)


def page_event(pk, page, change):
    """(version, event) carrying the page last rendered of `page` when it shows `change` or a later
    one: `event: page`, its id that page's version, its data {"version", "what", "gzip"} (the page as
    stored, gzip-compressed, in base64: a twelfth of its size); else None."""
    try:
        found = last_page(pk, page.path, page.language, True)
    except Exception:  # the cache out of reach: the plain event, the screen fetches
        logger.exception("live: reading the page %s failed", page.path)
        return None
    if found is None:
        return None
    version, packed = found
    if version != change["version"] and results_through(version) <= results_through(change["version"]):
        return None
    data = json.dumps({"version": version, "what": change["what"], "gzip": base64.b64encode(packed).decode()})
    return version, f"id: {version}\nevent: page\ndata: {data}\n\n".encode()


def redis_url():
    """The Redis of the shared cache, or None when the cache is not Redis."""
    location = settings.CACHES["default"].get("LOCATION", "")
    return location if isinstance(location, str) and location.startswith(("redis://", "rediss://")) else None


def _channel(pk):
    return f"{settings.CACHES['default'].get('KEY_PREFIX', '')}:live:{pk}"


_publisher = {}


def _publish(url, pk, payload):
    client = _publisher.get(url)
    if client is None:
        client = _publisher[url] = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    client.publish(_channel(pk), payload)


def announce(pk, version=None):
    """Called once a change of tournament `pk` has committed, or once the public pages showing it are
    rendered (`version`, tables.standings.refresh): file and publish its version (the current one when
    not given). A version already announced, or older than the one last announced (another server's
    render finished first), is not announced again; nor one naming only changes of a draft round."""
    try:
        last = last_announced(pk)
        if version is not None and last and (
                last["version"] == version or results_through(last["version"]) > results_through(version)):
            return
        change = change_of(pk, version or results_version(pk), since=results_through(last["version"]) if last else 0)
        if change is None:  # a draft's change: no screen of the public shows it
            return
        cache.set(announcement_key(pk), change, ANNOUNCEMENT_SECONDS)
        url = redis_url()
        if url:
            _publish(url, pk, json.dumps(change))
    except Exception:  # the screens' own polls still show the change
        logger.exception("live: announcing a change of tournament %s failed", pk)


def opening(pk, last_event_id):
    """What a new stream starts from: (the change to send at once or None, the version the client
    holds: the last event's id it sent back, else the last announced)."""
    current = results_version(pk)
    if last_event_id:
        first = change_of(pk, current, since=results_through(last_event_id)) if last_event_id != current else None
        return first, last_event_id
    return None, (last_announced(pk) or {}).get("version", current)


def event(change):
    return f"id: {change['version']}\ndata: {json.dumps(change)}\n\n"


def beat():
    """The heartbeat: an event the page sees (a comment line it would not), naming how often it comes,
    so that a page can tell a channel that works from one a proxy holds back (static/js/live.js)."""
    return f"event: beat\ndata: {json.dumps({'every': settings.LIVE_HEARTBEAT_SECONDS})}\n\n"


def _start():
    """What a stream opens with: how soon to reconnect once it ends, and a heartbeat."""
    return f"retry: {RETRY_MS}\n\n{beat()}"


class _Pace:
    """One stream's pace, the same under WSGI and ASGI: each new version once, a heartbeat when nothing
    was sent for LIVE_HEARTBEAT_SECONDS, the stream ended after LIVE_STREAM_SECONDS."""

    def __init__(self, sent):
        self.sent = sent
        self.started = self.beat = time.monotonic()

    @property
    def running(self):
        return time.monotonic() - self.started < settings.LIVE_STREAM_SECONDS

    def new(self, change):
        """Whether `change` (the last announcement, or None) is one this stream has not sent: neither
        its version nor an older one than the page last sent."""
        if not change or change["version"] == self.sent:
            return False
        through, sent = results_through(change["version"]), results_through(self.sent or "")
        return not (through and sent and through < sent)

    def output(self, change, carried=None):
        """What to send after reading `change` (the last announcement, or None): the event carrying
        the page (`carried`, from `page_event`) or its own, a heartbeat, or nothing."""
        if self.new(change):
            self.beat = time.monotonic()
            if carried is not None:
                self.sent = carried[0]
                return carried[1]
            self.sent = change["version"]
            return event(change)
        if time.monotonic() - self.beat >= settings.LIVE_HEARTBEAT_SECONDS:
            self.beat = time.monotonic()
            return beat()
        return None

    def wait(self):
        """Seconds until the next heartbeat is due or the stream ends."""
        due = min(self.beat + settings.LIVE_HEARTBEAT_SECONDS, self.started + settings.LIVE_STREAM_SECONDS)
        return max(0.01, due - time.monotonic())


class Slots:
    """The streams each client address holds open in this process: at most LIVE_STREAMS_PER_CLIENT; a
    slot is given back when its stream ends, closes or is dropped unread."""

    def __init__(self):
        self.held = {}
        self.lock = threading.Lock()

    def take(self, address):
        with self.lock:
            if self.held.get(address, 0) >= settings.LIVE_STREAMS_PER_CLIENT:
                return False
            self.held[address] = self.held.get(address, 0) + 1
            return True

    def give(self, address):
        with self.lock:
            left = self.held.get(address, 0) - 1
            if left > 0:
                self.held[address] = left
            else:
                self.held.pop(address, None)

    def holding(self, address):
        with self.lock:
            return self.held.get(address, 0)


slots = Slots()


def held(events, address):
    """`events` (a stream, sync or async) holding one of its client's slots: given back once, when the
    stream ends or closes, or when it is dropped without ever being read (`weakref.finalize`)."""
    if hasattr(events, "__aiter__"):
        async def run():
            try:
                async for item in events:
                    yield item
            finally:
                release()
    else:
        def run():
            try:
                yield from events
            finally:
                release()
    wrapped = run()
    release = weakref.finalize(wrapped, slots.give, address)
    return wrapped


class _Public:
    """Whether a public stream's tournament is still published, read at most every RECHECK_SECONDS: a
    stream of the public ends once it is unpublished (a staff stream is not asked)."""

    def __init__(self, pk, public):
        self.pk, self.public, self.checked = pk, public, time.monotonic()

    def due(self):
        return self.public and time.monotonic() - self.checked >= RECHECK_SECONDS

    def still(self):
        self.checked = time.monotonic()
        return shown_publicly(self.pk)


def stream(pk, first, sent, page=None, public=False):
    """The events of tournament `pk` for a WSGI server: the announcement read once a second; `first`
    and `sent` as `opening` returned them, `page` the page carried (or None); `public`: the stream of a
    visitor who is not staff, which ends once the tournament is unpublished."""
    yield _start()
    pace, shown = _Pace(sent), _Public(pk, public)
    change, noted = first, 0.0
    while True:
        if shown.due() and not shown.still():
            return
        if page and time.monotonic() - noted >= WATCH_NOTE_SECONDS:
            note_watched(pk, page)
            noted = time.monotonic()
        carried = page_event(pk, page, change) if page and pace.new(change) else None
        text = pace.output(change, carried)
        if text:
            yield text
        if not pace.running:
            return
        time.sleep(settings.LIVE_POLL_SECONDS)
        change = last_announced(pk)


class _Hub:
    """One Redis subscription per process and event loop, handing each message to the queues of the
    streams of its tournament; and every RECHECK_SECONDS one read of each such tournament's last
    announcement, handed on when it names a version the hub has not handed on (a message missed)."""

    def __init__(self):
        self.queues = {}
        self.pages = {}  # queue -> the page its stream carries
        self.latest = {}  # tournament pk -> the version last handed to its streams
        self.task = self.recheck = None
        self.loop = None

    def subscribe(self, pk, url, page=None):
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.loop is not loop:
            self.loop, self.task = loop, loop.create_task(self._listen(url))
            self.recheck = loop.create_task(self._recheck())
        queue = asyncio.Queue(maxsize=8)
        self.queues.setdefault(pk, set()).add(queue)
        if page:
            self.pages[queue] = page
        return queue

    def unsubscribe(self, pk, queue):
        queues = self.queues.get(pk, set())
        queues.discard(queue)
        self.pages.pop(queue, None)
        if not queues:
            self.queues.pop(pk, None)

    async def _listen(self, url):
        prefix = _channel("")
        while True:
            try:
                client = aioredis.from_url(url)
                pubsub = client.pubsub()
                await pubsub.psubscribe(prefix + "*")
                async for message in pubsub.listen():
                    if message["type"] == "pmessage":
                        self._deliver(message["channel"].decode()[len(prefix):], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis restarting: the streams read the cache meanwhile
                logger.warning("live: Redis subscription lost, retrying")
                await asyncio.sleep(1)

    async def _recheck(self):
        while True:
            await asyncio.sleep(RECHECK_SECONDS)
            try:
                await self.recheck_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # the cache out of reach: the next message, or the next look
                logger.warning("live: reading the last announcements failed")

    async def recheck_once(self):
        """Hand on each tournament's last announcement when the hub has not handed it on yet; keep the
        pages its streams carry watched."""
        for pk in list(self.queues):
            change = await sync_to_async(last_announced, thread_sensitive=False)(pk)
            if change and change["version"] != self.latest.get(pk):
                self.hand_on(pk, change)
        carried = {(pk, page.path, page.language): (pk, page)
                   for pk, queues in list(self.queues.items()) for queue in queues
                   if (page := self.pages.get(queue)) is not None}
        for pk, page in carried.values():
            await sync_to_async(note_watched, thread_sensitive=False)(pk, page)

    def _deliver(self, pk, data):
        if pk.isdigit():
            self.hand_on(int(pk), json.loads(data))

    def hand_on(self, pk, change):
        """Put `change` in the queue of each stream of tournament `pk`."""
        self.latest[pk] = change["version"]
        for queue in list(self.queues.get(pk, ())):
            if queue.full():
                queue.get_nowait()  # a slow reader gets the latest change, not every one
            queue.put_nowait(change)


_hub = _Hub()


class _PageEvents:
    """The page events of this process: each page's event for a version built once (`page_event`, in a
    thread) and shared by every stream carrying that page."""

    def __init__(self):
        self.built = OrderedDict()  # (pk, path, language, version) -> the task building its event

    async def get(self, pk, page, change):
        key = (pk, page.path, page.language, change["version"])
        task = self.built.get(key)
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.ensure_future(sync_to_async(page_event, thread_sensitive=False)(pk, page, change))
            self.built[key] = task
            while len(self.built) > PAGE_EVENTS_KEPT:
                self.built.popitem(last=False)
        return await asyncio.shield(task)  # a stream closing while it waits leaves the task to the others


_page_events = _PageEvents()


async def astream(pk, first, sent, page=None, public=False):
    """The events of tournament `pk` for an ASGI server (see the module's docstring); `first` and
    `sent` as `opening` returned them, `page` the page carried (or None), `public` as for `stream`."""
    url = redis_url()
    queue = _hub.subscribe(pk, url, page) if url else None
    try:
        yield _start()
        pace, shown = _Pace(sent), _Public(pk, public)
        change, noted = first, 0.0
        while True:
            if shown.due() and not await sync_to_async(shown.still, thread_sensitive=False)():
                return
            if page and (not noted if queue else time.monotonic() - noted >= WATCH_NOTE_SECONDS):
                await sync_to_async(note_watched, thread_sensitive=False)(pk, page)  # then the hub's, with Redis
                noted = time.monotonic()
            carried = await _page_events.get(pk, page, change) if page and pace.new(change) else None
            text = pace.output(change, carried)
            if text:
                yield text
            if not pace.running:
                return
            change = None
            if queue is not None:  # the hub hands on every change: nothing to read meanwhile
                try:
                    wait = min(pace.wait(), RECHECK_SECONDS) if public else pace.wait()
                    change = await asyncio.wait_for(queue.get(), wait)
                except asyncio.TimeoutError:
                    pass
            else:
                await asyncio.sleep(settings.LIVE_POLL_SECONDS)
                change = await sync_to_async(last_announced, thread_sensitive=False)(pk)
    finally:
        if queue is not None:
            _hub.unsubscribe(pk, queue)
