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
keeps proxies from closing an idle stream, tells the page that the channel works and carries the
results version now: a screen whose announcements stopped (the worker stopped, Redis down) still
learns of a change by the next heartbeat. With Redis, the hub also reads each tournament's version
every HUB_RECHECK_SECONDS: a version left unannounced for that long goes out as a plain event (the screens
ask for their pages). Each event's id is `<version>@<generation>`, the generation naming the database
and release of the shared cache: a client coming back with an id of another generation (a restored
database, whose versions start lower again) is sent the last message at once. Every read of the
database from a stream runs on an executor thread whose connection no request signal ever checks: a
failed read closes that thread's connection (the next one opens another, after a database restart) and
is noted for the health page (`trouble`); each stream ends
after LIVE_STREAM_SECONDS (the browser reconnects, sending the last id it got: a missed message is sent
at once), and a public stream ends once the tournament is unpublished.
"""
import asyncio
import base64
import hashlib
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
from django.db import DatabaseError, close_old_connections

from tables.live.selectors import announcement_key, change_of, last_announced, shown_publicly
from tables.standings import versioned
from tournaments.versions import results_through, results_version

logger = logging.getLogger("torneo.live")

# With Redis: every stream's tournament's last message is read this often (one read per process), so a
# message published while Redis restarted is sent late rather than never; and a public stream checks
# this often that its tournament is still published.
RECHECK_SECONDS = 5
# With Redis, the hub's look at each of its tournaments (one per process and tournament, not per stream):
# its last message and its version, a version unannounced at two looks in a row handed on as a plain event.
HUB_RECHECK_SECONDS = 2
RETRY_MS = 1000  # how soon EventSource reconnects after a stream ended


def redis_url():
    """The Redis of the shared cache, or None when the cache is not Redis."""
    location = settings.CACHES["default"].get("LOCATION", "")
    return location if isinstance(location, str) and location.startswith(("redis://", "rediss://")) else None


def _channel(pk):
    return f"{settings.CACHES['default'].get('KEY_PREFIX', '')}:live:{pk}"


_publisher = {}
PUBLISH_RETRY_SECONDS = 5  # after a failed publication, none is tried for this long (Redis down)
_publishing = {"down_since": None, "tried_at": 0.0}


def _publish(url, pk, payload):
    """The message published on Redis. While Redis is down: one log line when the outage starts and one
    when it ends (not a traceback per announcement), no try for PUBLISH_RETRY_SECONDS after a failure
    (each would wait for its timeout); the screens' heartbeats and the hub's rechecks carry the changes."""
    now = time.monotonic()
    down_since = _publishing["down_since"]
    if down_since is not None and now - _publishing["tried_at"] < PUBLISH_RETRY_SECONDS:
        return
    client = _publisher.get(url)
    if client is None:
        client = _publisher[url] = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    _publishing["tried_at"] = now
    try:
        client.publish(_channel(pk), payload)
    except redis.RedisError as exc:
        if down_since is None:
            _publishing["down_since"] = now
            logger.warning("live: Redis does not answer (%s); changes are not published until it does", exc)
        return
    if down_since is not None:
        _publishing["down_since"] = None
        logger.warning("live: Redis answers again after %.0f s; changes are published", now - down_since)


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


def generation():
    """The shared cache's generation (risiko_site.generation: the database, the release, the pages'
    settings), as every key of the cache names it; read where the database may be used (a thread)."""
    return hashlib.sha256(cache.make_key("live").encode()).hexdigest()[:10]


def event_id(version, gen):
    return f"{version}@{gen}"


def version_sent(last_event_id, gen):
    """The version a client coming back holds: its Last-Event-ID's, "" (none: the last message is sent at
    once) when the id names another generation (a restored database: its versions start lower again).
    An id without a generation (a client of an older release) is taken as it is."""
    version, _, of = (last_event_id or "").partition("@")
    return "" if of and of != gen else version


def event(message, page=None, gen=""):
    """The event of `message` for a stream carrying `page` ((path, language) or None): `event: page` with
    the page when the message holds it, else a plain one; its id names the version and the generation
    `gen`. Built once per message, page and generation."""
    built = message.setdefault("_events", {})
    packed = (message.get("pages") or {}).get(page[0], {}).get(page[1]) if page else None
    key = (page if packed else None, gen)
    if key not in built:
        data = {"version": message["version"], "what": message["what"]}
        ident = event_id(message["version"], gen) if gen else message["version"]
        if packed:
            built[key] = f"id: {ident}\nevent: page\ndata: {json.dumps({**data, 'gzip': packed})}\n\n"
        else:
            built[key] = f"id: {ident}\ndata: {json.dumps(data)}\n\n"
    return built[key]


def beat(version=None):
    """The heartbeat: an event the page sees (a comment line it would not), naming how often it comes,
    so that a page can tell a channel that works from one a proxy holds back, and the results version now
    when known: a page showing another asks for its pages (static/js/live.js)."""
    data = {"every": settings.LIVE_HEARTBEAT_SECONDS}
    if version:
        data["version"] = version
    return f"event: beat\ndata: {json.dumps(data)}\n\n"


class _Trouble:
    """When a stream's read of the database last failed and last worked, in this process: the live
    server's health page is unhealthy while the last failure is the newer (tables.live.selectors)."""

    def __init__(self):
        self.failed_at = self.worked_at = None
        self.why = ""

    def failed(self, exc):
        self.failed_at, self.why = time.monotonic(), (str(exc).strip().splitlines() or [type(exc).__name__])[0]

    def worked(self):
        self.worked_at = time.monotonic()

    KEPT_SECONDS = 60  # a failure no stream read has followed since (no stream open) is forgotten after this

    def now(self):
        """Why the streams cannot read the database, or None."""
        if (self.failed_at is not None and (self.worked_at is None or self.worked_at < self.failed_at)
                and time.monotonic() - self.failed_at < self.KEPT_SECONDS):
            return f"the live streams cannot read the database: {self.why}"
        return None


