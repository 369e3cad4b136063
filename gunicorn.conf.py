"""gunicorn's settings, read from the working folder by production (Dockerfile, docker-compose.yml)
and by the load benchmark.

Threaded workers: a request that waits on the database (a save and its commit) does not hold up
the cheap ones behind it in the same process; the polls of the public standings, answered from the
shared cache, go on being served while results are written. Each thread has its own database
connection (kept for DB_CONN_MAX_AGE seconds, health-checked).
"""
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Three processes of four threads per pool (WEB_CONCURRENCY, GUNICORN_THREADS): twelve requests at once, on
# a server of two cores, each process about 120 MB (two pools within the compose file's 1 GB each). More
# than one process because one that dies (killed, out of memory) takes only its own requests down while
# the others answer, and the proxy sends a poll it held to another (Caddyfile, pool_retries); more threads
# than processes because a request mostly waits on the database or the cache (each thread holds one
# database connection: 12 a pool).
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# A worker that does not report to the master for this long is killed and replaced (gthread: its main
# loop, not a request: a request is bounded by the database's own limits, DB_STATEMENT_TIMEOUT_MS and
# DB_LOCK_TIMEOUT_MS, a few seconds). 30 s is gunicorn's default, said here so that it is a choice.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On a restart (an upgrade) a worker finishes the requests it holds within this long: a save's few
# seconds at most.
graceful_timeout = 10
# An idle connection from the proxy is kept 75 s, longer than the proxy keeps it (60 s, Caddyfile): the
# proxy closes it first, so it never sends a request on a connection gunicorn is closing (gunicorn's
# default, 2 s, under Caddy's default 2 minutes, made the proxy answer 502 now and then).
keepalive = 75


def post_worker_init(worker):
    """A thread doing Python work (a save, a render) hands the interpreter on every millisecond
    rather than every five (Python's default): a poll answered from the cache, which needs the
    interpreter for a moment between its reads and writes, waits less behind it. Measured with the
    load benchmark's storm: poll p95 19-23 ms against 26-29 ms, save p95 106-112 ms against 125-165."""
    import gc
    import sys

    sys.setswitchinterval(int(os.environ.get("GUNICORN_SWITCH_INTERVAL_MS", "1")) / 1000)
    # The application's objects, loaded once, are left out of the garbage collector's full passes:
    # a full pass stops every thread of its process, and walking Django's modules made it last up
    # to 125 ms in the load benchmark's storm; without them the longest was 34 ms.
    gc.collect()
    gc.freeze()

