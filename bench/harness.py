"""What the server benchmarks share: a throwaway PostgreSQL database filled with a played tournament,
and gunicorn serving it on a free loopback port. Everything is removed again on exit.

The PostgreSQL server is the one of DATABASE_URL when it is a postgres:// URL, else of PG_URL
(default postgres://postgres@127.0.0.1:5432/postgres); the database itself is `torneo_bench` (or
BENCH_DB, so that two runs on one server never share it).
The cache is BENCH_CACHE_URL (default redis://127.0.0.1:6379/14, production's kind, when a Redis
answers there, else a file cache in a temporary folder); it is emptied before and after the run.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = os.environ.get("BENCH_DB", "torneo_bench")
PASSWORD = "bench-password-not-secret"


def database_urls():
    """(maintenance database URL, benchmark database URL) on the chosen PostgreSQL server."""
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        base = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path="/postgres")), urlunsplit(parts._replace(path=f"/{BENCH_DB}"))


def _admin(sql):
    import psycopg
    admin_url, _bench = database_urls()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql)


def _redis_answers(url):
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port or 6379), timeout=0.5):
            return True
    except OSError:
        return False


_FILE_CACHE = None


def cache_url():
    """The benchmark's shared cache (see the module's docstring)."""
    global _FILE_CACHE
    url = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/14")
    if url.startswith("redis") and not _redis_answers(url):
        if _FILE_CACHE is None:
            import tempfile
            _FILE_CACHE = tempfile.mkdtemp(prefix="torneo-bench-cache-")
        url = f"file://{_FILE_CACHE}"
    return url


def _empty_cache():
    try:
        from django.core.cache import cache
        cache.clear()
    except Exception:  # Django may not have started
        pass


def server_env(bench_url, **extra):
    """The environment of manage.py and gunicorn: development mode with DEBUG off, like a test server."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_PRODUCTION", "DEBUG", "DATABASE_URL")}
    env.update(DJANGO_PRODUCTION="0", DEBUG="0", ALLOWED_HOSTS="127.0.0.1", DATABASE_URL=bench_url,
               CACHE_URL=cache_url(),
               DB_CONN_MAX_AGE="60", LOG_LEVEL="ERROR", PYTHONUNBUFFERED="1", TASKS_BACKEND="database", **extra)
    return env


@contextmanager
def bench_database():
    """Create, migrate and yield `torneo_bench`; drop it at the end, whatever happens."""
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    _admin(f"CREATE DATABASE {BENCH_DB}")
    _admin_url, bench_url = database_urls()
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                       env=server_env(bench_url), check=True)
        os.environ.update({k: v for k, v in server_env(bench_url).items() if k != "PYTHONUNBUFFERED"})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")
        sys.path.insert(0, str(ROOT))
        import django
        django.setup()
        _empty_cache()
        yield bench_url
    finally:
        _empty_cache()
        try:
            from django.db import connections
            connections.close_all()
        except Exception:  # Django may not have started; the database goes anyway
            pass
        _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


def random_result(rng, seats):
    """A valid table result (SCORING.md section 2): survivors' points, maybe a RisiKo!, eliminations in order."""
    eliminated = rng.choice([0, 0, 1, 1, 2])
    order = list(range(1, eliminated + 1))
    rng.shuffle(order)
    risiko = rng.random() < 0.05
    lines = []
    for i, seat_id in enumerate(seats):
        if i >= len(seats) - eliminated:
            lines.append((seat_id, Decimal(0), False, order.pop()))
        else:
            lines.append((seat_id, Decimal(rng.randrange(1, 100)), risiko and i == 0, None))
    return lines


