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