trouble = _Trouble()


def _checked(function):
    """`function` as run on an executor thread by a stream: a database error closes this thread's
    connection when it no longer works (no request signal ever does it here: after a database restart it
    would fail for ever), and is noted; the error is raised again."""
    def run(*args):
        try:
            result = function(*args)
        except DatabaseError as exc:
            close_old_connections()
            trouble.failed(exc)
            raise
        trouble.worked()
        return result
    return run


def _in_executor(function):
    """`function` run on an executor thread of the event loop (sync_to_async, not thread-sensitive); with
    no persistent connections (make run, the tests) that thread's connection is closed after it, as a
    request's would be."""
    def run(*args):
        try:
            return function(*args)
        finally:
            if not settings.DATABASES["default"].get("CONN_MAX_AGE"):
                close_old_connections()
    return sync_to_async(run, thread_sensitive=False)


def still_published(pk):
    """Whether a public stream goes on: its tournament is still published, or the database does not
    answer now (a stream is not cut for that: the check is made again later)."""
    try:
        return _checked(shown_publicly)(pk)
    except DatabaseError:
        logger.warning("live: whether tournament %s is still published is unknown: %s", pk, trouble.why)
        return True


def version_now(pk):
    """The results version now, None when neither the cache nor the database answers."""
    try:
        return _checked(results_version)(pk)
    except DatabaseError:
        return None
    except Exception:  # the cache out of reach
        return None


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
    streams of its tournament; every HUB_RECHECK_SECONDS one read of each such tournament's last message,
    handed on when the hub has not handed it on (a message missed while Redis restarted), and of its
    results version (what the heartbeats carry): a version newer than the last handed on at two reads in
    a row (no announcement came within HUB_RECHECK_SECONDS: the worker stopped, Redis down; the version
    may have moved again between them, saves going on) is handed on as a plain message, the screens asking for their pages themselves."""

    def __init__(self):
        self.queues, self.latest, self.versions, self.unannounced, self.tasks, self.loop = {}, {}, {}, {}, (), None

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
        lost = False
        while True:
            try:
                pubsub = aioredis.from_url(url, socket_connect_timeout=1).pubsub()
                await pubsub.psubscribe(prefix + "*")
                if lost:
                    logger.warning("live: Redis subscription back")
                    lost = False
                async for message in pubsub.listen():
                    pk = message["channel"].decode()[len(prefix):] if message["type"] == "pmessage" else ""
                    if pk.isdigit():
                        self.hand_on(int(pk), json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis restarting: the recheck reads the cache meanwhile; one line per outage
                if not lost:
                    logger.warning("live: Redis subscription lost (%s), retrying every second", exc)
                lost = True
                await asyncio.sleep(1)

    async def _recheck(self):
        while True:
            await asyncio.sleep(HUB_RECHECK_SECONDS)
            await self.recheck_once()

    async def recheck_once(self):
        """Hand on each tournament's last message when the hub has not handed it on; a version left
        unannounced since the last look as a plain message."""
        for pk in list(self.queues):
            try:
                message = await _in_executor(last_announced)(pk)
            except Exception:  # the cache out of reach: the next message, or the next look
                logger.warning("live: reading the last message of tournament %s failed", pk)
                message = None
            if newer(message, self.latest.get(pk)):
                self.hand_on(pk, message)
            version = await _in_executor(version_now)(pk)
            if version is None:
                continue
            self.versions[pk] = version
            handed = self.latest.get(pk)
            if version == handed or (handed and results_through(version) < results_through(handed)):
                self.unannounced.pop(pk, None)
            elif self.unannounced.get(pk, 0) >= 1:  # ahead at the last look too (saves going on: another version)
                self.hand_on(pk, {"version": version, "what": ""})
            else:
                self.unannounced[pk] = 1

    def hand_on(self, pk, message):
        self.latest[pk] = message["version"]
        self.unannounced.pop(pk, None)
        for queue in list(self.queues.get(pk, ())):
            if queue.full():
                queue.get_nowait()  # a slow reader gets the latest message, not every one
            queue.put_nowait(message)


_hub = _Hub()


class _Pace:
    """One stream's course, the same under ASGI and WSGI: each newer message once, a heartbeat when
    nothing was sent for LIVE_HEARTBEAT_SECONDS, the end after LIVE_STREAM_SECONDS, a public stream's
    tournament looked at every RECHECK_SECONDS (it ends once unpublished)."""

    def __init__(self, sent, page, public, gen=""):
        self.sent, self.page, self.public, self.gen = sent, page, public, gen
        self.started = self.beat_at = self.checked = time.monotonic()

    def output(self, message, version=None):
        """What to send after reading `message` (the last one, or None): its event, a heartbeat (with the
        results `version` now, when known) or None."""
        if newer(message, self.sent):
            self.sent, self.beat_at = message["version"], time.monotonic()
            return event(message, self.page, self.gen)
        if self.beat_due():
            self.beat_at = time.monotonic()
            return beat(version)
        return None

    def beat_due(self):
        return time.monotonic() - self.beat_at >= settings.LIVE_HEARTBEAT_SECONDS

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


def _opening(version=None):
    """What a stream opens with: how soon to reconnect once it ends, and a heartbeat."""
    return f"retry: {RETRY_MS}\n\n{beat(version)}"


async def stream(pk, sent, page=None, public=False, gen=""):
    """The events of tournament `pk` for an ASGI server: `sent` the version the client holds (its
    Last-Event-ID, else the last announced), `page` the (path, language) its screen shows or None,
    `public` whether it ends once the tournament is unpublished, `gen` the cache's generation (in each
    event's id). With Redis each message comes from the hub; without, the cache is read every
    LIVE_POLL_SECONDS."""
    url = redis_url()
    queue = _hub.subscribe(pk, url) if url else None
    read = _in_executor(last_announced)
    version = _in_executor(version_now)
    pace = _Pace(sent, page, public, gen)
    try:
        yield _opening(await version(pk))
        message = await read(pk)  # a message the client missed is sent at once
        while True:
            now = None
            if pace.beat_due() and not newer(message, pace.sent):
                now = _hub.versions.get(pk) if queue is not None else None
                now = now or await version(pk)
            text = pace.output(message, now)
            if text:
                yield text
            if pace.over() or (pace.check_due()
                               and not await _in_executor(still_published)(pk)):
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


def sync_stream(pk, sent, page=None, public=False, gen=""):
    """The same stream for a WSGI server (runserver, the tests' server), in its request's thread: the
    cache read every LIVE_POLL_SECONDS."""
    pace = _Pace(sent, page, public, gen)
    yield _opening(version_now(pk))
    message = last_announced(pk)
    while True:
        now = version_now(pk) if pace.beat_due() and not newer(message, pace.sent) else None
        text = pace.output(message, now)
        if text:
            yield text
        if pace.over() or (pace.check_due() and not still_published(pk)):
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
