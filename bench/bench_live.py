"""Live benchmark: 1,000 phones on the live channel while 20 arbiters save, beside the load benchmark's storm.

The set-up of bench/bench_load.py (PostgreSQL, Redis, a throwaway database) with a Raduno of 120
players: 9 played rounds and a 10th published round of 30 tables without results. Two gunicorn
instances run as production's two pools (the first takes the arbiters, the second the phones:
bench_load's --split-pools) and the live channel's uvicorn (docker-compose.yml's `live` command:
risiko_site.asgi, one process), everything on loopback ports chosen free at run time.

--clients phones (default 1,000) open the tournament's event stream for the standings fragment
(`/t/<id>/live/?page=/t/<id>/classifica/`) in one asyncio process of their own, and each does what
static/js/live.js and htmx do on the standings page: an event carrying the page (`event: page`)
is the page itself, held at once; on a plain event it asks the public pool for the fragment
(`HX-Request`, gzip accepted, `If-None-Match` with the page it holds), asks again every 0.4 s, at
most 4 times, while the answer shows an older version than the event's, keeps one request in flight
(a trigger meanwhile queues one more); its own poll (every STANDINGS_POLL_SECONDS) goes out once a
minute while the channel works (heard from within two heartbeats), at each turn otherwise. Their
requests reach gunicorn over a pool of keep-alive connections, as through the proxy. Meanwhile bench_load's 200 phones poll the
standings every 2 s and its 20 arbiters save results with --think-seconds pauses (5 s: about 4
saves a second); first the same load without saves (--seconds), then with them (--seconds).

Delivery is the time from a save's answer (the arbiter's 302) to a phone holding a fragment that
shows it (the id of the event carrying it, or the X-Results-Version of the fragment fetched, names
the save's audit entry or a later one), for every phone and
every save that changed something; after the storm the phones have up to --drain-seconds to catch
up with the last version. A phone that never held some save's version, nor a later one, is missed.
Prints one line `delivery p50 X ms, p95 Y ms, max Z ms; N clients connected, missed M`, the live
server's peak memory (VmRSS of its processes together, read every 0.25 s) and the storm's figures
of bench_load; exits 1 when a goal is missed (delivery p95 <= 1,000 ms, every phone connected, none
missed, the live server under 200 MB, bench_load's storm goals).

Run from the project root: `.venv/bin/python bench/bench_live.py [--clients 1000] [--seconds 30]`.
"""
from __future__ import annotations

import argparse
import asyncio
import bisect
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_load  # noqa: E402
import harness  # noqa: E402

PLAYERS = 120
RETRIES, RETRY_SECONDS = 4, 0.4  # static/js/live.js: RETRIES, RETRY_MS
SAFETY_POLL_SECONDS = 60  # static/js/live.js: SAFETY_POLL_MS
RECONNECT_SECONDS = 1.0  # EventSource's reconnection delay (the stream's `retry:`)
UPSTREAM_CONNECTIONS = 64  # keep-alive connections to the public pool, as the proxy keeps
EVENT_LIMIT = 2**22  # the longest line of a stream read (an event carrying a page is one line)
DELIVERY_P95_GOAL, MEMORY_GOAL = 1.0, 200 * 2**20
HOST = "127.0.0.1"


class Upstream:
    """The phones' way to the public pool: keep-alive HTTP/1.1 connections, at most `size` at once;
    records (status, seconds) of every request."""

    def __init__(self, port, size):
        self.port, self.idle, self.slots, self.log = port, [], asyncio.Semaphore(size), []

    async def _answer(self, reader):
        """(status, headers) of one answer, its body read and dropped (the phone's work, not the server's)."""
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("closed")
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _sep, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            while size := int((await reader.readline()).split(b";")[0], 16):
                await reader.readexactly(size + 2)
            await reader.readline()
        else:
            await reader.readexactly(int(headers.get("content-length", 0)))
        return int(status_line.split()[1]), headers

    async def get(self, path, etag):
        """(status, X-Results-Version, ETag) of a GET of `path` as htmx sends it; (None, None, None) on failure."""
        request = (f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nHX-Request: true\r\n"
                   f"Accept-Encoding: gzip, deflate, br\r\n" + (f"If-None-Match: {etag}\r\n" if etag else "")
                   + "\r\n").encode()
        async with self.slots:
            started = time.perf_counter()
            while True:
                reused = bool(self.idle)
                reader, writer = self.idle.pop() if reused else await asyncio.open_connection(HOST, self.port)
                try:
                    writer.write(request)
                    status, headers = await self._answer(reader)
                except (OSError, ConnectionError, ValueError, asyncio.IncompleteReadError):
                    writer.close()
                    if reused:
                        continue  # the server closed an idle connection: the next one, or a new one
                    break
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                else:
                    self.idle.append((reader, writer))
                self.log.append((status, time.perf_counter() - started))
                return status, headers.get("x-results-version"), headers.get("etag")
            self.log.append((None, time.perf_counter() - started))
            return None, None, None


