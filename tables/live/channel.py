"""The live channel of a tournament: one server-sent event each time a change its screens show is ready.

`announce` is called by the tournament's snapshot job (tables/live/snapshot.py) once the public pages of a
new version are rendered: it files the message {"version", "what", "pages"} under `live:<tournament>`
in the shared cache and, when that cache is Redis, publishes it on the tournament's Redis channel.
`pages` holds the htmx fragments the job rendered, gzip-compressed in base64 ({path: {language: ...}}).
Nothing is announced for a version older than the last announced, nor for changes of a draft round
alone (no public screen shows them).

A stream sends each message it has not sent as one event, `id:` the version: `event: page` with the
fragment its screen shows (`?page=`, in the stream's language), swapped in with no request at all, or
a plain event (the screen asks for its page). Under ASGI (`stream`) with Redis, one subscriber per
process (`_Hub`) hands each message to the streams of its tournament, and each event is built once per
process however many streams send it; without Redis (SQLite, `make run`), and under WSGI
(`sync_stream`: runserver, the tests' server), each stream reads the cache every LIVE_POLL_SECONDS.
Both follow one `_Pace`. A heartbeat (`event: beat`) at the start and every LIVE_HEARTBEAT_SECONDS
keeps proxies from closing an idle stream and tells the page that the channel works; each stream ends
after LIVE_STREAM_SECONDS (the browser reconnects, sending the last id it got: a missed message is sent
at once), and a public stream ends once the tournament is unpublished.
"""
import asyncio
import base64
import json
import logging
import threading
import time
import weakref

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from tables.live.selectors import announcement_key, change_of, last_announced, shown_publicly
from tables.standings import versioned
from tournaments.versions import results_through, results_version

logger = logging.getLogger("torneo.live")

# With Redis: every stream's tournament's last message is read this often (one read per process), so a
# message published while Redis restarted is sent late rather than never; and a public stream checks
# this often that its tournament is still published.
RECHECK_SECONDS = 5
RETRY_MS = 1000  # how soon EventSource reconnects after a stream ended


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


def announce(pk, version=None, pages=None):
    """File and publish the message of tournament `pk` at `version` (the current one when not given)
    with the rendered `pages` ({path: {language: gzip bytes}}); not a version older than the last
    announced or the same again, nor one naming only changes of a draft."""
    try:
        version = version or results_version(pk)
        last = last_announced(pk)
        if last and (last["version"] == version or results_through(last["version"]) > results_through(version)):
            return
        change = change_of(pk, version, since=results_through(last["version"]) if last else 0)
        if change is None:  # a draft's change: no screen of the public shows it
            return
        change["pages"] = {path: {language: base64.b64encode(packed).decode() for language, packed in by.items()}
                           for path, by in (pages or {}).items()}
        cache.set(announcement_key(pk), change, versioned.CACHE_SECONDS)  # kept as long as a page
        url = redis_url()
        if url:
            _publish(url, pk, json.dumps(change))
    except Exception:  # the screens' own polls still show the change
        logger.exception("live: announcing a change of tournament %s failed", pk)


def event(message, page=None):
    """The event of `message` for a stream carrying `page` ((path, language) or None): `event: page` with
    the page when the message holds it, else a plain one. Built once per message and page."""
    built = message.setdefault("_events", {})
    packed = (message.get("pages") or {}).get(page[0], {}).get(page[1]) if page else None
    key = page if packed else None
    if key not in built:
        data = {"version": message["version"], "what": message["what"]}
        if packed:
            built[key] = f"id: {message['version']}\nevent: page\ndata: {json.dumps({**data, 'gzip': packed})}\n\n"
        else:
            built[key] = f"id: {message['version']}\ndata: {json.dumps(data)}\n\n"
    return built[key]


def beat():
    """The heartbeat: an event the page sees (a comment line it would not), naming how often it comes,
    so that a page can tell a channel that works from one a proxy holds back (static/js/live.js)."""
    return f"event: beat\ndata: {json.dumps({'every': settings.LIVE_HEARTBEAT_SECONDS})}\n\n"


def newer(message, sent):
    """Whether `message` is one a stream that sent version `sent` has not sent: another version, and not
    an older one (a message read late, or from the cache after a newer one came through Redis)."""
    if not message or message["version"] == sent:
        return False
    return not sent or results_through(message["version"]) >= results_through(sent)


class Slots:
    """The streams each client address holds open in this process: at most LIVE_STREAMS_PER_CLIENT, and
    at most LIVE_STREAMS_MAX from all addresses together; a slot is given back when its stream ends,
    closes or is dropped unread."""

    CLIENT, PROCESS = "client", "process"

    def __init__(self):
        self.held = {}
        self.total = 0
        self.lock = threading.Lock()

    def take(self, address):
        """"" when a slot was taken; else who holds too many: CLIENT (this address) or PROCESS (all)."""
        with self.lock:
            if self.held.get(address, 0) >= settings.LIVE_STREAMS_PER_CLIENT:
                return self.CLIENT
            if self.total >= settings.LIVE_STREAMS_MAX:
                return self.PROCESS
            self.held[address] = self.held.get(address, 0) + 1
            self.total += 1
            return ""

    def give(self, address):
        with self.lock:
            if address in self.held:
                self.total -= 1
            left = self.held.get(address, 0) - 1
            if left > 0:
                self.held[address] = left
            else:
                self.held.pop(address, None)

    def holding(self, address):
        with self.lock:
            return self.held.get(address, 0)


slots = Slots()


