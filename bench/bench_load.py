"""Load test: 200 phones poll the standings while 20 arbiters save results, under gunicorn + PostgreSQL.

A throwaway database `torneo_bench` holds 200 players, 9 played rounds and a 10th published
round of 50 tables without results. For --seconds (default 600) each phone polls the standings
page as htmx does (If-None-Match, answered 304 while nothing changed; accepting gzip, as a
browser does) every --poll-seconds, and
each arbiter enters and corrects the results of its own tables through the result form (CSRF,
version field), pausing --think-seconds between saves; the arbiters log in before the load starts
(a password check is slow on purpose, and is not what is measured). Loopback only.

With --servers 2 (or more) that many gunicorn instances run on their own ports, as separate hosts
would behind a proxy, sharing PostgreSQL and the cache (bench/harness.py), and every device sends
its requests to them in turn (round robin): a login made on one is used on the other.

Prints requests per second, p95 latency, the error count and the check that no result was lost:
every save the server acknowledged (302 to the arbiter's home) is in the database at the end,
one table version per acknowledged save and the last acknowledged values in the seats. Then the
check that no standings are stale: each server's standings poll is compared with the standings
rendered anew from the database (the cache emptied first).
The servers are stopped and the database dropped at the end.

Run from the project root: `.venv/bin/python bench/bench_load.py [--seconds N] [--servers 2]`.
"""
from __future__ import annotations

import argparse
import gzip
import http.cookiejar
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict
from contextlib import ExitStack
from itertools import cycle
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

PLAYERS, PLAYED_ROUNDS, PHONES, ARBITERS = 200, 9, 200, 20
TIMEOUT = 30


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to look at, not to follow


class Client:
    """One device: its own cookies; records (kind, status, seconds) of every request."""

    def __init__(self, bases, log):
        self.bases, self.log = cycle(bases), log
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())

    def request(self, kind, path, data=None, headers=None):
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        base = next(self.bases)  # round robin over the servers, as a proxy would
        req = urllib.request.Request(base + path, data=body, headers=headers or {})
        if body is not None:
            req.add_header("Referer", base + path)
        started = time.perf_counter()
        try:
            with self.opener.open(req, timeout=TIMEOUT) as response:
                body = response.read()
                if response.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                status, text, header = response.status, body.decode(), response.headers
        except urllib.error.HTTPError as exc:
            status, text, header = exc.code, exc.read().decode(errors="replace"), exc.headers
        except OSError:
            status, text, header = None, "", {}
        self.log.append((kind, status, time.perf_counter() - started))
        return status, text, header

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), "")


def csrf_token(html):
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return match.group(1) if match else ""


BROWSER = {"Accept-Encoding": "gzip, deflate, br"}  # what a phone's browser sends with every request