class Phone:
    """One phone on the standings page: the audit entry its last event names (`want`), the one its
    fragment shows (`held`), and when it came to hold each (`holds`: (perf_counter, entry))."""

    __slots__ = ("want", "held", "etag", "last_id", "tries", "pending", "fetching", "holds", "events", "pages",
                 "opened", "reconnects", "heard", "polled")

    def __init__(self):
        self.want = self.held = self.tries = self.events = self.pages = self.reconnects = 0
        self.heard = self.polled = -1e9
        self.etag = self.last_id = None
        self.pending = self.fetching = self.opened = False
        self.holds = []


class Phones:
    """The phones of one process and what they share: the public pool, the live server's port, the
    version reader, and the count of streams open now (and the lowest since the load began)."""

    def __init__(self, count, live_port, public_port, tournament, poll_seconds):
        from django.conf import settings

        from tournaments.versions import results_through
        self.through, self.heartbeat = results_through, settings.LIVE_HEARTBEAT_SECONDS
        self.phones = [Phone() for _ in range(count)]
        self.live_port, self.upstream = live_port, Upstream(public_port, UPSTREAM_CONNECTIONS)
        self.stream_path, self.page_path = f"/t/{tournament}/live/", f"/t/{tournament}/classifica/"
        self.poll_seconds, self.done, self.open, self.fetching = poll_seconds, False, 0, set()
        self.lowest = None  # the fewest streams open at once since `watch_from` was called

    def trigger(self, phone):
        """htmx's trigger of the fragment: a request now, or one more after the one in flight."""
        phone.pending = True
        if not phone.fetching and not self.done:
            phone.fetching = True
            task = asyncio.get_running_loop().create_task(self.fetch(phone))
            self.fetching.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self.fetching.discard)

    async def fetch(self, phone):
        try:
            while phone.pending:
                phone.pending = False
                status, version, etag = await self.upstream.get(self.page_path, phone.etag)
                if status == 200:
                    phone.etag = etag
                shown = self.through(version) if status in (200, 304) and version else 0
                if shown > phone.held:
                    phone.held = shown
                    phone.holds.append((time.perf_counter(), shown))
                if phone.held < phone.want and phone.tries < RETRIES and not phone.pending:
                    phone.tries += 1  # live.js: the page came back older than announced, asked again
                    await asyncio.sleep(RETRY_SECONDS)
                    phone.pending = True
        finally:
            phone.fetching = False

    def _event(self, phone, event_id, page):
        """An event: with the page (`event: page`) the phone holds its version at once, as live.js
        swaps it in; a plain one makes it ask for the page."""
        phone.events += 1
        phone.last_id = event_id
        shown = self.through(event_id)
        phone.want, phone.tries = max(phone.want, shown), 0
        if page:
            phone.pages += 1
            if shown > phone.held:
                phone.held = shown
                phone.holds.append((time.perf_counter(), shown))
        else:
            self.trigger(phone)

    async def listen(self, phone):
        """EventSource: the stream read line by line, reopened with Last-Event-ID when it ends."""
        while not self.done:
            writer = None
            try:
                reader, writer = await asyncio.open_connection(HOST, self.live_port, limit=EVENT_LIMIT)
                last = f"Last-Event-ID: {phone.last_id}\r\n" if phone.last_id else ""
                # HTTP/1.0: the answer runs until the connection closes, no chunks to take apart.
                writer.write(f"GET {self.stream_path}?page={self.page_path} HTTP/1.0\r\n"
                             f"Host: {HOST}:{self.live_port}\r\nAccept: text/event-stream\r\n{last}\r\n".encode())
                if b" 200 " not in await reader.readline():
                    raise ConnectionError("refused")
                while (await reader.readline()) not in (b"\r\n", b""):
                    pass
                self._opened(phone, True)
                event_id, kind = None, None
                while line := await reader.readline():
                    if line.startswith(b"id:"):
                        event_id = line[3:].strip().decode()
                    elif line.startswith(b"event:"):
                        kind = line[6:].strip()
                    elif line in (b"\n", b"\r\n"):
                        if event_id is not None or kind == b"beat":
                            phone.heard = time.monotonic()
                        if event_id is not None:
                            self._event(phone, event_id, kind == b"page")
                        event_id, kind = None, None
            except (OSError, ConnectionError, ValueError, asyncio.IncompleteReadError):
                pass
            finally:
                self._opened(phone, False)
                if writer is not None:
                    writer.close()
            if not self.done:
                phone.reconnects += 1
                await asyncio.sleep(RECONNECT_SECONDS)

    def _opened(self, phone, opened):
        if phone.opened != opened:
            phone.opened = opened
            self.open += 1 if opened else -1
            if self.lowest is not None and not self.done:  # the streams closed at the end are not counted
                self.lowest = min(self.lowest, self.open)

    async def poll(self, phone, rng):
        """The page's own poll (`every STANDINGS_POLL_SECONDS`): let through once a minute only while
        the channel works (open, heard from within two heartbeats), as live.js does."""
        await asyncio.sleep(rng.uniform(0, self.poll_seconds))
        while not self.done:
            now = time.monotonic()
            alive = phone.opened and now - phone.heard < 2 * self.heartbeat + 5
            if not alive or now - phone.polled >= SAFETY_POLL_SECONDS:
                phone.polled = now
                self.trigger(phone)
            await asyncio.sleep(self.poll_seconds)


