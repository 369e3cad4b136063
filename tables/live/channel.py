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
never. A comment line every LIVE_HEARTBEAT_SECONDS keeps proxies from closing
an idle stream; each stream ends after LIVE_STREAM_SECONDS (the browser's EventSource reconnects,
sending the last id it got: a client that missed a version gets the current one at once).

The channel computes nothing: screens fetch the page filed under the new version (the public cache)."""
import asyncio
import json
import logging
import time

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from tables.live.selectors import announcement_key, change_of, last_announced
from tournaments.versions import results_through, results_version

logger = logging.getLogger("torneo.live")

ANNOUNCEMENT_SECONDS = 24 * 3600
RECHECK_SECONDS = 5  # with Redis: the hub reads the cache this often besides the messages
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
        client = _publisher[url] = redis.Redis.from_url(url)
    client.publish(_channel(pk), payload)


def announce(pk, version=None):
    """Called once a change of tournament `pk` has committed, or once the public pages showing it are
    rendered (`version`, tables.standings.refresh): file and publish its version (the current one when
    not given). A version already announced, or older than the one last announced (another server's
    render finished first), is not announced again."""
    try:
        if version is not None:
            last = last_announced(pk)
            if last and (last["version"] == version or results_through(last["version"]) > results_through(version)):
                return
        change = change_of(pk, version or results_version(pk))
        cache.set(announcement_key(pk), change, ANNOUNCEMENT_SECONDS)
        url = redis_url()
        if url:
            _publish(url, pk, json.dumps(change))
    except Exception:  # the screens' own polls still show the change
        logger.exception("live: announcing a change of tournament %s failed", pk)


def opening(pk, last_event_id):
    """What a new stream starts from: (the event to send at once or None, the announcement seen)."""
    current = results_version(pk)
    first = change_of(pk, current) if last_event_id and last_event_id != current else None
    seen = last_announced(pk)
    return first, (first or seen or {}).get("version", last_event_id or current)


def event(change):
    return f"id: {change['version']}\ndata: {json.dumps(change)}\n\n"


def _heartbeat():
    return ": keep-alive\n\n"


class _Pace:
    """One stream's pace, the same under WSGI and ASGI: each new version once, a heartbeat when nothing
    was sent for LIVE_HEARTBEAT_SECONDS, the stream ended after LIVE_STREAM_SECONDS."""

    def __init__(self, sent):
        self.sent = sent
        self.started = self.beat = time.monotonic()

    @property
    def running(self):
        return time.monotonic() - self.started < settings.LIVE_STREAM_SECONDS

    def output(self, change):
        """What to send after reading `change` (the last announcement, or None): its event, a
        heartbeat, or nothing."""
        if change and change["version"] != self.sent:
            self.sent, self.beat = change["version"], time.monotonic()
            return event(change)
        if time.monotonic() - self.beat >= settings.LIVE_HEARTBEAT_SECONDS:
            self.beat = time.monotonic()
            return _heartbeat()
        return None

    def wait(self):
        """Seconds until the next heartbeat is due or the stream ends."""
        due = min(self.beat + settings.LIVE_HEARTBEAT_SECONDS, self.started + settings.LIVE_STREAM_SECONDS)
        return max(0.01, due - time.monotonic())


def stream(pk, first, sent):
    """The events of tournament `pk` for a WSGI server: the announcement read once a second; `first`
    and `sent` as `opening` returned them."""
    yield f"retry: {RETRY_MS}\n\n"
    if first:
        yield event(first)
    pace = _Pace(sent)
    while pace.running:
        time.sleep(settings.LIVE_POLL_SECONDS)
        text = pace.output(last_announced(pk))
        if text:
            yield text


class _Hub:
    """One Redis subscription per process and event loop, handing each message to the queues of the
    streams of its tournament; and every RECHECK_SECONDS one read of each such tournament's last
    announcement, handed on when it names a version the hub has not handed on (a message missed)."""

    def __init__(self):
        self.queues = {}
        self.latest = {}  # tournament pk -> the version last handed to its streams
        self.task = self.recheck = None
        self.loop = None

    def subscribe(self, pk, url):
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.loop is not loop:
            self.loop, self.task = loop, loop.create_task(self._listen(url))
            self.recheck = loop.create_task(self._recheck())
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
        """Hand on each tournament's last announcement when the hub has not handed it on yet."""
        for pk in list(self.queues):
            change = await sync_to_async(last_announced, thread_sensitive=False)(pk)
            if change and change["version"] != self.latest.get(pk):
                self.hand_on(pk, change)

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


async def astream(pk, first, sent):
    """The events of tournament `pk` for an ASGI server (see the module's docstring); `first` and
    `sent` as `opening` returned them."""
    url = redis_url()
    queue = _hub.subscribe(pk, url) if url else None
    try:
        yield f"retry: {RETRY_MS}\n\n"
        if first:
            yield event(first)
        pace = _Pace(sent)
        while pace.running:
            change = None
            if queue is not None:  # the hub hands on every change: nothing to read meanwhile
                try:
                    change = await asyncio.wait_for(queue.get(), pace.wait())
                except asyncio.TimeoutError:
                    pass
            else:
                await asyncio.sleep(settings.LIVE_POLL_SECONDS)
                change = await sync_to_async(last_announced, thread_sensitive=False)(pk)
            text = pace.output(change)
            if text:
                yield text
    finally:
        if queue is not None:
            _hub.unsubscribe(pk, queue)
