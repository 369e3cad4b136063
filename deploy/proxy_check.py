"""`make proxy-check`: the repository's Caddyfile in front of Torneo's two gunicorn pools, on this
machine, checked from outside as a phone and an arbiter would reach them.

Started here, all on loopback addresses: a scratch PostgreSQL database (migrated, the demo loaded),
the public and the staff pool (gunicorn, production settings, TORNEO_POOL naming each in an
X-Torneo-Pool header), and Caddy with the Caddyfile as it is, told by its environment to serve
DOMAIN=localhost on high ports with its own local certificate authority (no Let's Encrypt) and to
bind 127.0.0.1 only. Checked: plain HTTP redirected to HTTPS, the certificate, the public pages from
the public pool and the arbiters' and organisers' from the staff pool (header and access logs), the
security headers, gzip, the live channel's events passed on at once and uncompressed,
X-Forwarded-Proto and X-Forwarded-For written by the proxy whatever the client sends, and the login
throttle counting the client's own address (TRUSTED_PROXY_COUNT=1). Every process started is stopped
at the end, and the whole run is bounded in time. Standard library only; exit 0 when every check
passed.
"""
import gzip
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PG_SERVER = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/torneo").rsplit("/", 1)[0]
DATABASE = os.environ.get("PROXY_CHECK_DATABASE", "torneo_proxy_check")
# The proxy's limits, made small here so that the check is quick (the Caddyfile's own: 11MB and 10s).
BODY_LIMIT_BYTES, HEADER_TIMEOUT_S = 1024 * 1024, 2
DEADLINE_S = int(os.environ.get("PROXY_CHECK_DEADLINE_S", "240"))
LOGIN_LIMIT = 3
CLIENT, OTHER_CLIENT = "127.0.0.2", "127.0.0.3"  # loopback addresses the checks connect from
STAFF_PATHS = ["/accounts/login/", "/arbitro/sw.js", "/arbitro/t/1/", "/gestione/", "/admin/"]
PUBLIC_PATHS = ["/", "/circuiti/", "/salute/"]
LIVE_FIRST_EVENT_S = 3  # the live channel's first event comes through the proxy within this
SECURITY_HEADERS = {
    "strict-transport-security": "max-age=31536000; includeSubDomains; preload",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}


class CheckFailed(Exception):
    pass


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _LoopbackHTTP(http.client.HTTPConnection):
    """Dials 127.0.0.1 (from `source_address`) whatever the host name: `localhost` may mean ::1."""

    def connect(self):
        self.sock = socket.create_connection(("127.0.0.1", self.port), self.timeout, self.source_address)


class _LoopbackHTTPS(http.client.HTTPSConnection):
    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout, self.source_address)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class Response:
    def __init__(self, raw):
        self.status = raw.status
        self.headers = raw.headers
        self.body = raw.read()

    def header(self, name):
        return self.headers.get(name)

    def text(self):
        body = gzip.decompress(self.body) if self.header("Content-Encoding") == "gzip" else self.body
        return body.decode("utf-8", "replace")


