"""Benchmark: every public page of the standings against a static file, under gunicorn + PostgreSQL.

A throwaway database `torneo_bench` holds 200 players and 10 played rounds (seeded random valid
results, saved through the result service); gunicorn serves it with 2 workers on a free loopback
port, whitenoise serving the static files, the shared cache of bench/harness.py behind it; wrk
loads each URL for --seconds (default 30) at 50 connections: the standings page, its htmx poll,
the print view, a player's page, standings.json, a round's tables.json, and the CSS file, each
asked with a phone browser's Accept-Encoding (the pages and the file are answered compressed;
--uncompressed asks without it). Prints
the size and encoding of each answer, requests per second, p50 and p95 latency, and each page's
ratio to the static file.
The server is stopped and the database dropped at the end.

Run from the project root: `.venv/bin/python bench/bench_standings.py [--seconds N]`
(needs PostgreSQL, see bench/harness.py, and /usr/bin/wrk).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

PLAYERS, ROUNDS, CONNECTIONS = 200, 10, 50
# wrk's Lua hook: print the figures as one JSON line (wrk has no p95 of its own).
REPORT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests": %d, "duration_us": %d, "p50_us": %d, "p95_us": %d, '
    .. '"errors": %d, "non_2xx_3xx": %d}\\n', summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(95), e.connect + e.read + e.write + e.timeout, e.status))
end
"""


def wrk(url, seconds, script, headers=()):
    extra = [arg for header in headers for arg in ("-H", header)]
    proc = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s", "-s", script,
                           *extra, url], capture_output=True, text=True, check=True)
    figures = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("{")))
    figures["rps"] = figures["requests"] / (figures["duration_us"] / 1e6)
    return figures


def show(label, path, f, static, size):
    ratio = "" if f is static else f"   ratio {f['rps'] / static['rps']:.2f}"
    print(f"  {label:<15} {path:<40} {size[0] / 1000:6.1f} kB {size[1]:<5} {f['rps']:8.1f} req/s   "
          f"p50 {f['p50_us'] / 1000:7.2f} ms   p95 {f['p95_us'] / 1000:7.2f} ms   "
          f"errors {f['errors'] + f['non_2xx_3xx']}{ratio}")


# Every request says what a phone's browser says of compression; the static file is asked the same.
BROWSER = ("Accept-Encoding: gzip, deflate, br",)


def public_pages(tournament, registration, browser=BROWSER):
    """label -> (path, headers): every public page of the standings, and the static file."""
    return {
        "standings": (f"/t/{tournament}/classifica/", browser),
        "standings poll": (f"/t/{tournament}/classifica/", (*browser, "HX-Request: true")),
        "print view": (f"/t/{tournament}/classifica/stampa/", browser),
        "player page": (f"/t/{tournament}/giocatori/{registration}/", browser),
        "standings.json": (f"/api/v1/tournaments/{tournament}/standings.json", browser),
        "tables.json": (f"/api/v1/tournaments/{tournament}/rounds/1/tables.json", browser),
        "static": ("/static/css/torneo.css", browser),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=30, help="duration of each wrk run (default 30)")
    parser.add_argument("--uncompressed", action="store_true",
                        help="ask without Accept-Encoding, as a client that takes no compression (curl, wrk)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    with harness.bench_database() as bench_url:
        started = time.perf_counter()
        info = harness.fill(players=PLAYERS, rounds=ROUNDS)
        print(f"bench_standings: {PLAYERS} players, {ROUNDS} rounds filled in {time.perf_counter() - started:.1f} s; "
              f"gunicorn 2 workers, wrk {CONNECTIONS} connections, {args.seconds} s per URL, "
              f"cache {harness.cache_url().split(':')[0]}")
        with harness.gunicorn(bench_url) as base, tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
            script.write(REPORT)
            script.flush()
            pages = public_pages(info["tournament"], info["registrations"][0], () if args.uncompressed else BROWSER)
            sizes = {}
            for label, (path, headers) in pages.items():  # warm up: first requests load code and fill caches
                request = urllib.request.Request(base + path, headers=dict(h.split(": ") for h in headers))
                for _ in range(5):
                    with urllib.request.urlopen(request, timeout=30) as response:
                        sizes[label] = (len(response.read()), response.headers.get("Content-Encoding", "plain"))
            figures = {label: wrk(base + path, args.seconds, script.name, headers)
                       for label, (path, headers) in pages.items()}
    for label, (path, _headers) in pages.items():
        show(label, path, figures[label], figures["static"], sizes[label])
    worst = min(f["rps"] for label, f in figures.items() if label != "static") / figures["static"]["rps"]
    slowest = max(f["p95_us"] for label, f in figures.items() if label != "static") / 1000
    print(f"  lowest ratio to the static file {worst:.2f}, highest p95 {slowest:.1f} ms "
          "(goal: ratio >= 0.5 and p95 < 50 ms for every page)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