async def _phones_main(phones, control):
    """Open every stream, say how many opened, then run until told the last version to wait for."""
    loop = asyncio.get_running_loop()
    rng = random.Random(20260127)
    tasks = []
    for i, phone in enumerate(phones.phones):
        tasks.append(loop.create_task(phones.listen(phone)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # phones arrive over a moment, not in one burst
    deadline = time.monotonic() + 60
    while phones.open < len(phones.phones) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    tasks += [loop.create_task(phones.poll(phone, rng)) for phone in phones.phones]
    phones.lowest = phones.open
    control.send(phones.open)
    # The load runs; then the last audit entry every phone should come to hold, and how long to wait for it.
    target, drain = await loop.run_in_executor(None, control.recv)
    deadline = time.monotonic() + drain
    while any(p.held < target for p in phones.phones) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    phones.done = True
    while tasks := [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    control.send({"holds": [p.holds for p in phones.phones], "lowest": phones.lowest,
                  "events": [p.events for p in phones.phones], "pages": sum(p.pages for p in phones.phones),
                  "reconnects": sum(p.reconnects for p in phones.phones),
                  "fetches": phones.upstream.log})


def _phones_process(count, live_port, public_port, tournament, poll_seconds, control):
    os.nice(10)  # real phones bring their own processors: the servers come first on this machine's
    phones = Phones(count, live_port, public_port, tournament, poll_seconds)
    asyncio.run(_phones_main(phones, control))
    control.close()


def raise_open_files(wanted):
    """The soft limit of open files raised towards `wanted` (up to the hard limit); the servers started
    after this inherit it. Returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


class PeakMemory:
    """The largest total VmRSS of a server's process group, read every `step` seconds in a thread."""

    def __init__(self, pgid, step=0.25):
        self.pgid, self.step, self.peak, self.parts = pgid, step, 0, {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.is_set():
            parts = harness.group_rss(self.pgid)
            if sum(parts.values()) > self.peak:
                self.peak, self.parts = sum(parts.values()), parts
            self.stop.wait(self.step)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def deliveries(tournament, acks, holds):
    """(delays in seconds of every phone's delivery of every save, phones that missed one): a save's
    version is delivered to a phone when it first holds a fragment showing that save's audit entry or
    a later one (at once when it already did at the save's answer)."""
    from django.db.models import Max

    from tournaments.models import AuditLog
    entries = dict(AuditLog.objects.filter(tournament_id=tournament, after__submission__isnull=False)
                   .values("after__submission").annotate(last=Max("pk")).values_list("after__submission", "last"))
    saves = [(acked_at, entries[submission]) for submission, acked_at in acks if submission in entries]
    delays, missed = [], 0
    for phone in holds:
        shown = [entry for _t, entry in phone]  # increasing: a phone keeps only newer fragments
        late = False
        for acked_at, entry in saves:
            i = bisect.bisect_left(shown, entry)
            if i == len(shown):
                late = True
            else:
                delays.append(max(0.0, phone[i][0] - acked_at))
        missed += late
    return delays, missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=1000, help="phones on the live channel (default 1,000)")
    parser.add_argument("--seconds", type=int, default=30, help="duration of each load (default 30)")
    parser.add_argument("--think-seconds", type=float, default=5.0, help="arbiters' pause between saves (default 5)")
    parser.add_argument("--poll-seconds", type=float, default=2.0, help="bench_load's phones' polling interval")
    parser.add_argument("--workers", type=int, default=2, help="workers per gunicorn instance (default 2)")
    parser.add_argument("--live-workers", type=int, default=None,
                        help="uvicorn workers (default: docker-compose.yml's, as production)")
    parser.add_argument("--drain-seconds", type=float, default=20.0,
                        help="after the storm, how long the phones may take to hold the last version (default 20: more "
                             "than the page's own 15 s poll)")
    args = parser.parse_args()
    if min(args.clients, args.seconds, args.workers, args.live_workers or 1) < 1:
        print("--clients, --seconds, --workers and --live-workers must be at least 1", file=sys.stderr)
        return 2
    # bench_load's run_phase and report read these: two instances, arbiters on the first.
    args.servers, args.split_pools, args.threads, args.fault = 2, True, None, None
    limit = raise_open_files(2 * args.clients + 1024)
    if limit < 2 * args.clients + 256:
        print(f"open files limited to {limit}: too few for {args.clients} clients", file=sys.stderr)
        return 2
    return run(args)


def run(args):
    from django.conf import settings
    logs = Path(tempfile.mkdtemp(prefix="torneo-bench-live-logs-"))
    with harness.bench_database() as bench_url:
        info = harness.fill(players=PLAYERS, rounds=bench_load.PLAYED_ROUNDS, open_rounds=1,
                            arbiters=bench_load.ARBITERS)
        tournament = info["tournament"]
        url = f"/t/{tournament}/classifica/"
        with ExitStack() as stack:
            servers = [stack.enter_context(harness.gunicorn(bench_url, workers=args.workers, server=True,
                                                            log=logs / f"server-{pool}.log", TORNEO_POOL=pool,
                                                            STANDINGS_LOG_LEVEL="INFO"))
                       for pool in ("staff", "public")]
            worker = stack.enter_context(harness.worker(bench_url, log=logs / "server-worker.log",
                                                        STANDINGS_LOG_LEVEL="INFO"))
            # Every phone comes from this machine's one address: the per-client cap is lifted.
            live = stack.enter_context(harness.live_server(bench_url, workers=args.live_workers,
                                                           log=logs / "live.log",
                                                           LIVE_STREAMS_PER_CLIENT=str(args.clients + 10)))
            memory = stack.enter_context(PeakMemory(live.proc.pid))
            args.pgids = [server.proc.pid for server in servers] + [worker.proc.pid, live.proc.pid]
            context = multiprocessing.get_context("fork")
            control, theirs = context.Pipe()
            clients = context.Process(target=_phones_process, daemon=True, args=(
                args.clients, live.port, servers[1].port, tournament, settings.STANDINGS_POLL_SECONDS, theirs))
            clients.start()
            connected = control.recv()
            bases = [server.base for server in servers]
            quiet = bench_load.run_phase(bases, url, info, args, storm=False)
            storm = bench_load.run_phase(bases, url, info, args, storm=True)
            from tournaments.versions import results_through, results_version
            control.send((results_through(results_version(tournament)), args.drain_seconds))
            phones = control.recv()
            clients.join()
            try:
                stale = bench_load.stale_standings(bases, url)
            except OSError as exc:  # a server not answering: counted as stale
                print(f"  the standings could not be compared after the run: {exc}", file=sys.stderr)
                stale = len(bases)
        lost = bench_load.lost_results(tournament, bench_load.PLAYED_ROUNDS + 1, storm.attempts)
        doubled = bench_load.doubled_results(tournament, bench_load.PLAYED_ROUNDS + 1)
        delays, never = bench_load.freshness(tournament, storm)
        counts = bench_load.computations(sorted(logs.glob("server-*.log")))
        delivered, missed = deliveries(tournament, storm.acks, phones["holds"])
    return report(args, connected, phones, delivered, missed, memory,
                  bench_load.report(args, storm, quiet, delays, never, counts, lost, doubled, stale), (quiet, storm))


def report(args, connected, phones, delivered, missed, memory, storm_missed, loads=()):
    workers = args.live_workers or harness.compose_command("live")[harness.compose_command("live").index("--workers") + 1]
    print(f"bench_live: {args.clients} phones on the live channel (uvicorn, {workers} worker(s)) and "
          f"{bench_load.PHONES} polling every {args.poll_seconds:g} s, {bench_load.ARBITERS} arbiters saving "
          f"({args.think_seconds:g} s pauses), {PLAYERS} players; 2 gunicorn instances of {args.workers} workers "
          f"(staff, public), cache {harness.cache_url().split(':')[0]}; {args.seconds} s quiet, then {args.seconds} s "
          f"of saves")
    ms = bench_load._ms
    p50, p95 = harness.percentile(delivered, 50), harness.percentile(delivered, 95)
    print(f"delivery p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {max(delivered, default=0) * 1000:.0f} ms; "
          f"{min(connected, phones['lowest'])} clients connected, missed {missed}")
    fetches = phones["fetches"]
    statuses = Counter(status for status, _s in fetches)
    print(f"  phones: {connected} streams open at the start, at least {phones['lowest']} open throughout, "
          f"{phones['reconnects']} reconnections; events received {sum(phones['events'])} "
          f"(per phone {min(phones['events'])} to {max(phones['events'])}), {phones['pages']} of them carrying "
          f"the page; {len(delivered)} deliveries")
    print(f"  fragments asked {len(fetches)} ({len(fetches) / max(1, 2 * args.seconds):.0f}/s over both loads), "
          f"statuses {dict(sorted(statuses.items(), key=str))}, p50 {ms(harness.percentile([s for _st, s in fetches], 50))}"
          f", p95 {ms(harness.percentile([s for _st, s in fetches], 95))}")
    if loads:
        cpu, seconds = sum(load.cpu for load in loads), sum(load.elapsed for load in loads)
        requests = sum(len(load.log) for load in loads) + len(fetches)
        print(f"  throughput over both loads: {requests / seconds:.0f} requests/s (polls, saves, fragments) and "
              f"{sum(phones['events']) / seconds:.0f} events/s; servers' CPU (gunicorn, worker, live server) "
              f"{cpu / seconds * 100:.0f}% of a core, {cpu * 1000 / max(1, requests):.1f} ms a request, "
              f"{cpu * 1000 / max(1, sum(phones['events'])):.2f} ms an event")
    parts = ", ".join(f"{rss / 2**20:.0f}" for _pid, rss in sorted(memory.parts.items()))
    print(f"  live server memory: peak {memory.peak / 2**20:.0f} MB VmRSS ({parts} MB by process; "
          f"goal {MEMORY_GOAL / 2**20:.0f} MB)")
    missed_goals = list(storm_missed)
    if not delivered or p95 > DELIVERY_P95_GOAL:
        missed_goals.append("delivery p95")
    if min(connected, phones["lowest"]) < args.clients:
        missed_goals.append("every client connected")
    if missed:
        missed_goals.append("no client missed")
    if memory.peak > MEMORY_GOAL:
        missed_goals.append("live server memory")
    print(f"  goals missed: {', '.join(missed_goals)}" if missed_goals else "  every goal met")
    return 1 if missed_goals else 0


if __name__ == "__main__":
    sys.exit(main())