class Run:
    """Everything this check starts, to stop at the end."""

    def __init__(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="torneo-proxy-check-"))
        self.processes = []
        self.database_created = False
        self.http_port, self.https_port = free_port(), free_port()
        self.pools = {"public": free_port(), "staff": free_port()}
        self.tls = None
        self.passed = 0

    # --- starting ---------------------------------------------------------------------------------

    def start(self, name, command, env, cwd=ROOT):
        log = open(self.tmp / f"{name}.log", "wb")
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        self.processes.append((name, process))
        return process

    def app_env(self):
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL", "DEBUG")}
        env.update({
            "DJANGO_PRODUCTION": "1", "SECRET_KEY": secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "localhost", "CSRF_TRUSTED_ORIGINS": f"https://localhost:{self.https_port}",
            "DATABASE_URL": f"{PG_SERVER}/{DATABASE}", "CACHE_URL": f"file://{self.tmp / 'cache'}",
            "TRUSTED_PROXY_COUNT": "1", "LOGIN_FAILURE_LIMIT": str(LOGIN_LIMIT),
            "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "2", "STATIC_ROOT": str(self.tmp / "static"),
        })
        return env

    def prepare_database(self):
        maintenance = f"--maintenance-db={PG_SERVER}/postgres"
        env = self.app_env()
        steps = [["dropdb", "--if-exists", maintenance, DATABASE], ["createdb", maintenance, DATABASE],
                 [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                 # A published tournament for the live channel's check: the demo's.
                 [sys.executable, "manage.py", "load_demo"],
                 # Production settings serve the static files named in whitenoise's manifest (the Dockerfile
                 # does the same), collected into the scratch folder.
                 [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]]
        for command in steps:
            proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                raise CheckFailed(f"{' '.join(command[:3])}: {proc.stderr.strip()[-500:]}")
            self.database_created = True

    def start_pools(self):
        for pool, port in self.pools.items():
            env = {**self.app_env(), "TORNEO_POOL": pool, "GUNICORN_BIND": f"127.0.0.1:{port}"}
            self.start(f"gunicorn-{pool}", [
                sys.executable, "-m", "gunicorn", "risiko_site.wsgi:application", "--config", "gunicorn.conf.py",
                "--access-logfile", str(self.tmp / f"access-{pool}.log"), "--graceful-timeout", "5",
                "--control-socket", str(self.tmp / f"gunicorn-{pool}.ctl")], env)
        for pool, port in self.pools.items():
            self.wait_for(f"the {pool} pool", lambda port=port: self.direct(port, "/salute/").status == 200)

    def start_caddy(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CADDY", "XDG_"))}
        env.update({
            "HOME": str(self.tmp), "XDG_DATA_HOME": str(self.tmp / "data"), "XDG_CONFIG_HOME": str(self.tmp / "config"),
            # The site's address with its port: the redirect from HTTP names it (with HTTPS_PORT instead,
            # Caddy would take it for the standard one and redirect to https://localhost/).
            "DOMAIN": f"localhost:{self.https_port}", "EMAIL": "proxy-check@localhost.invalid",
            "HTTP_PORT": str(self.http_port),
            "CADDY_ADMIN": "off", "CADDY_GLOBAL_OPTIONS": "default_bind 127.0.0.1",
            "PUBLIC_POOL": f"127.0.0.1:{self.pools['public']}", "STAFF_POOL": f"127.0.0.1:{self.pools['staff']}",
            # No uvicorn here: the public pool serves the live channel too (a thread per stream);
            # deploy/faults.py gives its own live server.
            "LIVE_POOL": getattr(self, "live_pool", None) or f"127.0.0.1:{self.pools['public']}",
            "REQUEST_BODY_MAX_BYTES": str(BODY_LIMIT_BYTES), "READ_HEADER_TIMEOUT": f"{HEADER_TIMEOUT_S}s",
        })
        self.start("caddy", [shutil.which("caddy") or "caddy", "run", "--config", str(ROOT / "Caddyfile"),
                             "--adapter", "caddyfile"], env)
        root = self.tmp / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

        def ready():
            if not root.exists():
                return False
            self.tls = ssl.create_default_context(cafile=str(root))  # the certificate is verified
            return self.get("/salute/").status == 200
        self.wait_for("Caddy and its certificate for localhost", ready)

    def wait_for(self, what, ready, seconds=60):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.fail_if_exited()
            try:
                if ready():
                    return
            except (OSError, http.client.HTTPException, ssl.SSLError):
                pass
            time.sleep(0.3)
        raise CheckFailed(f"{what} not ready after {seconds} s")

    def fail_if_exited(self):
        for name, process in self.processes:
            if process.poll() is not None:
                raise CheckFailed(f"{name} stopped (exit {process.returncode})")

    # --- requests ---------------------------------------------------------------------------------

    def request(self, connection, method, path, headers=None, body=None):
        try:
            connection.request(method, path, body=body, headers=headers or {})
            return Response(connection.getresponse())
        finally:
            connection.close()

    def get(self, path, headers=None, source=CLIENT, method="GET", body=None):
        """Through Caddy, over HTTPS, from a loopback address other than the proxy's own."""
        connection = _LoopbackHTTPS("localhost", self.https_port, context=self.tls, timeout=15,
                                    source_address=(source, 0))
        return self.request(connection, method, path, headers, body)

    def get_http(self, path):
        return self.request(_LoopbackHTTP("localhost", self.http_port, timeout=15, source_address=(CLIENT, 0)),
                            "GET", path)

    def direct(self, port, path):
        return self.request(_LoopbackHTTP("localhost", port, timeout=15), "GET", path)

    # --- checks -----------------------------------------------------------------------------------

    def check(self, condition, description, detail=""):
        if not condition:
            raise CheckFailed(f"{description}{': ' + detail if detail else ''}")
        self.passed += 1
        print(f"  ok  {description}")

    def check_listeners(self):
        """What Caddy and each pool listen on, read from /proc: their own sockets, loopback only."""
        expected = {"caddy": {("tcp", self.http_port), ("tcp", self.https_port)},
                    **{f"gunicorn-{pool}": {("tcp", port)} for pool, port in self.pools.items()}}
        for name, process in self.processes:
            sockets = listening_sockets(process.pid)
            self.check({(proto, port) for proto, port, _loopback in sockets if proto == "tcp"} == expected[name]
                       and all(loopback for _proto, _port, loopback in sockets),
                       f"{name} listens on 127.0.0.1 only: " + ", ".join(f"{proto} {port}" for proto, port, _l in
                                                                        sorted(sockets)),
                       str(sorted(sockets)))

    def check_container_health(self):
        """docker-compose.yml's health check of the pools, run against each of them as it runs in a container."""
        for pool, port in self.pools.items():
            env = {**self.app_env(), "GUNICORN_BIND": f"0.0.0.0:{port}"}
            proc = subprocess.run([sys.executable, "deploy/healthcheck.py"], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=30)
            self.check(proc.returncode == 0, f"deploy/healthcheck.py passes against the {pool} pool", proc.stderr)

    def check_redirect(self):
        response = self.get_http("/t/1/classifica/?lang=it")
        target = f"https://localhost:{self.https_port}/t/1/classifica/?lang=it"
        self.check(response.status in (301, 308) and response.header("Location") == target,
                   f"http:// is redirected to https:// ({response.status} to {target})",
                   f"{response.status} {response.header('Location')}")

    def check_routing(self):
        for path in PUBLIC_PATHS:
            response = self.get(path)
            self.check(response.status == 200 and response.header("X-Torneo-Pool") == "public",
                       f"{path} answered by the public pool", f"{response.status} {response.header('X-Torneo-Pool')}")
        health = self.get("/salute/")
        self.check(health.body == b"ok" and health.header("Cache-Control") == "no-store",
                   "/salute/ says ok through the proxy", repr(health.body))
        static = re.search(r'href="(/static/[^"]+\.css)"', self.get("/").text())
        self.check(static is not None, "the home page links its stylesheet")
        response = self.get(static.group(1), {"Accept-Encoding": "gzip"})
        self.check(response.status == 200 and response.header("X-Torneo-Pool") == "public"
                   and response.header("Content-Encoding") == "gzip",
                   f"{static.group(1)} served compressed by the public pool",
                   f"{response.status} {response.header('X-Torneo-Pool')} {response.header('Content-Encoding')}")
        for path in STAFF_PATHS:
            response = self.get(path)
            self.check(response.status in (200, 302) and response.header("X-Torneo-Pool") == "staff",
                       f"{path} answered by the staff pool ({response.status})",
                       f"{response.status} {response.header('X-Torneo-Pool')}")
        def agree():
            logs = {pool: (self.tmp / f"access-{pool}.log").read_text() for pool in self.pools}
            return (all(f"GET {p} " in logs["staff"] and f"GET {p} " not in logs["public"] for p in STAFF_PATHS)
                    and "GET /circuiti/ " in logs["public"] and "GET /circuiti/ " not in logs["staff"])
        end = time.monotonic() + 5  # a worker writes its access log line after the answer
        while not agree() and time.monotonic() < end:
            time.sleep(0.2)
        self.check(agree(), "the pools' access logs agree: the staff paths only in the staff pool's, "
                   "the public ones only in the public pool's")

    def check_headers(self):
        for path in ("/", "/accounts/login/"):
            response = self.get(path)
            wrong = {name: response.header(name) for name, value in SECURITY_HEADERS.items()
                     if response.header(name) != value}
            csp = response.header("Content-Security-Policy") or ""
            self.check(not wrong and "default-src 'self'" in csp and "frame-ancestors 'none'" in csp,
                       f"{path}: HSTS, CSP, X-Frame-Options, nosniff, Referrer-Policy, COOP passed on", json.dumps(wrong))
            self.check(response.header("Server") is None, f"{path}: no Server header", response.header("Server"))
        login = self.get("/accounts/login/")
        cookies = login.headers.get_all("Set-Cookie") or []
        self.check(any(c.startswith("csrftoken=") and "Secure" in c for c in cookies),
                   "the CSRF cookie is Secure (the application sees HTTPS)", json.dumps(cookies))

    def check_gzip(self):
        response = self.get("/", {"Accept-Encoding": "gzip"})
        self.check(response.header("Content-Encoding") == "gzip" and "<html" in response.text().lower()
                   and len(response.body) < len(response.text().encode()),
                   f"pages are gzipped ({len(response.body)} bytes for {len(response.text().encode())})",
                   str(response.header("Content-Encoding")))
        plain = self.get("/")
        self.check(plain.header("Content-Encoding") is None, "and sent plain to a client that did not ask")

    def check_logged_in_uncompressed(self):
        """A request carrying the session cookie gets its page as the application sent it: uncompressed
        (the page holds the visitor's CSRF token; BREACH reads secrets in compressed bodies)."""
        response = self.get("/", {"Accept-Encoding": "gzip", "Cookie": "sessionid=not-a-session"})
        self.check(response.status == 200 and response.header("Content-Encoding") is None,
                   "a logged-in visitor's page is not compressed by the proxy", str(response.header("Content-Encoding")))

    def check_body_limit(self):
        """A body over the proxy's limit is answered 413 by the proxy; one within it reaches the pools."""
        body = b"x" * (BODY_LIMIT_BYTES + 1024)
        over = self.get("/accounts/login/", {"Content-Type": "application/octet-stream"}, method="POST", body=body)
        self.check(over.status == 413, f"a body over the proxy's limit ({len(body)} bytes) is answered 413",
                   str(over.status))
        within = self.get("/accounts/login/", {"Content-Type": "application/octet-stream"}, method="POST",
                          body=b"x" * 1024)
        self.check(within.status == 403, "a body within it reaches the application (its CSRF check answers)",
                   str(within.status))

    def check_slow_headers(self):
        """A client that never finishes its request's headers is cut off after the proxy's header timeout."""
        raw = socket.create_connection(("localhost", self.https_port), timeout=HEADER_TIMEOUT_S + 10,
                                       source_address=(CLIENT, 0))
        started = time.monotonic()
        with self.tls.wrap_socket(raw, server_hostname="localhost") as connection:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            try:
                answer = connection.recv(1024)
            except (ConnectionError, ssl.SSLError):
                answer = b""
        seconds = time.monotonic() - started
        self.check(seconds < HEADER_TIMEOUT_S + 5 and not answer.startswith(b"HTTP/1.1 200"),
                   f"a request whose headers never end is cut off after {seconds:.1f} s", repr(answer[:40]))

    def check_live(self):
        """The live channel through the proxy (its own route, `flush_interval -1`): the stream's first
        event, a heartbeat, arrives at once, neither held back in a buffer nor compressed."""
        found = re.search(r'href="/t/(\d+)/', self.get("/").text())
        self.check(found is not None, "the home page links a published tournament (the demo's)")
        connection = _LoopbackHTTPS("localhost", self.https_port, context=self.tls, timeout=LIVE_FIRST_EVENT_S,
                                    source_address=(CLIENT, 0))
        started, received = time.monotonic(), b""
        try:
            connection.request("GET", f"/t/{found.group(1)}/live/",
                               headers={"Accept": "text/event-stream", "Accept-Encoding": "gzip"})
            response = connection.getresponse()
            while b"event: beat" not in received and time.monotonic() - started < LIVE_FIRST_EVENT_S:
                chunk = response.read1(65536)
                if not chunk:
                    break
                received += chunk
        finally:
            connection.close()
        seconds = time.monotonic() - started
        self.check(response.status == 200 and response.headers.get("Content-Type") == "text/event-stream"
                   and response.headers.get("Content-Encoding") is None and b"event: beat" in received,
                   f"the live channel streams through the proxy, uncompressed: its first event after {seconds:.2f} s",
                   f"{response.status} {response.headers.get('Content-Type')} {received[:80]!r}")

    def check_forwarded_proto(self):
        response = self.get("/", {"X-Forwarded-Proto": "http"})
        self.check(response.status == 200, "X-Forwarded-Proto is the proxy's: a client's 'http' is not believed "
                   "(no redirect loop)", str(response.status))

    def _login(self, source, username, forged):
        page = self.get("/accounts/login/", source=source)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text())
        cookie = next(c.split(";")[0] for c in page.headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
        body = urlencode({"csrfmiddlewaretoken": token.group(1), "username": username, "password": "wrong"})
        return self.get("/accounts/login/", source=source, method="POST", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
            "Referer": f"https://localhost:{self.https_port}/accounts/login/", "X-Forwarded-For": forged})

    def check_throttle(self):
        """LOGIN_FAILURE_LIMIT=3: three failed logins from 127.0.0.2, each claiming another address in
        X-Forwarded-For and naming another account, lock 127.0.0.2 and it alone. Counted under the
        proxy's address (127.0.0.1), 127.0.0.3 would be locked too; under the forged one, never."""
        statuses = [self._login(CLIENT, f"nessuno{i}", f"127.9.9.{i}").status for i in range(LOGIN_LIMIT + 1)]
        self.check(statuses == [200] * LOGIN_LIMIT + [429],
                   f"the login throttle counts the client's address through the proxy: {LOGIN_LIMIT} failures "
                   f"from {CLIENT} with forged X-Forwarded-For, then 429", str(statuses))
        other = self._login(OTHER_CLIENT, "nessuno-altro", "127.9.9.9").status
        self.check(other == 200, f"while {OTHER_CLIENT}, behind the same proxy, may still try", str(other))

    # --- stopping ---------------------------------------------------------------------------------

    def stop(self):
        for name, process in reversed(self.processes):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for name, process in reversed(self.processes):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait(timeout=5)
        if self.database_created:
            subprocess.run(["dropdb", "--if-exists", f"--maintenance-db={PG_SERVER}/postgres", DATABASE],
                           timeout=60, check=False)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def logs_tail(self, lines=15):
        for path in sorted(self.tmp.glob("*.log")):
            tail = path.read_text(errors="replace").splitlines()[-lines:]
            print(f"--- {path.name} (last {len(tail)} lines)", file=sys.stderr)
            print("\n".join(tail), file=sys.stderr)


LOOPBACK = {"0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"}


def listening_sockets(pid):
    """{(protocol, port, on loopback)} of the listening TCP sockets and bound UDP ones of a process and
    its children (the whole session: gunicorn's workers share the master's socket)."""
    inodes = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if os.getsid(int(proc.name)) != pid:
                continue
            for fd in (proc / "fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except (OSError, ValueError):
            continue
    found = set()
    for proto, tables, state in (("tcp", ("tcp", "tcp6"), "0A"), ("udp", ("udp", "udp6"), "07")):
        for table in tables:
            path = Path("/proc/net") / table
            if not path.exists():
                continue
            for line in path.read_text().splitlines()[1:]:
                fields = line.split()
                address, port = fields[1].rsplit(":", 1)
                if fields[3] == state and fields[9] in inodes:
                    found.add((proto, int(port, 16), address in LOOPBACK))
    return found


def _deadline(signum, frame):
    raise TimeoutError(f"proxy-check did not finish in {DEADLINE_S} s")


def _terminated(signum, frame):
    raise SystemExit(2)


def main():
    if shutil.which("caddy") is None:
        print("proxy-check: caddy is not installed (apt-get install caddy)", file=sys.stderr)
        return 2
    signal.signal(signal.SIGALRM, _deadline)
    signal.signal(signal.SIGTERM, _terminated)
    signal.alarm(DEADLINE_S)
    run = Run()
    started = time.monotonic()
    try:
        print(f"proxy-check: pools on 127.0.0.1:{run.pools['public']} (public) and :{run.pools['staff']} (staff), "
              f"Caddy on http://localhost:{run.http_port} and https://localhost:{run.https_port}")
        run.prepare_database()
        run.start_pools()
        run.start_caddy()
        run.check_listeners()
        run.check_container_health()
        run.check_redirect()
        run.check_routing()
        run.check_headers()
        run.check_gzip()
        run.check_logged_in_uncompressed()
        run.check_body_limit()
        run.check_slow_headers()
        run.check_live()
        run.check_forwarded_proto()
        run.check_throttle()
        run.fail_if_exited()
    except (CheckFailed, TimeoutError, subprocess.SubprocessError, OSError, http.client.HTTPException) as exc:
        print(f"  FAIL {exc}", file=sys.stderr)
        run.logs_tail()
        return 1
    finally:
        signal.alarm(0)
        run.stop()
    print(f"proxy-check: {run.passed} checks passed in {time.monotonic() - started:.0f} s; "
          "Caddy, both pools and the scratch database stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
