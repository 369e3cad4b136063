"""The files a club's server is run from (docs/admin/deployment.md): .env.example, `make env`, the
Caddyfile and the backup script. The proxy itself is run by `make proxy-check` and a backup restored by
`make restore-check` (both in .ci/run)."""
import os
import re
import stat
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE_TEXT = (ROOT / "docker-compose.yml").read_text()
EXAMPLE = (ROOT / ".env.example").read_text()
CADDYFILE = (ROOT / "Caddyfile").read_text()


def _example_variables():
    """{name: the comment lines just above it} of .env.example."""
    found, comment = {}, []
    for line in EXAMPLE.splitlines():
        if line.startswith("#"):
            comment.append(line)
        elif "=" in line:
            found[line.split("=", 1)[0]] = comment
            comment = []
        else:
            comment = []
    return found


def test_env_example_lists_every_variable_the_compose_file_reads_with_a_comment():
    read = set(re.findall(r"\$\{([A-Z_][A-Z0-9_]*)", COMPOSE_TEXT))
    listed = _example_variables()
    assert read == set(listed)
    assert [name for name, comment in listed.items() if not comment] == []


def test_the_caddyfile_routes_the_staff_paths_of_the_deployment_guides_nginx_example():
    guide = (ROOT / "docs" / "admin" / "deployment.md").read_text()
    nginx = set(re.findall(r"location (/\w+/)\s*\{ proxy_pass http://torneo_staff; \}", guide))
    assert nginx == {"/arbitro/", "/gestione/", "/accounts/", "/admin/"}
    matcher = re.search(r"@staff path (.+)", CADDYFILE).group(1).split()
    assert sorted(matcher) == sorted(f"{path}*" for path in nginx)
    assert "reverse_proxy {$STAFF_POOL:web-staff:8000}" in CADDYFILE
    assert "reverse_proxy {$PUBLIC_POOL:web:8000}" in CADDYFILE
    assert re.search(r"^\{\$DOMAIN\} \{$", CADDYFILE, re.M) and "email {$EMAIL}" in CADDYFILE
    assert "encode @anonymous gzip" in CADDYFILE


def test_the_caddyfile_limits_bodies_times_out_slow_clients_and_leaves_logged_in_pages_uncompressed():
    """What `make proxy-check` checks through a running Caddy, read here from the file: the body limit is
    the application's (11 MB), headers have 10 s, an idle connection 2 minutes, and a request carrying
    the session cookie is not compressed."""
    limit = int(re.search(r"max_size \{\$REQUEST_BODY_MAX_BYTES:(\d+)\}", CADDYFILE).group(1))
    assert limit == settings.REQUEST_BODY_MAX_MB * 1024 * 1024
    assert re.search(r"read_header \{\$READ_HEADER_TIMEOUT:10s\}", CADDYFILE)
    assert re.search(r"idle \{\$IDLE_TIMEOUT:2m\}", CADDYFILE)
    anonymous = re.search(r"@anonymous not header_regexp Cookie (.+)", CADDYFILE).group(1)
    assert settings.SESSION_COOKIE_NAME in anonymous
    assert "encode gzip" not in CADDYFILE   # nothing compresses every answer


def _make_env(tmp_path, *, stdin="", via_make=False, **values):
    env = {**os.environ, "ENV_FILE": str(tmp_path / ".env"), **values}
    command = ["make", "-s", "env"] if via_make else ["sh", "deploy/make-env.sh"]
    return subprocess.run(command, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=30)


def _values(path):
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line and line[0] != "#")


def test_make_env_asks_the_domain_and_the_email_and_makes_the_secrets(tmp_path):
    proc = _make_env(tmp_path, via_make=True, stdin="Torneo.MioClub.it\nsegreteria@mioclub.it\n")
    assert proc.returncode == 0, proc.stderr
    written = tmp_path / ".env"
    values = _values(written)
    assert (values["DOMAIN"], values["EMAIL"]) == ("torneo.mioclub.it", "segreteria@mioclub.it")
    assert re.fullmatch(r"[A-Za-z0-9]{64}", values["SECRET_KEY"])
    assert re.fullmatch(r"[A-Za-z0-9]{32}", values["POSTGRES_PASSWORD"])
    assert set(values) == set(_example_variables())  # the optional ones with their defaults and comments
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    other = tmp_path / "other"
    other.mkdir()
    assert _make_env(other, DOMAIN="torneo.mioclub.it", EMAIL="a@mioclub.it").returncode == 0
    again = _values(other / ".env")
    assert again["SECRET_KEY"] != values["SECRET_KEY"] and again["POSTGRES_PASSWORD"] != values["POSTGRES_PASSWORD"]