class _Hub:
    """One Redis subscription per process and event loop, handing each message to the queues of the
    streams of its tournament; every RECHECK_SECONDS one read of each such tournament's last message,
    handed on when the hub has not handed it on (a message missed while Redis restarted)."""

    def __init__(self):
        self.queues, self.latest, self.tasks, self.loop = {}, {}, (), None

    def subscribe(self, pk, url):
        loop = asyncio.get_running_loop()
        if self.loop is not loop or any(task.done() for task in self.tasks):
            self.loop, self.tasks = loop, (loop.create_task(self._listen(url)), loop.create_task(self._recheck()))
        queue = asyncio.Queue(maxsize=8)
        self.queues.setdefault(pk, set()).add(queue)
        return queue

    def unsubscribe(self, pk, queue):
        queues = self.queues.get(pk, set())
        queues.discard(queue)
        if not queues:
            self.queues.pop(pk, None)

    async def _listen(self, url):
        prefix = _channel("")
        while True:
            try:
                pubsub = aioredis.from_url(url).pubsub()
                await pubsub.psubscribe(prefix + "*")
                async for message in pubsub.listen():
                    pk = message["channel"].decode()[len(prefix):] if message["type"] == "pmessage" else ""
                    if pk.isdigit():
                        self.hand_on(int(pk), json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis restarting: the recheck reads the cache meanwhile
                logger.warning("live: Redis subscription lost, retrying")
                await asyncio.sleep(1)

    async def _recheck(self):
        while True:
            await asyncio.sleep(RECHECK_SECONDS)
            await self.recheck_once()

    async def recheck_once(self):
        """Hand on each tournament's last message when the hub has not handed it on."""
        for pk in list(self.queues):
            try:
                message = await sync_to_async(last_announced, thread_sensitive=False)(pk)
            except Exception:  # the cache out of reach: the next message, or the next look
                logger.warning("live: reading the last message of tournament %s failed", pk)
                continue
            if message and message["version"] != self.latest.get(pk):
                self.hand_on(pk, message)

    def hand_on(self, pk, message):
        self.latest[pk] = message["version"]
        for queue in list(self.queues.get(pk, ())):
            if queue.full():
                queue.get_nowait()  # a slow reader gets the latest message, not every one
            queue.put_nowait(message)


_hub = _Hub()


class _Pace:
    """One stream's course, the same under ASGI and WSGI: each newer message once, a heartbeat when
    nothing was sent for LIVE_HEARTBEAT_SECONDS, the end after LIVE_STREAM_SECONDS, a public stream's
    tournament looked at every RECHECK_SECONDS (it ends once unpublished)."""

    def __init__(self, sent, page, public):
        self.sent, self.page, self.public = sent, page, public
        self.started = self.beat_at = self.checked = time.monotonic()

    def output(self, message):
        """What to send after reading `message` (the last one, or None): its event, a heartbeat or None."""
        if newer(message, self.sent):
            self.sent, self.beat_at = message["version"], time.monotonic()
            return event(message, self.page)
        if time.monotonic() - self.beat_at >= settings.LIVE_HEARTBEAT_SECONDS:
            self.beat_at = time.monotonic()
            return beat()
        return None

    def over(self):
        return time.monotonic() - self.started >= settings.LIVE_STREAM_SECONDS

    def check_due(self):
        if self.public and time.monotonic() - self.checked >= RECHECK_SECONDS:
            self.checked = time.monotonic()
            return True
        return False

    def wait(self):
        """Seconds until the next heartbeat, the end, or the next look at the tournament."""
        due = min(self.beat_at + settings.LIVE_HEARTBEAT_SECONDS, self.started + settings.LIVE_STREAM_SECONDS)
        if self.public:
            due = min(due, self.checked + RECHECK_SECONDS)
        return max(due - time.monotonic(), 0.01)


def _opening():
    """What a stream opens with: how soon to reconnect once it ends, and a heartbeat."""
    return f"retry: {RETRY_MS}\n\n{beat()}"


async def stream(pk, sent, page=None, public=False):
    """The events of tournament `pk` for an ASGI server: `sent` the version the client holds (its
    Last-Event-ID, else the last announced), `page` the (path, language) its screen shows or None,
    `public` whether it ends once the tournament is unpublished. With Redis each message comes from
    the hub; without, the cache is read every LIVE_POLL_SECONDS."""
    url = redis_url()
    queue = _hub.subscribe(pk, url) if url else None
    read = sync_to_async(last_announced, thread_sensitive=False)
    pace = _Pace(sent, page, public)
    try:
        yield _opening()
        message = await read(pk)  # a message the client missed is sent at once
        while True:
            text = pace.output(message)
            if text:
                yield text
            if pace.over() or (pace.check_due()
                               and not await sync_to_async(shown_publicly, thread_sensitive=False)(pk)):
                return
            if queue is None:
                await asyncio.sleep(min(pace.wait(), settings.LIVE_POLL_SECONDS))
                message = await read(pk)
            else:
                try:
                    message = await asyncio.wait_for(queue.get(), pace.wait())
                except asyncio.TimeoutError:
                    message = None
    finally:
        if queue is not None:
            _hub.unsubscribe(pk, queue)


def sync_stream(pk, sent, page=None, public=False):
    """The same stream for a WSGI server (runserver, the tests' server), in its request's thread: the
    cache read every LIVE_POLL_SECONDS."""
    pace = _Pace(sent, page, public)
    yield _opening()
    message = last_announced(pk)
    while True:
        text = pace.output(message)
        if text:
            yield text
        if pace.over() or (pace.check_due() and not shown_publicly(pk)):
            return
        time.sleep(min(pace.wait(), settings.LIVE_POLL_SECONDS))
        message = last_announced(pk)


def held(events, address):
    """`events` holding one of its client's slots: given back once, when the stream ends or closes, or
    when it is dropped without ever being read (`weakref.finalize`)."""
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