def fill(*, players=200, rounds=10, open_rounds=0, arbiters=0, seed=20260124, prefix="bench"):
    """A published tournament: `rounds` played and closed (results saved through the service, so
    validated and audited), then `open_rounds` published rounds without results.

    Returns {"tournament": pk, "open_tables": [table numbers of the last open round], "arbiters": [...],
    "registrations": [...]}.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tables.results import services as results
    from tables.rounds import services
    from tables.models import Round, Seat, Table
    from tournaments.models import Club, Player, Registration, Tournament
    from tournaments.accounts.services import grant_organiser

    rng = random.Random(seed)
    User = get_user_model()
    hashed = make_password(PASSWORD)  # once: hashing per user would dominate the set-up
    organiser = User.objects.create(username=f"{prefix}-organiser", password=hashed)
    grant_organiser(organiser)
    staff = [User.objects.create(username=f"{prefix}-arbiter-{i:02d}", password=hashed) for i in range(arbiters)]
    tournament = Tournament.objects.create(name="Torneo di prova (benchmark)", start_date="2026-01-24",
                                           organiser=organiser, published=True, rounds_planned=rounds + open_rounds,
                                           discard_worst=1, tiebreak="best_results,wins")
    tournament.arbiters.set(staff)
    clubs = Club.objects.bulk_create([Club(name=f"Club {i:02d}" if prefix == "bench" else f"{prefix} {i:02d}", city="Como") for i in range(20)])
    people = Player.objects.bulk_create([Player(first_name=f"Nome{i:03d}", last_name=f"Cognome{i:03d}",
                                                club=clubs[i % len(clubs)]) for i in range(players)])
    regs = Registration.objects.bulk_create([Registration(tournament=tournament, player=p, present=True)
                                             for p in people])
    open_tables = []
    for number in range(1, rounds + open_rounds + 1):
        rng.shuffle(regs)
        rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PUBLISHED)
        tables = Table.objects.bulk_create([Table(round=rnd, number=t + 1) for t in range(len(regs) // 4)])
        Seat.objects.bulk_create([Seat(table=table, registration=reg, position=p + 1)
                                  for table in tables for p, reg in enumerate(regs[4 * (table.number - 1):][:4])])
        if number > rounds:
            open_tables = [t.number for t in tables]
            continue
        for table in tables:
            seats = list(table.seats.order_by("position").values_list("pk", flat=True))
            lines = [results.ResultLine(seat_id=s, table_points=tp, risiko=r, eliminated=e)
                     for s, tp, r, e in random_result(rng, seats)]
            results.table_result_submit(user=organiser, table=table, lines=lines, version=0)
        services.round_close(user=organiser, rnd=rnd)
        services.standings_publish(user=organiser, rnd=rnd)
    return {"tournament": tournament.pk, "open_tables": open_tables, "arbiters": [u.username for u in staff],
            "registrations": [reg.pk for reg in regs]}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One gunicorn instance on a loopback port; start() waits until it answers."""

    def __init__(self, env, workers, port=None, log=None, threads=None, root=ROOT):
        self.env, self.workers, self.port, self.log = env, workers, port or free_port(), log
        self.threads, self.root = threads, Path(root)
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def command(self):
        # Production's settings (gunicorn.conf.py: threaded workers), on a loopback port.
        command = [sys.executable, "-m", "gunicorn", "risiko_site.wsgi:application", "--config", "gunicorn.conf.py",
                   "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning"]
        if self.threads:
            command += ["--threads", str(self.threads)]
        return command

    def start(self):
        output = open(self.log, "ab") if self.log else None
        self.proc = subprocess.Popen(self.command(),
                                     cwd=self.root, env=self.env, start_new_session=True, stderr=output)
        if output:
            output.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/static/css/torneo.css", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{self.command()[2]} did not start") from None
                time.sleep(0.2)

    def kill(self):
        """Stop at once, as a crashed host: SIGKILL to the master and its workers."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def collect_static(env, root=ROOT):
    """Collected static files, compressed as production's storage writes them (whitenoise serves
    those); returns whether this run created the folder (and so removes it at the end)."""
    static_root = Path(root) / "staticfiles"  # settings.STATIC_ROOT
    collected = not static_root.exists()
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=root, env=env,
                   check=True)
    subprocess.run([sys.executable, "-m", "whitenoise.compress", "--quiet", str(static_root)], cwd=ROOT, check=True)
    return collected


@contextmanager
def gunicorn(bench_url, workers=2, log=None, server=None, threads=None, root=ROOT, **extra_env):
    """gunicorn on a free loopback port with whitenoise serving the collected static files (compressed
    as in production); yields the base URL (or, with `server=True`, the Server, to kill and start it
    again) and stops the server (and its workers) at the end. `log`: a file for its stderr. `root`:
    the code it serves (another commit's checkout, see `checkout`)."""
    env = server_env(bench_url, **extra_env)
    if Path(root) != ROOT:
        env["PYTHONPATH"] = str(root)
    collected = collect_static(env, root)
    instance = Server(env, workers, log=log, threads=threads, root=root)
    try:
        instance.start()
        yield instance if server else instance.base
    finally:
        instance.stop()
        if collected:
            shutil.rmtree(Path(root) / "staticfiles", ignore_errors=True)


@contextmanager
def checkout(commit):
    """Another commit's code in a temporary folder (`git worktree add --detach`), for a benchmark that
    serves it beside this one's; removed at the end."""
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="torneo-bench-before-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(folder), commit], cwd=ROOT, check=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def commit_name(ref="HEAD"):
    """A commit's short hash (and "+changes" when the working tree differs from it)."""
    name = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    if ref == "HEAD" and subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode:
        name += "+changes"
    return name


def group_cpu(pgid):
    """CPU seconds (user + system) the processes of group `pgid` have used so far (a server started with its
    own session: its master and workers; a worker that ended meanwhile is not counted)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                total += int(fields[11]) + int(fields[12])  # utime, stime (the 14th and 15th fields)
        except (OSError, IndexError, ValueError):
            continue
    return total / ticks


def machine_speed():
    """The machine's `sum(range(10**6))` time in ms (best of 5), printed beside every figure."""
    import timeit
    return min(timeit.repeat("sum(range(10**6))", number=1, repeat=5)) * 1000


def compose_command(service):
    """The command of a docker-compose.yml service (production's), as a list."""
    import yaml
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"][service]["command"]


class LiveServer(Server):
    """The live channel's uvicorn: docker-compose.yml's `live` command, on a loopback port (and
    `workers` processes when given, else production's number)."""

    def command(self):
        command = [sys.executable, "-m", *compose_command("live"), "--log-level", "warning"]
        for option, value in (("--host", "127.0.0.1"), ("--port", str(self.port)), ("--workers", self.workers)):
            if value is None:
                continue
            if option in command:
                command[command.index(option) + 1] = value
            else:
                command += [option, value]
        return command


class Worker(Server):
    """docker-compose.yml's `worker`: the jobs of the "pages" backend (the public pages after a change)."""

    def command(self):
        return [sys.executable, *compose_command("worker")[1:]]

    def start(self):
        output = open(self.log, "ab") if self.log else None
        self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=self.env, start_new_session=True, stderr=output)
        if output:
            output.close()
        return self


@contextmanager
def worker(bench_url, log=None, **extra_env):
    """The pages' worker, sharing the database and the cache; stopped at the end."""
    instance = Worker(server_env(bench_url, **extra_env), None, log=log)
    try:
        yield instance.start()
    finally:
        instance.stop()


@contextmanager
def live_server(bench_url, workers=None, log=None, **extra_env):
    """uvicorn serving the live channel on a free loopback port, sharing the database and the cache;
    yields the LiveServer (its `proc` leads the process group of its workers). Start it inside
    `gunicorn()`, which collects the static files its start-up check asks for."""
    instance = LiveServer(server_env(bench_url, **extra_env), None if workers is None else str(workers), log=log)
    try:
        yield instance.start()
    finally:
        instance.stop()


def group_rss(pgid):
    """{pid: resident memory in bytes (VmRSS)} of the processes of group `pgid` (a server started with
    its own session: its master and workers)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:  # the fields after the name: state, ppid, pgrp...
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue  # a process that ended meanwhile
        kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        found[int(stat.parent.name)] = kb * 1024
    return found


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