def test_make_env_runs_without_questions_and_never_overwrites(tmp_path):
    proc = _make_env(tmp_path, DOMAIN="torneo.example.org", EMAIL="club@example.org")
    assert proc.returncode == 0, proc.stderr
    before = (tmp_path / ".env").read_text()
    proc = _make_env(tmp_path, DOMAIN="altro.example.org", EMAIL="club@example.org")
    assert proc.returncode == 1 and "already exists" in proc.stderr
    assert (tmp_path / ".env").read_text() == before


@pytest.mark.parametrize("domain, email", [("https://torneo.example.org", "a@example.org"), ("torneo", "a@example.org"),
                                           ("torneo.example.org", "not-an-email"), ("", "")])
def test_make_env_refuses_what_is_not_a_domain_or_an_email(tmp_path, domain, email):
    proc = _make_env(tmp_path, DOMAIN=domain, EMAIL=email)
    assert proc.returncode == 2
    assert not (tmp_path / ".env").exists()


def _fake(bin_dir, name, body):
    script = bin_dir / name
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)


@pytest.fixture
def fake_pg_dump(tmp_path):
    """A pg_dump that writes the URL and snapshot it was given into its --file (exit 1 when
    FAKE_PG_DUMP_FAILS is set); a psql that runs the backup script's `\\!` lines as psql would and
    writes a one-line manifest into its -o file; curl and rclone that note their arguments in calls.log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "pg_dump", '[ -z "$FAKE_PG_DUMP_FAILS" ] || exit 1\n'
          'for a; do case "$a" in --file=*) f=${a#--file=};; --dbname=*) d=${a#--dbname=};; '
          '--snapshot=*) s=${a#--snapshot=};; esac; done\nprintf "%s %s" "$d" "$s" > "$f"\n')
    _fake(bin_dir, "psql", 'prev=; for a; do [ "$prev" = -o ] && out=$a; prev=$a; done\n'
          'export TORNEO_SNAPSHOT=snapshot-1\n'
          'while IFS= read -r line; do case "$line" in "\\!"*) sh -c "${line#??}";; esac; done\n'
          'printf "tournaments_tournament\\t1\\tabc\\n" > "$out"\n')
    calls = tmp_path / "calls.log"
    _fake(bin_dir, "curl", f'echo "curl $*" >> {calls}\n')
    _fake(bin_dir, "rclone", f'echo "rclone $*" >> {calls}\n[ -z "$FAKE_RCLONE_FAILS" ] || exit 1\n')
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "DATABASE_URL": "postgres://torneo@db/torneo"}


def _calls(tmp_path):
    log = tmp_path / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def _backup(env, *args, **extra):
    return subprocess.run(["sh", "deploy/backup.sh", *args], cwd=ROOT, env={**env, **extra}, capture_output=True,
                          text=True, timeout=30)


def test_a_backup_is_named_by_its_time_and_old_ones_are_deleted(tmp_path, fake_pg_dump):
    folder = tmp_path / "backups"
    folder.mkdir()
    old, recent = folder / "torneo-20200101-033000-nightly.dump", folder / "torneo-20200201-033000-nightly.dump"
    for path, days in ((old, 31), (recent, 29)):
        for each in (path, Path(f"{path}.manifest")):
            each.write_text("x")
            os.utime(each, (time.time() - days * 86400, time.time() - days * 86400))
    assert _backup(fake_pg_dump, "fresh", BACKUP_DIR=str(folder)).returncode == 1  # nothing in the last 26 hours
    proc = _backup(fake_pg_dump, "once", "before-migrate", BACKUP_DIR=str(folder))
    assert proc.returncode == 0, proc.stderr
    dumps = sorted(p.name for p in folder.iterdir())
    assert len(dumps) == 4 and dumps[:2] == [recent.name, f"{recent.name}.manifest"]
    assert re.fullmatch(r"torneo-\d{8}-\d{6}-before-migrate\.dump", dumps[2]) and dumps[3] == f"{dumps[2]}.manifest"
    # The dump and the manifest of one snapshot.
    assert (folder / dumps[2]).read_text() == "postgres://torneo@db/torneo snapshot-1"
    assert (folder / dumps[3]).read_text() == "tournaments_tournament\t1\tabc\n"
    assert {stat.S_IMODE((folder / name).stat().st_mode) for name in dumps[2:]} == {0o600}
    assert _backup(fake_pg_dump, "fresh", BACKUP_DIR=str(folder)).returncode == 0


def test_the_nightly_backup_refuses_a_time_that_is_not_one(tmp_path, fake_pg_dump):
    proc = _backup(fake_pg_dump, "nightly", BACKUP_DIR=str(tmp_path), BACKUP_AT="25:99")
    assert proc.returncode == 2 and "BACKUP_AT=25:99" in proc.stderr


@pytest.mark.parametrize("days", ["0", "-1", "abc", "1.5", "00"])
@pytest.mark.parametrize("mode", ["once", "nightly"])
def test_a_keep_days_that_would_delete_the_new_dump_is_refused(tmp_path, fake_pg_dump, days, mode):
    folder = tmp_path / "backups"
    folder.mkdir()
    kept = folder / "torneo-20200101-033000-nightly.dump"
    kept.write_text("x")
    proc = _backup(fake_pg_dump, mode, BACKUP_DIR=str(folder), BACKUP_KEEP_DAYS=days)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"backup: BACKUP_KEEP_DAYS={days} would delete the dump just written")
    assert [p.name for p in folder.iterdir()] == [kept.name]


def test_one_day_keeps_the_new_dump(tmp_path, fake_pg_dump):
    folder = tmp_path / "backups"
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(folder), BACKUP_KEEP_DAYS="1")
    assert proc.returncode == 0, proc.stderr
    assert len(list(folder.glob("torneo-*.dump"))) == 1


def test_a_failed_backup_says_so_and_pings_the_failure(tmp_path, fake_pg_dump):
    folder = tmp_path / "backups"
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(folder), FAKE_PG_DUMP_FAILS="1",
                   BACKUP_PING_URL="https://hc-ping.com/abc")
    assert proc.returncode == 1
    assert re.search(r"^backup: FAILED at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: pg_dump failed$", proc.stderr, re.M)
    assert list(folder.iterdir()) == []  # nothing half-written left for the newest
    assert _calls(tmp_path) == ["curl -fsS -m 10 --retry 3 -o /dev/null https://hc-ping.com/abc/fail"]


def test_a_backup_is_copied_off_the_server_and_pinged(tmp_path, fake_pg_dump):
    folder = tmp_path / "backups"
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(folder), BACKUP_RCLONE_REMOTE="offsite:torneo",
                   BACKUP_PING_URL="https://hc-ping.com/abc")
    assert proc.returncode == 0, proc.stderr
    dump = next(folder.glob("torneo-*.dump")).name
    assert _calls(tmp_path) == [f"rclone copyto {folder}/{dump} offsite:torneo/{dump}",
                                f"rclone copyto {folder}/{dump}.manifest offsite:torneo/{dump}.manifest",
                                "curl -fsS -m 10 --retry 3 -o /dev/null https://hc-ping.com/abc"]
    assert f"backup: copied off the server to offsite:torneo/{dump}" in proc.stdout


def test_a_failed_copy_off_the_server_is_a_failed_backup_that_keeps_the_dump(tmp_path, fake_pg_dump):
    folder = tmp_path / "backups"
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(folder), BACKUP_RCLONE_REMOTE="offsite:torneo",
                   FAKE_RCLONE_FAILS="1", BACKUP_PING_URL="https://hc-ping.com/abc")
    assert proc.returncode == 1 and "the copy to offsite:torneo failed" in proc.stderr
    assert len(list(folder.glob("torneo-*.dump"))) == 1
    assert _calls(tmp_path)[-1].endswith("https://hc-ping.com/abc/fail")


# --- deploy/restore.sh and deploy/upgrade.sh, with a compose command that notes what it is asked ----------

@pytest.fixture
def fake_compose(tmp_path):
    """A `docker compose` noting each call in compose.log; `run` fails when FAKE_RUN_FAILS is set, the
    health check answers after FAKE_UNHEALTHY_TIMES failures."""
    log = tmp_path / "compose.log"
    script = tmp_path / "compose"
    script.write_text(f'#!/bin/sh\necho "$*" >> {log}\n'
                      'case "$1" in run) [ -z "$FAKE_RUN_FAILS" ] || exit 1;; esac\n')
    script.chmod(0o755)
    return {**os.environ, "COMPOSE": str(script)}, log


def _script(name, env, *args, cwd=ROOT):
    return subprocess.run(["sh", str(ROOT / "deploy" / name), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=30)


def test_restore_stops_every_service_that_holds_the_database_then_restores_and_checks_health(tmp_path, fake_compose):
    import yaml
    env, log = fake_compose
    (tmp_path / "backups").mkdir()
    (tmp_path / "backups" / "torneo-20261128-033000-nightly.dump").write_text("x")
    proc = _script("restore.sh", env, "backups/torneo-20261128-033000-nightly.dump", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text().splitlines()
    services = yaml.safe_load(COMPOSE_TEXT)["services"]
    holders = {name for name, s in services.items() if s.get("restart") == "unless-stopped"
               and ("DATABASE_URL" in (s.get("environment") or {}) or "depends_on" in s and name != "db")}
    assert holders == {"proxy", "web", "web-staff", "live", "worker", "sender", "backup"}
    assert calls[0].split()[0] == "stop" and set(calls[0].split()[1:]) == holders
    assert calls[1:] == ["up -d --wait db redis", "run --rm restore-db /backups/torneo-20261128-033000-nightly.dump",
                         "up -d", "exec -T web python deploy/healthcheck.py"]
    assert proc.stdout.splitlines()[-1].startswith("restore: OK")


def test_a_restore_that_fails_starts_the_site_again_on_the_database_as_it_was(tmp_path, fake_compose):
    env, log = fake_compose
    (tmp_path / "backups").mkdir()
    (tmp_path / "backups" / "torneo-20261128-033000-nightly.dump").write_text("x")
    proc = _script("restore.sh", {**env, "FAKE_RUN_FAILS": "1"}, "backups/torneo-20261128-033000-nightly.dump",
                   cwd=tmp_path)
    assert proc.returncode == 2 and "was not restored" in proc.stderr
    assert log.read_text().splitlines()[-1] == "up -d"


@pytest.mark.parametrize("dump", ["", "/etc/passwd", "backups/torneo-missing.dump"])
def test_restore_refuses_what_is_not_a_dump_of_the_backups_folder(tmp_path, fake_compose, dump):
    env, log = fake_compose
    proc = _script("restore.sh", env, dump, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("restore: ")
    assert not log.exists()  # nothing stopped


def test_upgrade_pulls_builds_starts_and_checks_health(tmp_path, fake_compose):
    env, log = fake_compose
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "git", f'echo "git $*" >> {log}\ncase "$1" in rev-parse) echo abc1234;; esac\n')
    proc = _script("upgrade.sh", {**env, "PATH": f"{bin_dir}:{env['PATH']}"}, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert log.read_text().splitlines() == ["git rev-parse --short HEAD", "git pull --ff-only", "git rev-parse --short HEAD",
                                            "build --pull", "up -d", "exec -T web python deploy/healthcheck.py"]


def test_the_database_password_is_never_on_a_command_line(tmp_path, fake_pg_dump):
    """`ps` during a backup showed pg_dump's and psql's arguments: the password goes in the environment."""
    bin_dir = tmp_path / "bin"
    argv = tmp_path / "argv.log"
    _fake(bin_dir, "pg_dump", f'echo "pg_dump $*" >> {argv}\n'
          'for a; do case "$a" in --file=*) f=${a#--file=};; --dbname=*) d=${a#--dbname=};; esac; done\n'
          'printf "%s %s" "$d" "$PGPASSWORD" > "$f"\n')
    psql = (bin_dir / "psql").read_text().replace("#!/bin/sh\n", f'#!/bin/sh\necho "psql $*" >> {argv}\n')
    (bin_dir / "psql").write_text(psql)
    folder = tmp_path / "backups"
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(folder), DATABASE_URL="postgres://torneo:s3cret@db:5432/torneo")
    assert proc.returncode == 0, proc.stderr
    [dump] = folder.glob("torneo-*.dump")
    assert dump.read_text() == "postgres://torneo@db:5432/torneo s3cret"
    calls = argv.read_text()
    assert "pg_dump --format=custom" in calls and "psql -X" in calls and "s3cret" not in calls


def test_a_percent_encoded_password_is_refused_by_name(tmp_path, fake_pg_dump):
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(tmp_path), DATABASE_URL="postgres://torneo:a%40b@db/torneo")
    assert proc.returncode == 2
    assert proc.stderr.startswith("DATABASE_URL: its password holds a percent-encoded character")


def test_a_full_backup_disk_is_said_to_be_one(tmp_path, fake_pg_dump):
    bin_dir = tmp_path / "bin"
    _fake(bin_dir, "psql", 'echo "psql: error: could not write to file \\"x\\": No space left on device" >&2\nexit 1\n')
    folder = tmp_path / "backups"
    proc = _backup(fake_pg_dump, "once", BACKUP_DIR=str(folder))
    assert proc.returncode == 1
    assert re.search(rf"^backup: FAILED at [-\d: ]+: the disk of {folder} is full \(No space left on device: ", proc.stderr,
                     re.M)
    assert "does not answer" not in proc.stderr
