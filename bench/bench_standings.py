"""Benchmark: every public page of the standings against a static file, under gunicorn + PostgreSQL.

A throwaway database `torneo_bench` holds 200 players and 10 played rounds (seeded random valid
results, saved through the result service); gunicorn serves it with 2 workers on a free loopback
port, whitenoise serving the static files, the shared cache of bench/harness.py behind it; wrk
loads each URL for --seconds (default 30) at 50 connections: the standings page, its htmx poll,
the print view, a player's page, standings.json, a round's tables.json, and the CSS file, each
asked with a phone browser's Accept-Encoding (the pages and the file are answered compressed;
--uncompressed asks without it). Prints the size and encoding of each answer, requests per second,
the server's CPU per request (its processes' user + system time over the run / requests), p50 and
p95 latency, and each page's ratio to the static file.

`--before COMMIT` also serves that commit's code (checked out with `git worktree add` in a temporary
folder, same database, same cache under its own generation) and loads each address on both, one
after the other, printing both columns: a change to the public path shows what it did in one run.

`--growth` then fills tournaments of 50, 200, 1,000 and 2,000 players (2 rounds) and prints, for each,
one standings computation (no cache), the page's size, and the standings page's and its poll's
requests/s: the page must not fall with the players.

Goals (exit 1 when one is missed): every page >= 0.6 of the static file's requests/s (the aim is
0.8), p95 < 50 ms; with --growth, the poll at 2,000 players >= 0.6 of its requests/s at 50.
The servers are stopped and the database dropped at the end.

Run from the project root: `.venv/bin/python bench/bench_standings.py [--seconds N] [--before COMMIT]
[--growth]` (needs PostgreSQL, see bench/harness.py, and /usr/bin/wrk).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

PLAYERS, ROUNDS, CONNECTIONS = 200, 10, 50
GOAL_RATIO, AIM_RATIO, GOAL_P95_MS, GOAL_GROWTH = 0.6, 0.8, 50, 0.6
GROWTH = (50, 200, 1000, 2000)
# wrk's Lua hook: print the figures as one JSON line (wrk has no p95 of its own).
REPORT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests": %d, "duration_us": %d, "p50_us": %d, "p95_us": %d, '
    .. '"errors": %d, "non_2xx_3xx": %d}\\n', summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(95), e.connect + e.read + e.write + e.timeout, e.status))
end
"""


def wrk(url, seconds, script, headers=(), pgid=None):
    """wrk's figures for `url`, with the CPU the server (process group `pgid`) spent per request."""
    extra = [arg for header in headers for arg in ("-H", header)]
    cpu = harness.group_cpu(pgid) if pgid else 0
    proc = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s", "-s", script,
                           *extra, url], capture_output=True, text=True, check=True)
    figures = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("{")))
    figures["rps"] = figures["requests"] / (figures["duration_us"] / 1e6)
    figures["cpu_ms"] = (harness.group_cpu(pgid) - cpu) * 1000 / max(figures["requests"], 1) if pgid else float("nan")
    return figures


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


def warm(base, pages):
    """Ask each page a few times (code loaded, caches filled); {label: (size, encoding)}."""
    sizes = {}
    for label, (path, headers) in pages.items():
        request = urllib.request.Request(base + path, headers=dict(h.split(": ") for h in headers))
        for _ in range(5):
            with urllib.request.urlopen(request, timeout=60) as response:
                sizes[label] = (len(response.read()), response.headers.get("Content-Encoding", "plain"))
    return sizes


def cell(f, static):
    ratio = "" if f is static else f" x{f['rps'] / static['rps']:.2f}"
    return (f"{f['rps']:7.0f}/s {f['cpu_ms']:5.2f} ms cpu p50 {f['p50_us'] / 1000:5.1f} "
            f"p95 {f['p95_us'] / 1000:5.1f}{ratio:>6}")


def missed(figures, name):
    """The goals `figures` ({label: wrk figures}) miss, in words."""
    static = figures["static"]
    found = []
    for label, f in figures.items():
        if label == "static":
            continue
        if f["rps"] / static["rps"] < GOAL_RATIO:
            found.append(f"{name} {label}: ratio {f['rps'] / static['rps']:.2f} < {GOAL_RATIO}")
        if f["p95_us"] / 1000 >= GOAL_P95_MS:
            found.append(f"{name} {label}: p95 {f['p95_us'] / 1000:.1f} ms >= {GOAL_P95_MS} ms")
        if f["errors"] + f["non_2xx_3xx"]:
            found.append(f"{name} {label}: {f['errors'] + f['non_2xx_3xx']} errors")
    return found


