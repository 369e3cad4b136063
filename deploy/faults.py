"""`make faults`: the set-up as docker-compose.yml runs it, on this machine, under saves and polls, through
the faults of a bad day (issue 58), each measured from outside as a phone, an arbiter and a monitor see it.

Started here, all on loopback addresses and under one temporary folder: a PostgreSQL cluster of its own
(initdb, its own port: this check restarts and freezes it, never the machine's shared server) and a Redis
of its own; migrated, the demo loaded, the first round of its first tournament drawn and published;
the public and the staff pool (gunicorn with gunicorn.conf.py, production settings, the database tasks
backend), the live channel's server (uvicorn, risiko_site.asgi), the pages' worker (db_worker) and Caddy
with the repository's Caddyfile in front of them (as deploy/proxy_check.py runs it).

Under load: an arbiter saving a table's result every ~0.3 s (deploy/faults_actor.py, through the service
the form calls), phones polling the standings' fragment through the proxy, three screens holding the
live channel (reconnecting with their last event id, as EventSource does), and a monitor asking /salute/
through the proxy every second. The faults, one after the other, each FAULT_SECONDS long:

    postgres-restart   PostgreSQL restarted (pg_ctl restart -m fast)
    worker-stopped     the pages' worker frozen (SIGSTOP), then let go
    redis-down         Redis stopped, then started again (empty)
    table-locked       a transaction holding the seats' table locked (ACCESS EXCLUSIVE)
    postgres-frozen    every PostgreSQL process frozen (SIGSTOP), then let go
    workers-killed     one gunicorn worker of each pool killed (SIGKILL) every 4 s

Checked for each fault of the database or the cache (HARD_BOUNDS): /salute/ answers within
HEALTH_BOUND_S through the proxy (200 or 503, and 200 again after it); for every fault: every live screen shows every acknowledged save within CATCH_UP_S of the
fault's end (an event or a heartbeat naming its version or a later one); at the end no acknowledged
save is lost (faults_actor.py check). queue_health exits 0 with a healthy queue and 1 naming the oldest
job while the worker is frozen. Measured and said, not failing the run: the polls' times, and /salute/
while a pool's workers are frozen or killed (on this machine's two cores a killed worker's replacement
takes seconds to start). What each fault looked like (saves, polls, /salute/, the screens) is
printed as one table: docs/admin/faults.md quotes it. The whole run is bounded (DEADLINE_S); every
process started is stopped and the folder removed. Exit 0 when every check passed.
"""
import glob
import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from proxy_check import CheckFailed, Run, _LoopbackHTTPS, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FAULT_SECONDS = float(os.environ.get("FAULT_SECONDS", "6"))
SETTLE_SECONDS = 8.0   # after each fault, before the next: what catching up needs (a Redis back is tried
                       # again after 5 s by each process, risiko_site/redis_cache.py), and then some
HEALTH_BOUND_S = 5.0   # /salute/ answers within this through the proxy, whatever the fault
POLL_BOUND_S = 8.0     # a public poll answers (its last render, else 503) within this (measured: ~6 s, the
                       # statement limit and a render; a last render at once whatever the database does
                       # is not done yet)
CATCH_UP_S = 5.0       # every screen shows every save within this of the fault's end
DEADLINE_S = int(os.environ.get("FAULTS_DEADLINE_S", "330"))
PHONES, SCREENS = 6, 3
HARD_BOUNDS = {"postgres-restart", "redis-down", "table-locked", "postgres-frozen"}
FAULTS = ["postgres-restart", "worker-stopped", "redis-down", "table-locked", "postgres-frozen", "workers-killed"]


def through(version):
    head = (version or "").split("-", 1)[0]
    return int(head) if head.isdigit() else 0