def phone(bases, url, log, stop, poll_seconds, rng):
    client = Client(bases, log)
    etag = None
    if stop.wait(rng.uniform(0, poll_seconds)):  # phones arrive over time and do not poll in step
        return
    client.request("page", url, headers=BROWSER)
    stop.wait(poll_seconds)
    while not stop.is_set():
        sent = {**BROWSER, "HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
        status, _text, headers = client.request("poll", url, headers=sent)
        if status == 200:
            etag = headers.get("ETag")
        stop.wait(poll_seconds)


def arbiter(bases, tournament, round_number, username, tables, log, attempts, stop, think_seconds, rng, logged_in):
    """Log in (before the measured load: a password check is slow on purpose), then enter and
    correct the results of `tables`, one after the other, until `stop`."""
    client = Client(bases, [])
    status, text, _h = client.request("login", "/accounts/login/")
    status, _text, _h = client.request("login", "/accounts/login/", {
        "username": username, "password": harness.PASSWORD, "csrfmiddlewaretoken": csrf_token(text)})
    client.log = log
    logged_in.wait()
    if status != 302:
        log.append(("login", status, 0.0))
        return
    turn = 0
    while not stop.is_set():
        number = tables[turn % len(tables)]
        turn += 1
        path = f"/arbitro/t/{tournament}/turni/{round_number}/tavoli/{number}/"
        status, text, _h = client.request("form", path)
        if status != 200:
            continue
        version = int(re.search(r'name="version" value="(\d+)"', text).group(1))
        seats = [int(s) for s in re.findall(r'name="p\d+-seat" value="(\d+)"', text)]
        lines = harness.random_result(rng, seats)
        data = {"csrfmiddlewaretoken": csrf_token(text), "version": str(version)}
        for i, (seat, tp, risiko, eliminated) in enumerate(lines):
            data.update({f"p{i}-seat": seat, f"p{i}-table_points": str(tp),
                         f"p{i}-eliminated": "" if eliminated is None else str(eliminated)})
            if risiko:
                data[f"p{i}-risiko"] = "on"
        status, _text, _h = client.request("save", path, data)
        # Every attempt is kept: one without an answer may still have been saved.
        attempts[number].append((version, {seat: tp for seat, tp, _r, _e in lines}, status == 302))
        stop.wait(rng.uniform(0.5, 1.5) * think_seconds)


def lost_results(tournament, round_number, attempts):
    """Acknowledged saves missing from the database (0 when every one of them is there).

    An acknowledged save on version v left the table at v + 1 with its values; the arbiter's next
    form shows the version after it, so a later attempt on a version not above v means it was lost.
    The last acknowledged values must be in the seats unless a later attempt may have replaced them."""
    from tables.models import Seat, Table
    lost = 0
    for number, saves in attempts.items():
        table = Table.objects.get(round__tournament_id=tournament, round__number=round_number, number=number)
        seats = dict(Seat.objects.filter(table=table).values_list("pk", "table_points"))
        acked = [i for i, (_v, _values, ok) in enumerate(saves) if ok]
        for i in acked:
            version = saves[i][0]
            later = [v for v, _values, _ok in saves[i + 1:]]
            if table.version <= version or any(v <= version for v in later):
                lost += 1
        if acked and acked[-1] == len(saves) - 1 and seats != saves[-1][1]:
            lost += 1
    return lost


def stale_standings(bases, url):
    """Servers whose standings poll differs from the standings rendered anew (0 when none is stale)."""
    from django.core.cache import cache

    def poll(base):
        request = urllib.request.Request(base + url, headers={"HX-Request": "true"})
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.read()
    served = [poll(base) for base in bases]
    cache.clear()
    fresh = poll(bases[0])
    return sum(body != fresh for body in served)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=600, help="duration of the load (default 600)")
    parser.add_argument("--poll-seconds", type=float, default=2.0,
                        help="each phone's polling interval (default 2; the page itself polls every 15)")
    parser.add_argument("--think-seconds", type=float, default=1.0, help="arbiters' pause between saves")
    parser.add_argument("--servers", type=int, default=1, help="gunicorn instances sharing database and cache")
    parser.add_argument("--workers", type=int, default=2, help="workers per gunicorn instance (default 2)")
    args = parser.parse_args()
    if args.servers < 1 or args.workers < 1:
        print("--servers and --workers must be at least 1", file=sys.stderr)
        return 2
    rng = random.Random(20260124)
    with harness.bench_database() as bench_url:
        info = harness.fill(players=PLAYERS, rounds=PLAYED_ROUNDS, open_rounds=1, arbiters=ARBITERS)
        tournament, round_number = info["tournament"], PLAYED_ROUNDS + 1
        url = f"/t/{tournament}/classifica/"
        log, attempts, stop = [], defaultdict(list), threading.Event()
        with ExitStack() as servers:
            bases = [servers.enter_context(harness.gunicorn(bench_url, workers=args.workers))
                     for _ in range(args.servers)]
            threads = [threading.Thread(target=phone, args=(bases, url, log, stop, args.poll_seconds,
                                                            random.Random(rng.random())), daemon=True)
                       for _ in range(PHONES)]
            tables = info["open_tables"]
            logged_in = threading.Barrier(ARBITERS + 1)
            arbiters = [threading.Thread(target=arbiter, args=(
                bases, tournament, round_number, name, tables[i::ARBITERS], log, attempts, stop, args.think_seconds,
                random.Random(rng.random()), logged_in), daemon=True) for i, name in enumerate(info["arbiters"])]
            for t in arbiters:
                t.start()
            logged_in.wait()
            threads += arbiters
            started = time.perf_counter()
            for t in threads[:PHONES]:
                t.start()
            stop.wait(args.seconds)
            stop.set()
            for t in threads:
                t.join(timeout=TIMEOUT + 5)
            elapsed = time.perf_counter() - started
            stale = stale_standings(bases, url)
        lost = lost_results(tournament, round_number, attempts)
    expected = {"page": {200}, "poll": {200, 304}, "form": {200}, "save": {302}}
    errors = sum(1 for kind, status, _s in log if status not in expected.get(kind, ()))
    print(f"bench_load: {PHONES} phones polling every {args.poll_seconds:g} s, {ARBITERS} arbiters saving "
          f"({args.think_seconds:g} s pauses), {PLAYERS} players, {PLAYED_ROUNDS} rounds played; "
          f"{args.servers} gunicorn instance(s) of {args.workers} workers, cache "
          f"{harness.cache_url().split(':')[0]}; {elapsed:.0f} s")
    p95 = harness.percentile([s for _k, _st, s in log], 95)
    print(f"  all requests  {len(log) / elapsed:8.1f} req/s   p95 {p95 * 1000:8.1f} ms   errors {errors}")
    for kind in ("poll", "form", "save"):
        times = [s for k, _st, s in log if k == kind]
        statuses = defaultdict(int)
        for k, status, _s in log:
            if k == kind:
                statuses[status] += 1
        print(f"  {kind:<12}  {len(times) / elapsed:8.1f} req/s   p95 {harness.percentile(times, 95) * 1000:8.1f} ms"
              f"   statuses {dict(sorted(statuses.items(), key=str))}")
    saves = sum(ok for table in attempts.values() for _v, _values, ok in table)
    print(f"  acknowledged saves {saves}, lost {lost}")
    print(f"  stale standings after the run: {stale} of {args.servers} server(s)")
    return 0 if lost == 0 and stale == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