def growth(base, pgid, seconds, script):
    """Tournaments of GROWTH players: one computation, page size, requests/s of the page and its poll."""
    from django.db import connection
    from tables.standings import selectors
    from tournaments.models import Tournament
    rows = []
    for players in GROWTH:
        started = time.perf_counter()
        info = harness.fill(players=players, rounds=2, prefix=f"growth{players}")
        filled = time.perf_counter() - started
        tournament = Tournament.objects.get(pk=info["tournament"])
        started = time.perf_counter()
        selectors.tournament_standings(tournament)
        computed = time.perf_counter() - started
        connection.close()
        pages = {k: v for k, v in public_pages(info["tournament"], info["registrations"][0]).items()
                 if k in ("standings", "standings poll")}
        sizes = warm(base, pages)
        figures = {label: wrk(base + path, seconds, script, headers, pgid) for label, (path, headers) in pages.items()}
        rows.append((players, filled, computed, sizes, figures))
        print(f"  {players:>5} players (filled in {filled:.0f} s): computation {computed * 1000:6.0f} ms; "
              + "; ".join(f"{label} {sizes[label][0] / 1000:.1f} kB {figures[label]['rps']:.0f}/s "
                          f"{figures[label]['cpu_ms']:.2f} ms cpu p95 {figures[label]['p95_us'] / 1000:.1f} ms"
                          for label in pages), flush=True)
    first, last = rows[0][4]["standings poll"]["rps"], rows[-1][4]["standings poll"]["rps"]
    print(f"  the poll at {GROWTH[-1]:,} players: {last / first:.2f} of its requests/s at {GROWTH[0]} "
          f"(goal >= {GOAL_GROWTH}); computation x{rows[-1][2] / rows[0][2]:.1f} for x{GROWTH[-1] // GROWTH[0]} players")
    return [] if last / first >= GOAL_GROWTH else [f"growth: poll at {GROWTH[-1]} players {last / first:.2f} of 50's"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=30, help="duration of each wrk run (default 30)")
    parser.add_argument("--uncompressed", action="store_true",
                        help="ask without Accept-Encoding, as a client that takes no compression (curl, wrk)")
    parser.add_argument("--before", metavar="COMMIT", help="also serve this commit's code, side by side")
    parser.add_argument("--growth", action="store_true", help="then 50, 200, 1,000 and 2,000 players")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    speed = harness.machine_speed()
    with harness.bench_database() as bench_url, ExitStack() as stack:
        started = time.perf_counter()
        info = harness.fill(players=PLAYERS, rounds=ROUNDS)
        names = {"now": harness.commit_name()}
        roots = {"now": harness.ROOT}
        if args.before:
            names["before"] = harness.commit_name(args.before)
            roots["before"] = stack.enter_context(harness.checkout(args.before))
        print(f"bench_standings: {PLAYERS} players, {ROUNDS} rounds filled in {time.perf_counter() - started:.1f} s; "
              f"gunicorn 2 workers, wrk {CONNECTIONS} connections, {args.seconds} s per URL, "
              f"cache {harness.cache_url().split(':')[0]}; sum(range(10**6)) {speed:.1f} ms, "
              f"load average {os.getloadavg()[0]:.1f}; " + ", ".join(f"{k} = {v}" for k, v in names.items()),
              flush=True)
        servers = {name: stack.enter_context(harness.gunicorn(bench_url, server=True, root=roots[name]))
                   for name in roots}
        script = stack.enter_context(tempfile.NamedTemporaryFile("w", suffix=".lua"))
        script.write(REPORT)
        script.flush()
        pages = public_pages(info["tournament"], info["registrations"][0], () if args.uncompressed else BROWSER)
        sizes = {name: warm(server.base, pages) for name, server in servers.items()}
        figures = {name: {} for name in servers}
        for label, (path, headers) in pages.items():  # each address on both, one after the other
            for name, server in servers.items():
                figures[name][label] = wrk(server.base + path, args.seconds, script.name, headers, server.proc.pid)
        print(f"  {'page':<15} {'size':>13}  " + "  ".join(f"{name + ' (' + names[name] + ')':<52}" for name in servers))
        for label in pages:
            size = sizes["now"][label]
            print(f"  {label:<15} {size[0] / 1000:6.1f} kB {size[1]:<5} "
                  + "  ".join(f"{cell(figures[name][label], figures[name]['static']):<52}" for name in servers))
        misses = []
        for name in servers:
            f = figures[name]
            worst = min(v["rps"] for k, v in f.items() if k != "static") / f["static"]["rps"]
            slowest = max(v["p95_us"] for k, v in f.items() if k != "static") / 1000
            print(f"  {name}: lowest ratio to the static file {worst:.2f}, highest p95 {slowest:.1f} ms "
                  f"(goal: ratio >= {GOAL_RATIO} (aim {AIM_RATIO}) and p95 < {GOAL_P95_MS} ms for every page)")
            if name == "now":
                misses += missed(f, name)
        if "before" in servers:
            ratios = [figures["now"][k]["rps"] / figures["before"][k]["rps"] for k in pages if k != "static"]
            print(f"  now / before, requests/s: {min(ratios):.2f} to {max(ratios):.2f}")
        if args.growth:
            server = servers["now"]
            misses += growth(server.base, server.proc.pid, max(3, args.seconds // 2), script.name)
    for miss in misses:
        print(f"  goal missed: {miss}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