class Faults(Run):
    def __init__(self):
        super().__init__()
        self.tmp.chmod(0o755)  # PostgreSQL's own user reads its folder in it
        self.pg_port, self.redis_port, self.live_port = free_port(), free_port(), free_port()
        self.pg_data = self.tmp / "pg"
        self.pg_socket = self.tmp / "pgsock"
        self.redis = None
        self.stop_clients = threading.Event()
        self.lock = threading.Lock()
        self.polls, self.health, self.screens = [], [], {i: [] for i in range(SCREENS)}
        self.saves_log = self.tmp / "saves.jsonl"
        self.windows = []  # (name, start, end) in time.time()
        self.queue_checks = []
        self.notes = {}
        self.warnings = []

    # --- this run's own PostgreSQL and Redis ----------------------------------------------------

    def _as_postgres(self, command):
        return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command

    def _pg_bin(self, name):
        found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
        if not found and shutil.which(name) is None:
            raise CheckFailed(f"{name} not found (apt-get install postgresql)")
        return found[-1] if found else shutil.which(name)

    def pg_ctl(self, *args, timeout=60):
        options = (f"-p {self.pg_port} -k {self.pg_socket} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off")
        proc = subprocess.run(self._as_postgres([self._pg_bin("pg_ctl"), "-D", str(self.pg_data), "-l",
                                                 str(self.tmp / "postgres.log"), "-o", options, *args]),
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise CheckFailed(f"pg_ctl {' '.join(args)}: {proc.stderr.strip()[-300:]}")

    def start_postgres(self):
        for folder in (self.pg_data, self.pg_socket):
            folder.mkdir()
            if os.geteuid() == 0:
                shutil.chown(folder, "postgres", "postgres")
        if os.geteuid() == 0:
            (self.tmp / "postgres.log").touch()
            shutil.chown(self.tmp / "postgres.log", "postgres", "postgres")
        proc = subprocess.run(self._as_postgres([self._pg_bin("initdb"), "-D", str(self.pg_data), "-A", "trust",
                                                 "-U", "postgres", "--no-sync", "-E", "UTF8"]),
                              capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise CheckFailed(f"initdb: {proc.stderr.strip()[-300:]}")
        self.pg_ctl("-w", "start")

    def postgres_pids(self):
        """The postmaster and every process it started."""
        postmaster = int((self.pg_data / "postmaster.pid").read_text().split()[0])
        pids = [postmaster]
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    if int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                        pids.append(int(proc.name))
                except (OSError, IndexError, ValueError):
                    continue
        return pids

    def start_redis(self):
        self.redis = self.start("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                          "--save", "", "--appendonly", "no"], os.environ.copy())
        self.wait_for("Redis", lambda: socket.create_connection(("127.0.0.1", self.redis_port), 1).close() is None)

    def stop_redis(self):
        os.killpg(self.redis.pid, signal.SIGKILL)
        self.redis.wait(10)
        self.processes.remove(("redis", self.redis))

    # --- the application, as compose runs it ------------------------------------------------------

    def app_env(self):
        env = super().app_env()
        env.update({"DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/torneo",
                    "CACHE_URL": f"redis://127.0.0.1:{self.redis_port}/0", "TASKS_BACKEND": "database",
                    "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "4"})
        return env

    def prepare_database(self):
        env = self.app_env()
        subprocess.run(["createdb", "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "torneo"],
                       check=True, timeout=60)
        steps = [[sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                 [sys.executable, "deploy/faults_actor.py", "prepare"]]
        # collectstatic beside the migration (production serves the files whitenoise's manifest names)
        static = subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for command in steps:
            began = time.monotonic()
            proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                raise CheckFailed(f"{' '.join(command[1:3])}: {proc.stderr.strip()[-500:]}")
            print(f"faults: {' '.join(command[1:3])} in {time.monotonic() - began:.0f} s")
        self.site = json.loads(proc.stdout.strip().splitlines()[-1])
        if static.wait(300) != 0:
            raise CheckFailed(f"collectstatic: {static.stderr.read()[-500:]}")

    def start_rest(self):
        env = self.app_env()
        self.live = self.start("live", [sys.executable, "-m", "uvicorn", "risiko_site.asgi:application", "--host",
                                        "127.0.0.1", "--port", str(self.live_port), "--workers", "1",
                                        "--no-access-log", "--timeout-graceful-shutdown", "2"], env)
        self.worker = self.start("worker", [sys.executable, "manage.py", "db_worker", "--backend", "pages",
                                            "--queue-name", "pages", "--interval", "0.1", "--no-startup-delay"], env)
        self.wait_for("the live server", lambda: self.direct(self.live_port, "/salute/").status == 200)
        threading.Thread(target=self.restart_policy, daemon=True).start()

    def restart_policy(self):
        """docker-compose.yml's `restart: unless-stopped` for the worker: db_worker exits when its
        database connection breaks (a restart), and is started again."""
        while not self.stop_clients.is_set():
            if self.worker.poll() is not None:
                self.processes.remove(("worker", self.worker))
                self.restarts = getattr(self, "restarts", 0) + 1
                self.worker = self.start("worker", self.worker.args, self.app_env())
            self.stop_clients.wait(0.5)

    def fail_if_exited(self):
        for name, process in self.processes:
            if name != "worker" and process.poll() is not None:  # the worker is started again
                raise CheckFailed(f"{name} stopped (exit {process.returncode})")

    @property
    def live_pool(self):
        return f"127.0.0.1:{self.live_port}"

    # --- the clients --------------------------------------------------------------------------

    def https(self, timeout):
        return _LoopbackHTTPS("localhost", self.https_port, context=self.tls, timeout=timeout,
                              source_address=("127.0.0.2", 0))

    def phone(self):
        while not self.stop_clients.is_set():
            started = time.time()
            status, version = None, None
            try:
                conn = self.https(15)
                conn.request("GET", self.site["standings"], headers={"HX-Request": "true"})
                response = conn.getresponse()
                response.read()
                status, version = response.status, response.getheader("X-Results-Version")
                conn.close()
            except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
                status = type(exc).__name__
            with self.lock:
                self.polls.append((started, time.time() - started, status, version))
            self.stop_clients.wait(0.5)

    def monitor(self):
        while not self.stop_clients.is_set():
            started = time.time()
            try:
                conn = self.https(15)
                conn.request("GET", "/salute/")
                response = conn.getresponse()
                response.read()
                status = response.status
                conn.close()
            except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
                status = type(exc).__name__
            with self.lock:
                self.health.append((started, time.time() - started, status))
            self.stop_clients.wait(max(0.0, 1.0 - (time.time() - started)))

    def screen(self, number):
        """An EventSource: the stream through the proxy, every event's version noted (a heartbeat's too:
        the page refreshes on one naming another version), reconnecting with its last id."""
        last_id = ""
        while not self.stop_clients.is_set():
            try:
                conn = self.https(30)
                conn.request("GET", self.site["live"], headers={"Accept": "text/event-stream",
                                                                **({"Last-Event-ID": last_id} if last_id else {})})
                response = conn.getresponse()
                if response.status != 200:
                    raise OSError(f"status {response.status}")
                fields = {}
                while not self.stop_clients.is_set():
                    line = response.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line:
                        key, _, value = line.partition(": ")
                        fields[key] = value
                        continue
                    if "data" in fields:
                        try:
                            data = json.loads(fields["data"])
                        except ValueError:
                            data = {}
                        if fields.get("id"):
                            last_id = fields["id"]
                        if data.get("version"):
                            with self.lock:
                                self.screens[number].append((time.time(), fields.get("event", "message"),
                                                             data["version"]))
                    fields = {}
                conn.close()
            except (OSError, http.client.HTTPException, ssl.SSLError, ValueError):
                with self.lock:
                    self.screens[number].append((time.time(), "lost", ""))
            self.stop_clients.wait(1.0)  # EventSource's retry (the stream says 1000 ms)

    # --- the faults -----------------------------------------------------------------------------

    def queue_health(self):
        proc = subprocess.run([sys.executable, "manage.py", "queue_health", "pages", "--seconds", "4"], cwd=ROOT,
                              env=self.app_env(), capture_output=True, text=True, timeout=30)
        return proc.returncode, proc.stderr.strip()

    def fault(self, name):
        start = time.time()
        end_at = start + FAULT_SECONDS
        if name == "postgres-restart":
            self.pg_ctl("-w", "-m", "fast", "restart")
            self.notes[name] = f"restarted in {time.time() - start:.1f} s"
            time.sleep(max(0.0, end_at - time.time()))
        elif name == "worker-stopped":
            os.kill(self.worker.pid, signal.SIGSTOP)
            time.sleep(FAULT_SECONDS - 1.5)
            self.queue_checks.append(("worker frozen", *self.queue_health()))
            time.sleep(max(0.0, end_at - time.time()))
            os.kill(self.worker.pid, signal.SIGCONT)
        elif name == "redis-down":
            self.stop_redis()
            time.sleep(FAULT_SECONDS)
            self.start_redis()
        elif name == "table-locked":
            locker = subprocess.Popen(["psql", "-X", "-q", "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres",
                                       "-d", "torneo", "-c", f"BEGIN; LOCK TABLE tables_seat IN ACCESS EXCLUSIVE MODE; "
                                       f"SELECT pg_sleep({FAULT_SECONDS}); COMMIT;"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            locker.wait(FAULT_SECONDS + 30)
        elif name == "postgres-frozen":
            pids = self.postgres_pids()
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
            time.sleep(FAULT_SECONDS)
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
        elif name == "workers-killed":
            killed = 0
            while time.time() < end_at:
                for pool in ("public", "staff"):
                    master = next(p for n, p in self.processes if n == f"gunicorn-{pool}")
                    children = [int(c) for c in Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()]
                    if children:
                        os.kill(children[0], signal.SIGKILL)
                        killed += 1
                time.sleep(4)
            self.notes[name] = f"{killed} workers killed"
        end = time.time()
        self.windows.append((name, start, end))
        time.sleep(SETTLE_SECONDS)

    # --- what was seen ------------------------------------------------------------------------

    def saves(self):
        return [json.loads(line) for line in self.saves_log.read_text().splitlines() if line.strip()]

    def seen_at(self, number, version, after):
        """When screen `number` first showed `version` or a later one at or after `after` (None: never)."""
        wanted = through(version)
        for at, kind, seen in self.screens[number]:
            if at >= after and kind != "lost" and through(seen) >= wanted:
                return at
        return None

    def report(self):
        saves = self.saves()
        rows, failures = [], []
        for name, start, end in self.windows:
            until = end + SETTLE_SECONDS
            in_window = [s for s in saves if start <= s["t"] < end]
            acked = [s for s in in_window if s["ok"]]
            polls = [p for p in self.polls if start <= p[0] < until]
            poll_latency = sorted(p[1] for p in polls)
            poll_bad = sum(1 for p in polls if p[2] != 200)
            health = [h for h in self.health if start <= h[0] < until]
            health_max = max((h[1] for h in health), default=0.0)
            health_codes = sorted({str(h[2]) for h in health if h[0] < end})
            health_after = [h for h in self.health if end + 1 <= h[0] < until - 1.5]
            # every save acknowledged before the fault's end (and after the previous window) on every screen
            since = max([w[2] for w in self.windows if w[2] <= start] + [start - 5])
            catch = []
            for save in (s for s in saves if s["ok"] and since <= s["t"] < end):
                for number in self.screens:
                    at = self.seen_at(number, save["version"], save["t"])
                    catch.append(None if at is None else max(0.0, at - end))
            late = max((c for c in catch if c is not None), default=0.0)
            missed = sum(c is None for c in catch)
            rows.append({
                "fault": name, "saves acknowledged": f"{len(acked)}/{len(in_window)}",
                "save max s": round(max((s["took"] for s in in_window), default=0.0), 1),
                "polls": len(polls), "poll p95 s": round(poll_latency[int(0.95 * (len(poll_latency) - 1))], 2)
                if poll_latency else None, "poll max s": round(max(poll_latency, default=0.0), 1),
                "polls not 200": poll_bad, "/salute/ max s": round(health_max, 1),
                "/salute/ during": "/".join(health_codes),
                "screens: last save shown s after the end": round(late, 1) if not missed else f"{missed} never",
                "note": self.notes.get(name, "")})
            # The bounds a fault of the database or the cache must keep fail the run; the pools' own
            # faults (a worker frozen, workers killed) are measured and said (docs/admin/faults.md).
            said = failures if name in HARD_BOUNDS else self.warnings
            if health_max > HEALTH_BOUND_S:
                said.append(f"{name}: /salute/ took {health_max:.1f} s (bound {HEALTH_BOUND_S:.0f} s)")
            if not any(h[2] == 200 for h in health_after):
                said.append(f"{name}: /salute/ not 200 again after the fault: {[h[2] for h in health_after]}")
            if poll_latency and poll_latency[-1] > POLL_BOUND_S:
                self.warnings.append(f"{name}: a poll took {poll_latency[-1]:.1f} s (bound {POLL_BOUND_S:.0f} s)")
            if missed or late > CATCH_UP_S:
                failures.append(f"{name}: the screens showed the saves {late:.1f} s after the fault's end, "
                                f"{missed} never (bound {CATCH_UP_S:.0f} s)")
        return rows, failures


def _deadline(signum, frame):
    raise TimeoutError(f"make faults did not finish in {DEADLINE_S} s")


def _terminated(signum, frame):
    raise SystemExit(2)


def main():
    for tool in ("caddy", "redis-server", "runuser" if os.geteuid() == 0 else "pg_ctl"):
        if shutil.which(tool) is None:
            print(f"faults: {tool} is not installed", file=sys.stderr)
            return 2
    signal.signal(signal.SIGALRM, _deadline)
    signal.signal(signal.SIGTERM, _terminated)
    signal.alarm(DEADLINE_S)
    run = Faults()
    began = time.monotonic()
    failures = []
    saver = None
    try:
        print(f"faults: PostgreSQL of its own on 127.0.0.1:{run.pg_port}, Redis on :{run.redis_port}, "
              f"pools :{run.pools['public']} and :{run.pools['staff']}, live :{run.live_port}, "
              f"Caddy https://localhost:{run.https_port}")
        run.start_postgres()
        run.start_redis()
        run.prepare_database()
        run.start_pools()
        run.start_rest()
        run.start_caddy()
        print(f"faults: set up in {time.monotonic() - began:.0f} s")
        clients = [threading.Thread(target=run.phone, daemon=True) for _ in range(PHONES)]
        clients += [threading.Thread(target=run.screen, args=(n,), daemon=True) for n in range(SCREENS)]
        clients.append(threading.Thread(target=run.monitor, daemon=True))
        for client in clients:
            client.start()
        saver = run.start("saver", [sys.executable, "deploy/faults_actor.py", "save", str(run.saves_log),
                                    str(DEADLINE_S)], run.app_env())  # until stopped below
        time.sleep(4)
        run.queue_checks.append(("healthy", *run.queue_health()))
        for name in FAULTS:
            print(f"faults: {name}")
            run.fault(name)
            run.fail_if_exited()
        run.queue_checks.append(("after the faults", *run.queue_health()))
        print(f"faults: the worker was started again {getattr(run, 'restarts', 0)} time(s) (restart: unless-stopped)")
        run.stop_clients.set()
        os.killpg(saver.pid, signal.SIGTERM)
        saver.wait(15)
        run.processes.remove(("saver", saver))
        check = subprocess.run([sys.executable, "deploy/faults_actor.py", "check", str(run.saves_log)], cwd=ROOT,
                               env=run.app_env(), capture_output=True, text=True, timeout=60)
        kept = json.loads(check.stdout.strip().splitlines()[-1]) if check.stdout.strip() else {"lost": [check.stderr]}
        rows, failures = run.report()
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        print(f"faults: {kept.get('acknowledged')} of {kept.get('attempts')} saves acknowledged; lost: {kept['lost']}")
        failures += [f"an acknowledged save lost: {lost}" for lost in kept["lost"]]
        for when, code, message in run.queue_checks:
            print(f"faults: queue_health ({when}): exit {code} {message}")
        expected = {"healthy": 0, "worker frozen": 1, "after the faults": 0}
        for when, code, message in run.queue_checks:
            if code != expected[when] or (code == 1 and "the oldest ready job, " not in message):
                failures.append(f"queue_health ({when}) exited {code}: {message}")
    except (CheckFailed, TimeoutError, subprocess.SubprocessError, OSError, http.client.HTTPException) as exc:
        failures.append(str(exc) or type(exc).__name__)
        run.logs_tail()
    finally:
        signal.alarm(0)
        run.stop_clients.set()
        try:
            run.pg_ctl("-m", "immediate", "stop", timeout=30)
        except (CheckFailed, subprocess.SubprocessError, OSError):
            pass
        run.stop()  # every other process, and the folder
    for warning in run.warnings:
        print(f"  MEASURED {warning}")
    for failure in failures:
        print(f"  FAIL {failure}", file=sys.stderr)
    print(f"faults: {len(FAULTS)} faults, {len(failures)} failed, in {time.monotonic() - began:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
