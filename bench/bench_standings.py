"""Benchmark: the public standings page against a static file, under gunicorn + PostgreSQL.

A throwaway database `torneo_bench` holds 200 players and 10 played rounds (seeded random valid
results, saved through the result service); gunicorn serves it with 2 workers on a free loopback
port, whitenoise serving the static files; wrk loads each URL for --seconds (default 30) at 50
connections. Prints requests per second, p50 and p95 latency of each, and the ratio standings/static.
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


def wrk(url, seconds, script):
    proc = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s", "-s", script, url],
                          capture_output=True, text=True, check=True)
    figures = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("{")))
    figures["rps"] = figures["requests"] / (figures["duration_us"] / 1e6)
    return figures


def show(label, path, f):
    print(f"  {label:<10} {path:<28} {f['rps']:8.1f} req/s   p50 {f['p50_us'] / 1000:7.2f} ms   "
          f"p95 {f['p95_us'] / 1000:7.2f} ms   errors {f['errors'] + f['non_2xx_3xx']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=30, help="duration of each wrk run (default 30)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    with harness.bench_database() as bench_url:
        started = time.perf_counter()
        info = harness.fill(players=PLAYERS, rounds=ROUNDS)
        print(f"bench_standings: {PLAYERS} players, {ROUNDS} rounds filled in {time.perf_counter() - started:.1f} s; "
              f"gunicorn 2 workers, wrk {CONNECTIONS} connections, {args.seconds} s per URL")
        with harness.gunicorn(bench_url) as base, tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
            script.write(REPORT)
            script.flush()
            paths = {"standings": f"/t/{info['tournament']}/classifica/", "static": "/static/css/torneo.css"}
            for path in paths.values():  # warm up: first requests load code and fill caches
                for _ in range(5):
                    urllib.request.urlopen(base + path, timeout=30).read()
            figures = {label: wrk(base + path, args.seconds, script.name) for label, path in paths.items()}
    for label, path in paths.items():
        show(label, path, figures[label])
    print(f"  ratio standings/static: {figures['standings']['rps'] / figures['static']['rps']:.3f} "
          "(requests per second)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
