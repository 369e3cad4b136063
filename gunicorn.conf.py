"""gunicorn's settings, read from the working folder by production (Dockerfile, docker-compose.yml)
and by the load benchmark.

Threaded workers: a request that waits on the database (a save and its commit) does not hold up
the cheap ones behind it in the same process; the polls of the public standings, answered from the
shared cache, go on being served while results are written. Each thread has its own database
connection (kept for DB_CONN_MAX_AGE seconds, health-checked).
"""
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))


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

