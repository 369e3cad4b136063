"""The application containers' health check (docker-compose.yml): exit 0 when gunicorn answers
GET /salute/ with 200 (the database and the cache answer), 1 otherwise. Standard library only."""
import os
import sys
import urllib.error
import urllib.request

port = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000").rsplit(":", 1)[1]
host = (os.environ.get("ALLOWED_HOSTS", "").split(",")[0] or "localhost").strip()
request = urllib.request.Request(f"http://127.0.0.1:{port}/salute/", headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=4) as response:
        sys.exit(0 if response.status == 200 else 1)
except (urllib.error.URLError, OSError) as exc:
    print(f"health check: {exc}", file=sys.stderr)
    sys.exit(1)
