"""The files a club's server is run from (README, "Deployment"): .env.example, `make env`, the
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


def test_the_caddyfile_routes_the_staff_paths_of_the_readmes_nginx_example():
    readme = (ROOT / "README.md").read_text()
    nginx = set(re.findall(r"location (/\w+/)\s*\{ proxy_pass http://torneo_staff; \}", readme))
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


@pytest.fixture
def fake_pg_dump(tmp_path):
    """A pg_dump that writes the URL it was given into its --file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "pg_dump"
    script.write_text('#!/bin/sh\nfor a; do case "$a" in --file=*) f=${a#--file=};; --dbname=*) d=${a#--dbname=};; '
                      'esac; done\nprintf %s "$d" > "$f"\n')
    script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "DATABASE_URL": "postgres://torneo@db/torneo"}


def _backup(env, *args, **extra):
    return subprocess.run(["sh", "deploy/backup.sh", *args], cwd=ROOT, env={**env, **extra}, capture_output=True,
                          text=True, timeout=30)


def test_a_backup_is_named_by_its_time_and_old_ones_are_deleted(tmp_path, fake_pg_dump):
    folder = tmp_path / "backups"
    folder.mkdir()
    old, recent = folder / "torneo-20200101-033000-nightly.dump", folder / "torneo-20200201-033000-nightly.dump"
    for path, days in ((old, 31), (recent, 29)):
        path.write_text("x")
        os.utime(path, (time.time() - days * 86400, time.time() - days * 86400))
    assert _backup(fake_pg_dump, "fresh", BACKUP_DIR=str(folder)).returncode == 1  # nothing in the last 26 hours
    proc = _backup(fake_pg_dump, "once", "before-migrate", BACKUP_DIR=str(folder))
    assert proc.returncode == 0, proc.stderr
    dumps = sorted(p.name for p in folder.iterdir())
    assert len(dumps) == 2 and dumps[0] == recent.name
    assert re.fullmatch(r"torneo-\d{8}-\d{6}-before-migrate\.dump", dumps[1])
    assert (folder / dumps[1]).read_text() == "postgres://torneo@db/torneo"
    assert stat.S_IMODE((folder / dumps[1]).stat().st_mode) == 0o600
    assert _backup(fake_pg_dump, "fresh", BACKUP_DIR=str(folder)).returncode == 0


def test_the_nightly_backup_refuses_a_time_that_is_not_one(tmp_path, fake_pg_dump):
    proc = _backup(fake_pg_dump, "nightly", BACKUP_DIR=str(tmp_path), BACKUP_AT="25:99")
    assert proc.returncode == 2 and "BACKUP_AT=25:99" in proc.stderr
